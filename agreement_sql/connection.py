"""Connections: an in-memory DuckDB with bounded memory that spills to disk when asked, or a
caller's SparkSession (``connect(spark=spark)``)."""
from __future__ import annotations

from typing import Any

import duckdb

from .errors import OptionError


def connect(database: str = ":memory:", *, memory_limit: str | None = None,
            temp_directory: str | None = None, threads: int | None = None,
            progress_bar: bool = False, spark: Any = None) -> Any:
    """A DuckDB connection for agreement-sql, or with ``spark=`` an engine running on Spark.

    ``memory_limit`` (e.g. ``"4GB"``) bounds DuckDB's memory; with ``temp_directory`` set, work
    that does not fit spills there, so a Parquet file larger than memory still completes.

    ``spark=`` a pyspark SparkSession (classic or Spark Connect): the returned engine
    (:class:`agreement_sql.engine.spark.SparkEngine`) runs every public function on Spark when
    passed as ``con=``; pyspark is imported only then (``pip install "agreement-sql[spark]"``).
    """
    if spark is not None:
        if (database != ":memory:" or memory_limit is not None or temp_directory is not None
                or threads is not None or progress_bar):
            raise OptionError("connect(spark=...) takes no DuckDB settings (database, "
                              "memory_limit, temp_directory, threads, progress_bar)")
        from .engine.spark import SparkEngine
        return SparkEngine(spark)
    config: dict[str, Any] = {}
    if memory_limit is not None:
        config["memory_limit"] = str(memory_limit)
    if temp_directory is not None:
        config["temp_directory"] = str(temp_directory)
    if threads is not None:
        config["threads"] = int(threads)
    try:
        con = duckdb.connect(database, config=config)
    except duckdb.Error as exc:
        raise OptionError(f"cannot open DuckDB with {config}: {str(exc).splitlines()[0]}") from None
    # fixed statements, no caller text: progress is computed but never printed by DuckDB (its
    # bar goes to stdout); agreement_sql.progress draws it on stderr instead
    con.execute("SET enable_progress_bar = true" if progress_bar else "SET enable_progress_bar = false")
    con.execute("SET enable_progress_bar_print = false")
    return con
