"""``agreement-sql agree``: the share of units on which every rater agrees, R irr's ``agree()``
(mirrors :func:`agreement_sql.metrics.agree.agree`)."""
from __future__ import annotations

import argparse
from typing import Any

from ..formatting import flatten, table
from ..metrics.agree import agree
from ._common import (add_output_arguments, add_source_arguments, connection, emit,
                      source_keywords)

COLUMNS = ["metric", "group", "coefficient", "value", "percent", "tolerance", "units", "n_items",
           "n_agree", "n_raters"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("agree", help="share of units on which every rater agrees (R irr agree)",
                       description="R irr's agree(): per metric and slice, the share of units "
                                   "whose ratings are all one value (or, with --tolerance, lie "
                                   "within it: numbers only); value a proportion, percent irr's "
                                   "%%-agree.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--tolerance", type=float, default=0.0,
                   help="a unit agrees when max - min <= this (numeric ratings) [0]")
    p.add_argument("--units", choices=["rated_twice", "complete"], default="rated_twice",
                   help="units counted: rated twice or more, or rated by every rater (R irr's "
                        "na.omit) [rated_twice]")
    add_output_arguments(p, formats=("json", "table", "csv"))
    p.set_defaults(run=run)


def _table(result: Any) -> str:
    rows = flatten(result if isinstance(result, list) else [result])
    if not rows:
        return table(rows)
    chosen = [c for c in COLUMNS if c in rows[0]]
    chosen[1:1] = [c for c in rows[0] if c.startswith("group.")]
    return table(rows, chosen)


def run(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = agree(args.source, tolerance=args.tolerance, units=args.units, con=engine,
                       **source_keywords(args))
    finally:
        engine.close()
    emit(args, result, table_text=_table)
    return 0
