"""From a registered source to the canonical ratings relation the templates read.

The caller names the columns (``item=``, ``rater=``, ``value=``, optional ``metric=`` and
``group_by=``); :func:`prepare` checks them against the source and returns a
:class:`RatingsSpec` whose ``options()`` and ``params()`` feed ``sql/_ratings.sql.j2``, the one
template that sees the caller's column names.

The workshop export shape ``(trace_id, user_id, ratings{question_id: rating})`` is recognised
when the value column is a STRUCT, or when the default column names are absent and
``trace_id``, ``user_id`` and ``ratings`` are present: each struct field becomes a metric.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from .errors import OptionError
from .runner import execute
from .sources import Source, generated_name

ON_DUPLICATE = (None, "error", "first", "last", "mean")
WORKSHOP = {"item": "trace_id", "rater": "user_id", "value": "ratings"}
NUMERIC_TYPES = {"tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint",
                 "uinteger", "ubigint", "uhugeint", "float", "double", "decimal"}


@dataclass(frozen=True)
class RatingsSpec:
    source: Source
    relation: str
    item: str = "item"
    rater: str = "rater"
    value: str = "value"
    metric: str | None = None
    group_by: tuple[str, ...] = ()
    struct_fields: tuple[str, ...] = ()
    default_metric: str = "value"
    on_duplicate: str | None = None
    canonical: bool = False
    metric_label: str | None = None   # how messages name the metric: its column, or "question"

    @property
    def slices(self) -> list[str]:
        return [f"slice_{i}" for i in range(len(self.group_by))]

    def options(self, **more: Any) -> dict[str, Any]:
        return {
            "source": self.relation,
            "canonical": self.canonical,
            "item": self.item,
            "rater": self.rater,
            "value": self.value,
            "metric": self.metric,
            "group_by": list(self.group_by),
            "slices": self.slices,
            "struct_fields": list(self.struct_fields),
            "on_duplicate": self.on_duplicate if self.on_duplicate != "error" else None,
            "with_row_number": self.on_duplicate in ("first", "last"),
            "by_label": False,
            "scales": None,
            "domain": None,          # a declared value domain relation (agreement_sql.domain)
            "bootstrap": False,      # unit-resampling replicates (agreement_sql.bootstrap)
            # one-pass statements (agreement_sql.profile): rater bits, wide category counts
            "rater_bits": None, "bit_columns": [], "wide_categories": [], "wide_by_label": False,
            **more,
        }

    def params(self, **more: Any) -> dict[str, Any]:
        values: dict[str, Any] = {"default_metric": self.default_metric}
        for i, name in enumerate(self.struct_fields):
            values[f"struct_field_{i}"] = name
        values.update(more)
        return values

    @property
    def numeric_values(self) -> bool:
        """The value column is typed as a number, so every rating is one (no scan needed)."""
        if self.struct_fields or self.canonical:
            return False
        kind = self.source.columns.get(self.value)
        return getattr(kind, "id", None) in NUMERIC_TYPES

    def describe_slice(self, row: dict[str, Any]) -> dict[str, Any]:
        """The caller's group_by column names mapped to a result row's slice values."""
        return {g: row.get(s) for g, s in zip(self.group_by, self.slices)}


def prepare(source: Source, *, item: str = "item", rater: str = "rater", value: str = "value",
            metric: str | None = None, group_by: Sequence[str] | str | None = None,
            on_duplicate: str | None = None) -> RatingsSpec:
    """Check the requested columns against ``source`` and describe the ratings relation."""
    if on_duplicate not in ON_DUPLICATE:
        raise OptionError(f"on_duplicate must be one of 'first', 'last', 'mean' (or None), "
                          f"got {on_duplicate!r}")
    defaults = (item, rater, value) == ("item", "rater", "value")
    if defaults and not source.has("value") and all(source.has(c) for c in WORKSHOP.values()):
        item, rater, value = WORKSHOP["item"], WORKSHOP["rater"], WORKSHOP["value"]
    item = source.resolve(item, "item")
    rater = source.resolve(rater, "rater")
    value = source.resolve(value, "value")
    metric = source.resolve(metric, "metric") if metric is not None else None
    if isinstance(group_by, str):
        group_by = [group_by]
    groups = tuple(source.resolve(g, "group_by") for g in (group_by or ()))
    roles = [("item", item), ("rater", rater), ("value", value)]
    roles += [("metric", metric)] if metric else []
    roles += [("group_by", g) for g in groups]
    seen: dict[str, str] = {}
    for role, column in roles:
        if column in seen:
            raise OptionError(f"column {column!r} is given as both {seen[column]} and {role}")
        seen[column] = role
    fields = source.struct_fields(value)
    if fields is not None and metric is not None:
        raise OptionError(f"value column {value!r} holds a ratings object (one rating per "
                          "question); it supplies the metric, so metric= must not be given")
    if fields is not None and not fields:
        raise OptionError(f"value column {value!r} is an empty object")
    return RatingsSpec(source=source, relation=source.name, item=item, rater=rater, value=value,
                       metric=metric, group_by=groups, struct_fields=tuple(fields or ()),
                       default_metric=value, on_duplicate=on_duplicate,
                       metric_label=metric or ("question" if fields else None))


def materialize(spec: RatingsSpec) -> RatingsSpec:
    """Read the source once into a temporary canonical table; later statements read that table."""
    into = generated_name("ratings")
    execute(spec.source.con, "materialize_ratings", spec.options(into=into), spec.params())
    spec.source.track("table", into)
    return replace(spec, relation=into, canonical=True, struct_fields=())
