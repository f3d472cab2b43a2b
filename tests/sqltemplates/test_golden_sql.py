"""Golden SQL: a handful of representative renderings pinned as files, so a reviewer sees the
SQL a change to ``sql/`` or to the rendering produces.

Each case is what ``agreement_sql.render(name, **options)`` (and ``agreement-sql render``)
prints, header included, and is compared with ``golden/<case>.sql``. The cases cover the
forms of docs/decisions/0003 (Krippendorff's alpha in the wide and the counts form), the pair
family (Cohen, weighted, with its analytic interval), the bootstrap (Fleiss by metric and
slice), every coefficient in one statement, the workshop report, the ratings profile every
call starts with (decision 0009), and one Spark-dialect rendering. Every template's rendering
in both dialects is checked in test_templates.py; these files only make the text reviewable.

Regenerate after an intended change to the templates or the rendering, then review the diff::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest -p no:cacheprovider tests/sqltemplates/test_golden_sql.py

A file no case produces any more is reported by ``test_every_golden_file_has_a_case``
(``git rm`` it).
"""
from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest

from agreement_sql.rendering import render
from conftest import REFERENCE

from .by_hand import run_by_hand

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

# case name -> (name given to render, its options; "dialect" picks the dialect)
CASES: dict[str, tuple[str, dict]] = {
    "krippendorff_alpha--wide-ordinal": ("krippendorff_alpha", {"level": "ordinal",
                                                                "categories": "1,2,3,4,5"}),
    "krippendorff_alpha--counts-interval": ("krippendorff_alpha", {"level": "interval"}),
    "cohen_kappa--quadratic-ci": ("cohen_kappa", {"weights": "quadratic", "ci": True}),
    "fleiss_kappa--bootstrap-by-slice": ("fleiss_kappa", {"bootstrap": True, "metric": "question",
                                                          "group_by": ["Module"]}),
    "coefficients": ("coefficients", {}),
    "coefficients--spark-ordinal-linear-ci": ("coefficients", {"dialect": "spark",
                                                               "level": "ordinal",
                                                               "weights": "linear", "ci": True}),
    # the wide form with rater patterns and the ICC from them (coefficients() by default on
    # numeric ratings with few raters: sql/_icc.sql.j2 over pattern_ratings)
    "coefficients--patterns-icc": ("coefficients", {"categories": "1,2,3,4,5",
                                                    "rater_patterns": True,
                                                    "icc_from_patterns": True, "rater_digits": 4}),
    # quadratic weights in the counts form from moments (routes decision kappa_weights,
    # docs/decisions/0019): no table of weights, every coefficient's sums from moments
    "coefficients--counts-quadratic-moments": ("coefficients", {"weights": "quadratic",
                                                                "ci": True,
                                                                "kappa_weights": "moments"}),
    # category-wise agreement (sql/category_agreement.sql.j2) in the wide form, by metric
    "category_agreement--wide-by-metric": ("category_agreement", {"categories": "no,yes",
                                                                  "metric": "question"}),
    "irr_report": ("irr_report", {}),
    "ratings_profile--metric-by-slice": ("ratings_profile", {"metric": "question",
                                                             "group_by": ["Module"]}),
}


def rendering(case: str) -> str:
    name, options = CASES[case]
    options = dict(options)
    dialect = options.pop("dialect", "duckdb")
    return render(name, dialect=dialect, **options)


@pytest.mark.parametrize("case", list(CASES))
def test_rendering_matches_golden(case):
    sql = rendering(case)
    path = GOLDEN / f"{case}.sql"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(sql, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with UPDATE_GOLDEN=1"
    assert sql == path.read_text(encoding="utf-8"), f"{path.name} changed; review the diff and refresh"


def test_every_golden_file_has_a_case():
    stale = sorted(p.name for p in GOLDEN.glob("*") if p.name[: -len(".sql")] not in CASES)
    assert not stale, f"golden files no case renders (git rm them): {stale}"


def test_the_cases_differ_where_they_should():
    # the options reach the text: each pair below would be equal if an option were dropped
    wide, counts = rendering("krippendorff_alpha--wide-ordinal"), rendering("krippendorff_alpha--counts-interval")
    assert "SET VARIABLE category_4 = 5.0;" in wide and "category_" not in counts
    assert "\nunit_wide AS (" in wide and "\nunit_wide AS (" not in counts
    assert "\ncounts AS (" in counts and "\ncounts AS (" not in wide
    assert wide != render("krippendorff_alpha", level="interval", categories="1,2,3,4,5")
    spark = rendering("coefficients--spark-ordinal-linear-ci")
    code = [line.split("--", 1)[0] for line in spark.splitlines()]      # comments dropped
    assert spark.startswith("-- agreement-sql: coefficients (spark)\n")
    assert any("${agreement_sql.z}" in line for line in code) and not any("$z" in line for line in code)
    assert "src.\"Module\"" in rendering("fleiss_kappa--bootstrap-by-slice")


@pytest.fixture(scope="module")
def con():
    """Krippendorff's (2011) 4 x 12 ratings as a table ``ratings`` of text columns (with a
    metric and a slice column) and a ``scales`` table, as the renderings' headers name them."""
    con = duckdb.connect()
    con.execute(f"""CREATE TABLE ratings AS
        SELECT item, rater, value, 'q' AS question,
               CASE WHEN CAST(item AS INTEGER) <= 6 THEN 'a' ELSE 'b' END AS "Module"
        FROM read_csv('{REFERENCE / "krippendorff2011_4x12.csv"}', all_varchar = true)""")
    con.execute("CREATE TABLE scales AS SELECT 'value' AS metric, 'likert' AS kind, "
                "1.0 AS lo, 5.0 AS hi")
    return con


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c, (_, o) in CASES.items() if o.get("dialect") != "spark"])
def test_duckdb_renderings_run_by_hand(con, case):
    # each pinned DuckDB rendering is a statement a user can run as its header says
    rows = run_by_hand(con, rendering(case))
    assert rows, case
    name = CASES[case][0]
    if name in ("krippendorff_alpha", "cohen_kappa", "fleiss_kappa"):
        coefficient = {"cohen_kappa": "light_kappa"}.get(name, name)   # 4 raters: Light's kappa
        assert {r["coefficient"] for r in rows} == {coefficient}
        assert all(r["value"] is not None for r in rows)
