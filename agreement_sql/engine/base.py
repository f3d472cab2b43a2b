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


@dataclass(frozen=True)
class Column:
    """A column of a registered relation: its name, its kind and, for a struct, its fields."""

    name: str
    kind: str
    type_name: str
    fields: tuple[str, ...] = ()          # a struct's field names
    field_kinds: tuple[str, ...] = ()     # and their kinds


@dataclass(frozen=True)
class Relation:
    """A relation a session can read: its generated name, its columns, how it reads."""

    name: str
    columns: tuple[Column, ...]
    description: str
    cheap_scan: bool            # reading it again costs a columnar scan (else: copy it first)

    def column(self, name: str) -> Column:
        return next(c for c in self.columns if c.name == name)


# read_source(columns=): the names of the columns to keep, or a function of the source's columns
# (a Relation that describes them; the function must not read it) that returns those names
Columns = Union[Sequence[str], Callable[[Relation], Sequence[str]]]


def kept_columns(relation: Relation, columns: Columns) -> tuple[str, ...]:
    """The columns of ``relation`` that ``columns`` keeps, in the relation's order: each name
    resolved as every column a caller names is (exact, else a unique case-insensitive match;
    otherwise a ColumnError naming the available columns)."""
    wanted = columns(relation) if callable(columns) else columns
    if isinstance(wanted, str):
        wanted = [wanted]
    found = {resolve_column(relation, name, "kept") for name in wanted}
    return tuple(c.name for c in relation.columns if c.name in found)


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


def has_column(relation: Relation, wanted: str) -> bool:
    names = [c.name for c in relation.columns]
    return wanted in names or sum(c.lower() == wanted.lower() for c in names) == 1
