"""Rater diagnostics: who agrees with whom, who rates high or low, and which items to discuss.

For every metric and group: each rater's agreement with the others (pooled over pairs) and the
group's alpha with that rater left out; the pairwise matrix (exact %, mean |difference|, mean
offset, alpha of the two alone); systematic bias (numeric: mean offset from the other raters'
mean on the same units; labels: share of each category against the others' share on the same
units); and the units that carry most of the observed disagreement, with every rating on them.
Every number comes from the ``sql/rater_diagnostics*.sql.j2`` templates.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..checks import check_ratings
from ..errors import OptionError
from ..results import (DisagreementItem, RaterAgreement, RaterBias, RaterDiagnostics, RaterPair)
from ..ratings import RatingsSpec
from ..session import ratings_session
from ._common import materialize_with_order, run

LEVELS = ("nominal", "ordinal", "interval", "ratio")
MAX_ITEMS = 10
MAX_PAIR_RATERS = 30     # the leave-one-out and pair expansions copy the ratings once per rater


def rater_diagnostics(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                      metric: str | None = None, group_by: Sequence[str] | str | None = None,
                      level: str = "interval", max_items: int = MAX_ITEMS,
                      max_pair_raters: int = MAX_PAIR_RATERS, on_duplicate: str | None = None,
                      con: Any = None) -> RaterDiagnostics | list[RaterDiagnostics]:
    """Rater diagnostics for a long table of ratings (one row per item and rater).

    ``level="nominal"`` compares labels as text (bias as category shares); the other levels read
    the ratings as numbers (bias as mean offsets). ``max_items`` caps the listed items that
    drive disagreement; with more than ``max_pair_raters`` raters the leave-one-out alphas and
    the pairwise matrix are skipped (they copy the ratings once per rater) and a note says so.
    One result without ``metric``/``group_by``, else a list with one per metric and group.
    """
    _check_level(level)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate) as spec:
        spec = materialize_with_order(spec)
        check_ratings(spec, numeric=level != "nominal")
        results = diagnose(spec, level=level, max_items=max_items, max_pair_raters=max_pair_raters)
    if metric is None and not group_by and not spec.struct_fields:
        return results[0]
    return results


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")


def diagnose(spec: RatingsSpec, *, level: str, pool: bool = False, max_items: int = MAX_ITEMS,
             max_pair_raters: int = MAX_PAIR_RATERS, group_names: Sequence[str] | None = None,
             select: dict[str, Any] | None = None,
             raters: Sequence[str] | None = None) -> list[RaterDiagnostics]:
    """Diagnostics on a canonical ``spec`` (see ``materialize_with_order``), one per metric and group.

    ``pool=True`` pools every group into one (units named ``group | ... | item``); ``select``
    keeps one value of some slices (and drops them); ``raters`` keeps only those raters.
    """
    _check_level(level)
    if max_items is None or int(max_items) < 0:
        raise OptionError(f"max_items must be a non-negative integer, got {max_items!r}")
    options = {"level": level, "by_label": level == "nominal"}
    select = dict(select or {})
    kept = [(n, s) for n, s in zip(group_names or spec.group_by, spec.slices) if s not in select]
    slices = [] if pool else [f"slice_{i}" for i in range(len(kept))]
    names = [] if pool else [n for n, _ in kept]
    common = {"pool": pool, "select": select, "raters": raters, "options": options}
    per_rater = run(spec, "rater_diagnostics", **common)
    bias = run(spec, "rater_diagnostics_bias", **common)
    items = run(spec, "rater_diagnostics_items", params={"max_items": int(max_items)}, **common)

    def key(row: dict[str, Any], offset: Sequence[str] = slices) -> tuple:
        return (row["metric"], *(row[s] for s in offset))

    by_key: dict[tuple, RaterDiagnostics] = {}
    n_raters: dict[tuple, int] = {}
    for row in per_rater:
        k = key(row)
        if k not in by_key:
            d = RaterDiagnostics(level=level, metric=row["metric"], alpha=row["group_alpha"],
                                 raters=[], pairs=[], bias=[], items=[], notes=[])
            if names:
                d["group"] = {n: row[s] for n, s in zip(names, slices)}
            by_key[k] = d
        by_key[k]["raters"].append(RaterAgreement(
            rater=row["rater"], n_ratings=int(row["n_ratings"]),
            n_items_shared=int(row["n_items_shared"]),
            agreement_with_others=row["agreement_with_others"],
            mean_abs_difference=row["mean_abs_difference"],
            alpha_without=None,
            mean_rating=row["mean_rating"]))
        n_raters[k] = n_raters.get(k, 0) + 1

    expandable = all(n <= max_pair_raters for n in n_raters.values())
    if expandable:
        for row in run(spec, "rater_diagnostics_loo", expand="leave_one_out", **common):
            d = by_key.get(key(row))
            if d is None:
                continue
            for r in d["raters"]:
                if r["rater"] == row["left_out"]:
                    r["alpha_without"] = row["alpha_without"]
        for row in run(spec, "rater_diagnostics_pairs", expand="pairs", **common):
            d = by_key.get(key(row))
            if d is not None:
                d["pairs"].append(RaterPair(
                    rater_a=row["rater_a"], rater_b=row["rater_b"], n_items=int(row["n_items"]),
                    exact_agreement=row["exact_agreement"],
                    mean_abs_difference=row["mean_abs_difference"],
                    mean_offset=row["mean_offset"], alpha=row["alpha"]))
    else:
        for d in by_key.values():
            d["notes"].append(f"more than {max_pair_raters} raters: leave-one-out alphas and the "
                              "pairwise matrix are not computed (raise max_pair_raters to get them)")
    for row in bias:
        d = by_key.get(key(row))
        if d is not None:
            d["bias"].append(RaterBias(rater=row["rater"], category=row["category"],
                                       n_items=int(row["n_items"]), rater_value=row["rater_value"],
                                       others_value=row["others_value"], offset=row["offset"]))
    numeric = level != "nominal"
    for row in items:
        d = by_key.get(key(row))
        if d is None:
            continue
        if not d["items"] or d["items"][-1]["rank"] != row["item_rank"]:
            d["items"].append(DisagreementItem(
                rank=int(row["item_rank"]), item=row["item"], n_ratings=int(row["n_ratings"]),
                n_values=int(row["n_values"]), disagreeing_pairs=int(row["disagreeing_pairs"]),
                std_dev=row["std_dev"] if numeric else None, spread=row["spread"] if numeric else None,
                disagreement_share=row["disagreement_share"], ratings={}))
        d["items"][-1]["ratings"][row["rater"]] = row["x"] if numeric else row["value_text"]
    return list(by_key.values())
