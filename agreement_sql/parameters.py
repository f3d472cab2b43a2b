"""The options of the coefficient functions, declared and checked in one place.

Every coefficient function (and ``coefficients()``) takes the same keywords; :func:`validate`
checks them once, against the table below (after scikit-learn's ``validate_params``), and
returns a :class:`CoefficientOptions`. A keyword a coefficient does not use is refused by the
registry entry (agreement_sql.registry), never ignored.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Mapping

from .bootstrap import IntervalSpec, interval_spec
from .errors import OptionError

WEIGHT_KINDS = ("linear", "quadratic")
WEIGHT_BASES = ("value", "position")
LEVELS = ("nominal", "ordinal", "interval", "ratio")
# alpha's level when none is given, in every function that computes it but the seed workflows
# (judge_agreement, rater_diagnostics: interval, as the seeds compute it; agreement_sql.declared)
DEFAULT_LEVEL = "nominal"
# peers' conventions on request (docs/migrating.md), the defaults first
MARGINALS = ("pairwise", "gwet")              # Cohen/Light/Scott with missing ratings
ASYMMETRIC_WEIGHTS = ("error", "symmetrize", "oriented")  # an asymmetric matrix in a rater-free
                                              # coefficient: refused, (W + W^T) / 2, or kept in
                                              # two raters' table (irrCAC's *.table functions)
VARIANCES = ("irrcac_raw", "irrcac_table")    # the analytic variance's divisor, as irrCAC
INFERENCES = ("normal", "irrcac")             # tests and analytic intervals: normal quantiles and
                                              # each coefficient's null variance, or irrCAC's t


@dataclass(frozen=True)
class CoefficientOptions:
    weights: str                      # "unweighted", "linear", "quadratic", "custom"
    weight_matrix: Any                # the caller's matrix when weights == "custom"
    categories: Any                   # the declared domain, as given (None: the categories used)
    weight_basis: str
    level: str
    raters: tuple[str, ...]           # a named pair (or set) of raters; () for every rater
    interval: IntervalSpec
    z: float | None                   # the normal quantile of an analytic interval
    marginals: str = "pairwise"       # "gwet": each rater's marginals over the units it rated
    symmetrize: bool = False          # an asymmetric weight matrix replaced by (W + W^T) / 2
    variance: str | None = None       # None: each coefficient's own divisor; or VARIANCES
    inference: str = "normal"         # INFERENCES: "irrcac", Student's t on n - 1 df, the
                                      # estimate's own variance in the test, upper end <= 1
    oriented: bool = False            # a weight matrix kept in its orientation in two raters'
                                      # table by the rater-free coefficients that take it
    distance: str | None = None       # alpha's distance in place of the level's: DISTANCES or
                                      # "matrix" (docs/decisions/0028)
    distance_matrix: Any = None       # the caller's distance matrix when distance == "matrix"
    labels: bool = False              # categories is scikit-learn's labels=: the categories
                                      # that index the confusion matrix, ratings outside them
                                      # left out (and counted), not refused
    sample_weight: Any = None         # scikit-learn's sample_weight=: a weight per unit, as
                                      # the caller gave it (a mapping unit -> weight, or a
                                      # sequence in the units' row order)

    @property
    def weighted(self) -> bool:
        return self.weights != "unweighted"


def weights_kind(weights: Any) -> str:
    """``None``/"unweighted" -> "unweighted"; "linear"/"quadratic"; a matrix -> "custom"."""
    if weights is None or (isinstance(weights, str) and weights.lower() in ("unweighted", "none", "identity")):
        return "unweighted"
    if isinstance(weights, str):
        if weights.lower() in WEIGHT_KINDS:
            return weights.lower()
        raise OptionError(f"weights must be 'linear', 'quadratic', a weight matrix or None, got {weights!r}")
    if isinstance(weights, Mapping) or _is_matrix(weights):
        return "custom"
    raise OptionError(f"weights must be 'linear', 'quadratic', a weight matrix (dict or list of "
                      f"lists) or None, got a {type(weights).__name__}")


# alpha's named distances over set-valued labels (decision 0028); masi_rounded: nltk's MASI
# before its pull request #3695 (M = 0.67, 0.33 for Passonneau's 2/3, 1/3)
DISTANCES = ("masi", "jaccard", "masi_rounded")


def distance_kind(distance: Any) -> str | None:
    """``None`` -> None (the level's distance); "masi"/"jaccard"; a matrix over labels (a dict
    {(a, b): d} or {a: {b: d}}, a list of rows with categories=, or a table with columns a, b
    and d) -> "matrix". SQL text is never a distance (docs/decisions/0028)."""
    if distance is None:
        return None
    if isinstance(distance, str):
        if distance.lower() in DISTANCES:
            return distance.lower()
        raise OptionError(f"distance must be 'masi', 'jaccard', 'masi_rounded' or a distance matrix over the "
                          f"labels (a dict {{(a, b): d}}, or a table with columns a, b, d), got "
                          f"{distance!r}; for the levels of measurement use level=")
    if isinstance(distance, Mapping) or _is_matrix(distance) or _table_columns(distance) is not None:
        return "matrix"
    raise OptionError(f"distance must be 'masi', 'jaccard', 'masi_rounded' or a distance matrix (a dict {{(a, b): "
                      f"d}}, a list of rows with categories=, or a table with columns a, b, d), "
                      f"got a {type(distance).__name__}")


def _table_columns(table: Any) -> dict[str, list[Any]] | None:
    """The columns of an Arrow or pandas table (None for anything else)."""
    if hasattr(table, "to_pydict") and hasattr(table, "column_names"):
        return {str(k): list(v) for k, v in table.to_pydict().items()}
    if hasattr(table, "columns") and hasattr(table, "to_dict") and hasattr(table, "iloc"):
        return {str(c): list(table[c]) for c in table.columns}
    return None


def distance_cells(distance: Any) -> Any:
    """A distance matrix given as a table (columns a, b, d) as the dict {(a, b): d} it holds;
    a dict or a list of rows as it is."""
    columns = _table_columns(distance)
    if columns is None:
        return distance
    missing = [c for c in ("a", "b", "d") if c not in columns]
    if missing:
        raise OptionError(f"a distance table needs the columns a, b and d (a row per pair of "
                          f"labels); it has no column {missing[0]!r}")
    cells: dict[tuple[Any, Any], Any] = {}
    for a, b, d in zip(columns["a"], columns["b"], columns["d"]):
        if (a, b) in cells:
            raise OptionError(f"the distance table gives the pair ({a!r}, {b!r}) more than once")
        cells[(a, b)] = d
    return cells


def _is_matrix(weights: Any) -> bool:
    if hasattr(weights, "tolist") and not isinstance(weights, (str, bytes)):
        weights = weights.tolist()
    return isinstance(weights, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in weights)


def confidence_z(ci: float | None) -> float | None:
    """The two-sided normal quantile for a confidence level such as 0.95 (input preparation)."""
    return None if ci is None else NormalDist().inv_cdf(0.5 + float(ci) / 2.0)


def _ci(ci: Any) -> float | None:
    if ci is None or ci is False:
        return None
    if ci is True:
        return 0.95
    if hasattr(ci, "item") and not isinstance(ci, (str, bytes)):
        ci = ci.item()
    if isinstance(ci, bool) or not isinstance(ci, numbers.Real) or not math.isfinite(float(ci)) \
            or not 0.0 < float(ci) < 1.0:
        raise OptionError(f"ci must be a confidence level between 0 and 1 (e.g. 0.95), got {ci!r}")
    return float(ci)


def _raters(raters: Any) -> tuple[str, ...]:
    if raters is None:
        return ()
    if isinstance(raters, (str, bytes)):
        raise OptionError(f"raters must be a list of two or more rater names, got the string {raters!r}")
    try:
        names = [str(r.item() if hasattr(r, "item") else r) for r in raters]
    except TypeError:
        raise OptionError(f"raters must be a list of two or more rater names, got {raters!r}") from None
    if len(names) < 2 or len(set(names)) != len(names):
        raise OptionError(f"raters must name two or more different raters, got {list(raters)!r}")
    return tuple(names)


def validate(*, weights: Any = None, categories: Any = None, weight_basis: Any = "value",
             level: Any = "nominal", raters: Any = None, ci: Any = None, ci_method: Any = None,
             n_boot: Any = None, seed: Any = None, analytic: bool = True,
             may_bootstrap: bool | None = None,
             marginals: Any = None, asymmetric_weights: Any = None,
             variance: Any = None, inference: Any = None,
             distance: Any = None) -> CoefficientOptions:
    """Check every option of a coefficient call; ``analytic``: the coefficients asked for have
    an analytic standard error (else ``ci_method`` defaults to the bootstrap);
    ``may_bootstrap``: with the default method, some of them may still take a bootstrap
    interval (alpha, Light's kappa), so ``n_boot`` and ``seed`` apply (None: not analytic).
    An option that would change nothing is refused, never ignored: ``n_boot`` and ``seed``
    without a bootstrap interval, ``variance`` without an analytic one, ``weight_basis`` without
    linear or quadratic weights.

    The peers' conventions (docs/migrating.md): ``marginals`` "pairwise" (the default: Cohen's,
    Light's kappa and Scott's pi from the units both raters rated) or "gwet" (Gwet 2014 ch. 3,
    irrCAC: each rater's marginals over every unit that rater rated; named ``marginals`` because
    ``missing=`` lists the placeholders); ``asymmetric_weights`` "error" (the default) or
    "symmetrize" ((W + W^T) / 2 for the coefficients whose raters are interchangeable);
    ``variance`` None (each coefficient's own), "irrcac_raw" or "irrcac_table" (the analytic
    variance's divisor n - 1 or n, as irrCAC's *.raw and *.table functions); ``inference``
    "normal" (the default: normal quantiles, each coefficient's null variance in its test) or
    "irrcac" (irrCAC's: Student's t on n - 1 degrees of freedom for the interval and the test,
    the test with the estimate's own variance, the interval's upper end at most 1), which needs
    an analytic interval; ``asymmetric_weights`` "oriented" keeps a weight matrix's orientation
    in two raters' contingency table (rows the first rater), as irrCAC's *.table functions."""
    marginals = "pairwise" if marginals is None else marginals
    if marginals not in MARGINALS:
        raise OptionError(f"marginals must be 'pairwise' (the units both raters rated) or 'gwet' "
                          f"(each rater's marginals over every unit it rated, Gwet 2014), got "
                          f"{marginals!r}")
    asymmetric_weights = "error" if asymmetric_weights is None else asymmetric_weights
    if asymmetric_weights not in ASYMMETRIC_WEIGHTS:
        raise OptionError(f"asymmetric_weights must be 'error' or 'symmetrize', got "
                          f"{asymmetric_weights!r}")
    if variance is not None and variance not in VARIANCES:
        raise OptionError(f"variance must be 'irrcac_raw' (divisor n - 1, irrCAC's *.raw "
                          f"functions) or 'irrcac_table' (divisor n, irrCAC's *.table functions), "
                          f"got {variance!r}")
    inference = "normal" if inference is None else inference
    if inference not in INFERENCES:
        raise OptionError(f"inference must be 'normal' or 'irrcac', got {inference!r}")
    kind = weights_kind(weights)
    if kind != "custom" and asymmetric_weights != "error":
        raise OptionError("asymmetric_weights= applies to a weight matrix (weights=[[...]] or "
                          "{...}); linear and quadratic weights are symmetric")
    if weight_basis not in WEIGHT_BASES:
        raise OptionError(f"weight_basis must be 'value' or 'position', got {weight_basis!r}")
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    level_ci = _ci(ci)
    for name, value in (("n_boot", n_boot), ("seed", seed)):
        if hasattr(value, "item") and not isinstance(value, (str, bytes)):
            value = value.item()
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"{name} must be a whole number, got {value!r}")
    interval = interval_spec(level_ci, ci_method, n_boot, seed, analytic=analytic)
    boots = interval.bootstrap or (interval.ci is not None and ci_method is None and
                                   (not analytic if may_bootstrap is None else may_bootstrap))
    for name, value in (("n_boot", n_boot), ("seed", seed)):
        if value is not None and not boots:
            raise OptionError(f"{name}= applies to a bootstrap interval, and this call computes "
                              + ("none (pass ci=0.95, ci_method='bootstrap')" if interval.ci is None
                                 else "an analytic one (pass ci_method='bootstrap')"))
    if variance is not None and not interval.analytic:
        raise OptionError("variance= applies to analytic intervals (ci=0.95 with the analytic "
                          "method); this call computes " + ("no interval" if interval.ci is None
                                                             else "a bootstrap interval"))
    if inference != "normal" and not interval.analytic:
        raise OptionError("inference='irrcac' applies to analytic intervals and their tests (ci=0.95 "
                          "with the analytic method); this call computes "
                          + ("no interval" if interval.ci is None else "a bootstrap interval"))
    if weight_basis != "value" and kind not in WEIGHT_KINDS:
        raise OptionError(f"weight_basis={weight_basis!r} applies to linear or quadratic weights "
                          "(weights='linear' or 'quadratic'); this call's weights are "
                          + ("none" if kind == "unweighted" else "a matrix"))
    return CoefficientOptions(weights=kind, weight_matrix=weights if kind == "custom" else None,
                              categories=categories, weight_basis=weight_basis, level=level,
                              raters=_raters(raters), interval=interval,
                              z=confidence_z(interval.ci) if interval.analytic else None,
                              marginals=marginals, symmetrize=asymmetric_weights == "symmetrize",
                              variance=variance, inference=inference,
                              oriented=asymmetric_weights == "oriented",
                              distance=distance_kind(distance),
                              distance_matrix=(distance_cells(distance)
                                               if distance_kind(distance) == "matrix" else None))
