"""Counts and contingency tables: does the cost follow the cells or the units they count?
(issue #26 points 2 and 4, docs/decisions/0022)

    python bench/cells.py                          # the long expansion: 10 units .. 1e6 units
    python bench/cells.py --sizes 10,1e4,1e5 --repeat 3
    python bench/cells.py --targets                # also the issue's sizes (1e9 units, 1e8 a cell)

Two tables, each at a small size (the baseline, measured in the same run) and at growing sizes:
  table   a 2 x 2 contingency table of N units (cells 0.4 N, 0.1 N, 0.1 N, 0.4 N, rounded so they
          add up to N): cohen_kappa with its analytic interval, and coefficients() (Cohen,
          Scott, Fleiss, Gwet, Brennan-Prediger, percent agreement, alpha, Conger)
  counts  a counts layout of 10 units x 3 categories whose cells hold c ratings each (a unit
          rated by 3c anonymous raters): fleiss_kappa with its analytic interval, and
          coefficients() (the rater-free ones)
For the table N is the size; for counts the size is c (the count in every cell), and the
baseline is c = 1 (10 units of 3 ratings). A row's figure is the median of --repeat warm calls
(one unrecorded call first) in one process; "x small" is that over the same call on the small
table of the same run. The route each call took (its result's ``route``) is printed once.

The target (issue #26): a 2 x 2 table of 1e9 units and a counts table of 1e8 a cell within 2x the
same tables at 10 units. --targets runs those sizes; with the long expansion they are not run
unless --force-targets (the expansion registers k = 0 .. the largest cell - 1 in Python, 8 GB
for a cell of 1e9, and then expands one row per rating: out of reach on this machine).
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

TARGET = 2.0


def parse_size(text: str) -> int:
    return int(float(text))


def contingency(n_units: int) -> pd.DataFrame:
    """A 2 x 2 table of n_units units, 80% on the diagonal."""
    off = round(0.1 * n_units)
    a = (n_units - 2 * off) // 2
    d = n_units - 2 * off - a
    names = ["yes", "no"]
    return pd.DataFrame([[a, off], [off, d]], columns=names,
                        index=pd.Index(names, name="category"))


def counts_table(per_cell: int) -> pd.DataFrame:
    """10 units x 3 categories; each cell holds per_cell ratings, the units told apart by
    one extra rating of a different category each (so the units are not all alike)."""
    rows = []
    for u in range(10):
        row = [per_cell] * 3
        row[u % 3] += 1
        rows.append(row)
    return pd.DataFrame(rows, columns=["low", "mid", "high"],
                        index=pd.Index([f"u{u}" for u in range(10)], name="unit"))


def timed(call: Callable[[], dict[str, Any]], repeat: int) -> tuple[float, dict[str, Any]]:
    result = call()                                  # warm-up, unrecorded
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), result


def route_of(result: Any) -> str:
    if isinstance(result, dict) and "route" in result:
        return json.dumps(result["route"])
    if isinstance(result, dict):
        for value in result.values():
            if isinstance(value, dict) and "route" in value:
                return json.dumps(value["route"])
    return "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6",
                        help="table: units; counts: ratings a cell (comma-separated)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--targets", action="store_true",
                        help="also the issue's sizes: 1e9 units, 1e8 a cell")
    parser.add_argument("--force-targets", action="store_true",
                        help="run the target sizes even by the long expansion")
    parser.add_argument("--only", default="table,counts")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)

    import agreement_sql as ag

    sizes = [parse_size(s) for s in args.sizes.split(",") if s]
    plans: dict[str, tuple[Callable[[int], pd.DataFrame], int, int, list[tuple[str, Any]]]] = {
        "table": (contingency, 10, 10 ** 9, [
            ("cohen_kappa+ci", lambda t: ag.cohen_kappa(t, layout="table", ci=0.95,
                                                        ci_method="analytic")),
            ("coefficients", lambda t: ag.coefficients(t, layout="table")),
        ]),
        "counts": (counts_table, 1, 10 ** 8, [
            ("fleiss_kappa+ci", lambda t: ag.fleiss_kappa(t, layout="counts", ci=0.95,
                                                          ci_method="analytic")),
            ("coefficients", lambda t: ag.coefficients(t, layout="counts")),
        ]),
    }
    summary: dict[str, Any] = {}
    print(f"{'table':<8}{'call':<18}{'size':>12}{'ratings':>14}{'seconds':>10}{'x small':>9}"
          f"{'ns/rating':>11}")
    for kind in args.only.split(","):
        build, small, target, calls = plans[kind]
        for name, call in calls:
            base_seconds, base_result = timed(lambda: call(build(small)), args.repeat)
            print(f"{kind:<8}{name:<18}{small:>12,}{'':>14}{base_seconds:>10.4f}{1.0:>9.2f}")
            print(f"  route: {route_of(base_result)}")
            rows = [{"size": small, "seconds": base_seconds, "ratio": 1.0}]
            run_sizes = list(sizes)
            if args.targets:
                run_sizes.append(target)
            for size in run_sizes:
                table = build(size)
                n_ratings = int(table.to_numpy().sum()) * (2 if kind == "table" else 1)
                expanded = "expanded" in route_of(base_result) or "cells" not in route_of(base_result)
                if size == target and expanded and not args.force_targets:
                    print(f"{kind:<8}{name:<18}{size:>12,}{n_ratings:>14,}{'not run':>10}  (the "
                          "long expansion: one row per rating, docs/decisions/0022)")
                    rows.append({"size": size, "seconds": None, "ratio": None})
                    continue
                seconds, result = timed(lambda: call(table), args.repeat)
                ratio = seconds / base_seconds
                print(f"{kind:<8}{name:<18}{size:>12,}{n_ratings:>14,}{seconds:>10.4f}"
                      f"{ratio:>9.2f}{1e9 * seconds / n_ratings:>11.1f}")
                rows.append({"size": size, "seconds": seconds, "ratio": ratio,
                             "route": route_of(result)})
            summary[f"{kind}:{name}"] = rows
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident: {peak:.0f} MB (the whole process)")
    for key, rows in summary.items():
        last = rows[-1]
        if last["ratio"] is not None and last["size"] >= 10 ** 8:
            met = "met" if last["ratio"] <= TARGET else "NOT met"
            print(f"{key}: {last['ratio']:.2f}x the small table (target within {TARGET:.0f}x: {met})")
    try:
        from run import machine
        info = machine()
        print(f"machine: {info['platform']}, {info['cpus']} cpus, {info['memory_gb']} GB, Python "
              f"{info['python']}, DuckDB {info['duckdb']}, commit {info['commit']}")
    except Exception as error:  # noqa: BLE001  (the figures stand without the machine line)
        info = {"error": str(error)}
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "summary": summary}, indent=2) + "\n")


if __name__ == "__main__":
    main()
