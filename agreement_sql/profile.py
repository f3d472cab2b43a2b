"""The ratings profile: what a call learns of its ratings before it computes anything.

One statement (sql/ratings_profile.sql.j2) counts, per metric (and slice), the input rows, the
missing values and placeholders, the usable ratings, the labels, the unusable numbers, the NULL
keys, the raters, and, for the whole input, the distinct raters and (when few) the categories.
:meth:`Profile.check` turns every row-level problem into a typed error naming the column, value
and row (agreement_sql.checks), before any statistic runs; the route (agreement_sql.routes) reads
the rest to choose the statement's form. The counts also become each result's ``n_rows`` and
``n_excluded`` (docs/decisions/0005).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import checks
from .constants import MAX_BIT_RATERS, MAX_WIDE_CATEGORIES
from .domain import Domain
from .errors import InvalidRatingError, OptionError, SourceError
from .markers import marker_hint
from .ratings import RatingsSpec
from .runner import query

Key = tuple[Any, ...]


@dataclass(frozen=True)
class KeyProfile:
    """The profile of one metric (and slice)."""

    n_rows: int
    n_numbers: int
    n_labels: int
    n_ratings: int
    n_missing: int
    n_placeholder: int
    all_zero_one: int
    n_null_item: int
    n_null_rater: int
    x_min: float | None
    x_max: float | None
    frac_max: float | None
    n_nonfinite: int
    n_outside_domain: int
    n_out_of_scale: int
    n_marker_labels: int = 0             # labels spelled like a missing-value marker (NA, ...)
    marker_label: str | None = None      # the first of them


@dataclass(frozen=True)
class Profile:
    spec: RatingsSpec
    keys: dict[Key, KeyProfile]
    n_raters: int
    categories: tuple[tuple[float | None, str | None], ...]   # (x, label), numbers first
    many_categories: bool                                     # more than MAX_WIDE_CATEGORIES
    domain: Domain | None = None
    scales: str | None = None
    totals: dict[str, int] = field(default_factory=dict)
    raters: tuple[str, ...] = ()      # the raters in name order, when at most MAX_BIT_RATERS
    # n_raters and raters count every rater named on a row, with a rating or not: they size the
    # rater codes and bits; the raters a result reports are counted from the units' bits
    rated: tuple[str, ...] = ()       # those of ``raters`` with a usable rating (name order):
    # the raters a DISTINCT over the spec's ratings finds (routes decision rater_list)

    def key_of(self, row: dict[str, Any]) -> Key:
        return (row.get("metric"),) + tuple(row.get(s) for s in self.spec.slices)

    def of(self, row: dict[str, Any]) -> KeyProfile | None:
        return self.keys.get(self.key_of(row))

    @property
    def has_labels(self) -> bool:
        return self.totals["n_labels"] > 0

    def check(self, *, numbers: bool = False, allow_empty: bool = False,
              what: str = "this coefficient", outside_domain_left_out: bool = False) -> None:
        """Raise the typed error for the first row-level problem; ``numbers``: every rating
        must be a number (interval alpha, weights, the workshop report);
        ``outside_domain_left_out``: the domain is scikit-learn's ``labels=``, whose rule
        leaves a rating outside it out (counted in the result) instead of refusing it."""
        spec = self.spec
        t = self.totals
        if t["n_rows"] == 0 and not allow_empty:
            raise SourceError(f"{spec.relation.description} has no rows")
        if t["n_null_item"] or t["n_null_rater"] or t["n_null_metric"] or t["n_null_slice"]:
            checks.raise_null_keys(self)
        if t["n_ratings"] == 0 and not allow_empty:
            raise SourceError(f"{spec.relation.description} has no ratings: every value of "
                              f"column {spec.value!r} is missing ({t['n_missing']} missing, "
                              f"{t['n_placeholder']} placeholder(s))")
        if t["n_nonfinite"]:
            checks.raise_example(self, "nonfinite", None,
                                 "rating(s) in column {value!r} are not usable numbers (infinite, "
                                 "or 2^53 or more in magnitude, where neighbouring whole numbers "
                                 "share one floating-point value; a code that large is a label "
                                 "when written in digits: give it as a whole number or as text "
                                 "of digits)")
        if t["n_labels"] and spec.on_duplicate == "mean":
            checks.raise_example(self, "label", t["n_labels"],
                                 "rating(s) in column {value!r} are labels, and "
                                 "on_duplicate='mean' averages numbers only; use 'first' or 'last'",
                                 error=OptionError)
        if t["n_labels"] and numbers and self.domain is None:
            hint = marker_hint(self).replace("{", "{{").replace("}", "}}")
            checks.raise_example(self, "label", t["n_labels"],
                                 "rating(s) in column {value!r} are not numbers, which " + what +
                                 " needs" + hint, error=InvalidRatingError)
        if t["n_outside_domain"] and not outside_domain_left_out:
            assert self.domain is not None
            shown = self.domain.describe()
            listed = repr(shown) if len(shown) <= 12 else repr(shown[:12])[:-1] + ", ...]"
            checks.raise_example(self, "outside_domain", t["n_outside_domain"],
                                 "rating(s) in column {value!r} lie outside the declared "
                                 "domain " + listed.replace("{", "{{").replace("}", "}}"))
        if t["n_out_of_scale"]:
            checks.raise_example(self, "out_of_scale", t["n_out_of_scale"],
                                 "rating(s) lie outside the declared scale of their question")


def read_profile(spec: RatingsSpec, *, domain: Domain | None = None,
                 scales: str | None = None) -> Profile:
    """Run sql/ratings_profile.sql.j2 for ``spec`` (and sql/ratings_categories.sql.j2 when the
    categories are not a short run of whole numbers or the declared domain)."""
    options = {**spec.options(domain=domain), "scales": scales}
    rows = query(spec.session, "ratings_profile", options, spec.params())
    keys: dict[Key, KeyProfile] = {}
    n_raters = 0
    listed: list[str] = []
    rated: list[str] = []
    totals = dict.fromkeys(("n_rows", "n_missing", "n_placeholder", "n_ratings", "n_labels",
                            "n_nonfinite", "n_null_item", "n_null_rater", "n_null_metric",
                            "n_null_slice", "n_outside_domain", "n_out_of_scale"), 0)
    x_min = x_max = frac = None
    slices = spec.slices                    # a property: computed once, not per row
    counted = [f for f in KeyProfile.__dataclass_fields__
               if f not in ("x_min", "x_max", "frac_max", "marker_label")]
    summed = [n for n in totals if n not in ("n_null_metric", "n_null_slice")]
    for row in rows:
        if row["part"] == "raters":
            n_raters = int(row["n_raters"] or 0)
            listed.append(row["rater"])
            if row["n_ratings"]:
                rated.append(row["rater"])
            continue
        fields = {f: int(row[f] or 0) for f in counted}
        kp = KeyProfile(x_min=row["x_min"], x_max=row["x_max"], frac_max=row["frac_max"],
                        marker_label=row["marker_label"], **fields)
        key = (row["metric"],) + tuple(row[s] for s in slices)
        keys[key] = kp
        for name in summed:
            totals[name] += fields[name]
        if row["metric"] is None:
            totals["n_null_metric"] += kp.n_rows
        if None in key[1:]:
            totals["n_null_slice"] += kp.n_rows
        if kp.x_min is not None:
            x_min = kp.x_min if x_min is None else min(x_min, kp.x_min)
            x_max = kp.x_max if x_max is None or kp.x_max is None else max(x_max, kp.x_max)
            frac = kp.frac_max if frac is None or kp.frac_max is None else max(frac, kp.frac_max)
    profile = Profile(spec=spec, keys=keys, n_raters=n_raters, categories=(), many_categories=False,
                      domain=domain, scales=scales, totals=totals,
                      **_complete_lists(n_raters, raters=listed, rated=rated))
    return _with_categories(profile, x_min, x_max, frac)


def _complete_lists(n_raters: int, **lists: list[str]) -> dict[str, tuple[str, ...]]:
    """The profile's rater lists, kept only when complete (at most MAX_BIT_RATERS raters: the
    statement lists one more row, to tell a full list from a cut one)."""
    return {name: tuple(found) if n_raters <= MAX_BIT_RATERS else () for name, found in lists.items()}


def rekeyed(profile: Profile, spec: RatingsSpec) -> Profile:
    """``profile`` for ``spec``, the same ratings keyed another way (a workflow's ``pool`` or
    ``across`` re-keying, agreement_sql.workflows._common.regrouped), without a second profile
    statement: every rule and total is a property of the rows, so the checks, the raters and the
    categories hold as they are. The per-key counts do not (``keys`` is empty): a caller that
    reports each key's n_rows reads the profile of its own spec."""
    base = profile.spec
    if (spec.session is not base.session or spec.relation != base.relation
            or spec.rekey not in ("none", "pool", "across") or spec.keep_raters != base.keep_raters
            or spec.slice_filter != base.slice_filter or spec.on_duplicate != base.on_duplicate):
        raise ValueError("rekeyed: the spec must read the same ratings as the profile's")
    from dataclasses import replace

    return replace(profile, spec=spec, keys={})


def _with_categories(profile: Profile, x_min: Any, x_max: Any, frac: Any) -> Profile:
    """The categories of the wide form: the declared domain's values; else, when every rating
    is a whole number in a run of at most MAX_WIDE_CATEGORIES, that run (a value nobody gave is
    a count column of zeros, which changes no statistic); else listed by a query."""
    from dataclasses import replace

    t = profile.totals
    if t["n_ratings"] == 0 or t["n_nonfinite"]:
        return profile
    found: list[tuple[float | None, str | None]]
    if profile.domain is not None:
        d = profile.domain
        found = [(float(v) if d.numeric else float(i), None) for i, v in enumerate(d.values, start=1)]
    elif t["n_labels"] == 0 and frac == 0 and x_max - x_min + 1 <= MAX_WIDE_CATEGORIES:
        found = [(float(v), None) for v in range(int(x_min), int(x_max) + 1)]
    else:
        spec = profile.spec
        rows = query(spec.session, "ratings_categories", spec.options(domain=profile.domain),
                     {**spec.params(), "max_categories": MAX_WIDE_CATEGORIES})
        found = [(r["x"], r["label"]) for r in rows]
    many = len(found) == 0 or len(found) > MAX_WIDE_CATEGORIES
    return replace(profile, categories=() if many else tuple(found), many_categories=many)
