"""A Spark Connect session (the way Databricks and remote clusters are reached) works the same
way: a local Connect server (``SparkSession.builder.remote("local[2]")``, started by pyspark in
a child process of its own, apart from the suite's classic session) runs a coefficient, a
one-pass form with shared CTEs and a duplicate policy, and gives DuckDB's results (the oracle,
tests/engines/_compare.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import agreement_sql as a

from ._cases import ROOT, ref
from ._compare import assert_same
from .conftest import missing

pytestmark = [pytest.mark.spark, pytest.mark.slow]

SCRIPT = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {root!r})
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.remote("local[2]")
             .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    assert type(spark).__module__.startswith("pyspark.sql.connect"), type(spark)
    import agreement_sql as a
    con = a.connect(spark=spark)
    df = spark.read.option("header", True).csv({fleiss!r})
    out = {{
        "alpha": a.krippendorff_alpha({k2011!r}, level="interval", con=con),
        "fleiss": a.fleiss_kappa(df, con=con),
        "last": a.krippendorff_alpha({k2011!r}, on_duplicate="last", con=con),
        "views": [t.name for t in spark.catalog.listTables() if t.name.startswith("agreement_sql_")],
    }}
    spark.stop()
    print("RESULT " + json.dumps(out))
""")


def test_a_spark_connect_session():
    try:
        import pyspark.sql.connect.session  # noqa: F401
        import grpc  # noqa: F401
    except ImportError as exc:
        missing(f"Spark Connect's client needs grpcio and its kin ({exc}); "
                "pip install 'pyspark[connect]'")
    k2011, fleiss = ref("krippendorff2011_4x12.csv"), ref("fleiss1971_diagnoses_30x6.csv")
    code = SCRIPT.format(root=str(ROOT), k2011=k2011, fleiss=fleiss)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-3000:]
    got = json.loads(lines[-1][len("RESULT "):])
    assert got["views"] == []
    assert_same(a.krippendorff_alpha(k2011, level="interval"), got["alpha"], "alpha")
    assert_same(a.fleiss_kappa(fleiss), got["fleiss"], "fleiss from a Connect DataFrame")
    assert_same(a.krippendorff_alpha(k2011, on_duplicate="last"), got["last"], "on_duplicate")
