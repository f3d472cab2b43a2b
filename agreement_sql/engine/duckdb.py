"""DuckDB, the embedded engine: one cursor per call, temporary objects only.

* A call runs its statements on ``con.cursor()`` (its own client context and transaction), so
  the caller's open transaction is neither committed nor aborted, threads sharing one
  connection do not interfere, and the session's temporary tables and views disappear with the
  cursor (they are also dropped explicitly on close). On the caller's connection it runs only
  read-only statements, to read a table or view *name* as the caller's own ``con.table(name)``
  reads it (docs/decisions/0015); the cursor compares text in binary collation whatever the
  caller's ``default_collation`` (a setting of the cursor's session only).
* Everything the package creates is temporary and named ``agreement_sql_<kind>_<token>_<n>``:
  registered Arrow tables and relations are temporary views, materialised relations are
  ``CREATE TEMP TABLE``. A read-only database works (DuckDB keeps temporary objects in memory).
* Sources are read, never modified: files through DuckDB's readers with explicit options (CSV:
  the delimiter, quote and column names given, every column as text, strict; see sources.py),
  in-memory tables registered, a relation of another connection streamed in as Arrow, a table
  or view name in place when that is provably the caller's own read, else streamed from the
  caller's connection. Text files and streams are copied into a temporary table once; with
  ``read_source(columns=)`` only the kept columns are read (docs/decisions/0014: the kept
  columns under the names the source gives them, JSON as text).
* The progress bar is off unless the engine was made with ``progress=True`` (the CLI, on a
  terminal); it is drawn on stderr by agreement_sql.progress, never printed by DuckDB.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from dataclasses import replace
from typing import Any, Mapping, Sequence

import duckdb

from ..dialects import DUCKDB, Dialect
from ..errors import AgreementError, SourceError
from ..sources import (FileSource, _first_bad_json_line, refuse_overlap, as_arrow,
                       resolve_source)
from .base import (BOOLEAN, DECIMAL, FLOAT, INTEGER, NUMBER, OTHER, STRUCT, TEXT, Column, Columns,
                   Relation, keeping, kept_columns)

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


# set-up cursors a private engine keeps between calls (a session nested in another takes a
# second one)
_IDLE_CURSORS = 4


def private_engine() -> "DuckDBEngine":
    """The calling thread's private in-memory connection, reused across calls (each call still
    gets a fresh cursor), so a loop over many small inputs does not pay a new database each time."""
    engine = getattr(_PRIVATE, "engine", None)
    if engine is None:
        engine = DuckDBEngine(duckdb.connect(":memory:"), reuse_cursors=True)
        _PRIVATE.engine = engine
    return engine


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def numeric_kind(type_: Any) -> str:
    """INTEGER, FLOAT or DECIMAL for a DuckDB number type ("" for any other type): a DECIMAL of
    scale 0 holds whole numbers only."""
    type_id = getattr(type_, "id", "")
    if type_id in ("float", "double"):
        return FLOAT
    if type_id == "decimal":
        return INTEGER if str(type_).replace(" ", "").endswith(",0)") else DECIMAL
    return INTEGER if type_id in _NUMBER_IDS else ""


def _text_type(fields: tuple[str, ...] | None) -> str:
    """The type a JSON key is read as: text, or for an object a struct of its keys as text."""
    if fields is None:
        return "VARCHAR"
    return "STRUCT(" + ", ".join(DUCKDB.quote_identifier(f) + " VARCHAR" for f in fields) + ")"


def _parquet_names(path: str) -> list[str] | None:
    """The column names a Parquet file gives (DuckDB renames one that another holds in another
    case); None when the footer cannot be read here (DuckDB then reports the file)."""
    try:
        import pyarrow.parquet as pq

        return list(pq.read_schema(path).names)
    except Exception:       # an unreadable file: DuckDB's own error names it
        return None


# statements that read a table name on the caller's connection: one at a time per connection
# (a stream open on a connection blocks every other statement there)
_READING: dict[int, threading.Lock] = {}
_READING_LOCK = threading.Lock()
_BUSY = ("cannot read {what}: the DuckDB connection has an unfinished result (a statement whose "
         "rows were not all fetched); fetch them, or pass con.cursor(), and call again")


def _reading(con: Any) -> threading.Lock:
    with _READING_LOCK:
        return _READING.setdefault(id(con), threading.Lock())


def _busy(exc: BaseException) -> bool:
    return "unfinished result" in str(exc) or isinstance(exc, getattr(duckdb, "ResourceInUseException", ()))


# settings that change how a progress bar is drawn, never what a statement returns
_DRAWING = ("enable_progress_bar", "enable_progress_bar_print", "progress_bar_time")


def _same_read(con: Any, cursor: Any, name: str, mine: Any) -> bool:
    """Whether reading ``name`` on the session's ``cursor`` gives exactly what the caller's own
    ``con.table(name)`` gives (docs/decisions/0015), so the name can be read in place:

    * the caller is not inside a transaction of its own (two statements on its connection run
      in two transactions): every row it sees is committed, and the cursor's later
      transaction sees them too;
    * the name binds to the same objects in both (the same plan for ``SELECT *``: a temporary
      table, a registered object, a ``USE`` schema or search path that makes the name another
      object shows there);
    * a view (not a base table) is evaluated under the same settings in both (a view's
      expressions may compare text under a collation or read a time zone).

    Each check is a read-only statement on the caller's connection; any doubt means a copy."""
    first = con.sql("SELECT current_transaction_id()").fetchall()
    second = con.sql("SELECT current_transaction_id()").fetchall()
    if first == second:
        return False
    try:
        theirs = cursor.table(name)
        if theirs.explain() != mine.explain():
            return False
    except (duckdb.Error, RuntimeError):
        return False
    if mine.type == "TABLE_RELATION":
        return True
    query = ("SELECT name, value FROM duckdb_settings() WHERE name NOT IN ("
             + ", ".join(f"'{n}'" for n in _DRAWING) + ") ORDER BY name")
    return con.sql(query).fetchall() == cursor.sql(query).fetchall()


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

    def __init__(self, con: duckdb.DuckDBPyConnection, *, progress: bool = False,
                 reuse_cursors: bool = False) -> None:
        self.con = con
        self.progress = progress
        # the thread's private connection only (private_engine, nobody else's settings): a
        # closed session's cursor, its temporary objects dropped, is kept set up for the next
        # call, which then skips the cursor's setup statements (about 3 ms of CPU a call,
        # docs/decisions/0023). A caller's connection always gets a fresh cursor per call.
        self.reuse_cursors = reuse_cursors
        self.idle_cursors: list[duckdb.DuckDBPyConnection] = []

    def session(self) -> "DuckDBSession":
        return DuckDBSession(self)


class DuckDBSession:
    dialect: Dialect = DUCKDB

    def __init__(self, engine: DuckDBEngine) -> None:
        self._engine = engine
        self._owned: list[tuple[str, str]] = []        # (kind, name): "view" or "table"
        self._serial = 0
        self._reporter = None
        if engine.reuse_cursors and engine.idle_cursors and not engine.progress:
            # set up by an earlier session of this thread's private connection (see close)
            self.cursor = engine.idle_cursors.pop()
            return
        try:
            self.cursor = engine.con.cursor()
        except duckdb.Error as exc:
            raise SourceError(f"cannot open a cursor on the DuckDB connection: {_first_line(exc)}") from None
        # fixed statements, no caller text; local to this cursor
        self.cursor.execute("SET enable_progress_bar = " + ("true" if engine.progress else "false"))
        self.cursor.execute("SET enable_progress_bar_print = false")
        # labels and ids compare by their bytes: the caller's default_collation (a global
        # setting the cursor inherits) is set back to binary for this cursor's client context
        # only, never for the caller's connection (docs/decisions/0015)
        # (only when it is not binary already, so that a view reads under the caller's own
        # settings on this cursor too: _same_read compares them)
        inherited = self.cursor.execute("SELECT current_setting('default_collation')").fetchall()
        if str(inherited[0][0]).lower() not in ("", "binary"):
            self.cursor.execute("SET SESSION default_collation = 'binary'")
        for statement in self.dialect.setup:
            self.cursor.execute(statement)
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
            # session as Arrow, read where the relation's connection reads it (the caller's
            # transaction, for a relation of the caller's connection); nothing is created there
            try:
                reader = source.to_arrow_reader() if hasattr(source, "to_arrow_reader") else source.arrow()
            except duckdb.Error as exc:
                raise SourceError(f"cannot read the DuckDB relation: {_first_line(exc)}") from None
            return self._copy_stream(reader, "the DuckDB relation", columns)
        table, description = as_arrow(source)
        return self._expose(self.register_arrow(table, "src"), table.column_names, description,
                            columns)

    def _expose(self, view: str, names: Sequence[str] | None, description: str,
                columns: Columns | None, *, copy: bool = False,
                row_names: str | None = None) -> Relation:
        """The relation a call reads from the registered ``view``: its columns under the names the
        source gives them (``names``, in the view's order; DuckDB renames a column whose name
        another one holds in another case, ``VALUE`` beside ``value`` becoming ``VALUE_1``),
        only those ``columns`` keeps (kept_columns: an exact name wins, two kept names that
        differ only in case are an error), a JSON-typed column as its text (a string without
        its quotes, docs/decisions/0014). ``copy``: into a temporary table (a text file is
        parsed once); else in place, through a projection only when a name or a JSON column
        asks for one. When choosing the columns fails on a copied source, the source is read
        in full first, so that a malformed file is reported as such."""
        try:
            rel = self.cursor.table(view)
            found = list(zip(rel.columns, rel.types))
        except (duckdb.Error, RuntimeError) as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
        given = list(names) if names is not None and len(names) == len(found) else [n for n, _ in found]
        described = Relation(name=view, description=description, cheap_scan=not copy,
                             columns=tuple(self._column(n, t) for n, (_, t) in zip(given, found)),
                             row_names=row_names)
        try:
            kept = kept_columns(described, columns)
        except AgreementError:
            if copy:
                self._scan(view)
            raise
        at = {n: i for i, n in enumerate(given)}
        select, plain = [], True
        for name in kept:
            sql_name, type_ = found[at[name]]
            expr = self.dialect.quote_identifier(sql_name)
            if str(type_) == "JSON":
                expr = f"json_extract_string({expr}, '$')"
            plain = plain and sql_name == name and str(type_) != "JSON"
            select.append(expr + " AS " + self.dialect.quote_identifier(name))
        kept_rows = row_names if row_names in kept else None
        if not copy and plain:
            return replace(keeping(described, kept), row_names=kept_rows)
        name = self.generated_name("src" if copy else "cols")
        query = "SELECT " + ", ".join(select) + " FROM " + self.dialect.quote_identifier(view)
        if copy:
            self.cursor.execute(self.dialect.create_temp_table(name) + query)
            self._owned.append(("table", name))
        else:
            self.cursor.register(name, self.cursor.sql(query))
            self._owned.append(("view", name))
        return replace(self._describe(name, description, cheap_scan=True), row_names=kept_rows)

    def _scan(self, view: str) -> None:
        """Read every row of ``view`` (a file's parse errors surface here)."""
        self.cursor.execute("SELECT COUNT(*) FROM " + self.dialect.quote_identifier(view)).fetchall()

    def _read_table(self, name: str, columns: Columns | None = None) -> Relation:
        """A table or view name, read as the caller's own ``con.table(name)`` reads it: bound in
        the caller's connection (its temporary tables, registered objects, ``USE`` schema and
        search path) and inside its open transaction (uncommitted rows included). The rows are
        streamed from the caller's connection into a temporary table of this session, unless
        reading the name in place on this session's cursor is provably the same read (see
        :func:`_same_read`, docs/decisions/0015). Nothing is written to the caller's database
        and no transaction is begun, committed or aborted there."""
        description = f"table {name!r}"
        con = self._engine.con
        with _reading(con):
            try:
                mine = con.table(name)
                found = list(zip(mine.columns, mine.types))
            except duckdb.Error as exc:
                if _busy(exc):
                    raise SourceError(_BUSY.format(what=description)) from None
                raise SourceError(f"no file, table or view named {name!r}") from None
            except RuntimeError:
                raise SourceError(f"no file, table or view named {name!r}") from None
            described = Relation(name=name, description=description, cheap_scan=True,
                                 columns=tuple(self._column(n, t) for n, t in found))
            kept = kept_columns(described, columns)
            try:
                in_place = _same_read(con, self.cursor, name, mine)
            except duckdb.Error as exc:
                if _busy(exc):
                    raise SourceError(_BUSY.format(what=description)) from None
                raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
            if in_place:
                # a view of this cursor over the name (a dotted name is one relation to SQL)
                view = self.generated_name("table")
                self.cursor.register(view, self.cursor.table(name))
                self._owned.append(("view", view))
                return self._expose(view, None, description, list(kept))
            try:
                wanted = mine.project(", ".join(self.dialect.quote_identifier(c) for c in kept))
                reader = wanted.to_arrow_reader()
            except duckdb.Error as exc:
                raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
            return self._copy_stream(reader, description, None)

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
        numerics: tuple[str, ...] = ()
        if kind == STRUCT:
            fields = tuple(child[0] for child in type_.children)
            kinds = tuple(column_kind(getattr(child[1], "id", "")) for child in type_.children)
            numerics = tuple(numeric_kind(child[1]) for child in type_.children)
        return Column(name=name, kind=kind, type_name=str(type_), fields=fields, field_kinds=kinds,
                      numeric=numeric_kind(type_), field_numerics=numerics)

    def _copy_stream(self, reader: Any, description: str,
                     columns: Columns | None = None) -> Relation:
        staged = self.generated_name("stream")
        self.cursor.register(staged, reader)
        self._owned.append(("view", staged))
        try:
            return self._expose(staged, list(reader.schema.names), description, columns, copy=True)
        except duckdb.Error as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None

    def _read_files(self, files: FileSource, columns: Columns | None = None) -> Relation:
        try:
            if files.kind == "parquet":
                names = _parquet_names(files.paths[0])
                if files.hive:
                    # partition columns (key=value folders) read as text, as a CSV's values
                    # are: the typing rule decides what they hold (decisions 0014, 0024)
                    if names is not None:
                        refuse_overlap(names, files.hive, files.description)
                        names = names + list(files.hive)
                    rel = self.cursor.sql(
                        "SELECT * FROM read_parquet($paths, hive_partitioning = true, "
                        "hive_types_autocast = false)", params={"paths": list(files.paths)})
                    if names is not None:       # the partition columns, in the reader's order
                        names = names[:-len(files.hive)] + list(rel.columns)[-len(files.hive):]
                else:
                    rel = self.cursor.read_parquet(list(files.paths), hive_partitioning=False)
                name = self.generated_name("files")
                self.cursor.register(name, rel)
                self._owned.append(("view", name))
                return self._expose(name, names, files.description, columns)
            if files.kind == "json":
                return self._read_json(files, columns)
            # every column as text, under a name of its position (the header's names may
            # differ only in case, or be empty, which DuckDB's reader cannot take as they are);
            # text is parsed once, now, into a temporary table of the kept columns under the
            # header's names: a malformed row is reported before any statistic runs
            positions = {f"c{i}": "VARCHAR" for i in range(len(files.header))}
            rel = self.cursor.read_csv(
                # some duckdb stubs omit lists
                list(files.paths),  # type: ignore[arg-type, unused-ignore]
                header=True, auto_detect=False, sep=files.delimiter,
                quotechar='"', escapechar='"', strict_mode=True, columns=positions,
                # partition columns (key=value folders) as text, after the header's columns
                hive_partitioning=bool(files.hive), hive_types_autocast=False)
            name = self.generated_name("files")
            self.cursor.register(name, rel)
            self._owned.append(("view", name))
            # the partition columns after the header's, in the reader's order
            names = list(files.names)[:len(files.header)] + list(rel.columns)[len(files.header):]
            return self._expose(name, names, files.description, columns, copy=True,
                                row_names=files.row_names)
        except duckdb.Error as exc:
            raise SourceError(files.explain(_first_line(exc))) from None

    def _read_json(self, files: FileSource, columns: Columns | None) -> Relation:
        """JSON read as text, as a CSV is: every value of a key as its text (a string without its
        quotes, a number as DuckDB writes it, true/false, NULL for null; an array as JSON text),
        an object as a struct of such texts (a workshop export's ratings), so a key holding
        numbers and strings reads as the same text as its CSV would (docs/decisions/0014).
        The keys come from DuckDB's inference, or, when two keys differ only in case (which its
        inference refuses), from the structure of every object; only the kept keys are read,
        each by its exact name, into a temporary table."""
        paths = list(files.paths)
        try:
            inferred = self.cursor.read_json(paths, format=files.json_format)  # type: ignore[arg-type]
            keys = [(n, tuple(c[0] for c in t.children) if getattr(t, "id", "") == "struct" else None)
                    for n, t in zip(inferred.columns, inferred.types)]
        except duckdb.Error as exc:
            if "differ only in case" not in str(exc) and "Duplicate name" not in str(exc):
                raise
            keys = self._json_keys(files)
        described = Relation(
            name="", description=files.description, cheap_scan=False,
            columns=tuple(Column(name=k, kind=STRUCT if f is not None else TEXT,
                                 type_name="STRUCT" if f is not None else "VARCHAR",
                                 fields=f or (), field_kinds=(TEXT,) * len(f or ()))
                          for k, f in keys))
        try:
            kept = kept_columns(described, columns)
        except AgreementError:
            bad = _first_bad_json_line(files.paths, files.json_format)
            if bad:
                raise SourceError(bad) from None
            raise
        fields = dict(keys)
        rel = self.cursor.read_json(paths, format=files.json_format,  # type: ignore[arg-type]
                                    columns={k: _text_type(fields[k]) for k in kept})
        name = self.generated_name("files")
        self.cursor.register(name, rel)
        self._owned.append(("view", name))
        return self._expose(name, list(kept), files.description, None, copy=True)

    def _json_keys(self, files: FileSource) -> list[tuple[str, tuple[str, ...] | None]]:
        """The keys of every object of JSON files (and the keys of those that hold objects), in
        order of appearance, read from the structure DuckDB merges over all of them."""
        import json as _json

        fmt = "newline_delimited" if files.json_format == "newline_delimited" else "auto"
        text = self.cursor.execute("SELECT json_group_structure(json) FROM read_json_objects($paths, "
                                   "format = $format)", {"paths": list(files.paths),
                                                         "format": fmt}).fetchall()[0][0]
        structure = _json.loads(text) if text else {}
        if not isinstance(structure, dict):
            raise SourceError(f"{files.description} holds no JSON objects")
        return [(k, tuple(v) if isinstance(v, dict) else None) for k, v in structure.items()]

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
        clean = True
        for kind, name in reversed(self._owned):
            try:
                if kind == "table":
                    self.cursor.execute(self.dialect.drop_temp_table(name))
                else:
                    self.cursor.unregister(name)
            except duckdb.Error:
                clean = False
        self._owned.clear()
        engine = self._engine
        if (clean and engine.reuse_cursors and not engine.progress
                and len(engine.idle_cursors) < _IDLE_CURSORS):
            # every object the session made is gone: the next session of this thread may take
            # the cursor as it is (its settings and the dialect's macros already in place)
            engine.idle_cursors.append(self.cursor)
            return
        try:
            self.cursor.close()
        except duckdb.Error:
            pass
