"""``agreement-sql irr``: the workshop IRR report (mirrors :func:`agreement_sql.irr`)."""
from __future__ import annotations

import argparse

from ..formatting import irr_table
from ..reports.irr import irr
from ._common import (add_output_arguments, add_source_arguments, connection, emit, parse_pairs,
                      source_keywords)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("irr", help="workshop IRR report: pairwise %%, GDPval A^HH, alpha",
                       description="Pairwise agreement %, GDPval A^HH and Krippendorff's alpha per "
                                   "rubric question, with the seed's quality gate and suggestions.")
    add_source_arguments(p)
    p.add_argument("--scale", action="append", metavar="QUESTION=SCALE",
                   help="declare a question's scale: binary, likert, or MIN..MAX (repeatable)")
    p.add_argument("--threshold", type=float, default=75.0, help="ready-to-proceed threshold in percent [75]")
    p.add_argument("--max-traces", type=int, default=100,
                   help="how many traces the disagreement ranking lists [100]")
    p.add_argument("--max-patterns", type=int, default=20,
                   help="how many traces each pattern lists per question [20]")
    add_output_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        report = irr(args.source, scales=parse_pairs(args.scale, "--scale") or None,
                     threshold=args.threshold, max_traces=args.max_traces,
                     max_patterns=args.max_patterns, con=con,
                     **source_keywords(args))
    finally:
        con.close()
    emit(args, report, table_text=irr_table)
    error = dict(report).get("error")
    if error is not None:        # the seed's validation failed: nothing was computed
        from . import error as error_line
        error_line(f"IRR not computed: {error}")
        return 1
    return 0
