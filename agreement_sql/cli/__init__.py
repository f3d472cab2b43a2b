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
            "consistency", "sheet", "sample", "diagnostics"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        self.exit(2, f"{self.prog}: usage error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="agreement-sql",
                     description="Inter-rater agreement as SQL over annotation tables (DuckDB).")
    from .. import __version__
    parser.add_argument("--version", action="version", version=f"agreement-sql {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f".{name.replace('-', '_')}", __name__).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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
