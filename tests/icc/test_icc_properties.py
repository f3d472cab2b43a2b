"""ICC on random data against pingouin, the listwise convention, slices and undefined cases."""
from __future__ import annotations

import math
import warnings

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement_sql.errors import DuplicateRatingError, InvalidRatingError
from agreement_sql import routes
from agreement_sql.metrics.icc import icc

from ._data import SHROUT_FLEISS, long_table
from _budget import examples

pg = pytest.importorskip("pingouin")


def _pingouin(table: pa.Table, omit: bool = False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pg.intraclass_corr(table.to_pandas(), targets="item", raters="rater",
                                  ratings="value", nan_policy="omit" if omit else "raise")


def _close(mine, theirs, **tolerance) -> None:
    """pingouin's inf and NaN (a zero denominator) are None here; finite values must agree."""
    if not math.isfinite(theirs):
        assert mine is None
    else:
        assert mine == pytest.approx(theirs, **tolerance)


def _same(ours, theirs) -> None:
    for mine, (_, row) in zip(ours, theirs.iterrows()):
        if row["ICC"] > 1.0 + 1e-9:
            # ICC2k over a negative denominator: pingouin divides anyway (e.g. 4.0); None here
            assert mine["value"] is None and mine["form"] == "ICC2k"
            continue
        _close(mine["value"], row["ICC"], rel=1e-9, abs=1e-9)
        _close(mine["f"], row["F"], rel=1e-9)
        _close(mine["p_value"], row["pval"], rel=1e-7, abs=1e-12)
        assert (mine["df1"], mine["df2"]) == (row["df1"], row["df2"])
        low, high = row["CI95"]
        if mine["value"] is not None and not low <= row["ICC"] <= high:
            # pingouin steps an ICC2 bound below -1/(k-1) up to a nonsense value (e.g. 3.56 as
            # the lower bound of ICC2k); the Spearman-Brown step-up is undefined there: None
            assert mine["ci_low"] is None or mine["ci_low"] <= mine["value"]
        elif mine["value"] is not None:
            _close(mine["ci_low"], low, abs=0.005 + 1e-9)
            _close(mine["ci_high"], high, abs=0.005 + 1e-9)


def _degenerate(theirs) -> bool:
    """No within or error variance, or one so small that pingouin's ANOVA is rounding noise
    (it then reports ICCs like 1.8e16 where the exact answer has a zero denominator)."""
    return bool(theirs["F"].isna().any() or not theirs["F"].abs().lt(1e12).all()
                or not theirs["ICC"].abs().lt(1e6).all())


def _matrices(values):
    return st.integers(3, 9).flatmap(lambda n: st.integers(2, 5).flatmap(
        lambda k: st.lists(st.lists(values, min_size=k, max_size=k), min_size=n, max_size=n)))


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrix=_matrices(st.integers(1, 5)), forced=st.sampled_from(["packed", "joined"]))
def test_likert_scores_match_pingouin(matrix, forced):
    table = long_table(matrix)
    theirs = _pingouin(table)
    if _degenerate(theirs):
        return
    with routes.forcing(icc=forced):
        _same(icc(table), theirs)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrix=_matrices(st.floats(-1e3, 1e3, allow_nan=False).map(lambda x: round(x, 3))))
def test_continuous_scores_match_pingouin(matrix):
    table = long_table(matrix)
    theirs = _pingouin(table)
    if _degenerate(theirs):
        return
    _same(icc(table), theirs)


def test_large_offset_costs_no_digits():
    shifted = [[x + 1e9 for x in row] for row in SHROUT_FLEISS]
    for a, b in zip(icc(long_table(shifted)), icc(long_table(SHROUT_FLEISS))):
        assert a["value"] == pytest.approx(b["value"], abs=1e-6)


@pytest.mark.parametrize("forced", ["packed", "joined"])
def test_incomplete_items_are_left_out_listwise(forced, force_route):
    force_route(icc=forced)
    matrix = [row[:] for row in SHROUT_FLEISS] + [[3, None, 4, 5], [None, None, 7, None]]
    table = long_table(matrix)
    ours = icc(table)
    _same(ours, _pingouin(table, omit=True))
    r = ours[0]
    assert (r["n_items"], r["n_raters"], r["n_excluded_items"]) == (6, 4, 2)
    assert r["n_excluded"]["incomplete_item"] == 4
    assert r["n_ratings"] == 24 and r["n_rows"] == 28
    assert r["n_rows"] == r["n_ratings"] + sum(r["n_excluded"].values())
    # the complete items alone give the same ICCs
    for a, b in zip(ours, icc(long_table(SHROUT_FLEISS))):
        assert a["value"] == pytest.approx(b["value"], abs=1e-12)


def test_missing_values_and_placeholders_are_counted():
    rows = long_table(SHROUT_FLEISS).to_pylist()
    rows.append({"item": 7, "rater": "j1", "value": None})
    rows.append({"item": 7, "rater": "j2", "value": -1.0})
    r = icc(pa.Table.from_pylist(rows), form="ICC2", missing=[-1])
    assert r["n_excluded"]["missing"] == 1 and r["n_excluded"]["placeholder"] == 1
    assert r["n_items"] == 6 and r["n_rows"] == 26


def test_metric_and_group_by_give_one_entry_per_slice():
    a = long_table(SHROUT_FLEISS, metric="tone", site="x")
    b = long_table([row[:3] for row in SHROUT_FLEISS], metric="tone", site="y")
    c = long_table([[x * 2 for x in row] for row in SHROUT_FLEISS], metric="style", site="x")
    table = pa.concat_tables([a, b, c])
    results = icc(table, metric="metric", group_by="site")
    assert [(r[0]["metric"], r[0]["group"]) for r in results] == \
        [("style", {"site": "x"}), ("tone", {"site": "x"}), ("tone", {"site": "y"})]
    assert [r[0]["n_raters"] for r in results] == [4, 4, 3]
    alone = icc(long_table([row[:3] for row in SHROUT_FLEISS]))
    assert [r["value"] for r in results[2]] == pytest.approx([r["value"] for r in alone])
    # a scale change leaves every ICC as it was
    assert [r["value"] for r in results[0]] == pytest.approx([r["value"] for r in results[1]])
    one = icc(table, metric="metric", group_by="site", form="ICC3")
    assert [r["form"] for r in one] == ["ICC3"] * 3


@pytest.mark.parametrize("forced", ["packed", "joined"])
@pytest.mark.parametrize("matrix", [
    [[1, 2, 3]],                                  # one item: no between-item variance
    [[2, 2], [2, 2], [2, 2]],                      # no variance at all
    [[1], [2], [3]],                               # one rater
    [[1, None], [None, 2], [3, None]],             # no complete item
])
def test_undefined_is_none_never_nan(matrix, forced, force_route):
    force_route(icc=forced)
    for r in icc(long_table(matrix)):
        for key in ("value", "f", "p_value", "ci_low", "ci_high"):
            assert r[key] is None, (r["form"], key, r[key])


def test_perfect_consistency_has_value_one_and_no_f():
    r = icc(long_table([[1, 2], [2, 3], [3, 4], [5, 6]]), form="ICC3")
    assert r["value"] == pytest.approx(1.0) and r["f"] is None and r["p_value"] is None


def test_duplicates_are_refused_unless_a_policy_is_given():
    rows = long_table(SHROUT_FLEISS).to_pylist() + [{"item": 1, "rater": "j1", "value": 7.0}]
    table = pa.Table.from_pylist(rows)
    for forced in ("packed", "joined"):
        with routes.forcing(icc=forced):
            with pytest.raises(DuplicateRatingError):
                icc(table)
            r = icc(table, form="ICC1", on_duplicate="mean")
            assert r["n_excluded"]["duplicate"] == 1 and r["n_items"] == 6


def test_labels_are_refused():
    rows = long_table(SHROUT_FLEISS).to_pylist()
    rows = [{**r, "value": str(r["value"])} for r in rows] + [{"item": 9, "rater": "j1", "value": "high"}]
    with pytest.raises(InvalidRatingError, match="intraclass"):
        icc(pa.Table.from_pylist(rows))
