"""``agreement-sql macros [DB]``: the package's statements as DuckDB table macros
(agreement_sql.macros; docs/decisions/0018).

With DB (a DuckDB database file, created if missing) the macros are defined in it: the one
command that writes into a database on purpose. It replaces only macros agreement-sql made
before (their comment says so) and refuses, writing nothing, when the database has a function
or macro of one of the names that is not the package's. Without DB the SQL is printed, for the
DuckDB CLI: ``agreement-sql macros | duckdb my.db``.
"""
from __future__ import annotations

import argparse
import sys

from ._common import mark


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("macros", help="define the coefficients as DuckDB table macros in a database",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mark(p, p.add_argument("database", metavar="DB", nargs="?", default=None,
                           help="DuckDB database file to define the macros in (written); "
                                "without it the SQL is printed"), "database")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..macros import install_macros, script_text

    if args.database is None:
        sys.stdout.write(script_text())
        return 0
    import duckdb

    con = duckdb.connect(args.database)
    try:
        names = install_macros(con)
    finally:
        con.close()
    print(f"agreement-sql: wrote {len(names)} table macros into {args.database!r} "
          f"({', '.join(names)}), and the macros they call", file=sys.stderr)
    return 0
