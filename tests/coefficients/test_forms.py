"""The one-pass statements (agreement_sql/profile.py, sql/_unit_profile.sql.j2) against the
two-pass forms they replace and against independent oracles.

The one-pass form counts input problems inside the metric's own per-unit aggregation and, for a
small domain, counts each category in its own column. Whatever it changes in cost, it must not
change a number or an error: every test here runs the same input through the one-pass form and
through the older forms (forced by lowering the profile's caps to zero) and compares.
"""
from __future__ import annotations

import random

import krippendorff
import numpy as np
import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql import profile
from agreement_sql.errors import DuplicateRatingError, InvalidRatingError, MissingKeyError

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def random_table(seed: int, *, items: int = 60, raters: int = 6, values=(1, 2, 3, 4, 5),
                 missing: float = 0.3, metrics: int = 2, labels: bool = False) -> pa.Table:
    rng = random.Random(seed)
    out = {"item": [], "rater": [], "metric": [], "value": []}
    for m in range(metrics):
        for i in range(items):
            truth = rng.choice(values)
            for r in range(raters):
                if rng.random() < missing:
                    continue
                v = truth if rng.random() < 0.6 else rng.choice(values)
                out["item"].append(i)
                out["rater"].append(f"r{r:03d}")
                out["metric"].append(f"m{m}")
                out["value"].append(str(v) if labels else v)
    return pa.table(out)


def _forms(monkeypatch, call):
    """The call's result in the one-pass wide form, one-pass without wide counts, and two-pass."""
    results = {"wide": call()}
    monkeypatch.setattr(profile, "MAX_WIDE_CATEGORIES", 0)
    results["fused"] = call()
    monkeypatch.setattr(profile, "MAX_FUSED_RATERS", 0)
    results["two_pass"] = call()
    return results


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alpha_one_pass_equals_two_pass_and_krippendorff(monkeypatch, level, seed):
    table = random_table(seed, values=(0, 1, 2, 4, 7) if level == "ratio" else (1, 2, 3, 4, 5))
    forms = _forms(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level, metric="metric"))
    for name in ("fused", "two_pass"):
        for a, b in zip(forms["wide"], forms[name]):
            assert a["value"] == pytest.approx(b["value"], abs=1e-12), name
            for key in ("n_items", "n_raters", "n_values", "n_categories", "metric"):
                assert a[key] == b[key], (name, key)
    # oracle: the krippendorff package on the raters x items matrix of each metric
    frame = table.to_pandas()
    for result in forms["wide"]:
        wide = frame[frame.metric == result["metric"]].pivot(index="rater", columns="item",
                                                             values="value")
        expected = krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                      level_of_measurement=level)
        assert result["value"] == pytest.approx(expected, abs=1e-9)


def test_alpha_one_pass_on_labels_and_slices(monkeypatch):
    table = random_table(7, labels=True, values=("a", "b", "c"))
    table = table.append_column("batch", pa.array([i % 3 for i in table["item"].to_pylist()]))
    forms = _forms(monkeypatch, lambda: ag.krippendorff_alpha(
        table, level="nominal", metric="metric", group_by="batch"))
    assert len(forms["wide"]) == 6
    for name in ("fused", "two_pass"):
        assert [r["value"] for r in forms["wide"]] == pytest.approx(
            [r["value"] for r in forms[name]], abs=1e-12)
        assert [r["group"] for r in forms["wide"]] == [r["group"] for r in forms[name]]


def test_declared_text_domain_one_pass(monkeypatch):
    # labels ranked by the declared order; unused "none" changes nothing
    table = random_table(11, labels=True, values=("low", "mid", "high"), metrics=1)
    forms = _forms(monkeypatch, lambda: ag.krippendorff_alpha(
        table, level="ordinal", domain=["none", "low", "mid", "high"]))
    assert forms["wide"]["value"] == pytest.approx(forms["two_pass"]["value"], abs=1e-12)
    assert forms["wide"]["value"] == pytest.approx(forms["fused"]["value"], abs=1e-12)


def test_more_categories_than_the_cap_use_the_counts_form():
    # 40 distinct values: the profile reports more than 16 and the counts form is used; the
    # result still matches the krippendorff package
    rng = np.random.default_rng(5)
    data = rng.integers(0, 40, size=(4, 50)).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    rows = [(i, f"r{r}", float(data[r, i])) for r in range(4) for i in range(50)
            if not np.isnan(data[r, i])]
    table = pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                      "value": [r[2] for r in rows]})
    for level in LEVELS:
        got = ag.krippendorff_alpha(table, level=level)["value"]
        assert got == pytest.approx(krippendorff.alpha(reliability_data=data,
                                                       level_of_measurement=level), abs=1e-9)


def _with_duplicate(raters: int, late_rater: int, *, same_value: bool) -> pa.Table:
    table = random_table(3, raters=raters, missing=0.0, metrics=1, items=5)
    rows = table.to_pylist()
    first = next(r for r in rows if r["rater"] == f"r{late_rater:03d}" and r["item"] == 2)
    extra = dict(first)
    if not same_value:
        extra["value"] = 1 if first["value"] != 1 else 2
    return pa.Table.from_pylist(rows + [extra])


@pytest.mark.parametrize("raters,late", [(5, 4), (100, 85), (100, 0), (320, 319)])
@pytest.mark.parametrize("same_value", [True, False])
def test_duplicates_found_in_any_rater_block(raters, late, same_value):
    # rater bits come in blocks of 40 (sql/rater_bits.sql.j2); a repeat in any block is found,
    # whether the repeated rating agrees with the first or not
    table = _with_duplicate(raters, late, same_value=same_value)
    with pytest.raises(DuplicateRatingError, match=f"r{late:03d}"):
        ag.krippendorff_alpha(table, level="nominal")


def test_duplicates_beyond_the_fused_rater_cap_still_raise():
    # 330 raters: more than the 320 rater bits, so the separate check runs first
    table = _with_duplicate(330, 325, same_value=True)
    with pytest.raises(DuplicateRatingError, match="r325"):
        ag.krippendorff_alpha(table, level="interval")


def test_n_raters_from_bits_counts_raters_per_metric():
    # metric m1 is rated by r000..r049, m2 only by r000..r009: 50 and 10 raters
    rows = [{"item": i, "rater": f"r{r:03d}", "metric": "m1", "value": (i + r) % 3}
            for i in range(4) for r in range(50)]
    rows += [{"item": i, "rater": f"r{r:03d}", "metric": "m2", "value": 1}
             for i in range(4) for r in range(10)]
    got = ag.krippendorff_alpha(pa.Table.from_pylist(rows), metric="metric", level="nominal")
    assert [r["n_raters"] for r in got] == [50, 10]


def test_non_numeric_rating_in_the_wide_form_is_named():
    rows = random_table(4, metrics=1).to_pylist()
    table = pa.Table.from_pylist([{**r, "value": str(r["value"])} for r in rows]
                                 + [{"item": 3, "rater": "r999", "metric": "m0", "value": "n/a"}])
    with pytest.raises(InvalidRatingError, match="'n/a'"):
        ag.krippendorff_alpha(table, level="interval")
    # nominal alpha on labels accepts it as a category
    assert ag.krippendorff_alpha(table, level="nominal")["n_categories"] >= 5


def test_null_rater_is_named():
    rows = random_table(4, metrics=1).to_pylist()
    rows.append({"item": 1, "rater": None, "metric": "m0", "value": 3})
    with pytest.raises(MissingKeyError, match="'rater'"):
        ag.krippendorff_alpha(pa.Table.from_pylist(rows), level="interval")


def test_null_item_is_named_by_the_fused_check():
    rows = random_table(4, metrics=1).to_pylist()
    rows.append({"item": None, "rater": "r000", "metric": "m0", "value": 3})
    with pytest.raises(MissingKeyError, match="'item'"):
        ag.krippendorff_alpha(pa.Table.from_pylist(rows), level="nominal")


def test_profile_leaves_the_connection_as_found():
    con = ag.connect()
    before = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    ag.krippendorff_alpha(random_table(2), metric="metric", con=con)
    after = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    assert before == after


@pytest.mark.parametrize("level", LEVELS)
def test_packed_counts_at_the_rater_cap(monkeypatch, level):
    # the fused wide form packs a unit's category counts as base-512 digits; 320 raters (the
    # cap) giving one category to a unit is the largest digit it must hold without carrying
    rows = [{"item": i, "rater": f"r{r:03d}", "value": v}
            for i, v in enumerate((1, 5, 3)) for r in range(320)]
    rows += [{"item": 3, "rater": f"r{r:03d}", "value": (1, 2, 4, 5, 7, 8)[r % 6]}
             for r in range(320)]
    table = pa.Table.from_pylist(rows)
    forms = _forms(monkeypatch, lambda: ag.krippendorff_alpha(table, level=level))
    assert forms["wide"]["n_values"] == 1280
    assert forms["wide"]["value"] == pytest.approx(forms["two_pass"]["value"], abs=1e-12)
    assert forms["wide"]["n_categories"] == forms["two_pass"]["n_categories"] == 7
