"""ICC against its published values: Shrout & Fleiss (1979) Table 4, pingouin's documented output
on the same data, and R irr's documented example (anxiety), in both forms of sql/_icc.sql.j2."""
from __future__ import annotations

import pandas as pd
import pytest

from agreement_sql.distributions import f_sf
from agreement_sql.metrics.icc import icc

from ._data import SHROUT_FLEISS, long_table

FORMS = ("packed", "joined")

# Shrout & Fleiss (1979), Table 4 (two decimals as printed)
SF_TABLE_4 = {"ICC1": 0.17, "ICC2": 0.29, "ICC3": 0.71, "ICC1k": 0.44, "ICC2k": 0.62, "ICC3k": 0.91}
# pingouin's intraclass_corr on the same 6 x 4 data (its documented example output): ICC to
# three decimals, the 95% interval to two
PINGOUIN = {"ICC1": (0.166, -0.13, 0.72), "ICC2": (0.290, 0.02, 0.76), "ICC3": (0.715, 0.34, 0.95),
            "ICC1k": (0.443, -0.88, 0.91), "ICC2k": (0.620, 0.07, 0.93),
            "ICC3k": (0.909, 0.68, 0.99)}


@pytest.fixture(params=FORMS)
def form(request, force_route):
    force_route(icc=request.param)
    return request.param


def test_shrout_fleiss_table_4(form):
    results = {r["form"]: r for r in icc(long_table(SHROUT_FLEISS))}
    assert list(results) == ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]
    for name, published in SF_TABLE_4.items():
        assert round(results[name]["value"], 2) == pytest.approx(published, abs=1e-9), name
    # the names the forms go by
    assert results["ICC2"]["shrout_fleiss"] == "ICC(2,1)"
    assert results["ICC3k"]["mcgraw_wong"] == "ICC(C,k)"
    assert results["ICC1"]["irr"] == "oneway / consistency / single"


def test_pingouin_documented_output(form):
    results = {r["form"]: r for r in icc(long_table(SHROUT_FLEISS))}
    for name, (value, low, high) in PINGOUIN.items():
        r = results[name]
        assert round(r["value"], 3) == pytest.approx(value, abs=1e-9), name
        assert round(r["ci_low"], 2) == pytest.approx(low, abs=1e-9), name
        assert round(r["ci_high"], 2) == pytest.approx(high, abs=1e-9), name
        assert r["ci_level"] == 0.95
    # S&F's F tests: one-way F(5, 18) = 1.79, two-way F(5, 15) = 11.03
    assert results["ICC1"]["f"] == pytest.approx(1.794678, abs=1e-6)
    assert (results["ICC1"]["df1"], results["ICC1"]["df2"]) == (5, 18)
    assert results["ICC3"]["f"] == pytest.approx(11.027248, abs=1e-6)
    assert (results["ICC2"]["df1"], results["ICC2"]["df2"]) == (5, 15)


def test_against_pingouin_itself(form):
    pg = pytest.importorskip("pingouin")
    data = long_table(SHROUT_FLEISS).to_pandas()
    theirs = pg.intraclass_corr(data, targets="item", raters="rater", ratings="value")
    ours = icc(long_table(SHROUT_FLEISS))
    for mine, (_, row) in zip(ours, theirs.iterrows()):
        assert mine["value"] == pytest.approx(row["ICC"], abs=1e-12)
        assert mine["f"] == pytest.approx(row["F"], rel=1e-12)
        assert mine["p_value"] == pytest.approx(row["pval"], rel=1e-9)
        assert (mine["df1"], mine["df2"]) == (row["df1"], row["df2"])
        assert [round(mine["ci_low"], 2), round(mine["ci_high"], 2)] == list(row["CI95"])


def test_r_irr_documented_anxiety_example(form):
    # irr's help page example icc(anxiety, model="twoway", type="agreement") prints
    # ICC(A,1) = 0.198, F(19,39.7) = 1.83, p = 0.0543, 95% CI -0.039 < ICC < 0.494. irr's df2 is
    # the Satterthwaite v of the interval (our ci_df2); our test of ICC = 0 uses (n-1)(k-1) as
    # McGraw & Wong's Table 8 and pingouin do.
    from conftest import DATA

    r = icc(DATA / "irr" / "irr_anxiety_20x3.csv", form="ICC(A,1)")
    assert r["form"] == "ICC2"
    assert round(r["value"], 3) == 0.198
    assert round(r["f"], 2) == 1.83
    assert round(r["ci_df2"], 1) == 39.7
    assert round(f_sf(r["f"], r["df1"], r["ci_df2"]), 4) == 0.0543
    assert (round(r["ci_low"], 3), round(r["ci_high"], 3)) == (-0.039, 0.494)
    assert r["df2"] == 38 and r["n_items"] == 20 and r["n_raters"] == 3


def test_forms_by_any_name():
    table = long_table(SHROUT_FLEISS)
    assert icc(table, form="icc3k")["form"] == "ICC3k"
    assert icc(table, form="ICC(1,1)")["form"] == "ICC1"
    assert icc(table, form="ICC(C,1)")["form"] == "ICC3"
    from agreement_sql.errors import OptionError
    with pytest.raises(OptionError, match="unknown ICC form"):
        icc(table, form="ICC4")
    with pytest.raises(OptionError, match="confidence level"):
        icc(table, ci=95)


def test_interpretation_koo_li():
    from agreement_sql.interpret import koo_li
    assert [koo_li(x) for x in (None, 0.49, 0.5, 0.75, 0.9, 0.9000001)] == \
        [None, "poor", "moderate", "good", "good", "excellent"]
    results = {r["form"]: r["interpretation"] for r in icc(long_table(SHROUT_FLEISS))}
    assert results == {"ICC1": "poor", "ICC2": "poor", "ICC3": "moderate", "ICC1k": "poor",
                       "ICC2k": "moderate", "ICC3k": "excellent"}


def test_pandas_source_and_interval_level():
    frame = pd.DataFrame(long_table(SHROUT_FLEISS).to_pylist())
    wide = icc(frame, form="ICC3", ci=0.99)
    narrow = icc(frame, form="ICC3", ci=0.90)
    assert wide["ci_low"] < narrow["ci_low"] < narrow["ci_high"] < wide["ci_high"]
    assert wide["ci_level"] == 0.99
