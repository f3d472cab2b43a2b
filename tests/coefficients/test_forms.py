"""Krippendorff's alpha in every form the route can choose, against each other and the
``krippendorff`` package (PyPI, test-only).

A statement reads its ratings in the wide form (at most 16 categories: a count column per
category, packed as base-512 digits when rater bits bound a unit's size, sums over unit
patterns) or the counts form (a counts-per-(unit, value) table, any number of values; interval
alpha alone the sums form, per-unit moments from the ratings, where the counts form would be), and
finds a rater who rated a unit twice with rater bits (at most constants.MAX_BIT_RATERS raters) or
with the separate sql/duplicate_check.sql.j2 (docs/decisions/0003, 0009). Whatever the route,
the result and every typed error must be the same (tests/coefficients/_forms.py forces each
route), and the value must be the reference library's. Every expected number below comes from
``krippendorff.alpha`` on the same ratings, or is a count read off the generated table.
"""
from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.constants import MAX_BIT_RATERS
from agreement_sql.constants import BITS_PER_BLOCK

from ._forms import ALL_ROUTES, forms, outcome, random_table, routes, same

LEVELS = ("nominal", "ordinal", "interval", "ratio")
# ordinal and ratio alpha sum the rank- and ratio-distances of other terms in the two forms
# (unit patterns times their count vs one term per unit): the same to the last bit or two
TOL = {"nominal": 0.0, "interval": 0.0, "ordinal": 1e-12, "ratio": 1e-12}


def oracle(frame: pd.DataFrame, level: str, *, codes=None, domain=None) -> float:
    """krippendorff.alpha on the raters x items matrix of ``frame`` (its usable ratings);
    ``codes`` maps labels to the numbers the library needs."""
    frame = frame[frame["value"].notna() & (frame["value"] != -1)]
    values = frame["value"].map(codes) if codes else frame["value"].astype(float)
    wide = frame.assign(v=values).pivot(index="rater", columns="item", values="v")
    return krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                              level_of_measurement=level, value_domain=domain)


# --- every form, the same value, the reference library's value --------------------------------

@pytest.mark.parametrize("level,seed", [("nominal", 1), ("ordinal", 2), ("interval", 3),
                                        ("ratio", 4)])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_every_form_gives_the_same_alpha_and_krippendorffs(monkeypatch, level, seed):
    # missing ratings, NULL values and the placeholder -1 (counted, never used), two metrics,
    # three slices
    values = (0, 1, 2, 4, 7) if level == "ratio" else (1, 2, 3, 4, 5)
    table = random_table(seed, values=values, batches=3, gaps=True)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(
        table, level=level, metric="metric", group_by="batch", missing=[-1]))
    assert forms(got) == ["wide"]
    same(got, tol=TOL[level])
    results = outcome(got)
    assert len(results) == 6
    frame = table.to_pandas()
    for r in results:
        part = frame[(frame.metric == r["metric"]) & (frame.batch == r["group"]["batch"])]
        expected = oracle(part, level)
        assert r["value"] == pytest.approx(expected, abs=1e-12), (r["metric"], r["group"])
        # accounting (docs/decisions/0005): every input row of the slice is used or counted
        assert r["n_rows"] == len(part)
        assert r["n_excluded"]["missing"] == int(part["value"].isna().sum())
        assert r["n_excluded"]["placeholder"] == int((part["value"] == -1).sum())
        assert r["n_rows"] == r["n_ratings"] + sum(r["n_excluded"].values())


def test_labels_and_slices_in_every_form(monkeypatch):
    table = random_table(7, labels=True, values=("a", "b", "c"), batches=3)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(
        table, level="nominal", metric="metric", group_by="batch"))
    assert forms(got) == ["wide"]
    same(got)
    frame = table.to_pandas()
    results = outcome(got)
    assert [(r["metric"], r["group"]["batch"]) for r in results] == [
        (m, b) for m in ("m0", "m1") for b in ("b0", "b1", "b2")]
    for r in results:
        part = frame[(frame.metric == r["metric"]) & (frame.batch == r["group"]["batch"])]
        expected = oracle(part, "nominal", codes={"a": 1.0, "b": 2.0, "c": 3.0})
        assert r["value"] == pytest.approx(expected, abs=1e-12)
        assert r["n_categories"] == 3


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_declared_text_domain_in_every_form(monkeypatch, level):
    # labels are their ranks in the declared order; the unused "none" changes nothing
    table = random_table(11, labels=True, values=("low", "mid", "high"), metrics=1)
    domain = ["none", "low", "mid", "high"]
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level, domain=domain))
    assert forms(got) == ["wide"]
    same(got, tol=TOL[level])
    ranks = {label: float(i) for i, label in enumerate(domain, start=1)}
    expected = oracle(table.to_pandas(), level, codes=ranks, domain=[1.0, 2.0, 3.0, 4.0])
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)
    assert outcome(got)["domain"] == domain and outcome(got)["n_categories"] == 3


@pytest.mark.parametrize("level", ["ordinal", "interval"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_declared_numeric_domain_in_every_form(monkeypatch, level):
    # ratings 1..5 of a declared 0..9: the wide form has a count column per declared value
    # (ordinal ranks count the unused values; the other levels ignore them)
    table = random_table(12, metrics=1)
    domain = list(range(10))
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level, domain=domain))
    assert forms(got) == ["wide"]
    same(got, tol=TOL[level])
    expected = oracle(table.to_pandas(), level, domain=domain)
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("level", LEVELS)
def test_more_categories_than_the_wide_form_holds(monkeypatch, level):
    # 40 distinct values: more than the wide form's 16, so every route reads the counts form
    rng = np.random.default_rng(5)
    data = rng.integers(0, 40, size=(4, 50)).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    rows = [(i, f"r{r}", float(data[r, i])) for r in range(4) for i in range(50)
            if not np.isnan(data[r, i])]
    table = pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                      "value": [r[2] for r in rows]})
    # (the forced counts route would be the wide route again)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level),
                 ("wide", "counts", "no_bits"))
    # interval alpha reads per-unit moments only: the sums form, the counts form forced
    assert forms(got) == ["sums" if level == "interval" else "counts"]
    same(got)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)


def test_continuous_scores_in_every_form(monkeypatch):
    # decimal scores: the categories are listed by a query, and there are too many for the
    # wide form
    rng = np.random.default_rng(9)
    data = np.round(rng.uniform(0, 5, size=(3, 30)), 2)
    data[rng.random(data.shape) < 0.15] = np.nan
    rows = [(i, f"r{r}", float(data[r, i])) for r in range(3) for i in range(30)
            if not np.isnan(data[r, i])]
    table = pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                      "value": [r[2] for r in rows]})
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="interval"),
                 ("wide", "counts", "no_bits"))
    assert forms(got) == ["sums"] and forms(got, "counts") == ["counts"]
    same(got)
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)


def test_numbers_that_compare_equal_are_one_category_in_every_form(monkeypatch):
    # "2", "2.0", " 2 " and 2e0 are the number 2 (docs/decisions/0002); "two" is a label
    table = pa.table({"item": ["a", "a", "b", "b", "c", "c", "d", "d"],
                      "rater": ["x", "y"] * 4,
                      "value": ["2", "2.0", "1", " 1 ", "2e0", "1", "two", "two"]})
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="nominal"))
    same(got)
    result = outcome(got)
    assert result["n_categories"] == 3              # 1, 2 and "two"
    # hand coding: 2 -> 2, 1 -> 1, "two" -> 3
    wide = np.array([[2, 1, 2, 3], [2, 1, 1, 3]], dtype=float)
    expected = krippendorff.alpha(reliability_data=wide, level_of_measurement="nominal")
    assert result["value"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("policy", ["first", "last", "mean"])
def test_duplicate_policies_in_every_form(monkeypatch, policy):
    # every seventh rating given again with another value; "mean" reads the counts form
    # (the mean of 2 and 5 is a value the profile never saw)
    rows = random_table(5, metrics=1).to_pylist()
    rows += [{**r, "value": 6 - r["value"]} for r in rows[::7]]
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="interval",
                                                            on_duplicate=policy))
    # (interval alpha alone: the sums form where the counts form would be taken)
    assert forms(got) == ["sums" if policy == "mean" else "wide"]
    same(got)
    kept: dict = {}
    for r in rows:                                   # input order: first, last, or all for mean
        kept.setdefault((r["item"], r["rater"]), []).append(r["value"])
    pick = {"first": lambda v: v[0], "last": lambda v: v[-1], "mean": lambda v: sum(v) / len(v)}
    frame = pd.DataFrame([{"item": i, "rater": r, "value": pick[policy](v)}
                          for (i, r), v in kept.items()])
    result = outcome(got)
    assert result["value"] == pytest.approx(oracle(frame, "interval"), abs=1e-12)
    assert result["n_excluded"]["duplicate"] == len(rows) - len(kept)


# --- duplicates, rater bits and the rater caps ------------------------------------------------

def _with_duplicate(raters: int, late_rater: int, *, same_value: bool) -> pa.Table:
    table = random_table(3, raters=raters, missing=0.0, metrics=1, items=5)
    rows = table.to_pylist()
    first = next(r for r in rows if r["rater"] == f"r{late_rater:03d}" and r["item"] == 2)
    extra = dict(first)
    if not same_value:
        extra["value"] = 1 if first["value"] != 1 else 2
    return pa.Table.from_pylist(rows + [extra])


@pytest.mark.parametrize("raters,late,same_value", [
    (5, 4, True),                            # one block of rater bits
    (100, 85, False),                        # the second block of 62 bits
    (130, 0, False),                         # the first bit of three blocks
    (MAX_BIT_RATERS, MAX_BIT_RATERS - 1, True),   # the last bit of the last block
])
def test_duplicates_found_in_any_rater_block_and_route(monkeypatch, raters, late, same_value):
    # a repeat is found whether it agrees with the first rating or not, by the statement's
    # rater bits and by the separate check alike, with the same message naming the row
    table = _with_duplicate(raters, late, same_value=same_value)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="nominal"))
    same(got)
    name, message = outcome(got)
    assert name == "DuplicateRatingError"
    assert f"(item='2', rater='r{late:03d}') rated 2 times" in message
    assert [e["rater_bits"] for e in got["wide"]["log"] if "units" in e] == ["bits"]


def test_duplicates_beyond_the_rater_bits_still_raise(monkeypatch):
    # more raters than rater bits: the separate check runs first, on every route
    raters = MAX_BIT_RATERS + 4
    table = _with_duplicate(raters, raters - 2, same_value=True)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="interval"))
    same(got)
    assert outcome(got)[0] == "DuplicateRatingError"
    assert f"rater='r{raters - 2:03d}'" in outcome(got)[1]


def test_raters_are_counted_per_metric_on_every_route(monkeypatch):
    # metric m1 is rated by r000..r069 (two blocks of rater bits), m2 only by r000..r009
    rows = [{"item": i, "rater": f"r{r:03d}", "metric": "m1", "value": (i + r) % 3}
            for i in range(4) for r in range(70)]
    rows += [{"item": i, "rater": f"r{r:03d}", "metric": "m2", "value": 1}
             for i in range(4) for r in range(10)]
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, metric="metric",
                                                            level="nominal"), ALL_ROUTES)
    same(got)
    assert [r["n_raters"] for r in outcome(got)] == [70, 10]


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_packed_counts_at_the_rater_cap(monkeypatch, level):
    # the wide form packs a unit's category counts as base-512 digits when rater bits bound a
    # unit's size; MAX_BIT_RATERS (496) raters giving one category to a unit is the largest
    # digit it must hold without carrying into the next
    n = MAX_BIT_RATERS
    values = (1, 2, 4, 5, 7, 8)
    rows = [{"item": i, "rater": f"r{r:03d}", "value": v}
            for i, v in enumerate((1, 5, 3)) for r in range(n)]
    rows += [{"item": 3, "rater": f"r{r:03d}", "value": values[r % 6]} for r in range(n)]
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level))
    assert forms(got) == ["wide"]
    same(got, tol=TOL[level])
    result = outcome(got)
    # every rating pairable (4 units x n raters); categories 1, 3, 5 and 1, 2, 4, 5, 7, 8
    assert (result["n_values"], result["n_categories"]) == (4 * n, 7)
    wide = np.array([[1, 5, 3, values[r % 6]] for r in range(n)], dtype=float)
    expected = krippendorff.alpha(reliability_data=wide, level_of_measurement=level)
    assert result["value"] == pytest.approx(expected, abs=1e-12)


# --- typed errors: the same on every route --------------------------------------------------

def test_a_label_where_numbers_are_needed_is_named_on_every_route(monkeypatch):
    rows = random_table(4, metrics=1).to_pylist()
    table = pa.Table.from_pylist([{**r, "value": str(r["value"])} for r in rows]
                                 + [{"item": 3, "rater": "r999", "metric": "m0", "value": "n/a"}])
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="interval"))
    same(got)
    name, message = outcome(got)
    assert name == "InvalidRatingError"
    assert "1 rating(s) in column 'value' are not numbers" in message
    assert "'n/a' at (item='3', rater='r999')" in message
    # nominal alpha takes the label as one more category: the numbers 1..5 and "n/a"
    nominal = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="nominal"))
    same(nominal)
    assert outcome(nominal)["n_categories"] == 6


@pytest.mark.parametrize("key", ["item", "rater"])
def test_null_keys_are_named_on_every_route(monkeypatch, key):
    rows = random_table(4, metrics=1).to_pylist()
    rows.append({"item": 1, "rater": "r000", "metric": "m0", "value": 3, key: None})
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(table, level="nominal"))
    same(got)
    name, message = outcome(got)
    assert name == "MissingKeyError"
    assert f"column(s) '{key}' are empty (NULL) in 1 row(s)" in message


def test_a_call_leaves_the_connection_as_found():
    con = ag.connect()
    before = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    ag.krippendorff_alpha(random_table(2), metric="metric", con=con)
    ag.krippendorff_alpha(random_table(2), metric="metric", con=con, ci=0.9, n_boot=20)
    after = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    assert before == after


@pytest.mark.parametrize("gap", [None, "null", "nan", "placeholder"])
def test_one_missing_state_leaves_exactly_its_row_out(monkeypatch, gap):
    """One NULL, NaN or declared placeholder is a missing rating: the alpha is the krippendorff
    package's on the rows that are ratings, with or without it."""
    values = [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 1.0, 1.0]
    if gap is not None:
        values[1] = {"null": None, "nan": float("nan"), "placeholder": -1.0}[gap]
    table = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4], "rater": ["a", "b"] * 4, "value": values})
    got = routes(monkeypatch, lambda: ag.krippendorff_alpha(
        table, level="interval", missing=[-1] if gap == "placeholder" else None), ("wide",))
    data = np.array([[v if v is not None and v == v and v != -1.0 else np.nan for v in values[0::2]],
                     [v if v is not None and v == v and v != -1.0 else np.nan for v in values[1::2]]])
    assert outcome(got)["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="interval"))
