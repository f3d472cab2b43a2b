"""Study planning: how many items a target precision needs, and what the data at hand supports.

Here there are no ratings yet, so the closed forms below are the statistic and are computed in
Python (docs/planning.md, docs/decisions/0010). Each returns n, the items (subjects) needed:

* Cohen's kappa, two raters, any number of categories with equal marginal prevalences pi_c:
  the large-sample variance of Fleiss, Cohen & Everitt (1969), the one the package's analytic
  interval uses, evaluated at the anticipated table p_cd = (1 - k) pi_c pi_d + k pi_c [c = d]
  (the table Flack, Afifi, Lachenbruch & Schouten 1988 evaluate it at) and inverted:
  n = z^2 V1 / h^2, V1 = n Var(kappa).
* Fleiss' kappa, m >= 2 raters, two categories: the goodness-of-fit procedure of Donner &
  Eliasziw (1992, two raters) and Donner & Rotondi (2010, m raters; R kappaSize's CIBinary):
  under the common-correlation model an item has x of m positive ratings with probability
  P_x(k) = (1 - k) C(m, x) pi^x (1 - pi)^(m - x) + k (pi [x = m] + (1 - pi) [x = 0]), and the
  expected limit k_L is reached when n sum_x (P_x(k_0) - P_x(k_L))^2 / P_x(k_L) = chi^2_1, so
  n = z^2 / that sum (z^2 = chi^2_(1, 1 - 2a) one-sided; both limits two-sided).
* The intraclass correlation, k raters: Bonett (2002), eq. 3,
  n = 8 z^2 (1 - r)^2 (1 + (k - 1) r)^2 / (k (k - 1) w^2) + 1 (+ 5 r when k = 2, r >= 0.7);
  a lower bound L uses the half-width r - L and the one-sided z: n = 2 z^2 (...)^2 / (k (k - 1)
  (r - L)^2) + 1.
* any other coefficient, or Fleiss' kappa with more categories: simulation in the database
  (agreement_sql.simulation), the standard error at n taken from the spread of the simulated
  studies' estimates and n refined until 2 z SE (width) or z SE (lower bound) fits.

Targets: ``ci_width`` is the full width of a two-sided interval at ``confidence``;
``lower_bound`` a one-sided bound ("kappa >= 0.60 with 95% confidence"). ``assurance`` (lower
bounds only) asks that the bound be reached in that share of studies rather than on average:
z becomes z_(confidence) + z_(assurance), the power form of the same formulas (Donner &
Eliasziw 1992, section 4).
"""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any, Sequence

from .public import public
from .errors import OptionError
from .results import PrecisionResult, SampleSizeResult
from .simulation import model_kappa, simulate

CLOSED = {"cohen_kappa": "Fleiss, Cohen & Everitt (1969) large-sample variance at the anticipated "
                         "table (Flack et al. 1988), inverted",
          "fleiss_kappa": "Donner & Eliasziw (1992) / Donner & Rotondi (2010) goodness-of-fit "
                          "sample size (R kappaSize CIBinary)",
          "icc": "Bonett (2002), Statistics in Medicine 21:1331-1335, eq. 3"}
PILOT_ITEMS = 100


def _z(p: float) -> float:
    return NormalDist().inv_cdf(p)


def _prevalence(categories: int | None, prevalence: Any) -> list[float]:
    if prevalence is None:
        c = categories or 2
        return [1.0 / c] * c
    shares = [float(prevalence)] if isinstance(prevalence, (int, float)) else [float(p) for p in prevalence]
    if len(shares) == 1:
        shares = [1.0 - shares[0], shares[0]]          # a single share: the positive category's
    if categories is not None and len(shares) != categories:
        raise OptionError(f"prevalence= gives {len(shares)} shares for categories={categories}")
    if any(not 0.0 < s < 1.0 for s in shares) or abs(sum(shares) - 1.0) > 1e-9:
        raise OptionError(f"prevalence= must be shares in (0, 1) summing to 1, got {prevalence!r}")
    return shares


def fce_variance(kappa: float, prevalence: Sequence[float]) -> float:
    """V1 = n Var(kappa-hat), Fleiss, Cohen & Everitt (1969), at the anticipated table with
    equal marginals ``prevalence``."""
    pi = list(prevalence)
    c = len(pi)
    p = [[(1.0 - kappa) * pi[i] * pi[j] + (kappa * pi[i] if i == j else 0.0) for j in range(c)]
         for i in range(c)]
    p_e = sum(x * x for x in pi)
    diagonal = sum(p[i][i] * (1.0 - (pi[i] + pi[i]) * (1.0 - kappa)) ** 2 for i in range(c))
    off = sum(p[i][j] * (pi[i] + pi[j]) ** 2 for i in range(c) for j in range(c) if i != j)
    return (diagonal + (1.0 - kappa) ** 2 * off - (kappa - p_e * (1.0 - kappa)) ** 2) / (1.0 - p_e) ** 2


def binary_cells(kappa: float, share: float, raters: int) -> list[float]:
    """P_x, x = 0..m positive ratings of an item (the common-correlation model)."""
    cells = [(1.0 - kappa) * math.comb(raters, x) * share ** x * (1.0 - share) ** (raters - x)
             for x in range(raters + 1)]
    cells[0] += kappa * (1.0 - share)
    cells[raters] += kappa * share
    return cells


def gof_distance(kappa0: float, kappa1: float, share: float, raters: int) -> float:
    """sum_x (P_x(kappa0) - P_x(kappa1))^2 / P_x(kappa1), the chi-square per item."""
    p0, p1 = binary_cells(kappa0, share, raters), binary_cells(kappa1, share, raters)
    return sum((a - b) ** 2 / b for a, b in zip(p0, p1) if b > 0.0)


def bonett_n(rho: float, raters: int, z: float, half_width: float) -> float:
    """Bonett (2002) eq. 3 with the half-width h = w/2 (so 8 z^2 / w^2 = 2 z^2 / h^2)."""
    n = 2.0 * z * z * (1.0 - rho) ** 2 * (1.0 + (raters - 1) * rho) ** 2 \
        / (raters * (raters - 1) * half_width ** 2) + 1.0
    return n + (5.0 * rho if raters == 2 and rho >= 0.7 else 0.0)


def _target(expected: float, ci_width: Any, lower_bound: Any, confidence: float,
            assurance: Any) -> tuple[str, float, float]:
    """(target, z, half-width h) of the request."""
    if (ci_width is None) == (lower_bound is None):
        raise OptionError("give exactly one target: ci_width= (full width) or lower_bound=")
    if not 0.0 < confidence < 1.0:
        raise OptionError(f"confidence must lie between 0 and 1, got {confidence!r}")
    if ci_width is not None:
        if assurance is not None:
            raise OptionError("assurance= applies to lower_bound= targets")
        if not 0.0 < float(ci_width) < 2.0:
            raise OptionError(f"ci_width must lie in (0, 2), got {ci_width!r}")
        return "ci_width", _z(0.5 + confidence / 2.0), float(ci_width) / 2.0
    if not float(lower_bound) < expected:
        raise OptionError(f"lower_bound ({lower_bound}) must lie below the expected value ({expected})")
    z = _z(confidence)
    if assurance is not None:
        if not 0.5 <= float(assurance) < 1.0:
            raise OptionError(f"assurance must lie in [0.5, 1), got {assurance!r}")
        z += _z(float(assurance))
    return "lower_bound", z, expected - float(lower_bound)


@public()
def sample_size(coefficient: str, *, expected: float, ci_width: float | None = None,
                lower_bound: float | None = None, n_raters: int,
                n_categories: int | None = None, prevalence: Any = None,
                confidence: float = 0.95, assurance: float | None = None,
                n_sim: int | None = None, seed: int | None = None, con: Any = None) -> SampleSizeResult:
    """Items needed so that ``coefficient``'s interval has full width ``ci_width`` (two-sided,
    at ``confidence``), or its one-sided ``confidence`` lower bound reaches ``lower_bound``,
    when the coefficient's value is ``expected``. ``n_raters`` rate every item, on
    ``n_categories`` categories (default 2); ``prevalence`` is the share of the positive
    category (binary) or one share per category (default equal).
    Closed forms for Cohen's kappa, Fleiss' kappa (binary) and the ICC (see the module
    docstring for each source); otherwise a seeded simulation in the database (``n_sim``
    studies per round, ``seed``, default 1). ``n_items`` is rounded up.
    """
    raters, categories = n_raters, n_categories
    given_seed, seed = seed, 1 if seed is None else seed
    simulated_studies = 200 if n_sim is None else n_sim
    name = str(coefficient).lower().replace("-", "_")
    name = "icc" if name.startswith("icc") else name
    if not isinstance(raters, int) or isinstance(raters, bool) or raters < 2:
        raise OptionError(f"n_raters must be a whole number >= 2, got {raters!r}")
    if not -1.0 < float(expected) < 1.0:
        raise OptionError(f"expected must lie in (-1, 1), got {expected!r}")
    expected = float(expected)
    target, z, h = _target(expected, ci_width, lower_bound, confidence, assurance)
    shares = [] if name in CONTINUOUS else _prevalence(categories, prevalence)
    notes: list[str] = []
    share = 0.5 if assurance is None else float(assurance)
    base = dict(coefficient=name, expected=expected, target=target, ci_width=ci_width,
                lower_bound=lower_bound, confidence=confidence, assurance=share, n_raters=raters,
                n_categories=len(shares) or None, prevalence=shares or None, achieved_share=None)
    closed = CLOSED_FORMS.get(name)
    planned = closed(base, expected, raters, shares, z, h, target, notes) if closed else None
    if planned is not None:
        if n_sim is not None or given_seed is not None:
            raise OptionError(f"n_sim= and seed= apply to a simulation; {name} has a closed form "
                              f"({planned['source']})")
        return planned
    return _simulated(name, base, z, h, target, share, shares, raters, simulated_studies, seed,
                      con, notes)


def _icc_size(base: dict[str, Any], expected: float, raters: int, shares: list[float], z: float,
              h: float, target: str, notes: list[str]) -> SampleSizeResult:
    """The ICC: Bonett (2002), eq. 3."""
    n = bonett_n(expected, raters, z, h)
    if raters == 2 and expected >= 0.7:
        notes.append("Bonett (2002): 5 rho added to n for k = 2 and rho >= 0.7")
    se = math.sqrt(2.0 * (1.0 - expected) ** 2 * (1.0 + (raters - 1) * expected) ** 2
                   / (raters * (raters - 1) * (math.ceil(n) - 1)))
    return SampleSizeResult(method="closed_form", source=CLOSED["icc"], n_items=math.ceil(n),
                            anticipated_se=se, notes=notes, **base)  # type: ignore[typeddict-item]


def _cohen_size(base: dict[str, Any], expected: float, raters: int, shares: list[float],
                z: float, h: float, target: str, notes: list[str]) -> SampleSizeResult:
    """Cohen's kappa, two raters: the Fleiss-Cohen-Everitt variance."""
    if raters != 2:
        raise OptionError("Cohen's kappa compares two raters; plan with n_raters=2 (or fleiss_kappa)")
    v1 = fce_variance(expected, shares)
    n = math.ceil(z * z * v1 / (h * h))
    notes.append("equal marginal prevalences for both raters")
    lows = [expected - h] + ([expected + h] if target == "ci_width" else [])
    if len(shares) == 2 and all(0.0 < k < 1.0 for k in lows):
        gof = max(math.ceil(z * z / gof_distance(expected, k, shares[1], 2)) for k in lows)
        notes.append(f"Donner & Eliasziw's (1992) goodness-of-fit procedure, whose interval "
                     f"uses the variance at the limit rather than at the expected kappa, "
                     f"asks for {gof} items")
    return SampleSizeResult(method="closed_form", source=CLOSED["cohen_kappa"], n_items=n,
                            anticipated_se=math.sqrt(v1 / n), notes=notes, **base)  # type: ignore[typeddict-item]


def _fleiss_size(base: dict[str, Any], expected: float, raters: int, shares: list[float],
                 z: float, h: float, target: str, notes: list[str]) -> SampleSizeResult | None:
    """Fleiss' kappa, two categories: Donner & Rotondi's goodness of fit (else simulated)."""
    if len(shares) != 2:
        return None
    p = shares[1]
    lows = [expected - h] + ([expected + h] if target == "ci_width" else [])
    if any(not 0.0 < k < 1.0 for k in lows):
        raise OptionError("the interval's limits must lie in (0, 1) for the goodness-of-fit form")
    n = max(math.ceil(z * z / gof_distance(expected, k, p, raters)) for k in lows)
    return SampleSizeResult(method="closed_form", source=CLOSED["fleiss_kappa"], n_items=n,
                            anticipated_se=None, notes=notes, **base)  # type: ignore[typeddict-item]


# the coefficients with a closed form (each may decline, returning None: then a simulation)
CLOSED_FORMS: dict[str, Any] = {"icc": _icc_size, "cohen_kappa": _cohen_size,
                                "fleiss_kappa": _fleiss_size}
# the coefficients planned without category shares (continuous scores)
CONTINUOUS = frozenset({"icc"})


def _simulated(name: str, base: dict[str, Any], z: float, h: float, target: str, share: float,
               shares: list[float], raters: int, n_sim: int, seed: int, con: Any,
               notes: list[str]) -> SampleSizeResult:
    """n from the simulated standard error, SE(n) ~ SE(n0) sqrt(n0 / n), refined twice."""
    kappa = model_kappa(name, base["expected"], shares)
    n = PILOT_ITEMS
    for round_no in range(3):
        studies = simulate(name, kappa=kappa, n_items=n, raters=raters, prevalence=shares,
                           n_studies=n_sim, seed=seed + round_no, con=con)
        wanted = max(2, math.ceil(n * (z * studies.sd / h) ** 2))
        if abs(wanted - n) <= max(2, 0.02 * n):
            n = wanted
            break
        n = wanted
    from .registry import lookup

    analytic = lookup(name).analytic_se
    level = base["confidence"] if target == "ci_width" else 2.0 * base["confidence"] - 1.0
    final = simulate(name, kappa=kappa, n_items=n, raters=raters, prevalence=shares,
                     n_studies=n_sim, seed=seed + 3, ci=level if analytic else None, con=con)
    pairs = [(lo, hi) for lo, hi in zip(final.ci_low, final.ci_high) if lo is not None and hi is not None]
    z_conf = _z(base["confidence"])
    if target == "ci_width":
        hits = [hi - lo <= 2.0 * h for lo, hi in pairs]
        if not pairs:
            notes.append("no analytic interval per study: the width is 2 z times the simulated SE")
    else:
        bound = base["lower_bound"]
        hits = ([lo >= bound for lo, _ in pairs] if pairs
                else [v - z_conf * final.sd >= bound for v in final.values])
    achieved = sum(hits) / len(hits) if hits else None
    notes.append(f"common-correlation model kappa {kappa:.4g}; {n_sim} studies per round")
    return SampleSizeResult(method="simulation", source="simulation in the database "
                            "(sql/plan_simulation.sql.j2, seeded MINSTD), scored by the package",
                            n_items=n, anticipated_se=final.sd, n_sim=n_sim, seed=seed,
                            notes=notes, **{**base, "achieved_share": achieved})  # type: ignore[typeddict-item]


@public()
def achieved_precision(source: Any, *, coefficient: str = "cohen_kappa",
                       target_width: float | None = None, lower_bound: float | None = None,
                       confidence: float = 0.95, item: str = "item", rater: str = "rater",
                       value: str = "value", metric: str | None = None, group_by: Any = None,
                       raters: Sequence[str] | None = None, form: str = "ICC2",
                       on_duplicate: str | None = None, missing: Any = None,
                       con: Any = None, layout: str | None = None, rater_columns: Any = None,
                       orientation: str | None = None) -> Any:
    """The interval the ratings at hand support, and the items a target needs.

    Runs the package's own ``coefficient`` function on ``source`` with an analytic interval
    (``ci=confidence`` for a ``target_width``; ``ci=2 confidence - 1`` for a ``lower_bound``,
    so ``ci_low`` is the one-sided bound) and reports it with ``n_needed``, the items the same
    closed form needs at the observed value: n se^2 is the per-item variance the interval used,
    so n_needed = z^2 n se^2 / h^2 (the inverse of Fleiss, Cohen & Everitt's variance for
    Cohen's kappa); for the ICC (``form=``, default ICC2) Bonett (2002) at the observed value
    and raters. ``n_more`` = max(0, n_needed - n_items). None where the value is undefined, has
    no analytic standard error, or lies at or below ``lower_bound``.
    """
    from .metrics.icc import icc
    from .registry import REGISTRY, lookup

    name = "icc" if str(coefficient).lower().startswith("icc") else lookup(coefficient).name
    target = "ci_width" if target_width is not None else "lower_bound" if lower_bound is not None else "none"
    if target_width is not None and lower_bound is not None:
        raise OptionError("give at most one target: target_width= or lower_bound=")
    if not 0.5 < confidence < 1.0:
        raise OptionError(f"confidence must lie in (0.5, 1), got {confidence!r}")
    level = round(2.0 * confidence - 1.0, 12) if target == "lower_bound" else confidence
    z = _z(confidence) if target == "lower_bound" else _z(0.5 + confidence / 2.0)
    keys = dict(item=item, rater=rater, value=value, metric=metric, group_by=group_by,
                on_duplicate=on_duplicate, missing=missing, con=con, layout=layout,
                rater_columns=rater_columns, orientation=orientation)
    if name in CONTINUOUS:
        found = icc(source, form=form, ci=level, **keys)
        source_text = CLOSED["icc"]
    else:
        entry = REGISTRY[name]
        from .metrics.functions import FUNCTIONS
        function: Any = FUNCTIONS[name]
        extra = {"raters": raters} if raters is not None else {}
        found = function(source, ci=level, ci_method="analytic" if entry.analytic_se else None,
                         **extra, **keys)
        source_text = ("the per-item variance n se^2 of the package's analytic interval, "
                       f"inverted: n = z^2 n se^2 / h^2 ({entry.source})")
    rows = found if isinstance(found, list) else [found]
    out = [_precision(r, name, target, target_width, lower_bound, level, z, source_text)
           for r in rows]
    return out if isinstance(found, list) else out[0]


def _precision(r: dict[str, Any], name: str, target: str, width: Any, bound: Any, level: float,
               z: float, source: str) -> PrecisionResult:
    low, high, value = r.get("ci_low"), r.get("ci_high"), r.get("value")
    n = int(r.get("n_items") or 0)
    se = None if name in CONTINUOUS else r.get("se")
    h = (float(width) / 2.0 if target == "ci_width" else
         value - float(bound) if target == "lower_bound" and value is not None else None)
    needed: int | None = None
    if h is not None and h > 0.0 and value is not None:
        if name in CONTINUOUS:           # Bonett (2002) at the observed value
            needed = math.ceil(bonett_n(value, int(r["n_raters"]), z, h)) if -1.0 < value < 1.0 else None
        elif se is not None and se > 0.0 and n > 0:      # se 0: a degenerate interval
            needed = max(1, math.ceil(z * z * n * se * se / (h * h)))
    met = None
    if target == "ci_width" and low is not None and high is not None:
        met = high - low <= float(width)
    elif target == "lower_bound" and low is not None:
        met = low >= float(bound)
    result = {"coefficient": r.get("coefficient") or (r.get("form") and "icc") or name,
              "value": value, "ci_low": low, "ci_high": high, "ci_level": level,
              "ci_width": (high - low) if low is not None and high is not None else None,
              "se": se, "n_items": n, "target": target,
              "target_width": float(width) if width is not None else None,
              "lower_bound": float(bound) if bound is not None else None,
              "target_met": met, "n_needed": needed,
              "n_more": max(0, needed - n) if needed is not None else None,
              "source": source, "metric": r.get("metric")}
    if "group" in r:
        result["group"] = r["group"]
    return PrecisionResult(**result)  # type: ignore[typeddict-item]
