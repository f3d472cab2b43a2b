"""``agreement-sql summarize``: one batch's ratings as a state (mirrors
:func:`agreement_sql.batches.summarize`; docs/batches.md)."""
from __future__ import annotations

import argparse
import sys

from ..batches import summarize
from ..errors import OptionError
from ..formatting import to_json
from ._common import add_source_arguments, connection, mark, source_keywords


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("summarize", help="write a batch's state (per-unit counts that merge by "
                                         "addition)",
                       description="Summarize a batch of ratings into a state: per metric and "
                                   "slice, each unit's counts per value (or, with "
                                   "--with-raters, its ratings per rater), missing values "
                                   "counted. States of disjoint batches add with merge-states; "
                                   "every command reads a state as its SOURCE. Prints the "
                                   "state's summary as JSON.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--with-raters", action="store_true",
                   help="keep each rating's rater (section unit_ratings: Cohen's, Light's, "
                        "Conger's kappa and the ICC can then be computed from the state)")
    mark(p, p.add_argument("--output", "-o", required=True, metavar="PATH",
                           help="the state's .parquet file (never an input; a file there is "
                                "replaced once the state is complete)"), "output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    keywords = source_keywords(args)
    if keywords.pop("on_duplicate", None) is not None:
        raise OptionError("summarize refuses a rater rating a unit twice: --on-duplicate does "
                          "not apply (deduplicate the batch first)")
    engine = connection(args)
    try:
        result = summarize(args.source, to=args.output, with_raters=args.with_raters,
                           con=engine, **keywords)
    finally:
        engine.close()
    sys.stdout.write(to_json(result))
    return 0
