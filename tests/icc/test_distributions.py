"""The F, Beta and t functions of agreement_sql.distributions against scipy (a test-only
dependency: the package itself needs none)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from agreement_sql.distributions import beta_ppf, betai, f_ppf, f_sf, t_ppf, t_sf

shapes = st.floats(0.5, 5e5)
probabilities = st.one_of(st.sampled_from([0.005, 0.025, 0.05, 0.5, 0.95, 0.975, 0.995]),
                          st.floats(1e-6, 1 - 1e-6))


@settings(max_examples=300, deadline=None)
@given(x=st.floats(0.0, 1.0), a=shapes, b=shapes)
def test_incomplete_beta(x, a, b):
    assert betai(x, a, b) == pytest.approx(special.betainc(a, b, x), rel=1e-8, abs=1e-13)


@settings(max_examples=300, deadline=None)
@given(p=probabilities, a=shapes, b=shapes)
def test_beta_quantile(p, a, b):
    ours, theirs = beta_ppf(p, a, b), special.betaincinv(a, b, p)
    # relative to the smaller of x and 1 - x, where the digits are
    assert min(abs(ours - theirs) / max(theirs, 1e-300),
               abs((1 - ours) - (1 - theirs)) / max(1 - theirs, 1e-300)) < 1e-7


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(q=probabilities, d1=st.floats(1.0, 1e6), d2=st.floats(0.5, 1e6))
def test_f_quantile_and_tail(q, d1, d2):
    x = f_ppf(q, d1, d2)
    assert x == pytest.approx(stats.f.ppf(q, d1, d2), rel=1e-8)
    assert f_sf(x, d1, d2) == pytest.approx(1 - q, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("v", [1, 2, 3.5, 10, 38, 100, 1e4])
@pytest.mark.parametrize("q", [0.025, 0.5, 0.9, 0.975, 0.9995])
def test_t(v, q):
    assert t_ppf(q, v) == pytest.approx(stats.t.ppf(q, v), rel=1e-9, abs=1e-12)
    assert t_sf(1.7, v) == pytest.approx(stats.t.sf(1.7, v), rel=1e-9)


def test_edges():
    assert (f_ppf(0.0, 3, 4), f_ppf(1.0, 3, 4)) == (0.0, math.inf)
    assert (f_sf(0.0, 3, 4), f_sf(math.inf, 3, 4)) == (1.0, 0.0)
    assert (beta_ppf(0.0, 2, 3), beta_ppf(1.0, 2, 3)) == (0.0, 1.0)
    assert beta_ppf(0.025, 1e-31, 1.0) == 0.0          # below the smallest double
    with pytest.raises(ValueError):
        betai(0.5, 0.0, 1.0)
