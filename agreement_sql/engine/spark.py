"""Spark, the engine for data that outgrows one machine: the same templates, run by Spark SQL.

``agreement_sql.connect(spark=spark)`` wraps a caller's SparkSession (classic or Spark Connect)
in a :class:`SparkEngine`; every public function takes it as ``con=``. pyspark is imported only
here, and only when such an engine is made (``pip install "agreement-sql[spark]"``).

* Sources: a Spark DataFrame, the name of a table or view the session can read (``db.table``,
  ``catalog.db.table``, ``delta.`/path```), or a path: a file or glob of Parquet, CSV/TSV, JSON
  or JSONL read by the same rules as on DuckDB (sources.py: CSV columns all text, the header
  from the first line, quotes doubled, a malformed row an error; JSON one object per line), a
  Delta table's folder (it holds ``_delta_log``), a folder of Parquet files written by Spark, or
  a URI the cluster reads (``s3://``, ``abfss://``, ``gs://``, ``dbfs:/`` ...; the suffix tells
  the format, none means Parquet).
* Every source is registered as a temporary view under a generated name
  ``agreement_sql_<kind>_<32 hex>``; nothing is written to the caller's catalog. Text files
  are parsed once into a cached temporary view; a materialised relation is ``CACHE TABLE name
  AS SELECT ...`` (eager, spills to disk). Where caching is refused (Databricks serverless)
  the view stays uncached and each statement recomputes it; the statements are deterministic.
  ``close()`` uncaches and drops every view the session made.
* Parameters are Spark's named parameters (``:name``, ``spark.sql(sql, args=...)``).
* Only the DataFrame and SQL API that Spark Connect supports is used (no SparkContext, no RDD,
  no JVM access), so a Connect session works the same way.
* Floating-point sums are ``SUM`` (decision 0008): Spark's partial sums are added in an order
  the scheduler picks, so a float result may differ in its last bits between runs (integers
  are exact); the cross-engine tests compare floats with DuckDB's to 1e-9.
* Input order (``on_duplicate="first"``/``"last"``, workflows that report in order first seen)
  is ``monotonically_increasing_id()``: the order of rows within a file and of a DataFrame
  made from local data; across several files Spark orders its input partitions itself (by
  size), so give one file, or one DataFrame, when first/last must follow a file order.
"""
from __future__ import annotations

import decimal
import os
import re
import sys
import uuid
from typing import Any, Mapping, Sequence

from ..dialects import SPARK, Dialect
from ..errors import AgreementError, SourceError
from ..sources import CSV, JSON, PARQUET, FileSource, as_arrow, resolve_source
from .base import (BOOLEAN, DECIMAL, FLOAT, INTEGER, NUMBER, OTHER, STRUCT, TEXT, Column, Columns,
                   Relation, kept_columns)

_TRACE = bool(os.environ.get("AGREEMENT_SQL_TRACE"))
_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/")
_NUMBER_TYPES = {"ByteType", "ShortType", "IntegerType", "LongType", "FloatType", "DoubleType",
                 "DecimalType"}
_TEXT_TYPES = {"StringType", "VarcharType", "CharType"}


def generated_name(kind: str) -> str:
    return f"agreement_sql_{kind}_{uuid.uuid4().hex}"


def is_spark_session(obj: Any) -> bool:
    """A pyspark SparkSession, classic or Spark Connect (checked without importing pyspark)."""
    cls = type(obj)
    return (cls.__name__ == "SparkSession" and cls.__module__.startswith("pyspark.")
            and hasattr(obj, "sql") and hasattr(obj, "createDataFrame"))


def is_spark_dataframe(obj: Any) -> bool:
    """A pyspark DataFrame, classic or Spark Connect (checked without importing pyspark)."""
    return any(c.__name__ == "DataFrame" and c.__module__.startswith("pyspark.sql")
               for c in type(obj).__mro__)


def _spark_errors() -> tuple[type[BaseException], ...]:
    """The exception types a Spark call raises for a refused query or a failed job."""
    found: list[type[BaseException]] = []
    try:
        from pyspark.errors import PySparkException
        found.append(PySparkException)
    except ImportError:     # pragma: no cover - pyspark < 3.4
        pass
    try:
        import importlib                            # classic sessions: a JVM-side failure
        found.append(importlib.import_module("py4j.protocol").Py4JError)
    except ImportError:     # pragma: no cover - Spark Connect without py4j
        pass
    return tuple(found) or (Exception,)


def _first_line(exc: BaseException) -> str:
    """The first line of what Spark says went wrong: a PySpark error's message, or, for an
    error of the JVM reached through py4j (whose own text starts "An error occurred while
    calling o146.parquet."), the Java exception's message."""
    text = str(exc).strip()
    for source in (exc, getattr(exc, "java_exception", None)):
        if source is not None and hasattr(source, "getMessage"):
            try:
                text = str(getattr(source, "getMessage")()).strip() or text
            except Exception:   # pragma: no cover - a message that cannot be read
                pass
    return text.splitlines()[0] if text else type(exc).__name__


def _explain(files: FileSource, engine_message: str) -> str:
    """A reading error of ``files`` in the caller's terms, as on DuckDB: for CSV the first row
    whose field count differs from the header's, by its line (Spark's FAILFAST message names
    no line), else what sources.py makes of the engine's message (JSON: the first line that
    does not parse)."""
    if files.kind == "csv":
        found = _first_bad_csv_row(files)
        if found is not None:
            path, line, problem = found
            where = files.description if len(files.paths) == 1 else repr(path)
            return f"{where} line {line}: {problem}"
    return files.explain(engine_message)


def _first_bad_csv_row(files: FileSource) -> tuple[str, int, str] | None:
    """(file, line where the record starts, what is wrong) of the first CSV record whose field
    count is not the header's, read with Python's csv module as sources.py reads a header."""
    import csv

    for path in files.paths:
        try:
            with open(path, newline="", encoding="utf-8-sig", errors="replace") as handle:
                reader = csv.reader(handle, delimiter=files.delimiter)
                start = 1
                for row in reader:
                    if row and len(row) != len(files.header):
                        return (path, start, f"{len(row)} fields where the header has "
                                             f"{len(files.header)}")
                    start = reader.line_num + 1
        except (OSError, csv.Error):
            continue
    return None


def column_kind(type_name: str) -> str:
    if type_name in _NUMBER_TYPES:
        return NUMBER
    if type_name == "BooleanType":
        return BOOLEAN
    if type_name in _TEXT_TYPES:
        return TEXT
    if type_name == "StructType":
        return STRUCT
    return OTHER


def numeric_kind(type_: Any) -> str:
    """INTEGER, FLOAT or DECIMAL for a Spark number type ("" for any other type): a DECIMAL of
    scale 0 holds whole numbers only."""
    name = type(type_).__name__
    if name in ("FloatType", "DoubleType"):
        return FLOAT
    if name == "DecimalType":
        return INTEGER if getattr(type_, "scale", None) == 0 else DECIMAL
    return INTEGER if name in _NUMBER_TYPES else ""


def _column(field: Any, name: str | None = None) -> Column:
    type_ = field.dataType
    kind = column_kind(type(type_).__name__)
    fields: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    numerics: tuple[str, ...] = ()
    if kind == STRUCT:
        fields = tuple(f.name for f in type_.fields)
        kinds = tuple(column_kind(type(f.dataType).__name__) for f in type_.fields)
        numerics = tuple(numeric_kind(f.dataType) for f in type_.fields)
    return Column(name=field.name if name is None else name, kind=kind,
                  type_name=type_.simpleString(), fields=fields, field_kinds=kinds,
                  numeric=numeric_kind(type_), field_numerics=numerics)


def _plain(value: Any, integral: bool = False) -> Any:
    """A result value as DuckDB's driver gives it: DECIMAL as float (or int for scale 0),
    Row as dict, arrays as lists."""
    if value is None:
        return None
    if isinstance(value, decimal.Decimal):
        return int(value) if integral else float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "asDict"):
        return {k: _plain(v) for k, v in value.asDict().items()}
    return value


class SparkEngine:
    """``SparkEngine(spark)``: run on a caller's SparkSession (classic or Spark Connect).

    ``cache``: keep materialised relations with ``CACHE TABLE`` (None: try, and fall back to
    plain temporary views where the session refuses caching, as Databricks serverless does).
    """

    dialect: Dialect = SPARK

    def __init__(self, spark: Any, *, cache: bool | None = None) -> None:
        if not is_spark_session(spark):
            from ..errors import OptionError
            raise OptionError(f"spark= must be a pyspark SparkSession, got a {type(spark).__name__}")
        self.spark = spark
        self.cache = cache

    def session(self) -> "SparkCallSession":
        return SparkCallSession(self)

    def __repr__(self) -> str:
        return f"SparkEngine({self.spark!r})"


class SparkCallSession:
    """One call's access to Spark: its temporary views, dropped on close."""

    dialect: Dialect = SPARK

    def __init__(self, engine: SparkEngine) -> None:
        self._engine = engine
        self.spark = engine.spark
        self._errors = _spark_errors()
        self._views: list[str] = []
        self._cached: list[str] = []
        self._frames: list[Any] = []          # checkpointed DataFrames, released on close

    # -- sources -------------------------------------------------------------------------
    def read_source(self, source: Any, *, columns: Columns | None = None) -> Relation:
        """The source registered as a view of the kept columns under the names the source gives
        them (its columns renamed by position first, so that two names differing only in case,
        which Spark's analyser calls ambiguous, can be told apart; docs/decisions/0014). A
        text file is parsed and cached whole first, whatever ``columns`` keeps, so a malformed
        row is reported as such."""
        df, names, description, parse = self._frame(source, columns)
        found = resolve_source(source) if isinstance(source, (str, os.PathLike)) and \
            self._special_path_kind(source) is None else None
        row_names = found.row_names if isinstance(found, FileSource) else None
        return self._expose(df, names, description, columns, parse=parse, row_names=row_names,
                            files=found if isinstance(found, FileSource) else None)

    @staticmethod
    def _special_path_kind(source: Any) -> str | None:
        text = os.fspath(source)
        if not isinstance(text, str):
            return None
        if os.path.isdir(text):
            return "folder"
        return "uri" if _URI.match(text) and not os.path.exists(text) else None

    def _frame(self, source: Any, columns: Columns | None) -> tuple[Any, list[str], str, bool]:
        """(DataFrame, the source's column names, description, parse it once and cache)."""
        if is_spark_dataframe(source):
            # a DataFrame's plan is registered as it is; each statement reads it again
            return source, list(source.columns), "the Spark DataFrame", False
        if isinstance(source, (str, os.PathLike)):
            text = os.fspath(source)
            if isinstance(text, str):
                special = self._special_path(text)
                if special is not None:
                    return special
        kind = resolve_source(source)
        if isinstance(kind, FileSource):
            return self._read_files(kind, columns)
        if kind == "table":
            return self._read_table(str(source))
        table, description = as_arrow(source)
        return self._dataframe_of(table, description), list(table.column_names), description, False

    def _expose(self, df: Any, names: list[str], description: str, columns: Columns | None, *,
                parse: bool, row_names: str | None = None,
                files: FileSource | None = None) -> Relation:
        try:
            positional = df.toDF(*[f"c{i}" for i in range(len(df.columns))])
            fields = positional.schema.fields
            given = names if len(names) == len(fields) else list(df.columns)
            if parse:
                # text is parsed once, now: a malformed row is reported before any statistic
                # (a ragged CSV's line found by agreement_sql.sources, as on DuckDB)
                self._register(positional, description, "files", cheap_scan=False, cache=True,
                               files=files)
        except self._errors as exc:
            message = _first_line(exc)
            raise SourceError(_explain(files, message) if files is not None
                              else f"cannot read {description}: {message}") from None
        described = Relation(name="", description=description, cheap_scan=True,
                             columns=tuple(_column(f, n) for f, n in zip(fields, given)),
                             row_names=row_names)
        kept = kept_columns(described, columns)
        at = {n: i for i, n in enumerate(given)}
        try:
            projected = positional.selectExpr(*[f"c{at[n]} AS {SPARK.quote_identifier(n)}"
                                                for n in kept])
        except self._errors as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
        relation = self._register(projected, description, "src", cheap_scan=True)
        return Relation(name=relation.name, columns=relation.columns, description=description,
                        cheap_scan=True, row_names=row_names if row_names in kept else None)

    def _special_path(self, text: str) -> tuple[Any, list[str], str, bool] | None:
        """A URI the cluster reads, a Delta table's folder or a folder of Parquet files (the
        shapes Spark writes), which sources.py, a reader of local files, does not know."""
        is_uri = bool(_URI.match(text)) and not os.path.exists(text)
        is_dir = os.path.isdir(text)
        if not is_uri and not is_dir:
            return None
        description = repr(text)
        suffix = os.path.splitext(text.rstrip("/"))[1].lower()
        reader = self.spark.read
        try:
            if is_dir and os.path.isdir(os.path.join(text, "_delta_log")):
                df = reader.format("delta").load(text)
                return df, list(df.columns), description, False
            if is_dir and not suffix:
                # a local folder of Parquet or CSV files: read as DuckDB reads it, its
                # partition folders as text columns (agreement_sql.sources, decision 0024)
                from ..sources import file_source

                return self._read_files(file_source(text), None)
            if suffix in CSV:
                sep = "\t" if suffix == ".tsv" else ","
                df = (reader.option("header", True).option("sep", sep).option("quote", '"')
                      .option("escape", '"').option("multiLine", True).option("mode", "FAILFAST")
                      .option("inferSchema", False).csv(text))
                return df, list(df.columns), description, True
            if suffix in JSON:
                df = (reader.option("mode", "FAILFAST").option("primitivesAsString", True)
                      .option("multiLine", suffix == ".json").json(text))
                return df, list(df.columns), description, True
            if suffix in PARQUET or suffix == "" or is_dir:
                df = reader.parquet(text)
                return df, list(df.columns), description, False
        except self._errors as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None
        raise SourceError(f"{text!r}: unknown file type {suffix!r}; expected Parquet, CSV, JSON, "
                          "JSONL or a Delta table's folder")

    def _read_table(self, name: str) -> tuple[Any, list[str], str, bool]:
        """A table or view the session can read, read in place through a temporary view."""
        try:
            df = self.spark.table(name)
            df.schema                                   # resolves the name now
        except self._errors:
            raise SourceError(f"no file, table or view named {name!r}") from None
        return df, list(df.columns), f"table {name!r}", False

    def _read_files(self, files: FileSource, columns: Columns | None) -> tuple[Any, list[str], str, bool]:
        reader = self.spark.read
        paths = [os.path.abspath(p) for p in files.paths]
        try:
            if files.hive:
                # hive partition columns (key=value folders) found from the folder they start
                # under, read as text as on DuckDB (decisions 0014, 0024)
                reader = reader.option("basePath", os.path.abspath(files.base))
            if files.kind == "parquet":
                df = reader.parquet(*paths)
                if files.hive:
                    df = self._partitions_as_text(df, files, paths)
                return df, list(df.columns), files.description, False
            if files.kind == "csv":
                # every column as text under a name of its position (the header's names may
                # differ only in case, or be R's empty first name)
                from pyspark.sql.types import StringType, StructField, StructType
                schema = StructType([StructField(f"c{i}", StringType(), True)
                                     for i in range(len(files.header))]
                                    + [StructField(h, StringType(), True) for h in files.hive])
                df = (reader.schema(schema).option("header", True).option("enforceSchema", True)
                      .option("sep", files.delimiter).option("quote", '"').option("escape", '"')
                      .option("multiLine", True).option("mode", "FAILFAST").csv(paths))
                # the partition columns after the header's, in the reader's order
                names = list(files.names)[:len(files.header)] + list(df.columns)[len(files.header):]
                return df, names, files.description, True
            # JSON as text, as a CSV is (docs/decisions/0014): every primitive as a string
            array = files.json_format != "newline_delimited" and _json_array(paths[0])
            try:
                df = (reader.option("mode", "FAILFAST").option("multiLine", array)
                      .option("primitivesAsString", True).json(paths))
                df.schema
            except self._errors as exc:
                if "COLUMN_ALREADY_EXISTS" not in str(exc) and "ambiguous" not in str(exc).lower():
                    raise
                df = self._json_differing_in_case(paths, array, files.description, columns)
            return df, list(df.columns), files.description, True
        except self._errors as exc:
            raise SourceError(_explain(files, _first_line(exc))) from None

    def _partitions_as_text(self, df: Any, files: FileSource, paths: list[str]) -> Any:
        """``df`` read again with its partition columns typed as text (Spark infers numbers and
        dates from the folder names: '007' would be 7, where DuckDB keeps '007')."""
        from pyspark.sql.types import StringType, StructField, StructType

        fields = df.schema.fields
        if all(isinstance(f.dataType, StringType) for f in fields if f.name in files.hive):
            return df
        schema = StructType([StructField(f.name, StringType(), True) if f.name in files.hive
                             else f for f in fields])
        return (self.spark.read.schema(schema).option("basePath", os.path.abspath(files.base))
                .parquet(*paths))

    def _json_differing_in_case(self, paths: list[str], array: bool, description: str,
                                columns: Columns | None) -> Any:
        """JSON files whose keys differ only in case, which Spark's case-insensitive analyser
        refuses: the keys inferred in a session of their own that tells them apart, then only
        the kept keys read here (Spark matches a JSON key to a schema field exactly)."""
        from pyspark.sql.types import StructType

        errors: tuple[type[BaseException], ...] = (AttributeError, *self._errors)
        try:
            apart = self.spark.newSession()
            apart.conf.set("spark.sql.caseSensitive", "true")
            schema = (apart.read.option("mode", "FAILFAST").option("multiLine", array)
                      .option("primitivesAsString", True).json(paths).schema)
        except errors as exc:
            raise SourceError(f"cannot read {description}: keys differ only in case, which this "
                              f"Spark session cannot tell apart ({_first_line(exc)})") from None
        described = Relation(name="", description=description, cheap_scan=False,
                             columns=tuple(_column(f) for f in schema.fields))
        kept = set(kept_columns(described, columns))
        fields = [f for f in schema.fields if f.name in kept]
        return (self.spark.read.schema(StructType(fields)).option("mode", "FAILFAST")
                .option("multiLine", array).json(paths))

    def _dataframe_of(self, table: Any, description: str) -> Any:
        try:
            return self.spark.createDataFrame(table)
        except (TypeError, ValueError):
            # pyspark before 4.0 takes pandas, not Arrow
            return self.spark.createDataFrame(table.to_pandas())
        except self._errors as exc:
            raise SourceError(f"cannot read {description}: {_first_line(exc)}") from None

    def _register(self, df: Any, description: str, kind: str, *, cheap_scan: bool,
                  cache: bool = False, files: FileSource | None = None) -> Relation:
        name = generated_name(kind)
        try:
            df.createOrReplaceTempView(name)
            self._views.append(name)
            if cache:
                self._cache(name, description)
            columns = tuple(_column(f) for f in df.schema.fields)
        except self._errors as exc:
            message = _first_line(exc)
            raise SourceError(_explain(files, message) if files is not None
                              else f"cannot read {description}: {message}") from None
        return Relation(name=name, columns=columns, description=description,
                        cheap_scan=cheap_scan or cache)

    def _cache(self, name: str, description: str) -> None:
        """Cache a registered view eagerly (computed now, errors now); where the session
        refuses caching the view stays as it is."""
        if self._engine.cache is False:
            self._count(name)
            return
        try:
            self.spark.sql("CACHE TABLE " + SPARK.quote_identifier(name))
            self._cached.append(name)
            self._engine.cache = True
        except self._errors as exc:
            if self._engine.cache is None and _refuses_caching(exc):
                self._engine.cache = False
                self._count(name)
                return
            raise

    def _count(self, name: str) -> None:
        """Compute a view once (so a malformed file is reported now, as on DuckDB)."""
        self.spark.sql("SELECT COUNT(*) AS n FROM " + SPARK.quote_identifier(name)).collect()

    # -- package relations ---------------------------------------------------------------
    def register_arrow(self, table: Any, kind: str) -> str:
        df = self._dataframe_of(table, f"the {kind} table")
        name = generated_name(kind)
        try:
            df.createOrReplaceTempView(name)
        except self._errors as exc:
            raise AgreementError(f"{kind}: cannot register a table: {_first_line(exc)}") from None
        self._views.append(name)
        return name

    def materialize(self, sql: str, params: dict[str, Any], kind: str) -> Relation:
        name = generated_name(kind)
        df = self._sql(sql, params, what=kind)
        try:
            df.createOrReplaceTempView(name)
            self._views.append(name)
            self._cache(name, f"the {kind} table")
            columns = tuple(_column(f) for f in df.schema.fields)
        except self._errors as exc:
            raise AgreementError(f"{kind}: the database refused the query: {_first_line(exc)}") from exc
        return Relation(name=name, columns=columns, description=f"the {kind} table",
                        cheap_scan=True)

    def query(self, sql: str, params: dict[str, Any], *, what: str) -> list[dict[str, Any]]:
        names, rows = self._collect(sql, params, what=what)
        return [dict(zip(names, row)) for row in rows]

    def query_parts(self, sql: str, params: dict[str, Any], *, what: str,
                    parts: Mapping[str, Sequence[str]],
                    sinks: Mapping[str, Any] | None = None) -> dict[str, dict[str, list[Any]]]:
        names, rows = self._collect(sql, params, what=what)
        at = {name: i for i, name in enumerate(names)}
        tag = at["part"]
        for part, sink in (sinks or {}).items():
            # the sink's declared types decide the file's, whichever engine gave the values
            kept = [row for row in rows if row[tag] == part]
            if kept:
                sink.write_values({col: [row[at[col]] for row in kept] for col, _, _ in sink.columns})
            sink.close()
        return {part: {name: [row[at[name]] for row in rows if row[tag] == part] for name in kept}
                for part, kept in parts.items()}

    def _collect(self, sql: str, params: dict[str, Any], *, what: str) -> tuple[list[str], list[list[Any]]]:
        """The statement's column names and rows, values as DuckDB's driver gives them."""
        df = self._sql(sql, params, what=what)
        try:
            if _TRACE:
                import time
                started = time.perf_counter()
            rows = df.collect()
            if _TRACE:
                print(f"agreement-sql trace: {what} {time.perf_counter() - started:.3f}s",
                      file=sys.stderr)
            fields = df.schema.fields
        except self._errors as exc:
            raise AgreementError(f"{what}: the database refused the query: {_first_line(exc)}") from exc
        integral = [type(f.dataType).__name__ == "DecimalType" and f.dataType.scale == 0
                    for f in fields]
        names = [f.name for f in fields]
        return names, [[_plain(v, i) for v, i in zip(row, integral)] for row in rows]

    def _sql(self, sql: str, params: dict[str, Any], *, what: str) -> Any:
        try:
            return self._statement(self._shared_ctes_computed(sql, params), params)
        except self._errors as exc:
            raise AgreementError(f"{what}: the database refused the query: {_first_line(exc)}") from exc

    def _statement(self, sql: str, params: dict[str, Any]) -> Any:
        used = {k: v for k, v in params.items() if re.search(":" + k + r"\b", sql)}
        return self.spark.sql(sql, args=_spark_args(used)) if used else self.spark.sql(sql)

    def _shared_ctes_computed(self, sql: str, params: dict[str, Any]) -> str:
        """The statement with each CTE read more than once computed once, into a checkpointed
        temporary view, its body replaced by a read of that view (see split_ctes). A recursive
        CTE (``WITH RECURSIVE``, Spark 4.1 on) is computed the same way when read twice: the
        statement that computes it keeps the ``RECURSIVE`` keyword (join_ctes)."""
        parsed = split_ctes(sql)
        if parsed is None:
            return sql
        ctes, final = parsed
        names = {name.lower() for name, _, _ in ctes}
        for i, (name, hint, body) in enumerate(ctes):
            if hint == SPARK.inline and SPARK.inline:
                continue
            later = " ".join(b for _, _, b in ctes[i + 1:]) + " " + final
            if _references(later, names).get(name.lower(), 0) < 2:
                continue
            query = join_ctes(ctes[: i + 1], "\nSELECT * FROM " + name)
            view = self._checkpoint(self._statement(query, params), "cte")
            ctes[i] = (name, "", "SELECT * FROM " + SPARK.quote_identifier(view))
        return join_ctes(ctes, final)

    def _checkpoint(self, df: Any, kind: str) -> str:
        """Compute ``df`` now and register its rows (not its plan) as a temporary view."""
        name = generated_name(kind)
        try:
            rows = df.localCheckpoint(eager=True)
        except self._errors as exc:
            if not _refuses_caching(exc):
                raise
            rows = df                       # a session without checkpoints: the plan stays
        rows.createOrReplaceTempView(name)
        self._views.append(name)
        self._frames.append(rows)
        return name

    def close(self) -> None:
        for name in reversed(self._cached):
            try:
                self.spark.sql("UNCACHE TABLE IF EXISTS " + SPARK.quote_identifier(name))
            except self._errors:
                pass
        for name in reversed(self._views):
            try:
                self.spark.catalog.dropTempView(name)
            except self._errors:
                pass
        for frame in self._frames:
            try:
                frame.unpersist()
            except (self._errors + (AttributeError,)):
                pass
        self._cached.clear()
        self._views.clear()
        self._frames.clear()


def _refuses_caching(exc: BaseException) -> bool:
    text = str(exc).upper()
    return "NOT_SUPPORTED" in text or "NOT SUPPORTED" in text or "UNSUPPORTED" in text


def _spark_args(params: dict[str, Any]) -> dict[str, Any]:
    """Bound values as Spark literals: Python floats and ints as they are (a float stays
    DOUBLE; an int becomes BIGINT when it does not fit an INT)."""
    return dict(params)


def _json_array(path: str) -> bool:
    """Whether a .json file holds one JSON array (else objects one per line)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            while True:
                ch = handle.read(1)
                if not ch or not ch.isspace():
                    return ch == "["
    except OSError:
        return False


# -- shared CTEs ------------------------------------------------------------------------------
# Spark inlines every deterministic CTE at each place it is read, so a statement whose CTEs read
# each other several times (the kappa inputs read the unit patterns five times, each of which
# reads the ratings ...) grows into a plan exponential in its depth: minutes to plan, and the
# same aggregation computed hundreds of times. The session therefore computes each CTE that is
# read more than once (and not marked inline by the dialect, a cheap projection) once, into a
# checkpointed temporary view, and replaces the CTE's body by a read of that view. The SQL text
# of every CTE and of the final SELECT is the template's, unchanged; only where a shared CTE's
# rows come from differs (DuckDB does the same with its MATERIALIZED CTEs).

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _tokens(sql: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of the statement's tokens: "word", "(", ")", ",", "other"; comments,
    string literals and quoted identifiers are single tokens ("comment", "string", "quoted")."""
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(sql)
    while i < n:
        ch = sql[i]
        if ch.isspace():
            i += 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            j = n if j < 0 else j
            out.append(("comment", i, j))
            i = j
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(("comment", i, j))
            i = j
        elif ch in "'`\"":
            j = i + 1
            while j < n:
                if sql[j] == "\\" and ch == "'":
                    j += 2
                    continue
                if sql[j] == ch:
                    if j + 1 < n and sql[j + 1] == ch:      # a doubled quote
                        j += 2
                        continue
                    break
                j += 1
            out.append(("string" if ch == "'" else "quoted", i, min(j + 1, n)))
            i = j + 1
        elif ch in "(),":
            out.append((ch, i, i + 1))
            i += 1
        else:
            m = _WORD.match(sql, i)
            if m:
                out.append(("word", i, m.end()))
                i = m.end()
            else:
                out.append(("other", i, i + 1))
                i += 1
    return out


def split_ctes(sql: str) -> tuple[list[tuple[str, str, str]], str] | None:
    """``WITH [RECURSIVE] a AS (...), b AS (...) SELECT ...`` as ([(name, hint, body)], the
    final query); None when the statement does not start with a WITH clause. Whether the list
    was RECURSIVE need not be kept: join_ctes writes it where a CTE reads itself."""
    toks = [t for t in _tokens(sql) if t[0] != "comment"]
    if not toks or toks[0][0] != "word" or sql[toks[0][1]:toks[0][2]].upper() != "WITH":
        return None
    ctes: list[tuple[str, str, str]] = []
    k = 1
    if (len(toks) > 2 and toks[1][0] == "word" and sql[toks[1][1]:toks[1][2]].upper() == "RECURSIVE"
            and toks[2][0] == "word" and sql[toks[2][1]:toks[2][2]].upper() != "AS"):
        k = 2                       # WITH RECURSIVE name AS (..): not a CTE named "recursive"
    while True:
        if k + 1 >= len(toks) or toks[k][0] != "word":
            return None
        name = sql[toks[k][1]:toks[k][2]]
        if sql[toks[k + 1][1]:toks[k + 1][2]].upper() != "AS":
            return None
        # the hint: anything between AS and "(" (comments included), as written
        j = k + 2
        while j < len(toks) and toks[j][0] != "(":
            j += 1
        if j >= len(toks):
            return None
        hint = sql[toks[k + 1][2]:toks[j][1]].strip()
        depth, m = 0, j
        while m < len(toks):
            if toks[m][0] == "(":
                depth += 1
            elif toks[m][0] == ")":
                depth -= 1
                if depth == 0:
                    break
            m += 1
        if m >= len(toks):
            return None
        ctes.append((name, hint, sql[toks[j][2]:toks[m][1]]))
        if m + 1 < len(toks) and toks[m + 1][0] == ",":
            k = m + 2
            continue
        return ctes, sql[toks[m][2]:]


def _references(text: str, names: set[str]) -> dict[str, int]:
    """How often each CTE name is read in ``text`` (a word token not after a dot)."""
    counts: dict[str, int] = {}
    toks = _tokens(text)
    for i, (kind, a, b) in enumerate(toks):
        if kind != "word":
            continue
        word = text[a:b].lower()
        if word in names and not (i > 0 and text[toks[i - 1][1]:toks[i - 1][2]] == "."):
            counts[word] = counts.get(word, 0) + 1
    return counts


def join_ctes(ctes: list[tuple[str, str, str]], final: str) -> str:
    """The statement of ``ctes`` and ``final``: ``WITH RECURSIVE`` when some CTE reads itself
    (its own name in its body), else ``WITH``."""
    recursive = any(_references(body, {name.lower()}).get(name.lower(), 0) for name, _, body in ctes)
    return ("WITH RECURSIVE\n" if recursive else "WITH\n") + ",\n".join(
        f"{name} AS {hint} ({body})" for name, hint, body in ctes) + final
