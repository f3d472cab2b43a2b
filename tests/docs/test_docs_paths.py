"""Every repository path the README and docs/*.md mention exists.

The docs name files (`sql/_units.sql.j2`, `agreement_sql/plan.py`, `tests/coefficients/...`) as
the place to read a formula, a rule or a test; a rename must not leave them pointing at nothing.
A mention is text starting with one of the repository's top folders (`sql/`, `agreement_sql/`,
`tests/`, `docs/`, `data/`, `bench/`), not preceded by a path character (so a URL or
`../bench/README.md` is not one), ending before a character no path here contains. A mention
with a placeholder (`sql/_<name>.sql.j2`) or a glob (`sql/report_*.sql.j2`) must match at least
one file; `docs/decisions/0009` names the decision numbered 0009. Relative Markdown links in
docs/*.md (`[scale](scale.md)`, `(../bench/README.md)`) must resolve from the file that has them.
Reads text files only: fast.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

TOP = ("sql", "agreement_sql", "tests", "docs", "data", "bench")
MENTION = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP) + r")/[\w.*<>/-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# written by the benchmarks when they run (bench/.gitignore), not part of a checkout
GENERATED = ("bench/.data/",)


def _mentions(path: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for match in MENTION.finditer(line):
            found.append((number, match.group(1).rstrip(".")))
    return found


def _exists(mention: str) -> bool:
    if mention.startswith(GENERATED):
        return True
    decision = re.fullmatch(r"docs/decisions/(\d{4})", mention)
    if decision:
        return any((ROOT / "docs" / "decisions").glob(decision.group(1) + "-*.md"))
    pattern = re.sub(r"<[^>/]*>", "*", mention)
    if "*" in pattern:
        return any(ROOT.glob(pattern.rstrip("/")))
    return (ROOT / mention).exists()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_mentioned_path_exists(doc):
    missing = [f"{doc.relative_to(ROOT)}:{line}: {mention}"
               for line, mention in _mentions(doc) if not _exists(mention)]
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(doc):
    missing = []
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
        for match in LINK.finditer(line):
            target = match.group(1).split("#", 1)[0]
            if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue                            # an anchor, or a URL (https:, mailto:)
            if not (doc.parent / target).exists():
                missing.append(f"{doc.relative_to(ROOT)}:{number}: {match.group(1)}")
    assert not missing, "links that resolve to nothing:\n" + "\n".join(missing)


def test_the_pattern_finds_the_mentions_it_should():
    line = ("see `sql/_units.sql.j2`, agreement_sql/plan.py: and sql/_<name>.sql.j2, not "
            "https://github.com/x/tests/y.py or ../bench/README.md")
    assert [m.group(1).rstrip(".") for m in MENTION.finditer(line)] == [
        "sql/_units.sql.j2", "agreement_sql/plan.py", "sql/_<name>.sql.j2"]
    assert _exists("sql/_<name>.sql.j2") and _exists("sql/report_*.sql.j2")
    assert _exists("docs/decisions/0009") and not _exists("docs/decisions/0999")
    assert not _exists("sql/rater_bits.sql.j2")
