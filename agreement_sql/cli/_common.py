"""Options and output shared by the CLI commands."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

from ..connection import connect
from ..engine.duckdb import DuckDBEngine
from ..errors import OptionError
from ..formatting import flatten, table, to_csv, to_json


def add_source_arguments(parser: argparse.ArgumentParser, *, metric: bool = True,
                         group_by: bool = False) -> None:
    parser.add_argument("source", metavar="SOURCE",
                        help="Parquet, CSV, JSON or JSONL file (or a quoted glob)")
    parser.add_argument("--item", default="item", help="item (unit, trace) column [item]")
    parser.add_argument("--rater", default="rater", help="rater (annotator, judge) column [rater]")
    parser.add_argument("--value", default="value", help="rating column [value]")
    if metric:
        parser.add_argument("--metric", default=None,
                            help="metric (rubric question) column; absent = one metric")
    if group_by:
        parser.add_argument("--group-by", action="append", default=None, metavar="COLUMN",
                            help="one result per slice of this column (repeatable)")
    parser.add_argument("--on-duplicate", choices=["first", "last", "mean"], default=None,
                        help="how to treat a rater who rated the same item twice [error]")
    parser.add_argument("--missing", action="append", default=None, metavar="TEXT",
                        help="a value that means 'no rating', e.g. NA or * (repeatable); NULL, "
                             "NaN and blank are always missing")
    parser.add_argument("--layout", choices=["long", "wide", "counts", "table"], default="long",
                        help="the file's shape: long rows (item, rater, value); wide, a row per "
                             "unit and a column per rater (--item names the unit column, else "
                             "a row's position is its unit); counts, a row per unit and a column "
                             "per category counting raters; table, a two-rater contingency table "
                             "(rows rater A, columns rater B) [long]")
    parser.add_argument("--rater-column", action="append", default=None, metavar="COLUMN",
                        help="--layout wide: a rater column (repeatable) [every column but the "
                             "item, metric and group-by columns]")
    add_engine_arguments(parser)


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--memory-limit", default=None, metavar="SIZE",
                        help="DuckDB memory limit, e.g. 4GB; larger work spills to disk")
    parser.add_argument("--temp-directory", default=None, metavar="PATH",
                        help="where DuckDB spills when over --memory-limit")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_output_arguments(parser: argparse.ArgumentParser, formats=("json", "table")) -> None:
    parser.add_argument("--format", choices=list(formats), default="json", help="output format [json]")
    parser.add_argument("--output", "-o", default=None, metavar="PATH", help="write here, not stdout")


class CommandEngine(DuckDBEngine):
    """The CLI's engine: a DuckDB connection honouring --memory-limit/--temp-directory, with a
    progress bar on stderr when stderr is a terminal and --quiet is not given."""

    def close(self) -> None:
        self.con.close()


def connection(args: argparse.Namespace) -> CommandEngine:
    progress = not getattr(args, "quiet", False) and sys.stderr.isatty()
    con = connect(memory_limit=args.memory_limit, temp_directory=args.temp_directory,
                  progress_bar=progress)
    return CommandEngine(con, progress=progress)


def source_keywords(args: argparse.Namespace) -> dict[str, Any]:
    keywords = {"item": args.item, "rater": args.rater, "value": args.value,
                "on_duplicate": args.on_duplicate, "missing": args.missing}
    if hasattr(args, "metric"):
        keywords["metric"] = args.metric
    if getattr(args, "group_by", None):
        keywords["group_by"] = args.group_by
    layout = getattr(args, "layout", "long")
    if layout != "long" or getattr(args, "rater_column", None):
        keywords["layout"] = layout
        if args.rater_column:
            keywords["rater_columns"] = args.rater_column
    return keywords


def parse_pairs(items: list[str] | None, what: str) -> dict[str, str]:
    """``["q1=binary", "q2=1..7"]`` -> ``{"q1": "binary", "q2": "1..7"}``."""
    out: dict[str, str] = {}
    for text in items or []:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise OptionError(f"{what} must look like NAME=VALUE, got {text!r}")
        out[key] = value
    return out


def emit(args: argparse.Namespace, result: Any, *,
         table_text: Callable[[Any], str] | None = None) -> None:
    """Write ``result`` in --format to --output (or stdout)."""
    rows = result if isinstance(result, list) else [result]
    if args.format == "json":
        text = to_json(result)
    elif args.format == "csv":
        text = to_csv(rows)
    else:
        text = table_text(result) if table_text else table(flatten(rows))
    if args.output:
        write_output(args, text)
    else:
        sys.stdout.write(text)


def write_output(args: argparse.Namespace, text: str) -> None:
    """Write --output; refuse to overwrite the source it was computed from."""
    directory = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(directory):
        raise OptionError(f"--output folder does not exist: {directory}")
    source = getattr(args, "source", None)
    if source and os.path.exists(source) and os.path.exists(args.output) \
            and os.path.samefile(source, args.output):
        raise OptionError(f"--output {args.output!r} is the source file; write the result elsewhere")
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(text)
