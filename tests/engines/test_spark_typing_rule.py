"""The typing rule on Spark (docs/decisions/0014): the differential property test's Spark leg.

The random tables of tests/inputs/_typing_tables.py, as a Spark DataFrame and as CSV, TSV, JSON,
JSON Lines and Parquet files read by the Spark engine, give DuckDB's result on the same table's
CSV (the oracle of tests/inputs/test_typing_rule.py): text and integers exactly, floats to
1e-9 (decision 0011: Spark adds float terms in an order its scheduler picks), or the same typed
error, class and message. Left out, as decision 0014 says: a Parquet file whose column names
differ only in case, which Spark's reader refuses (a SourceError naming them, tested below).
"""
from __future__ import annotations

import json
import tempfile

import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings

import agreement_sql as ag
from inputs._typing_tables import (CALLS, Table, arrow_table, outcome, tables, write_csv,
                                   write_json)

from ._compare import differences

pytestmark = [pytest.mark.spark, pytest.mark.slow]


def _same(oracle: str, got: str) -> list[str]:
    """Where ``got`` differs from ``oracle`` (JSON results within 1e-9; errors exactly)."""
    if oracle.startswith("{") or oracle.startswith("["):
        if not (got.startswith("{") or got.startswith("[")):
            return [f"DuckDB: {oracle[:300]}\n  Spark: {got[:300]}"]
        return differences(json.loads(oracle), json.loads(got))
    return [] if oracle == got else [f"DuckDB: {oracle[:300]}\n  Spark: {got[:300]}"]


def check(table: Table, spark, engine) -> None:
    with tempfile.TemporaryDirectory() as folder:
        csv_path = write_csv(table, f"{folder}/r.csv")
        oracle = {call: outcome(lambda: run(csv_path, None, table.call), repr(csv_path))
                  for call, run in CALLS.items()}
        sources = {
            "Spark DataFrame": (spark.createDataFrame(arrow_table(table)), "the Spark DataFrame"),
            "csv": (csv_path, repr(csv_path)),
            "tsv": (p := write_csv(table, f"{folder}/r.tsv", "\t"), repr(p)),
            "json": (p := write_json(table, f"{folder}/r.json", lines=False), repr(p)),
            "jsonl": (p := write_json(table, f"{folder}/r.jsonl", lines=True), repr(p)),
        }
        if not table.colliding:
            pq.write_table(arrow_table(table), f"{folder}/r.parquet")
            sources["parquet"] = (f"{folder}/r.parquet", repr(f"{folder}/r.parquet"))
        for name, (source, description) in sources.items():
            for call, run in CALLS.items():
                got = outcome(lambda: run(source, engine, table.call), description)
                found = _same(oracle[call], got)
                assert not found, f"{name}, {call}: " + "\n  ".join(found[:5])


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck),
          print_blob=True)
@given(tables(max_rows=8))
def test_spark_reads_every_format_by_the_rule(spark, spark_engine, table):
    check(table, spark, spark_engine)


def test_a_parquet_file_whose_names_differ_only_in_case_is_refused_by_name(spark_engine):
    import pyarrow as pa

    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/cc.parquet"
        pq.write_table(pa.table({"item": [1, 1], "rater": ["a", "b"], "value": [1, 2],
                                 "VALUE": [1, 1]}), path)
        # DuckDB reads the column the call names ...
        assert ag.percent_agreement(path, value="VALUE")["value"] == 1.0
        # ... Spark's reader cannot tell them apart: a typed error naming the column
        with pytest.raises(ag.SourceError, match="value"):
            ag.percent_agreement(path, value="VALUE", con=spark_engine)
