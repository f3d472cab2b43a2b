"""``agreement-sql metrics``: the coefficients (from the registry) and every other template."""
from __future__ import annotations

import argparse

from ..registry import REGISTRY
from ..templates import available_templates, template_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("metrics", help="list the coefficients and the SQL templates", description=__doc__)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("coefficients (agreement-sql render NAME; sql/coefficients.sql.j2 with the partial shown):")
    for entry in REGISTRY.values():
        print(f"  {entry.name:24} {entry.partial:28} {entry.title}")
    print("templates:")
    folder = template_dir()
    for name in available_templates():
        first = (folder / f"{name}.sql.j2").read_text(encoding="utf-8").splitlines()[0]
        summary = first.split(":", 1)[1].strip() if first.startswith("--") and ":" in first else ""
        print(f"  {name:24} {summary}")
    return 0
