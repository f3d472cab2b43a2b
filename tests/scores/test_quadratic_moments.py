"""Quadratic-weighted kappas from moments (routes decision ``kappa_weights``, docs/decisions/0019).

With w_kl = 1 - (s_k - s_l)^2 / span^2 every sum over pairs of categories splits into moments of
the scores, so the counts form gathers Fleiss', Gwet's AC2, Brennan-Prediger's, the weighted
percent agreement's and Conger's inputs, and the pair coefficients' (Cohen, Light, Scott) pair
tables, at linear cost. Checked here:
- on generated data with few categories, the moments route equals the table-of-weights route
  (``value_pairs``) to 1e-12, values and standard errors, every coefficient it serves, by value
  and by position, with slices, missing ratings and the bootstrap;
- Fleiss' quadratic kappa and its linearised standard error on 3,000 distinct values (above
  constants.MAX_VALUE_TABLE) against a hand formula in numpy (irrCAC fleiss.kappa.raw's
  definitions, Gwet 2014 ch. 5: the full q x q weight matrix, never the moments); Cohen's
  quadratic kappa by position on as many values against scikit-learn's cohen_kappa_score (its
  quadratic weights are by label index, (i - j)^2 / (q - 1)^2: weight_basis="position");
- 20,000 distinct values under a 500 MB DuckDB memory limit: computed, where the table of
  weights alone is 4 * 10^8 rows;
- the route record, and coefficients()' default set on scores with weights="quadratic".
"""
from __future__ import annotations

import random
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import example, given, settings, strategies as st

import agreement_sql as ag
from agreement_sql import routes, value_tables
from _budget import examples

SERVED = ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement", "conger_kappa",
          "cohen_kappa", "scott_pi"]
FIELDS = ("value", "observed_agreement", "chance_agreement", "se", "ci_low", "ci_high", "se0",
          "z", "p_value", "n_items", "n_categories")


def _table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows)


def _run(alternative: str, call: Any) -> tuple[Any, list[dict[str, str]]]:
    with routes.collecting() as log, routes.forcing(units="counts", kappa_weights=alternative):
        result = call()
    return result, list(log)


# An SE is the square root of a variance summed as a difference of moments: where the two routes
# agree on the variance to 1e-12, an SE near zero agrees only to the root of that, 1e-6 (the
# CI-like run of 2026-12-06 drew Cohen's kappa on 3 units of one slice: variance 1.1e-15 by
# moments, exactly 0 by the table, se 3.3e-8 against 0.0). So an SE is compared through its
# square at 1e-12, and an interval's bounds (value -/+ z se, z = 1.96 here) to 1.96e-6. The test
# statistic z = value / se0 carries se0's relative error, at most 1e-12 / (2 se0^2), and its
# p-value at most z's error. Where the null variance is zero (se0 = 0, z undefined: None) both
# routes say so (a difference within 1e-12 of its terms is zero: sql/_cohen.sql.j2,
# test_a_zero_null_variance_is_zero_on_every_route).
ROOTS = ("se", "se0")
BOUNDS = ("ci_low", "ci_high")
FROM_SE0 = ("z", "p_value")


def _compare(moments: dict[str, Any], pairs: dict[str, Any], where: str) -> None:
    for name in SERVED:
        label = {"gwet_ac1": "gwet_ac2", "cohen_kappa": "light_kappa"}.get(name, name)
        a, b = moments.get(name) or moments.get(label), pairs.get(name) or pairs.get(label)
        assert a is not None and b is not None, (where, name, sorted(moments))
        se0 = b.get("se0")
        for field in FIELDS:
            x, y = a.get(field), b.get(field)
            if field in FROM_SE0 and not se0:
                assert x == y, (where, name, field, x, y)   # se0 0 (or none): z undefined on both
                continue
            if field in FROM_SE0 and (a.get("se0") or 0.0) ** 2 <= 1e-12:
                continue                     # se0 near zero: z carries its rounding unbounded
            if field in FROM_SE0 and isinstance(x, float) and isinstance(y, float):
                allowed = abs(a.get("z") or 0.0) * 1e-12 / (2 * se0 * se0) + 1e-12
                assert x == pytest.approx(y, rel=1e-12, abs=allowed), (where, name, field, x, y)
            elif field in ROOTS and isinstance(x, float) and isinstance(y, float):
                assert x * x == pytest.approx(y * y, rel=1e-12, abs=1e-12), (where, name, field, x, y)
            elif field in BOUNDS and isinstance(x, float) and isinstance(y, float):
                assert x == pytest.approx(y, rel=1e-12, abs=1.96e-6), (where, name, field, x, y)
            elif isinstance(x, float) or isinstance(y, float):
                assert x == pytest.approx(y, rel=1e-12, abs=1e-12), (where, name, field, x, y)
            else:
                assert x == y, (where, name, field, x, y)


def _few(seed: int, *, values: tuple[float, ...], units: int, raters: int,
         missing: float, groups: int = 1) -> pa.Table:
    rng = random.Random(seed)
    rows = []
    for i in range(units):
        truth = rng.choice(values)
        for r in range(raters):
            if rng.random() < missing:
                continue
            rows.append({"item": i, "rater": f"r{r}", "g": f"g{i % groups}",
                         "value": truth if rng.random() < 0.6 else rng.choice(values)})
    return _table(rows)


_cases = st.tuples(
    st.integers(0, 10_000),                                  # seed
    st.sampled_from([(1.0, 2.0, 3.0), (1.0, 2.0, 3.0, 4.0, 5.0), (0.0, 0.5, 2.5, 7.0),
                     (-3.0, 1.0, 1.5, 2.0, 10.0, 11.0, 12.5)]),
    st.integers(8, 30),                                      # units
    st.integers(2, 5),                                       # raters
    st.sampled_from([0.0, 0.25]),                            # share of missing ratings
    st.sampled_from(["value", "position"]),
)


@settings(max_examples=examples(15), deadline=None)
@given(_cases)
@example((1608, (1.0, 2.0, 3.0, 4.0, 5.0), 8, 2, 0.25, "value"))   # an SE of 0 (see ROOTS)
@pytest.mark.slow  # ~1 s an example
def test_moments_equal_the_table_of_weights_on_few_categories(case):
    _equal_routes(case)


def _on_both_routes(table: pa.Table, name: str, part: int) -> tuple[dict, dict]:
    """``name``'s analytic result for slice ``part`` of ``table`` by the moments and by the table
    of weights (quadratic weights, the counts form, 95% interval)."""
    def call() -> Any:
        return ag.coefficients(table, which=[name], weights="quadratic",
                               group_by="g", ci=0.95, ci_method="analytic")

    moments, _ = _run("moments", call)
    pairs, _ = _run("value_pairs", call)
    return moments[part]["coefficients"][name], pairs[part]["coefficients"][name]


def test_a_zero_null_variance_is_zero_on_every_route():
    # seed 73: Cohen's kappa of slice g1 has a null variance of exactly 0 by the table of weights
    # (se0 0.0, z None: undefined); the moments gave 1.8e-8 and z 0.0 (found by the property
    # above in the CI-like run of 2026-12-06) until the formula took a difference within 1e-12
    # of its terms as zero (sql/_cohen.sql.j2, decision 0019)
    table = _few(73, values=(1.0, 2.0, 3.0, 4.0, 5.0), units=8, raters=2, missing=0.25, groups=2)
    moments, pairs = _on_both_routes(table, "cohen_kappa", 1)
    assert pairs["se0"] == 0.0
    assert moments["se0"] == 0.0
    assert moments["z"] is None


def test_a_zero_linearised_variance_is_zero_on_every_route():
    # seed 2394 (hypothesis, 2026-12-07): Conger's kappa of slice g0 is 0 with variance 0 by the
    # table of weights (se 0.0, z None); by the moments each unit's deviation kappa_i - value
    # was rounding noise, giving se 5.5e-16 and z 0.83 until sql/_kappa.sql.j2 took a deviation
    # within 1e-12 of its terms as zero (m.rounded, decision 0019)
    table = _few(2394, values=(0.0, 0.5, 2.5, 7.0), units=8, raters=2, missing=0.0, groups=2)
    moments, pairs = _on_both_routes(table, "conger_kappa", 0)
    assert pairs["se"] == 0.0
    for conger in (moments, pairs):
        assert conger["se"] == 0.0 and conger["se0"] == 0.0 and conger["z"] is None


@pytest.mark.slow
def test_moments_equal_the_table_of_weights_on_one_case():
    # the default run's share of the property above
    _equal_routes((7, (0.0, 0.5, 2.5, 7.0), 20, 4, 0.25, "value"))


def _equal_routes(case: tuple[Any, ...]) -> None:
    seed, values, units, raters, missing, basis = case
    table = _few(seed, values=values, units=units, raters=raters, missing=missing, groups=2)

    def call() -> Any:
        return ag.coefficients(table, which=SERVED, weights="quadratic", weight_basis=basis,
                               group_by="g", ci=0.95, ci_method="analytic")

    moments, log = _run("moments", call)
    pairs, log_pairs = _run("value_pairs", call)
    assert any(e.get("kappa_weights") == "moments" for e in log), log
    assert any(e.get("kappa_weights") == "value_pairs" for e in log_pairs), log_pairs
    assert [g["group"] for g in moments] == [g["group"] for g in pairs] and len(moments) == 2
    for a, b in zip(moments, pairs):
        _compare(a["coefficients"], b["coefficients"], f"{case} {a['group']}")


@pytest.mark.slow  # ~2.5 s
def test_moments_equal_the_table_of_weights_with_the_bootstrap_and_a_declared_domain():
    table = _few(11, values=(1.0, 2.0, 3.0, 4.0, 5.0), units=25, raters=4, missing=0.2)
    for extra in ({"ci": 0.9, "ci_method": "bootstrap", "n_boot": 40, "seed": 3},
                  {"ci": 0.95, "categories": [0, 1, 2, 3, 4, 5, 6]}):
        def call(extra: dict[str, Any] = extra) -> Any:
            return ag.coefficients(table, which=SERVED, weights="quadratic", **extra)
        moments, log = _run("moments", call)
        pairs, _ = _run("value_pairs", call)
        assert any(e.get("kappa_weights") == "moments" for e in log), log
        _compare(moments, pairs, str(extra))


def _oracle_fleiss(matrix: np.ndarray) -> tuple[float, float]:
    """Fleiss' kappa with quadratic weights in Gwet's generalisation and its linearised standard
    error, from the definitions (Gwet 2014, Handbook of Inter-Rater Reliability, 4th ed., ch. 5;
    irrCAC fleiss.kappa.raw): r_ik counts per unit and category, w the full q x q matrix
    1 - (x_k - x_l)^2 / (x_max - x_min)^2,
      pa_i = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1)), p_a = mean over units with r_i >= 2,
      pi_k = mean_i r_ik / r_i, p_e = pi' w pi, kappa = (p_a - p_e) / (1 - p_e),
      pe_i = sum_k r_ik pibar_k / r_i, pibar = (w + w') pi / 2,
      kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e),
      var = sum_i (kappa_i - kappa)^2 / (n (n - 1))."""
    values = np.unique(matrix[~np.isnan(matrix)])
    index = {v: k for k, v in enumerate(values)}
    span = values.max() - values.min()
    w = 1.0 - (values[:, None] - values[None, :]) ** 2 / span ** 2
    rows = [line[~np.isnan(line)] for line in matrix]
    rows = [line for line in rows if len(line)]
    r = np.zeros((len(rows), len(values)))
    for i, line in enumerate(rows):
        for v in line:
            r[i, index[v]] += 1
    # sum_kl w_kl r_ik r_il: over the unit's ordered pairs of ratings (a rating with itself too)
    s_w = np.array([sum(w[index[a], index[b]] for a in line for b in line) for line in rows])
    ri = r.sum(axis=1)
    n, two = len(ri), ri >= 2
    pa_i = np.where(two, (s_w - ri) / np.where(two, ri * (ri - 1), 1), 0.0)
    p_a = pa_i[two].sum() / two.sum()
    pi = (r / ri[:, None]).mean(axis=0)
    p_e = pi @ w @ pi
    kappa = (p_a - p_e) / (1 - p_e)
    pibar = (w + w.T) @ pi / 2
    pe_i = r @ pibar / ri
    kappa_i = (n / two.sum()) * (pa_i - p_e * two) / (1 - p_e) - 2 * (1 - kappa) * (pe_i - p_e) / (1 - p_e)
    var = ((kappa_i - kappa) ** 2).sum() / (n * (n - 1))
    return float(kappa), float(np.sqrt(var))


def _scores(n_units: int, raters: int, seed: int, decimals: int, missing: float = 0.1
            ) -> tuple[np.ndarray, pa.Table]:
    rng = np.random.default_rng(seed)
    truth = rng.uniform(0, 100, n_units)
    matrix = np.round(truth[:, None] + rng.normal(0, 6, (n_units, raters)), decimals)
    matrix[rng.random((n_units, raters)) < missing] = np.nan
    items, rs = np.nonzero(~np.isnan(matrix))
    table = pa.table({"item": items.astype(np.int64), "rater": [f"r{r}" for r in rs],
                      "value": matrix[items, rs]})
    return matrix, table


def test_fleiss_quadratic_on_3000_distinct_values_matches_the_hand_formula():
    matrix, table = _scores(1500, 3, seed=2, decimals=3)
    assert len(np.unique(matrix[~np.isnan(matrix)])) > 3000 > value_tables.MAX_VALUE_TABLE
    expected, expected_se = _oracle_fleiss(matrix)
    got = ag.fleiss_kappa(table, weights="quadratic", ci=0.95)
    assert got["route"][0]["kappa_weights"] == "moments"
    assert got["value"] == pytest.approx(expected, rel=1e-10)
    assert got["se"] == pytest.approx(expected_se, rel=1e-8)


def test_fleiss_quadratic_on_20000_distinct_values_within_500_mb():
    # q = 20k: the table of weights would be 4 * 10^8 rows (several GB); under a 500 MB limit
    # the moments compute it (before them: refused above MAX_VALUE_TABLE)
    matrix, table = _scores(6000, 4, seed=4, decimals=3, missing=0.0)
    assert len(np.unique(matrix)) > 20_000
    got = ag.fleiss_kappa(table, weights="quadratic", ci=0.95, con=_limited())
    assert got["route"][0]["kappa_weights"] == "moments"
    assert got["n_categories"] > 20_000
    assert 0.8 < got["value"] < 1.0 and got["se"] > 0


def _limited() -> Any:
    # 500 MB and no spilling to disk: a statement that needs more fails
    con = duckdb.connect()
    con.execute("SET memory_limit='500MB'")
    con.execute("SET temp_directory=''")
    return con


@pytest.mark.slow  # ~4 s: the table of weights filling the limit
def test_the_table_of_weights_does_not_fit_the_same_limit(monkeypatch):
    # the limit above is a real bound: the value_pairs route, forced on the same input (its
    # refusal lifted), runs out of memory under it
    monkeypatch.setattr(value_tables, "MAX_VALUE_TABLE", 10 ** 9)
    _, table = _scores(6000, 4, seed=4, decimals=3, missing=0.0)
    with routes.forcing(kappa_weights="value_pairs"):
        with pytest.raises(ag.AgreementError, match="Out of Memory"):
            ag.fleiss_kappa(table, weights="quadratic", ci=0.95, con=_limited())


def test_the_route_says_moments_only_for_quadratic_weights_in_the_counts_form():
    _, scores = _scores(60, 3, seed=1, decimals=1)
    assert ag.fleiss_kappa(scores, weights="quadratic")["route"][0]["kappa_weights"] == "moments"
    # linear weights and no weights keep the table; the wide form (few categories) too
    for weights in ("linear", None):
        assert "kappa_weights" not in ag.fleiss_kappa(scores, weights=weights)["route"][0]
    # (60 ratings take the counts form by default, constants.SMALL_INPUT_RATINGS: forced here)
    few = _few(1, values=(1.0, 2.0, 3.0), units=20, raters=3, missing=0.0)
    with routes.forcing(units="wide"):
        assert "kappa_weights" not in ag.fleiss_kappa(few, weights="quadratic")["route"][0]


def test_quadratic_coefficients_run_on_scores_and_the_others_stay_refused(monkeypatch):
    monkeypatch.setattr(value_tables, "MAX_VALUE_TABLE", 100)
    _, scores = _scores(80, 3, seed=6, decimals=2)
    found = ag.coefficients(scores, weights="quadratic")
    for name in ("fleiss_kappa", "gwet_ac2", "brennan_prediger", "percent_agreement",
                 "conger_kappa", "light_kappa"):
        assert found[name]["value"] is not None and not found[name].get("skipped"), name
    assert not any(v.get("skipped") for v in found.values() if isinstance(v, dict)), found
    # identity and linear weights have no moment form: refused, named
    for weights in ("linear", None):
        with pytest.raises(ag.OptionError, match="fleiss_kappa: .* distinct values"):
            ag.fleiss_kappa(scores, weights=weights)
        with pytest.raises(ag.OptionError, match="cohen_kappa: .* distinct values"):
            ag.cohen_kappa(scores, weights=weights, raters=["r0", "r1"])
    assert ag.cohen_kappa(scores, weights="quadratic", raters=["r0", "r1"])["value"] is not None


def test_cohen_quadratic_by_position_on_3000_distinct_values_matches_scikit_learn():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    matrix, table = _scores(1700, 2, seed=8, decimals=3, missing=0.0)
    assert len(np.unique(matrix)) > 3000
    # scikit-learn: quadratic weights by label index over the labels either rater used
    # (its labels must be discrete: each value's rank among the distinct values, same order)
    codes = np.unique(matrix, return_inverse=True)[1].reshape(matrix.shape)
    expected = sklearn_metrics.cohen_kappa_score(codes[:, 0], codes[:, 1], weights="quadratic")
    got = ag.cohen_kappa(table, weights="quadratic", weight_basis="position")
    assert got["route"][0]["kappa_weights"] == "moments"
    assert got["value"] == pytest.approx(expected, rel=1e-10)
