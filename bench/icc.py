"""Time ``icc()`` against the per-item GROUP BY floor, measured in the same run.

    python bench/icc.py --path /tmp/bench/r10m.parquet --repeat 5

The file is one ``bench/generate.py`` writes (long format: item, rater, metric, value); the
issue's figure uses ``--items 1000000 --raters 5 --metrics 2 --missing 0.1 --kind likert
--seed 1`` (10M grid, 9,000,069 ratings). Every repeat of each measurement runs in a fresh
spawned process (bench/run.py's worker: imports and the connection before the clock), and the
two measurements alternate, so drift in the machine's speed touches both alike. Prints the
median seconds of each, the ratio icc / per_item (the issue's target: within 2x) and the
machine; ``--json`` saves everything.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
TARGET = 2.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", default="/tmp/bench/r10m.parquet", help="the ratings file")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per measurement [5]")
    parser.add_argument("--form", default=None, help="one ICC form (default: all six)")
    parser.add_argument("--json", default=None, help="also save the runs here")
    args = parser.parse_args(argv)
    for extra in (str(ROOT), str(BENCH)):          # the checkout and bench/run.py
        if extra not in sys.path:
            sys.path.insert(0, extra)
    from run import Measurement, machine, spawn

    floor = Measurement("per_item", "baselines:per_item")
    icc = Measurement("icc", "agreement_sql.metrics.icc:icc",
                      {"item": "item", "rater": "rater", "value": "value", "metric": "metric",
                       **({"form": args.form} if args.form else {})},
                      preload=("agreement_sql",))
    runs: dict[str, list[float]] = {"per_item": [], "icc": []}
    results: dict[str, str] = {}
    for i in range(args.repeat):
        for m in (floor, icc):
            outcome = spawn(m, args.path, None)
            if outcome["status"] != "ok":
                raise SystemExit(f"{m.name}: {outcome['status']}: {outcome.get('detail')}")
            runs[m.name].append(outcome["seconds"])
            results[m.name] = outcome["result"]
        print(f"  repeat {i + 1}: per_item {runs['per_item'][-1]:.3f} s, icc {runs['icc'][-1]:.3f} s",
              flush=True)
    seconds = {name: statistics.median(values) for name, values in runs.items()}
    ratio = seconds["icc"] / seconds["per_item"]
    info = machine()
    print(f"per_item (floor): {seconds['per_item']:.3f} s   icc: {seconds['icc']:.3f} s   "
          f"ratio {ratio:.2f}x (target within {TARGET:.0f}x: {'met' if ratio <= TARGET else 'NOT met'})")
    print(f"machine: {info['cpus']} cpus, {info['memory_gb']} GB, Python {info['python']}, "
          f"DuckDB {info['duckdb']}, commit {info['commit']}")
    print(f"icc result: {results['icc'][:200]}")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "runs": runs, "seconds": seconds,
                                               "ratio": ratio, "path": args.path}, indent=2) + "\n")


if __name__ == "__main__":
    main()
