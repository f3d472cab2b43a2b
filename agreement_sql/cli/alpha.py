"""``agreement-sql krippendorff-alpha``: Krippendorff's alpha (mirrors :func:`agreement_sql.krippendorff_alpha`)."""
from __future__ import annotations

import argparse
import math
from typing import Any

from ..errors import OptionError
from ..metrics.krippendorff import LEVELS, krippendorff_alpha
from ._common import add_output_arguments, add_source_arguments, connection, emit, source_keywords

TABLE_COLUMNS = ["metric", "group", "level", "value", "se", "ci_low", "ci_high",
                 "observed_disagreement", "expected_disagreement", "n_items", "n_raters",
                 "n_values", "n_categories", "interpretation"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("krippendorff-alpha", help="Krippendorff's alpha at any level, with a "
                                                  "bootstrap interval",
                       description="Krippendorff's alpha (nominal, ordinal, interval, ratio) per "
                                   "metric and slice; --ci adds a unit-resampling bootstrap "
                                   "interval computed in the database.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--level", choices=list(LEVELS), default="interval",
                   help="level of measurement [interval]")
    p.add_argument("--domain", default=None, metavar="V1,V2,...",
                   help="the declared values in order, e.g. 1,2,3,4,5 or low,mid,high "
                        "(all numbers = numeric values, else text labels)")
    p.add_argument("--ci", type=float, default=None, metavar="LEVEL",
                   help="add a confidence interval at this level, e.g. 0.95")
    p.add_argument("--ci-method", choices=["analytic", "bootstrap"], default=None,
                   help="interval method; alpha has only the bootstrap [bootstrap]")
    p.add_argument("--n-boot", type=int, default=None, metavar="N",
                   help="bootstrap replicates [1000]")
    p.add_argument("--seed", type=int, default=None, help="bootstrap seed [1]")
    add_output_arguments(p, formats=("json", "table", "csv"))
    p.set_defaults(run=run)


def parse_domain_text(text: str | None) -> list[Any] | None:
    """``"1,2,3"`` -> ``[1, 2, 3]``; ``"low,mid,high"`` -> labels. Numbers only if every entry is one."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if not parts or any(p == "" for p in parts):
        raise OptionError(f"--domain must be a comma-separated list of values, got {text!r}")
    numbers: list[Any] = []
    for part in parts:
        try:
            number = float(part)
        except ValueError:
            return parts
        if not math.isfinite(number):
            return parts
        numbers.append(int(number) if number.is_integer() and "." not in part
                       and "e" not in part.lower() else number)
    return numbers


def run(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        result = krippendorff_alpha(args.source, level=args.level,
                                    domain=parse_domain_text(args.domain), ci=args.ci,
                                    ci_method=args.ci_method, n_boot=args.n_boot, seed=args.seed,
                                    con=con, **source_keywords(args))
    finally:
        con.close()
    emit(args, result, table_text=_table)
    return 0


def _table(result: Any) -> str:
    from ..formatting import flatten, table

    rows = flatten(result if isinstance(result, list) else [result])
    columns = [c for c in rows[0] if any(c == t or c.startswith(t + ".") for t in TABLE_COLUMNS)]
    columns.sort(key=lambda c: TABLE_COLUMNS.index(c.split(".")[0]))
    return table(rows, columns)
