"""The ``agreement-sql`` command line: one module per command, each mirroring a Python function.

Exit codes: 0 success; 1 a data, schema or option error (one line on stderr, no traceback);
2 usage errors (argparse); commands with quality gates use 3 for "a gate failed".
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

import duckdb

from ..errors import AgreementError

# command modules, in the order `--help` lists them; each defines register(subparsers)
COMMANDS = ["irr", "report", "render", "metrics", "coefficients", "icc", "plan", "judges",
            "consistency", "sheet", "sample", "diagnostics", "alt-test"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: usage error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``command`` the name of a module in COMMANDS (which is also
    the command it defines), only that module's commands, so that running one command does not
    import and build the other eleven (about 30 ms of a half-second CLI call)."""
    parser = _Parser(prog="agreement-sql",
                     description="Inter-rater agreement as SQL over annotation tables (DuckDB).")
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"agreement-sql {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in ([command] if command in COMMANDS else COMMANDS):
        importlib.import_module(f".{name.replace('-', '_')}", __name__).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except AgreementError as exc:
        print(f"agreement-sql: error: {exc}", file=sys.stderr)
        return 1
    except (OSError, duckdb.Error) as exc:
        print(f"agreement-sql: error: {str(exc).strip().splitlines()[0]}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("agreement-sql: interrupted", file=sys.stderr)
        return 130
