"""Several agreement coefficients at once, from one statement over one pass of the ratings."""
from __future__ import annotations

from typing import Any, Sequence

from ..public import public
from ..errors import OptionError
from ..parameters import DEFAULT_LEVEL, validate
from ..registry import FAMILIES
from ..results import CoefficientsResult
from ..sources import check_layout
from .coefficient import (LIGHT_MAX_RATERS, analytic_possible, check_oriented, compute_on,
                          may_bootstrap,
                          no_interval, rater_free, shape)


# the intraclass correlation in coefficients(): McGraw & Wong's ICC(A,1) (Shrout & Fleiss
# ICC(2,1), pingouin ICC2), absolute agreement of single ratings (listwise, over items every
# rater rated). From the coefficients statement itself where its plan keeps rater patterns
# (sql/_icc.sql.j2 over pattern_ratings: the ratings read once; routes.icc_producer),
# else from sql/icc.sql.j2 on the same call's ratings, a second statement
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


@public("coefficients")
def coefficients(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Any = None,
                 which: Sequence[str] | str | None = None, level: str | None = None,
                 raters: Sequence[Any] | None = None, weights: Any = None,
                 categories: Any = None, weight_basis: str = "value",
                 ci: Any = None, ci_method: str | None = None,
                 n_boot: int | None = None, seed: int | None = None,
                 on_duplicate: str | None = None, missing: Any = None, con: Any = None,
                 layout: str | None = None, rater_columns: Sequence[str] | None = None,
                 orientation: str | None = None, marginals: str | None = None,
                 asymmetric_weights: str | None = None, variance: str | None = None,
                 inference: str | None = None, distance: Any = None,
                 set_separator: str | None = None,
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
    The ICC entry (numeric ratings) keeps icc()'s exact F interval (``ci_method`` "f").
    ``"analytic"``: the analytic standard errors; alpha and Light's kappa have none
    (``ci_method`` "none"). Left to its default, ``ci_method`` is analytic where a standard
    error exists and bootstrap for alpha and Light's kappa (a second statement, for those two).

    Light's kappa by default: only for a metric (or slice) with at most :data:`LIGHT_MAX_RATERS`
    (10) raters, since it is the mean of Cohen's kappa over every rater pair (1,225 pairs at 50
    raters). Beyond that it is listed with ``value`` None, ``n_raters`` the metric's raters,
    and ``skipped`` saying why and how to ask for it: ``which=["light_kappa", ...]`` (or passing
    ``raters=``) computes it at any size.

    ``layout``, ``rater_columns``, ``orientation`` (a peer's data shape) and ``marginals``,
    ``asymmetric_weights``, ``variance``, ``inference`` (a peer's conventions) as in the single
    functions (docs/migrating.md); ``marginals`` applies to Cohen's, Light's kappa and Scott's
    pi; ``asymmetric_weights="oriented"`` needs every coefficient asked for to take it (Gwet's
    AC2, Brennan-Prediger, percent agreement; Cohen's kappa keeps its orientation anyway). With
    ``layout="counts"`` (anonymous raters) the default is every rater-free coefficient; naming
    Cohen, Scott, Conger or the ICC is an error.

    ``distance`` (alpha's distance in place of its level: "masi", "jaccard" or a matrix over
    the labels) and ``set_separator`` (every rating a set of labels joined by it, read as its
    canonical text, for every coefficient) as in ``krippendorff_alpha`` (docs/decisions/0028).

    Without ``metric``/``group_by``: ``{name: result}``. Otherwise a list with, per metric (and
    slice), ``{"metric": ..., "group": ..., "coefficients": {name: result}}``.
    """
    from ..ratings import by_cells, expanded_layout
    from ..session import ratings_session
    from .icc import icc_on, icc_results

    entries, default, with_icc = _which(which)
    shape_ = check_layout(layout, rater_columns, orientation)
    if default and shape_.kind == "counts":
        entries = [e for e in entries if rater_free(e)]
    gwet = marginals == "gwet"
    if distance is not None and not any(e.levels for e in entries):
        raise OptionError("distance= is Krippendorff's alpha's (a distance replaces its level), "
                          "and which= does not ask for it")
    if distance is not None and level is not None:
        raise OptionError("give level= or distance=, not both: a distance replaces the level's "
                          "(level='nominal' is distance 1 between different labels)")
    opts = validate(weights=weights, categories=categories, weight_basis=weight_basis,
                    level=level or DEFAULT_LEVEL, raters=raters, ci=ci, ci_method=ci_method, n_boot=n_boot,
                    seed=seed, analytic=any(analytic_possible(e, level or DEFAULT_LEVEL, marginals)
                                            for e in entries),
                    may_bootstrap=may_bootstrap(entries, marginals),
                    marginals=marginals, asymmetric_weights=asymmetric_weights,
                    variance=variance, inference=inference, distance=distance)
    if opts.oriented:
        refused = [e.name for e in entries if not (e.oriented or e.ordered_raters)]
        if refused:
            raise OptionError(f"asymmetric_weights='oriented' applies to gwet_ac1, brennan_prediger "
                              f"and percent_agreement (and Cohen's kappa keeps its orientation); "
                              f"this call also computes {', '.join(refused)}: pass which=[...]")
    cap = default and raters is None
    needs = [e.name for e in entries if not rater_free(e)] + (["icc"] if with_icc else [])
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=shape_,
                         needs_raters=None if default else ", ".join(needs) or None,
                         set_separator=set_separator, state_counts=True,
                         layout_cells=True) as spec:
        if default and spec.state == "unit_values":
            # a batch state without raters: every rater-free coefficient, as for layout='counts'
            entries = [e for e in entries if rater_free(e)]
        want_icc = with_icc or (default and spec.layout != "counts"
                                and spec.state != "unit_values")
        computed = compute_on(spec, entries, opts=opts, cap_pairs=cap,
                              default_method=ci_method is None and inference in (None, "normal"),
                              icc_form=ICC_FORM if want_icc else None,
                              leave_out=default) if entries else None
        if computed is not None:
            check_oriented(computed, computed.by_key())
        iccs: dict[tuple[Any, ...], Any] = {}
        profile = computed.profile if computed is not None and computed.domain is None else None
        if want_icc and by_cells(spec) and (computed is None or computed.icc_rows is None) and (
                with_icc or computed is None or computed.profile.totals["n_labels"] == 0):
            # the ICC's own statement counts ratings: a table expanded for it (decision 0022)
            spec = expanded_layout(spec)
            profile = None
        if want_icc:
            if profile is None:
                from ..profile import read_profile
                profile = read_profile(spec)
            if with_icc:
                profile.check(numbers=True, what="the intraclass correlation")
            icc_level = opts.interval.ci or 0.95
            if computed is not None and computed.icc_rows is not None:
                # the coefficients statement computed it from its rater patterns
                iccs = icc_results(spec, profile, computed.icc_rows, [ICC_FORM], icc_level)
            elif profile.totals["n_labels"] == 0:    # by default: for numeric ratings only
                iccs = icc_on(spec, profile, [ICC_FORM], icc_level)
    if computed is None:
        return _icc_only(iccs, spec, opts.interval.ci)
    out: list[CoefficientsResult] = []
    for key_row, by_name in computed.by_key():
        found: dict[str, dict[str, Any]] = {}
        n_raters = int(key_row.get("key_raters") or 0)
        for entry in entries:
            if entry.name in computed.skipped:
                if not (default and entry.two_raters and n_raters > 2):
                    found[entry.name] = _skipped_scores(entry.name, computed.skipped[entry.name])
                continue
            row = by_name.get(entry.name)
            skipped = FAMILIES[entry.family].pairs and cap and n_raters > LIGHT_MAX_RATERS
            if default and entry.two_raters and (n_raters > 2 or skipped):
                continue
            result = shape(entry, row, key_row, computed)
            if skipped:
                result = _skipped_light(result, n_raters, computed)
            found[result["coefficient"]] = result
        for icc_result in iccs.get(computed.key(key_row), []):
            found["icc"] = _icc_entry(icc_result, opts.interval.ci)
        entry_out = CoefficientsResult(metric=key_row["metric"], coefficients=found)
        if computed.spec.group_by:
            entry_out["group"] = computed.spec.describe_slice(key_row)
        out.append(entry_out)
    if not computed.spec.several:
        return out[0]["coefficients"]
    return out


def _icc_entry(result: Any, ci: float | None) -> dict[str, Any]:
    """An ICC result as a coefficients() entry: named "icc"; metric and group are the entry's.
    Its interval is icc()'s exact F interval (``ci_method`` "f"; Satterthwaite's df for the
    two-way random form), at ``ci``'s level, and only when an interval was asked for: the
    bootstrap resamples the statement of the other coefficients, not the ICC's ANOVA."""
    entry = {"coefficient": "icc", **{k: v for k, v in result.items() if k not in ("metric", "group")}}
    if ci is None:
        for key in ("ci_low", "ci_high", "ci_level"):
            entry.pop(key, None)
    else:
        entry["ci_method"] = "f"
    return entry


def _icc_only(iccs: dict[tuple[Any, ...], Any], spec: Any, ci: float | None) -> Any:
    """coefficients(which=["icc"]): the ICC alone, shaped as coefficients() shapes any entry."""
    out: list[CoefficientsResult] = []
    for (metric, *_), found in iccs.items():
        entry = CoefficientsResult(metric=metric, coefficients={"icc": _icc_entry(found[0], ci)})
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


def _skipped_scores(name: str, why: str) -> dict[str, Any]:
    """A coefficient coefficients() left out on many distinct values (agreement_sql.value_tables,
    docs/decisions/0019): said, with the reason and the way out, not dropped."""
    return {"coefficient": name, "value": None, "interpretation": None, "skipped": why,
            "conventions": {"scores": "left out by default on continuous scores: " + why}}
