"""Sources: whatever the caller holds, registered as a read-only view under a generated name.

Accepted (ISSUE 2 §3): a path or glob of Parquet, CSV, JSON or JSONL files; a pyarrow Table or
RecordBatchReader; a pandas or polars DataFrame; a DuckDB relation; or the name of a table or
view in ``con``. Inputs are never modified: files are read, in-memory objects are registered,
and every name this module creates is generated (``agreement_sql_src_<hex>``) and dropped on
:meth:`Source.close`.

CSV is read with every column as text (DESIGN_NOTES §3: sniffing turns ids into integers and
``true``/``false`` into booleans); the templates cast ratings to numbers where a scale needs them.
"""
from __future__ import annotations

import glob as _glob
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from .errors import ColumnError, SourceError

_PARQUET = (".parquet", ".pq")
_CSV = (".csv", ".tsv", ".txt")
_JSON = (".json", ".jsonl", ".ndjson")


def generated_name(kind: str = "src") -> str:
    return f"agreement_sql_{kind}_{uuid.uuid4().hex[:12]}"


@dataclass
class Source:
    """A registered input: the connection, the generated view name and its columns."""

    con: duckdb.DuckDBPyConnection
    name: str
    columns: dict[str, Any]                    # column name -> DuckDB type
    description: str
    _cleanup: list[tuple[str, str]] = field(default_factory=list)
    # True when reading the source again costs about a scan of columnar data (Parquet files,
    # Arrow tables held in memory); False for text files to parse again and views of unknown
    # cost. A report that reads its ratings in several statements copies them first otherwise.
    cheap_scan: bool = False

    def resolve(self, wanted: str, role: str) -> str:
        """The actual column for ``wanted`` (exact, else a unique case-insensitive match)."""
        if wanted in self.columns:
            return wanted
        folded = [c for c in self.columns if c.lower() == wanted.lower()]
        if len(folded) == 1:
            return folded[0]
        available = ", ".join(repr(c) for c in self.columns)
        raise ColumnError(f"{role} column {wanted!r} not found in {self.description}; "
                          f"available columns: {available}")

    def has(self, wanted: str) -> bool:
        return wanted in self.columns or sum(c.lower() == wanted.lower() for c in self.columns) == 1

    def struct_fields(self, column: str) -> list[str] | None:
        kind = self.columns[column]
        if getattr(kind, "id", None) == "struct":
            return [name for name, _ in kind.children]
        return None

    def track(self, kind: str, name: str) -> None:
        self._cleanup.append((kind, name))

    def close(self) -> None:
        from .runner import execute  # local: runner imports sources' names
        for kind, name in reversed(self._cleanup):
            try:
                if kind == "registered":
                    self.con.unregister(name)
                else:
                    execute(self.con, "drop_relation", {"kind": kind, "name": name}, {})
            except duckdb.Error:
                pass
        self._cleanup.clear()


def _paths(pattern: str) -> list[str]:
    if any(ch in pattern for ch in "*?["):
        found = sorted(_glob.glob(pattern, recursive=True))
        if not found:
            raise SourceError(f"no file matches {pattern!r}")
        return found
    if not os.path.exists(pattern):
        raise SourceError(f"file not found: {pattern!r}")
    if os.path.isdir(pattern):
        raise SourceError(f"{pattern!r} is a folder; give a file or a glob such as '{pattern}/*.parquet'")
    return [pattern]


def _read_files(con: duckdb.DuckDBPyConnection, pattern: str) -> duckdb.DuckDBPyRelation:
    paths = _paths(pattern)
    suffixes = {Path(p).suffix.lower() for p in paths}
    if len(suffixes) > 1:
        raise SourceError(f"{pattern!r} mixes file types {sorted(suffixes)}; give one kind of file")
    suffix = suffixes.pop()
    if os.path.getsize(paths[0]) == 0 and len(paths) == 1:
        raise SourceError(f"{pattern!r} is empty")
    try:
        if suffix in _PARQUET:
            return con.read_parquet(paths)
        if suffix in _CSV:
            sep = "\t" if suffix == ".tsv" else None
            return con.read_csv(paths, all_varchar=True, header=True, **({"sep": sep} if sep else {}))
        if suffix in _JSON:
            fmt = "newline_delimited" if suffix in (".jsonl", ".ndjson") else "auto"
            return con.read_json(paths, format=fmt)
    except duckdb.Error as exc:
        first = str(exc).strip().splitlines()[0]
        raise SourceError(f"cannot read {pattern!r}: {first}") from None
    raise SourceError(f"{pattern!r}: unknown file type {suffix!r}; expected Parquet, CSV, JSON or JSONL")


def open_source(source: Any, con: duckdb.DuckDBPyConnection | None = None) -> Source:
    """Register ``source`` in ``con`` (a new in-memory connection when None) under a generated name."""
    con = con if con is not None else duckdb.connect()
    name = generated_name()
    cleanup: list[tuple[str, str]] = []
    cheap = False
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        looks_like_file = (os.path.exists(text) or any(ch in text for ch in "*?[")
                           or Path(text).suffix.lower() in _PARQUET + _CSV + _JSON)
        if not looks_like_file and _is_table(con, text):
            rel, description = con.table(text), f"table {text!r}"
        else:
            rel, description = _read_files(con, text), repr(text)
            cheap = Path(_paths(text)[0]).suffix.lower() in _PARQUET
        rel.create_view(name, replace=False)
        cleanup.append(("view", name))
    elif isinstance(source, duckdb.DuckDBPyRelation):
        description = "the DuckDB relation"
        source.create_view(name, replace=False)
        if _is_table(con, name):
            cleanup.append(("view", name))
        else:  # the relation lives on another connection: bring its rows over as Arrow
            con.register(name, source.to_arrow_table())
            cleanup.append(("registered", name))
            cheap = True
    else:
        table, description = _as_arrow(source)
        con.register(name, table)
        cleanup.append(("registered", name))
        cheap = True
    try:
        rel = con.table(name)
        columns = dict(zip(rel.columns, rel.types))
    except duckdb.Error as exc:
        raise SourceError(f"cannot read {description}: {str(exc).splitlines()[0]}") from None
    return Source(con=con, name=name, columns=columns, description=description, _cleanup=cleanup,
                  cheap_scan=cheap)


def _is_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    try:
        con.table(name)
        return True
    except (duckdb.Error, RuntimeError):
        return False


def _as_arrow(source: Any) -> tuple[Any, str]:
    import pyarrow as pa

    if isinstance(source, (pa.Table, pa.RecordBatchReader)):
        if isinstance(source, pa.RecordBatchReader):
            source = source.read_all()   # a reader can be scanned once; the checks scan twice
        return source, "the Arrow table"
    module = type(source).__module__.split(".")[0]
    if module == "pandas":
        return pa.Table.from_pandas(source, preserve_index=False), "the pandas DataFrame"
    if module == "polars":
        return source.to_arrow(), "the polars DataFrame"
    raise SourceError(
        f"cannot use a {type(source).__name__} as a source; give a file path or glob, a pyarrow "
        "Table, a pandas or polars DataFrame, a DuckDB relation, or a table name with con=")
