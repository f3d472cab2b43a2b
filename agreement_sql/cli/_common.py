"""Options and output shared by the CLI commands.

Every argument that names a file the command reads or writes is declared with a *role*
(:func:`mark`): ``input`` (a source: path or glob), ``output`` (a file), ``output_dir`` (a
directory receiving the files listed with it), or ``spill`` (DuckDB's spill folder, neither).
The roles travel in the parsed arguments (``args._roles``), so every command is checked the
same way before it runs (:func:`check_outputs`: no output onto an input, no two outputs onto
one file) and every writer knows the command's inputs (agreement_sql.outputs).
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

from ..connection import connect
from ..engine.duckdb import DuckDBEngine
from ..errors import OptionError
from ..formatting import flatten, shown_all, table, to_csv, to_json
from ..outputs import Inputs, Output, refuse_input, refuse_same_targets, write_text

ROLES = ("input", "output", "output_dir", "spill", "database")


def mark(parser: argparse.ArgumentParser, action: argparse.Action, role: str,
         files: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()) -> argparse.Action:
    """Declare ``action``'s role (and, for an ``output_dir``, the files it receives: a tuple, or
    a function returning them when the writer's own module knows them)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, got {role!r}")
    setattr(action, "agreement_role", role)
    setattr(action, "agreement_files", files)
    roles = dict(parser.get_default("_roles") or {})
    roles[action.dest] = (role, _option_name(action), files)
    parser.set_defaults(_roles=roles)
    return action


def declared_files(files: tuple[str, ...] | Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    """The files an ``output_dir`` declared with :func:`mark` receives."""
    return files() if callable(files) else files


def _option_name(action: argparse.Action) -> str:
    longest = max(action.option_strings, key=len) if action.option_strings else None
    return longest or (action.metavar if isinstance(action.metavar, str) else action.dest)


def inputs_of(args: argparse.Namespace) -> Inputs:
    """The files, folders and globs the command reads (its ``input`` arguments)."""
    roles = getattr(args, "_roles", None) or {}
    return Inputs.of(*[getattr(args, dest, None) for dest, (role, _, _) in roles.items()
                       if role == "input"])


def check_outputs(args: argparse.Namespace) -> None:
    """Before the command runs: each output is not an input (same file, link, glob match or a
    file in an input folder) and its folder exists, and no two outputs name one file."""
    roles = getattr(args, "_roles", None) or {}
    inputs = inputs_of(args)
    targets: list[tuple[str, str]] = []
    for dest, (role, name, files) in roles.items():
        value = getattr(args, dest, None)
        if value is None:
            continue
        if role == "output":
            Output(value, name, inputs=inputs)
            targets.append((name, value))
        elif role == "output_dir":
            refuse_input(value, inputs, name)
            for file in declared_files(files):
                refuse_input(os.path.join(value, file), inputs, name)
                targets.append((name, os.path.join(value, file)))
    refuse_same_targets(targets)


def add_source_arguments(parser: argparse.ArgumentParser, *, metric: bool = True,
                         group_by: bool = False) -> None:
    mark(parser, parser.add_argument("source", metavar="SOURCE",
                                     help="Parquet, CSV, JSON or JSONL file (or a quoted glob)"),
         "input")
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
    parser.add_argument("--missing", action="extend", type=placeholders, default=None,
                        metavar="TEXT[,TEXT...]",
                        help="values that mean 'no rating', comma-separated or repeated, e.g. "
                             "--missing 'NA,*,-1' (a backslash keeps a comma: 'n\\,a'); NULL, "
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
    mark(parser, parser.add_argument("--temp-directory", default=None, metavar="PATH",
                                     help="where DuckDB spills when over --memory-limit"), "spill")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def add_output_arguments(parser: argparse.ArgumentParser, formats=("json", "table")) -> None:
    parser.add_argument("--format", choices=list(formats), default="json", help="output format [json]")
    mark(parser, parser.add_argument(
        "--output", "-o", default=None, metavar="PATH",
        help="write here, not stdout (never onto an input; a file there is replaced once the "
             "result is complete); a .parquet path, or a .csv path without --format, gets the "
             "result as long typed rows, one per slice and coefficient"), "output")


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
    """Write ``result`` in --format to --output (or stdout). JSON escapes every control
    character itself; for table and CSV the text fields of the result are escaped first
    (formatting.shown: C0, DEL, C1, bidi controls and line separators as ``\\xHH``/``\\uHHHH``,
    a backslash doubled), so no name or label can move the cursor or reorder the text."""
    if long_table(args):
        from ..tables import write

        write(result, args.output, function=str(args.command).replace("-", "_"),
              inputs=inputs_of(args), what="--output")
        return
    if args.format == "json":
        text = to_json(result)
    else:
        safe = shown_all(result)
        rows = safe if isinstance(safe, list) else [safe]
        if args.format == "csv":
            text = to_csv(rows)
        else:
            text = table_text(safe) if table_text else table(flatten(rows))
    if args.output:
        write_output(args, text)
    else:
        sys.stdout.write(text)


def long_table(args: argparse.Namespace) -> bool:
    """--output names a .parquet file, or a .csv file with no --format but the default: the
    result is written as long typed rows, one per slice and coefficient (agreement_sql.tables,
    docs/decisions/0024), as the API's to= writes it."""
    output = getattr(args, "output", None)
    if not isinstance(output, str):
        return False
    suffix = os.path.splitext(output)[1].lower()
    return suffix == ".parquet" or (suffix == ".csv" and args.format == "json")


def write_output(args: argparse.Namespace, text: str) -> None:
    """Write --output by the rules of agreement_sql.outputs: never onto an input of the
    command, a file already there replaced only once the text is complete."""
    write_text(args.output, text, "--output", inputs=inputs_of(args))


def placeholders(text: str) -> list[str]:
    """``--missing``'s argument: placeholders separated by commas (``NA,*,-1``, the README's
    form), ``\\,`` a comma inside one; each read by the typing rule like ``missing=[...]``."""
    out, current, chars = [], "", iter(text)
    for ch in chars:
        if ch == "\\":
            current += next(chars, "\\")
        elif ch == ",":
            out.append(current)
            current = ""
        else:
            current += ch
    out.append(current)
    return out
