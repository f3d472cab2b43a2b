"""``agreement-sql plan``: how many items to annotate (mirrors
:func:`agreement_sql.planning.sample_size` and :func:`agreement_sql.planning.achieved_precision`).

``plan size`` needs no data; ``plan precision SOURCE`` reads the ratings at hand. Exit 0, or 3
from ``plan precision`` when a target was given and the data do not reach it yet.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..formatting import flatten, table
from ..planning import achieved_precision, sample_size
from ._common import (add_engine_arguments, add_output_arguments, add_source_arguments,
                      connection, emit, source_keywords)

SIZE_COLUMNS = ["coefficient", "method", "n_items", "expected", "target", "ci_width",
                "lower_bound", "confidence", "assurance", "n_raters", "achieved_share"]
PRECISION_COLUMNS = ["metric", "group", "coefficient", "value", "ci_low", "ci_high", "ci_level",
                     "n_items", "target_met", "n_needed", "n_more"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plan", help="items needed for a target interval width or lower bound",
                       description="Study planning: `plan size` gives the items a target precision "
                                   "needs (closed forms for Cohen's and Fleiss' kappa and the ICC, "
                                   "else a seeded simulation in the database); `plan precision "
                                   "SOURCE` what the ratings at hand support and how many more "
                                   "items reach the target.")
    inner = p.add_subparsers(dest="plan_command", metavar="WHAT", parser_class=type(p))
    inner.required = True
    size = inner.add_parser("size", help="items needed (no data)")
    size.add_argument("--coefficient", default="cohen_kappa",
                      help="cohen_kappa, fleiss_kappa, icc, or any coefficient (simulated) [cohen_kappa]")
    size.add_argument("--expected", type=float, required=True, help="the anticipated value")
    _targets(size, width="--ci-width")
    size.add_argument("--n-raters", "--raters", dest="n_raters", type=int, default=2,
                      help="raters per item [2]")
    size.add_argument("--n-categories", "--categories", dest="n_categories", type=int,
                      default=None, help="categories [2, or as --prevalence]")
    size.add_argument("--prevalence", default=None, metavar="P or P1,P2,...",
                      help="share of the positive category, or one share per category [equal]")
    size.add_argument("--assurance", type=float, default=None,
                      help="reach the lower bound in this share of studies, not on average")
    size.add_argument("--n-sim", type=int, default=None, help="simulated studies per round [200]")
    size.add_argument("--seed", type=int, default=None, help="simulation seed [1]")
    add_engine_arguments(size)
    add_output_arguments(size, formats=("json", "table"))
    size.set_defaults(run=run_size)
    precision = inner.add_parser("precision", help="what the ratings at hand support")
    add_source_arguments(precision, group_by=True)
    precision.add_argument("--coefficient", default="cohen_kappa",
                           help="a coefficient with an analytic interval, or icc [cohen_kappa]")
    precision.add_argument("--form", default="ICC2", help="the ICC form with --coefficient icc [ICC2]")
    precision.add_argument("--raters", default=None, metavar="A,B", help="Cohen's kappa: the pair")
    _targets(precision, width="--target-width")
    add_output_arguments(precision, formats=("json", "table", "csv"))
    precision.set_defaults(run=run_precision)


def _targets(p: argparse.ArgumentParser, *, width: str) -> None:
    p.add_argument(width, dest="width", type=float, default=None,
                   help="full width of the two-sided interval at --confidence")
    p.add_argument("--lower-bound", type=float, default=None,
                   help="one-sided --confidence lower bound to reach")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level [0.95]")


def _prevalence(text: str | None) -> Any:
    if text is None:
        return None
    parts = [float(x) for x in text.split(",")]
    return parts[0] if len(parts) == 1 else parts


def run_size(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = sample_size(args.coefficient, expected=args.expected, ci_width=args.width,
                             lower_bound=args.lower_bound, n_raters=args.n_raters,
                             n_categories=args.n_categories,
                             prevalence=_prevalence(args.prevalence),
                             confidence=args.confidence, assurance=args.assurance,
                             n_sim=args.n_sim, seed=args.seed, con=engine)
    finally:
        engine.close()

    def text(r: Any) -> str:
        out = table([r], [c for c in SIZE_COLUMNS if c in r])
        out += f"source: {r['source']}\n" + "".join(f"note: {n}\n" for n in r["notes"])
        return out
    emit(args, result, table_text=text)
    return 0


def run_precision(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        raters = [r.strip() for r in args.raters.split(",")] if args.raters else None
        result = achieved_precision(args.source, coefficient=args.coefficient,
                                    target_width=args.width, lower_bound=args.lower_bound,
                                    confidence=args.confidence, raters=raters, form=args.form,
                                    con=engine, **source_keywords(args))
    finally:
        engine.close()

    def text(r: Any) -> str:
        rows = flatten(r if isinstance(r, list) else [r])
        chosen = [c for c in PRECISION_COLUMNS if c in rows[0]]
        chosen[1:1] = [c for c in rows[0] if c.startswith("group.")]
        return table(rows, chosen)
    emit(args, result, table_text=text)
    rows = result if isinstance(result, list) else [result]
    return 3 if any(r["target_met"] is False for r in rows) else 0
