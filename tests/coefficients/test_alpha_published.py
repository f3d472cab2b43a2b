"""Krippendorff's alpha against published values, and one result per slice with group_by.

Reference data: tests/reference (long item,rater,value; a missing rating has no row), with the
published values and their sources in tests/reference/published.json.
"""
from __future__ import annotations

import json

import krippendorff
import numpy as np
import pandas as pd
import pytest

from agreement_sql import krippendorff_alpha
from conftest import DATA, REFERENCE

PUBLISHED = json.loads((REFERENCE / "published.json").read_text(encoding="utf-8"))
K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")
WIKI = str(REFERENCE / "wikipedia_alpha_3x15.csv")


def _published(dataset):
    for entry in PUBLISHED[dataset]["published"]:
        if entry["metric"].startswith("krippendorff_alpha["):
            yield entry["metric"][len("krippendorff_alpha["):-1], entry


CASES = [(name, level, entry) for name in ("krippendorff2011_4x12", "wikipedia_alpha_3x15")
         for level, entry in _published(name)]


@pytest.mark.parametrize("dataset,level,entry", CASES,
                         ids=[f"{d}-{lv}-{e['decimals']}dp" for d, lv, e in CASES])
def test_every_published_alpha_is_reproduced(dataset, level, entry):
    result = krippendorff_alpha(str(REFERENCE / PUBLISHED[dataset]["csv"]), level=level)
    assert round(result["value"], entry["decimals"]) == pytest.approx(entry["value"], abs=1e-12), entry["source"]


def test_krippendorff_2011_section_c():
    # Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability, sec. C:
    # 4 observers x 12 units, unit 12 with one value: nominal .743, ordinal .815,
    # interval .849, ratio .797.
    expected = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    for level, value in expected.items():
        result = krippendorff_alpha(K2011, level=level)
        assert round(result["value"], 3) == value, level
        # 11 pairable units (unit 12 has a single value), 40 pairable values, 4 observers
        assert (result["n_items"], result["n_values"], result["n_raters"]) == (11, 40, 4)
    # the same data with its declared domain 1..5 gives the same values
    for level, value in expected.items():
        assert round(krippendorff_alpha(K2011, level=level, domain=[1, 2, 3, 4, 5])["value"], 3) == value


def _coincidences(path):
    """Krippendorff (2011) sec. A: o_ck = sum_u (pairs c-k in u) / (m_u - 1), by brute force."""
    frame = pd.read_csv(path, dtype={"item": str, "rater": str})
    values = sorted(frame["value"].unique())
    index = {v: i for i, v in enumerate(values)}
    o = np.zeros((len(values), len(values)))
    for _, unit in frame.groupby("item"):
        vs = list(unit["value"])
        for i, a in enumerate(vs):
            for j, b in enumerate(vs):
                if i != j:
                    o[index[a], index[b]] += 1.0 / (len(vs) - 1)
    return np.array(values, dtype=float), o


def test_observed_and_expected_disagreement_from_the_coincidence_matrix():
    # D_o = sum_ck o_ck d2_ck / n and D_e = sum_ck n_c n_k d2_ck / (n (n - 1)), Krippendorff (2011)
    for path in (K2011, WIKI):
        values, o = _coincidences(path)
        n_c = o.sum(axis=1)
        n = n_c.sum()
        for level, d2 in (("nominal", (values[:, None] != values[None, :]).astype(float)),
                          ("interval", (values[:, None] - values[None, :]) ** 2)):
            r = krippendorff_alpha(path, level=level)
            d_o = (o * d2).sum() / n
            d_e = (np.outer(n_c, n_c) * d2).sum() / (n * (n - 1))
            assert r["observed_disagreement"] == pytest.approx(d_o, abs=1e-12)
            assert r["expected_disagreement"] == pytest.approx(d_e, abs=1e-12)
            assert r["value"] == pytest.approx(1 - d_o / d_e, abs=1e-12)
            assert r["n_values"] == n


def test_wikipedia_computational_example():
    # en.wikipedia.org/wiki/Krippendorff's_alpha, computational example (3 coders x 15 units),
    # and the krippendorff (PyPI) alpha() doctests: nominal 0.691358, interval 0.810845.
    assert round(krippendorff_alpha(WIKI, level="nominal")["value"], 6) == 0.691358
    assert round(krippendorff_alpha(WIKI, level="interval")["value"], 6) == 0.810845
    assert round(krippendorff_alpha(WIKI, level="nominal")["value"], 3) == 0.691


def test_published_values_also_match_the_reference_library():
    for path, domain in ((K2011, [1, 2, 3, 4, 5]), (WIKI, [1, 2, 3, 4])):
        frame = pd.read_csv(path, dtype={"item": str, "rater": str})
        wide = frame.pivot(index="rater", columns="item", values="value").to_numpy(dtype=float)
        for level in ("nominal", "ordinal", "interval", "ratio"):
            theirs = krippendorff.alpha(reliability_data=wide, level_of_measurement=level,
                                        value_domain=domain)
            assert krippendorff_alpha(path, level=level)["value"] == pytest.approx(theirs, abs=1e-12)


def _evaluation_long() -> pd.DataFrame:
    """Seed 003's evaluation sheet as a long table: two annotators, labels upper-cased."""
    sheet = pd.read_csv(DATA / "evaluation_sheet.csv", dtype=str)
    long = sheet.melt(id_vars=["Sample_ID", "Module", "Dataset_Split"],
                      value_vars=["Annotator_1_Label", "Annotator_2_Label"],
                      var_name="annotator", value_name="label")
    long["label"] = long["label"].str.upper()
    return long.dropna(subset=["label"]).reset_index(drop=True)


def test_group_by_module_gives_one_result_per_slice_in_one_query():
    long = _evaluation_long()
    results = krippendorff_alpha(long, item="Sample_ID", rater="annotator", value="label",
                                 level="nominal", group_by=["Module"])
    assert isinstance(results, list)
    assert [r["group"]["Module"] for r in results] == sorted(long["Module"].unique())
    for r in results:
        part = long[long["Module"] == r["group"]["Module"]]
        wide = part.pivot(index="annotator", columns="Sample_ID", values="label")
        codes = wide.apply(lambda col: col.map({"FAIL": 0.0, "PASS": 1.0})).to_numpy(dtype=float)
        used = sorted(set(codes[~np.isnan(codes)]))
        if len(used) == 1:
            assert r["value"] == 1.0
        else:
            theirs = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
            assert r["value"] == pytest.approx(theirs, abs=1e-12), r["group"]
        assert r["n_items"] == int((wide.notna().sum() >= 2).sum())


def test_group_by_two_columns_and_metric():
    long = _evaluation_long()
    long["question"] = "label"
    results = krippendorff_alpha(long, item="Sample_ID", rater="annotator", value="label",
                                 metric="question", level="nominal",
                                 group_by=["Dataset_Split", "Module"])
    keys = [(r["metric"], r["group"]["Dataset_Split"], r["group"]["Module"]) for r in results]
    assert keys == sorted(keys)
    assert len(keys) == long.groupby(["Dataset_Split", "Module"]).ngroups


@pytest.mark.slow
def test_group_by_with_bootstrap_gives_an_interval_per_slice():
    long = _evaluation_long()
    results = krippendorff_alpha(long, item="Sample_ID", rater="annotator", value="label",
                                 level="nominal", group_by="Dataset_Split", ci=0.9, n_boot=200,
                                 seed=3)
    assert [r["group"]["Dataset_Split"] for r in results] == ["Dev", "Test", "Train"]
    for r in results:
        alone = krippendorff_alpha(long[long["Dataset_Split"] == r["group"]["Dataset_Split"]],
                                   item="Sample_ID", rater="annotator", value="label",
                                   level="nominal", ci=0.9, n_boot=200, seed=3)
        # a slice is resampled on its own, exactly as if it were the whole input
        for key in ("value", "se", "ci_low", "ci_high", "n_boot_valid"):
            assert r[key] == pytest.approx(alone[key], abs=1e-12), key


def test_the_docstring_example_runs(monkeypatch):
    # the docstring of the function users call: run its examples from the repository root
    # (they read tests/reference/krippendorff2011_4x12.csv); Krippendorff (2011) sec. C values
    import doctest

    import agreement_sql
    from agreement_sql.metrics import functions
    from conftest import ROOT

    function = agreement_sql.krippendorff_alpha
    assert function is functions.FUNCTIONS["krippendorff_alpha"] is krippendorff_alpha
    monkeypatch.chdir(ROOT)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(function, "krippendorff_alpha",
                            globs={"krippendorff_alpha": function, "agreement_sql": agreement_sql}):
        runner.run(test)
    outcome = runner.summarize(verbose=False)
    assert outcome.attempted >= 2 and outcome.failed == 0
