"""``agreement-sql render``: print the exact SQL a metric runs (mirrors :func:`agreement_sql.render`)."""
from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError
from ..formatting import ESCAPED
from ..rendering import render
from ._common import mark, parse_pairs

# what the printed SQL may hold as it is: a quoted identifier keeps its line breaks and tabs
# (harmless on a terminal); any other character of formatting.ESCAPED would reach the terminal
# as a control sequence, and escaping it would change the identifier
KEPT = {0x09, 0x0A}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="print the SQL a template runs, to run by hand in DuckDB",
                       description="Render sql/TEMPLATE.sql.j2 against a relation of your own "
                                   "(default: a view named ratings with columns item, rater, value).")
    p.add_argument("template", metavar="TEMPLATE", help="e.g. krippendorff_alpha (see `metrics`)")
    p.add_argument("--relation", default="ratings", help="the view or table to read [ratings]")
    p.add_argument("--item", default="item")
    p.add_argument("--rater", default="rater")
    p.add_argument("--value", default="value")
    p.add_argument("--metric", default=None)
    p.add_argument("--group-by", action="append", default=[], metavar="COLUMN")
    p.add_argument("--dialect", choices=["duckdb", "spark", "postgres", "bigquery", "snowflake"], default="duckdb")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a structural template option, e.g. level=ordinal (repeatable)")
    p.add_argument("--explain", action="store_true",
                   help="print the route instead of the SQL: the producers the statement uses, "
                        "what each gathers and why")
    mark(p, p.add_argument("--source", default=None, metavar="SOURCE",
                           help="with --explain: the route a call on this file would take, "
                                "from its profile"), "input")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    choices: dict[str, Any] = dict(parse_pairs(args.option, "--option"))
    if args.source is not None and not args.explain:
        raise OptionError("--source is for --explain (the route of a call on that file)")
    for option in ("relation", "item", "rater", "value", "metric"):
        _printable(f"--{option}", getattr(args, option))
    for name in args.group_by:
        _printable("--group-by", name)
    print(render(args.template, dialect=args.dialect, relation=args.relation, item=args.item,
                 rater=args.rater, value=args.value, metric=args.metric, group_by=args.group_by,
                 explain=args.explain, source=args.source, **choices), end="")
    return 0


def _printable(option: str, name: str | None) -> None:
    """Refuse a name the printed statement could only show with a terminal control character
    in it (the Python render() returns such SQL as text)."""
    bad = [ch for ch in name or "" if ord(ch) in ESCAPED and ord(ch) not in KEPT]
    if bad:
        raise OptionError(f"{option} holds the control character U+{ord(bad[0]):04X}, which the "
                          "printed SQL would send to the terminal as it is; use "
                          "agreement_sql.render() from Python for such a name")
