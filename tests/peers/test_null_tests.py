"""docs/migrating.md, issue #29 points 1-3: the z test of every coefficient, irrCAC's interval
convention (inference="irrcac") and Krippendorff's alpha's analytic standard error, against the
peers' documented output.

Sources of the expected numbers (each test says which):
* R irr 0.84: kappam.fleiss(diagnoses) z = 17.65183 and kappa2(anxiety[, 2:3], weights) z and
  p-values, as statsmodels' test suite records them (statsmodels/stats/tests/test_inter_rater.py,
  test_fleiss_kappa_irr and test_cohens_kappa_irr: the R output pasted with cat_items);
* R irrCAC 1.0's README (github.com/kgwet/irrCAC, README.md: the printed output of
  pa.coeff.raw, gwet.ac1.raw, fleiss.kappa.raw, krippen.alpha.raw, conger.kappa.raw,
  bp.coeff.raw on cac.raw4raters; gwet.ac1.dist, fleiss.kappa.dist, bp.coeff.dist on
  distrib.6raters; kappa2.table, scott2.table, gwet.ac1.table, bp2.table, pa2.table on
  cont3x3abstractors);
* the Python irrCAC 0.4.4 documentation (afergadis/irrCAC docs/source/usage/
  usage_table_data.ipynb: CAC(table_cont3x3abstractors()) with identity, linear and custom
  weights, 5 decimals; irrCAC/raw.py's doctest: CAC(raw_4raters()).gwet() z 5.42458,
  .fleiss() z 4.97434).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import agreement_sql as a

from ._data import REFERENCE, irrcac_cont3x3, irrcac_distrib6, irrcac_raw4raters

ANXIETY = REFERENCE.parent.parent / "data" / "irr" / "irr_anxiety_20x3.csv"
FLEISS1971 = REFERENCE / "fleiss1971_diagnoses_30x6.csv"


def _ci(result: dict, decimals: int) -> tuple[float, float]:
    return round(result["ci_low"], decimals), round(result["ci_high"], decimals)


# -- point 1: every coefficient's z test -----------------------------------------------------------

def test_fleiss_z_is_r_irr_kappam_fleiss():
    # R irr kappam.fleiss(diagnoses): Kappa = 0.4302445, z = 17.65183, p-value = 0 (the null
    # variance of Fleiss, Levin & Paik 2003; statsmodels test_fleiss_kappa_irr)
    result = a.fleiss_kappa(FLEISS1971, ci=0.95)
    assert round(result["value"], 7) == 0.4302445
    assert round(result["z"], 5) == 17.65183
    assert result["p_value"] < 1e-60 and result["p_value"] == pytest.approx(
        2 * stats.norm.sf(result["z"]), rel=1e-12)
    assert "Fleiss, Levin & Paik" in result["conventions"]["test"]


def test_fleiss_null_variance_needs_complete_unweighted_data():
    # its derivation assumes every unit rated by the same m raters, unweighted: otherwise None
    # (irrCAC's convention tests with the linearised variance instead)
    incomplete = a.fleiss_kappa(irrcac_raw4raters(), layout="wide", ci=0.95)
    assert incomplete["value"] is not None and incomplete["se"] is not None
    assert (incomplete["se0"], incomplete["z"], incomplete["p_value"]) == (None, None, None)
    weighted = a.fleiss_kappa(FLEISS1971, ci=0.95, weights="linear")
    assert weighted["z"] is None
    irrcac = a.fleiss_kappa(irrcac_raw4raters(), layout="wide", ci=0.95, inference="irrcac")
    assert irrcac["z"] == pytest.approx(irrcac["value"] / irrcac["se"], rel=1e-12)


@pytest.mark.parametrize("weights,kappa,z,p", [
    # R irr kappa2(anxiety[, 2:3], w): unweighted, "equal" (linear), "squared" (quadratic),
    # weights by the levels present (weight_basis="position"); statsmodels test_cohens_kappa_irr
    (None, -0.006289308, -0.0604067, 0.9518317),
    ("linear", 0.1459075, 1.282472, 0.1996772),
    ("quadratic", 0.2520325, 1.437451, 0.1505898),
])
def test_cohen_z_and_p_are_r_irr_kappa2(weights, kappa, z, p):
    extra = {} if weights is None else {"weights": weights, "weight_basis": "position"}
    result = a.cohen_kappa(ANXIETY, raters=["rater2", "rater3"], ci=0.95, **extra)
    # R prints seven significant digits
    assert result["value"] == pytest.approx(kappa, rel=5e-7)
    assert result["z"] == pytest.approx(z, rel=5e-7)
    # the p-values to R's 7 digits: the old normal tail (A&S 26.2.17) was off by up to 7.5e-8
    assert result["p_value"] == pytest.approx(p, abs=5e-8)


@pytest.mark.slow
def test_every_coefficient_reports_a_test():
    # every coefficient with a null variance reports se0, z and both p-values with ci=; the
    # normal p-values are scipy's of the same z (the oracle)
    results = a.coefficients(irrcac_raw4raters(), layout="wide", ci=0.95)
    for name, result in results.items():
        if name in ("icc", "light_kappa"):
            continue
        assert set(("se0", "z", "p_one_sided", "p_value")) <= set(result), name
        if name == "fleiss_kappa":          # incomplete data: no Fleiss-Levin-Paik variance
            assert result["z"] is None
            continue
        assert result["z"] == pytest.approx(result["value"] / result["se0"], rel=1e-12), name
        assert result["p_value"] == pytest.approx(2 * stats.norm.sf(abs(result["z"])),
                                                  rel=1e-12), name
        assert result["p_one_sided"] == pytest.approx(stats.norm.sf(result["z"]), rel=1e-12), name
    # Gwet's family tests with the estimate's own variance (irrCAC's): se0 = se
    for name in ("gwet_ac1", "brennan_prediger", "percent_agreement", "conger_kappa"):
        assert results[name]["se0"] == pytest.approx(results[name]["se"], rel=1e-12), name
    # alpha's default interval stays the bootstrap's, its test is krippen.alpha.raw's
    assert results["krippendorff_alpha"]["ci_method"] == "bootstrap"
    assert results["krippendorff_alpha"]["se0"] == pytest.approx(0.14548, abs=5e-6)


def test_no_test_without_an_interval():
    result = a.gwet_ac1(irrcac_raw4raters(), layout="wide")
    assert "z" not in result and "p_value" not in result


# -- point 2: irrCAC's interval convention ---------------------------------------------------------

# R irrCAC README, cac.raw4raters, unweighted: coefficient, se, interval (3 decimals), p-value
RAW = {
    a.percent_agreement: (0.8181818, 0.12561, (0.542, 1.0), 4.345373e-05),
    a.gwet_ac1: (0.77544, 0.14295, (0.461, 1.0), 0.000208721),
    a.fleiss_kappa: (0.76117, 0.15302, (0.424, 1.0), 0.000419173),
    a.krippendorff_alpha: (0.74342, 0.14548, (0.423, 1.0), 0.0003386245),
    a.conger_kappa: (0.76282, 0.14917, (0.435, 1.0), 0.0003367066),
    a.brennan_prediger: (0.77273, 0.14472, (0.454, 1.0), 0.0002375609),
}


@pytest.mark.parametrize("function", list(RAW), ids=lambda f: f.__name__)
def test_raw_functions_irrcac_inference(function):
    value, se, interval, p = RAW[function]
    extra = {"level": "nominal"} if function is a.krippendorff_alpha else {}
    result = function(irrcac_raw4raters(), layout="wide", ci=0.95, inference="irrcac", **extra)
    assert round(result["value"], 5 if value != 0.8181818 else 7) == value
    assert round(result["se"], 5) == se
    assert _ci(result, 3) == interval                      # t(11) quantile, upper end at 1
    assert result["p_value"] == pytest.approx(p, rel=5e-7)  # 2 (1 - pt(|z|, 11))
    assert result["df"] == 11
    assert result["conventions"]["inference"].startswith("irrcac")


def test_raw_documented_z():
    # irrCAC/raw.py doctest: CAC(raw_4raters()).gwet() z 5.42458, .fleiss() z 4.97434
    data = irrcac_raw4raters()
    gwet = a.gwet_ac1(data, layout="wide", ci=0.95, inference="irrcac")
    fleiss = a.fleiss_kappa(data, layout="wide", ci=0.95, inference="irrcac")
    assert (round(gwet["z"], 5), round(fleiss["z"], 5)) == (5.42458, 4.97434)


# R irrCAC README, distrib.6raters: coefficient, stderr, interval, p-value (n = 15 subjects)
DIST = {
    a.gwet_ac1: (0.4448007, 0.08418757, (0.264, 0.625), 0.0001155927),
    a.fleiss_kappa: (0.4139265, 0.08119291, (0.24, 0.588), 0.0001622724),
    a.brennan_prediger: (0.4388889, 0.08312142, (0.261, 0.617), 0.0001163),
}


@pytest.mark.parametrize("function", list(DIST), ids=lambda f: f.__name__)
def test_dist_functions_irrcac_inference(function):
    value, se, interval, p = DIST[function]
    result = function(irrcac_distrib6(), layout="counts", ci=0.95, inference="irrcac")
    assert round(result["value"], 7) == value
    assert round(result["se"], 8) == se
    assert _ci(result, 3) == interval
    assert result["p_value"] == pytest.approx(p, rel=5e-4 if p == 0.0001163 else 5e-7)


def test_dist_alpha_is_the_raw_formula():
    # krippen.alpha.dist prints stderr 0.08243228 on distrib.6raters: a formula of its own (its
    # pa_i and pe_i terms differ from krippen.alpha.raw's); this package's standard error is
    # krippen.alpha.raw's, which on these complete data (every unit rated by 6) equals
    # fleiss.kappa.raw's 0.08119291 (irrCAC 0.4.4's krippendorff() gives 0.0811929092 too)
    result = a.krippendorff_alpha(irrcac_distrib6(), layout="counts", level="nominal", ci=0.95,
                                  ci_method="analytic")
    assert round(result["value"], 7) == 0.4204384
    assert round(result["se"], 8) == 0.08119291


# Python irrCAC docs (usage_table_data.ipynb), CAC(table_cont3x3abstractors()): value,
# interval (5 decimals), z; the table functions' variance divides by n (variance="irrcac_table")
TABLE = {
    "bp": (a.brennan_prediger, None, 0.835, (0.74187, 0.92813), 17.79114),
    "cohen": (a.cohen_kappa, None, 0.79641, (0.67952, 0.9133), 13.51892),
    "gwet": (a.gwet_ac1, None, 0.84933, (0.76358, 0.93508), 19.65248),
    "pa2": (a.percent_agreement, None, 0.89, (0.82792, 0.95208), 28.44452),
    "scott": (a.scott_pi, None, 0.79624, (0.67906, 0.91342), 13.48308),
    "bp_linear": (a.brennan_prediger, "linear", 0.87625, (0.80641, 0.94609), 24.8934),
}


@pytest.mark.parametrize("case", list(TABLE))
def test_table_functions_irrcac_inference(case):
    function, weights, value, interval, z = TABLE[case]
    table = irrcac_cont3x3()
    extra = {} if weights is None else {"weights": weights, "categories": list(table.columns)}
    if function not in (a.cohen_kappa, a.scott_pi):
        extra["variance"] = "irrcac_table"
    result = function(table, layout="table", ci=0.95, inference="irrcac", **extra)
    assert round(result["value"], 5) == value
    assert _ci(result, 5) == interval                      # t(99) quantile
    assert round(result["z"], 5) == z
    # R irrCAC's table functions print the one-sided p, 1 - pt(z, n - 1): "0e+00"
    assert result["p_one_sided"] == pytest.approx(stats.t.sf(result["z"], 99), abs=1e-15)


def test_table_kappa2_interval_in_the_r_readme():
    # R irrCAC README: kappa2.table(cont3x3abstractors) 0.7964094, se 0.05891072, (0.68, 0.913)
    result = a.cohen_kappa(irrcac_cont3x3(), layout="table", ci=0.95, inference="irrcac")
    assert (round(result["value"], 7), round(result["se"], 8)) == (0.7964094, 0.05891072)
    assert _ci(result, 3) == (0.68, 0.913)


def test_default_interval_is_the_normal_one_unclipped():
    # the default (inference "normal"): value -/+ z se, not clipped at 1; irrCAC's on request
    data = irrcac_raw4raters()
    normal = a.gwet_ac1(data, layout="wide", ci=0.95)
    irrcac = a.gwet_ac1(data, layout="wide", ci=0.95, inference="irrcac")
    q = stats.norm.ppf(0.975)
    assert normal["ci_high"] == pytest.approx(normal["value"] + q * normal["se"], rel=1e-12)
    assert normal["ci_high"] > 1.0 and irrcac["ci_high"] == 1.0
    assert irrcac["ci_low"] == pytest.approx(irrcac["value"] - stats.t.ppf(0.975, 11) * irrcac["se"],
                                             rel=1e-12)
    assert "inference" not in normal.get("conventions", {}) and "df" not in normal


def test_irrcac_inference_is_refused_where_it_changes_nothing():
    data = irrcac_raw4raters()
    with pytest.raises(a.OptionError, match="inference='irrcac' applies to analytic intervals"):
        a.gwet_ac1(data, layout="wide", inference="irrcac")
    with pytest.raises(a.OptionError, match="inference='irrcac' applies to analytic intervals"):
        a.gwet_ac1(data, layout="wide", ci=0.95, ci_method="bootstrap", inference="irrcac")
    with pytest.raises(a.OptionError, match="inference must be"):
        a.gwet_ac1(data, layout="wide", ci=0.95, inference="t")


# -- point 3: Krippendorff's alpha's analytic standard error ---------------------------------------

def _krippen_alpha_raw(ratings: np.ndarray, weights: np.ndarray, categories: list) -> tuple:
    """R irrCAC 1.0 krippen.alpha.raw (R/agree.coeff3.raw.r), transcribed: alpha, its
    standard error and the degrees of freedom of its t (an independent oracle)."""
    n0 = ratings.shape[0]
    agree = np.array([[np.sum(row == c) for c in categories] for row in ratings], dtype=float)
    agree_w = agree @ weights.T
    ri = agree.sum(axis=1)
    keep = ri >= 2
    agree, agree_w, ri = agree[keep], agree_w[keep], ri[keep]
    rbar, n = ri.mean(), agree.shape[0]
    epsi = 1.0 / ri.sum()
    sum_q = (agree * (agree_w - 1)).sum(axis=1)
    paprime = np.sum(sum_q / (rbar * (ri - 1))) / n
    pa = (1 - epsi) * paprime + epsi
    pi = (agree / rbar).sum(axis=0) / n
    pe = float(np.sum(weights * np.outer(pi, pi)))
    alpha = (pa - pe) / (1 - pe)
    alpha1 = (paprime - pe) / (1 - pe)
    pa_i = sum_q / (rbar * (ri - 1)) - paprime * (ri - rbar) / rbar
    pi_w = (weights @ pi + weights.T @ pi) / 2
    pe_i = agree @ pi_w / rbar - pe * (ri - rbar) / rbar
    alpha_i = (pa_i - pe) / (1 - pe) - 2 * (1 - alpha1) * (pe_i - pe) / (1 - pe)
    var = np.sum((alpha_i - alpha1) ** 2) / (n * (n - 1))
    return alpha, math.sqrt(var), n0 - 1


def _quadratic(categories: list) -> np.ndarray:
    c = np.array(categories, dtype=float)
    return 1 - (c[:, None] - c[None, :]) ** 2 / (c.max() - c.min()) ** 2


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_alpha_se_is_krippen_alpha_raw(level):
    # R irrCAC README: krippen.alpha.raw(cac.raw4raters) 0.74342, se 0.14548, (0.423, 1),
    # p 0.0003386245; interval = quadratic weights (Krippendorff 2011's interval alpha 0.849)
    data = irrcac_raw4raters()
    categories = [1.0, 2.0, 3.0, 4.0, 5.0]
    weights = np.eye(5) if level == "nominal" else _quadratic(categories)
    alpha, se, df = _krippen_alpha_raw(data.to_numpy(), weights, categories)
    result = a.krippendorff_alpha(data, layout="wide", level=level, ci=0.95, ci_method="analytic")
    assert result["value"] == pytest.approx(alpha, abs=1e-12)
    assert result["se"] == pytest.approx(se, rel=1e-10)
    assert result["ci_method"] == "analytic"
    assert result["ci_low"] == pytest.approx(alpha - stats.norm.ppf(0.975) * se, rel=1e-10)
    if level == "nominal":
        assert round(result["se"], 5) == 0.14548


@pytest.mark.slow
def test_alpha_se_on_random_incomplete_data_every_form():
    # the oracle on data with missing ratings and units rated once, through both producers
    from agreement_sql import routes

    rng = np.random.default_rng(11)
    for trial in range(4):
        n, r = 25 + 5 * trial, 3 + trial % 2
        truth = rng.integers(1, 5, size=(n, 1))
        ratings = np.where(rng.random((n, r)) < 0.7, truth, rng.integers(1, 5, size=(n, r)))
        ratings = np.where(rng.random((n, r)) < 0.2, np.nan, ratings).astype(float)
        categories = sorted(set(ratings[~np.isnan(ratings)].tolist()))
        for level in ("nominal", "interval"):
            weights = np.eye(len(categories)) if level == "nominal" else _quadratic(categories)
            alpha, se, _ = _krippen_alpha_raw(ratings, weights, categories)
            for form in ("wide", "counts"):
                with routes.forcing(units=form):
                    result = a.krippendorff_alpha(ratings, layout="wide",
                                                  orientation="units_x_raters", level=level,
                                                  ci=0.95, ci_method="analytic")
                assert result["value"] == pytest.approx(alpha, abs=1e-12), (trial, level, form)
                assert result["se"] == pytest.approx(se, rel=1e-9), (trial, level, form)


def test_alpha_default_interval_is_still_the_bootstrap():
    data = irrcac_raw4raters()
    result = a.krippendorff_alpha(data, layout="wide", ci=0.95, n_boot=200)
    assert result["ci_method"] == "bootstrap"
    # the test is the analytic one, on the observed data
    assert round(result["se0"], 5) == 0.14548
    ordinal = a.krippendorff_alpha(data, layout="wide", level="ordinal", ci=0.95, n_boot=50)
    assert ordinal["ci_method"] == "bootstrap" and ordinal["z"] is None


# -- the CLI ---------------------------------------------------------------------------------------

def test_cli_inference_and_oriented_weights(capsys):
    # the same numbers through agreement-sql gwet-ac1 --inference irrcac (R irrCAC README,
    # gwet.ac1.raw(cac.raw4raters): 0.77544, se 0.14295, (0.461, 1), p 0.000208721) and
    # brennan-prediger --asymmetric-weights oriented (Python irrCAC docs: 0.808)
    import json

    from agreement_sql.cli import main

    raw = str(REFERENCE / "peers" / "irrcac_raw4raters.csv")
    assert main(["gwet-ac1", raw, "--layout", "wide", "--item", "Units", "--ci", "0.95",
                 "--inference", "irrcac"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (round(out["value"], 5), round(out["se"], 5)) == (0.77544, 0.14295)
    assert _ci(out, 3) == (0.461, 1.0)
    assert out["p_value"] == pytest.approx(0.000208721, rel=5e-7)
    table = str(REFERENCE / "peers" / "irrcac_cont3x3abstractors.csv")
    assert main(["brennan-prediger", table, "--layout", "table", "--item", "category",
                 "--weights", "[[1, 0.75, 0], [0.75, 1, 0], [0, 0.75, 1]]",
                 "--categories", "Ectopic,AIU,NIU", "--asymmetric-weights", "oriented"]) == 0
    assert round(json.loads(capsys.readouterr().out)["value"], 5) == 0.808
