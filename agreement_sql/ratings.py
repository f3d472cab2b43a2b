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
from .engine import has_column as _has, resolve_column as _resolve
from .errors import ColumnError, OptionError
from .sources import LAYOUT_COLUMN_PREFIX, Layout

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
    # how the item, rater and metric columns and each group_by column are written as id text
    # (engine.Column.id_kind; docs/decisions/0014)
    id_kinds: tuple[str, str, str, tuple[str, ...]] = ("text", "text", "text", ())
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
    # a peer's layout turned into long rows by sql/_ratings.sql.j2 (sources.Layout)
    layout: str = "long"
    layout_columns: tuple[str, ...] = ()    # wide: rater columns; counts, table: categories
    unit_from_row: bool = False             # no item column: a row's position is its unit
    numbers: str | None = None              # counts, table: k = 0 .. the largest cell - 1
    # a contingency table read by its cells, each one unit of weight w (decision layout_cells,
    # docs/decisions/0022; a counts table read so is state_weighted instead)
    cells: bool = False
    max_cell: int = 0                       # counts, table: the largest cell (layout_profile)
    # set-valued labels: every rating a set of elements joined by this separator, read as its
    # canonical text (sql/_ratings.sql.j2; docs/decisions/0028); None: ratings as they are
    set_separator: str | None = None
    # a batch state read as the source (agreement_sql.states): its section, or None; its
    # group columns; whether its counts are read as weighted rows (sql/_state_ratings.sql.j2)
    state: str | None = None
    state_groups: tuple[str, ...] = ()
    state_weighted: bool = False
    # routes decision unit_keys, taken by the call's session (agreement_sql.session): "native"
    # groups a whole-number item column as it is (native_item), "text" its id text
    unit_keys: str = "text"

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
    def whole_number_items(self) -> bool:
        """The caller's long table has an item column of whole numbers, whose id text (its
        digits) tells two values apart exactly as the numbers do: the per-unit passes may group
        the column as it is (routes decision ``unit_keys``)."""
        if self.canonical or self.state or self.layout != "long" or self.unit_from_row:
            return False
        column = next((c for c in self.relation.columns if c.name == self.item), None)
        return column is not None and column.value_kind == "integer"

    @property
    def native_item(self) -> bool:
        """The statements group the item column as it is (sql/_ratings.sql.j2 item_key): the
        route's choice (``unit_keys``) where the column allows it."""
        return self.unit_keys == "native" and self.whole_number_items

    @property
    def several(self) -> bool:
        """The caller asked for one result per metric or slice (metric=, group_by=, a ratings
        object; metric_label outlives materialize(), which clears struct_fields)."""
        return bool(self.metric or self.group_by or self.struct_fields or self.metric_label)

    def options(self, *, domain: Any = None, bootstrap: bool = False) -> dict[str, Any]:
        """The options of sql/_ratings.sql.j2 (every statement includes it)."""
        return {
            "source": self.relation.name,
            "source_form": ("canonical" if self.canonical else "state" if self.state
                            else "caller"),
            "item": self.item,
            "rater": self.rater,
            "value": self.value,
            "metric": self.metric,
            "group_by": list(self.group_by),
            "slices": self.slices,
            "struct_fields": list(self.struct_fields),
            "value_kinds": list(self.value_kinds),
            "native_item": self.native_item,
            "id_kinds": {"item": self.id_kinds[0], "rater": self.id_kinds[1],
                         "metric": self.id_kinds[2],
                         "slices": list(self.id_kinds[3]) or ["text"] * len(self.group_by)},
            "placeholders": ["text"] * len(self.placeholders),
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
            "layout": self.layout,
            "layout_columns": list(self.layout_columns),
            "unit_from_row": self.unit_from_row,
            "numbers": self.numbers,
            "cells": self.cells,
            "set_separator": self.set_separator is not None,
            "state_groups": list(self.state_groups),
            "state_weighted": self.state_weighted,
            "anonymous": self.state == "unit_values",
            # the input checks a statement carries itself (a rendering run by hand, a macro:
            # agreement_sql/rendering.py CHECKS); a call checks in Python instead
            "checks": [],
            # a statement that tests whether its route serves the ratings (macros only)
            "route_guard": False,
            "metric_switch": False,
        }

    def params(self) -> dict[str, Any]:
        values: dict[str, Any] = {"default_metric": self.default_metric}
        for i, name in enumerate(self.struct_fields):
            values[f"struct_field_{i}"] = name
        for i, p in enumerate(self.placeholders):
            values[f"placeholder_{i}"] = placeholder_text(p)
        if self.rekey == "pool":
            values["unit_separator"] = UNIT_SEPARATOR
        for slice_name, kept in self.slice_filter:
            values[f"select_{slice_name}"] = kept
        for i, name in enumerate(self.keep_raters):
            values[f"keep_rater_{i}"] = name
        for i, name in enumerate(self.layout_columns):
            values[f"layout_column_{i}"] = name
        if self.set_separator is not None:
            values["set_separator"] = self.set_separator
        return values

    def columns_read(self) -> list[str]:
        """The caller's columns the ratings relation reads (the engine keeps only these)."""
        if self.layout == "long":
            named = [self.item, self.rater, self.value]
        else:
            named = ([] if self.unit_from_row else [self.item]) + list(self.layout_columns)
        return named + ([self.metric] if self.metric else []) + list(self.group_by)

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


def placeholder_text(value: Any) -> str:
    """A placeholder as the text it is bound as: sql/_ratings.sql.j2 reads it by the rule it
    reads a value by (a number, or a label), so -1 and "-1" are one placeholder."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int) else repr(float(value))


def check_placeholders(missing: Any) -> tuple[Any, ...]:
    """``missing=["*", "NA", -1]``: text placeholders and numbers that mean "no rating"; text
    that reads as a number matches that number in any column (docs/decisions/0014)."""
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
            out.append(int(v) if isinstance(v, numbers.Integral) else float(v))
        else:
            raise OptionError(f"a missing= placeholder must be text or a finite number, got {v!r}")
    return tuple(dict.fromkeys(out))


def prepare(session: Session, relation: Relation, *, item: Any = "item", rater: Any = "rater",
            value: Any = "value", metric: Any = None, group_by: Any = None,
            on_duplicate: Any = None, missing: Any = None, layout: Layout | None = None,
            default_item: str | None = None, check_cells: bool = True) -> RatingsSpec:
    """Check the requested columns against ``relation`` and describe the ratings relation.

    ``layout``: a peer's wide, counts or contingency table (agreement_sql.sources.Layout);
    ``default_item``: the column naming each row when ``item`` is left at its default (a pandas
    index, R's row names); ``check_cells``: check a counts or contingency table's cells (a
    statement; False to learn only which columns a call reads, :meth:`RatingsSpec.columns_read`)."""
    if on_duplicate not in ON_DUPLICATE:
        raise OptionError(f"on_duplicate must be one of 'first', 'last', 'mean' (or None), "
                          f"got {on_duplicate!r}")
    if layout is not None and layout.kind != "long":
        return _prepare_layout(session, relation, layout, item=item, rater=rater, value=value,
                               metric=metric, group_by=group_by, on_duplicate=on_duplicate,
                               missing=missing, default_item=default_item,
                               check_cells=check_cells)
    item, rater, value = (_column_name(item, "item"), _column_name(rater, "rater"),
                          _column_name(value, "value"))
    metric = _column_name(metric, "metric") if metric is not None else None
    groups_in = _groups(group_by)
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
    kinds: tuple[str, ...] = (value_column.value_kind if value_column.kind != STRUCT else "other",)
    if value_column.kind == STRUCT:
        if metric is not None:
            raise OptionError(f"value column {value!r} holds a ratings object (one rating per "
                              "question); it supplies the metric, so metric= must not be given")
        if not value_column.fields:
            raise OptionError(f"value column {value!r} is an empty object")
        fields = value_column.fields
        numerics = value_column.field_numerics or ("",) * len(fields)
        kinds = tuple("other" if k == STRUCT else "integer" if k == "number" and n == "integer"
                      else k for k, n in zip(value_column.field_kinds, numerics))
    return RatingsSpec(session=session, relation=relation, item=item, rater=rater, value=value,
                       metric=metric, group_by=groups, struct_fields=fields, value_kinds=kinds,
                       id_kinds=_id_kinds(relation, item, rater, metric, groups),
                       placeholders=check_placeholders(missing), default_metric=value,
                       on_duplicate=on_duplicate,
                       metric_label=metric or ("question" if fields else None))


def _id_kinds(relation: Relation, item: str | None, rater: str | None, metric: str | None,
              groups: Sequence[str]) -> tuple[str, str, str, tuple[str, ...]]:
    def kind(column: str | None) -> str:
        return relation.column(column).id_kind if column is not None else "text"
    return (kind(item), kind(rater), kind(metric), tuple(kind(g) for g in groups))


def _groups(group_by: Any) -> list[Any]:
    if group_by is None:
        return []
    if isinstance(group_by, str):
        return [group_by]
    if isinstance(group_by, (list, tuple)):
        return list(group_by)
    raise OptionError(f"group_by= must be a column name or a list of them, got {group_by!r}")


def _prepare_layout(session: Session, relation: Relation, layout: Layout, *, item: Any,
                    rater: Any, value: Any, metric: Any, group_by: Any, on_duplicate: Any,
                    missing: Any, default_item: str | None, check_cells: bool) -> RatingsSpec:
    """A wide, counts or contingency table (sql/_ratings.sql.j2 turns it into long rows)."""
    kind = layout.kind
    raters_are = {"wide": "its columns (rater_columns=)", "counts": "anonymous (a count per "
                  "category)", "table": "A (the rows) and B (the columns)"}[kind]
    if rater != "rater":
        raise OptionError(f"rater= names the rater column of long rows; in layout={kind!r} the "
                          f"raters are {raters_are}")
    if value != "value":
        raise OptionError(f"value= names the rating column of long rows; in layout={kind!r} the "
                          + ("ratings are the cells" if kind == "wide"
                             else "categories are the columns and the cells are counts"))
    unit_from_row = item is None
    if item == "item" and default_item is not None:
        item = default_item
    elif item == "item" and not _has(relation, "item"):
        unit_from_row = True
    item_column = None if unit_from_row else _resolve(relation, _column_name(item, "item"), "item")
    metric = _resolve(relation, _column_name(metric, "metric"), "metric") if metric is not None else None
    groups = tuple(_resolve(relation, _column_name(g, "group_by"), "group_by") for g in _groups(group_by))
    roles = [("item", item_column)] if item_column else []
    roles += [("metric", metric)] if metric else []
    roles += [("group_by", g) for g in groups]
    seen: dict[str, str] = {}
    for role, column in roles:
        if column in seen:
            raise OptionError(f"column {column!r} is given as both {seen[column]} and {role}")
        seen[column] = role
    if layout.rater_columns is not None:
        columns = tuple(_resolve(relation, c, "rater") for c in layout.rater_columns)
        for c in columns:
            if c in seen:
                raise OptionError(f"column {c!r} is given as both {seen[c]} and a rater column")
    else:
        columns = tuple(c.name for c in relation.columns if c.name not in seen)
    reserved = [c for c in (x.name for x in relation.columns)
                if c.lower() in (LAYOUT_COLUMN_PREFIX + "order", LAYOUT_COLUMN_PREFIX + "row")]
    if reserved:
        raise OptionError(f"column {reserved[0]!r} is a name the layout adapter uses for itself; "
                          "rename it")
    what = "rater" if kind == "wide" else "category"
    if not columns:
        raise OptionError(f"{relation.description} has no {what} columns: layout={kind!r} reads "
                          f"one column per {what} besides the unit, metric and group_by columns")
    kinds = []
    for c in columns:
        col_kind = relation.column(c).kind
        if col_kind == STRUCT:
            raise OptionError(f"{what} column {c!r} holds objects, not " +
                              ("ratings" if kind == "wide" else "counts"))
        kinds.append(relation.column(c).value_kind if kind == "wide" else "text")
    label = {"wide": "column", "counts": "rater", "table": "rater"}[kind]
    spec = RatingsSpec(session=session, relation=relation,
                       item=item_column or ("row" if kind != "table" else "cell"),
                       rater=label, value=value, metric=metric, group_by=groups,
                       value_kinds=tuple(kinds), placeholders=check_placeholders(missing),
                       id_kinds=_id_kinds(relation, item_column, None, metric, groups),
                       default_metric=value, on_duplicate=on_duplicate, metric_label=metric,
                       layout=kind, layout_columns=columns, unit_from_row=unit_from_row)
    if kind in ("counts", "table") and check_cells:
        spec = _checked_cells(spec)
    return spec


def by_cells(spec: RatingsSpec) -> bool:
    """``spec`` is a counts or contingency table not yet expanded into ratings: its cells can
    be read once each with their multiplicity (agreement_sql.routes.layout_reader)."""
    return spec.layout in ("counts", "table") and not spec.canonical and spec.numbers is None


def read_by_cells(spec: RatingsSpec) -> RatingsSpec:
    """``spec`` (a counts or contingency table) read by its nonzero cells, each once with its
    multiplicity w (sql/_ratings.sql.j2#layout_cells__cells): a counts table's cells as
    weighted ratings (state_weighted, as a batch state's counts), a contingency table's as
    weighted units (cells). Nothing is registered: the cost follows the cells."""
    if spec.layout == "counts":
        return replace(spec, state_weighted=True)
    return replace(spec, cells=True)


def expanded_layout(spec: RatingsSpec) -> RatingsSpec:
    """``spec`` (a counts or contingency table) expanded into long ratings, materialised once:
    the numbers its expansion joins (k = 0 .. the largest cell - 1) registered now, when the
    route takes the expansion (docs/decisions/0022). Any other spec as it is."""
    if not by_cells(spec):
        return spec
    import pyarrow as pa

    from .constants import MAX_EXPANDED_CELL
    if spec.max_cell > MAX_EXPANDED_CELL:
        raise OptionError(
            f"{spec.relation.description}: this call reads the {spec.layout} table as one "
            f"rating row per count, and a cell holds {spec.max_cell:,} (more than "
            f"{MAX_EXPANDED_CELL:,}, the most a cell is expanded for); the coefficient "
            "functions read a counts or contingency table by its cells, without expanding it, "
            "with an analytic interval (ci_method='analytic': the bootstrap resamples units "
            "one by one) and, for a contingency table, at most 16 categories and no "
            "conger_kappa interval (docs/decisions/0022)")

    numbers = spec.session.register_arrow(
        pa.table({"k": pa.array(range(spec.max_cell), type=pa.int64())}), "numbers")
    return materialize(replace(spec, numbers=numbers, cells=False, state_weighted=False))


def _checked_cells(spec: RatingsSpec) -> RatingsSpec:
    """Check a counts or contingency table's cells (sql/layout_profile.sql.j2) and note the
    largest (the numbers an expansion joins, registered only when one is taken)."""
    from .errors import InvalidRatingError, SourceError
    from .runner import query

    rows = query(spec.session, "layout_profile", {"source": spec.relation.name,
                                                  "layout_columns": list(spec.layout_columns)}, {})
    summary = next(r for r in rows if r["part"] == "summary")
    bad = [r for r in rows if r["part"] == "bad"]
    if bad:
        first = bad[0]
        raise InvalidRatingError(
            f"{spec.relation.description}: {int(summary['n_bad'])} cell(s) of the "
            f"{spec.layout} table are not counts (whole numbers from 0); the first, row "
            f"{int(first['row_pos'])} (from 0) column {spec.layout_columns[int(first['col'])]!r}, "
            f"is {_short(first['t'])}")
    n_rows = int(summary["n_rows"] or 0)
    if spec.layout == "table" and spec.unit_from_row and n_rows != len(spec.layout_columns):
        raise SourceError(
            f"{spec.relation.description}: a contingency table without a column naming each "
            f"row's category must be square (row i is the category of column i), but it has "
            f"{n_rows} rows and {len(spec.layout_columns)} columns; name the row-category column "
            "with item=")
    return replace(spec, max_cell=int(summary["max_count"] or 0))


def materialize(spec: RatingsSpec) -> RatingsSpec:
    """Read the source once into a temporary canonical table; later statements read that table."""
    from .runner import run_template

    relation = run_template(spec.session, "materialize_ratings", spec.options(), spec.params(),
                            into="ratings")
    relation = replace(relation, description=spec.relation.description)
    return replace(spec, relation=relation, canonical=True, struct_fields=(),
                   source_slices=tuple(spec.slices), rekey="none", across_slice=None,
                   slice_filter=(), keep_raters=())
