"""Every public function gives the same result on Spark (local mode) as on DuckDB.

The expected values are DuckDB's results on the same input (tests/engines/_compare.py: integers
and text exactly, floats to 1e-9); DuckDB's own numbers are checked against their publications
in tests/coefficients, tests/workshop and tests/icc (tests/reference/published.json). The cases
(tests/engines/_cases.py) cover the reference datasets, the real datasets of data/real, and
random ratings with missing values, slices, placeholders and every duplicate policy, the IRR
report, the workflows and seeded bootstrap intervals.
"""
from __future__ import annotations

import pytest

from ._cases import all_cases
from ._compare import assert_same

pytestmark = pytest.mark.spark

CASES = dict(all_cases())


@pytest.mark.parametrize("case", list(CASES))
def test_same_result_on_spark(case, spark_engine):
    call = CASES[case]
    expected = call(None)                 # DuckDB, the oracle
    assert_same(expected, call(spark_engine), case)
