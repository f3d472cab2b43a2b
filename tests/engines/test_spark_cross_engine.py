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


def test_point_files_are_the_same_on_spark(tmp_path, spark_engine):
    """judge_agreement(points_to=): the files Spark writes equal DuckDB's, column types
    included (agreement_sql.sinks declares them), row for row."""
    import pyarrow.parquet as pq

    from agreement_sql import judge_agreement

    from ._cases import DATA

    weval = str(DATA / "weval_results.json")
    duck = judge_agreement(weval, diagnostics=False, points_to=tmp_path / "duckdb")
    spark = judge_agreement(weval, diagnostics=False, points_to=tmp_path / "spark", con=spark_engine)
    for name, file in duck["pointFiles"].items():
        theirs = pq.read_table(spark["pointFiles"][name]["path"])
        ours = pq.read_table(file["path"])
        assert theirs.schema == ours.schema, name
        assert theirs.to_pylist() == ours.to_pylist(), name
        assert spark["pointFiles"][name]["rows"] == file["rows"] > 0


def test_student_t_on_spark(spark_engine):
    """sql/student_t.sql.j2 (the recursive continued fraction) on Spark gives DuckDB's p-values
    to 1e-12 over degrees of freedom 1 .. 1e6 (Spark reads 1.0 as a DECIMAL: the partial's
    constants are DOUBLE literals)."""
    from agreement_sql.engine import open_session
    from agreement_sql.runner import lookup_rows, query

    rows = [(i, t, v) for i, (t, v) in enumerate(
        (s * t, v) for v in (1, 2, 29, 245, 1e4, 1e6) for t in (0.0, 1e-8, 0.5, 1.75, 3.0, 40.0, 1e200)
        for s in (1, -1))]

    def run(con):
        with open_session(con) as session:
            relation = lookup_rows(session, [("row_id", "bigint"), ("t", "double"), ("v", "double")],
                                   rows, "t_values")
            return query(session, "student_t", {"t_values": relation}, {})

    duck, spark = run(None), run(spark_engine)
    assert [r["row_id"] for r in spark] == [r["row_id"] for r in duck]
    for a, b in zip(duck, spark):
        assert abs(a["p"] - b["p"]) <= 1e-12 and a["iterations"] == b["iterations"], (a, b)
