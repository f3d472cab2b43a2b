"""``agreement-sql report``: the agreement report as one self-contained HTML page
(mirrors :func:`agreement_sql.reports.html.report`)."""
from __future__ import annotations

import argparse
import sys

from ..errors import OptionError
from ..formatting import to_json
from ..reports.html import collect, render_page
from ._common import (add_output_arguments, add_source_arguments, check_outputs, connection,
                      parse_pairs, source_keywords, write_output)
from .alt_test import add_alt_test_arguments, alt_test_keywords, judge_names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="one self-contained HTML page: verdict, questions, raters, charts",
                       description="The agreement report as one HTML file that opens offline: the "
                                   "verdict, a card per rubric question, the traces to discuss, "
                                   "heatmaps and per-rater figures. A Weval result JSON gives the "
                                   "judge report, an evaluation sheet CSV the sheet report.")
    add_source_arguments(p)
    p.add_argument("--scale", action="append", metavar="QUESTION=SCALE",
                   help="declare a question's scale: binary, likert, or MIN..MAX (repeatable)")
    p.add_argument("--threshold", type=float, default=75.0, help="ready-to-proceed threshold in percent [75]")
    p.add_argument("--max-traces", type=int, default=20, help="how many traces to discuss the page lists [20]")
    p.add_argument("--title", default=None, help="the page title [the report kind and the source]")
    add_alt_test_arguments(p, required=False)
    add_output_arguments(p, formats=("html", "json"))
    p.set_defaults(run=run, format="html")


def run(args: argparse.Namespace) -> int:
    check_outputs(args)        # before the report is computed (main() checks too)
    if args.max_traces < 0:
        raise OptionError(f"--max-traces must be 0 or more, got {args.max_traces}")
    con = connection(args)
    try:
        judges = judge_names(args.judges) if args.judges is not None else None
        data = collect(args.source, scales=parse_pairs(args.scale, "--scale") or None,
                       threshold=args.threshold, max_traces=args.max_traces, title=args.title,
                       con=con, judges=judges,
                       alt_test_options=alt_test_keywords(args) if judges else None,
                       **source_keywords(args))
    finally:
        con.close()
    text = render_page(data) if args.format == "html" else to_json(data)
    if args.output:
        write_output(args, text)
    else:
        sys.stdout.write(text)
    return 0
