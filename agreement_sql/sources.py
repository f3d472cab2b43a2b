"""Sources: what a caller may pass as ``source``, recognised without touching a database.

Accepted: a path or glob of Parquet, CSV/TSV, JSON or JSONL files, or a folder of Parquet or CSV
files (hive partition folders key=value read as text columns, docs/decisions/0024); a pyarrow Table or
RecordBatchReader; a pandas or polars DataFrame; an engine's native relation (a DuckDB
relation); or the name of a table or view (with ``con=``). The engine
(:mod:`agreement_sql.engine`) registers the source under a generated name and never modifies it.

Text files are read with rules stated here rather than guessed by a sniffer (a sniffer can
mistake a ragged CSV for a one-column file or skip its first rows):

* CSV: the header is the first line, read with Python's csv module (a UTF-8 byte-order mark is
  dropped); the delimiter is ``,`` (``\\t`` for .tsv), quotes are ``"`` doubled to escape,
  line ends LF or CRLF; every column is text (ids stay ``"007"``; ratings are read as numbers
  by the canonical ratings relation, docs/decisions/0002 and 0014); a row with too few or too
  many fields is an error naming its line. Every file of a glob must have the same header.
  An empty first name is R's ``write.csv`` row-names column, read as ``row_names``; names
  that differ only in case (or repeat) are read, and a call names one of them
  (engine.kept_columns).
* JSON: one object per line for .jsonl/.ndjson; .json may also be an array of objects. A line
  that is not JSON is an error naming the file and the line (counted from 1). Values are read
  as text, as a CSV's are (an object as a struct of texts: docs/decisions/0014).
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

from .errors import OptionError, SourceError

PARQUET = (".parquet", ".pq")
ROW_NAMES = "row_names"           # the column R's write.csv writes its row names in (header "")
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
    hive: tuple[str, ...] = ()        # hive partition columns (key=value folders), in order
    base: str = ""                    # the folder the key=value folders start under

    @property
    def names(self) -> tuple[str, ...]:
        """A CSV's column names as a call sees them: the header's, R's empty first name (its
        row names) read as ``row_names``, then the hive partition columns."""
        if self.header and self.header[0] == "":
            return (ROW_NAMES,) + self.header[1:] + self.hive
        return self.header + self.hive

    @property
    def row_names(self) -> str | None:
        """The column naming each row (R's row names), when the header has one."""
        return ROW_NAMES if self.header and self.header[0] == "" else None

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


def _hidden(relative: str) -> bool:
    """A file a folder source skips: a name or folder starting with '.' or '_' (a writer's
    temporary file, Spark's _SUCCESS and .crc files, agreement-sql's own .NAME.tmp)."""
    return any(part.startswith((".", "_")) for part in Path(relative).parts)


def folder_files(folder: str) -> list[str]:
    """Every Parquet or CSV file under ``folder``, at any depth (hidden ones left out)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if Path(name).suffix.lower() in PARQUET + CSV and \
                    not _hidden(os.path.relpath(path, folder)):
                found.append(path)
    return found


HIVE_FOLDER = re.compile(r"^([^=]+)=(.*)$")


def hive_partitions(paths: list[str]) -> tuple[tuple[str, ...], str]:
    """The hive partition columns of ``paths`` (folders named ``key=value``, as Spark, DuckDB
    and Hive write them) and the folder they start under: () when a file has none, or when
    the files do not all have the same keys in the same order (then none is read, as a glob
    of unrelated files)."""
    keys: tuple[str, ...] | None = None
    base: str | None = None
    for path in paths:
        parts = Path(os.path.abspath(path)).parent.parts
        found = [(k, HIVE_FOLDER.match(part)) for k, part in enumerate(parts)]
        named = [(k, m.group(1)) for k, m in found if m]
        these = tuple(name for _, name in named)
        start = str(Path(*parts[:named[0][0]])) if named else ""
        if keys is None:
            keys, base = these, start
        elif these != keys or start != base:
            return (), ""
    if not keys:
        return (), ""
    return keys, base or ""


def _paths(pattern: str) -> list[str]:
    if os.path.isdir(pattern):
        found = folder_files(pattern)
        if not found:
            raise SourceError(f"the folder {pattern!r} holds no Parquet or CSV file")
        return found
    if any(ch in pattern for ch in "*?["):
        found = sorted(p for p in _glob.glob(pattern, recursive=True) if os.path.isfile(p))
        if not found:
            raise SourceError(f"no file matches {pattern!r}")
        return found
    if not os.path.exists(pattern):
        raise SourceError(f"file not found: {pattern!r}")
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
    hive, base = hive_partitions(paths) if suffix in PARQUET + CSV else ((), "")
    if suffix in PARQUET:
        return FileSource(tuple(paths), "parquet", description, hive=hive, base=base)
    if suffix in CSV:
        delimiter = "\t" if suffix == ".tsv" else ","
        header = _csv_header(paths[0], delimiter)
        for p in paths[1:]:
            other = _csv_header(p, delimiter)
            if other != header:
                raise SourceError(f"{p!r} has the header {list(other)!r}, but {paths[0]!r} has "
                                  f"{list(header)!r}; every file of a glob needs the same columns")
        refuse_overlap(header, hive, pattern)
        return FileSource(tuple(paths), "csv", description, header=header, delimiter=delimiter,
                          hive=hive, base=base)
    if suffix in JSON:
        fmt = "newline_delimited" if suffix in (".jsonl", ".ndjson") else "auto"
        return FileSource(tuple(paths), "json", description, json_format=fmt)
    raise SourceError(f"{pattern!r}: unknown file type {suffix!r}; expected Parquet, CSV, JSON or JSONL")


def refuse_overlap(names: Any, hive: tuple[str, ...], pattern: str) -> None:
    """A partition folder named like a column of the files: which one a call reads would be
    the reader's choice; refused, naming both."""
    both = sorted({n.lower() for n in names} & {h.lower() for h in hive})
    if both:
        raise SourceError(f"{pattern!r}: the partition folders ({', '.join(hive)}=...) name "
                          f"{both[0]!r}, which the files also hold as a column; rename one")


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
    for i, name in enumerate(row):
        if name == "" and i > 0:
            raise SourceError(f"{path!r}: the header line has an empty column name (column "
                              f"{i + 1}); only the first may be empty (R's row names)")
    if row[0] == "" and ROW_NAMES in row:
        raise SourceError(f"{path!r}: the header's empty first name (R's row names) would be "
                          f"read as {ROW_NAMES!r}, which another column holds")
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
    """An in-memory table as a pyarrow Table (a RecordBatchReader is read once, here), in the
    types the engines read (docs/decisions/0014): half-precision floats as single precision
    (exactly), a pandas column of mixed Python objects as the text of each value; a pandas
    DataFrame's duplicate column names are kept (a call that names one is a ColumnError)."""
    import pyarrow as pa

    if isinstance(source, pa.Table):
        return (None if check_only else _readable(source)), "the Arrow table"
    if isinstance(source, pa.RecordBatchReader):
        return (None if check_only else _readable(source.read_all())), "the Arrow record batches"
    module = type(source).__module__.split(".")[0]
    if module == "pandas" and hasattr(source, "columns"):
        if check_only:
            return None, "the pandas DataFrame"
        return _readable(_from_pandas(source)), "the pandas DataFrame"
    if module == "polars" and hasattr(source, "to_arrow"):
        if check_only:
            return None, "the polars DataFrame"
        try:
            return _readable(source.to_arrow()), "the polars DataFrame"
        except Exception as exc:            # polars raises its own types (an Object column)
            raise SourceError(f"cannot read the polars DataFrame: {str(exc).splitlines()[0]}") from None
    raise SourceError(
        f"cannot use a {type(source).__name__} as a source; give a file path or glob, a pyarrow "
        "Table, a pandas or polars DataFrame, a DuckDB relation, a table name with con=, or "
        "label arrays (a list of lists or 1-D arrays, one per rater; docs/migrating.md)")


def _from_pandas(frame: Any) -> Any:
    """A pandas DataFrame as Arrow, column by column (so duplicate names are kept): an object
    column holding values of more than one Python type (numbers and text, as a JSON field can
    hold, or 1 and 1.0, which a CSV writes "1" and "1.0") becomes the text of each value
    (:func:`value_text`), as its CSV would hold it; any other column is pyarrow's conversion."""
    import pandas as pd
    import pyarrow as pa

    infer_dtype = pd.api.types.infer_dtype
    names = [str(c) for c in frame.columns]
    arrays = []
    for i, name in enumerate(names):
        series = frame.iloc[:, i]
        try:
            mixed = series.dtype == object and infer_dtype(series, skipna=True).startswith("mixed")
            if not mixed:
                arrays.append(pa.array(series, from_pandas=True))
                continue
        except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError, TypeError):
            pass
        try:
            arrays.append(pa.array([value_text(v) for v in series], type=pa.string()))
        except Exception as exc:
            raise SourceError(f"cannot read column {name!r} of the pandas DataFrame: "
                              f"{str(exc).splitlines()[0]}") from None
    return pa.Table.from_arrays(arrays, names=names)


def value_text(value: Any) -> str | None:
    """A Python value as the text a CSV writer or a JSON reader gives it (docs/decisions/0014):
    None and NaN as NULL, text as it is, True/False as true/false, an integer in digits, a
    float as Python's repr writes it (7.0, 0.1, 1e+16), anything else as str() does."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()                # numpy scalars
        except (TypeError, ValueError):
            pass
    if value is None or _is_missing(value):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return None if value != value else repr(value)
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def _is_missing(value: Any) -> bool:
    """pandas' missing scalars (NaN, NaT, NA) and float NaN."""
    if isinstance(value, float):
        return value != value
    if isinstance(value, (str, bytes, bool, int)):
        return False
    try:
        import pandas as pd

        return bool(pd.api.types.is_scalar(value) and pd.isna(value))
    except (ImportError, TypeError, ValueError):
        return False


def _readable(table: Any) -> Any:
    """``table`` with its half-precision float columns as single precision (exact): neither
    engine reads Arrow's float16."""
    import pyarrow as pa

    halves = [i for i, f in enumerate(table.schema) if pa.types.is_float16(f.type)]
    for i in halves:
        table = table.set_column(i, table.schema.field(i).with_type(pa.float32()),
                                 table.column(i).cast(pa.float32()))
    return table


Reader = Callable[[Any], Any]


# -- the peers' layouts (docs/migrating.md) ------------------------------------------------------------
# A source in a peer library's shape is turned into the canonical long ratings by one adapter in
# SQL (sql/_ratings.sql.j2, option layout); here only in-memory arrays get column names, by
# reshaping (no loop over rows):
#   wide    units x raters (irrCAC raw data): one column per rater, a row per unit
#   counts  units x categories (statsmodels aggregate_raters, irrCAC *.dist, krippendorff
#           value_counts): a column per category, a cell counts the raters who chose it
#   table   a two-rater contingency table (irrCAC *.table, statsmodels cohens_kappa): a row per
#           category of rater A, a column per category of rater B, a cell counts units
# Label arrays (scikit-learn's y1, y2) are a list or tuple of one-dimensional arrays, one per
# rater, aligned by unit: the wide layout with raters as rows.

LAYOUTS = ("long", "wide", "counts", "table")
ORIENTATIONS = ("units_x_raters", "raters_x_units")
LAYOUT_COLUMN_PREFIX = "agreement_sql_"     # the adapter's own columns (sql/_layout_rows.sql.j2)


@dataclass(frozen=True)
class Layout:
    """How a source holds its ratings: ``kind`` one of :data:`LAYOUTS`; ``rater_columns`` the
    wide layout's rater columns (None: every column but the unit, metric and slice columns);
    ``orientation`` of a two-dimensional array (wide layout)."""

    kind: str = "long"
    rater_columns: tuple[str, ...] | None = None
    orientation: str | None = None
    explicit: bool = False            # the caller named the layout (layout="long" is honoured)


def check_layout(layout: Any = "long", rater_columns: Any = None, orientation: Any = None) -> Layout:
    """The ``layout=``, ``rater_columns=`` and ``orientation=`` keywords, checked once (a
    :class:`Layout` already checked passes through)."""
    if isinstance(layout, Layout) and rater_columns is None and orientation is None:
        return layout
    explicit = layout is not None
    if layout is None:
        layout = "long"
    if layout not in LAYOUTS:
        raise OptionError(f"layout must be one of {', '.join(map(repr, LAYOUTS))}, got {layout!r}")
    columns: tuple[str, ...] | None = None
    if rater_columns is not None:
        if layout != "wide":
            raise OptionError(f"rater_columns= names the rater columns of layout='wide', not of "
                               f"layout={layout!r}")
        if isinstance(rater_columns, (str, bytes)):
            rater_columns = [rater_columns]
        try:
            columns = tuple(rater_columns)
        except TypeError:
            raise OptionError(f"rater_columns= must be a list of column names, got "
                               f"{rater_columns!r}") from None
        if not columns or not all(isinstance(c, str) and c for c in columns):
            raise OptionError(f"rater_columns= must list one or more column names, got "
                               f"{rater_columns!r}")
        if len({c.lower() for c in columns}) != len(columns):
            raise OptionError(f"rater_columns= names a column twice: {list(columns)!r}")
    if orientation is not None and orientation not in ORIENTATIONS:
        raise OptionError(f"orientation must be 'units_x_raters' (a row per unit, irrCAC) or "
                           f"'raters_x_units' (a row per rater, krippendorff's reliability_data), "
                           f"got {orientation!r}")
    if orientation is not None and layout != "wide":
        raise OptionError(f"orientation= applies to layout='wide', not to layout={layout!r} ("
                          + {"long": "a row per rating", "counts": "a row per unit",
                             "table": "a row per category of rater A"}[layout] + ")")
    return Layout(kind=layout, rater_columns=columns, orientation=orientation, explicit=explicit)


def _is_vector(x: Any) -> bool:
    """A one-dimensional sequence of values (a list, tuple, 1-D array or Series), not text."""
    if isinstance(x, (str, bytes)) or isinstance(x, dict):
        return False
    ndim = getattr(x, "ndim", None)
    if ndim is not None:
        return ndim == 1
    return isinstance(x, (list, tuple))


def is_label_arrays(source: Any) -> bool:
    """scikit-learn's shape: a list or tuple of two or more label arrays (one per rater), each a
    list, a 1-D NumPy array or a pandas Series; not tuples, which read as rows of a table."""
    return (isinstance(source, (list, tuple)) and len(source) >= 2
            and all(_is_vector(x) and not isinstance(x, tuple) for x in source))


def _is_row_list(source: Any) -> bool:
    """A list of rows of three values (nltk's (coder, item, label) triples)."""
    return (isinstance(source, list) and len(source) > 0
            and all(isinstance(r, (list, tuple)) and len(r) == 3 for r in source))


def _triples(rows: list[Any]) -> Any:
    """(coder, item, label) rows as a long table with columns rater, item, value (text ids; a
    label keeps its type)."""
    import pyarrow as pa

    def text(v: Any) -> str | None:
        return None if v is None else str(v.item() if hasattr(v, "item") else v)

    return pa.table({"rater": pa.array([text(r[0]) for r in rows], pa.string()),
                     "item": pa.array([text(r[1]) for r in rows], pa.string()),
                     "value": _column([r[2] for r in rows])})


def _is_array(source: Any) -> bool:
    return (type(source).__module__.split(".")[0] == "numpy" and getattr(source, "ndim", 0) == 2) \
        or (isinstance(source, (list, tuple)) and len(source) > 0 and all(_is_vector(x) for x in source))


def _column(values: Any) -> Any:
    """One column of an array as an Arrow array: NaN and None are null; a column mixing numbers
    and text (krippendorff's "*" among numbers) becomes text."""
    import pyarrow as pa

    try:
        return pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
        pass
    out: list[str | None] = []
    for v in list(values):                  # only a column of mixed Python objects gets here
        if v is None or (isinstance(v, float) and v != v):
            out.append(None)
        else:
            out.append(str(v.item() if hasattr(v, "item") else v))
    return pa.array(out, type=pa.string())


def _array_columns(data: Any, rows_are_columns: bool) -> list[Any]:
    """The columns of a 2-D array-like: ``rows_are_columns`` reads each row as a column (a row
    per rater, krippendorff's reliability_data; label arrays)."""
    if type(data).__module__.split(".")[0] == "numpy":
        matrix = data if rows_are_columns else data.T      # a view: no copy, no loop over rows
        return [matrix[j] for j in range(matrix.shape[0])]
    rows = [list(r) if not hasattr(r, "tolist") else r.tolist() for r in data]
    lengths = {len(r) for r in rows}
    if len(lengths) > 1:
        raise SourceError(f"the arrays have different lengths {sorted(lengths)}; every "
                          + ("rater's array needs one value per unit (None or NaN for no rating)"
                             if rows_are_columns else "row needs one value per column"))
    return rows if rows_are_columns else [list(c) for c in zip(*rows)]


def layout_source(source: Any, layout: Layout) -> tuple[Any, Layout, str | None]:
    """The source as the engine reads it, the layout it is in, and the column that names each
    row when the caller gave none (a pandas index that is not 0, 1, ..; else None).

    Label arrays (a list or tuple of 1-D arrays) are the wide layout with a row per rater; a 2-D
    NumPy array (or a list of lists) is read with column names "0", "1", .. (its raters, or
    its categories), or, for a counts or contingency table given as ``(table, categories)`` as
    statsmodels' aggregate_raters returns it, named by the categories."""
    if layout.kind == "long":
        if _is_row_list(source) and (layout.explicit or not is_label_arrays(source)):
            # nltk's AnnotationTask data: (coder, item, label) triples, one per rating; a list of
            # equal-length lists is label arrays unless layout="long" says it holds rows
            return _triples(source), layout, None
        if is_label_arrays(source):
            layout = Layout(kind="wide", orientation="raters_x_units")
        elif type(source).__module__.split(".")[0] == "numpy":
            raise OptionError("a NumPy array has no column names; say how it holds the ratings: "
                               "layout='wide' with orientation='raters_x_units' (krippendorff's "
                               "reliability_data) or 'units_x_raters' (irrCAC), layout='counts' "
                               "or layout='table'")
        else:
            return source, layout, None
    categories = None
    if layout.kind in ("counts", "table") and isinstance(source, tuple) and len(source) == 2 \
            and _is_array(source[0]) and _is_vector(source[1]):
        source, categories = source                   # statsmodels: (counts, categories)
    if _is_array(source):
        if layout.kind == "wide" and layout.orientation is None:
            raise OptionError("a two-dimensional array needs orientation='raters_x_units' (a row "
                               "per rater, krippendorff's reliability_data) or 'units_x_raters' "
                               "(a row per unit, irrCAC's raw data)")
        columns = _array_columns(source, layout.orientation == "raters_x_units")
        names = ([_category_name(c) for c in categories] if categories is not None
                 else [str(j) for j in range(len(columns))])
        if len(names) != len(columns):
            raise SourceError(f"{len(names)} categories for a table of {len(columns)} columns")
        if len(set(names)) != len(names):
            raise SourceError(f"the categories {names!r} name a column twice")
        import pyarrow as pa          # here only: importing it costs a path source 0.14 s

        return pa.table({n: _column(c) for n, c in zip(names, columns)}), layout, None
    if layout.orientation == "raters_x_units":
        raise OptionError("orientation='raters_x_units' is for arrays; a table's rows are its "
                           "units (transpose a DataFrame with .T first)")
    module = type(source).__module__.split(".")[0]
    if module == "pandas" and hasattr(source, "index") and hasattr(source, "columns"):
        index = source.index
        default = (type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1)
        if not default:
            name = index.name if isinstance(index.name, str) and index.name else "index"
            if name in [str(c) for c in source.columns]:
                name = LAYOUT_COLUMN_PREFIX + "index"
            frame = source.rename_axis(name).reset_index()
            return frame, layout, name
    return source, layout, None


def _category_name(value: Any) -> str:
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
