"""Property tests: random long tables (missing ratings, ragged raters, 2-10 categories) against
reference implementations, to 1e-9.

* scikit-learn ``cohen_kappa_score`` (unweighted, linear, quadratic; position-based weights);
* statsmodels ``cohens_kappa`` (value-based weights and the SAS / Fleiss-Cohen-Everitt SE) and
  ``fleiss_kappa`` (complete data only);
* a line-by-line numpy port of irrCAC (Gwet; R/agree.coeff3.raw.r and agree.coeff2.r, read from
  github.com/kgwet/irrCAC) for Fleiss (generalised), Conger, Gwet AC1/AC2, Brennan-Prediger,
  percent agreement and Scott's pi, values and standard errors, missing data included.

These libraries are test-only dependencies; the package never calls them. Each property test
runs 25 examples (several seconds): they are marked slow and run with ``pytest -m slow`` (CI,
.ci/run); the default run checks the same oracles on fixed random tables in every form
(test_forms_kappas.py).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from agreement_sql import (brennan_prediger, cohen_kappa, coefficients, conger_kappa, fleiss_kappa,
                           gwet_ac1, percent_agreement, scott_pi)
from _budget import examples

TOL = 1e-9
SE_NOISE = 1e-7     # sqrt(1e-14): rounding in a variance that is exactly 0, after the square root


def se_tolerance(expected_se: float) -> float:
    """How closely an SE must match when its variance is a difference of O(1) sums (Cohen's
    Fleiss-Cohen-Everitt variance, Scott's scott2.table variance).

    Both sides carry ~1e-16 of rounding in that difference. Harmless except where the true
    variance is 0 (e.g. every pair agrees): there the square root turns the reference's
    rounding into an SE of 8.6e-9 (Scott, [[3, 3], [2, 2], [2, 2], [5, 5], [2, 2], [2, 2]]) or
    1.1e-8 (Cohen, linear weights) while the SQL gives exactly 0.0. SE_NOISE bounds that
    noise; any SE above it must still agree to TOL.
    """
    return SE_NOISE if expected_se < SE_NOISE else TOL
SETTINGS = settings(max_examples=examples(25), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ---------------------------------------------------------------- random long tables

@st.composite
def long_tables(draw, min_raters=2, max_raters=5, complete=False):
    """A wide matrix (items x raters, None = missing) and its categories, as long rows."""
    n_cats = draw(st.integers(2, 10))
    values = sorted(draw(st.lists(st.integers(0, 30), min_size=n_cats, max_size=n_cats, unique=True)))
    n_raters = draw(st.integers(min_raters, max_raters))
    n_items = draw(st.integers(3, 25))
    p_missing = 0.0 if complete else draw(st.sampled_from([0.0, 0.2, 0.5]))
    # a few categories dominate sometimes, so agreement is not only chance
    skew = draw(st.booleans())
    wide = []
    for _ in range(n_items):
        truth = draw(st.sampled_from(values))
        row = []
        for _ in range(n_raters):
            if p_missing and draw(st.floats(0, 1)) < p_missing:
                row.append(None)
            elif skew and draw(st.booleans()):
                row.append(truth)
            else:
                row.append(draw(st.sampled_from(values)))
        if all(v is None for v in row):
            row[0] = truth
        wide.append(row)
    return wide


def to_long(wide, raters=None) -> pa.Table:
    raters = raters or [f"r{j}" for j in range(len(wide[0]))]
    rows = [(f"i{i:03d}", raters[j], v) for i, row in enumerate(wide) for j, v in enumerate(row)
            if v is not None]
    return pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                     "value": pa.array([r[2] for r in rows], pa.int64())})


def used_raters(wide) -> list[int]:
    return [j for j in range(len(wide[0])) if any(row[j] is not None for row in wide)]


# ---------------------------------------------------------------- irrCAC, ported

def irr_weights(categ, kind):
    """irrCAC weights.gen.r: numeric categories use their values."""
    c = np.asarray(categ, float)
    span = c.max() - c.min()
    if kind is None:
        return np.eye(len(c))
    d = np.abs(c[:, None] - c[None, :])
    if span == 0:
        return np.ones((len(c), len(c)))
    return 1 - d / span if kind == "linear" else 1 - d ** 2 / span ** 2


def irrcac(wide, coefficient, weights=None, categ=None):
    """(coefficient, standard error) as irrCAC's *.raw functions compute them (N = Inf)."""
    raters = used_raters(wide)
    mat = [[row[j] for j in raters] for row in wide]
    n, r = len(mat), len(raters)
    categ = sorted({v for row in mat for v in row if v is not None}) if categ is None else categ
    q = len(categ)
    W = irr_weights(categ, weights)
    agree = np.zeros((n, q))
    for i, row in enumerate(mat):
        for v in row:
            if v is not None:
                agree[i, categ.index(v)] += 1
    agree_w = agree @ W.T
    ri = agree.sum(1)
    sum_q = (agree * (agree_w - 1)).sum(1)
    two = ri >= 2
    n2 = two.sum()
    pa_ = (sum_q[two] / (ri * (ri - 1))[two]).sum() / n2
    pi = (agree / ri[:, None]).sum(0) / n
    den = ri * (ri - 1)
    den = den - (den == 0)
    pa_i = sum_q / den
    if coefficient == "percent_agreement":
        pa_iv = (n / n2) * pa_i
        return pa_, math.sqrt(((pa_iv - pa_) ** 2).sum() / (n * (n - 1)))
    if coefficient == "fleiss_kappa":
        pe = (W * np.outer(pi, pi)).sum()
    elif coefficient == "gwet_ac1":
        pe = W.sum() * (pi * (1 - pi)).sum() / (q * (q - 1))
    elif coefficient == "brennan_prediger":
        pe = W.sum() / q ** 2
    elif coefficient == "conger_kappa":
        classif = np.zeros((r, q))
        for g in range(r):
            for row in mat:
                if row[g] is not None:
                    classif[g, categ.index(row[g])] += 1
        ng = classif.sum(1)
        pgk = classif / ng[:, None]
        pbar = pgk.sum(0) / r
        s2 = (pgk.T @ pgk - r * np.outer(pbar, pbar)) / (r - 1)
        pe = (W * (np.outer(pbar, pbar) - s2 / r)).sum()
    kappa = (pa_ - pe) / (1 - pe)
    k_i = (n / n2) * (pa_i - pe * two) / (1 - pe)
    if coefficient == "fleiss_kappa":
        pi_w = (W @ pi + W.T @ pi) / 2
        pe_i = (agree @ pi_w) / ri
        k_i = k_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    elif coefficient == "gwet_ac1":
        pe_i = (W.sum() / (q * (q - 1))) * (agree @ (1 - pi)) / ri
        k_i = k_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    elif coefficient == "conger_kappa":
        eps = np.array([[1.0 if row[g] is not None else 0.0 for g in range(r)] for row in mat])
        lam = np.zeros((n, r))
        for k in range(q):
            lam_k = np.zeros((n, r))
            for l in range(q):
                delta = np.array([[1.0 if row[g] == categ[l] else 0.0 for g in range(r)] for row in mat])
                lam_k += W[k, l] * (delta - (eps - ng / n) * pgk[:, l])
            lam_k = lam_k * (n / ng)
            lam += lam_k * (r * pgk[:, k].mean() - pgk[:, k])
        pe_i = lam.sum(1) / (r * (r - 1))
        k_i = k_i - 2 * (1 - kappa) * (pe_i - pe) / (1 - pe)
    var = ((k_i - kappa) ** 2).sum() / (n * (n - 1))
    return kappa, math.sqrt(max(var, 0.0))


def irr_scott2(table, W):
    """irrCAC scott2.table: Scott's pi and its standard error from a q x q table."""
    n = table.sum()
    pa_ = (W * table / n).sum()
    pk, pl = table.sum(1) / n, table.sum(0) / n
    pik = (pk + pl) / 2
    pe = (W * np.outer(pik, pik)).sum()
    scott = (pa_ - pe) / (1 - pe)
    pbk = (W @ pl + W.T @ pk) / 2
    pkl = table / n
    s1 = (pkl * (W - (1 - scott) * (pbk[:, None] + pbk[None, :])) ** 2).sum()
    var = (s1 - (pa_ - 2 * (1 - scott) * pe) ** 2) / (n * (1 - pe) ** 2)
    return scott, math.sqrt(max(var, 0.0))


def pair_table(wide, a=0, b=1):
    """The contingency table of raters a, b over the items both rated, and its categories."""
    pairs = [(row[a], row[b]) for row in wide if row[a] is not None and row[b] is not None]
    cats = sorted({v for p in pairs for v in p})
    t = np.zeros((len(cats), len(cats)))
    for x, y in pairs:
        t[cats.index(x), cats.index(y)] += 1
    return pairs, cats, t


# ---------------------------------------------------------------- Cohen

@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 2), st.sampled_from([None, "linear", "quadratic"]))
def test_cohen_matches_scikit_learn_position_weights(wide, weights):
    pairs, cats, _ = pair_table(wide)
    assume(len(pairs) >= 1 and len(cats) >= 2)
    expected = cohen_kappa_score([p[0] for p in pairs], [p[1] for p in pairs], weights=weights)
    # weight_basis applies to linear and quadratic weights only (refused otherwise)
    basis = {"weight_basis": "position"} if weights else {}
    result = cohen_kappa(to_long(wide), weights=weights, **basis)
    assert result["value"] == pytest.approx(expected, abs=TOL)
    assert result["n_items"] == len(pairs)


@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 2), st.sampled_from([None, "linear", "quadratic"]))
@example([[0, None], [0, None], [3, 0], [0, None], [0, None], [2, 0], [0, None], [0, 0],
          [0, None], [0, None], [0, None]], "linear")                # variance exactly 0
def test_cohen_matches_statsmodels_value_weights_and_se(wide, weights):
    pairs, cats, table = pair_table(wide)
    assume(len(pairs) >= 2 and len(cats) >= 2)
    if weights is None:
        expected = cohens_kappa(table)
    else:
        expected = cohens_kappa(table, weights=np.asarray(cats, float), wt=weights)
    result = cohen_kappa(to_long(wide), weights=weights, ci=0.95)
    assert result["value"] == pytest.approx(expected.kappa, abs=TOL)
    # a variance that rounds below zero (a constant rater) is an se of 0, not NaN
    se = math.sqrt(max(expected.var_kappa, 0.0))
    se_tol = se_tolerance(se)
    assert result["se"] == pytest.approx(se, abs=se_tol)
    z = 1.959963984540054
    assert result["ci_low"] == pytest.approx(expected.kappa - z * se, abs=TOL + z * se_tol)
    assert result["ci_high"] == pytest.approx(expected.kappa + z * se, abs=TOL + z * se_tol)


@pytest.mark.slow
@SETTINGS
@given(long_tables(3, 5))
def test_light_kappa_is_the_mean_of_pairwise_cohen(wide):
    raters = used_raters(wide)
    assume(len(raters) >= 3)
    kappas = []
    for a, b in itertools.combinations(raters, 2):
        pairs, cats, _ = pair_table(wide, a, b)
        if not pairs:
            continue
        if len(cats) == 1:
            kappas.append(1.0)
        else:
            kappas.append(cohen_kappa_score([p[0] for p in pairs], [p[1] for p in pairs]))
    assume(kappas)
    result = cohen_kappa(to_long(wide))
    assert result["coefficient"] == "light_kappa"
    assert result["n_pairs"] == len(kappas)
    assert result["value"] == pytest.approx(float(np.mean(kappas)), abs=TOL)


@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 4), st.sampled_from([None, "linear", "quadratic"]))
def test_named_pair_equals_the_two_rater_table(wide, weights):
    pairs, cats, _ = pair_table(wide, 0, 1)
    assume(len(pairs) >= 1 and len(cats) >= 2)
    expected = cohen_kappa_score([p[0] for p in pairs], [p[1] for p in pairs], weights=weights)
    basis = {"weight_basis": "position"} if weights else {}
    result = cohen_kappa(to_long(wide), raters=["r0", "r1"], weights=weights, **basis)
    assert result["coefficient"] == "cohen_kappa"
    assert result["raters"] == ["r0", "r1"]
    assert result["value"] == pytest.approx(expected, abs=TOL)


# ---------------------------------------------------------------- Fleiss on complete data

@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 6, complete=True))
def test_fleiss_matches_statsmodels_on_complete_data(wide):
    table, _ = aggregate_raters(np.asarray(wide))
    assume(table.shape[1] >= 2)
    result = fleiss_kappa(to_long(wide))
    assert result["value"] == pytest.approx(sm_fleiss(table, method="fleiss"), abs=TOL)


@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 2, complete=True))
def test_scott_equals_fleiss_for_two_complete_raters(wide):
    pairs, cats, _ = pair_table(wide)
    assume(len(cats) >= 2)
    table, _ = aggregate_raters(np.asarray(wide))
    assert scott_pi(to_long(wide))["value"] == pytest.approx(sm_fleiss(table), abs=TOL)


# ---------------------------------------------------------------- Gwet's family vs irrCAC

MANY = {"fleiss_kappa": fleiss_kappa, "conger_kappa": conger_kappa, "gwet_ac1": gwet_ac1,
        "brennan_prediger": brennan_prediger, "percent_agreement": percent_agreement}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MANY))
@SETTINGS
@given(wide=long_tables(2, 5), weights=st.sampled_from([None, "linear", "quadratic"]))
def test_many_rater_coefficients_match_irrcac(name, wide, weights):
    categ = sorted({v for row in wide for v in row if v is not None})
    assume(len(categ) >= 2)
    n2 = sum(1 for row in wide if sum(v is not None for v in row) >= 2)
    assume(n2 >= 1 and len(wide) >= 2)
    expected, expected_se = irrcac(wide, name, weights)
    assume(math.isfinite(expected) and math.isfinite(expected_se))
    result = MANY[name](to_long(wide), weights=weights, ci=0.95)
    assert result["value"] == pytest.approx(expected, abs=TOL)
    assert result["se"] == pytest.approx(expected_se, abs=TOL)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gwet_ac1", "brennan_prediger", "fleiss_kappa"])
@SETTINGS
@given(wide=long_tables(2, 4), extra=st.integers(31, 40))
def test_declared_unused_category_matches_irrcac_categ_labels(name, wide, extra):
    used = sorted({v for row in wide for v in row if v is not None})
    assume(len(used) >= 2 and sum(1 for row in wide if sum(v is not None for v in row) >= 2))
    categ = used + [extra]                 # a declared category nobody used
    expected, expected_se = irrcac(wide, name, "quadratic", categ=categ)
    result = MANY[name](to_long(wide), weights="quadratic", categories=categ, ci=0.95)
    assert result["n_categories"] == len(categ)
    assert result["value"] == pytest.approx(expected, abs=TOL)
    assert result["se"] == pytest.approx(expected_se, abs=TOL)


@pytest.mark.slow
@SETTINGS
@given(long_tables(2, 2), st.sampled_from([None, "linear", "quadratic"]))
@example([[3, 3], [2, 2], [2, 2], [5, 5], [2, 2], [2, 2]], None)   # variance exactly 0
def test_scott_matches_irrcac_scott2_table(wide, weights):
    pairs, cats, table = pair_table(wide)
    assume(len(pairs) >= 2 and len(cats) >= 2)
    expected, expected_se = irr_scott2(table, irr_weights(cats, weights))
    result = scott_pi(to_long(wide), weights=weights, ci=0.95)
    assert result["value"] == pytest.approx(expected, abs=TOL)
    assert result["se"] == pytest.approx(expected_se, abs=se_tolerance(expected_se))


@pytest.mark.slow
@settings(max_examples=examples(4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(long_tables(2, 4), st.sampled_from([None, "quadratic"]))
@example([[1, 1], [2, 2], [1, 2], [2, 1]], None)        # kappa exactly 0: on a label boundary
def test_coefficients_equal_the_single_functions(wide, weights):
    data = to_long(wide)
    together = coefficients(data, weights=weights, ci=0.9)
    singles = [function(data, weights=weights, ci=0.9) for function in MANY.values()]
    singles.append(cohen_kappa(data, weights=weights, ci=0.9))
    for alone in singles:
        alone.pop("metric")
        alone.pop("route")
        joint = {k: v for k, v in together[alone["coefficient"]].items() if k != "route"}
        assert joint.keys() == alone.keys()
        for key, value in alone.items():
            if isinstance(value, float):
                assert joint[key] == pytest.approx(value, abs=TOL, nan_ok=True), key
            else:
                assert joint[key] == value, key
