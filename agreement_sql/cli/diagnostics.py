"""``agreement-sql diagnostics``: who agrees with whom, rater bias, items to discuss
(mirrors :func:`agreement_sql.rater_diagnostics`)."""
from __future__ import annotations

import argparse

from ..workflows.diagnostics import MAX_ITEMS, MAX_PAIR_RATERS, rater_diagnostics
from ._common import add_output_arguments, add_source_arguments, connection, emit, source_keywords
from .judges import diagnostics_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("diagnostics", help="rater diagnostics: leave-one-out, pairs, bias, items",
                       description="Each rater's agreement with the others and the alpha without "
                                   "them, the pairwise matrix, systematic bias, and the items that "
                                   "drive disagreement.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--level", choices=["interval", "ordinal", "ratio", "nominal"], default="interval",
                   help="nominal compares labels; the others read numbers [interval]")
    p.add_argument("--max-items", type=int, default=MAX_ITEMS, help=f"items listed [{MAX_ITEMS}]")
    p.add_argument("--max-pair-raters", type=int, default=MAX_PAIR_RATERS,
                   help=f"above this many raters skip leave-one-out and pairs [{MAX_PAIR_RATERS}]")
    add_output_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        result = rater_diagnostics(args.source, level=args.level, max_items=args.max_items,
                                   max_pair_raters=args.max_pair_raters, con=con,
                                   **source_keywords(args))
    finally:
        con.close()
    emit(args, result, table_text=lambda shown: "\n".join(
        diagnostics_text(d) for d in (shown if isinstance(shown, list) else [shown])))
    return 0
