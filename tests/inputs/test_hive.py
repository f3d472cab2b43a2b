"""Hive-partitioned folders (issue #28 point 5, docs/decisions/0024): a glob over a folder
written with PARTITION_BY keeps the partition columns, a folder path is a source (all its
Parquet or CSV files), and the partition columns read as text under the typing rule (decision
0014), usable by group_by= and metric=, even as value=. The expected result of each test is
the same call on the unpartitioned file holding the same rows: partitioning must not change a
number. The Spark leg (marked spark) compares Spark's result on the same folder with DuckDB's.
"""
from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from agreement_sql.errors import ColumnError, SourceError

# 40 units rated by 3 raters on a 1..4 scale, two questions, units in two days and a batch "007"
# or "010" (a partition value that reads as a number must stay the id "007")
QUERY = ("SELECT 'u' || CAST(i // 3 AS VARCHAR) AS item, 'r' || CAST(i % 3 AS VARCHAR) AS rater, "
         "CAST(((i * 7 + i // 5) % 4) + 1 AS BIGINT) AS value, "
         "'d' || CAST((i // 3) % 2 AS VARCHAR) AS day, "
         "'q' || CAST((i // 6) % 2 AS VARCHAR) AS question, "
         "CASE WHEN (i // 12) % 2 = 0 THEN '007' ELSE '010' END AS batch FROM range(240) t(i)")
WHICH = ["fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "cohen_kappa"]


def _strip(result):
    if isinstance(result, list):
        return [_strip(r) for r in result]
    if isinstance(result, dict):
        return {k: _strip(v) for k, v in result.items() if k != "route"}
    return result


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("hive")
    con = duckdb.connect()
    con.execute(f"COPY ({QUERY}) TO '{root / 'flat.parquet'}' (FORMAT parquet)")
    con.execute(f"COPY ({QUERY}) TO '{root / 'flat.csv'}' (FORMAT csv, HEADER)")
    con.execute(f"COPY ({QUERY}) TO '{root / 'pq'}' (FORMAT parquet, PARTITION_BY (day, batch))")
    con.execute(f"COPY ({QUERY}) TO '{root / 'csv'}' (FORMAT csv, PARTITION_BY (question))")
    con.execute(f"COPY ({QUERY}) TO '{root / 'byvalue'}' (FORMAT parquet, PARTITION_BY (value))")
    # what writers leave beside the data: never read
    for folder in ("pq", "csv"):
        (root / folder / "_SUCCESS").write_text("")
        (root / folder / ".part-0.parquet.crc").write_text("x")
    return root


@pytest.mark.slow
def test_a_folder_and_a_glob_keep_the_partition_columns(folders):
    flat = ag.coefficients(str(folders / "flat.parquet"), which=WHICH, metric="question",
                           group_by=["day", "batch"])
    for source in (folders / "pq", str(folders / "pq" / "**" / "*.parquet"),
                   str(folders / "pq" / "*" / "*" / "*.parquet")):
        got = ag.coefficients(str(source), which=WHICH, metric="question",
                              group_by=["day", "batch"])
        assert _strip(got) == _strip(flat)
    assert {s["group"]["batch"] for s in flat} == {"007", "010"}     # ids stay text


def test_a_csv_folder_partitioned_by_the_metric(folders):
    flat = ag.krippendorff_alpha(str(folders / "flat.csv"), metric="question", group_by="day",
                                 level="ordinal")
    got = ag.krippendorff_alpha(str(folders / "csv"), metric="question", group_by="day",
                                level="ordinal")
    assert _strip(got) == _strip(flat)
    assert {r["metric"] for r in got} == {"q0", "q1"}


def test_a_partition_column_read_by_the_typing_rule_as_the_ratings(folders):
    # folder names value=1 ... value=4: text that reads as numbers, so interval alpha applies
    flat = ag.krippendorff_alpha(str(folders / "flat.parquet"), level="interval")
    got = ag.krippendorff_alpha(str(folders / "byvalue"), level="interval")
    assert _strip(got) == _strip(flat)


def test_irr_and_to_on_a_folder(folders, tmp_path):
    flat = ag.irr(str(folders / "flat.parquet"), metric="question")
    got = ag.irr(str(folders / "pq"), metric="question", to=tmp_path / "irr.parquet")
    assert _strip(got) == _strip(flat)
    assert pq.read_table(tmp_path / "irr.parquet").num_rows == 3     # overall and two questions


def test_writing_into_the_input_folder_is_refused(folders):
    from agreement_sql.errors import OptionError

    with pytest.raises(OptionError, match="input folder"):
        ag.fleiss_kappa(str(folders / "pq"), to=folders / "pq" / "out.parquet")


def test_files_without_common_partitions_give_none(tmp_path):
    table = pa.table({"item": ["a", "a", "b", "b"], "rater": ["x", "y"] * 2, "value": [1, 1, 2, 1]})
    (tmp_path / "day=1").mkdir()
    (tmp_path / "other").mkdir()
    pq.write_table(table.slice(0, 2), tmp_path / "day=1" / "a.parquet")
    pq.write_table(table.slice(2, 2), tmp_path / "other" / "b.parquet")
    assert ag.fleiss_kappa(str(tmp_path))["n_items"] == 2
    with pytest.raises(ColumnError):
        ag.fleiss_kappa(str(tmp_path), group_by="day")


def test_a_partition_named_like_a_column_is_refused(tmp_path):
    table = pa.table({"item": ["a", "a"], "rater": ["x", "y"], "value": [1, 1], "day": ["1", "1"]})
    (tmp_path / "day=2").mkdir()
    pq.write_table(table, tmp_path / "day=2" / "a.parquet")
    with pytest.raises(SourceError, match="'day'"):
        ag.fleiss_kappa(str(tmp_path))


def test_an_empty_folder_and_mixed_kinds_are_refused(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="holds no Parquet or CSV"):
        ag.fleiss_kappa(str(tmp_path / "empty"))
    (tmp_path / "mixed").mkdir()
    pq.write_table(pa.table({"item": ["a"], "rater": ["x"], "value": [1]}),
                   tmp_path / "mixed" / "a.parquet")
    (tmp_path / "mixed" / "b.csv").write_text("item,rater,value\na,y,1\n")
    with pytest.raises(SourceError, match="mixes file types"):
        ag.fleiss_kappa(str(tmp_path / "mixed"))


@pytest.mark.spark
@pytest.mark.parametrize("kind", ["pq", "csv", "glob"])
def test_spark_reads_the_partitions_as_duckdb(folders, spark_engine, kind):
    source = str(folders / "pq" / "**" / "*.parquet") if kind == "glob" else str(folders / kind)
    options = dict(which=WHICH, metric="question", group_by="day") if kind == "csv" else \
        dict(which=WHICH, metric="question", group_by=["day", "batch"])
    expected = ag.coefficients(source, **options)
    got = ag.coefficients(source, con=spark_engine, **options)
    for want, have in zip(expected, got):
        assert want["metric"] == have["metric"] and want["group"] == have["group"]
        assert set(have["coefficients"]) == set(want["coefficients"])
        for name in want["coefficients"]:
            a, b = want["coefficients"][name]["value"], have["coefficients"][name]["value"]
            assert (a is None and b is None) or abs(a - b) < 1e-9, name
