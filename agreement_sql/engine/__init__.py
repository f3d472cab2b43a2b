"""The engine boundary: everything agreement-sql asks of a database, in one small interface.

A metric call opens a :class:`Session` (its own cursor, its own temporary objects), registers
its source, runs rendered templates with bound parameters, and closes the session, which
drops every temporary object it made. Nothing else in the package talks to a database driver.
The interface and its types are agreement_sql.engine.base; this module chooses the engine for
a ``con=`` argument.

DuckDB (:mod:`agreement_sql.engine.duckdb`) is the embedded default. ``con=`` in every public
function takes a DuckDB connection (the package opens a cursor of it per call and never runs a
statement on the connection itself), an :class:`Engine`, or None (a private in-memory DuckDB
connection per thread).
"""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from ..errors import OptionError
from .base import (BOOLEAN, DECIMAL, FLOAT, INTEGER, NUMBER, OTHER, STRUCT, TEXT, Column, Columns,
                   Engine, Relation, Session, colliding, has_column, keeping, kept_columns,
                   resolve_column)
from .duckdb import DuckDBEngine, is_duckdb_connection, private_engine


def resolve_engine(con: Any) -> Engine:
    """The engine for a ``con=`` argument: None, a DuckDB connection, or an Engine (such as
    ``agreement_sql.connect(spark=spark)``, :mod:`agreement_sql.engine.spark`)."""
    if con is None:
        return private_engine()
    if is_duckdb_connection(con):
        return DuckDBEngine(con)
    if hasattr(con, "session") and hasattr(con, "dialect"):
        return con                                          # an Engine (DuckDB, Spark)
    if type(con).__name__ == "SparkSession" and type(con).__module__.startswith("pyspark."):
        raise OptionError("con= takes an engine; for Spark pass agreement_sql.connect(spark=spark), "
                          "made once from your SparkSession")
    raise OptionError(f"con must be a DuckDB connection (duckdb.connect()), an agreement_sql "
                      f"engine (agreement_sql.connect()), or None; got a {type(con).__name__}")


class open_session:
    """``with open_session(con) as session:`` — one call's session, closed however the call ends."""

    def __init__(self, con: Any) -> None:
        self._session = resolve_engine(con).session()

    def __enter__(self) -> Session:
        return self._session

    def __exit__(self, *exc: Any) -> None:
        self._session.close()


def generated_names(prefix: str) -> Iterator[str]:  # pragma: no cover - documentation helper
    """Names a session generates: on DuckDB ``agreement_sql_<kind>_<16 hex>_<n>`` (a process token
    and the session's count: temporary objects belong to the session's cursor, so names need only
    be unique within it, and equal names for equal calls let rendered statements be reused); on
    Spark ``agreement_sql_<kind>_<32 hex>`` (uuid4), temporary views being the SparkSession's."""
    yield prefix


__all__: Sequence[str] = ("Column", "Columns", "Engine", "Relation", "Session", "kept_columns",
                          "keeping", "colliding", "open_session", "resolve_engine",
                          "resolve_column", "has_column", "NUMBER", "BOOLEAN", "TEXT", "STRUCT",
                          "OTHER", "INTEGER", "FLOAT", "DECIMAL")
