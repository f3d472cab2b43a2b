"""The F, Beta and Student t distributions the intervals need, without scipy.

DuckDB has no F or Beta quantile, and the package's runtime needs only duckdb, jinja2 and
pyarrow, so the quantiles (and the upper tail of F for a p-value) are computed here, from the
regularized incomplete beta function I_x(a, b):

* :func:`betai`: I_x(a, b) by the continued fraction of Numerical Recipes (Press, Teukolsky,
  Vetterling & Flannery 2007, *Numerical Recipes*, 3rd ed., section 6.4, ``betai``/``betacf``,
  modified Lentz's method), with the symmetry I_x(a, b) = 1 - I_(1-x)(b, a) so the fraction is
  always evaluated where it converges fast (x < (a + 1) / (a + b + 2)).
* :func:`beta_ppf`: the inverse, x with I_x(a, b) = p, by Newton steps on I_x - p from the
  Numerical Recipes starting value (``invbetai``; Abramowitz & Stegun 1964, 26.5.22), kept
  inside a bisection bracket so it cannot leave (0, 1) or cycle.
* the F and t distributions through their Beta forms (Abramowitz & Stegun 26.6.2 and 26.7.1):
  if X ~ F(d1, d2), d2 / (d2 + d1 X) ~ Beta(d2/2, d1/2); if T ~ t(v), v / (v + T^2) ~
  Beta(v/2, 1/2) for |T|.

Degrees of freedom may be fractional (Satterthwaite's approximate df). Accuracy: about 1e-13
relative against scipy.special (tests/icc/test_distributions.py), somewhat less for degrees of
freedom in the millions, where log-gamma differences lose digits.
"""
from __future__ import annotations

import math

_EPS = 1e-15
_TINY = 1e-300


def _stirling_correction(x: float) -> float:
    """log Gamma(x) minus its Stirling approximation, for x >= 10 (A&S 6.1.41)."""
    x2 = x * x
    return (1.0 / 12.0 - (1.0 / 360.0 - (1.0 / 1260.0 - 1.0 / (1680.0 * x2)) / x2) / x2) / x


def _log_beta(a: float, b: float) -> float:
    """log B(a, b). For a large shape the log-gamma difference loses digits (lgamma(b) is about
    b log b), so it is taken from Stirling's series with the log terms combined first."""
    small, large = min(a, b), max(a, b)
    if large < 10.0:
        return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    total = small + large
    if small < 10.0:
        return (math.lgamma(small) - small * math.log(large)
                - (total - 0.5) * math.log1p(small / large) + small
                + _stirling_correction(large) - _stirling_correction(total))
    return (0.5 * math.log(2.0 * math.pi) + (small - 0.5) * math.log(small / total)
            + (large - 0.5) * math.log1p(-small / total) - 0.5 * math.log(total)
            + _stirling_correction(small) + _stirling_correction(large)
            - _stirling_correction(total))


def _continued_fraction(x: float, a: float, b: float) -> float:
    """Numerical Recipes ``betacf``: the continued fraction of I_x(a, b) by modified Lentz."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = _TINY if abs(d) < _TINY else d
    d = 1.0 / d
    h = d
    max_iterations = 200 + int(20.0 * math.sqrt(max(a, b)))
    for m in range(1, max_iterations + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = _TINY if abs(d) < _TINY else d
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = _TINY if abs(d) < _TINY else d
        c = 1.0 + aa / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) <= _EPS:
            return h
    raise ArithmeticError(f"incomplete beta did not converge (x={x}, a={a}, b={b})")


def _check_shape(a: float, b: float) -> None:
    if not (a > 0.0 and b > 0.0) or math.isinf(a) or math.isinf(b):
        raise ValueError(f"Beta shape parameters must be positive and finite, got a={a}, b={b}")


def betai(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (the Beta(a, b) distribution function)."""
    _check_shape(a, b)
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(x, a, b) / a
    return 1.0 - front * _continued_fraction(1.0 - x, b, a) / b


def betai_upper(x: float, a: float, b: float) -> float:
    """1 - I_x(a, b), computed without cancellation for small tails."""
    return betai(1.0 - x, b, a) if 0.0 < x < 1.0 else (1.0 if x <= 0.0 else 0.0)


def _start(p: float, a: float, b: float) -> float:
    """Numerical Recipes ``invbetai``'s first guess (A&S 26.5.22 for a, b >= 1)."""
    if a >= 1.0 and b >= 1.0:
        pp = p if p < 0.5 else 1.0 - p
        t = math.sqrt(-2.0 * math.log(pp))
        z = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t
        if p < 0.5:
            z = -z
        al = (z * z - 3.0) / 6.0
        h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0))
        w = z * math.sqrt(al + h) / h - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) \
            * (al + 5.0 / 6.0 - 2.0 / (3.0 * h))
        return a / (a + b * math.exp(2.0 * w))
    lna, lnb = math.log(a / (a + b)), math.log(b / (a + b))
    t, u = math.exp(a * lna) / a, math.exp(b * lnb) / b
    w = t + u
    if p < t / w:
        return (a * w * p) ** (1.0 / a)
    return 1.0 - (b * w * (1.0 - p)) ** (1.0 / b)


def beta_ppf(p: float, a: float, b: float) -> float:
    """The p-quantile of Beta(a, b): x with I_x(a, b) = p."""
    _check_shape(a, b)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a probability must lie in [0, 1], got {p}")
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return 1.0
    start = _start(p, a, b)
    if start <= 0.0 or start >= 1.0:      # the quantile lies below the smallest double
        return start if start <= 0.0 else 1.0
    if start > 0.5:                   # solve for 1 - x, which is then the small one: more digits
        return 1.0 - _solve(1.0 - p, b, a, 1.0 - start)
    return _solve(p, a, b, start)


def _solve(p: float, a: float, b: float, start: float) -> float:
    lo, hi = 0.0, 1.0
    x = min(max(start, _TINY), 0.5)
    if x <= _TINY and betai(x, a, b) >= p:
        return 0.0
    log_b = _log_beta(a, b)
    for _ in range(400):
        err = betai(x, a, b) - p
        if err == 0.0:
            return x
        if err < 0.0:
            lo = x
        else:
            hi = x
        density = math.exp((a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x) - log_b)
        step = err / density if density > 0.0 and math.isfinite(density) else math.inf
        candidate = x - step
        if not lo < candidate < hi:
            candidate = 0.5 * (lo + hi) if lo > 0.0 else 0.5 * hi
        if abs(candidate - x) <= 4e-16 * x or hi - lo <= 4e-16 * x:
            return candidate
        x = candidate
    return x


def f_ppf(q: float, d1: float, d2: float) -> float:
    """The q-quantile of the F(d1, d2) distribution."""
    if q <= 0.0:
        return 0.0
    if q >= 1.0:
        return math.inf
    # V = d2 / (d2 + d1 X) ~ Beta(d2/2, d1/2) falls as X rises: X's q-quantile is V's (1 - q)
    v = beta_ppf(1.0 - q, d2 / 2.0, d1 / 2.0)
    if v <= 0.0:
        return math.inf
    return d2 * (1.0 - v) / (d1 * v) if v < 0.5 else \
        d2 * beta_ppf(q, d1 / 2.0, d2 / 2.0) / (d1 * v)


def f_sf(x: float, d1: float, d2: float) -> float:
    """P(X > x) for X ~ F(d1, d2): I_(d2 / (d2 + d1 x))(d2/2, d1/2)."""
    if x <= 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if d1 * x < d2:                  # x small: 1 - I_w(d1/2, d2/2), w = d1 x / (d1 x + d2)
        return 1.0 - betai(d1 * x / (d1 * x + d2), d1 / 2.0, d2 / 2.0)
    return betai(d2 / (d2 + d1 * x), d2 / 2.0, d1 / 2.0)


def t_ppf(q: float, v: float) -> float:
    """The q-quantile of Student's t with v degrees of freedom."""
    if q <= 0.0:
        return -math.inf
    if q >= 1.0:
        return math.inf
    if q == 0.5:
        return 0.0
    tail = 2.0 * min(q, 1.0 - q)                 # P(|T| > t)
    y = beta_ppf(tail, v / 2.0, 0.5)             # v / (v + t^2)
    t = math.sqrt(v * (1.0 - y) / y) if y > 0.0 else math.inf
    return t if q > 0.5 else -t


def t_sf(x: float, v: float) -> float:
    """P(T > x) for Student's t with v degrees of freedom."""
    tail = 0.5 * betai(v / (v + x * x), v / 2.0, 0.5)
    return tail if x >= 0.0 else 1.0 - tail


def t_interval(value: float | None, se: float | None, n: int | float | None, level: float, *,
               upper: float | None = None) -> tuple[float | None, float | None]:
    """The interval value -/+ t_{1 - (1 - level)/2}(n - 1) se, with its upper end at most
    ``upper``: irrCAC's interval (Gwet 2014; irrCAC's functions take ``qt(1 - (1 - conflev)/2,
    n - 1)`` and ``min(1, ...)``), on a value, standard error and n that SQL computed. The one
    number computed here is the t quantile (DuckDB has none); None where any input is undefined
    or n < 2."""
    if value is None or se is None or n is None or n < 2:
        return None, None
    q = t_ppf(0.5 + level / 2.0, float(n) - 1.0)
    low, high = value - q * se, value + q * se
    if upper is not None:
        high = min(upper, high)
    return low, high
