"""Results as tables: every result dict flattened to long, typed rows, and written (decision 0024).

One function, :func:`rows`, turns any result of a public call (agreement_sql.results: a result
dict, a list of them per slice, a mapping of them per coefficient or per metric, the IRR report
with its per-question scores) into rows: **one row per slice and coefficient**. Python moves
fields here; it computes nothing (every number is the result's own, unrounded as returned).

A row's columns, in order:

* ``function``: the public function that made it (``coefficients``, ``irr``, ``icc`` ...);
* ``metric``: the rubric question (None when the call had none, or for a report's overall row);
* ``group_<column>``: the slice's value of each ``group_by`` column, with its own type;
* ``coefficient``: the result's ``coefficient`` (``cohen_kappa``, ``lin_ccc`` ...), else its
  ICC ``form``, else the function's name (a report, a workflow);
* then every other field of the result, by name: a number, text, boolean or None as it is; a
  mapping of plain values spread into ``<field>_<key>`` columns (``n_excluded_missing``,
  ``scale_kind``); the ``conventions`` as ``convention_<key>`` text columns; anything else (a
  list, a nested mapping, ``route``) as its JSON text.

The IRR report's ``per_metric_scores`` (a mapping question -> scores) are slices: one row per
question (``metric`` set, the report's conventions repeated), after the report's overall row.
Likewise category_agreement's ``categories`` (a list of records, each naming its ``category``):
one row per category (the slice's metric, group and conventions repeated, a ``category``
column), after the slice's row.

:func:`write` writes the rows where ``to=`` says: a ``.parquet`` or ``.csv`` file (atomic and
never onto an input: agreement_sql.outputs, decision 0016), or ``("table", name)``, a new table
on the caller's DuckDB connection: the one write to the caller's database, done only when asked
(decision 0015's exception, recorded in 0024).
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
from typing import Any, Iterable, Mapping

from .errors import OptionError

KEYS = ("function", "metric", "coefficient", "category")
SLICE_FIELDS = {"per_metric_scores": "metric"}     # a report's per-question results: rows
LIST_FIELDS = ("categories",)      # category_agreement's per-category records: rows
FORMATS = (".parquet", ".csv")


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, bool, int, float))


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str, allow_nan=False)


def _is_record(node: Mapping[str, Any]) -> bool:
    """A result (not a mapping of results): it holds a plain value of its own."""
    return any(_plain(v) for v in node.values())


def rows(result: Any, function: str) -> list[dict[str, Any]]:
    """The long rows of ``result`` (see the module's docstring)."""
    out: list[dict[str, Any]] = []
    _walk(result, function, {}, out)
    return out


def _walk(node: Any, function: str, context: dict[str, Any], out: list[dict[str, Any]]) -> None:
    if isinstance(node, list):
        for element in node:
            _walk(element, function, context, out)
    elif isinstance(node, Mapping):
        if not node:
            return
        inner = dict(context)
        if isinstance(node.get("coefficients"), Mapping):     # coefficients() per slice
            if node.get("metric") is not None and _plain(node.get("metric")):
                inner["metric"] = node["metric"]
            if isinstance(node.get("group"), Mapping):
                inner["group"] = node["group"]
            _walk(node["coefficients"], function, inner, out)
            return
        if _is_record(node):
            _record(node, function, context, out)
            return
        for key, value in node.items():
            if isinstance(value, Mapping) and value and _is_record(value) \
                    and "coefficient" not in value and "metric" not in value:
                _walk(value, function, {**inner, "metric": key}, out)
            else:
                _walk(value, function, inner, out)
    # a bare value (a fingerprint, a rendering): no row


def _record(node: Mapping[str, Any], function: str, context: dict[str, Any],
            out: list[dict[str, Any]]) -> None:
    row: dict[str, Any] = {"function": function, "metric": context.get("metric")}
    if node.get("metric") is not None and _plain(node.get("metric")):
        row["metric"] = node.get("metric")
    group = node.get("group") if isinstance(node.get("group"), Mapping) else context.get("group")
    for key, value in (group or {}).items():
        row[f"group_{key}"] = value if _plain(value) else _json(value)
    name = node.get("coefficient") if isinstance(node.get("coefficient"), str) else None
    if name is None and isinstance(node.get("form"), str):
        name = node["form"]
    row["coefficient"] = name or function
    slices: list[tuple[str, Mapping[str, Any]]] = []
    listed: list[Mapping[str, Any]] = []
    for key, value in node.items():
        if key in ("metric", "group", "coefficient"):
            continue
        if key in SLICE_FIELDS and isinstance(value, Mapping):
            slices.extend((str(k), v) for k, v in value.items() if isinstance(v, Mapping))
            continue
        if key in LIST_FIELDS and isinstance(value, list) and \
                all(isinstance(v, Mapping) for v in value):
            listed.extend(value)
            continue
        _field(row, key, value)
    out.append(row)
    conventions = {k: v for k, v in row.items() if k.startswith("convention_")}
    for metric, scores in slices:
        sliced: dict[str, Any] = {"function": function, "metric": metric}
        sliced.update({k: v for k, v in row.items() if k.startswith("group_")})
        sliced["coefficient"] = function
        for key, value in scores.items():
            _field(sliced, key, value)
        sliced.update(conventions)
        out.append(sliced)
    for record in listed:
        each: dict[str, Any] = {k: v for k, v in row.items() if k in ("function", "metric")
                                or k.startswith("group_") or k == "coefficient"}
        for key, value in record.items():
            _field(each, key, value)
        each.update(conventions)
        out.append(each)


def _field(row: dict[str, Any], key: str, value: Any) -> None:
    if key == "conventions" and isinstance(value, Mapping):
        for k, v in value.items():
            row[f"convention_{k}"] = v if isinstance(v, str) or v is None else _json(v)
    elif _plain(value):
        row[key] = value
    elif isinstance(value, Mapping) and value and all(_plain(v) for v in value.values()):
        for k, v in value.items():
            row[f"{key}_{k}"] = v
    else:
        row[key] = _json(value)


# -- typing ------------------------------------------------------------------------------------

def columns(table_rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each column's type, in first-seen order: ``boolean``, ``bigint``, ``double``, ``text``
    (a column whose values are of more than one kind, numbers aside, is text: its values'
    JSON), or ``text`` when every value is None."""
    kinds: dict[str, set[str]] = {}
    for row in table_rows:
        for key, value in row.items():
            seen = kinds.setdefault(key, set())
            if value is None:
                continue
            seen.add("boolean" if isinstance(value, bool) else "bigint" if isinstance(value, int)
                     else "double" if isinstance(value, float) else "text")
    typed: dict[str, str] = {}
    for key, seen in kinds.items():
        if seen == {"bigint", "double"}:
            typed[key] = "double"
        elif len(seen) == 1:
            typed[key] = next(iter(seen))
        else:
            typed[key] = "text"
    return typed


def _cell(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "double":
        value = float(value)
        return None if math.isnan(value) else value
    if kind == "text" and not isinstance(value, str):
        return _json(value)
    return value


def arrow(table_rows: list[dict[str, Any]]) -> Any:
    """The rows as an Arrow table, each column typed by :func:`columns`."""
    import pyarrow as pa

    typed = columns(table_rows)
    types = {"boolean": pa.bool_(), "bigint": pa.int64(), "double": pa.float64(),
             "text": pa.string()}
    return pa.table({key: pa.array([_cell(r.get(key), kind) for r in table_rows],
                                   type=types[kind]) for key, kind in typed.items()},
                    schema=pa.schema([(key, types[kind]) for key, kind in typed.items()]))


def csv_text(table_rows: list[dict[str, Any]]) -> str:
    """The rows as CSV (RFC 4180, a header line; None as an empty field; numbers as Python's
    repr, which reads back to the same double)."""
    typed = columns(table_rows)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(list(typed))
    for row in table_rows:
        cells = []
        for key, kind in typed.items():
            value = _cell(row.get(key), kind)
            cells.append("" if value is None else ("true" if value is True else "false"
                         if value is False else repr(value) if kind == "double" else value))
        writer.writerow(cells)
    return buffer.getvalue()


# -- the destinations --------------------------------------------------------------------------

def check_to(to: Any) -> None:
    """Refuse a ``to=`` that names no destination (OptionError naming it)."""
    if isinstance(to, tuple) and len(to) == 2 and to[0] == "table":
        if not isinstance(to[1], str) or not to[1].strip():
            raise OptionError(f"to=('table', name) needs a table name, got {to[1]!r}")
        return
    if isinstance(to, bool) or not isinstance(to, (str, os.PathLike)):
        raise OptionError(f"to= must be a .parquet or .csv path or ('table', name), got {to!r}")
    if not os.fspath(to).lower().endswith(FORMATS):
        raise OptionError(f"to= must end in .parquet or .csv (or be ('table', name)), "
                          f"got {os.fspath(to)!r}")


def destination(to: Any, *, inputs: Any = None, con: Any = None,
                what: str = "to=") -> "Destination":
    """``to`` checked before the call runs: a file path that is no input and whose folder
    exists (agreement_sql.outputs), or a table name free on the caller's DuckDB connection."""
    check_to(to)
    if isinstance(to, tuple):
        _refuse_table(to[1], con)
        return Destination(table=to[1], con=con)
    from .outputs import Output

    return Destination(output=Output(os.fspath(to), what, inputs=inputs))


class Destination:
    """Where one call's rows go (:func:`destination`); :meth:`write` writes them."""

    def __init__(self, *, output: Any = None, table: str | None = None, con: Any = None) -> None:
        self.output, self.table, self.con = output, table, con

    def write(self, result: Any, function: str) -> None:
        from .outputs import OutputSet

        table_rows = rows(result, function)
        if self.table is not None:
            _refuse_table(self.table, self.con)
            # one statement, CREATE TABLE ... AS: all the rows or none
            self.con.from_arrow(arrow(table_rows)).create(self.table)
            return
        output = self.output
        with OutputSet([output]):
            temp = output.open_temp()
            if output.path.lower().endswith(".parquet"):
                import pyarrow.parquet as pq

                pq.write_table(arrow(table_rows), temp)
            else:
                with open(temp, "w", encoding="utf-8", newline="") as handle:
                    handle.write(csv_text(table_rows))
            output.commit()


def write(result: Any, to: Any, *, function: str, inputs: Any = None, con: Any = None,
          what: str = "to=") -> None:
    """Write ``result``'s rows to ``to`` (see the module's docstring)."""
    destination(to, inputs=inputs, con=con, what=what).write(result, function)


def _refuse_table(name: str, con: Any) -> None:
    """The caller's DuckDB connection, and ``name`` free on it: a name already taken (a table,
    a view, the input itself) is refused, never replaced."""
    import duckdb

    if not isinstance(con, duckdb.DuckDBPyConnection):
        raise OptionError("to=('table', name) writes on the caller's DuckDB connection: pass "
                          "con= a duckdb connection (or write to a .parquet/.csv path)")
    try:
        con.table(name)
    except duckdb.Error:
        return
    raise OptionError(f"to=('table', {name!r}): a table or view of that name exists on the "
                      "connection; agreement-sql does not replace it (drop it or name another)")
