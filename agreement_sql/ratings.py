"""From a registered source to the canonical ratings relation the templates read.

The caller names the columns (``item=``, ``rater=``, ``value=``, optional ``metric=`` and
``group_by=``); :func:`prepare` checks them against the source and returns a
:class:`RatingsSpec`, whose ``options()`` and ``params()`` feed ``sql/_ratings.sql.j2``, the one
template that sees the caller's column names. The rules that template applies to every value
(numbers, labels, missing, refused, duplicates) are docs/decisions/0002.

The workshop export shape ``(trace_id, user_id, ratings{question_id: rating})`` is recognised
when the value column is a STRUCT, or when the default column names are absent and
``trace_id``, ``user_id`` and ``ratings`` are present: each struct field becomes a metric.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from typing import Any, Sequence

from .engine import STRUCT, Relation, Session
from .errors import ColumnError, OptionError

ON_DUPLICATE = (None, "error", "first", "last", "mean")
UNIT_SEPARATOR = " | "      # joins slice values and item into one unit name when slices are pooled
WORKSHOP = {"item": "trace_id", "rater": "user_id", "value": "ratings"}


@dataclass(frozen=True)
class RatingsSpec:
    """The caller's ratings as the templates see them, and how messages name their columns."""

    session: Session
    relation: Relation
    item: str = "item"
    rater: str = "rater"
    value: str = "value"
    metric: str | None = None
    group_by: tuple[str, ...] = ()
    struct_fields: tuple[str, ...] = ()
    value_kinds: tuple[str, ...] = ("text",)
    placeholders: tuple[Any, ...] = ()
    default_metric: str = "value"
    on_duplicate: str | None = None
    canonical: bool = False             # relation is a materialised canonical copy
    with_row_number: bool = False
    metric_label: str | None = None     # how messages name the metric: its column, or "question"
    # a canonical copy re-keyed for a workflow's granularity (sql/_ratings.sql.j2)
    source_slices: tuple[str, ...] = ()
    rekey: str = "none"                 # "none", "pool" or "across"
    across_slice: str | None = None
    slice_filter: tuple[tuple[str, Any], ...] = ()    # (source slice, the value kept)
    keep_raters: tuple[str, ...] = ()

    @property
    def slices(self) -> list[str]:
        """The canonical slice columns the statements see (after any re-keying)."""
        if not self.canonical or (self.rekey == "none" and not self.slice_filter):
            return [f"slice_{i}" for i in range(len(self.group_by))]
        if self.rekey == "pool":
            return []
        if self.rekey == "across":
            return [f"slice_{i}" for i in range(len(self.source_slices))]
        extra = {"leave_one_out": 1, "pairs": 2}.get(self.rekey, 0)
        return [f"slice_{i}" for i in range(len(self.source_slices) - len(self.slice_filter) + extra)]

    @property
    def several(self) -> bool:
        """The caller asked for one result per metric or slice (metric=, group_by=, a ratings
        object; metric_label outlives materialize(), which clears struct_fields)."""
        return bool(self.metric or self.group_by or self.struct_fields or self.metric_label)

    def options(self, *, domain: Any = None, bootstrap: bool = False) -> dict[str, Any]:
        """The options of sql/_ratings.sql.j2 (every statement includes it)."""
        return {
            "source": self.relation.name,
            "source_form": "canonical" if self.canonical else "caller",
            "item": self.item,
            "rater": self.rater,
            "value": self.value,
            "metric": self.metric,
            "group_by": list(self.group_by),
            "slices": self.slices,
            "struct_fields": list(self.struct_fields),
            "value_kinds": list(self.value_kinds),
            "placeholders": ["number" if _is_number(p) else "text" for p in self.placeholders],
            "on_duplicate": self.on_duplicate if self.on_duplicate != "error" else None,
            "with_row_number": self.with_row_number or self.on_duplicate in ("first", "last"),
            "domain": domain.relation if domain is not None else None,
            "domain_numeric": domain.numeric if domain is not None else True,
            "bootstrap": bootstrap,
            "source_slices": list(self.source_slices) if self.canonical else self.slices,
            "rekey": self.rekey,
            "across_slice": self.across_slice,
            "slice_filter": [s for s, _ in self.slice_filter],
            "rater_filter": len(self.keep_raters),
        }

    def params(self) -> dict[str, Any]:
        values: dict[str, Any] = {"default_metric": self.default_metric}
        for i, name in enumerate(self.struct_fields):
            values[f"struct_field_{i}"] = name
        for i, p in enumerate(self.placeholders):
            values[f"placeholder_{i}"] = float(p) if _is_number(p) else p
        if self.rekey == "pool":
            values["unit_separator"] = UNIT_SEPARATOR
        for slice_name, kept in self.slice_filter:
            values[f"select_{slice_name}"] = kept
        for i, name in enumerate(self.keep_raters):
            values[f"keep_rater_{i}"] = name
        return values

    def describe_slice(self, row: dict[str, Any]) -> dict[str, Any]:
        """The caller's group_by column names mapped to a result row's slice values."""
        return {g: row.get(s) for g, s in zip(self.group_by, self.slices)}

    def show_row(self, row: dict[str, Any]) -> str:
        """An offending row as the caller knows it: ``(item='7', rater='ann', metric='tone')``."""
        parts = [f"{self.item}={_short(row.get('item'))}", f"{self.rater}={_short(row.get('rater'))}"]
        if self.metric_label is not None:
            parts.append(f"{self.metric_label}={_short(row.get('metric'))}")
        parts += [f"{g}={_short(v)}" for g, v in self.describe_slice(row).items()]
        return "(" + ", ".join(parts) + ")"


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _column_name(value: Any, role: str) -> str:
    if not isinstance(value, str) or value == "":
        raise OptionError(f"{role}= must name a column (a non-empty string), got {value!r}")
    return value


def _resolve(relation: Relation, wanted: str, role: str) -> str:
    """The actual column for ``wanted`` (exact, else a unique case-insensitive match)."""
    names = [c.name for c in relation.columns]
    if wanted in names:
        return wanted
    folded = [c for c in names if c.lower() == wanted.lower()]
    if len(folded) == 1:
        return folded[0]
    available = ", ".join(repr(c) for c in names)
    raise ColumnError(f"{role} column {wanted!r} not found in {relation.description}; "
                      f"available columns: {available}")


def _has(relation: Relation, wanted: str) -> bool:
    names = [c.name for c in relation.columns]
    return wanted in names or sum(c.lower() == wanted.lower() for c in names) == 1


def check_placeholders(missing: Any) -> tuple[Any, ...]:
    """``missing=["*", "NA", -1]``: text placeholders and numbers that mean "no rating"."""
    if missing is None:
        return ()
    if isinstance(missing, (str, bytes)) or _is_number(missing):
        missing = [missing]
    try:
        values = list(missing)
    except TypeError:
        raise OptionError(f"missing= must be a list of placeholder values, e.g. ['NA', '*'], "
                          f"got {missing!r}") from None
    out: list[Any] = []
    for v in values:
        if hasattr(v, "item") and not isinstance(v, (str, bytes)):      # numpy scalars
            v = v.item()
        if isinstance(v, str):
            if v.strip() == "":
                continue                          # blank is always missing
            out.append(v.strip())
        elif _is_number(v) and math.isfinite(float(v)):
            out.append(float(v))
        else:
            raise OptionError(f"a missing= placeholder must be text or a finite number, got {v!r}")
    return tuple(dict.fromkeys(out))


def prepare(session: Session, relation: Relation, *, item: Any = "item", rater: Any = "rater",
            value: Any = "value", metric: Any = None, group_by: Any = None,
            on_duplicate: Any = None, missing: Any = None) -> RatingsSpec:
    """Check the requested columns against ``relation`` and describe the ratings relation."""
    if on_duplicate not in ON_DUPLICATE:
        raise OptionError(f"on_duplicate must be one of 'first', 'last', 'mean' (or None), "
                          f"got {on_duplicate!r}")
    item, rater, value = (_column_name(item, "item"), _column_name(rater, "rater"),
                          _column_name(value, "value"))
    metric = _column_name(metric, "metric") if metric is not None else None
    if group_by is None:
        groups_in: list[Any] = []
    elif isinstance(group_by, str):
        groups_in = [group_by]
    elif isinstance(group_by, (list, tuple)):
        groups_in = list(group_by)
    else:
        raise OptionError(f"group_by= must be a column name or a list of them, got {group_by!r}")
    defaults = (item, rater, value) == ("item", "rater", "value")
    if defaults and not _has(relation, "value") and all(_has(relation, c) for c in WORKSHOP.values()):
        item, rater, value = WORKSHOP["item"], WORKSHOP["rater"], WORKSHOP["value"]
    item = _resolve(relation, item, "item")
    rater = _resolve(relation, rater, "rater")
    value = _resolve(relation, value, "value")
    metric = _resolve(relation, metric, "metric") if metric is not None else None
    groups = tuple(_resolve(relation, _column_name(g, "group_by"), "group_by") for g in groups_in)
    roles = [("item", item), ("rater", rater), ("value", value)]
    roles += [("metric", metric)] if metric else []
    roles += [("group_by", g) for g in groups]
    seen: dict[str, str] = {}
    for role, column in roles:
        if column in seen:
            raise OptionError(f"column {column!r} is given as both {seen[column]} and {role}")
        seen[column] = role
    value_column = relation.column(value)
    fields: tuple[str, ...] = ()
    kinds: tuple[str, ...] = (value_column.kind if value_column.kind != STRUCT else "other",)
    if value_column.kind == STRUCT:
        if metric is not None:
            raise OptionError(f"value column {value!r} holds a ratings object (one rating per "
                              "question); it supplies the metric, so metric= must not be given")
        if not value_column.fields:
            raise OptionError(f"value column {value!r} is an empty object")
        fields = value_column.fields
        kinds = tuple(k if k != STRUCT else "other" for k in value_column.field_kinds)
    return RatingsSpec(session=session, relation=relation, item=item, rater=rater, value=value,
                       metric=metric, group_by=groups, struct_fields=fields, value_kinds=kinds,
                       placeholders=check_placeholders(missing), default_metric=value,
                       on_duplicate=on_duplicate,
                       metric_label=metric or ("question" if fields else None))


def materialize(spec: RatingsSpec) -> RatingsSpec:
    """Read the source once into a temporary canonical table; later statements read that table."""
    from .runner import run_template

    relation = run_template(spec.session, "materialize_ratings", spec.options(), spec.params(),
                            into="ratings")
    relation = replace(relation, description=spec.relation.description)
    return replace(spec, relation=relation, canonical=True, struct_fields=(),
                   source_slices=tuple(spec.slices), rekey="none", across_slice=None,
                   slice_filter=(), keep_raters=())
