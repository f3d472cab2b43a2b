"""The Spark session of tests/engines for the catalogue's Spark leg (test_bad_input_spark.py)."""
from engines.conftest import spark, spark_engine  # noqa: F401  (fixtures)
