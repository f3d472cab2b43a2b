"""``agreement-sql metrics``: what exists, with the template each command runs."""
from __future__ import annotations

import argparse

from ..templates import available_templates, template_dir


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("metrics", help="list the metric templates", description=__doc__)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    folder = template_dir()
    for name in available_templates():
        first = (folder / f"{name}.sql.j2").read_text(encoding="utf-8").splitlines()[0]
        summary = first.split(":", 1)[1].strip() if first.startswith("--") and ":" in first else ""
        print(f"{name:28} {summary}")
    return 0
