"""Sources: what a caller may pass as ``source``, recognised without touching a database.

Accepted: a path or glob of Parquet, CSV/TSV, JSON or JSONL files; a pyarrow Table or
RecordBatchReader; a pandas or polars DataFrame; an engine's native relation (a DuckDB
relation); or the name of a table or view (with ``con=``). The engine
(:mod:`agreement_sql.engine`) registers the source under a generated name and never modifies it.

Text files are read with rules stated here rather than guessed by a sniffer (a sniffer can
mistake a ragged CSV for a one-column file or skip its first rows):

* CSV: the header is the first line, read with Python's csv module (a UTF-8 byte-order mark is
  dropped); the delimiter is ``,`` (``\\t`` for .tsv), quotes are ``"`` doubled to escape,
  line ends LF or CRLF; every column is text (ids stay ``"007"``; ratings are read as numbers
  by the canonical ratings relation, docs/decisions/0002); a row with too few or too many
  fields is an error naming its line. Every file of a glob must have the same header.
* JSON: one object per line for .jsonl/.ndjson; .json may also be an array of objects. A line
  that is not JSON is an error naming the file and the line (counted from 1).
"""
from __future__ import annotations

import csv
import glob as _glob
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Union

from .errors import SourceError

PARQUET = (".parquet", ".pq")
CSV = (".csv", ".tsv", ".txt")
JSON = (".json", ".jsonl", ".ndjson")


@dataclass(frozen=True)
class FileSource:
    """Files to read, with the explicit reading rules above."""

    paths: tuple[str, ...]
    kind: str                         # "parquet", "csv" or "json"
    description: str
    header: tuple[str, ...] = ()      # CSV column names, from the first line
    delimiter: str = ","
    json_format: str = "auto"

    def explain(self, engine_message: str) -> str:
        """A reading error in the caller's terms: the file and line at fault when we can find it."""
        if self.kind == "json":
            found = _first_bad_json_line(self.paths, self.json_format)
            if found:
                return found
        if self.kind == "csv":
            line = re.search(r"CSV Error on Line: (\d+)", engine_message)
            if line:
                return f"{self.description} line {line.group(1)}: " + _csv_row_problem(
                    self.paths, int(line.group(1)), len(self.header), self.delimiter)
        return f"cannot read {self.description}: {engine_message}"


def _csv_row_problem(paths: tuple[str, ...], line_no: int, n_columns: int, delimiter: str) -> str:
    """What is wrong with one CSV line DuckDB refused (read again with Python's csv module)."""
    for path in paths:
        try:
            with open(path, newline="", encoding="utf-8-sig", errors="replace") as f:
                for number, row in enumerate(csv.reader(f, delimiter=delimiter), start=1):
                    if number == line_no:
                        if n_columns and len(row) != n_columns:
                            return f"{len(row)} fields where the header has {n_columns}"
                        return "a malformed row"
        except (OSError, csv.Error):
            continue
    return "a malformed row"


def _paths(pattern: str) -> list[str]:
    if any(ch in pattern for ch in "*?["):
        found = sorted(p for p in _glob.glob(pattern, recursive=True) if os.path.isfile(p))
        if not found:
            raise SourceError(f"no file matches {pattern!r}")
        return found
    if not os.path.exists(pattern):
        raise SourceError(f"file not found: {pattern!r}")
    if os.path.isdir(pattern):
        raise SourceError(f"{pattern!r} is a folder; give a file or a glob such as '{pattern}/*.parquet'")
    return [pattern]


def looks_like_path(text: str) -> bool:
    return (os.path.exists(text) or any(ch in text for ch in "*?[")
            or Path(text).suffix.lower() in PARQUET + CSV + JSON or os.sep in text)


def file_source(pattern: str) -> FileSource:
    """Check the files behind ``pattern`` and decide how to read them."""
    paths = _paths(pattern)
    suffixes = {Path(p).suffix.lower() for p in paths}
    if len(suffixes) > 1:
        raise SourceError(f"{pattern!r} mixes file types {sorted(suffixes)}; give one kind of file")
    suffix = suffixes.pop()
    description = repr(pattern)
    for p in paths:
        if os.path.getsize(p) == 0:
            raise SourceError(f"{p!r} is empty (no header, no rows)")
    if suffix in PARQUET:
        return FileSource(tuple(paths), "parquet", description)
    if suffix in CSV:
        delimiter = "\t" if suffix == ".tsv" else ","
        header = _csv_header(paths[0], delimiter)
        for p in paths[1:]:
            other = _csv_header(p, delimiter)
            if other != header:
                raise SourceError(f"{p!r} has the header {list(other)!r}, but {paths[0]!r} has "
                                  f"{list(header)!r}; every file of a glob needs the same columns")
        return FileSource(tuple(paths), "csv", description, header=header, delimiter=delimiter)
    if suffix in JSON:
        fmt = "newline_delimited" if suffix in (".jsonl", ".ndjson") else "auto"
        return FileSource(tuple(paths), "json", description, json_format=fmt)
    raise SourceError(f"{pattern!r}: unknown file type {suffix!r}; expected Parquet, CSV, JSON or JSONL")


def _csv_header(path: str, delimiter: str) -> tuple[str, ...]:
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            row = next(csv.reader(handle, delimiter=delimiter, quotechar='"'), None)
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path!r} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except csv.Error as exc:
        raise SourceError(f"{path!r}: cannot read the header line: {exc}") from None
    if not row or all(not c.strip() for c in row):
        raise SourceError(f"{path!r} has no header line (the first line names the columns)")
    if "\x00" in "".join(row):
        raise SourceError(f"{path!r}: the header line contains a NUL character")
    seen: set[str] = set()
    for name in row:
        if name == "":
            raise SourceError(f"{path!r}: the header line has an empty column name")
        if name.lower() in seen:
            raise SourceError(f"{path!r}: the header names column {name!r} twice")
        seen.add(name.lower())
    return tuple(row)


def _first_bad_json_line(paths: tuple[str, ...], fmt: str) -> str | None:
    """The first line of the files that is not valid JSON, as a message (None if all parse)."""
    for path in paths:
        try:
            with open(path, encoding="utf-8-sig") as handle:
                if fmt != "newline_delimited":
                    text = handle.read()
                    try:
                        json.loads(text)
                        continue
                    except json.JSONDecodeError:
                        handle.seek(0)
                for number, line in enumerate(handle, start=1):
                    if not line.strip():
                        continue
                    try:
                        value = json.loads(line)
                    except json.JSONDecodeError as exc:
                        return (f"{path!r} line {number} is not valid JSON ({exc.msg} at column "
                                f"{exc.colno}): {_shorten(line.rstrip())}")
                    if not isinstance(value, dict):
                        return f"{path!r} line {number} is not a JSON object: {_shorten(line.rstrip())}"
        except UnicodeDecodeError as exc:
            return f"{path!r} is not UTF-8 text ({exc.reason} at byte {exc.start})"
    return None


def _shorten(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


SourceKind = Union[FileSource, str]


def resolve_source(source: Any, *, native: tuple[type, ...] = ()) -> SourceKind:
    """What ``source`` is: a :class:`FileSource`, ``"table"`` (a name for the engine to look up),
    ``"native"`` (one of the engine's own relation types) or ``"arrow"`` (an in-memory table)."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if not isinstance(text, str):
            raise SourceError(f"a source path must be text, got {source!r}")
        if text.strip() == "":
            raise SourceError("the source is an empty string; give a file path, a glob or a table name")
        if looks_like_path(text):
            return file_source(text)
        return "table"
    if native and isinstance(source, native):
        return "native"
    as_arrow(source, check_only=True)
    return "arrow"


def as_arrow(source: Any, *, check_only: bool = False) -> tuple[Any, str]:
    """An in-memory table as a pyarrow Table (a RecordBatchReader is read once, here)."""
    import pyarrow as pa

    if isinstance(source, pa.Table):
        return source, "the Arrow table"
    if isinstance(source, pa.RecordBatchReader):
        return (None if check_only else source.read_all()), "the Arrow record batches"
    module = type(source).__module__.split(".")[0]
    if module == "pandas" and hasattr(source, "columns"):
        if check_only:
            return None, "the pandas DataFrame"
        try:
            return pa.Table.from_pandas(source, preserve_index=False), "the pandas DataFrame"
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise SourceError(f"cannot read the pandas DataFrame: {str(exc).splitlines()[0]}") from None
    if module == "polars" and hasattr(source, "to_arrow"):
        return (None if check_only else source.to_arrow()), "the polars DataFrame"
    raise SourceError(
        f"cannot use a {type(source).__name__} as a source; give a file path or glob, a pyarrow "
        "Table, a pandas or polars DataFrame, a DuckDB relation, or a table name with con=")


Reader = Callable[[Any], Any]
