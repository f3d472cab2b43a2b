"""``agreement-sql dbt-package DIR``: write the dbt package generated from the templates
(agreement_sql.dbt; docs/decisions/0025). The repository's ``dbt/`` folder is its output."""
from __future__ import annotations

import argparse
import sys

from ._common import mark


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("dbt-package", help="write the dbt package (macros for dbt-duckdb, -postgres, -spark, -bigquery, -snowflake)",
                       description=__doc__)
    mark(p, p.add_argument("folder", metavar="DIR", help="the package's folder (written)"),
         "output_dir", _package_paths)
    p.set_defaults(run=run)


def _package_paths() -> tuple[str, ...]:
    from ..dbt import package_paths  # imported when a command's outputs are checked, not at start-up

    return package_paths()


def run(args: argparse.Namespace) -> int:
    from ..dbt import write_package

    written = write_package(args.folder)
    print(f"agreement-sql: wrote the dbt package ({len(written)} files) into {args.folder!r}",
          file=sys.stderr)
    return 0
