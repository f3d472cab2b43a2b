"""One SparkSession for the whole test run (local[2], two shuffle partitions, interpreted
expressions), and the engine made from it. Without Java or pyspark the Spark tests are skipped on a developer's machine and
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
               # the suite's statements run on a few dozen rows, where compiling Java for each
               # plan and re-planning at each shuffle cost more than the rows: expressions
               # interpreted, no adaptive execution (2026-12-07, six cross-engine cases: 0.67x
               # the time). The SQL's results do not depend on either; Spark's own suites test
               # its code generation against its interpreter.
               .config("spark.sql.codegen.wholeStage", "false")
               .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
               .config("spark.sql.adaptive.enabled", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def spark_engine(spark: Any) -> Any:
    import agreement_sql

    return agreement_sql.connect(spark=spark)
