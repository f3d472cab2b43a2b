"""``agreement-sql merge-states``: batch states added into one (mirrors
:func:`agreement_sql.batches.merge_states`; docs/batches.md)."""
from __future__ import annotations

import argparse
import sys

from ..batches import merge_states
from ..formatting import to_json
from ._common import add_engine_arguments, connection, mark


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("merge-states", help="add batch states into one",
                       description="Add the states of disjoint batches (written by summarize or "
                                   "merge-states) into one state: the counts of a unit rated in "
                                   "several batches add. Prints the merged state's summary as "
                                   "JSON.")
    mark(p, p.add_argument("states", nargs="+", metavar="STATE",
                           help="a state's .parquet file (or a quoted glob of them)"), "input")
    add_engine_arguments(p)
    mark(p, p.add_argument("--output", "-o", required=True, metavar="PATH",
                           help="the merged state's .parquet file (never one of the inputs)"),
         "output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = merge_states(list(args.states), to=args.output, con=engine)
    finally:
        engine.close()
    sys.stdout.write(to_json(result))
    return 0
