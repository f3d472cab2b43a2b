"""Where a small statement's time goes, and how low a faithful one can go (decision 0023).

    python bench/planning.py                 # the Krippendorff (2011) table, 60 timed runs each
    python bench/planning.py --runs 20       # quicker

Issue #26 point 3 asks a warm ``krippendorff_alpha`` (and each kappa) for at most 3x the
one-statement floor (bench/small.py's ``duckdb alpha``: the least SQL for nominal alpha, no
checks). bench/small.py shows each call costs about what its own statements cost alone; this
script measures, in one process on one DuckDB connection, median ms of ``--runs`` runs after 5
unrecorded ones, ratios against the floor measured in the same run:

1. ``floor``: bench/small.py's MINIMAL_ALPHA on the table registered from Arrow.
2. ``lean``: a hand-written single statement as light as a *faithful* nominal alpha could be:
   the integer column kind's typing (a value of 2^53 or more a label), the per-key counts a
   result reports (rows, ratings, NULL items and raters, raters, duplicate ratings) and alpha
   from counts per (unit, value) with the deterministic sum (agreement_fsum). It still lacks
   what the package's statements also carry (placeholders, NaN and non-finite checks, marker
   labels, boolean spellings, the ordered key rows), so it is a lower bound, not a candidate.
3. ``profile`` and ``coefficients``: the two statements ``krippendorff_alpha(level="nominal")``
   runs, captured from a call and replayed alone with their bound parameters.
4. ``... prepared``: the same two statements PREPAREd once over a temporary table holding the
   ratings (the parameters as DuckDB variables, ``SET VARIABLE v = $1`` being bindable) and
   EXECUTEd: what reusing a plan per connection would give. ``binding ms`` and ``optimizing ms``
   are DuckDB's own profile of one EXECUTE (``profiling_mode = 'detailed'``).
5. ``20 x SUM`` and ``20 x agreement_fsum``: a statement of twenty plain sums against the same
   with the deterministic sum (docs/decisions/0008): the planning cost of that macro.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))
K2011 = ROOT / "tests" / "reference" / "krippendorff2011_4x12.csv"

LEAN = """
WITH r0 AS NOT MATERIALIZED (
  SELECT $m AS metric, CAST(src."item" AS VARCHAR) AS item,
         NULLIF(CAST(src."rater" AS VARCHAR), '') AS rater,
         CASE WHEN ABS(CAST(src."value" AS DOUBLE)) < 9007199254740992.0
              THEN CAST(src."value" AS DOUBLE) END AS x,
         CASE WHEN ABS(CAST(src."value" AS DOUBLE)) >= 9007199254740992.0
              THEN CAST(src."value" AS VARCHAR) END AS label
  FROM {source} AS src),
counts AS (
  SELECT metric, item, x, label, COUNT(*) AS n
  FROM r0 WHERE x IS NOT NULL OR label IS NOT NULL GROUP BY ALL),
units AS (
  SELECT metric, item, SUM(n) AS m_u, SUM(n * n) AS q_u, MIN(x) AS lone_x,
         MIN(label) AS lone_label
  FROM counts GROUP BY ALL),
keys AS (
  SELECT metric, COUNT(*) AS n_rows, COUNT(x) + COUNT(label) AS n_ratings,
         COUNT(*) - COUNT(item) AS n_null_item, COUNT(*) - COUNT(rater) AS n_null_rater,
         COUNT(DISTINCT rater) AS n_raters,
         COUNT(x) + COUNT(label) - COUNT(DISTINCT CASE WHEN x IS NOT NULL OR label IS NOT NULL
                                                  THEN item || chr(0) || rater END) AS n_duplicate
  FROM r0 GROUP BY metric),
marginals AS (
  SELECT metric, x, label, SUM(n) AS n_c FROM (
    SELECT metric, x, label, n FROM counts
    UNION ALL SELECT metric, lone_x, lone_label, -1 FROM units WHERE m_u = 1)
  GROUP BY ALL HAVING SUM(n) > 0),
unit_sums AS (
  SELECT metric, COUNT(*) AS n_units,
         agreement_fsum((m_u * m_u - q_u) / (m_u - 1.0)) AS do_sum
  FROM units WHERE m_u >= 2 GROUP BY metric),
totals AS (
  SELECT metric, COUNT(*) AS n_categories, SUM(n_c) AS n_values, SUM(n_c * n_c) AS sum_nc2
  FROM marginals GROUP BY metric)
SELECT k.*, s.n_units, t.n_values, t.n_categories,
       1.0 - (t.n_values - 1.0) * s.do_sum
             / NULLIF(CAST(t.n_values * t.n_values - t.sum_nc2 AS DOUBLE), 0) AS value
FROM keys AS k LEFT JOIN unit_sums AS s USING (metric) LEFT JOIN totals AS t USING (metric)
"""


def median_ms(function, runs: int) -> float:
    for _ in range(5):
        function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def profiled(con, sql: str) -> tuple[float, float]:
    """DuckDB's binding and optimizing ms of one run of ``sql`` (its JSON profile)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "profile.json")
        con.execute("PRAGMA enable_profiling = 'json'")
        con.execute("SET profiling_mode = 'detailed'")
        con.execute(f"SET profiling_output = '{out}'")
        con.execute(sql).fetchall()
        con.execute("PRAGMA disable_profiling")
        with open(out) as handle:
            found = json.load(handle)
    return found["planner"]["binding_time"] * 1000, found["optimizer"]["total_time"] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()

    import duckdb
    import pyarrow.csv as pacsv

    from agreement_sql.dialects import DUCKDB
    import agreement_sql as ag
    from small import MINIMAL_ALPHA, captured_statements

    table = pacsv.read_csv(K2011)
    statements = captured_statements(lambda: ag.krippendorff_alpha(table, level="nominal"))
    if statements is None:
        raise SystemExit("the nominal alpha call failed; run it alone to see why")
    con = duckdb.connect()
    for setup in DUCKDB.setup:
        con.execute(setup)
    con.register("small_ratings", table)
    rows: list[tuple[str, float, str]] = []
    floor = median_ms(lambda: con.execute(MINIMAL_ALPHA.format(source="small_ratings")).fetchall(),
                      args.runs)
    rows.append(("floor (bench/small.py duckdb alpha)", floor, ""))
    lean = LEAN.format(source="small_ratings")
    value = con.execute(lean, {"m": "value"}).fetchall()[0][-1]
    rows.append(("lean faithful-ish alpha, one statement",
                 median_ms(lambda: con.execute(lean, {"m": "value"}).fetchall(), args.runs),
                 f"alpha {value:.4f}"))
    # the captured statements, alone and prepared over a temporary table of the same rows
    for what, sql, params in statements:
        sources = set(re.findall(r'"(agreement_sql_src_[0-9a-f]+_[0-9]+)"', sql))
        for name in sources:
            con.register(name, table)
        rows.append((f"{what} (the call's statement, alone)",
                     median_ms(lambda s=sql, p=params: con.execute(s, p).fetchall(), args.runs), ""))
        for name in sources:
            con.unregister(name)
            con.execute(f'CREATE TEMP TABLE "{name}" AS SELECT * FROM small_ratings')
        for key, bound in params.items():
            con.execute(f"SET VARIABLE {key} = $1", [bound])
        prepared = re.sub(r"\$(\w+)", r"getvariable('\1')", sql)
        con.execute(f"PREPARE agreement_bench_q AS {prepared}")
        binding, optimizing = profiled(con, "EXECUTE agreement_bench_q")
        rows.append((f"{what} prepared, EXECUTE",
                     median_ms(lambda: con.execute("EXECUTE agreement_bench_q").fetchall(), args.runs),
                     f"binding {binding:.1f} ms, optimizing {optimizing:.1f} ms"))
        con.execute("DEALLOCATE agreement_bench_q")
        for name in sources:
            con.execute(f'DROP TABLE "{name}"')
    terms = [f"(CAST(value AS DOUBLE) * {j})" for j in range(20)]
    plain = "SELECT " + ", ".join(f"SUM({t})" for t in terms) + " FROM small_ratings"
    fsum = plain.replace("SUM(", "agreement_fsum(")
    rows.append(("20 x SUM", median_ms(lambda: con.execute(plain).fetchall(), args.runs), ""))
    rows.append(("20 x agreement_fsum", median_ms(lambda: con.execute(fsum).fetchall(), args.runs), ""))

    print(f"duckdb {duckdb.__version__}, {os.cpu_count()} cpus, load average "
          f"{[round(x, 2) for x in os.getloadavg()]}, {table.num_rows} ratings, "
          f"median of {args.runs} runs")
    print(f"{'statement':48s} {'ms':>8s} {'x floor':>8s}  note")
    for name, ms, note in rows:
        print(f"{name:48s} {ms:8.2f} {ms / floor:8.1f}  {note}")


if __name__ == "__main__":
    main()
