"""The upper tail of the standard normal distribution in SQL (sql/_normal.sql.j2 through
sql/normal_tail.sql.j2), every z test's p-value.

Oracle: scipy.stats.norm.sf (Cephes ndtr), over x from -38 to 38 and around each of Cody's
interval boundaries (x / sqrt 2 = 0.46875, 4 and 26); the published values of Abramowitz &
Stegun (1964) Table 26.1 for 1 - Phi(x) at x = 1, 2, 3 (0.158655253931457, 0.022750131948179,
0.001349898031630) and 26.2.29's tail at x = 5 (2.866515718791939e-7, the value
statsmodels and R's pnorm print as well)."""
from __future__ import annotations

import math

import pytest
from scipy.stats import norm

from agreement_sql.engine import open_session
from agreement_sql.runner import lookup_rows, query

BOUNDARIES = [b * math.sqrt(2.0) for b in (0.46875, 4.0, 26.0)]
XS = sorted({round(-38 + 0.25 * i, 2) for i in range(305)}
            | {b + d for b in BOUNDARIES for d in (-1e-9, 0.0, 1e-9)}
            | {-b for b in BOUNDARIES} | {1e-300, -1e-300, 0.0, 1e-8, 1e-3})


def tail(xs: list[float]) -> list[float]:
    with open_session(None) as session:
        relation = lookup_rows(session, [("row_id", "bigint"), ("x", "double")],
                               list(enumerate(xs)), "z_values")
        out = query(session, "normal_tail", {"z_values": relation}, {})
    assert [r["row_id"] for r in out] == list(range(len(xs)))
    return [r["q"] for r in out]


def test_against_scipy():
    for x, q in zip(XS, tail(XS)):
        expected = norm.sf(x)
        if x > 36.9:
            assert q == 0.0 or q == pytest.approx(expected, rel=1e-13), x
            continue
        assert q == pytest.approx(expected, rel=2e-14, abs=1e-16), (x, q, expected)


def test_published_values():
    # Abramowitz & Stegun (1964) Table 26.1 (15 decimals) and the tail at 5
    q1, q2, q3, q5 = tail([1.0, 2.0, 3.0, 5.0])
    assert q1 == pytest.approx(0.158655253931457, abs=1e-15)
    assert q2 == pytest.approx(0.022750131948179, abs=1e-15)
    assert q3 == pytest.approx(0.001349898031630, abs=1e-15)
    assert q5 == pytest.approx(2.866515718791939e-7, rel=1e-13)


def test_the_old_approximation_was_not_this_good():
    # A&S 26.2.17 (the approximation this replaces) is off by up to 7.5e-8: at x = 0.5 by
    # about 1e-8; the new tail is within 1e-16 of scipy there
    (q,) = tail([0.5])
    assert abs(q - norm.sf(0.5)) < 1e-16


def test_null_is_null():
    with open_session(None) as session:
        relation = lookup_rows(session, [("row_id", "bigint"), ("x", "double")], [(0, None)],
                               "z_values")
        out = query(session, "normal_tail", {"z_values": relation}, {})
    assert out[0]["q"] is None
