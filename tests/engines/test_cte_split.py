"""The Spark session's CTE splitting (agreement_sql/engine/spark.py split_ctes, join_ctes), which
computes each CTE read more than once into a checkpointed view: it must keep a recursive CTE
recursive (sql/_student_t.sql.j2's continued fraction). Pure text: no Spark needed."""
from __future__ import annotations

from agreement_sql.engine.spark import join_ctes, split_ctes
from agreement_sql.rendering import statement

RECURSIVE = """WITH RECURSIVE
inputs AS (SELECT 1 AS k),
steps AS (
  SELECT k, 0 AS n FROM inputs
  UNION ALL
  SELECT k, n + 1 FROM steps WHERE n < 3
),
done AS (SELECT k, MAX(n) AS n FROM steps GROUP BY k)
SELECT * FROM done AS a JOIN done AS b ON a.k = b.k"""


def test_a_recursive_list_splits_into_its_ctes():
    ctes, final = split_ctes(RECURSIVE)
    assert [name for name, _, _ in ctes] == ["inputs", "steps", "done"]
    assert final.strip().startswith("SELECT * FROM done AS a")
    # join_ctes writes RECURSIVE exactly where a CTE reads itself
    assert join_ctes(ctes, final).startswith("WITH RECURSIVE\n")
    assert join_ctes(ctes[:1], " SELECT 1").startswith("WITH\n")
    assert join_ctes(ctes[:2], " SELECT * FROM steps").startswith("WITH RECURSIVE\n")


def test_a_cte_named_recursive_is_still_a_cte():
    ctes, _ = split_ctes("WITH recursive AS (SELECT 1 AS x) SELECT * FROM recursive")
    assert [name for name, _, _ in ctes] == ["recursive"]


def test_the_alt_test_statement_on_spark_splits():
    rendered, _ = statement("alt_test", dialect="spark")
    ctes, final = split_ctes(rendered.sql)
    names = [name for name, _, _ in ctes]
    assert "alt_t_fraction" in names and "part_human" in names
    assert join_ctes(ctes, final).startswith("WITH RECURSIVE\n")
