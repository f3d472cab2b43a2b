"""The engine boundary's types: relations, columns, the session and engine interfaces.

(agreement_sql.engine re-exports them; the engines import them from here, so that no engine
imports the package that chooses among them.)

The engine boundary: everything agreement-sql asks of a database, in one small interface.

A metric call opens a :class:`Session` (its own cursor, its own temporary objects), registers
its source, runs rendered templates with bound parameters, and closes the session, which
drops every temporary object it made. Nothing else in the package talks to a database driver.

DuckDB (:mod:`agreement_sql.engine.duckdb`) is the embedded default. ``con=`` in every public
function takes a DuckDB connection (the package opens a cursor of it per call and never runs a
statement on the connection itself), an :class:`Engine`, or None (a private in-memory DuckDB
connection per thread).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, Union

from ..dialects import Dialect
from ..errors import ColumnError

# normalised column kinds, what the canonical ratings relation needs to know of a column
NUMBER, BOOLEAN, TEXT, STRUCT, OTHER = "number", "boolean", "text", "struct", "other"
# the kinds of number a NUMBER column holds (Column.numeric; docs/decisions/0014): whole-number
# types (and DECIMAL of scale 0), binary floating point, DECIMAL with a fractional part
INTEGER, FLOAT, DECIMAL = "integer", "float", "decimal"


@dataclass(frozen=True)
class Column:
    """A column of a registered relation: its name, its kind and, for a struct, its fields."""

    name: str
    kind: str
    type_name: str
    fields: tuple[str, ...] = ()          # a struct's field names
    field_kinds: tuple[str, ...] = ()     # and their kinds
    numeric: str = ""                     # NUMBER: INTEGER, FLOAT or DECIMAL
    field_numerics: tuple[str, ...] = ()  # a struct's fields' numeric kinds

    @property
    def value_kind(self) -> str:
        """The kind sql/_ratings.sql.j2 reads the column's values as: "integer" for whole-number
        types (a code of 2^53 or more is kept as its digits), else the column's kind."""
        return "integer" if self.kind == NUMBER and self.numeric == INTEGER else self.kind

    @property
    def id_kind(self) -> str:
        """The kind sql/_ratings.sql.j2 writes the column's values as id text from: "float" for
        binary floating point (written as Python and DuckDB write it, on every engine), "text",
        "boolean", else "other" (the engine's text of the value)."""
        if self.kind == NUMBER:
            return "float" if self.numeric == FLOAT else "other"
        return self.kind if self.kind in (TEXT, BOOLEAN) else OTHER


@dataclass(frozen=True)
class Relation:
    """A relation a session can read: its generated name, its columns, how it reads."""

    name: str
    columns: tuple[Column, ...]
    description: str
    cheap_scan: bool            # reading it again costs a columnar scan (else: copy it first)
    # the column naming each row when the source has one of its own: the first column of a CSV
    # whose header names it "" (R's write.csv writes its row names there), read as "row_names"
    row_names: str | None = None

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


# read_source(columns=): the names of the columns to keep, or a function of the source's columns
# (a Relation that describes them; the function must not read it) that returns those names
Columns = Union[Sequence[str], Callable[[Relation], Sequence[str]]]


def kept_columns(relation: Relation, columns: Columns | None) -> tuple[str, ...]:
    """The columns of ``relation`` that ``columns`` keeps (None: every column), in the
    relation's order: each name resolved as every column a caller names is (an exact match
    wins; else a case-insensitive match when there is one only; otherwise a ColumnError naming
    the available columns). The kept columns must differ in more than case: SQL names a column
    without regard to case (DuckDB; Spark by default), so of ``value`` and ``VALUE`` a call
    reads the one it names, and naming both is a ColumnError (docs/decisions/0014)."""
    if columns is None:
        wanted: Sequence[str] = [c.name for c in relation.columns]
    else:
        wanted = columns(relation) if callable(columns) else columns
        if isinstance(wanted, str):
            wanted = [wanted]
        wanted = [resolve_column(relation, name, "kept") for name in wanted]
    found = list(dict.fromkeys(wanted))
    seen: dict[str, str] = {}
    for name in found:
        other = seen.setdefault(name.lower(), name)
        if other != name or sum(c.name == name for c in relation.columns) > 1:
            twice = (f"columns {other!r} and {name!r} differ only in case" if other != name
                     else f"column {name!r} appears more than once")
            raise ColumnError(f"{relation.description}: {twice}; SQL names columns without "
                              "regard to case, so a call reads one of them only: name one "
                              "column (exactly) per role, or rename the other")
    order = {c.name: i for i, c in enumerate(relation.columns)}
    return tuple(sorted(found, key=order.__getitem__))


def colliding(names: Sequence[str]) -> bool:
    """Whether two of ``names`` are equal once case is ignored (or equal outright)."""
    return len({n.lower() for n in names}) != len(names)


def keeping(relation: Relation, kept: Sequence[str]) -> Relation:
    """``relation`` described by the ``kept`` columns only (a source read where it is: nothing
    is copied, and statements read only the columns they name)."""
    return replace(relation, columns=tuple(c for c in relation.columns if c.name in set(kept)))


class Session(Protocol):
    """One call's access to the database. Every method raises AgreementError subclasses only."""

    dialect: Dialect

    def read_source(self, source: Any, *, columns: Columns | None = None) -> Relation:
        """Register a caller's source (path, glob, in-memory table, native relation, table name).

        ``columns`` (:data:`Columns`, :func:`kept_columns`): the relation lists only those
        columns, and a source the engine copies (on DuckDB a text file or a streamed relation)
        is copied with only those, so a column not kept is not read (its text not checked);
        None keeps every column. When choosing the columns fails, such a source is read in full
        first, so that a malformed file is still reported as such. (Spark parses and caches a
        text file's every column, as without ``columns``.)"""

    def register_arrow(self, table: Any, kind: str) -> str:
        """Register an Arrow table the package built (a workflow's parsed input)."""

    def materialize(self, sql: str, params: dict[str, Any], kind: str) -> Relation:
        """Run a SELECT into a temporary relation under a generated name."""

    def query(self, sql: str, params: dict[str, Any], *, what: str) -> list[dict[str, Any]]:
        """Run one statement and return its rows as dicts (SQL NULL as None)."""

    def query_parts(self, sql: str, params: dict[str, Any], *, what: str,
                    parts: Mapping[str, Sequence[str]],
                    sinks: Mapping[str, Any] | None = None) -> dict[str, dict[str, list[Any]]]:
        """Run a statement whose rows are tagged by a column ``part`` and ordered by it, and
        return, for each part named in ``parts``, its rows column by column: ``{part: {column:
        [value per row]}}``, only the columns listed for that part (every listed part present,
        empty when it has no row), with :meth:`query`'s Python values. For results of many rows,
        read without building a dict per row or converting another part's NULL columns.
        ``sinks``: parts written to files instead (agreement_sql.sinks.ParquetSink, closed
        here, an empty file when the part has no row); such a part is not returned."""

    def close(self) -> None:
        """Drop every temporary object of the session and release it."""


class Engine(Protocol):
    """A database agreement-sql can run on (DuckDB; Spark, :mod:`agreement_sql.engine.spark`)."""

    dialect: Dialect

    def session(self) -> Session: ...


def resolve_column(relation: Relation, wanted: str, role: str) -> str:
    """The actual column for ``wanted``: an exact match wins; else a case-insensitive match when
    there is one only (docs/decisions/0014). A name the source holds twice, or one that matches
    several columns only case-insensitively, is a ColumnError naming them."""
    names = [c.name for c in relation.columns]
    exact = names.count(wanted)
    if exact == 1:
        return wanted
    if exact > 1:
        raise ColumnError(f"{role} column {wanted!r} appears {exact} times in "
                          f"{relation.description}; rename the copies so that each name is one "
                          "column")
    folded = [c for c in names if c.lower() == wanted.lower()]
    if len(folded) == 1:
        return folded[0]
    available = ", ".join(repr(c) for c in names)
    if folded:
        raise ColumnError(f"{role} column {wanted!r} not found in {relation.description}; "
                          f"{', '.join(map(repr, folded))} differ from it only in case: name one "
                          f"of them exactly; available columns: {available}")
    raise ColumnError(f"{role} column {wanted!r} not found in {relation.description}; "
                      f"available columns: {available}")


def has_column(relation: Relation, wanted: str) -> bool:
    names = [c.name for c in relation.columns]
    return wanted in names or sum(c.lower() == wanted.lower() for c in names) == 1
