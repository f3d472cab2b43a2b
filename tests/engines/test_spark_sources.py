"""The Spark engine's sources and its promises: a DataFrame, a table name and a path give the
same result as DuckDB on the same rows; nothing stays in the caller's catalog; pyspark is not
imported unless used; errors are the package's typed errors. Expected values: DuckDB's result
on the same rows (tests/engines/_compare.py)."""
from __future__ import annotations

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

import agreement_sql as a
from agreement_sql.errors import OptionError, SourceError

from ._cases import DATA, RANDOM, RANDOM_DUPS, ref
from ._compare import assert_same

pytestmark = pytest.mark.spark
K2011 = ref("krippendorff2011_4x12.csv")


def _views(spark):
    return sorted(t.name for t in spark.catalog.listTables() if t.isTemporary)


def test_importing_the_package_does_not_import_pyspark():
    code = "import sys, agreement_sql; agreement_sql.krippendorff_alpha; print('pyspark' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_dataframe_a_parquet_path_and_a_table_name(spark, spark_engine, tmp_path):
    expected = a.krippendorff_alpha(RANDOM, metric="metric", group_by="batch", level="ordinal")
    path = tmp_path / "ratings.parquet"
    pq.write_table(RANDOM, path)
    df = spark.createDataFrame(RANDOM)
    df.createOrReplaceTempView("callers_ratings")
    try:
        for source in (df, str(path), "callers_ratings"):
            got = a.krippendorff_alpha(source, metric="metric", group_by="batch", level="ordinal",
                                       con=spark_engine)
            assert_same(expected, got, f"source {source!r}")
    finally:
        spark.catalog.dropTempView("callers_ratings")


def test_a_folder_of_parquet_written_by_spark(spark, spark_engine, tmp_path):
    expected = a.irr(RANDOM, metric="metric")
    folder = str(tmp_path / "ratings_parquet")
    spark.createDataFrame(RANDOM).repartition(3).write.parquet(folder)
    assert_same(expected, a.irr(folder, metric="metric", con=spark_engine), "parquet folder")


def test_text_files_read_by_the_same_rules(spark_engine):
    # CSV columns are text and JSONL objects per line, on both engines (sources.py)
    for path, options in ((DATA / "workshop_annotations.csv",
                           {"item": "trace_id", "rater": "user_id", "metric": "question_id",
                            "value": "rating"}),
                          (DATA / "workshop_annotations.jsonl", {})):
        assert_same(a.human_agreement(str(path), **options),
                    a.human_agreement(str(path), con=spark_engine, **options), str(path))


def test_duplicates_first_and_last_follow_input_order(spark, spark_engine):
    # a DataFrame made from local rows keeps their order, as the Arrow table does on DuckDB
    df = spark.createDataFrame(RANDOM_DUPS)
    for policy in ("first", "last"):
        assert_same(a.krippendorff_alpha(RANDOM_DUPS, metric="metric", on_duplicate=policy),
                    a.krippendorff_alpha(df, metric="metric", on_duplicate=policy, con=spark_engine),
                    policy)


def test_duplicates_are_refused_with_the_same_error(spark_engine):
    with pytest.raises(a.DuplicateRatingError) as duck:
        a.krippendorff_alpha(RANDOM_DUPS, metric="metric")
    with pytest.raises(a.DuplicateRatingError) as spark_error:
        a.krippendorff_alpha(RANDOM_DUPS, metric="metric", con=spark_engine)
    assert str(spark_error.value) == str(duck.value)


def test_nothing_is_left_in_the_callers_session(spark, spark_engine):
    before = _views(spark)
    a.irr(str(DATA / "workshop_annotations.jsonl"), con=spark_engine)
    a.krippendorff_alpha(K2011, con=spark_engine)
    with pytest.raises(a.AgreementError):
        a.krippendorff_alpha(RANDOM_DUPS, metric="metric", con=spark_engine)
    assert _views(spark) == before
    assert not [t for t in spark.catalog.listTables() if t.name.startswith("agreement_sql_")]


def test_errors_are_the_packages(spark, spark_engine):
    with pytest.raises(SourceError, match="no file, table or view named 'no_such_table'"):
        a.krippendorff_alpha("no_such_table", con=spark_engine)
    with pytest.raises(SourceError, match="file not found"):
        a.krippendorff_alpha("missing.parquet", con=spark_engine)
    with pytest.raises(OptionError, match=r"connect\(spark=spark\)"):
        a.krippendorff_alpha(K2011, con=spark)
    with pytest.raises(OptionError, match="takes no DuckDB settings"):
        a.connect(memory_limit="1GB", spark=spark)


def test_the_cli_json_shape_is_unchanged(spark_engine):
    # results are plain JSON data on Spark too (no Decimal, no Row)
    result = a.coefficients(K2011, level="interval", which=["krippendorff_alpha"], con=spark_engine)
    json.dumps(result)
