"""What reading a table name on the caller's connection costs (docs/decisions/0015).

    python bench/session.py --rows 10M                     # irr and coefficients, three ways
    PYTHONPATH=/path/to/other/checkout python bench/session.py --rows 10M   # another version

The ratings file of bench/run.py (``--rows`` items x raters x metrics, 10% missing) is loaded
once into a DuckDB database file (bench/.data/ratings-<rows>.duckdb, table ``ratings``). Each
measurement is a fresh spawned process that opens that file and calls the function with the
table's name and ``con=``:

* ``name``: the caller in autocommit, the common case: the name binds to the same table for the
  caller and for the package's cursor, so it is read where it is (decision 0015);
* ``name_in_transaction``: the caller has an open transaction (``BEGIN``, no change): the rows
  are those of the caller's transaction, streamed from its connection into a temporary table
  of the package's cursor;
* ``parquet``: the same rows from the Parquet file, the path (the reference: no connection).

Timing and peak memory as bench/run.py measures them (median seconds over ``--repeat`` fresh
processes; VmHWM of the process), and the median CPU seconds of the process (every thread),
which a machine shared with other work disturbs less than the wall clock.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run import DATA, parse_count, peak_mb  # noqa: E402

COLUMNS = {"item": "item", "rater": "rater", "value": "value", "metric": "metric"}
FUNCTIONS = ("irr", "coefficients")
WAYS = ("name", "name_in_transaction", "parquet")


def database(parquet: str, rows: str) -> str:
    path = DATA / f"ratings-{rows}.duckdb"
    if not path.exists():
        import duckdb

        with duckdb.connect(str(path)) as con:
            con.execute("CREATE TABLE ratings AS SELECT * FROM read_parquet($p)", {"p": parquet})
    return str(path)


def worker(function: str, way: str, parquet: str, db: str, pipe) -> None:
    try:
        import duckdb

        import agreement_sql as ag

        call = getattr(ag, function)
        con = duckdb.connect(db)
        if way == "name_in_transaction":
            con.execute("BEGIN TRANSACTION")
        source, kwargs = (parquet, {}) if way == "parquet" else ("ratings", {"con": con})
        start, cpu = time.perf_counter(), time.process_time()
        call(source, **COLUMNS, **kwargs)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        pipe.send({"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb(), "package": ag.__file__})
    except Exception as exc:       # reported, the run goes on
        pipe.send({"error": f"{type(exc).__name__}: {exc}"})
    pipe.close()


def spawn(function: str, way: str, parquet: str, db: str) -> dict:
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=worker, args=(function, way, parquet, db, sender))
    process.start()
    sender.close()
    outcome = receiver.recv()
    process.join()
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="10M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help=f"comma-separated functions of: {', '.join(FUNCTIONS)}")
    args = parser.parse_args()
    from run import dataset  # noqa: E402

    parquet, n_rows = dataset(argparse.Namespace(rows=args.rows, raters=5, metrics=2, missing=0.1,
                                                 kind="likert", skew=0.0, seed=1), 5)
    db = database(parquet, args.rows)
    print(f"{n_rows:,} ratings; {db}; package from {os.environ.get('PYTHONPATH') or 'the install'}")
    for function in (args.only.split(",") if args.only else FUNCTIONS):
        for way in WAYS:
            runs = [spawn(function, way, parquet, db) for _ in range(args.repeat)]
            bad = [r for r in runs if "error" in r]
            if bad:
                print(f"  {function:<13} {way:<20} error: {bad[0]['error']}")
                continue
            median = statistics.median(r["seconds"] for r in runs)
            cpu = statistics.median(r["cpu"] for r in runs)
            peak = max(r["peak_mb"] for r in runs)
            each = ", ".join(f"{r['seconds']:.2f}" for r in runs)
            print(f"  {function:<13} {way:<20} {median:7.2f} s  cpu {cpu:6.2f} s  peak {peak:6.0f} MB"
                  f"  ({each})", flush=True)


if __name__ == "__main__":
    main()
