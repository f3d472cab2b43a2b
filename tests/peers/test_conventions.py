"""Peer conventions on request (docs/migrating.md): Gwet's marginals for Cohen, Light and
Scott with missing ratings, the orientation of an asymmetric weight matrix, irrCAC's variance
divisors. Defaults are unchanged and say nothing; a requested convention is stated in the
result's ``conventions``."""
from __future__ import annotations

import pandas as pd
import pytest

import agreement_sql as a

from ._data import gwet_table3_5, irrcac_cont3x3

QUAD = {"weights": "quadratic", "categories": ["A", "B", "C"]}


def test_example_3_2_both_conventions():
    # Gwet (2014) Example 3.2 (Table 3.5) with quadratic weights, as irrCAC computes it: the
    # units both raters rated give 0.7500 (Cohen) and 0.7419 (Scott); Gwet's marginals 0.7772
    # and 0.7673 (irrCAC conger.kappa.raw / fleiss.kappa.raw, tests/reference/peers)
    data = gwet_table3_5()
    default = a.cohen_kappa(data, layout="wide", **QUAD)
    assert round(default["value"], 4) == 0.75
    assert round(a.scott_pi(data, layout="wide", **QUAD)["value"], 4) == 0.7419
    assert round(a.cohen_kappa(data, layout="wide", marginals="gwet", **QUAD)["value"], 4) == 0.7772
    assert round(a.scott_pi(data, layout="wide", marginals="gwet", **QUAD)["value"], 4) == 0.7673
    # marginals="pairwise" is the default, named
    named = a.cohen_kappa(data, layout="wide", marginals="pairwise", **QUAD)
    assert named == default


def test_gwet_marginals_accounting_and_statement():
    data = gwet_table3_5()
    pairwise = a.cohen_kappa(data, layout="wide", **QUAD)
    gwet = a.cohen_kappa(data, layout="wide", marginals="gwet", **QUAD)
    # 19 ratings: 16 on the 8 shared units; under Gwet's convention the 3 others enter the marginals
    assert (pairwise["n_ratings"], pairwise["n_excluded"]["outside_pair"]) == (16, 3)
    assert (gwet["n_ratings"], gwet["n_excluded"]["outside_pair"]) == (19, 0)
    assert gwet["conventions"]["marginals"].startswith("gwet (Gwet 2014")
    assert "marginals" not in pairwise["conventions"]


def test_gwet_marginals_on_complete_data_are_the_pairwise_ones():
    # every unit rated by both: the two conventions are one (and Light's kappa likewise)
    long = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 1, 2, 3, 4, 5],
                         "rater": ["a", "b"] * 5 + ["c"] * 5,
                         "value": [1, 1, 2, 1, 2, 2, 3, 3, 1, 2, 1, 2, 2, 3, 1]})
    two = long[long.rater != "c"]
    assert a.cohen_kappa(two, marginals="gwet")["value"] == pytest.approx(
        a.cohen_kappa(two)["value"], abs=1e-15)
    assert a.scott_pi(two, marginals="gwet")["value"] == pytest.approx(
        a.scott_pi(two)["value"], abs=1e-15)
    light = a.cohen_kappa(long, marginals="gwet")
    assert light["coefficient"] == "light_kappa"
    assert light["value"] == pytest.approx(a.cohen_kappa(long)["value"], abs=1e-15)


def test_light_kappa_gwet_is_the_mean_of_the_pairs():
    data = pd.DataFrame({"r1": ["a", "b", None, "a", "b", "b"], "r2": ["a", "b", "b", None, "a", "b"],
                         "r3": ["a", None, "b", "a", "a", "b"]})
    pairs = [a.cohen_kappa(data, layout="wide", raters=p, marginals="gwet")["value"]
             for p in (["r1", "r2"], ["r1", "r3"], ["r2", "r3"])]
    light = a.cohen_kappa(data, layout="wide", marginals="gwet")
    assert light["value"] == pytest.approx(sum(pairs) / 3, abs=1e-12)


def test_gwet_marginals_have_no_analytic_standard_error():
    data = gwet_table3_5()
    boot = a.cohen_kappa(data, layout="wide", marginals="gwet", ci=0.95, n_boot=200)
    assert boot["ci_method"] == "bootstrap" and boot["se"] is not None
    assert "no analytic standard error" in boot["conventions"]["marginals"]
    with pytest.raises(a.OptionError, match="no analytic standard error"):
        a.scott_pi(data, layout="wide", marginals="gwet", ci=0.95, ci_method="analytic")


def test_marginals_only_where_they_mean_something():
    data = gwet_table3_5()
    with pytest.raises(a.OptionError, match="fleiss_kappa takes no marginals"):
        a.fleiss_kappa(data, layout="wide", marginals="gwet")
    with pytest.raises(a.OptionError, match="marginals must be"):
        a.cohen_kappa(data, layout="wide", marginals="listwise")


def test_asymmetric_weights_are_an_error_in_rater_free_coefficients():
    long = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "rater": list("abababab"),
                         "value": [1, 2, 1, 1, 2, 2, 3, 2]})
    asymmetric = [[1, 0.5, 0], [0.2, 1, 0.5], [0, 0.5, 1]]
    for function in (a.fleiss_kappa, a.gwet_ac1, a.scott_pi, a.conger_kappa):
        with pytest.raises(a.OptionError, match=r"w\['1'\]\['2'\] = 0.5 but w\['2'\]\['1'\] = 0.2"):
            function(long, weights=asymmetric, categories=[1, 2, 3])
    # asked for, (W + W^T) / 2: the number the symmetric matrix gives, and said
    symmetric = [[1, 0.35, 0], [0.35, 1, 0.5], [0, 0.5, 1]]
    made = a.fleiss_kappa(long, weights=asymmetric, categories=[1, 2, 3],
                          asymmetric_weights="symmetrize")
    assert made["value"] == pytest.approx(
        a.fleiss_kappa(long, weights=symmetric, categories=[1, 2, 3])["value"], abs=1e-15)
    assert "(W + W^T) / 2" in made["conventions"]["weights"]
    with pytest.raises(a.OptionError, match="fleiss_kappa"):
        a.coefficients(long, weights=asymmetric, categories=[1, 2, 3], which=["cohen", "fleiss"])


def test_cohen_keeps_an_asymmetric_matrix_oriented():
    long = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "rater": list("ababababab"),
                         "value": [1, 2, 1, 1, 2, 3, 3, 2, 1, 3]})
    asymmetric = [[1, 0.5, 0], [0.2, 1, 0.5], [0, 0.9, 1]]
    ab = a.cohen_kappa(long, weights=asymmetric, categories=[1, 2, 3], raters=["a", "b"])
    ba = a.cohen_kappa(long, weights=asymmetric, categories=[1, 2, 3], raters=["b", "a"])
    assert ab["raters"] == ["a", "b"] and ba["raters"] == ["b", "a"]
    assert ab["value"] != pytest.approx(ba["value"], abs=1e-6)
    assert "rows are rater A's categories" in ab["conventions"]["weights"]
    # by hand: p_o = sum w_ij p_ij with i rater a's category (rows), j rater b's
    cells = {(1, 2): 1, (1, 1): 1, (2, 3): 1, (3, 2): 1, (1, 3): 1}
    w = {(i, j): asymmetric[i - 1][j - 1] for i in (1, 2, 3) for j in (1, 2, 3)}
    p_o = sum(n * w[c] for c, n in cells.items()) / 5
    assert ab["observed_agreement"] == pytest.approx(p_o, abs=1e-15)


def test_asymmetric_weights_keyword_checks():
    long = pd.DataFrame({"item": [1, 1, 2, 2], "rater": list("abab"), "value": [1, 2, 1, 1]})
    with pytest.raises(a.OptionError, match="applies to a weight matrix"):
        a.fleiss_kappa(long, weights="linear", asymmetric_weights="symmetrize")
    with pytest.raises(a.OptionError, match="takes no asymmetric_weights"):
        a.krippendorff_alpha(long, asymmetric_weights="symmetrize")


@pytest.mark.slow
def test_variance_divisors():
    table = irrcac_cont3x3()
    n = 100
    cohen = a.cohen_kappa(table, layout="table", ci=0.95)
    raw = a.cohen_kappa(table, layout="table", ci=0.95, variance="irrcac_raw")
    # Cohen's default divides by N (irrCAC kappa2.table); irrcac_raw by N - 1
    assert raw["se"] == pytest.approx(cohen["se"] * (n / (n - 1)) ** 0.5, rel=1e-12)
    assert raw["value"] == cohen["value"] and raw["se0"] == cohen["se0"]
    assert raw["conventions"]["variance"].startswith("irrcac_raw")
    scott = a.scott_pi(table, layout="table", ci=0.95)
    scott_raw = a.scott_pi(table, layout="table", ci=0.95, variance="irrcac_raw")
    assert scott_raw["se"] == pytest.approx(scott["se"] * (n / (n - 1)) ** 0.5, rel=1e-12)
    # the rater-free default is irrCAC's raw divisor; irrcac_table divides by n
    fleiss = a.fleiss_kappa(table, layout="table", ci=0.95)
    same = a.fleiss_kappa(table, layout="table", ci=0.95, variance="irrcac_raw")
    fleiss_table = a.fleiss_kappa(table, layout="table", ci=0.95, variance="irrcac_table")
    assert same["se"] == fleiss["se"]
    assert fleiss_table["se"] == pytest.approx(fleiss["se"] * ((n - 1) / n) ** 0.5, rel=1e-12)
    # Scott's pi is Fleiss' kappa for two complete raters: the same standard error under the
    # same divisor
    assert fleiss_table["se"] == pytest.approx(scott["se"], rel=1e-9)
    with pytest.raises(a.OptionError, match="variance= applies to analytic intervals"):
        a.krippendorff_alpha(table, layout="table", variance="irrcac_table")
    with pytest.raises(a.OptionError, match="variance must be"):
        a.fleiss_kappa(table, layout="table", variance="n")


@pytest.mark.slow
def test_defaults_state_nothing():
    # with every default, only the test a ci= adds is stated (which variance its z uses)
    long = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"), "value": [1, 2, 1, 1, 2, 2]})
    for result in a.coefficients(long).values():
        assert "conventions" not in result
    tested = a.coefficients(long, ci=0.95)
    from agreement_sql.registry import REGISTRY
    for name, result in tested.items():
        # the ICC's F test states nothing; a coefficient without a null test (Bangdiwala's B)
        # has no z to state
        if name in REGISTRY and "null_test" in REGISTRY[name].reports:
            assert list(result["conventions"]) == ["test"], name
        else:
            assert "conventions" not in result, name
    assert "conventions" not in tested["icc"]
    assert "conventions" not in tested["bangdiwala_b"]
