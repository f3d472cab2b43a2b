"""``agreement-sql icc``, ``concordance`` and ``bland-altman``: continuous scores (mirror
:func:`agreement_sql.metrics.icc.icc`, :func:`agreement_sql.metrics.concordance.concordance`
and :func:`~agreement_sql.metrics.concordance.bland_altman`)."""
from __future__ import annotations

import argparse
from typing import Any

from ..formatting import flatten, table
from ..metrics.concordance import bland_altman, concordance
from ..metrics.icc import FORMS, icc
from ._common import (add_output_arguments, add_source_arguments, connection, emit, long_table,
                      source_keywords)

ICC_COLUMNS = ["metric", "group", "form", "shrout_fleiss", "mcgraw_wong", "value", "ci_low",
               "ci_high", "f", "df1", "df2", "p_value", "n_items", "n_raters", "n_excluded_items",
               "interpretation"]
CCC_COLUMNS = ["metric", "group", "raters", "value", "ci_low", "ci_high", "pearson_r",
               "bias_correction", "n_items", "interpretation"]
BA_COLUMNS = ["metric", "group", "raters", "n_items", "bias", "bias_ci_low", "bias_ci_high",
              "sd_diff", "loa_low", "loa_high"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("icc", help="intraclass correlation (six forms, F tests, intervals)",
                       description="McGraw & Wong's six intraclass correlations (ICC1, ICC2, ICC3, "
                                   "ICC1k, ICC2k, ICC3k) per metric and slice, with the F test of "
                                   "ICC = 0 and exact (ICC1, ICC3) or approximate (ICC2) intervals. "
                                   "Listwise: only items rated by every rater enter.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--form", default=None, choices=list(FORMS), help="one form [all six]")
    p.add_argument("--ci", type=float, default=0.95, metavar="LEVEL", help="interval level [0.95]")
    add_output_arguments(p, formats=("json", "table", "csv"))
    p.set_defaults(run=run)
    for name, what in (("concordance", "Lin's concordance correlation of two raters"),
                       ("bland-altman", "Bland-Altman bias and limits of agreement of two raters")):
        q = sub.add_parser(name, help=what, description=f"{what} per metric and slice, on the items "
                                                        "both rated (differences a - b).")
        add_source_arguments(q, group_by=True)
        q.add_argument("--raters", default=None, metavar="A,B",
                       help="the two raters (a first); default: the only two")
        q.add_argument("--ci", type=float, default=0.95, metavar="LEVEL", help="interval level [0.95]")
        if name == "bland-altman":
            q.add_argument("--limits", type=float, default=0.95,
                           help="share of differences the limits hold (z from it) [0.95]")
        add_output_arguments(q, formats=("json", "table", "csv"))
        q.set_defaults(run=run_concordance if name == "concordance" else run_bland_altman)


def _rows(result: Any) -> list[dict[str, Any]]:
    """A result, a list of forms, or a list of those, as flat rows."""
    items = result if isinstance(result, list) else [result]
    out: list[dict[str, Any]] = []
    for entry in items:
        out.extend(entry if isinstance(entry, list) else [entry])
    return [r for r in out if r is not None]


def _table(columns: list[str]) -> Any:
    def render(result: Any) -> str:
        rows = flatten(_rows(result))
        if not rows:
            return table(rows)
        chosen = [c for c in columns if c in rows[0]]
        chosen[1:1] = [c for c in rows[0] if c.startswith("group.")]
        return table(rows, chosen)
    return render


def run(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = icc(args.source, form=args.form, ci=args.ci, con=engine, **source_keywords(args))
    finally:
        engine.close()
    emit(args, _rows(result) if args.format == "csv" and not long_table(args) else result, table_text=_table(ICC_COLUMNS))
    return 0


def _pair(args: argparse.Namespace) -> list[str] | None:
    return [r.strip() for r in args.raters.split(",")] if args.raters else None


def run_concordance(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = concordance(args.source, raters=_pair(args), ci=args.ci, con=engine,
                             **source_keywords(args))
    finally:
        engine.close()
    emit(args, result, table_text=_table(CCC_COLUMNS))
    return 0


def run_bland_altman(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = bland_altman(args.source, raters=_pair(args), limits=args.limits, ci=args.ci,
                              con=engine, **source_keywords(args))
    finally:
        engine.close()
    emit(args, result, table_text=_table(BA_COLUMNS))
    return 0
