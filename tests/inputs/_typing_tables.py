"""Random annotation tables and the formats they are written in, for the differential tests of
the typing rule (docs/decisions/0014; tests/inputs/test_typing_rule.py, and its Spark leg in
tests/engines/test_spark_typing_rule.py).

A *logical table* is a dict of columns, each a kind and a list of Python values. Its kinds:
``int``, ``float``, ``bool``, ``text`` (a typed column, None for a null), and ``mixed`` (numbers,
text and booleans in one column, as a JSON field or a pandas object column can hold). Every
writer below writes the same logical table the way a common tool does:

* CSV and TSV as pandas' and R's writers do: an integer in digits, a float as Python's repr
  (7.0), a boolean as the table's ``bool_style`` (pandas ``True``, R ``TRUE``, or ``true``),
  None and NaN as an empty field, text as it is (quoted by the csv module when needed);
* JSON (an array) and JSON Lines with Python's json module: values as they are, NaN as null;
* Parquet, an Arrow table, a polars DataFrame and a DuckDB table with one Arrow type per column
  (int64, float64, bool, string); a mixed column as the text of each value (the text its CSV
  holds, booleans as true/false), since these formats hold one type per column;
* a pandas DataFrame with nullable dtypes (Int64, boolean) and a mixed column as an object
  column of the Python values themselves (the package reads it, sources.as_arrow).

The same logical table must give the same result from every one (the rule's promise): only a
DuckDB table cannot hold two column names that differ only in case, so that format is left out
for such a table.
"""
from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import dataclass
from typing import Any, Callable

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import strategies as st

import agreement_sql as ag
from conftest import as_any_format

# ids: few distinct values so that units get several ratings and raters collide; numbers and
# their text (1 and "1", 7.0 and "7.0"), case and spaces that must stay apart, unicode, the
# spellings of a boolean, text a CSV must quote
ID_INTS = st.integers(min_value=0, max_value=3)
ID_FLOATS = st.sampled_from([0.0, 1.0, 2.0, 2.5, -1.0])
ID_TEXTS = st.sampled_from(["1", "2", "1.0", "a", "A", " a", "é", "日本", "TRUE", "x,y", 'q"t',
                            "tab\there"])
# ratings: numbers, numeric text, labels (one spelled like a missing marker), placeholders,
# booleans and their spellings, blanks, NaN, a code of 2^53 + 1 and a float past 2^53
VALUE_INTS = st.one_of(st.integers(min_value=-1, max_value=4), st.just(2 ** 53 + 1))
VALUE_FLOATS = st.sampled_from([0.0, 1.0, 2.5, -1.0, 3.0, math.nan])
VALUE_TEXTS = st.sampled_from(["1", " 2 ", "01", "1e0", "-0", "x", "y", "NA", "n/a", "-1", "*",
                               "", "  ", "True", "FALSE", "nan", "ü", "1_0"])
BOOLS = st.booleans()
KINDS = ("int", "float", "bool", "text", "mixed")


def _values(kind: str, ints: Any, floats: Any, texts: Any, n: int, null_share: float) -> Any:
    one = {"int": ints, "float": floats, "bool": BOOLS, "text": texts,
           "mixed": st.one_of(ints, floats, texts, BOOLS)}[kind]
    cell = st.one_of(st.none(), one) if null_share else one
    return st.lists(cell, min_size=n, max_size=n)


@dataclass(frozen=True)
class Table:
    columns: dict[str, tuple[str, list[Any]]]
    bool_style: str
    call: dict[str, Any]            # the column names a call gives, and missing=

    @property
    def names(self) -> list[str]:
        return list(self.columns)

    @property
    def colliding(self) -> bool:
        return len({n.lower() for n in self.columns}) != len(self.columns)

    @property
    def n_rows(self) -> int:
        return len(next(iter(self.columns.values()))[1])


@st.composite
def tables(draw: Any, max_rows: int = 10) -> Table:
    n = draw(st.integers(min_value=1, max_value=max_rows))
    columns: dict[str, tuple[str, list[Any]]] = {}

    def add(name: str, kinds: tuple[str, ...], ints: Any, floats: Any, texts: Any,
            nulls: bool = False) -> None:
        kind = draw(st.sampled_from(kinds))
        columns[name] = (kind, draw(_values(kind, ints, floats, texts, n, 0.1 if nulls else 0)))

    add("item", KINDS, ID_INTS, ID_FLOATS, ID_TEXTS, nulls=draw(st.booleans()))
    add("rater", ("int", "text", "mixed", "float"), ID_INTS, ID_FLOATS,
        st.sampled_from(["a", "b", "A", "7", "ann", "Ann"]))
    add("value", KINDS, VALUE_INTS, VALUE_FLOATS, VALUE_TEXTS, nulls=True)
    call: dict[str, Any] = {}
    if draw(st.booleans()):
        # a column whose name differs from value's only in case; the call names one of them
        add("VALUE", KINDS, VALUE_INTS, VALUE_FLOATS, VALUE_TEXTS, nulls=True)
        call["value"] = draw(st.sampled_from(["value", "VALUE"]))
    if draw(st.booleans()):
        add("metric", ("text", "mixed"), st.sampled_from([1, 2]), ID_FLOATS,
            st.sampled_from(["m1", "m2", "M1"]))
        call["metric"] = "metric"
    if draw(st.booleans()):
        add("slice", ("int", "bool", "text", "float"), ID_INTS, ID_FLOATS,
            st.sampled_from(["s", "t", "true"]))
        call["group_by"] = ["slice"]
    missing = draw(st.sampled_from([None, ["NA"], ["-1"], [-1], ["*", "n/a"], [2.5], ["true"]]))
    if missing is not None:
        call["missing"] = missing
    return Table(columns=columns, bool_style=draw(st.sampled_from(["True", "TRUE", "true"])),
                 call=call)


# -- writing one logical table in each format ------------------------------------------------

def _is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def csv_text(v: Any, bool_style: str) -> str:
    if v is None or _is_nan(v):
        return ""
    if isinstance(v, bool):
        return bool_style if v else bool_style.replace("True", "False").replace(
            "TRUE", "FALSE").replace("true", "false")
    if isinstance(v, float):
        return repr(v)
    return str(v)


def typed_text(v: Any) -> str | None:
    """A mixed column's cell in a typed format: the package's own text of a value."""
    from agreement_sql.sources import value_text

    return value_text(v)


def arrow_table(table: Table) -> pa.Table:
    arrays = {}
    for name, (kind, values) in table.columns.items():
        if kind == "int":
            arrays[name] = pa.array(values, type=pa.int64())
        elif kind == "float":
            arrays[name] = pa.array(values, type=pa.float64())
        elif kind == "bool":
            arrays[name] = pa.array(values, type=pa.bool_())
        elif kind == "text":
            arrays[name] = pa.array(values, type=pa.string())
        else:
            arrays[name] = pa.array([typed_text(v) for v in values], type=pa.string())
    return pa.table(arrays)


def pandas_frame(table: Table) -> Any:
    import pandas as pd

    data = {}
    for name, (kind, values) in table.columns.items():
        if kind == "int":
            data[name] = pd.array(values, dtype="Int64")
        elif kind == "bool":
            data[name] = pd.array(values, dtype="boolean")
        elif kind == "float":
            data[name] = pd.array([math.nan if v is None else v for v in values], dtype="float64")
        else:
            data[name] = pd.Series(values, dtype=object)
    return pd.DataFrame(data)


def write_csv(table: Table, path: str, delimiter: str = ",") -> str:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle, delimiter=delimiter, quotechar='"', lineterminator="\n")
        out.writerow(table.names)
        for i in range(table.n_rows):
            out.writerow([csv_text(values[i], table.bool_style)
                          for _, values in table.columns.values()])
    return path


def _json_rows(table: Table) -> list[dict[str, Any]]:
    return [{name: (None if _is_nan(values[i]) else values[i])
             for name, (_, values) in table.columns.items()} for i in range(table.n_rows)]


def write_json(table: Table, path: str, lines: bool) -> str:
    rows = _json_rows(table)
    with open(path, "w", encoding="utf-8") as handle:
        if lines:
            handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
        else:
            json.dump(rows, handle, ensure_ascii=False)
    return path


def duckdb_table(table: Table) -> tuple[str, Any]:
    import duckdb

    con = duckdb.connect()
    con.register("agreement_test_input", arrow_table(table))
    con.execute('CREATE TABLE "ratings" AS SELECT * FROM agreement_test_input')
    con.unregister("agreement_test_input")
    return "ratings", con


# format name -> how to make the source (and the con= it needs) in a folder
Source = tuple[Any, Any, str]        # (source, con, how messages name it)


def formats(table: Table, folder: str) -> dict[str, Callable[[], Source]]:
    def path(name: str) -> str:
        return os.path.join(folder, name)

    out: dict[str, Callable[[], Source]] = {
        "csv": lambda: (p := write_csv(table, path("r.csv")), None, repr(p)),
        "tsv": lambda: (p := write_csv(table, path("r.tsv"), "\t"), None, repr(p)),
        "json": lambda: (p := write_json(table, path("r.json"), lines=False), None, repr(p)),
        "jsonl": lambda: (p := write_json(table, path("r.jsonl"), lines=True), None, repr(p)),
        "parquet": lambda: (p := _parquet(table, path("r.parquet")), None, repr(p)),
        "arrow": lambda: (arrow_table(table), None, "the Arrow table"),
        "pandas": lambda: (pandas_frame(table), None, "the pandas DataFrame"),
        "polars": lambda: (_polars(table), None, "the polars DataFrame"),
    }
    if not table.colliding:
        out["duckdb table"] = lambda: (*duckdb_table(table), "table 'ratings'")
    return out


def _parquet(table: Table, path: str) -> str:
    pq.write_table(arrow_table(table), path)
    return path


def _polars(table: Table) -> Any:
    import polars as pl

    return pl.from_arrow(arrow_table(table))


# -- what is compared ------------------------------------------------------------------------

# the coefficients a call computes (one statement; every coefficient costs a slow run only a
# little more, but the statement's planning dominates a small table's call)
WHICH = ["fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "percent_agreement"]
CALLS: dict[str, Callable[..., Any]] = {
    "coefficients": lambda source, con, call: ag.coefficients(source, con=con, which=WHICH, **call),
    "pairwise_agreement": lambda source, con, call: ag.pairwise_agreement(
        source, con=con, **{k: v for k, v in call.items() if k != "group_by"}),
    "irr": lambda source, con, call: ag.irr(
        source, con=con, **{k: v for k, v in call.items() if k != "group_by"}),
}


def outcome(call: Callable[[], Any], description: str) -> str:
    """A call's result as canonical JSON, or its typed error (class and message, the source's
    description written <source>: it names the file or the kind of table). Any other
    exception is not caught: an untyped error is a defect."""
    try:
        # the route record may say whole-number items were grouped as they are: the source's
        # column types settle it (routes.Decision.by_source_types), not the answer
        return json.dumps(as_any_format(call()), sort_keys=True, allow_nan=False,
                          ensure_ascii=False)
    except ag.AgreementError as exc:
        return f"{type(exc).__name__}: {str(exc).replace(description, '<source>')}"
