"""Write a synthetic long-format ratings file for the benchmarks.

Columns: ``item`` (BIGINT), ``rater`` (VARCHAR, 'r01'...), ``metric`` (VARCHAR, 'm1'...),
``value`` (DOUBLE). Every item has one latent true score per metric; every rater adds a fixed
bias plus noise, so agreement is moderate (Krippendorff's alpha about 0.5-0.7). The latent
rating is then cut into categories (likert 1..5, binary 0/1) or squashed into [0, 100)
(continuous). Items are written in chunks, one Parquet row group each, so memory stays flat
however many rows are asked for; the same arguments always give the same file.

    python bench/generate.py --items 1000000 --raters 5 --metrics 2 --missing 0.1 \\
        --kind likert --skew 0.0 --seed 1 --out ratings.parquet
"""

from __future__ import annotations

import argparse
import math
import os
from statistics import NormalDist

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

KINDS = ("likert", "binary", "continuous")
CATEGORIES = {"likert": np.arange(1.0, 6.0), "binary": np.array([0.0, 1.0])}
# Noise s.d. per kind, tuned so interval alpha lands near 0.6 after discretisation.
NOISE_SD = {"likert": 0.72, "binary": 0.45, "continuous": 0.72}
RATER_BIAS_SD = 0.25
CHUNK_RATINGS = 2_000_000
SCHEMA = pa.schema(
    [("item", pa.int64()), ("rater", pa.string()), ("metric", pa.string()), ("value", pa.float64())]
)


def labels(prefix: str, count: int, width: int = 1) -> list[str]:
    """Return zero-padded labels ``prefix1..prefixN`` (width grows with ``count``)."""
    width = max(width, len(str(count)))
    return [f"{prefix}{i:0{width}d}" for i in range(1, count + 1)]


def category_cuts(kind: str, skew: float, spread: float) -> np.ndarray:
    """Cut points on the latent scale giving category shares proportional to exp(skew*j/(K-1))."""
    k = len(CATEGORIES[kind])
    weights = np.exp(skew * np.arange(k) / (k - 1))
    cumulative = np.cumsum(weights / weights.sum())[:-1]
    normal = NormalDist(0.0, spread)
    return np.array([normal.inv_cdf(float(p)) for p in cumulative])


def to_values(latent: np.ndarray, kind: str, skew: float, spread: float) -> np.ndarray:
    """Map latent ratings to the observed scale of ``kind``."""
    if kind == "continuous":
        uniform = 1.0 / (1.0 + np.exp(-1.7 * latent / spread))  # logistic ~ normal CDF
        return 100.0 * uniform ** math.exp(-skew)
    cuts = category_cuts(kind, skew, spread)
    return CATEGORIES[kind][np.searchsorted(cuts, latent)]


def chunk_table(
    rng: np.random.Generator,
    first_item: int,
    n_items: int,
    bias: np.ndarray,
    names: tuple[pa.Array, pa.Array],
    kind: str,
    missing: float,
    skew: float,
) -> pa.Table:
    """Ratings for items ``first_item .. first_item + n_items - 1`` in (item, metric, rater) order."""
    n_metrics, n_raters = bias.shape
    noise_sd = NOISE_SD[kind]
    truth = rng.standard_normal((n_items, n_metrics, 1))
    latent = truth + bias + noise_sd * rng.standard_normal((n_items, n_metrics, n_raters))
    spread = math.sqrt(1.0 + RATER_BIAS_SD**2 + noise_sd**2)
    values = to_values(latent, kind, skew, spread).ravel()
    keep = rng.random(values.size) >= missing
    per_item = n_metrics * n_raters
    items = np.repeat(np.arange(first_item, first_item + n_items, dtype=np.int64), per_item)
    metric_idx = np.tile(np.repeat(np.arange(n_metrics, dtype=np.int32), n_raters), n_items)
    rater_idx = np.tile(np.arange(n_raters, dtype=np.int32), n_items * n_metrics)
    rater_names, metric_names = names
    return pa.table(
        {
            "item": items[keep],
            "rater": pc.take(rater_names, rater_idx[keep]),
            "metric": pc.take(metric_names, metric_idx[keep]),
            "value": values[keep],
        },
        schema=SCHEMA,
    )


def generate(
    out: str,
    items: int,
    raters: int = 5,
    metrics: int = 2,
    missing: float = 0.1,
    kind: str = "likert",
    skew: float = 0.0,
    seed: int = 1,
) -> int:
    """Write the ratings file to ``out`` (atomically) and return the number of rows written."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    rng = np.random.default_rng(seed)
    bias = rng.normal(0.0, RATER_BIAS_SD, (metrics, raters))
    names = (pa.array(labels("r", raters, width=2)), pa.array(labels("m", metrics)))
    step = max(1, CHUNK_RATINGS // (raters * metrics))
    rows = 0
    partial = f"{out}.partial"
    with pq.ParquetWriter(partial, SCHEMA) as writer:
        for first in range(1, items + 1, step):
            table = chunk_table(rng, first, min(step, items + 1 - first), bias, names, kind, missing, skew)
            writer.write_table(table, row_group_size=table.num_rows)
            rows += table.num_rows
    os.replace(partial, out)
    return rows


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, required=True)
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--metrics", type=int, default=2)
    parser.add_argument("--missing", type=float, default=0.1, help="share of ratings dropped at random")
    parser.add_argument("--kind", choices=KINDS, default="likert")
    parser.add_argument("--skew", type=float, default=0.0, help="0 = equal category shares")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="output .parquet path")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Generate the file and print how many rows were written."""
    args = parse_args(argv)
    rows = generate(
        args.out, args.items, args.raters, args.metrics, args.missing, args.kind, args.skew, args.seed
    )
    print(f"wrote {rows:,} rows to {args.out}")


if __name__ == "__main__":
    main()
