"""Reference points for the benchmarks; each function takes a Parquet path and returns its result.

* ``scan``: the cheapest useful query, one pass with a global-ish aggregate (the I/O floor).
* ``per_item``: one GROUP BY item, metric (the floor for anything computed per item).
* ``reference_pipeline``: what a user writes without agreement-sql: read with pyarrow, pivot
  to a dense raters x items matrix per metric, then ``krippendorff.alpha`` and statsmodels'
  Fleiss' kappa (on complete items).

The DuckDB baselines accept an optional connection (see ``connect``) so the runner can open it
before the clock starts and apply a memory limit, as it does for the package.
"""

from __future__ import annotations

import duckdb
import numpy as np

# Fleiss' kappa and krippendorff.alpha build per-category arrays; beyond this many distinct
# values (continuous data) the reference libraries do not fit in memory, so they are skipped.
MAX_CATEGORIES = 100

SCAN_SQL = """
SELECT metric, count(*) AS n, sum(value) AS total
FROM read_parquet($path)
GROUP BY metric
ORDER BY metric
"""

PER_ITEM_SQL = """
SELECT count(*) AS groups, sum(n) AS n, sum(s) AS total, sum(ss) AS total_sq
FROM (
    SELECT item, metric, count(*) AS n, sum(value) AS s, sum(value * value) AS ss
    FROM read_parquet($path)
    GROUP BY item, metric
)
"""


def connect(memory_limit: str | None = None, temp_directory: str | None = None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection, optionally memory-limited, without a progress bar."""
    config = {"memory_limit": memory_limit, "temp_directory": temp_directory}
    con = duckdb.connect(config={key: value for key, value in config.items() if value})
    con.execute("SET enable_progress_bar = false")  # session-only: refused in connect's config
    return con


def _fetch(sql: str, path: str, con: duckdb.DuckDBPyConnection | None) -> list[tuple]:
    """Run ``sql`` with ``$path`` bound, on ``con`` or a fresh connection."""
    return (con or connect()).execute(sql, {"path": path}).fetchall()


def scan(path: str, con: duckdb.DuckDBPyConnection | None = None) -> list[tuple]:
    """Rows and value sum per metric: one pass over the file."""
    return _fetch(SCAN_SQL, path, con)


def per_item(path: str, con: duckdb.DuckDBPyConnection | None = None) -> tuple:
    """GROUP BY item, metric, summarised in SQL so only one row reaches Python."""
    return _fetch(PER_ITEM_SQL, path, con)[0]


def _fleiss_on_complete_items(matrix: np.ndarray) -> tuple[float | None, int]:
    """Fleiss' kappa over the items every rater rated; returns (kappa, number of items used)."""
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    complete = matrix[:, ~np.isnan(matrix).any(axis=0)].T  # items x raters
    if complete.shape[0] == 0:
        return None, 0
    counts, _ = aggregate_raters(complete)
    return float(fleiss_kappa(counts, method="fleiss")), complete.shape[0]


def _metric_figures(matrix: np.ndarray) -> dict:
    """Interval alpha and Fleiss' kappa for one raters x items matrix (NaN = missing)."""
    import krippendorff

    categories = np.unique(matrix[~np.isnan(matrix)]).size
    if categories > MAX_CATEGORIES:
        return {"skipped": f"{categories} distinct values; reference libraries need categories"}
    kappa, complete = _fleiss_on_complete_items(matrix)
    alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    return {"alpha_interval": float(alpha), "fleiss_kappa": kappa, "complete_items": complete}


def reference_pipeline(path: str) -> dict:
    """Read, pivot per metric with pandas, run krippendorff and statsmodels; figures per metric."""
    import pyarrow.parquet as pq

    frame = pq.read_table(path).to_pandas()
    results = {}
    for metric, ratings in frame.groupby("metric", sort=True):
        wide = ratings.pivot(index="item", columns="rater", values="value")  # items x raters
        results[metric] = _metric_figures(wide.to_numpy(dtype=float).T)
    return results


def package_equivalent(path: str):
    """What the reference pipeline computes, with agreement-sql: interval alpha and Fleiss' kappa
    per metric (the reference runs Fleiss on complete items only; this uses every item)."""
    import agreement_sql as ag

    return {
        "alpha": [r["value"] for r in ag.krippendorff_alpha(path, metric="metric", level="interval")],
        "fleiss": [r["value"] for r in ag.fleiss_kappa(path, metric="metric")],
    }
