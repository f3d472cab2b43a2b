"""No branch on a coefficient's name, in Python or SQL (docs/decisions/0013): a coefficient
declares what it needs and reports in its registry entry (agreement_sql/registry.py), and one
row contract per family shapes it (sql/coefficients.sql.j2, metrics/coefficient.py shape()). A
branch such as ``entry.name == "cohen_kappa"`` or ``{% if name == "cohen_kappa" %}`` would
spread the contract again; this test finds one anywhere in the package or its templates."""
from __future__ import annotations

import re
from pathlib import Path

from agreement_sql.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted({n for e in REGISTRY.values() for n in (e.name, *e.aliases)} | {"icc"})
# a comparison of a name-like expression with a coefficient's name, in either order
PYTHON = re.compile(r"""(\bname|coefficient|entry\.name|\.name)\s*(==|!=|\bin\b)\s*[\(\[{]?\s*["'](%s)["']"""
                    % "|".join(NAMES))
SQL = re.compile(r"""\{%%-?\s*(el)?if\b[^%%]*\bname\b[^%%]*["'](%s)["']""" % "|".join(NAMES))


def _hits(pattern: re.Pattern, files) -> list[str]:
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_python_branch_on_a_coefficient_name():
    assert not _hits(PYTHON, sorted((ROOT / "agreement_sql").rglob("*.py")))


def test_no_template_branch_on_a_coefficient_name():
    assert not _hits(SQL, sorted((ROOT / "sql").glob("*.sql.j2")))


def test_the_patterns_find_a_branch():
    assert PYTHON.search('if entry.name == "cohen_kappa":')
    assert SQL.search('{% if name == "cohen_kappa" %}c.n_pairs{% endif %}')
