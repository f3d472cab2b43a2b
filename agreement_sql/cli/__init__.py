"""The ``agreement-sql`` command line: one module per command, each mirroring a Python function.

Exit codes: 0 success; 1 a data, schema or option error (one line on stderr, no traceback);
2 usage errors (argparse); commands with quality gates use 3 for "a gate failed". Before a
command runs its outputs are checked against its inputs (cli/_common.py check_outputs); an
:class:`~agreement_sql.errors.AgreementWarning` the command raises is printed as one line
``agreement-sql: warning: ...`` on stderr; every line on stderr is escaped
(formatting.shown_message), so no name in a message can reach the terminal as a control
sequence or break the line.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from typing import Any, Sequence

import duckdb

from ..errors import AgreementError, AgreementWarning
from ..formatting import shown_message

# command modules, in the order `--help` lists them; each defines register(subparsers)
COMMANDS = ["irr", "report", "render", "metrics", "coefficients", "agree", "icc", "plan", "judges",
            "category-agreement", "consistency", "sheet", "sample", "diagnostics", "alt-test",
            "macros", "dbt-package", "summarize", "merge-states"]


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
    from ._common import check_outputs
    with warnings.catch_warnings():
        # the package's warnings, silent in Python, are printed as they come (catch_warnings
        # restores the filters and the printer when the command ends)
        warnings.simplefilter("always", AgreementWarning)
        shown_before = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: Any = None, line: str | None = None) -> None:
            if issubclass(category, AgreementWarning):
                print(f"agreement-sql: warning: {shown_message(str(message))}", file=sys.stderr)
            else:
                shown_before(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        try:
            check_outputs(args)
            return int(args.run(args) or 0)
        except AgreementError as exc:
            error(str(exc))
            return 1
        except (OSError, duckdb.Error) as exc:
            text = str(exc).strip()
            error(text.splitlines()[0] if text else type(exc).__name__)
            return 1
        except KeyboardInterrupt:
            print("agreement-sql: interrupted", file=sys.stderr)
            return 130


def error(message: str) -> None:
    """The one error line on stderr, escaped (a name in the message cannot break the line or
    reach the terminal as a control sequence)."""
    print(f"agreement-sql: error: {shown_message(message)}", file=sys.stderr)
