"""What every coefficient of the kappa family shares: options, declared relations, running, shaping.

Input preparation only: the declared category domain and a user weight matrix become small
registered Arrow relations (never values pasted into SQL), the interval's normal quantile is
computed from the level, the bootstrap's options are checked and bound
(:mod:`agreement_sql.bootstrap`), and result rows are shaped into typed dicts. Every number in a
result comes from a template in ``sql/``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Callable, Mapping, Sequence

from ..bootstrap import IntervalSpec, interval_spec
from ..checks import check_ratings
from ..domain import Domain, check_domain, register_domain
from ..errors import OptionError
from ..interpret import landis_koch
from ..profile import RatingsProfile, profile_ratings
from ..ratings import RatingsSpec
from ..runner import execute
from ..sources import generated_name
from ..session import ratings_session

WEIGHT_KINDS = ("linear", "quadratic")
WEIGHT_BASES = ("value", "position")
INTERVAL_KEYS = ("se", "ci_low", "ci_high", "n_boot_valid")
# the counts form (the bootstrap's second statement has no one-pass form)
ONE_PASS_OFF = {"rater_bits": None, "bit_columns": [], "wide_categories": [], "wide_by_label": False}
NULL_TEST_KEYS = ("se0", "z", "p_one_sided", "p_value")      # Cohen's kappa, with ci


@dataclass
class KappaSetup:
    """The structural options and parameter values of one kappa-family query."""

    spec: RatingsSpec
    options: dict[str, Any]
    params: dict[str, Any]
    weights: str                       # "unweighted", "linear", "quadratic", "custom"
    weight_basis: str
    ci: float | None
    raters: list[str] = field(default_factory=list)
    interval: IntervalSpec = field(default_factory=IntervalSpec)
    boot_rows: list[dict[str, Any]] | None = None      # see run(bootstrap_too=...)
    boot_interval: IntervalSpec | None = None
    profile: RatingsProfile | None = None   # the one-pass form (see one_pass_applies)

    @property
    def one_pass(self) -> bool:
        return self.profile is not None


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


def _is_matrix(weights: Any) -> bool:
    if hasattr(weights, "tolist") and not isinstance(weights, (str, bytes)):
        weights = weights.tolist()
    return isinstance(weights, (list, tuple)) and all(isinstance(r, (list, tuple)) for r in weights)


def confidence_z(ci: Any) -> float | None:
    """The two-sided normal quantile for a confidence level such as 0.95 (input preparation)."""
    if ci is None or ci is False:
        return None
    if ci is True:
        ci = 0.95
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0.0 < float(ci) < 1.0:
        raise OptionError(f"ci must be a confidence level between 0 and 1 (e.g. 0.95), got {ci!r}")
    return NormalDist().inv_cdf(0.5 + float(ci) / 2.0)


def _label(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise OptionError("a category label cannot be None or NaN (a missing rating is not a category)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def register_weight_matrix(spec: RatingsSpec, weights: Any, declared: Domain | None) -> str:
    """A user's agreement-weight matrix as a relation (label_k, label_l, w)."""
    import pyarrow as pa

    cells: list[tuple[str, str, float]] = []
    if isinstance(weights, Mapping):
        for key, value in weights.items():
            if isinstance(value, Mapping):
                cells += [(_label(key), _label(col), value[col]) for col in value]
            elif isinstance(key, tuple) and len(key) == 2:
                cells.append((_label(key[0]), _label(key[1]), value))
            else:
                raise OptionError("a weight matrix given as a dict maps (row, column) pairs, or rows to "
                                  f"{{column: weight}} dicts, to weights; got key {key!r}")
    else:
        rows = weights.tolist() if hasattr(weights, "tolist") else weights
        if declared is None:
            raise OptionError("a weight matrix given as a list of rows needs categories=[...] naming "
                              "its rows and columns in order")
        labels = [_label(v) for v in declared.values]
        if len(rows) != len(labels) or any(len(r) != len(labels) for r in rows):
            raise OptionError(f"the weight matrix must be {len(labels)} x {len(labels)} to match "
                              f"categories={list(declared.values)!r}")
        cells = [(labels[i], labels[j], rows[i][j]) for i in range(len(labels)) for j in range(len(labels))]
    clean = []
    for k, l, w in cells:
        try:
            number = float(w)
        except (TypeError, ValueError):
            raise OptionError(f"weight for ({k!r}, {l!r}) is not a number: {w!r}") from None
        if not math.isfinite(number):
            raise OptionError(f"weight for ({k!r}, {l!r}) must be finite, got {w!r}")
        clean.append((k, l, number))
    if declared is not None:
        known = {_label(v) for v in declared.values}
        number = {float(v) for v in declared.values} if declared.numeric else set()
        for k, l, _ in clean:
            for label in (k, l):
                if label not in known and not (declared.numeric and _as_float(label) in number):
                    raise OptionError(f"the weight matrix names {label!r}, which is not among "
                                      f"categories={list(declared.values)!r}")
    seen = [(k, l) for k, l, _ in clean]
    if len(set(seen)) != len(seen):
        raise OptionError("the weight matrix gives some (row, column) cell more than once")
    table = pa.table({"label_k": [c[0] for c in clean], "label_l": [c[1] for c in clean],
                      "w": pa.array([c[2] for c in clean], pa.float64())})
    name = generated_name("weights")
    spec.source.con.register(name, table)
    spec.source.track("registered", name)
    return name


def _as_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def interval_of(ci: Any = None, ci_method: str | None = None, n_boot: int | None = None,
                seed: int | None = None, *, analytic: bool = True) -> IntervalSpec:
    """The interval a call asked for (:func:`agreement_sql.bootstrap.interval_spec`).

    ``ci=True`` still means 0.95 and ``ci=False`` no interval. ``analytic`` says whether the
    coefficient has an analytic standard error: ``ci_method=None`` then picks "analytic", else
    "bootstrap".
    """
    if ci is True:
        ci = 0.95
    elif ci is False:
        ci = None
    return interval_spec(ci, ci_method, n_boot, seed, analytic=analytic)


def one_pass_applies(spec: RatingsSpec, kind: str, interval: IntervalSpec) -> bool:
    """Whether a template that has the one-pass wide form (sql/_kappa_wide.sql.j2) may use it.

    Only where it gives the same numbers as the counts form and was checked against it
    (tests/test_one_pass_kappas.py): unweighted (identity weights; a weighted form would need
    the span of the categories each metric uses before its units are read), no bootstrap (the
    replicates resample units of the counts form), and no duplicate policy other than an error
    (the counts form decides labels versus numbers on the ratings before duplicates are
    resolved). The profile then decides the rest: at most 16 categories (else the counts form)
    and at most 320 raters without a NULL rater (else the separate check runs first).
    """
    return (kind == "unweighted" and not interval.bootstrap
            and spec.on_duplicate in (None, "error"))


def setup(spec: RatingsSpec, *, weights: Any = None, categories: Any = None,
          weight_basis: str = "value", ci: Any = None, raters: Sequence[Any] | None = None,
          ci_method: str | None = None, n_boot: int | None = None, seed: int | None = None,
          interval: IntervalSpec | None = None, one_pass: bool = False) -> KappaSetup:
    """Check the ratings and options, register the declared relations, choose the structure.

    The interval is ``interval`` when given, else :func:`interval_of` (ci, ci_method, n_boot,
    seed): an analytic one binds the normal quantile ``z`` (option ``ci``), a bootstrap one
    switches on option ``bootstrap`` and binds ``n_boot``, ``seed`` and the two percentiles.

    ``one_pass``: the template has the one-pass wide form. When :func:`one_pass_applies`, the
    ratings are profiled (agreement_sql/profile.py) instead of checked: the statement counts
    the input problems itself and ``run`` verifies them; otherwise, and when the profile finds
    more than 16 categories, the separate check runs first, as before.
    """
    kind = weights_kind(weights)
    if weight_basis not in WEIGHT_BASES:
        raise OptionError(f"weight_basis must be 'value' or 'position', got {weight_basis!r}")
    if interval is None:
        interval = interval_of(ci, ci_method, n_boot, seed)
    z = confidence_z(interval.ci) if interval.analytic else None
    names: list[str] = []
    if raters is not None:
        if isinstance(raters, str):
            raise OptionError(f"raters must be a list of two or more rater names, got the string {raters!r}")
        names = [str(r) for r in raters]
        if len(names) < 2 or len(set(names)) != len(names):
            raise OptionError(f"raters must name two or more different raters, got {list(raters)!r}")
    declared = register_domain(spec.source, categories) if categories is not None else None
    profile: RatingsProfile | None = None
    if one_pass and one_pass_applies(spec, kind, interval):
        # labels or numbers first (the same rule as the check's n_not_numeric), then the profile
        by_label = declared is None and not spec.numeric_values and bool(
            execute(spec.source.con, "value_kinds", spec.options(), spec.params())[0]["not_numeric"])
        profile = profile_ratings(spec, numeric=False, by_label=by_label, domain=declared)
        if not profile.wide:
            if not profile.problems_checked:
                check_ratings(spec, numeric=False)
            profile = None
        check_domain(spec, declared)
    else:
        counts = check_ratings(spec, numeric=False)
        check_domain(spec, declared)
        by_label = declared is None and bool(counts["n_not_numeric"])
    if kind in WEIGHT_KINDS and by_label and weight_basis == "value":
        raise OptionError(f"{kind} weights need numeric ratings or a declared order: the ratings include "
                          "text labels, so pass categories=[...] in their order (or "
                          "weight_basis='position' to weight by sorted label position)")
    matrix_rel = register_weight_matrix(spec, weights, declared) if kind == "custom" else None
    options = spec.options(by_label=by_label, domain=declared.relation if declared else None,
                           domain_numeric=declared.numeric if declared else True,
                           weights="matrix" if kind == "custom" else (kind if kind != "unweighted" else None),
                           weight_matrix=matrix_rel, weight_basis=weight_basis,
                           ci=z is not None, named_raters=len(names), **interval.options(),
                           **(profile.options() if profile else {}))
    params = spec.params(**{f"rater_{i}": n for i, n in enumerate(names)}, **interval.params(),
                         **(profile.params() if profile else {}))
    if z is not None:
        params["z"] = z
    return KappaSetup(spec=spec, options=options, params=params, weights=kind,
                      weight_basis=weight_basis, ci=interval.ci, raters=names, interval=interval,
                      profile=profile)


def run(template: str, source: Any, *, item: str, rater: str, value: str, metric: str | None,
        group_by: Sequence[str] | str | None, on_duplicate: str | None, con: Any,
        weights: Any = None, categories: Any = None, weight_basis: str = "value", ci: Any = None,
        ci_method: str | None = None, n_boot: int | None = None, seed: int | None = None,
        analytic: bool = True, raters: Sequence[Any] | None = None,
        options: Mapping[str, Any] | None = None, params: Mapping[str, Any] | None = None,
        check: Any = None, one_pass: bool = False,
        bootstrap_too: Callable[[list[dict[str, Any]]], Mapping[str, Any] | None] | None = None,
        ) -> tuple[list[dict[str, Any]], KappaSetup]:
    """Prepare, run ``sql/<template>.sql.j2`` once, and return its rows with the setup used.

    ``bootstrap_too(rows)``: when the interval is analytic because ``ci_method`` was left to
    its default, some results may have no analytic standard error (Light's kappa, alpha in
    ``coefficients``); their default is the bootstrap. ``bootstrap_too`` returns None when
    no row needs it, else option overrides (e.g. a shorter ``which``) for a second run of the
    template with the bootstrap, whose rows become ``KappaSetup.boot_rows``.

    ``options``/``params``: more template options and bound values, for both statements.
    ``one_pass``: the template has the one-pass wide form (see :func:`setup`); the input
    problems the statement counted are verified before its numbers are used.
    """
    interval = interval_of(ci, ci_method, n_boot, seed, analytic=analytic)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate) as spec:
        s = setup(spec, weights=weights, categories=categories, weight_basis=weight_basis,
                  raters=raters, interval=interval, one_pass=one_pass)
        s.params.update(params or {})
        if check is not None:
            check(s)
        rows = execute(spec.source.con, template, {**s.options, **(options or {})}, s.params)
        if s.profile is not None:
            s.profile.verify(rows)
        by_default = ci_method is None and interval.analytic
        more = bootstrap_too(rows) if by_default and bootstrap_too is not None else None
        if more is not None:
            boot = interval_of(ci, "bootstrap", n_boot, seed, analytic=analytic)
            options_b = {**s.options, **(options or {}), **boot.options(), "ci": False, **more,
                         **ONE_PASS_OFF}
            params_b = {k: v for k, v in s.params.items() if k != "z"}
            params_b.update(boot.params())
            s.boot_rows = execute(spec.source.con, template, options_b, params_b)
            s.boot_interval = boot
    return rows, s


def row_key(row: Mapping[str, Any], s: KappaSetup) -> tuple[Any, ...]:
    """A row's metric and slice values, to match the rows of two runs of one template."""
    return (row["metric"],) + tuple(row.get(c) for c in s.spec.slices)


def single(metric: str | None, group_by: Any, s: KappaSetup) -> bool:
    """One result (not a list) when the caller asked for neither metric= nor group_by=."""
    return metric is None and not group_by and not s.spec.struct_fields


def shape(row: Mapping[str, Any], s: KappaSetup, *, prefix: str = "",
          coefficient: str | None = None, interpret: bool = True) -> dict[str, Any]:
    """A result row (columns optionally prefixed, as in the coefficients statement) as a dict."""
    def col(name: str) -> Any:
        return row.get(prefix + name)

    value = col("value")
    result: dict[str, Any] = {
        "coefficient": coefficient or col("coefficient"),
        "value": value,
        "observed_agreement": col("observed_agreement"),
        "chance_agreement": col("chance_agreement"),
        "n_items": int(col("n_items") or 0),
        "n_raters": int(col("n_raters") or 0),
        "n_categories": int(col("n_categories") or 0),
        "interpretation": landis_koch(value) if interpret else None,
        "weights": s.weights,
    }
    if s.weights != "unweighted":
        result["weight_basis"] = s.weight_basis
    result.update(interval_fields(row, s, prefix=prefix))
    result["metric"] = row["metric"]
    if s.spec.group_by:
        result["group"] = s.spec.describe_slice(row)
    return result


def interval_fields(row: Mapping[str, Any], s: KappaSetup, *, prefix: str = "",
                    interval: IntervalSpec | None = None) -> dict[str, Any]:
    """The interval keys of a result: the analytic ``se``/``ci_low``/``ci_high`` with
    ``ci_method`` "analytic", or the bootstrap's (:meth:`IntervalSpec.fields`: also ``n_boot``,
    ``n_boot_valid``, ``seed``); nothing without ``ci``. Copied from the row, never computed."""
    interval = interval or s.interval
    if interval.bootstrap:
        return interval.fields({k: row.get(prefix + k) for k in INTERVAL_KEYS})
    if interval.analytic:
        return {"se": row.get(prefix + "se"), "ci_low": row.get(prefix + "ci_low"),
                "ci_high": row.get(prefix + "ci_high"), "ci_method": "analytic",
                "ci_level": interval.ci}
    return {}


def null_test_fields(row: Mapping[str, Any], s: KappaSetup, *, prefix: str = "") -> dict[str, Any]:
    """Cohen's kappa's test of kappa = 0 (``se0``, ``z``, ``p_one_sided``, ``p_value``) when
    an interval was asked for (either method); copied from the row (NULL for Light's kappa),
    never computed."""
    if not (s.interval.analytic or s.interval.bootstrap):
        return {}
    return {key: row.get(prefix + key) for key in NULL_TEST_KEYS}


def no_interval(s: KappaSetup) -> dict[str, Any]:
    """The interval keys of a result that has no interval by the requested method (Light's
    kappa and alpha have no analytic standard error): ``ci_method`` "none"."""
    return {"se": None, "ci_low": None, "ci_high": None, "ci_method": "none", "ci_level": s.ci}


def results(rows: list[dict[str, Any]], s: KappaSetup, metric: str | None, group_by: Any,
            **shape_options: Any) -> Any:
    out = [shape(r, s, **shape_options) for r in rows]
    return out[0] if single(metric, group_by, s) and out else out
