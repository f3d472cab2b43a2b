"""The kappa-family commands: ``cohen-kappa``, ``fleiss-kappa``, ``conger-kappa``, ``scott-pi``,
``gwet-ac1``, ``brennan-prediger``, ``percent-agreement`` and ``coefficients`` (several in one
statement). Each mirrors the Python function of the same name."""
from __future__ import annotations

import argparse
import json
from typing import Any, Callable

from ..errors import OptionError
from ..formatting import flatten, table
from ..metrics.coefficients import ALL, LEVELS, coefficients
from ..metrics.cohen import cohen_kappa
from ..metrics.kappas import (brennan_prediger, conger_kappa, fleiss_kappa, gwet_ac1,
                              percent_agreement, scott_pi)
from ._common import add_output_arguments, add_source_arguments, connection, emit, source_keywords

TABLE_COLUMNS = ["metric", "group", "coefficient", "value", "se", "ci_low", "ci_high",
                 "ci_method", "observed_agreement", "chance_agreement", "n_items", "n_raters", "n_categories",
                 "weights", "interpretation"]

# command -> (function, help, takes --raters)
COMMANDS: dict[str, tuple[Callable[..., Any], str, bool]] = {
    "cohen-kappa": (cohen_kappa, "Cohen's kappa (two raters) or Light's kappa (more)", True),
    "scott-pi": (scott_pi, "Scott's pi between two raters", True),
    "fleiss-kappa": (fleiss_kappa, "Fleiss' kappa (Gwet's generalisation for missing ratings)", False),
    "conger-kappa": (conger_kappa, "Conger's kappa, Cohen's kappa for many raters", False),
    "gwet-ac1": (gwet_ac1, "Gwet's AC1 (AC2 when weighted)", False),
    "brennan-prediger": (brennan_prediger, "Brennan-Prediger coefficient", False),
    "percent-agreement": (percent_agreement, "percent agreement (a proportion)", False),
}


def register(sub: argparse._SubParsersAction) -> None:
    for name, (function, summary, pair) in COMMANDS.items():
        p = sub.add_parser(name, help=summary,
                           description=(function.__doc__ or summary).strip().split("\n\n")[0])
        _arguments(p, raters=pair)
        p.set_defaults(run=_runner(function))
    p = sub.add_parser("coefficients", help="several coefficients in one statement",
                       description="Every requested agreement coefficient per metric and slice, "
                                   "computed by one SQL statement over one scan of the ratings.")
    _arguments(p, raters=True)
    p.add_argument("--which", action="append", default=None, metavar="NAME",
                   help=f"a coefficient to compute (repeatable): {', '.join(ALL)} [all that apply]")
    p.add_argument("--level", choices=list(LEVELS), default="nominal",
                   help="Krippendorff's alpha level of measurement [nominal]")
    p.set_defaults(run=_run_coefficients)


def _arguments(p: argparse.ArgumentParser, *, raters: bool) -> None:
    add_source_arguments(p, group_by=True)
    p.add_argument("--weights", default=None,
                   help="linear, quadratic, or a JSON weight matrix: a list of rows in --categories "
                        "order, or {row: {column: weight}} [unweighted]")
    p.add_argument("--weight-basis", choices=["value", "position"], default="value",
                   help="weights from category values (or declared order) or from sorted "
                        "positions, as scikit-learn [value]")
    p.add_argument("--categories", default=None, metavar="C1,C2,...",
                   help="the declared categories in order, e.g. 1,2,3,4,5 or low,mid,high")
    if raters:
        p.add_argument("--raters", default=None, metavar="A,B",
                       help="the raters to compare (the first in the rows), comma-separated")
    p.add_argument("--ci", type=float, default=None, metavar="LEVEL",
                   help="add a standard error and interval at this level, e.g. 0.95")
    p.add_argument("--ci-method", choices=["analytic", "bootstrap"], default=None,
                   help="interval method: the analytic standard error, or a unit-resampling "
                        "bootstrap run in the database [analytic where one exists, else "
                        "bootstrap]")
    p.add_argument("--n-boot", type=int, default=None, metavar="N",
                   help="bootstrap replicates [1000]")
    p.add_argument("--seed", type=int, default=None, help="bootstrap seed [1]")
    add_output_arguments(p, formats=("json", "table", "csv"))


def parse_weights(text: str | None) -> Any:
    if text is None:
        return None
    if text.strip().lower() in ("linear", "quadratic", "unweighted", "none"):
        return text.strip().lower()
    try:
        return json.loads(text)
    except ValueError:
        raise OptionError(f"--weights must be linear, quadratic or a JSON matrix, got {text!r}") from None


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    from .alpha import parse_domain_text

    keywords = dict(source_keywords(args), weights=parse_weights(args.weights),
                    weight_basis=args.weight_basis, categories=parse_domain_text(args.categories),
                    ci=args.ci, ci_method=args.ci_method, n_boot=args.n_boot, seed=args.seed)
    if getattr(args, "raters", None):
        keywords["raters"] = [r.strip() for r in args.raters.split(",")]
    return keywords


def _runner(function: Callable[..., Any]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        con = connection(args)
        try:
            result = function(args.source, con=con, **_keywords(args))
        finally:
            con.close()
        emit(args, result, table_text=_table)
        return 0
    return run


def _run_coefficients(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        result = coefficients(args.source, which=args.which, level=args.level, con=con,
                              **_keywords(args))
    finally:
        con.close()
    rows = rows_of(result)
    if args.format == "json":
        emit(args, result)
    else:
        emit(args, rows, table_text=_table)
    return 0


def rows_of(result: Any) -> list[dict[str, Any]]:
    """``coefficients()`` output as one row per (metric, slice, coefficient)."""
    if isinstance(result, dict):
        return [dict(r) for r in result.values()]
    rows = []
    for entry in result:
        for r in entry["coefficients"].values():
            row = {"metric": entry["metric"]}
            if "group" in entry:
                row["group"] = entry["group"]
            row.update({k: v for k, v in r.items() if k not in row})
            rows.append(row)
    return rows


def _table(result: Any) -> str:
    rows = flatten(result if isinstance(result, list) else [result])
    columns = [c for c in TABLE_COLUMNS if any(c in r for r in rows)]
    columns += [c for c in rows[0] if c.startswith("group.") and c not in columns]
    columns.sort(key=lambda c: TABLE_COLUMNS.index(c.split(".")[0]))
    text = table(rows, columns)
    # a coefficient left out by default says so under the table (the JSON has `skipped`)
    for r in rows:
        if r.get("skipped"):
            where = f" for metric {r['metric']!r}" if r.get("metric") is not None else ""
            where += "".join(f", {k[len('group.'):]}={v!r}" for k, v in r.items()
                             if k.startswith("group."))
            text += (f"note: {r['coefficient']}{where} {r['skipped']} "
                     f"(command line: --which {r['coefficient']})\n")
    return text
