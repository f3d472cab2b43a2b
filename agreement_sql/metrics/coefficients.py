"""Several agreement coefficients at once, from one statement over one pass of the ratings."""
from __future__ import annotations

from typing import Any, Sequence

from ..errors import OptionError
from ..parameters import validate
from ..results import CoefficientsResult
from .coefficient import compute_on, no_interval, shape

# Light's kappa (and Scott's pi) by default only where at most this many raters rate a metric
# (or slice): it averages Cohen's kappa over every rater pair, r (r - 1) / 2 of them (45 at 10
# raters, 1,225 at 50), and costs that many times the rater-pair self-join of each unit. Beyond
# it the result says so (`skipped`); which=["light_kappa", ...] computes it at any size.
LIGHT_MAX_RATERS = 10


# the intraclass correlation in coefficients(): McGraw & Wong's ICC(A,1) (Shrout & Fleiss
# ICC(2,1), pingouin ICC2), absolute agreement of single ratings, from sql/icc.sql.j2 on the same
# call's ratings (a second statement: the ICC is listwise, over items every rater rated)
ICC_NAMES = ("icc", "icc2", "intraclass_correlation")
ICC_FORM = "ICC2"


def _which(which: Sequence[str] | str | None) -> tuple[list[Any], bool, bool]:
    """The registry entries asked for, whether by default, and whether the ICC was named."""
    from ..registry import REGISTRY, lookup

    if which is None:
        return list(REGISTRY.values()), True, False
    names = [which] if isinstance(which, str) else list(which)
    with_icc = any(str(n).lower() in ICC_NAMES for n in names)
    chosen = [lookup(n) for n in names if str(n).lower() not in ICC_NAMES]
    if not chosen and not with_icc:
        raise OptionError("which= names no coefficient")
    return [e for e in REGISTRY.values() if e in chosen], False, with_icc


def coefficients(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Any = None,
                 which: Sequence[str] | str | None = None, level: str = "nominal",
                 raters: Sequence[Any] | None = None, weights: Any = None,
                 categories: Any = None, weight_basis: str = "value",
                 ci: Any = None, ci_method: str | None = None,
                 n_boot: int | None = None, seed: int | None = None,
                 on_duplicate: str | None = None, missing: Any = None, con: Any = None,
                 ) -> dict[str, dict[str, Any]] | list[CoefficientsResult]:
    """Every requested coefficient, computed by one SQL statement over one pass of the ratings.

    ``which`` lists coefficients by name (default: all that apply: Cohen's kappa with exactly
    two raters and Light's kappa otherwise, Scott's pi only with two raters, Fleiss, Conger,
    Gwet's AC1/AC2, Brennan-Prediger, percent agreement and Krippendorff's alpha at ``level``).
    ``weights``, ``categories``, ``weight_basis`` and ``ci`` apply to every kappa-family
    coefficient as in the single functions; ``raters`` picks the pair for Cohen and Scott.

    ``ci=0.95`` adds intervals, each as the single function gives it with the same arguments.
    ``ci_method="bootstrap"`` (``n_boot``, ``seed``): every coefficient, alpha included, gets
    its unit-resampling bootstrap interval from the same statement, over the same replicates.
    ``"analytic"``: the analytic standard errors; alpha and Light's kappa have none
    (``ci_method`` "none"). Left to its default, ``ci_method`` is analytic where a standard
    error exists and bootstrap for alpha and Light's kappa (a second statement, for those two).

    Light's kappa by default: only for a metric (or slice) with at most :data:`LIGHT_MAX_RATERS`
    (10) raters, since it is the mean of Cohen's kappa over every rater pair (1,225 pairs at 50
    raters). Beyond that it is listed with ``value`` None, ``n_raters`` the metric's raters,
    and ``skipped`` saying why and how to ask for it: ``which=["light_kappa", ...]`` (or passing
    ``raters=``) computes it at any size.

    Without ``metric``/``group_by``: ``{name: result}``. Otherwise a list with, per metric (and
    slice), ``{"metric": ..., "group": ..., "coefficients": {name: result}}``.
    """
    from ..session import ratings_session
    from .icc import icc_on

    entries, default, with_icc = _which(which)
    opts = validate(weights=weights, categories=categories, weight_basis=weight_basis,
                    level=level, raters=raters, ci=ci, ci_method=ci_method, n_boot=n_boot,
                    seed=seed, analytic=any(e.analytic_se for e in entries))
    cap = default and raters is None
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing) as spec:
        computed = compute_on(spec, entries, opts=opts, cap_pairs=cap,
                              default_method=ci_method is None) if entries else None
        iccs: dict[tuple[Any, ...], Any] = {}
        profile = computed.profile if computed is not None and computed.domain is None else None
        if with_icc or default:
            if profile is None:
                from ..profile import read_profile
                profile = read_profile(spec)
            if with_icc:
                profile.check(numbers=True, what="the intraclass correlation")
            if profile.totals["n_labels"] == 0:      # by default: for numeric ratings only
                iccs = icc_on(spec, profile, [ICC_FORM], opts.interval.ci or 0.95)
    if computed is None:
        return _icc_only(iccs, spec)
    out: list[CoefficientsResult] = []
    for key_row, by_name in computed.by_key():
        found: dict[str, dict[str, Any]] = {}
        n_raters = int(key_row.get("key_raters") or 0)
        for entry in entries:
            row = by_name.get(entry.name)
            skipped = entry.family == "pair" and cap and n_raters > LIGHT_MAX_RATERS
            if default and entry.two_raters and (n_raters > 2 or skipped):
                continue
            result = shape(entry, row, key_row, computed)
            if skipped:
                result = _skipped_light(result, n_raters, computed)
            found[result["coefficient"]] = result
        for icc_result in iccs.get(computed.key(key_row), []):
            found["icc"] = _icc_entry(icc_result)
        entry_out = CoefficientsResult(metric=key_row["metric"], coefficients=found)
        if computed.spec.group_by:
            entry_out["group"] = computed.spec.describe_slice(key_row)
        out.append(entry_out)
    if not computed.spec.several:
        return out[0]["coefficients"]
    return out


def _icc_entry(result: Any) -> dict[str, Any]:
    """An ICC result as a coefficients() entry: named "icc"; metric and group are the entry's."""
    return {"coefficient": "icc", **{k: v for k, v in result.items() if k not in ("metric", "group")}}


def _icc_only(iccs: dict[tuple[Any, ...], Any], spec: Any) -> Any:
    """coefficients(which=["icc"]): the ICC alone, shaped as coefficients() shapes any entry."""
    out: list[CoefficientsResult] = []
    for (metric, *_), found in iccs.items():
        entry = CoefficientsResult(metric=metric, coefficients={"icc": _icc_entry(found[0])})
        if spec.group_by:
            entry["group"] = found[0]["group"]
        out.append(entry)
    if not spec.several:
        return out[0]["coefficients"] if out else {}
    return out


def _skipped_light(result: dict[str, Any], n_raters: int, computed: Any) -> dict[str, Any]:
    """Light's kappa left out by default (more than LIGHT_MAX_RATERS raters): said, not dropped."""
    result.update(coefficient="light_kappa", value=None, n_raters=n_raters, n_pairs=0,
                  interpretation=None,
                  skipped=(f"not computed by default with more than {LIGHT_MAX_RATERS} raters "
                           "(Light's kappa is the mean of Cohen's kappa over every rater pair); "
                           "ask for it with which=['light_kappa', ...]"))
    if "ci_method" in result:
        for key in ("n_boot", "n_boot_valid", "seed", "se0", "z", "p_one_sided", "p_value"):
            result.pop(key, None)
        result.update(no_interval(computed.opts.interval))
    return result
