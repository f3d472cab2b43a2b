"""Pieces the workflows share: one scan of the source into a canonical table, re-keyed views of it.

Every workflow reads its source once (``materialize_ratings``, with input row numbers so that
"first seen" orders are stable) and then runs its templates on that temporary table, re-keyed by
``sql/_regroup.sql.j2`` (per group, per point across responses, pooled, leave-one-out, pairs).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..ratings import RatingsSpec
from ..runner import execute
from ..sources import generated_name

UNIT_SEPARATOR = " | "      # joins group keys and item into one unit name when groups are pooled
EXPANSIONS = (None, "leave_one_out", "pairs")


def materialize_with_order(spec: RatingsSpec) -> RatingsSpec:
    """Read the source once into a temporary canonical table that keeps each row's input position."""
    into = generated_name("ratings")
    execute(spec.source.con, "materialize_ratings",
            spec.options(into=into, with_row_number=True), spec.params())
    spec.source.track("table", into)
    return replace(spec, relation=into, canonical=True, struct_fields=())


def regroup_options(slices: Sequence[str], *, pool: bool = False, across: str | None = None,
                    expand: str | None = None, select: Sequence[str] = ()) -> dict[str, Any]:
    """Structural options of ``_regroup.sql.j2``: which slices the re-keyed ratings carry.

    ``select`` names slices whose rows are filtered to one value (bound as ``select_<slice>``)
    and then dropped; it cannot be combined with ``pool`` or ``across``.
    """
    if expand not in EXPANSIONS:
        raise ValueError(f"expand must be one of {EXPANSIONS}")
    slices = list(slices)
    if select and (pool or across is not None):
        raise ValueError("select cannot be combined with pool or across")
    if pool:
        base: list[str] = []
    elif across is not None:
        base = [f"slice_{i}" for i in range(len(slices))]
    else:
        base = [f"slice_{i}" for i in range(len(slices) - len(select))]
    extra = {None: 0, "leave_one_out": 1, "pairs": 2}[expand]
    out = base + [f"slice_{len(base) + i}" for i in range(extra)]
    return {"in_slices": slices, "base_slices": base, "out_slices": out,
            "regroup_pool": bool(pool), "regroup_across": across, "regroup_expand": expand,
            "regroup_select": list(select)}


def run(spec: RatingsSpec, template: str, *, pool: bool = False, across: str | None = None,
        expand: str | None = None, select: dict[str, Any] | None = None,
        raters: Sequence[str] | None = None, options: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Run one workflow template on the canonical table of ``spec`` (see :func:`materialize_with_order`).

    ``select`` maps canonical slice names to the one value of each to keep (those slices drop);
    ``raters`` keeps only those raters.
    """
    select = dict(select or {})
    raters = list(raters or [])
    opts = spec.options(**regroup_options(spec.slices, pool=pool, across=across, expand=expand,
                                          select=list(select)),
                        regroup_raters=len(raters), **(options or {}))
    return execute(spec.source.con, template, opts,
                   spec.params(unit_separator=UNIT_SEPARATOR, **(params or {}),
                               **{f"select_{k}": v for k, v in select.items()},
                               **{f"keep_rater_{i}": r for i, r in enumerate(raters)}))


def slice_values(row: dict[str, Any], names: Sequence[str], slices: Sequence[str]) -> dict[str, Any]:
    """A result row's slice columns under the caller's names."""
    return {name: row.get(s) for name, s in zip(names, slices)}


def rounded(x: float | None, digits: int) -> float | None:
    return None if x is None else round(float(x), digits)
