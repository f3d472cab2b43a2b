"""coefficients()' ICC from the coefficients statement's own rater patterns.

With rater patterns in its route (a pair coefficient or Conger's kappa, the wide form, few raters)
and numeric ratings, the coefficients statement also gives the ICC entry (McGraw & Wong's
ICC(A,1), pingouin's ICC2): sql/_icc.sql.j2 reads the per-pattern digits from pattern_ratings
(option icc_from_patterns) instead of a second statement, sql/icc.sql.j2, packing the ratings
again (agreement_sql/routes.py ``icc_producer``: "from_patterns"). Its numbers must be those of
the second statement to the last bit (the same patterns, the same terms in every sum) and those
of ``icc(form="ICC2")``; ``routes.forcing(icc="packed")`` forces the second statement
(tests/coefficients/_forms.py runs every route, the "icc_apart" route included).

Every table here holds at most ``constants.SMALL_INPUT_RATINGS`` ratings, where the default is
the counts form (no rater patterns, the ICC from the second statement): the wide form is forced
for the whole module (``_wide``), as a larger input takes it by default.
"""
from __future__ import annotations

import json

import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.engine import duckdb as duckdb_engine
from agreement_sql.errors import DuplicateRatingError
from agreement_sql import routes as routing

from icc._data import SHROUT_FLEISS, long_table
from ._forms import icc_from_patterns, outcome, patterns, random_table, routes, same, without_route


@pytest.fixture(autouse=True)
def _wide():
    with routing.forcing(units="wide"):
        yield


def _json(x) -> str:
    return json.dumps(x, sort_keys=True, default=str)


def _statements(monkeypatch, capsys, call) -> tuple[object, list[str]]:
    """The call's result and the names of the statements it ran, from the engine's trace
    (AGREEMENT_SQL_TRACE: one stderr line per statement, agreement_sql/engine/duckdb.py)."""
    capsys.readouterr()
    monkeypatch.setattr(duckdb_engine, "_TRACE", True)
    result = call()
    monkeypatch.setattr(duckdb_engine, "_TRACE", False)
    lines = [line for line in capsys.readouterr().err.splitlines()
             if line.startswith("agreement-sql trace: ")]
    return result, [line.split()[2] for line in lines]


def _entries(result) -> list[dict]:
    return result if isinstance(result, list) else [{"metric": None, "coefficients": result}]


def _as_entry(icc_result: dict, ci) -> dict:
    """icc(form="ICC2")'s result as coefficients() lists it (metrics/coefficients.py _icc_entry)."""
    entry = {"coefficient": "icc",
             **{k: v for k, v in icc_result.items() if k not in ("metric", "group", "route")}}
    if ci is None:
        for key in ("ci_low", "ci_high", "ci_level"):
            entry.pop(key)
    else:
        entry["ci_method"] = "f"
    return entry


# two metrics, three slices, missing ratings, NULL values and the placeholder -1 (15% of the
# ratings): many items are incomplete and left out of the ICC (listwise)
GAPS = random_table(31, items=90, raters=5, batches=3, missing=0.15, gaps=True)
CASES = {
    "slices-missing-incomplete": (GAPS, {"metric": "metric", "group_by": "batch", "missing": [-1]}),
    # the ICC's F interval at ci's level (analytic intervals for the others: with Conger's
    # kappa the analytic variance reads the counts form, which has no rater patterns)
    "slices-ci": (GAPS, {"metric": "metric", "group_by": "batch", "missing": [-1], "ci": 0.9,
                         "ci_method": "analytic",
                         "which": ["icc", "light_kappa", "fleiss_kappa", "alpha"]}),
    "one-metric-complete": (random_table(32, raters=4, metrics=1, missing=0.0, items=40), {}),
    "two-categories": (random_table(33, raters=7, metrics=1, values=(0, 1), missing=0.2), {}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_the_icc_entry_is_icc2_from_one_statement(monkeypatch, capsys, case):
    table, options = CASES[case]
    got, ran = _statements(monkeypatch, capsys, lambda: ag.coefficients(table, **options))
    # the route was taken: one coefficients statement, no ICC statement (the profile and the
    # statements a call always runs aside)
    assert ran.count("coefficients") == 1 and "icc" not in ran, ran
    icc_options = {k: v for k, v in options.items() if k not in ("ci", "ci_method", "which")}
    want = ag.icc(table, form="ICC2", ci=options.get("ci") or 0.95, **icc_options)
    want = want if isinstance(want, list) else [want]
    entries = _entries(got)
    assert len(entries) == len(want) == (6 if "group_by" in options else 1)
    for entry, expected in zip(entries, want):
        assert entry.get("group") == expected.get("group")
        # the same numbers as icc(form="ICC2"), JSON-identical (icc() takes the packed form
        # here: its statement sums over the same item patterns)
        assert _json(without_route(entry["coefficients"]["icc"])) == _json(
            _as_entry(expected, options.get("ci")))
    if case.startswith("slices"):
        # not vacuous: every slice leaves incomplete items out and counts missing ratings
        for entry in entries:
            icc = entry["coefficients"]["icc"]
            assert icc["n_excluded_items"] > 0 and icc["n_excluded"]["incomplete_item"] > 0
            assert icc["n_items"] > 1 and icc["value"] is not None
        assert sum(e["coefficients"]["icc"]["n_excluded"]["placeholder"] for e in entries) > 0
        assert sum(e["coefficients"]["icc"]["n_excluded"]["missing"] for e in entries) > 0


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_the_same_result_as_the_second_statement(monkeypatch, capsys, case):
    table, options = CASES[case]
    ours, ran = _statements(monkeypatch, capsys, lambda: ag.coefficients(table, **options))
    with routing.forcing(icc="packed"):
        theirs, ran_apart = _statements(monkeypatch, capsys,
                                        lambda: ag.coefficients(table, **options))
    # the forced route runs the ICC statement (so this comparison compares two routes)
    assert "icc" not in ran and ran_apart.count("icc") == 1, (ran, ran_apart)
    assert _json(without_route(ours)) == _json(without_route(theirs))


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_every_route_gives_the_same_result(monkeypatch):
    got = routes(monkeypatch, lambda: ag.coefficients(GAPS, metric="metric", group_by="batch",
                                                      missing=[-1]))
    assert patterns(got) == [True] and icc_from_patterns(got) == [True]
    assert icc_from_patterns(got, "icc_apart") == [False] and patterns(got, "icc_apart") == [True]
    assert icc_from_patterns(got, "wide") == [False]
    same(got)
    assert all("icc" in e["coefficients"] for e in outcome(got))


@pytest.mark.slow
def test_published_shrout_fleiss_values():
    # Shrout & Fleiss (1979), Psychological Bulletin 86(2), Table 4: ICC(2,1) = .29 on their
    # Table 2 (6 targets, 4 judges); pingouin 0.290, 95% CI [0.02, 0.76], F(5, 15) = 11.03
    icc = ag.coefficients(long_table(SHROUT_FLEISS), ci=0.95)["icc"]
    assert round(icc["value"], 2) == 0.29 and round(icc["value"], 3) == 0.290
    assert (round(icc["ci_low"], 2), round(icc["ci_high"], 2)) == (0.02, 0.76)
    assert (icc["df1"], icc["df2"]) == (5, 15) and round(icc["f"], 2) == 11.03
    assert icc["ci_method"] == "f" and icc["n_items"] == 6 and icc["n_raters"] == 4


def test_the_route_is_taken_for_the_published_data(monkeypatch, capsys):
    _, ran = _statements(monkeypatch, capsys, lambda: ag.coefficients(long_table(SHROUT_FLEISS)))
    assert ran.count("coefficients") == 1 and "icc" not in ran, ran


@pytest.mark.parametrize("policy", ["first", "last"])
def test_after_a_duplicate_policy(monkeypatch, capsys, policy):
    rows = random_table(34, raters=4, metrics=1).to_pylist()
    rows += [{**r, "value": 6 - r["value"]} for r in rows[::5]]
    table = pa.Table.from_pylist(rows)
    got, ran = _statements(monkeypatch, capsys,
                           lambda: ag.coefficients(table, on_duplicate=policy))
    assert "icc" not in ran
    want = ag.icc(table, form="ICC2", on_duplicate=policy)
    assert _json(without_route(got["icc"])) == _json(_as_entry(want, None))
    assert got["icc"]["n_excluded"]["duplicate"] > 0


def test_a_duplicate_is_refused_as_before(monkeypatch):
    rows = random_table(35, raters=4, missing=0.0, metrics=1, items=6).to_pylist()
    first = next(r for r in rows if r["rater"] == "r002" and r["item"] == 3)
    table = pa.Table.from_pylist(rows + [{**first, "value": 1 if first["value"] != 1 else 2}])
    with pytest.raises(DuplicateRatingError) as ours:
        ag.coefficients(table)
    with routing.forcing(icc="packed"), pytest.raises(DuplicateRatingError) as theirs:
        ag.coefficients(table)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("why,table,options", [
    # labels: no ICC at all by default
    ("labels", random_table(36, raters=4, metrics=1, labels=True, values=("a", "b")), {}),
    # the bootstrap statement resamples: the ICC keeps its own statement (and its F interval)
    ("bootstrap", random_table(37, raters=4, metrics=1),
     {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 20}),
    # a declared domain: the ICC reads the ratings without it
    ("domain", random_table(38, raters=4, metrics=1), {"categories": [1, 2, 3, 4, 5, 6]}),
    # 10 raters at 5 categories: rater patterns, but more than the packed form holds
    # ((5 * 10 + 1)^10 > 2^53), so the ICC statement's joined form (sums over items) stays
    ("many-raters", random_table(39, raters=10, metrics=1, missing=0.1), {}),
    # no pair coefficient nor Conger: no rater patterns
    ("no-patterns", random_table(40, raters=4, metrics=1), {"which": ["icc", "fleiss_kappa"]}),
    # every coefficient with an interval: Conger's analytic variance reads the counts form
    ("conger-variance", random_table(41, raters=4, metrics=1), {"ci": 0.95}),
])
@pytest.mark.slow
def test_the_second_statement_stays_where_the_patterns_do_not_serve(monkeypatch, capsys, why,
                                                                   table, options):
    got, ran = _statements(monkeypatch, capsys, lambda: ag.coefficients(table, **options))
    route = next(iter(got.values()))["route"]
    assert not any(e.get("icc") == "from_patterns" for e in route), (why, route)
    if why == "labels":
        assert "icc" not in got and "icc" not in ran
    else:
        assert ran.count("icc") == 1 and "icc" in got, (why, ran)


def test_the_rendering_run_by_hand_gives_the_icc():
    # agreement-sql render coefficients with the ICC from the rater patterns (the golden file
    # tests/sqltemplates/golden/coefficients--patterns-icc.sql), run as its header says on
    # Krippendorff's (2011) 4 x 12 ratings: icc(form="ICC2")'s numbers
    import duckdb

    from agreement_sql.rendering import render
    from conftest import REFERENCE
    from sqltemplates.by_hand import run_by_hand

    path = REFERENCE / "krippendorff2011_4x12.csv"
    con = duckdb.connect()
    con.execute(f"CREATE TABLE ratings AS SELECT * FROM read_csv('{path}', all_varchar = true)")
    rows = run_by_hand(con, render("coefficients", categories="1,2,3,4,5", rater_patterns=True,
                                   icc_from_patterns=True, rater_digits=4))
    want = ag.icc(str(path), form="ICC2")
    got = {k[len("icc_"):]: v for k, v in rows[0].items() if k.startswith("icc_")}
    assert {r["icc_value"] for r in rows} == {want["value"]}
    assert (got["form"], got["f"], got["df1"], got["df2"], got["ci_df2"]) == \
        ("ICC2", want["f"], want["df1"], want["df2"], want["ci_df2"])
    assert (got["n_items"], got["n_raters"], got["n_excluded_items"]) == (8, 4, 4)
