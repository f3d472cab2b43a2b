"""Pieces the workflows share: a workflow's own canonical ratings, and the coefficients on them.

A workflow shapes its input (a Weval JSON, an evaluation sheet, two agents' JSONL) into rows
of the canonical ratings relation with a statement of its own, materialised once
(:func:`canonical_spec`); from there every number comes from the same statements the metric
functions run (sql/coefficients.sql.j2, sql/rater_diagnostics.sql.j2, ...), re-keyed per
granularity through :class:`agreement_sql.ratings.RatingsSpec` (pool, across, slice and rater filters).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Iterator, Mapping, Sequence

from ..engine import Relation, Session
from ..ratings import RatingsSpec
from ..runner import run_template


def canonical_spec(session: Session, template: str, options: Mapping[str, Any],
                   params: Mapping[str, Any], *, description: str,
                   slice_names: Sequence[str] = (), item: str = "item", rater: str = "rater",
                   value: str = "label") -> RatingsSpec:
    """Materialise a statement that returns canonical ratings rows (metric, slice_0.., item,
    rater, state, x, label, row_no) and describe them as a canonical RatingsSpec."""
    relation = run_template(session, template, options, params, into="workflow")
    relation = Relation(name=relation.name, columns=relation.columns, description=description,
                        cheap_scan=True)
    slices = tuple(f"slice_{i}" for i in range(len(slice_names)))
    return RatingsSpec(session=session, relation=relation, item=item, rater=rater, value=value,
                       group_by=tuple(slice_names), canonical=True, with_row_number=True,
                       source_slices=slices, metric_label=None)


def regrouped(spec: RatingsSpec, *, pool: bool = False, across: str | None = None,
              select: Mapping[str, Any] | None = None, raters: Sequence[str] = (),
              expand: str | None = None) -> RatingsSpec:
    """``spec`` re-keyed: ``pool`` one unit per (slices, item); ``across`` the canonical slice
    whose values become the units (the item becomes the last slice); ``select`` keeps one value
    of some canonical slices and drops them; ``raters`` keeps only those raters; ``expand``
    "leave_one_out" (a last slice naming the rater left out) or "pairs" (two last slices naming
    the rater pair)."""
    names = list(spec.group_by)
    select = dict(select or {})
    if expand is not None:
        added = ["left_out"] if expand == "leave_one_out" else ["rater_a", "rater_b"]
        return replace(spec, rekey=expand, group_by=tuple(names + added),
                       keep_raters=tuple(raters))
    if pool:
        return replace(spec, rekey="pool", group_by=(), keep_raters=tuple(raters))
    if across is not None:
        kept = [n for n, s in zip(names, spec.source_slices) if s != across]
        return replace(spec, rekey="across", across_slice=across, group_by=tuple(kept + ["item"]),
                       keep_raters=tuple(raters))
    kept = [n for n, s in zip(names, spec.source_slices) if s not in select]
    return replace(spec, slice_filter=tuple(select.items()), group_by=tuple(kept),
                   keep_raters=tuple(raters))


def slice_values(row: dict[str, Any], names: Sequence[str], slices: Sequence[str]) -> dict[str, Any]:
    """A result row's slice columns under the caller's names."""
    return {name: row.get(s) for name, s in zip(names, slices)}


def rounded(x: float | None, digits: int) -> float | None:
    return None if x is None else round(float(x), digits)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause CPython's cyclic garbage collector while a report builds millions of acyclic dicts
    and lists (judge_agreement's per-point results): each collection would walk every object
    built so far, a third of the building time at 200k points. Reference counting still frees
    everything; the collector runs again as it was on exit."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
