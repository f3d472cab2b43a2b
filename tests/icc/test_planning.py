"""Sample sizes against the formulas and examples they cite, evaluated independently here, and
a simulation showing the planned size reaches its target in the stated share of studies."""
from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest
from scipy import stats

from agreement_sql import cohen_kappa
from agreement_sql.errors import OptionError
from agreement_sql.planning import (achieved_precision, fce_variance, gof_distance,
                                    sample_size)
from agreement_sql.simulation import simulate


def test_icc_bonett_published_example():
    # Bonett (2002), Statistics in Medicine 21:1331-1335: k = 4 raters, ICC 0.85, width 0.2 at
    # 95% needs n = 19.2, so 20 (also R presize's prec_icc example)
    r = sample_size("icc", expected=0.85, ci_width=0.2, n_raters=4)
    assert r["n_items"] == 20 and r["method"] == "closed_form"
    z = stats.norm.ppf(0.975)
    exact = 8 * z * z * 0.15 ** 2 * (1 + 3 * 0.85) ** 2 / (4 * 3 * 0.2 ** 2) + 1
    assert round(exact, 1) == 19.2
    # Bonett's adjustment for k = 2 and rho >= 0.7: + 5 rho
    two = sample_size("icc", expected=0.8, ci_width=0.2, n_raters=2)
    base = 8 * z * z * 0.2 ** 2 * 1.8 ** 2 / (2 * 0.2 ** 2) + 1
    assert two["n_items"] == math.ceil(base + 4.0)


def test_icc_lower_bound_uses_one_sided_half_width():
    r = sample_size("icc", expected=0.8, lower_bound=0.7, n_raters=3)
    z = stats.norm.ppf(0.95)
    assert r["n_items"] == math.ceil(2 * z * z * 0.2 ** 2 * 2.6 ** 2 / (3 * 2 * 0.1 ** 2) + 1)


def bloch_kraemer(kappa: float, p: float) -> float:
    """n Var(kappa) for two raters, binary, equal marginals: Bloch & Kraemer (1989), eq. 9."""
    return (1 - kappa) * ((1 - kappa) * (1 - 2 * kappa) + kappa * (2 - kappa) / (2 * p * (1 - p)))


@pytest.mark.parametrize("kappa,p", [(0.4, 0.3), (0.6, 0.5), (0.8, 0.55), (0.9, 0.2)])
def test_cohen_variance_is_bloch_kraemer_for_binary(kappa, p):
    assert fce_variance(kappa, [1 - p, p]) == pytest.approx(bloch_kraemer(kappa, p), rel=1e-12)


def test_cohen_variance_is_the_packages_own_analytic_se():
    # the anticipated table with N = 10,000 items in exact proportions: the package's analytic
    # SE (computed in SQL) must be sqrt(V1 / N)
    kappa, shares = 0.6, [0.2, 0.3, 0.5]
    n = 10_000
    rows = []
    item = 0
    for i, pi in enumerate(shares):
        for j, pj in enumerate(shares):
            count = round(n * ((1 - kappa) * pi * pj + (kappa * pi if i == j else 0.0)))
            for _ in range(count):
                rows += [{"item": item, "rater": "a", "value": i}, {"item": item, "rater": "b", "value": j}]
                item += 1
    assert item == n
    r = cohen_kappa(pa.Table.from_pylist(rows), ci=0.95)
    assert r["value"] == pytest.approx(kappa, abs=1e-9)
    assert r["se"] == pytest.approx(math.sqrt(fce_variance(kappa, shares) / n), rel=1e-6)


def test_cohen_sample_size():
    r = sample_size("cohen_kappa", expected=0.8, lower_bound=0.6, n_raters=2, prevalence=0.55)
    z = stats.norm.ppf(0.95)
    assert r["n_items"] == math.ceil(z * z * bloch_kraemer(0.8, 0.55) / 0.2 ** 2) == 25
    assert r["anticipated_se"] == pytest.approx(math.sqrt(bloch_kraemer(0.8, 0.55) / 25))
    assert any("goodness-of-fit" in note and "44 items" in note for note in r["notes"])
    width = sample_size("cohen_kappa", expected=0.5, ci_width=0.2, n_raters=2, n_categories=3)
    assert width["n_items"] == math.ceil(stats.norm.ppf(0.975) ** 2
                                         * fce_variance(0.5, [1 / 3] * 3) / 0.1 ** 2)
    powered = sample_size("cohen_kappa", expected=0.8, lower_bound=0.6, n_raters=2,
                          prevalence=0.55, assurance=0.8)
    zz = stats.norm.ppf(0.95) + stats.norm.ppf(0.8)
    assert powered["n_items"] == math.ceil(zz * zz * bloch_kraemer(0.8, 0.55) / 0.04)


def kappasize_ci_binary(kappa0, kappa_l, kappa_u, p, raters, alpha):
    """R kappaSize::CIBinary's search (Rotondi; Donner & Rotondi 2010), transcribed: n from 11
    upwards until the chi-square of the expected cell counts reaches the critical value (its
    cell probabilities written out for 2 and 3 raters)."""
    def cells(r):
        if raters == 2:
            return [(1 - p) ** 2 + r * p * (1 - p), 2 * (1 - r) * p * (1 - p), p ** 2 + r * p * (1 - p)]
        return [(1 - p) ** 3 + p * r * ((1 - p) ** 2 + (1 - p)), 3 * p * (1 - r) * (1 - p) ** 2,
                3 * p ** 2 * (1 - p) * (1 - r), p ** 3 + r * p * (1 - p ** 2)]

    def chi(k1, n):
        return sum((n * a - n * b) ** 2 / (n * b) for a, b in zip(cells(kappa0), cells(k1)))

    crit = stats.chi2.ppf(1 - 2 * alpha, 1) if kappa_u is None else stats.chi2.ppf(1 - alpha, 1)
    n = 10
    while True:
        n += 1
        low = chi(kappa_l, n)
        high = chi(kappa_u, n) if kappa_u is not None else math.inf
        if abs(low - 0.001) >= crit and abs(high - 0.001) >= crit:
            return n


@pytest.mark.parametrize("raters", [2, 3])
@pytest.mark.parametrize("kappa0,p", [(0.4, 0.3), (0.6, 0.5), (0.8, 0.2)])
def test_fleiss_binary_matches_kappasize(raters, kappa0, p):
    # kappaSize's own documented example is CIBinary(kappa0=0.4, kappaL=0.3, kappaU=0.5,
    # props=0.30); its loop adds 0.001 to the statistic and starts at 11, so allow one item
    lower = sample_size("fleiss_kappa", expected=kappa0, lower_bound=kappa0 - 0.1, n_raters=raters,
                        prevalence=p)["n_items"]
    assert abs(lower - kappasize_ci_binary(kappa0, kappa0 - 0.1, None, p, raters, 0.05)) <= 1
    width = sample_size("fleiss_kappa", expected=kappa0, ci_width=0.2, n_raters=raters,
                        prevalence=p, confidence=0.95)["n_items"]
    assert abs(width - kappasize_ci_binary(kappa0, kappa0 - 0.1, kappa0 + 0.1, p, raters, 0.05)) <= 1


def test_gof_distance_is_the_chi_square_per_item():
    assert gof_distance(0.6, 0.6, 0.3, 4) == 0.0
    assert gof_distance(0.6, 0.4, 0.3, 2) > gof_distance(0.6, 0.5, 0.3, 2) > 0


def test_options_are_checked():
    with pytest.raises(OptionError, match="exactly one target"):
        sample_size("icc", expected=0.8, n_raters=3)
    with pytest.raises(OptionError, match="below the expected"):
        sample_size("icc", expected=0.6, lower_bound=0.7, n_raters=3)
    with pytest.raises(OptionError, match="two raters"):
        sample_size("cohen_kappa", expected=0.6, ci_width=0.2, n_raters=3)
    with pytest.raises(OptionError, match="prevalence"):
        sample_size("cohen_kappa", expected=0.6, ci_width=0.2, n_raters=2, prevalence=[0.5, 0.6])


def _share(studies, test) -> float:
    hits = [test(lo, hi) for lo, hi in zip(studies.ci_low, studies.ci_high) if lo is not None]
    return sum(hits) / len(hits)


def test_simulated_studies_follow_the_model():
    s = simulate("fleiss_kappa", kappa=0.6, n_items=400, raters=3, prevalence=[0.7, 0.3],
                 n_studies=40, seed=11)
    assert abs(np.mean(s.values) - 0.6) < 3 * np.std(s.values) / math.sqrt(40) + 0.01
    again = simulate("fleiss_kappa", kappa=0.6, n_items=400, raters=3, prevalence=[0.7, 0.3],
                     n_studies=40, seed=11)
    # same seed, same studies (the sums' order may move the last bits)
    assert again.values == pytest.approx(s.values, rel=1e-12)


@pytest.mark.parametrize("target,share", [({"ci_width": 0.3}, 0.5),
                                          ({"lower_bound": 0.6}, 0.5),
                                          ({"lower_bound": 0.6, "assurance": 0.8}, 0.8)])
def test_planned_size_reaches_the_target_in_the_stated_share(target, share):
    # 400 simulated studies at the planned size, each scored by the package's cohen_kappa with
    # its analytic interval; the share meeting the target is at least the stated one, less
    # three Monte Carlo standard errors
    plan = sample_size("cohen_kappa", expected=0.8, n_raters=2, prevalence=0.5, **target)
    assert plan["assurance"] == share
    level = 0.95 if "ci_width" in target else 0.90          # one-sided 95% = two-sided 90%
    studies = simulate("cohen_kappa", kappa=0.8, n_items=plan["n_items"], raters=2,
                       prevalence=[0.5, 0.5], n_studies=400, seed=5, ci=level)
    if "ci_width" in target:
        achieved = _share(studies, lambda lo, hi: hi - lo <= target["ci_width"])
    else:
        achieved = _share(studies, lambda lo, hi: lo >= target["lower_bound"])
    assert achieved >= share - 3 * math.sqrt(share * (1 - share) / 400)


@pytest.mark.slow
def test_simulated_plan_for_a_coefficient_without_a_closed_form():
    r = sample_size("gwet_ac1", expected=0.8, lower_bound=0.6, n_raters=3, prevalence=0.55, n_sim=100)
    assert r["method"] == "simulation" and r["seed"] == 1 and 5 < r["n_items"] < 100
    assert r["achieved_share"] >= 0.5 - 3 * math.sqrt(0.25 / 100)
    again = sample_size("gwet_ac1", expected=0.8, lower_bound=0.6, n_raters=3, prevalence=0.55,
                        n_sim=100)
    assert (again["n_items"], again["achieved_share"]) == (r["n_items"], r["achieved_share"])


@pytest.mark.slow
def test_achieved_precision_inverts_the_observed_standard_error():
    from conftest import DATA
    r = achieved_precision(DATA / "irr" / "irr_vision_7477x2.csv", target_width=0.01)
    z = stats.norm.ppf(0.975)
    assert r["ci_width"] == pytest.approx(2 * z * r["se"])
    assert r["n_needed"] == math.ceil(z * z * r["n_items"] * r["se"] ** 2 / 0.005 ** 2)
    assert r["target_met"] is False and r["n_more"] == r["n_needed"] - r["n_items"]
    loose = achieved_precision(DATA / "irr" / "irr_vision_7477x2.csv", target_width=0.5)
    assert loose["target_met"] is True and loose["n_more"] == 0
    bound = achieved_precision(DATA / "irr" / "irr_vision_7477x2.csv", lower_bound=0.5)
    assert bound["ci_level"] == 0.9 and bound["ci_low"] == pytest.approx(
        bound["value"] - stats.norm.ppf(0.95) * bound["se"])
    icc = achieved_precision(DATA / "irr" / "irr_anxiety_20x3.csv", coefficient="icc", target_width=0.3)
    assert icc["n_needed"] == sample_size("icc", expected=icc["value"], ci_width=0.3, n_raters=3)["n_items"]
