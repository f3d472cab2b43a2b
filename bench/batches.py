"""Incremental batches (docs/batches.md): 30 daily batches, each summarized into a state; the
coefficients computed from the 30 states (a glob: the statement adds them), from the 30 states
merged into one (merge_states), and the nightly job (summarize today, compute from the states),
each against a full recompute from the 30 days of raw ratings measured in the same run (the
baseline), with the values checked equal (1e-12).

The ratings come from bench/generate.py (Likert 1..5, 5 raters, 2 metrics, 10% missing);
each item's ratings land on its day, and a share of them (--late, default 20%) a day later,
so units span days as a nightly feed's do. Wall-clock seconds, best of --repeat.

    python bench/batches.py --rows 3M            # ~3M ratings over 30 days
    python bench/batches.py --rows 300k --repeat 1
    python bench/batches.py --raters 20          # more raters per unit: smaller states
"""
from __future__ import annotations

import argparse
import glob
import math
import os
import platform
import shutil
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import duckdb  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import agreement_sql as ag  # noqa: E402

DAYS = 30
RATER_FREE = ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
              "krippendorff_alpha"]


def days(rows: int, raters: int, late: float, folder: Path) -> list[str]:
    """The generated ratings cut into DAYS files (an item's day by its number, a share of its
    ratings a day later)."""
    from generate import generate

    items = max(DAYS, rows // (raters * 2))
    source = BENCH / ".data" / f"batches_likert_{items}i_{raters}r_2m.parquet"
    if not source.exists():
        source.parent.mkdir(exist_ok=True)
        generate(str(source), items, raters, 2, 0.1, "likert", 0.0, 1)
    folder.mkdir(parents=True, exist_ok=True)
    table = pq.read_table(source)
    rng = np.random.default_rng(7)
    item = table.column("item").to_numpy()
    day = (item - 1) * DAYS // items + (rng.random(table.num_rows) < late)
    day = np.minimum(day, DAYS - 1)
    table = table.set_column(0, "item", pc.cast(table.column("item"), pa.string()))
    paths = []
    for d in range(DAYS):
        path = folder / f"day{d:02d}.parquet"
        pq.write_table(table.filter(pa.array(day == d)), path)
        paths.append(str(path))
    return paths


def best(repeat: int, call):  # type: ignore[no-untyped-def]
    seconds, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        seconds = min(seconds, time.perf_counter() - start)
    return seconds, result


def values(result: list[dict]) -> list[tuple]:  # type: ignore[type-arg]
    return sorted((e["metric"], name, r["value"]) for e in result
                  for name, r in e["coefficients"].items())


def same(a: list[tuple], b: list[tuple]) -> bool:  # type: ignore[type-arg]
    return len(a) == len(b) and all(
        x[:2] == y[:2] and ((x[2] is None and y[2] is None) or abs(x[2] - y[2]) <= 1e-12)
        for x, y in zip(a, b))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="3M")
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--late", type=float, default=0.2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    text = args.rows.lower()
    rows = int(float(text.rstrip("km")) * {"k": 10**3, "m": 10**6}.get(text[-1:], 1))
    work = BENCH / ".data" / f"batches_{rows}_{args.raters}r"
    shutil.rmtree(work, ignore_errors=True)
    paths = days(rows, args.raters, args.late, work / "raw")
    raw = str(work / "raw" / "*.parquet")
    n_ratings = sum(pq.ParquetFile(p).metadata.num_rows for p in paths)
    print(f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, duckdb "
          f"{duckdb.__version__}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{n_ratings:,} ratings, {args.raters} raters, 2 metrics, {DAYS} days, "
          f"{args.late:.0%} late; load average {os.getloadavg()[0]:.2f} (the machine is "
          "shared: noise expected)", flush=True)
    for with_raters in (False, True):
        section = "unit_ratings" if with_raters else "unit_values"
        which = None if with_raters else RATER_FREE
        states = work / section
        states.mkdir()
        start = time.perf_counter()
        for p in paths:
            ag.summarize(p, to=str(states / Path(p).name), metric="metric",
                         with_raters=with_raters)
        summarize_s = time.perf_counter() - start
        listed = sorted(glob.glob(str(states / "*.parquet")))
        merged = str(work / f"{section}_merged.parquet")

        def merge():  # type: ignore[no-untyped-def]
            if os.path.exists(merged):
                os.remove(merged)
            return ag.merge_states(listed, to=merged)
        full_s, full = best(args.repeat, lambda: ag.coefficients(raw, metric="metric",
                                                                  which=which))
        glob_s, from_states = best(args.repeat, lambda: ag.coefficients(
            str(states / "*.parquet"), which=which))
        merge_s, _ = best(args.repeat, merge)
        compute_s, got = best(args.repeat, lambda: ag.coefficients(merged, which=which))
        today = str(work / "today.parquet")

        def nightly():  # type: ignore[no-untyped-def]
            # the nightly job: summarize today's ratings, compute from the daily states
            if os.path.exists(today):
                os.remove(today)
            ag.summarize(paths[-1], to=today, metric="metric", with_raters=with_raters)
            return ag.coefficients(str(states / "*.parquet"), which=which)
        nightly_s, _ = best(args.repeat, nightly)
        assert same(values(got), values(full)), section
        assert same(values(from_states), values(full)), section
        state_rows = pq.ParquetFile(merged).metadata.num_rows
        daily_rows = sum(pq.ParquetFile(p).metadata.num_rows for p in listed)
        raw_bytes = sum(os.path.getsize(p) for p in paths)
        print(f"{section}: 30 daily states {daily_rows:,} rows ({daily_rows / n_ratings:.2f} of "
              f"the ratings), merged {state_rows:,} rows ({state_rows / n_ratings:.2f}), "
              f"{os.path.getsize(merged) / 2**20:.1f} MiB against {raw_bytes / 2**20:.1f} MiB "
              "of raw Parquet", flush=True)
        rows_ = (("full recompute from the 30 raw days (baseline)", full_s),
                 ("compute from the 30 daily states (a glob)", glob_s),
                 ("nightly: summarize today + compute from the states", nightly_s),
                 ("merge_states of the 30 states (compaction)", merge_s),
                 ("compute from the merged state", compute_s),
                 ("merge 30 states + compute from the merged state", merge_s + compute_s))
        for label, seconds in rows_:
            print(f"  {label:55s} {seconds:7.2f} s   {seconds / full_s:5.2f}x", flush=True)
        print(f"  (summarizing the 30 days once: {summarize_s:.2f} s in all)", flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
