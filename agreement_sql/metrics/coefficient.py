"""Running coefficients: one statement (sql/coefficients.sql.j2) for any registry entries.

Every coefficient function, and ``coefficients()``, goes through :func:`compute`: open the
call's session, check the options (agreement_sql.parameters), profile the ratings and refuse
unusable input (agreement_sql.profile), choose the route (agreement_sql.routes), run the one
statement, refuse its numbers if a rater rated a unit twice, and shape each row into the
entry's result type. Every number in a result comes from the statement or the profile.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Protocol, Sequence

from ..bootstrap import IntervalSpec, interval_spec
from ..distributions import t_interval
from ..domain import Domain, register_domain
from ..errors import OptionError
from ..interpret import krippendorff_label, landis_koch
from ..registry import FAMILIES
from ..parameters import DEFAULT_LEVEL, CoefficientOptions, validate
from .. import routes, value_tables
from ..public import public
from ..markers import marker_conventions
from ..profile import Profile, read_profile
from ..ratings import RatingsSpec, by_cells, expanded_layout, read_by_cells
from ..runner import query
from ..session import ratings_session
from ..sources import Layout, check_layout
from ._common import counted
from .icc import statement_rows
from .weights import register_distance_matrix, register_weight_matrix

# Light's kappa (and Scott's pi) by default only where at most this many raters rate a metric
# (or slice): it averages Cohen's kappa over every rater pair, r (r - 1) / 2 of them (45 at 10
# raters, 1,225 at 50), and costs that many times the rater-pair self-join of each unit. Beyond
# it the result says so (`skipped`); which=["light_kappa", ...] computes it at any size.
LIGHT_MAX_RATERS = 10

COMMON_DOC = """
    Ratings are long rows (item, rater, value); a missing rating has no row, and NULL, NaN,
    blank text and the ``missing=`` placeholders are missing too (counted in ``n_excluded``).
    ``layout=`` reads a peer's shape instead (docs/migrating.md): "wide" (a row per unit, a
    column per rater: ``item=`` names the unit column, else a row's position is its unit;
    ``rater_columns=`` picks the raters; a 2-D array needs ``orientation=``), "counts" (a row
    per unit, a column per category, cells count raters; rater-free coefficients only) or
    "table" (a two-rater contingency table, rows rater A, columns rater B); a list or tuple of
    label arrays, one per rater (scikit-learn's ``y1, y2``), is read as it is.
    ``categories`` declares the category domain and its order. ``ci=0.95`` adds an interval:
    ``ci_method="analytic"`` (the default where the coefficient has a standard error) or
    ``"bootstrap"``, a unit-resampling bootstrap run in the database (``n_boot`` replicates,
    default 1000; ``seed``, default 1; the same seed gives the same interval). One result
    without ``metric``/``group_by``, a list otherwise. ``None`` when no unit is rated twice.
    ``set_separator="|"`` reads every rating as a set of labels (``"b|a"`` is the label
    ``"a|b"``); Krippendorff's alpha takes ``distance=`` in place of ``level=``: "masi" or
    "jaccard" between such sets, or a matrix over the labels, ``{(a, b): d}`` or a table with
    columns a, b, d (docs/decisions/0028); the others refuse it.
"""


class CoefficientFunction(Protocol):
    """The signature every coefficient function shares (options a coefficient does not take
    are refused, never ignored)."""

    __name__: str

    def __call__(self, source: Any, *, item: str = "item", rater: str = "rater",
                 value: str = "value", metric: str | None = None, group_by: Any = None,
                 on_duplicate: str | None = None, missing: Any = None, weights: Any = None,
                 categories: Any = None, domain: Any = None, weight_basis: str = "value",
                 level: str | None = None, raters: Sequence[Any] | None = None,
                 ci: Any = None, ci_method: str | None = None, n_boot: int | None = None,
                 seed: int | None = None, con: Any = None, layout: str | None = None,
                 rater_columns: Sequence[str] | None = None, orientation: str | None = None,
                 marginals: str | None = None, asymmetric_weights: str | None = None,
                 variance: str | None = None, inference: str | None = None,
                 distance: Any = None, set_separator: str | None = None,
                 labels: Any = None, sample_weight: Any = None) -> Any: ...


@dataclass
class Computed:
    """What one call computed: its rows per (metric, slice), and what they were computed with."""

    spec: RatingsSpec
    profile: Profile
    opts: CoefficientOptions
    domain: Domain | None
    rows: list[dict[str, Any]]
    boot_rows: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = field(default_factory=dict)
    boot_interval: IntervalSpec | None = None
    # the ICC rows the statement computed from its rater patterns (metrics/icc.py
    # statement_rows), or None where it did not (compute_on's icc_form)
    icc_rows: list[dict[str, Any]] | None = None
    # coefficients left out (coefficients()' default set on many distinct values), with the
    # reason (agreement_sql.value_tables, docs/decisions/0019)
    skipped: dict[str, str] = field(default_factory=dict)
    default_method: bool = False      # ci_method was left to its default

    def key(self, row: Mapping[str, Any]) -> tuple[Any, ...]:
        return (row.get("metric"),) + tuple(row.get(s) for s in self.spec.slices)

    def by_key(self) -> list[tuple[dict[str, Any], dict[str, dict[str, Any]]]]:
        """Each metric (and slice) of the input in order, with its rows by coefficient name.

        Every key the profile found is here (docs/decisions/0005: nothing left out without
        being counted): one whose ratings are all missing, or that no statement row reached,
        comes with no rows, so its results are null with the profile's exclusions. Both
        statements order their keys alike (ORDER BY the key columns), so the profile's order
        is the statement's."""
        out: dict[tuple[Any, ...], tuple[dict[str, Any], dict[str, dict[str, Any]]]] = {}
        for row in self.rows:
            entry = out.setdefault(self.key(row), (row, {}))
            if row.get("name") is not None:
                entry[1][row["name"]] = row
        names = ("metric",) + tuple(self.spec.slices)
        found = [out.pop(k) if k in out else (dict(zip(names, k)), {})
                 for k in self.profile.keys]
        return found + list(out.values())


def _numbers_needed(entries: Sequence[Any], opts: CoefficientOptions) -> tuple[bool, str]:
    for e in entries:
        if e.levels and opts.level != "nominal":
            return True, (f"Krippendorff's alpha at level {opts.level!r} (declare categories=[...] "
                          "in order for labels, or use level='nominal')")
    return False, ""


def _category_kinds(profile: Profile, domain: Domain | None) -> str:
    t = profile.totals
    if domain is not None or t["n_labels"] == 0:
        return "number"
    return "label" if t["n_labels"] == t["n_ratings"] else "mixed"


def compute(entries: Sequence[Any], source: Any, *, item: Any, rater: Any, value: Any,
            metric: Any, group_by: Any, on_duplicate: Any, missing: Any, con: Any,
            opts: CoefficientOptions, cap_pairs: bool = False,
            default_method: bool = False, layout: Layout | None = None,
            set_separator: str | None = None) -> Computed:
    """Run sql/coefficients.sql.j2 for ``entries`` on ``source``.

    ``cap_pairs``: the pair coefficients only for metrics with at most LIGHT_MAX_RATERS raters
    (coefficients() by default). ``default_method``: ``ci_method`` was left to its default, so
    the entries without an analytic standard error get a bootstrap interval from a second
    statement (alpha; Cohen's when it turns out to be Light's kappa).
    """
    needs = [e.name for e in entries if not rater_free(e)]
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=layout, needs_raters=", ".join(needs) or None,
                         set_separator=set_separator, state_counts=True,
                         layout_cells=True) as spec:
        return compute_on(spec, entries, opts=opts, cap_pairs=cap_pairs,
                          default_method=default_method)


def rater_free(entry: Any) -> bool:
    """The coefficient needs no rater identity (a counts table's anonymous raters will do):
    its family says (agreement_sql.registry.FAMILIES: the rater-free kappa family and alpha;
    Cohen, Light, Scott and Conger compare raters)."""
    return not FAMILIES[entry.family].rater_identity


def no_analytic_se(entry: Any, opts: CoefficientOptions) -> bool:
    """No analytic standard error for this coefficient under these options: alpha at the
    ordinal and ratio levels, and the pair coefficients under Gwet's marginals (their variances
    assume the shared units only; the bootstrap gives the interval)."""
    return (not analytic_possible(entry, opts.level, opts.marginals)
            or (entry.analytic_levels and opts.level not in entry.analytic_levels)
            or (entry.levels and opts.distance is not None))


def analytic_possible(entry: Any, level: Any, marginals: Any) -> bool:
    """The coefficient has an analytic standard error at this level, under these marginals."""
    return (entry.analytic_se and not (FAMILIES[entry.family].pairs and marginals == "gwet")
            and not (entry.analytic_levels and level not in entry.analytic_levels))


def bootstrap_by_default(entry: Any, opts: CoefficientOptions) -> bool:
    """With ci_method left to its default, this coefficient's interval is the bootstrap's: it
    has no analytic standard error here, or its default is the bootstrap (alpha)."""
    return no_analytic_se(entry, opts) or entry.default_bootstrap


def may_bootstrap(entries: Sequence[Any], marginals: Any) -> bool:
    """With the default interval method, some of ``entries`` may take a bootstrap interval: a
    coefficient without an analytic standard error, a mean over rater pairs (Light's kappa,
    which Cohen's becomes with more raters) or a pair coefficient under Gwet's marginals."""
    return any(not e.analytic_se or "n_pairs" in e.reports or e.default_bootstrap
               or e.analytic_levels
               or (FAMILIES[e.family].pairs and marginals == "gwet") for e in entries)


def averages_pairs(row: Mapping[str, Any] | None) -> bool:
    """The row is a mean over several rater pairs (Light's kappa, Cohen's kappa of more than two
    raters): it has no analytic standard error."""
    return row is not None and int(row.get("n_pairs") or 0) > 1


def needs(entries: Sequence[Any], opts: CoefficientOptions) -> routes.Needs:
    """What sql/coefficients.sql.j2 computes for ``entries``, as its route depends on it
    (agreement_sql.routes): rater identity for the pair and Conger families (which may then
    count from rater patterns), the counts form when an analytic variance asked for reads
    only that form (Conger's), and per-unit moments only (interval alpha alone: the sums
    form)."""
    tested = opts.interval.analytic or (opts.interval.bootstrap and opts.interval.ci is not None)
    counts = next((f"{e.name}'s analytic variance (its test's, with ci=) reads per-unit counts"
                   for e in entries if e.variance_form == "counts" and tested), None)
    if counts is None and opts.distance is not None and any(e.levels for e in entries):
        counts = ("alpha's distance= measures pairs of category labels, which the counts form "
                  "holds (docs/decisions/0028)")
    # interval alpha alone reads per-unit moments only (sql/_alpha_sums.sql.j2's closed form)
    moments = (bool(entries) and all(e.levels for e in entries) and opts.level == "interval"
               and opts.distance is None and not opts.oriented and opts.sample_weight is None)
    return routes.Needs(rater_identity=any(not rater_free(e) for e in entries) or opts.oriented,
                        counts_form=counts, unit_weights=opts.sample_weight is not None,
                        quadratic=any(routes.by_moments(e.family, opts.weights, opts.oriented)
                                      for e in entries),
                        level=opts.level if any(e.levels for e in entries) else None,
                        moments=moments)


def compute_on(spec: RatingsSpec, entries: Sequence[Any], *, opts: CoefficientOptions,
               cap_pairs: bool = False, default_method: bool = False,
               icc_form: str | None = None, leave_out: bool = False) -> Computed:
    """:func:`compute` on the ratings of an open call (a workflow's canonical relation).

    ``icc_form``: the caller wants that ICC form too (coefficients()); the statement computes it
    from its rater patterns where the route allows (agreement_sql.routes.icc_producer; no
    declared domain), and ``Computed.icc_rows`` holds its rows; else they are None and the
    caller runs the ICC's own statement.

    A coefficient that sums over pairs of distinct values is refused above
    constants.MAX_VALUE_TABLE distinct values (agreement_sql.value_tables); with ``leave_out``
    (coefficients()' default set) it is left out instead, its reason in ``Computed.skipped``.
    """
    if spec.state == "unit_values" and not spec.canonical and not spec.state_weighted:
        # a batch state of counts: summed as weighted rows, or expanded into ratings where an
        # interval may resample them (agreement_sql.routes.state_reader)
        from .. import states
        if opts.oriented:
            raise OptionError("asymmetric_weights='oriented' orders the two raters, and this "
                              "batch state has section unit_values (anonymous raters): "
                              "summarize the batches with with_raters=True")
        reader = routes.state_reader(bootstrap=opts.interval.ci is not None,
                                     rater_identity=needs(entries, opts).rater_identity)
        routes.record("state_ratings", {"state_rows": reader})
        spec = states.weighted(spec) if reader == "counts" else states.expanded(spec)
    session = spec.session
    declared = register_domain(session, opts.categories, any_order=opts.labels)
    if by_cells(spec):
        # a counts or contingency table: read by its cells where the statement's inputs are all
        # sums over patterns, else expanded into ratings (routes.layout_reader, decision 0022)
        cells = read_by_cells(spec)
        profile = read_profile(cells, domain=declared)
        bootstrap = opts.interval.bootstrap or (
            default_method and opts.interval.analytic
            and any(bootstrap_by_default(e, opts) for e in entries))
        if routes.layout_reader(profile, needs(entries, opts), bootstrap=bootstrap) == "cells":
            spec = cells
        else:
            spec = expanded_layout(spec)
            profile = read_profile(spec, domain=declared)
    else:
        profile = read_profile(spec, domain=declared)
    numbers, what = _numbers_needed(entries, opts)
    profile.check(numbers=numbers, what=what, outside_domain_left_out=opts.labels)
    unit_weights = (register_unit_weights(spec, opts.sample_weight)
                    if opts.sample_weight is not None else None)
    if opts.weights in ("linear", "quadratic") and opts.weight_basis == "value" \
            and declared is None and profile.has_labels:
        raise OptionError(f"{opts.weights} weights need numeric ratings or a declared order: the "
                          "ratings include text labels, so pass categories=[...] in their order "
                          "(or weight_basis='position' to weight by sorted label position)")
    interchangeable = [e.name for e in entries
                       if not e.ordered_raters and not (opts.oriented and e.oriented)]
    matrix = (register_weight_matrix(
        session, opts.weight_matrix, declared, who=", ".join(interchangeable),
        asymmetric="symmetrize" if opts.symmetrize else "error" if interchangeable else "keep",
        profile=profile)
        if opts.weights == "custom" else None)
    measures = (register_distance_matrix(session, opts.distance_matrix, declared, profile=profile)
                if opts.distance == "matrix" and any(e.levels for e in entries) else None)
    check_named_raters(spec, opts.raters, declared)
    kept, skipped = value_tables.split(profile, entries, opts.level, leave_out=leave_out,
                                       distance=opts.distance, weights=opts.weights,
                                       oriented=opts.oriented)
    if not kept:
        kept, skipped = value_tables.split(profile, entries, opts.level, leave_out=False,
                                           distance=opts.distance, weights=opts.weights,
                                           oriented=opts.oriented)
    entries = kept
    route = routes.decide(profile, "coefficients", needs(entries, opts))
    statement = _Statement(spec, profile, route, declared, matrix, opts,
                           _category_kinds(profile, declared), cap_pairs, LIGHT_MAX_RATERS,
                           measures, unit_weights)
    producer = (routes.icc_producer(profile, route, bootstrap=opts.interval.bootstrap)
                if icc_form is not None and declared is None else None)
    icc_raters = routes.packed_digits(profile) if producer == "from_patterns" else 0
    rows = statement.run(entries, opts.interval, icc_form=icc_form if icc_raters else None,
                         icc_raters=icc_raters)
    computed = Computed(spec=spec, profile=profile, opts=opts, domain=declared, rows=rows,
                        icc_rows=statement_rows(rows, profile) if icc_raters else None,
                        skipped=skipped)
    computed.default_method = default_method
    if default_method and opts.interval.analytic:
        again = [e for e in entries if bootstrap_by_default(e, opts) or any(
            r.get("name") == e.name and averages_pairs(r) for r in rows)]
        if again:
            boot = interval_spec(opts.interval.ci, "bootstrap", opts.interval.n_boot,
                                 opts.interval.seed, analytic=False)
            for row in statement.run(again, boot):
                computed.boot_rows.setdefault(computed.key(row), {})[row["name"]] = row
            computed.boot_interval = boot
    return computed


def statement_options(spec_options: Mapping[str, Any], spec_params: Mapping[str, Any],
                      route: routes.Route, entries: Sequence[Any], opts: CoefficientOptions,
                      interval: IntervalSpec, *, matrix: str | None, category_kinds: str,
                      cap_pairs: bool, pair_max: int = LIGHT_MAX_RATERS,
                      icc_form: str | None = None, icc_raters: int = 0,
                      distance_matrix: str | None = None,
                      unit_weights: str | None = None,
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and parameters of sql/coefficients.sql.j2 for ``entries`` by ``route``: the
    one builder, used by every call and by ``render`` (agreement_sql.rendering)."""
    options = {
        **spec_options, **route.options("coefficients"),
        "which": [e.name for e in entries], "partials": [e.partial for e in entries],
        "families": [e.family for e in entries],
        "reports": [list(e.reports) for e in entries], "level": opts.level,
        "weights": {"unweighted": None, "custom": "matrix"}.get(opts.weights, opts.weights),
        "weight_basis": opts.weight_basis, "weight_matrix": matrix,
        "ci": interval.analytic, "category_kinds": category_kinds,
        "named_raters": len(opts.raters), "pair_max_raters": cap_pairs,
        "confusion_given": False,
        "marginals": opts.marginals, "variance": opts.variance,
        "inference": opts.inference, "oriented": opts.oriented,
        "icc_from_patterns": icc_form is not None, "rater_digits": icc_raters if icc_form else 0,
        "distance": opts.distance if any(e.levels for e in entries) else None,
        "distance_matrix": distance_matrix,
        "unit_weights": unit_weights,
    }
    params = {**spec_params, **route.params(), **interval.params(),
              **{f"rater_{i}": r for i, r in enumerate(opts.raters)},
              "pair_max_raters": pair_max}
    if icc_form is not None:
        params["icc_form"] = icc_form
    if interval.analytic:
        params["z"] = opts.z if opts.z is not None else _z(interval)
    return options, params


@dataclass
class _Statement:
    spec: RatingsSpec
    profile: Profile
    route: routes.Route
    domain: Domain | None
    matrix: str | None
    opts: CoefficientOptions
    category_kinds: str
    cap_pairs: bool
    pair_max: int
    distance_matrix: str | None = None     # the caller's distance matrix, registered
    unit_weights: str | None = None        # the registered relation (item, w) of sample_weight=

    def run(self, entries: Sequence[Any], interval: IntervalSpec, *, icc_form: str | None = None,
            icc_raters: int = 0) -> list[dict[str, Any]]:
        """The statement's rows; with ``icc_form`` each also carries the ICC of its metric (and
        slice) from the rater patterns (``icc_raters`` raters; sql/coefficients.sql.j2)."""
        route = routes.narrowed(self.route, needs(entries, self.opts))
        options, params = statement_options(
            self.spec.options(domain=self.domain, bootstrap=interval.bootstrap),
            self.spec.params(), route, entries, self.opts, interval, matrix=self.matrix,
            category_kinds=self.category_kinds, cap_pairs=self.cap_pairs, pair_max=self.pair_max,
            icc_form=icc_form, icc_raters=icc_raters, distance_matrix=self.distance_matrix,
            unit_weights=self.unit_weights)
        more = {"icc": "from_patterns"} if icc_form is not None else {}
        return route.query(self.spec, "coefficients", options, params, **more)


def _z(interval: IntervalSpec) -> float:
    from ..parameters import confidence_z
    z = confidence_z(interval.ci)
    assert z is not None
    return z


# -- shaping ---------------------------------------------------------------------------

def interval_fields(row: Mapping[str, Any], interval: IntervalSpec,
                    inference: str = "normal") -> dict[str, Any]:
    """The interval keys of a result, copied from the row; under irrCAC's inference the ends
    are value -/+ t quantile x se with the upper end at most 1, the t quantile on the row's
    n_se - 1 degrees of freedom (agreement_sql.distributions.t_interval: DuckDB has no t
    quantile, principle 1's one exception)."""
    if interval.bootstrap:
        return interval.fields(dict(row))
    if interval.analytic:
        low, high = row.get("ci_low"), row.get("ci_high")
        if inference == "irrcac":
            assert interval.ci is not None
            low, high = t_interval(row.get("value"), row.get("se"), row.get("n_se"),
                                   interval.ci, upper=1.0)
        return {"se": row.get("se"), "ci_low": low, "ci_high": high,
                "ci_method": "analytic", "ci_level": interval.ci}
    return {}


def no_interval(interval: IntervalSpec) -> dict[str, Any]:
    """A result without an interval by the requested method (no analytic standard error)."""
    return {"se": None, "ci_low": None, "ci_high": None, "ci_method": "none", "ci_level": interval.ci}


INTERPRETATIONS = {"landis_koch": landis_koch, "krippendorff": krippendorff_label}


def shape(entry: Any, row: Mapping[str, Any] | None, key_row: Mapping[str, Any],
          c: Computed) -> dict[str, Any]:
    """One coefficient's result for one metric (and slice): the row contract of its family
    (agreement_sql.registry.FAMILIES) and the fields its entry reports, copied from the row."""
    opts = c.opts
    family = FAMILIES[entry.family]
    data: Mapping[str, Any] = row or {}
    value = data.get("value")
    label = INTERPRETATIONS.get(entry.interpretation) if entry.interpretation else None
    n_raters = data.get("n_raters")
    result: dict[str, Any] = {
        "coefficient": data.get("coefficient") or (
            entry.weighted_name if opts.weighted and entry.weighted_name else entry.name),
        **({"level": opts.level if opts.distance is None else None} if entry.levels else {}),
        **({"distance": opts.distance} if entry.levels and opts.distance is not None else {}),
        "value": value,
    }
    if family.measures == "disagreement":
        result.update(observed_disagreement=data.get("observed_disagreement"),
                      expected_disagreement=data.get("expected_disagreement"))
    else:
        result.update(observed_agreement=data.get("observed_agreement"),
                      chance_agreement=data.get("chance_agreement"))
    result["n_items"] = int(data.get("n_items") or 0)
    result["n_raters"] = (int(n_raters) if n_raters is not None
                          else int(key_row.get("key_raters") or 0))
    if family.measures == "disagreement":
        result["n_values"] = int(data.get("n_values") or 0)
    result["n_categories"] = int(data.get("n_categories") or 0)
    result["interpretation"] = label(value) if label is not None else None
    if entry.weighted:
        result["weights"] = opts.weights
        if opts.weighted:
            result["weight_basis"] = opts.weight_basis
    if entry.levels and c.domain is not None:
        result["domain"] = c.domain.describe()
    if family.measures == "disagreement":
        accounting = counted(c.profile, key_row, used=int(data.get("n_values") or 0),
                             single_rated=True)
    elif family.pairs:
        paired = int(data.get("n_paired_ratings") or 0)
        accounting = counted(c.profile, key_row, used=paired, single_rated=False,
                             outside_pair=int(key_row.get("n_ratings") or 0) - paired)
    else:
        accounting = counted(c.profile, key_row, used=int(key_row.get("n_ratings") or 0),
                             single_rated=False)
    if opts.labels:
        kp = c.profile.of(dict(key_row))
        accounting["n_excluded"]["outside_labels"] = kp.n_outside_domain if kp else 0
    result.update(_interval_of(entry, data, c))
    if family.pairs and data.get("rater_a") is not None:
        result["raters"] = [data["rater_a"], data["rater_b"]]
    if "n_pairs" in entry.reports:
        result["n_pairs"] = int(data.get("n_pairs") or 0)
    if "null_test" in entry.reports and opts.interval.ci is not None:
        result.update({k: data.get(k) for k in ("se0", "z", "p_one_sided", "p_value")})
        if opts.inference == "irrcac" and data.get("n_se") is not None:
            result["df"] = int(data["n_se"]) - 1
    result.update(accounting)
    stated = {**conventions(entry, c.spec, opts), **marker_conventions(c.profile, key_row)}
    if stated:
        result["conventions"] = stated
    return result


LAYOUT_ROWS = {
    "wide": "layout 'wide': a row per unit, a column per rater; n_rows counts cells (units x "
            "rater columns), a missing cell counted in n_excluded",
    "counts": "layout 'counts': a row per unit, a column per category, a cell the number of "
              "raters who chose it (anonymous raters); n_rows counts ratings (the sum of the cells)",
    "table": "layout 'table': a two-rater contingency table, rows rater A's categories, columns "
             "rater B's, a cell a number of units; n_rows counts ratings (twice the sum of the "
             "cells)",
}


DISTANCE_ROWS = {
    "masi": "distance 'masi': d = 1 - J M between two sets of labels (Passonneau 2006; nltk's "
            "masi_distance), J = |A n B| / |A u B|, M = 1 if A = B, 2/3 if one contains the "
            "other, 1/3 if they meet otherwise, 0 if disjoint",
    "masi_rounded": "distance 'masi_rounded': MASI with nltk's former rounded M (0.67, 0.33 for "
                    "2/3, 1/3; nltk's masi_distance before its pull request #3695), d = 1 - J M",
    "jaccard": "distance 'jaccard': d = 1 - |A n B| / |A u B| between two sets of labels (nltk's "
               "jaccard_distance)",
    "matrix": "distance: the caller's matrix d(a, b) over the labels, alpha's difference "
              "function (Krippendorff's delta^2, nltk's distance=) as given (complete, "
              "symmetric, 0 on the diagonal)",
}


def conventions(entry: Any, spec: RatingsSpec, opts: CoefficientOptions) -> dict[str, str]:
    """The conventions a result was computed under, when the call chose any (docs/migrating.md):
    a peer's layout, Gwet's marginals, the weight matrix's orientation or symmetrisation, the
    variance's divisor. Empty for a call with every default."""
    out: dict[str, str] = {}
    if spec.layout != "long":
        out["layout"] = LAYOUT_ROWS[spec.layout]
    if spec.set_separator is not None:
        out["set_separator"] = (f"every rating a set of labels separated by "
                                f"{spec.set_separator!r}, read as its canonical text (elements "
                                "trimmed, empty ones dropped, de-duplicated, sorted by their "
                                "bytes), so one set is one category whatever its order; a set "
                                "with no element is missing")
    if entry.levels and opts.distance is not None:
        out["distance"] = DISTANCE_ROWS[opts.distance] + (
            "" if opts.distance == "matrix" or spec.set_separator is not None else
            "; without set_separator= every label is a set of one, so two different labels are "
            "at distance 1 (the nominal level's)") + (
            "; no analytic standard error (the bootstrap gives the interval)"
            if opts.interval.ci is not None else "")
    if spec.state is not None:
        from ..states import CONVENTIONS as STATE_CONVENTIONS
        out["state"] = STATE_CONVENTIONS[spec.state]
    if entry.marginals and opts.marginals == "gwet":
        out["marginals"] = ("gwet (Gwet 2014, ch. 3; irrCAC): " + entry.gwet_marginals
                            + ", observed agreement over the units both rated; no analytic "
                              "standard error")
    if opts.weights == "custom":
        if opts.symmetrize:
            out["weights"] = ("the weight matrix made symmetric, (W + W^T) / 2 "
                              "(asymmetric_weights='symmetrize')")
        elif entry.ordered_raters:
            out["weights"] = ("weight matrix rows are rater A's categories, columns rater B's "
                              "(A the first of raters=, else the first by name)")
    if "null_test" in entry.reports and opts.interval.ci is not None:
        out["test"] = (f"H0: no agreement beyond chance; z = value / se0 with se0 from {entry.null_variance}; "
                       + ("p-values from Student's t on n - 1 degrees of freedom with se0 = se, as "
                          "irrCAC (inference='irrcac')" if opts.inference == "irrcac" else
                          "normal p-values (p_one_sided = 1 - Phi(z), p_value = 2 (1 - Phi(|z|)))"))
    if opts.inference == "irrcac" and not no_analytic_se(entry, opts):
        out["inference"] = ("irrcac: the interval value -/+ t(n - 1) se with its upper end at "
                            "most 1, and the test's p-values from Student's t on n - 1 degrees "
                            "of freedom with the estimate's own standard error, as irrCAC's "
                            "functions (df in the result)")
    if opts.oriented and entry.oriented:
        out["weights"] = ("the weight matrix kept in its orientation: rows the first rater's "
                          "categories (rater A of a table, else the first by name), columns the "
                          "second's, in the two raters' contingency table, as irrCAC's *.table "
                          "functions (asymmetric_weights='oriented')")
    if opts.labels and entry.sklearn_options:
        out["labels"] = ("labels= (scikit-learn's): the categories of the confusion matrix, in the "
                         "order given (positions for weight_basis='position'); a rating outside "
                         "them is left out with every pair it is in, counted in "
                         "n_excluded['outside_labels'] (its partner in n_excluded['outside_pair'])")
    if opts.sample_weight is not None and entry.sklearn_options:
        out["sample_weight"] = ("sample_weight= (scikit-learn's): each unit's pairs count with the "
                                "unit's weight in the confusion counts, so p_o, p_e and kappa are "
                                "weighted; n_items and the accounting count units and ratings, "
                                "unweighted; no standard error")
    if opts.variance is not None and not no_analytic_se(entry, opts):
        out["variance"] = {
            "irrcac_raw": "irrcac_raw: the analytic variance with divisor n - 1, as irrCAC's "
                          "*.raw functions",
            "irrcac_table": "irrcac_table: the analytic variance with divisor n, as irrCAC's "
                            "*.table functions"}[opts.variance]
    return out


def _interval_of(entry: Any, data: Mapping[str, Any], c: Computed) -> dict[str, Any]:
    interval = c.opts.interval
    if interval.ci is None:
        return {}
    no_se = (no_analytic_se(entry, c.opts) or averages_pairs(data)
             or (c.default_method and entry.default_bootstrap))
    if interval.analytic and no_se:
        boot = c.boot_rows.get(c.key(data), {}).get(entry.name) if data else None
        if boot is not None and c.boot_interval is not None:
            return interval_fields(boot, c.boot_interval)
        return no_interval(interval)
    return interval_fields(data, interval, c.opts.inference)


def finite_or_none(x: Any) -> Any:
    return None if isinstance(x, float) and not math.isfinite(x) else x


# -- the public functions ------------------------------------------------------------------

def coefficient_function(entry: Any) -> CoefficientFunction:
    """The public function of a registry entry (agreement_sql.registry)."""

    def function(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Any = None, on_duplicate: str | None = None,
                 missing: Any = None, weights: Any = None, categories: Any = None,
                 domain: Any = None, weight_basis: str = "value", level: str | None = None,
                 raters: Sequence[Any] | None = None, ci: Any = None,
                 ci_method: str | None = None, n_boot: int | None = None,
                 seed: int | None = None, con: Any = None, layout: str | None = None,
                 rater_columns: Sequence[str] | None = None, orientation: str | None = None,
                 marginals: str | None = None, asymmetric_weights: str | None = None,
                 variance: str | None = None, inference: str | None = None,
                 distance: Any = None, set_separator: str | None = None,
                 labels: Any = None, sample_weight: Any = None) -> Any:
        check_sklearn_options(entry, labels=labels, sample_weight=sample_weight,
                              categories=categories, domain=domain, marginals=marginals, ci=ci,
                              layout=layout)
        if labels is not None:
            categories = labels
        if domain is not None and categories is not None:
            raise OptionError("give the declared values once: domain= or categories=, not both")
        categories = domain if domain is not None else categories
        if not entry.weighted and (weights is not None or weight_basis != "value"):
            raise OptionError(f"{entry.name} takes no weights (it is not a weighted coefficient)")
        if not entry.levels and level is not None:
            raise OptionError(f"{entry.name} takes no level= (levels of measurement are "
                              "Krippendorff's alpha's)")
        if not entry.levels and distance is not None:
            raise OptionError(f"{entry.name} takes no distance= (a distance replaces the level "
                              "of Krippendorff's alpha)")
        if distance is not None and level is not None:
            raise OptionError("give level= or distance=, not both: a distance replaces the "
                              "level's (level='nominal' is distance 1 between different labels)")
        if not entry.named_raters and raters is not None:
            raise OptionError(f"{entry.name} takes no raters= (it uses every rater)")
        if not entry.marginals and marginals is not None:
            raise OptionError(f"{entry.name} takes no marginals= (Gwet's convention for missing "
                              "ratings is Cohen's, Light's kappa's and Scott's pi's; the rater-free "
                              "coefficients already use every rated unit)")
        if not entry.analytic_se and variance is not None:
            raise OptionError(f"{entry.name} takes no variance= (it has no analytic standard "
                              "error; its interval is the bootstrap's)")
        if not entry.weighted and asymmetric_weights is not None:
            raise OptionError(f"{entry.name} takes no asymmetric_weights= (it takes no weights)")
        if asymmetric_weights == "oriented" and not entry.oriented:
            raise OptionError(f"{entry.name} takes no asymmetric_weights='oriented' (irrCAC orients a "
                              "weight matrix in two raters' table for Gwet's AC2, Brennan-Prediger "
                              "and percent agreement; Cohen's kappa keeps its orientation always)")
        if entry.ordered_raters and raters is not None and len(list(raters)) > 2:
            raise OptionError(f"{entry.name} compares two raters; raters={list(raters)!r} names "
                              f"{len(list(raters))} (use coefficients(..., raters=...) for Light's kappa)")
        possible = analytic_possible(entry, level or DEFAULT_LEVEL, marginals) and distance is None
        opts = validate(weights=weights, categories=categories, weight_basis=weight_basis,
                        level=level or DEFAULT_LEVEL, raters=raters, ci=ci,
                        ci_method=ci_method, n_boot=n_boot, seed=seed,
                        analytic=possible and not (ci_method is None and entry.default_bootstrap
                                                   and inference in (None, "normal")),
                        may_bootstrap=may_bootstrap([entry], marginals),
                        marginals=marginals, asymmetric_weights=asymmetric_weights,
                        variance=variance, inference=inference, distance=distance)
        if labels is not None or sample_weight is not None:
            opts = replace(opts, labels=labels is not None, sample_weight=sample_weight)
        computed = compute([entry], source, item=item, rater=rater, value=value, metric=metric,
                           group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                           con=con, opts=opts,
                           default_method=ci_method is None and inference in (None, "normal"),
                           layout=check_layout(layout, rater_columns, orientation),
                           set_separator=set_separator)
        out = []
        keys = list(computed.by_key())
        check_oriented(computed, keys)
        # the metrics (and slices) with raters to compare (one with none, every rating
        # missing, is in the result, null, and decides nothing here)
        compared = [int(k.get("key_raters") or 0) for k, _ in keys]
        compared = [n for n in compared if n >= 2]
        if entry.two_raters and not raters and compared and all(n > 2 for n in compared):
            most = max(compared)
            raise OptionError(f"{entry.name} compares two raters, and every metric or slice has "
                              f"more (up to {most}); name two with raters=[a, b], or use "
                              f"fleiss_kappa (its many-rater generalisation)")
        for key_row, by_name in keys:
            result = shape(entry, by_name.get(entry.name), key_row, computed)
            result["metric"] = key_row["metric"]
            if computed.spec.group_by:
                result["group"] = computed.spec.describe_slice(key_row)
            out.append(entry.result(**result))
        return out if computed.spec.several else out[0]

    function.__name__ = function.__qualname__ = entry.name
    function.__doc__ = (f"{entry.title}. Source: {entry.source}.\n" + COMMON_DOC
                        + (f"\n    {entry.example}" if entry.example else ""))
    return public()(function)


def register_unit_weights(spec: RatingsSpec, sample_weight: Any) -> str:
    """scikit-learn's ``sample_weight=`` as a relation (item, w) registered beside the ratings
    (bound as a value table, never written into SQL): a mapping unit -> weight, or a sequence
    of weights in the units' row order where a row's position is its unit (label arrays, a
    wide table without ``item=``). Every weight a finite number >= 0; a rated unit without
    one, or a sequence whose length is not the number of units, is an OptionError naming it
    (sql/unit_weights_check.sql.j2 finds them)."""
    import numbers as _numbers

    import pyarrow as pa

    def plain(v: Any) -> Any:
        return v.item() if hasattr(v, "item") and not isinstance(v, (str, bytes)) else v

    if isinstance(sample_weight, Mapping):
        pairs = [(str(plain(k)), plain(w)) for k, w in sample_weight.items()]
    else:
        if not spec.unit_from_row:
            raise OptionError("sample_weight= as a sequence weighs units by their row position, "
                              "and these units are named by a column; pass a mapping "
                              "{unit: weight} instead")
        values = sample_weight.tolist() if hasattr(sample_weight, "tolist") else list(sample_weight)
        pairs = [(str(i), plain(w)) for i, w in enumerate(values)]
    for unit, w in pairs:
        if isinstance(w, bool) or not isinstance(w, _numbers.Real) or not math.isfinite(float(w)) \
                or float(w) < 0:
            raise OptionError(f"sample_weight= gives unit {unit!r} the weight {w!r}; a weight is a "
                              "finite number >= 0")
    name = spec.session.register_arrow(pa.table({
        "item": pa.array([u for u, _ in pairs], pa.string()),
        "w": pa.array([float(w) for _, w in pairs], pa.float64())}), "unit_weights")
    rows = query(spec.session, "unit_weights_check", {**spec.options(), "unit_weights": name},
                 spec.params())
    found = rows[0] if rows else {}
    if int(found.get("n_unweighted") or 0):
        raise OptionError(f"sample_weight= has no weight for unit {found['first_unweighted']!r} "
                          f"({int(found['n_unweighted'])} rated unit(s) without one"
                          + (f"; a sequence of {len(pairs)} weights for more units" if not
                             isinstance(sample_weight, Mapping) else "") + ")")
    if not isinstance(sample_weight, Mapping) and int(found.get("n_units") or 0) != len(pairs):
        raise OptionError(f"sample_weight= has {len(pairs)} weights for "
                          f"{int(found.get('n_units') or 0)} units: give one per unit")
    return name


def check_sklearn_options(entry: Any, *, labels: Any, sample_weight: Any, categories: Any,
                          domain: Any, marginals: Any, ci: Any, layout: Any) -> None:
    """scikit-learn's ``labels=`` and ``sample_weight=`` (cohen_kappa_score), where they apply:
    refused on a coefficient that does not take them, with a declared domain (``labels`` is
    one, with scikit-learn's rule for ratings outside it), under Gwet's marginals (scikit-learn
    counts pairs), and ``sample_weight`` with an interval (no standard error of a weighted
    kappa is computed: scikit-learn reports none) or on a counts or contingency table (no
    units to weigh). docs/decisions/0027."""
    if labels is None and sample_weight is None:
        return
    given = "labels=" if labels is not None else "sample_weight="
    if not entry.sklearn_options:
        raise OptionError(f"{entry.name} takes no {given} (scikit-learn's cohen_kappa_score "
                          "options are Cohen's kappa's: cohen_kappa(..., labels=, sample_weight=))")
    if labels is not None:
        from ..domain import parse_domain
        try:
            parse_domain(labels, any_order=True)
        except OptionError as exc:
            raise OptionError(f"labels=: {exc}") from None
    if labels is not None and (categories is not None or domain is not None):
        raise OptionError("give labels= (scikit-learn's: ratings outside them are left out and "
                          "counted) or categories=/domain= (a declared domain: a rating outside "
                          "it is an error), not both")
    if marginals == "gwet":
        raise OptionError(f"{given} counts pairs of ratings as scikit-learn does, and "
                          "marginals='gwet' counts each rater's ratings apart; use one or the other")
    if sample_weight is not None and ci not in (None, False):
        raise OptionError("sample_weight= gives no standard error (scikit-learn reports none, and "
                          "the package computes no weighted variance or weighted bootstrap): "
                          "drop ci= or the weights")
    if sample_weight is not None and layout in ("counts", "table"):
        raise OptionError(f"sample_weight= weighs units, and layout={layout!r} has none (its "
                          "cells are counts): expand it into ratings, or weigh the cells yourself")


def check_oriented(computed: Computed, keys: Sequence[tuple[Mapping[str, Any], Any]]) -> None:
    """asymmetric_weights='oriented' reads two raters' contingency table: a metric (or slice)
    with more raters has no such table, an error rather than a NULL."""
    if not computed.opts.oriented:
        return
    more = [k for k, _ in keys if int(k.get("key_raters") or 0) > 2]
    if more:
        raise OptionError(f"asymmetric_weights='oriented' reads two raters' contingency table, and "
                          f"metric {more[0].get('metric')!r} has {int(more[0]['key_raters'])} raters; "
                          "keep two raters (or use asymmetric_weights='symmetrize')")


def check_named_raters(spec: RatingsSpec, raters: Sequence[str], domain: Domain | None) -> None:
    """raters=[...] must name raters who rated: an unknown name is an error, not a NULL kappa."""
    if not raters:
        return
    rows = query(spec.session, "named_raters",
                 {**spec.options(domain=domain), "named_raters": len(raters)},
                 {**spec.params(), **{f"rater_{i}": r for i, r in enumerate(raters)}})
    found = {r["rater"] for r in rows if r["named"]}
    missing = [r for r in raters if r not in found]
    if missing:
        some = [r["rater"] for r in rows if not r["named"]]
        listed = ", ".join(repr(r) for r in some) + (", ..." if len(some) == 10 else "")
        raise OptionError(f"raters= names {', '.join(map(repr, missing))}, who rated nothing in "
                          f"{spec.relation.description}; raters who did include {listed}")
