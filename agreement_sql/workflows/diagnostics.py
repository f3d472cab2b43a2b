"""Rater diagnostics: who agrees with whom, who rates high or low, and which items to discuss.

For every metric and group: each rater's agreement with the others (pooled over pairs) and the
group's alpha with that rater left out; the pairwise matrix (exact %, mean |difference|, mean
offset, alpha of the two alone); systematic bias (numeric: mean offset from the other raters'
mean on the same units; labels: share of each category against the others' share on the same
units); and the units that carry most of the observed disagreement, with every rating on them.
Every number comes from ``sql/rater_diagnostics.sql.j2`` (its per-rater formulas in
``sql/_diagnostics.sql.j2``). With few raters and few categories it reads rater patterns, so
the leave-one-out and pair figures cost no more than the rest; otherwise the same statement
runs again on the ratings expanded per left-out rater and per pair (at most
``max_pair_raters`` raters whichever the route (without rater patterns the expansions copy
the ratings once per rater)).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..public import public
from ..errors import OptionError
from ..markers import marker_conventions
from ..parameters import LEVELS
from .. import routes
from ..profile import Profile, read_profile
from ..ratings import RatingsSpec, materialize
from ..results import DisagreementItem, RaterAgreement, RaterBias, RaterDiagnostics, RaterPair
from ..metrics._common import every_key
from ..session import ratings_session
from ..sources import check_layout
from ._common import regrouped

MAX_ITEMS = 10
MAX_PAIR_RATERS = 30     # without rater patterns the expansions copy the ratings once per rater


@public()
def rater_diagnostics(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                      metric: str | None = None, group_by: Sequence[str] | str | None = None,
                      level: str = "interval", max_items: int = MAX_ITEMS,
                      max_pair_raters: int = MAX_PAIR_RATERS, on_duplicate: str | None = None,
                      missing: Any = None, con: Any = None, layout: str | None = None,
                      rater_columns: Sequence[str] | None = None, orientation: str | None = None,
                      ) -> RaterDiagnostics | list[RaterDiagnostics]:
    """Rater diagnostics for a long table of ratings (one row per item and rater).

    ``level="nominal"`` compares labels (bias as category shares); the other levels read the
    ratings as numbers (bias as mean offsets). ``max_items`` caps the listed items that drive
    disagreement; with more than ``max_pair_raters`` raters (whichever way the inputs are
    gathered) the leave-one-out alphas and the pairwise matrix are skipped and a note says so. One result
    without ``metric``/``group_by``, else a list with one per metric and group.
    """
    _check(level, max_items)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=check_layout(layout, rater_columns, orientation),
                         needs_raters="rater_diagnostics") as spec:
        results = diagnose(spec, level=level, max_items=max_items, max_pair_raters=max_pair_raters)
    return results if spec.several else results[0]


def _check(level: str, max_items: Any) -> None:
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if isinstance(max_items, bool) or not isinstance(max_items, int) or max_items < 0:
        raise OptionError(f"max_items must be a whole number >= 0, got {max_items!r}")


def _run(spec: RatingsSpec, level: str, max_items: int, *, patterns: bool,
         profile: Profile | None = None, coincidences: bool = False,
         distribution: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], bool, Profile]:
    profile = profile if profile is not None else read_profile(spec)
    profile.check(numbers=level != "nominal",
                  what=f"diagnostics at level {level!r} (use level='nominal' for labels)")
    route = routes.decide(profile, "rater_diagnostics", routes.Needs(rater_identity=patterns))
    kinds = "number" if not profile.has_labels else (
        "label" if profile.totals["n_labels"] == profile.totals["n_ratings"] else "mixed")
    rows = route.query(spec, "rater_diagnostics",
                       {**spec.options(), **route.options("rater_diagnostics"), "level": level,
                        "category_kinds": kinds, "with_coincidences": coincidences,
                        "with_items": max_items > 0,
                        "with_distribution": distribution is not None},
                       {**spec.params(), **route.params(), "max_items": max_items,
                        **(distribution or {})})
    return rows, route.rater_patterns, profile


def diagnose(spec: RatingsSpec, *, level: str, max_items: int = MAX_ITEMS,
             max_pair_raters: int = MAX_PAIR_RATERS,
             profile: Profile | None = None) -> list[RaterDiagnostics]:
    """Diagnostics on a canonical ``spec`` (re-keyed as the caller needs), one per metric and
    group; ``profile``: the ratings profile of ``spec`` when the caller has read it already."""
    return diagnose_with_rows(spec, level=level, max_items=max_items,
                              max_pair_raters=max_pair_raters, profile=profile)[0]


def diagnose_with_rows(spec: RatingsSpec, *, level: str, max_items: int = MAX_ITEMS,
                       max_pair_raters: int = MAX_PAIR_RATERS, profile: Profile | None = None,
                       coincidences: bool = False, distribution: dict[str, Any] | None = None,
                       ) -> tuple[list[RaterDiagnostics], list[dict[str, Any]]]:
    """:func:`diagnose`, and the statement's rows: part "alpha" with each key's unit counts
    (n_units, n_single); with ``coincidences`` part "coincidence" (the pooled coincidence matrix,
    sql/_coincidences.sql.j2); with ``distribution`` (its parameters n_bins, max_categories,
    max_raters) part "distribution" (sql/_distribution.sql.j2), for the HTML report."""
    _check(level, max_items)
    rows, from_patterns, profile = _run(spec, level, max_items, patterns=True, profile=profile,
                                        coincidences=coincidences, distribution=distribution)
    names, slices = list(spec.group_by), spec.slices
    by_key: dict[tuple, RaterDiagnostics] = {}

    def key(row: dict[str, Any]) -> tuple:
        return (row["metric"], *(row[s] for s in slices))

    def diagnostics(row: dict[str, Any]) -> RaterDiagnostics:
        d = RaterDiagnostics(level=level, metric=row["metric"], alpha=row.get("alpha"),
                             raters=[], pairs=[], bias=[], items=[], notes=[])
        if names:
            d["group"] = {n: row[s] for n, s in zip(names, slices)}
        marked = marker_conventions(profile, row)
        if marked:
            d["conventions"] = marked
        return d

    for row in (r for r in rows if r["part"] == "alpha"):
        by_key[key(row)] = diagnostics(row)
    # every metric (and slice) of the input, one with no rating null (_common.every_key)
    by_key = every_key(profile, by_key, diagnostics)
    for row in (r for r in rows if r["part"] == "raters"):
        by_key[key(row)]["raters"].append(RaterAgreement(
            rater=row["rater"], n_ratings=int(row["n_ratings"]),
            n_items_shared=int(row["n_items_shared"]),
            agreement_with_others=row["agreement_with_others"],
            mean_abs_difference=row["mean_abs_difference"], alpha_without=None,
            mean_rating=row["mean_rating"]))
    # one rule whichever the route: leave-one-out alphas and the pair matrix for at most
    # max_pair_raters raters (the route changes how they are gathered, never whether)
    if any(len(d["raters"]) > max_pair_raters for d in by_key.values()):
        for d in by_key.values():
            d["notes"].append(f"more than {max_pair_raters} raters: leave-one-out alphas and the "
                              "pairwise matrix are not computed (raise max_pair_raters to get them)")
        loo, pairs = [], []
    elif from_patterns:
        loo = [r for r in rows if r["part"] == "loo"]
        pairs = [r for r in rows if r["part"] == "pairs"]
    else:
        loo, pairs = _expanded(spec, level, by_key)
    for row in loo:
        for r in by_key[key(row)]["raters"]:
            if r["rater"] == row["left_out"]:
                r["alpha_without"] = row["alpha"]
    for row in pairs:
        by_key[key(row)]["pairs"].append(RaterPair(
            rater_a=row["rater_a"], rater_b=row["rater_b"], n_items=int(row["n_items"]),
            exact_agreement=row["agreement_with_others"],
            mean_abs_difference=row["mean_abs_difference"], mean_offset=row["rater_offset"],
            alpha=row["alpha"]))
    for row in (r for r in rows if r["part"] == "bias"):
        by_key[key(row)]["bias"].append(RaterBias(
            rater=row["rater"],
            category=row["category_label"] if row["category_label"] is not None else row["category_x"],
            n_items=int(row["n_items"]),
            rater_value=row["rater_value"], others_value=row["others_value"], offset=row["rater_offset"]))
    numeric = level != "nominal"
    for row in (r for r in rows if r["part"] == "items"):
        d = by_key[key(row)]
        if not d["items"] or d["items"][-1]["rank"] != row["item_rank"]:
            d["items"].append(DisagreementItem(
                rank=int(row["item_rank"]), item=row["item"], n_ratings=int(row["n_ratings_item"]),
                n_values=int(row["n_values_item"]), disagreeing_pairs=int(row["disagreeing_pairs"]),
                std_dev=row["std_dev"] if numeric else None, spread=row["spread"] if numeric else None,
                disagreement_share=row["disagreement_share"], ratings={}))
        d["items"][-1]["ratings"][row["rater"]] = row["x"] if numeric and row["x"] is not None else (
            row["label"] if row["label"] is not None else row["x"])
    for d in by_key.values():
        d["raters"].sort(key=lambda r: (r["agreement_with_others"] is None,
                                        r["agreement_with_others"] or 0.0, r["rater"]))
    return list(by_key.values()), rows


def _expanded(spec: RatingsSpec, level: str, by_key: dict[tuple, RaterDiagnostics],
              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Leave-one-out alphas and the pair matrix without rater patterns: the same statement on
    the ratings expanded per left-out rater and per rater pair."""
    if not spec.canonical or spec.rekey != "none" or spec.slice_filter or spec.keep_raters:
        # the expansions re-key a canonical copy (a caller's source, or a re-keyed view,
        # settled first)
        spec = materialize(spec)
    n = len(spec.slices)
    loo_rows, _, _ = _run(regrouped(spec, expand="leave_one_out"), level, 0, patterns=False)
    loo = [{**r, "left_out": r[f"slice_{n}"]} for r in loo_rows if r["part"] == "alpha"]
    pair_rows, _, _ = _run(regrouped(spec, expand="pairs"), level, 0, patterns=False)
    alpha = {(r["metric"], *(r[f"slice_{i}"] for i in range(n + 2))): r["alpha"]
             for r in pair_rows if r["part"] == "alpha"}
    offsets = {(r["metric"], *(r[f"slice_{i}"] for i in range(n + 2))): r["rater_offset"]
               for r in pair_rows if r["part"] == "bias" and r["rater"] == r[f"slice_{n}"]
               and level != "nominal"}
    pairs = []
    for r in pair_rows:
        if r["part"] == "raters" and r["rater"] == r[f"slice_{n}"]:
            k = (r["metric"], *(r[f"slice_{i}"] for i in range(n + 2)))
            pairs.append({**r, "rater_a": r[f"slice_{n}"], "rater_b": r[f"slice_{n + 1}"],
                          "n_items": r["n_items_shared"], "rater_offset": offsets.get(k),
                          "alpha": alpha.get(k)})
    return loo, pairs
