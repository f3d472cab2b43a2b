"""Student's t distribution function in SQL (sql/_student_t.sql.j2 through sql/student_t.sql.j2),
the p-values of the alternative annotator test.

Oracles: scipy.stats.t.cdf over degrees of freedom 1 .. 1e6 and t from 1e-3 to 1e300 in
magnitude; where scipy is not exact (its Cephes stdtr gives 1/2 at t = 1e-10 with one degree of
freedom, where P(T <= t) = 1/2 + atan(t)/pi = 1/2 + 3.2e-11), the closed forms P(T <= t) =
1/2 + atan(t)/pi (v = 1, the Cauchy distribution) and 1/2 + t / (2 sqrt(2 + t^2)) (v = 2), and
for tiny t the first term of the series about 0, 1/2 + t Gamma((v + 1)/2) / (sqrt(v pi)
Gamma(v/2)) (the density at 0; the next term is of order t^3).
"""
from __future__ import annotations

import math

import pytest
from scipy.stats import t as student

from agreement_sql.engine import open_session
from agreement_sql.runner import lookup_rows, query

DFS = [1, 2, 3, 4, 5, 7, 10, 19, 20, 21, 29, 30, 50, 99, 100, 245, 1000, 9999, 10_000, 30_000,
       100_000, 299_999, 500_000, 999_999, 1_000_000, 2.5, 45.5]
TS = [1e-3, 0.1, 0.5, 1.0, 1.5, 1.7, 1.75, 1.8, 1.9, 2.0, 2.5, 3.0, 3.2, 4.0, 5.0, 7.5, 10.0, 20.0,
      40.0, 41.0, 100.0, 1e3, 1e5, 1e10, 1e100, 1e149, 1e151, 1e300]
TINY = [1e-10, 1e-100, 1e-300]


def cdf(rows: list[tuple[float, float]]) -> list[dict]:
    """P(T <= t) and the iterations of the continued fraction for each (t, v), from SQL."""
    with open_session(None) as session:
        relation = lookup_rows(session, [("row_id", "bigint"), ("t", "double"), ("v", "double")],
                               [(i, t, v) for i, (t, v) in enumerate(rows)], "t_values")
        out = query(session, "student_t", {"t_values": relation}, {})
    assert [r["row_id"] for r in out] == list(range(len(rows)))
    return out


def test_against_scipy_over_df_1_to_1e6():
    rows = [(sign * t, v) for v in DFS for t in TS for sign in (1, -1)] + [(0.0, v) for v in DFS]
    worst = 0.0
    for (t, v), r in zip(rows, cdf(rows)):
        expected = student.cdf(t, v)
        worst = max(worst, abs(r["p"] - expected))
        assert abs(r["p"] - expected) <= 1e-12, (t, v, r["p"], expected)
        # the fraction converges within 25 iterations (the statement allows 90)
        assert r["iterations"] is None or r["iterations"] <= 25, (t, v)
    assert worst < 1e-13


def test_closed_forms_where_scipy_is_not_exact():
    rows = [(s * t, v) for t in TINY + [1e-3, 0.7, 3.0, 40.0, 1e8] for v in (1, 2) for s in (1, -1)]
    for (t, v), r in zip(rows, cdf(rows)):
        exact = 0.5 + math.atan(t) / math.pi if v == 1 else 0.5 + t / (2.0 * math.sqrt(2.0 + t * t))
        assert abs(r["p"] - exact) <= 1e-15, (t, v)
    assert abs(student.cdf(1e-10, 1) - (0.5 + math.atan(1e-10) / math.pi)) > 3e-11  # scipy's error


def test_tiny_t_is_half_plus_the_density_at_zero():
    rows = [(s * t, v) for t in TINY for v in DFS for s in (1, -1)]
    for (t, v), r in zip(rows, cdf(rows)):
        density = math.exp(math.lgamma((v + 1) / 2) - math.lgamma(v / 2)) / math.sqrt(v * math.pi)
        assert abs(r["p"] - (0.5 + t * density)) <= 1e-15, (t, v)


def test_undefined_and_infinite_inputs():
    rows = [(None, 10.0), (1.0, None), (1.0, 0.0), (1.0, -3.0), (math.inf, 5.0), (-math.inf, 5.0)]
    got = [r["p"] for r in cdf(rows)]
    assert got == [None, None, None, None, 1.0, 0.0]


@pytest.mark.parametrize("v", [1, 30, 1_000_000])
def test_monotone_in_t(v):
    ts = [-1e3, -10.0, -3.0, -1.0, -0.1, 0.0, 0.1, 1.0, 3.0, 10.0, 1e3]
    ps = [r["p"] for r in cdf([(t, v) for t in ts])]
    assert ps == sorted(ps) and ps[5] == 0.5
