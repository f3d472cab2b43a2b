"""DuckDB, the embedded engine: one cursor per call, temporary objects only.

* A call never runs a statement on the caller's connection: it opens ``con.cursor()`` (its own
  client context and transaction), so the caller's open transaction is neither committed nor
  aborted, threads sharing one connection do not interfere, and the session's temporary tables
  and views disappear with the cursor (they are also dropped explicitly on close).
* Everything the package creates is temporary and named ``agreement_sql_<kind>_<token>_<n>``:
  registered Arrow tables and relations are temporary views, materialised relations are
  ``CREATE TEMP TABLE``. A read-only database works (DuckDB keeps temporary objects in memory).
* Sources are read, never modified: files through DuckDB's readers with explicit options (CSV:
  the delimiter, quote and column names given, every column as text, strict; see sources.py),
  in-memory tables registered, a relation of another connection streamed in as Arrow, a table
  or view of the caller's database read where it is. Text files and streams are copied into a
  temporary table once; with ``read_source(columns=)`` only the kept columns are copied.
* The progress bar is off unless the engine was made with ``progress=True`` (the CLI, on a
  terminal); it is drawn on stderr by agreement_sql.progress, never printed by DuckDB.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from typing import Any, Mapping, Sequence

import duckdb

from ..dialects import DUCKDB, Dialect
from ..errors import AgreementError, SourceError
from ..sources import FileSource, as_arrow, resolve_source
from .base import BOOLEAN, NUMBER, OTHER, STRUCT, TEXT, Column, Columns, Relation, keeping, kept_columns

_NUMBER_IDS = {"tinyint", "smallint", "integer", "bigint", "hugeint", "utinyint", "usmallint",
               "uinteger", "ubigint", "uhugeint", "float", "double", "decimal"}
_TEXT_IDS = {"varchar", "char", "bpchar", "string", "text"}
_PRIVATE = threading.local()
_TRACE = bool(os.environ.get("AGREEMENT_SQL_TRACE"))
# rows per Arrow batch of a partitioned result (Session.query_parts)
PART_BATCH_ROWS = 100_000


def is_duckdb_connection(con: Any) -> bool:
    return isinstance(con, duckdb.DuckDBPyConnection)


# A process's token in the names its sessions generate: unguessable, so no object of a caller's
# database can share a name with one the package creates
_TOKEN = uuid.uuid4().hex[:16]


def private_engine() -> "DuckDBEngine":
    """The calling thread's private in-memory connection, reused across calls (each call still
    gets a fresh cursor), so a loop over many small inputs does not pay a new database each time."""
    engine = getattr(_PRIVATE, "engine", None)
    if engine is None:
        engine = DuckDBEngine(duckdb.connect(":memory:"))
        _PRIVATE.engine = engine
    return engine


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def column_kind(type_id: str) -> str:
    if type_id in _NUMBER_IDS:
        return NUMBER
    if type_id == "boolean":
        return BOOLEAN
    if type_id in _TEXT_IDS:
        return TEXT
    if type_id == "struct":
        return STRUCT
    return OTHER


class DuckDBEngine:
    """``DuckDBEngine(con)``: run on a caller's DuckDB connection (through cursors)."""

    dialect: Dialect = DUCKDB

    def __init__(self, con: duckdb.DuckDBPyConnection, *, progress: bool = False) -> None:
        self.con = con
        self.progress = progress

    def session(self) -> "DuckDBSession":
        return DuckDBSession(self)


class DuckDBSession:
    dialect: Dialect = DUCKDB

    def __init__(self, engine: DuckDBEngine) -> None:
        self._engine = engine
        self._owned: list[tuple[str, str]] = []        # (kind, name): "view" or "table"
        self._serial = 0
        try:
            self.cursor = engine.con.cursor()
        except duckdb.Error as exc:
            raise SourceError(f"cannot open a cursor on the DuckDB connection: {_first_line(exc)}") from None
        # fixed statements, no caller text; local to this cursor
        self.cursor.execute("SET enable_progress_bar = " + ("true" if engine.progress else "false"))
        self.cursor.execute("SET enable_progress_bar_print = false")
        for statement in self.dialect.setup:
            self.cursor.execute(statement)
        self._reporter = None
        if engine.progress:
            from ..progress import ProgressReporter
            self._reporter = ProgressReporter(self.cursor).start()

    def generated_name(self, kind: str) -> str:
        """``agreement_sql_<kind>_<process token>_<n>``, the session's n-th name. The names are
        unique within the session, and need be no more: temporary tables and registered views
        belong to the session's own cursor, invisible to every other cursor and connection.
        Being the same for every call of one shape, they let the rendered statements of a loop
        of calls be reused (templates.render caches them)."""
        self._serial += 1
        return f"agreement_sql_{kind}_{_TOKEN}_{self._serial}"

    # -- sources -------------------------------------------------------------------------
    def read_source(self, source: Any, *, columns: Columns | None = None) -> Relation:
        kind = resolve_source(source, native=(duckdb.DuckDBPyRelation,))
        if isinstance(kind, FileSource):
            return self._read_files(kind, columns)
        if kind == "table":
            return self._read_table(str(source), columns)
        if kind == "native":
            # a relation of the caller's connection (or another one): streamed into this
            # session as Arrow; nothing is created on the relation's connection
            try:
                reader = source.to_arrow_reader() if hasattr(source, "to_arrow_reader") else source.arrow()
            except duckdb.Error as exc:
                raise SourceError(f"cannot read the DuckDB relation: {_first_line(exc)}") from None
            return self._copy_stream(reader, "the DuckDB relation", columns)
        table, description = as_arrow(source)
        return self._in_place(self._describe(self.register_arrow(table, "src"), description,
                                             cheap_scan=True), columns)

    @staticmethod
    def _in_place(relation: Relation, columns: Columns | None) -> Relation:
        """A source read where it is (nothing copied), described by the kept columns."""
        return relation if columns is None else keeping(relation, kept_columns(relation, columns))

    def _read_table(self, name: str, columns: Columns | None = None) -> Relation:
        """A table or view of the caller's database, read in place; a temporary or registered
        object of the caller's own connection (invisible to a cursor) is copied in once."""
        description = f"table {name!r}"
        try:
            self.cursor.table(name)
            visible = True
        except (duckdb.Error, RuntimeError):
            visible = False
        if visible:
            rel = self.cursor.table(name)
            found = tuple(self._column(n, t) for n, t in zip(rel.columns, rel.types))
            return self._in_place(Relation(name=name, columns=found, description=description,
                                           cheap_scan=True), columns)
        try:
            reader = self._engine.con.table(name).to_arrow_reader()
        except (duckdb.Error, RuntimeError):
            raise SourceError(f"no file, table or view named {name!r}") from None
        return self._copy_stream(reader, description, columns)

    def _describe(self, name: str, description: str, *, cheap_scan: bool) -> Relation:
        try:
            rel = self.cursor.table(name)
            columns = tuple(self._column(n, t) for n, t in zip(rel.columns, rel.types))
        except (duckdb.Error, RuntimeError) as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
        return Relation(name=name, columns=columns, description=description, cheap_scan=cheap_scan)

    @staticmethod
    def _column(name: str, type_: Any) -> Column:
        kind = column_kind(getattr(type_, "id", str(type_).lower()))
        fields: tuple[str, ...] = ()
        kinds: tuple[str, ...] = ()
        if kind == STRUCT:
            fields = tuple(child[0] for child in type_.children)
            kinds = tuple(column_kind(getattr(child[1], "id", "")) for child in type_.children)
        return Column(name=name, kind=kind, type_name=str(type_), fields=fields, field_kinds=kinds)

    def _copy_stream(self, reader: Any, description: str,
                     columns: Columns | None = None) -> Relation:
        staged = self.generated_name("stream")
        self.cursor.register(staged, reader)
        self._owned.append(("view", staged))
        try:
            return self._copy(staged, description, columns)
        except duckdb.Error as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None

    def _copy(self, view: str, description: str, columns: Columns | None = None) -> Relation:
        """A temporary table holding the rows of ``view`` (read once, then scanned cheaply):
        every column, or those ``columns`` keeps (chosen on the view's description, before any
        row is read). When the choice fails, every column is copied first, so that a malformed
        file or stream is reported before the choice's error, as when every column is read."""
        name = self.generated_name("src")
        kept = None
        if columns is not None:
            try:
                kept = kept_columns(self._describe(view, description, cheap_scan=False), columns)
            except AgreementError:
                self._copy(view, description)
                raise
        self.cursor.execute(self.dialect.copy_into_temp_table(name, view, kept))
        self._owned.append(("table", name))
        return self._describe(name, description, cheap_scan=True)

    def _read_files(self, files: FileSource, columns: Columns | None = None) -> Relation:
        try:
            if files.kind == "parquet":
                rel = self.cursor.read_parquet(list(files.paths))
            elif files.kind == "csv":
                rel = self.cursor.read_csv(
                    # some duckdb stubs omit lists
                    list(files.paths),  # type: ignore[arg-type, unused-ignore]
                    header=True, auto_detect=False, sep=files.delimiter,
                    quotechar='"', escapechar='"', strict_mode=True,
                    columns={c: "VARCHAR" for c in files.header})
            else:
                rel = self.cursor.read_json(
                    list(files.paths),  # type: ignore[arg-type, unused-ignore]
                    format=files.json_format)  # type: ignore[arg-type]
            name = self.generated_name("files")
            self.cursor.register(name, rel)
            self._owned.append(("view", name))
            if files.kind == "parquet":
                return self._in_place(self._describe(name, files.description, cheap_scan=True),
                                      columns)
            # text is parsed once, now: a malformed row is reported before any statistic runs,
            # and later statements scan the parsed table instead of the text (only the kept
            # columns: a column not kept is not parsed)
            return self._copy(name, files.description, columns)
        except duckdb.Error as exc:
            raise SourceError(files.explain(_first_line(exc))) from None

    def read_json_lines(self, path: str, columns: dict[str, str]) -> Relation:
        """One JSON Lines file (read literally: no glob, no decompression) through DuckDB's JSON
        reader with declared ``columns`` (name -> DuckDB type; a key a line lacks is NULL, keys
        not declared are not read), registered as a view and not copied: the statement that
        reads it parses the text, so a workflow reads it once, into a relation it materialises.
        A line the reader refuses (malformed, or a value its declared type cannot take) fails
        that statement. Only this engine has it (a workflow asks with ``getattr``); others read
        such files in the workflow's own way."""
        try:
            rel = self.cursor.read_json(path, format="newline_delimited", records="true",
                                        compression="none", columns=dict(columns))
            name = self.generated_name("lines")
            self.cursor.register(name, rel)
        except duckdb.Error as exc:
            raise SourceError(f"cannot read {path!r}: {_first_line(exc)}") from None
        self._owned.append(("view", name))
        columns_ = tuple(self._column(n, t) for n, t in zip(rel.columns, rel.types))
        return Relation(name=name, columns=columns_, description=repr(path), cheap_scan=False)

    # -- package relations ---------------------------------------------------------------
    def register_arrow(self, table: Any, kind: str) -> str:
        name = self.generated_name(kind)
        self.cursor.register(name, table)
        self._owned.append(("view", name))
        return name

    def materialize(self, sql: str, params: dict[str, Any], kind: str) -> Relation:
        name = self.generated_name(kind)
        self._run(self.dialect.create_temp_table(name) + sql, params, what=kind)
        self._owned.append(("table", name))
        return self._describe(name, f"the {kind} table", cheap_scan=True)

    def query(self, sql: str, params: dict[str, Any], *, what: str) -> list[dict[str, Any]]:
        cursor = self._run(sql, params, what=what)
        if cursor.description is None:
            return []
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def query_parts(self, sql: str, params: dict[str, Any], *, what: str,
                    parts: Mapping[str, Sequence[str]],
                    sinks: Mapping[str, Any] | None = None) -> dict[str, dict[str, list[Any]]]:
        # through Arrow batches: a Python list per kept column, no tuple or dict per row, and a
        # sink's rows written as they come; HUGEINT arrives as a Decimal, where fetchall gives
        # an int
        sinks = sinks or {}
        try:
            started = time.perf_counter() if _TRACE else 0.0
            relation = self.cursor.sql(sql, params=params)
            huge = {n for n, t in zip(relation.columns, relation.types)
                    if str(t) in ("HUGEINT", "UHUGEINT")}
            reader = relation.to_arrow_reader(PART_BATCH_ROWS)
            out: dict[str, dict[str, list[Any]]] = {part: {name: [] for name in names}
                                                    for part, names in parts.items()}
            for batch in reader:
                tags = batch.column(batch.schema.get_field_index("part")).to_pylist()
                start = 0
                while start < len(tags):
                    # the rows of a part are one run: the statement orders by part
                    part = tags[start]
                    end = start + tags.count(part)
                    rows = batch.slice(start, end - start)
                    if part in sinks:
                        sinks[part].write(rows)
                    elif part in out:
                        for name in parts[part]:
                            values = rows.column(rows.schema.get_field_index(name)).to_pylist()
                            out[part][name].extend([None if v is None else int(v) for v in values]
                                                   if name in huge else values)
                    start = end
            for sink in sinks.values():
                sink.close(reader.schema)
            if _TRACE:
                print(f"agreement-sql trace: {what} {time.perf_counter() - started:.3f}s",
                      file=sys.stderr)
        except duckdb.Error as exc:
            raise AgreementError(f"{what}: the database refused the query: {_first_line(exc)}") from exc
        return out

    def _run(self, sql: str, params: dict[str, Any], *, what: str) -> Any:
        try:
            if _TRACE:
                import time
                started = time.perf_counter()
                cursor = self.cursor.execute(sql, params)
                print(f"agreement-sql trace: {what} {time.perf_counter() - started:.3f}s",
                      file=sys.stderr)
                return cursor
            return self.cursor.execute(sql, params)
        except duckdb.Error as exc:
            raise AgreementError(f"{what}: the database refused the query: {_first_line(exc)}") from exc

    def close(self) -> None:
        if self._reporter is not None:
            self._reporter.stop()
        for kind, name in reversed(self._owned):
            try:
                if kind == "table":
                    self.cursor.execute(self.dialect.drop_temp_table(name))
                else:
                    self.cursor.unregister(name)
            except duckdb.Error:
                pass
        self._owned.clear()
        try:
            self.cursor.close()
        except duckdb.Error:
            pass
