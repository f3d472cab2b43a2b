"""One SparkSession for the whole test run (local[2], two shuffle partitions), and the engine
made from it. Without Java or pyspark the Spark tests are skipped on a developer's machine and
fail under CI (CI=true): the cross-engine suite is part of what CI checks (.ci/install-spark.sh
installs both)."""
from __future__ import annotations

import os
import shutil
from typing import Any, Iterator

import pytest

IN_CI = bool(os.environ.get("CI"))


def missing(reason: str) -> None:
    """Skip locally; fail in CI, where every engine of the suite must run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI={os.environ.get('CI')}: the cross-engine suite must run)",
                    pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing("pyspark is not installed (bash .ci/install-spark.sh)")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        missing("no Java runtime for Spark (bash .ci/install-spark.sh)")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("agreement-sql-tests")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.default.parallelism", "2")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.memory", "2g")
               .config("spark.sql.session.timeZone", "UTC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def spark_engine(spark: Any) -> Any:
    import agreement_sql

    return agreement_sql.connect(spark=spark)
