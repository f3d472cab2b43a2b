"""Time ``alt_test()`` against the per-item GROUP BY floor, measured in the same run.

    python bench/alt_test.py                                   # 1M instances x 5 humans x 3 judges
    python bench/alt_test.py --instances 100k --repeat 3       # a smaller size
    python bench/alt_test.py --scorings neg_rmse --json alt_test.json
    python bench/alt_test.py --forms cells,pivot            # also the statement's other forms

The data: ``--instances`` items, each rated by ``--humans`` humans (``h1``..) and ``--judges``
LLM judges (``j1``..) on a 1..5 scale, every rating present (1M x (5 + 3) = 8M rows), written
once to bench/.data/alt_test_<n>i_<h>h_<j>j_seed<s>.parquet (columns item BIGINT, rater VARCHAR,
metric VARCHAR (one value), value DOUBLE, bench/generate.py's schema). Each rating is a latent
truth plus the rater's fixed bias and noise, cut into five categories, so the humans agree
moderately and the judges about as well (Krippendorff's alpha about 0.5).

Measured, each repeat in a fresh spawned process (bench/run.py's worker: imports, and the
connection from the callee's module's ``connect``, before the clock; peak MB is the process's
VmHWM), the measurements alternating repeat by repeat so drift in the machine's speed touches
floor and call alike; seconds are medians over ``--repeat``, peak MB the maximum:

* ``per_item``: bench/baselines.py's GROUP BY item, metric over the file (the floor of anything
  computed per item);
* ``alt_test_<scoring>``: ``agreement_sql.alt_test(path, judges=[j1, j2, j3], scoring=...)``,
  the whole call (profile, plan, the one statement with its recursive t distribution), in the
  form the call chooses (here a rater pattern per instance: 8 raters, 5 categories);
* with ``--forms``, ``alt_test_<scoring>_<form>``: the same call with the statement's form
  forced (``routes.forcing(alt_test=...)``): ``pivot`` (a column per rater, the
  form for scores on more than 16 values) and ``cells`` (per instance and category, the form for
  many raters or labels).

Target (issue 27): one call within 4x the per-item floor at 1M instances x 5 humans x 3 judges.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
if str(BENCH) not in sys.path:                      # baselines.py, run.py
    sys.path.insert(0, str(BENCH))

from baselines import connect  # noqa: E402,F401  (run.py's worker opens alt_test_in_form's connection with it)
DATA = BENCH / ".data"
TARGET = 4.0
CHUNK = 250_000


def generate(path: Path, instances: int, humans: int, judges: int, seed: int) -> None:
    """Every rater rates every instance: truth + bias + noise, cut into 1..5."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    raters = [f"h{i + 1}" for i in range(humans)] + [f"j{i + 1}" for i in range(judges)]
    bias = rng.normal(0.0, 0.25, len(raters))
    cuts = np.array([-1.2, -0.4, 0.4, 1.2])
    schema = pa.schema([("item", pa.int64()), ("rater", pa.string()), ("metric", pa.string()),
                        ("value", pa.float64())])
    partial = Path(f"{path}.partial")
    with pq.ParquetWriter(partial, schema) as writer:
        for first in range(0, instances, CHUNK):
            n = min(CHUNK, instances - first)
            truth = rng.standard_normal((n, 1))
            latent = truth + bias + 0.7 * rng.standard_normal((n, len(raters)))
            values = (np.searchsorted(cuts, latent) + 1).astype(np.float64).ravel()
            items = np.repeat(np.arange(first, first + n, dtype=np.int64), len(raters))
            names = pa.array(raters * n, pa.string())
            writer.write_table(pa.table({"item": items, "rater": names,
                                         "metric": pa.array(["m1"] * (n * len(raters)), pa.string()),
                                         "value": values}, schema=schema))
    partial.replace(path)


def alt_test_in_form(path: str, con=None, *, form: str, **options):
    """``agreement_sql.alt_test`` with the statement's form forced (run in the spawned worker
    as "alt_test:alt_test_in_form")."""
    from agreement_sql import alt_test, routes

    with routes.forcing(alt_test=form):
        result = alt_test(path, con=con, **options)
    return [(j["judge"], j["winning_rate"], j["advantage_probability"]) for j in result["judges"]]


def data_file(instances: int, humans: int, judges: int, seed: int) -> Path:
    path = DATA / f"alt_test_{instances}i_{humans}h_{judges}j_seed{seed}.parquet"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", flush=True)
        generate(path, instances, humans, judges, seed)
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", default="1M", help="instances (items): 100k, 1M [1M]")
    parser.add_argument("--humans", type=int, default=5)
    parser.add_argument("--judges", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per measurement [3]")
    parser.add_argument("--scorings", default="accuracy,neg_rmse",
                        help="comma-separated: accuracy, neg_rmse [both]")
    parser.add_argument("--forms", default="",
                        help="also time these forms of the statement, forced: pivot, cells")
    parser.add_argument("--json", default=None, help="also save the runs here")
    args = parser.parse_args(argv)
    for extra in (str(ROOT), str(BENCH)):          # the checkout and bench/run.py
        if extra not in sys.path:
            sys.path.insert(0, extra)
    from run import Measurement, machine, parse_count, spawn

    instances = parse_count(args.instances)
    path = data_file(instances, args.humans, args.judges, args.seed)
    rows = instances * (args.humans + args.judges)
    judges = [f"j{i + 1}" for i in range(args.judges)]
    measurements = [Measurement("per_item", "baselines:per_item")]
    for scoring in [s.strip() for s in args.scorings.split(",") if s.strip()]:
        options = {"judges": judges, "scoring": scoring, "epsilon": 0.15}
        measurements.append(Measurement(f"alt_test_{scoring}", "agreement_sql:alt_test", options,
                                        preload=("agreement_sql",)))
        for form in [f.strip() for f in args.forms.split(",") if f.strip()]:
            measurements.append(Measurement(f"alt_test_{scoring}_{form}", "alt_test:alt_test_in_form",
                                            {**options, "form": form}, preload=("agreement_sql",)))
    print(f"{rows:,} rows ({instances:,} instances x {args.humans} humans x {args.judges} judges) "
          f"in {path}", flush=True)
    runs: dict[str, list[dict]] = {m.name: [] for m in measurements}
    for i in range(args.repeat):
        for m in measurements:
            outcome = spawn(m, str(path), None)
            if outcome["status"] != "ok":
                raise SystemExit(f"{m.name}: {outcome['status']}: {outcome.get('detail')}")
            runs[m.name].append(outcome)
        print(f"  repeat {i + 1}: " + ", ".join(f"{name} {r[-1]['seconds']:.3f} s"
                                                for name, r in runs.items()), flush=True)
    floor = statistics.median(r["seconds"] for r in runs["per_item"])
    print(f"\n{'measurement':<28}{'seconds':>9}{'x per_item':>12}{'peak MB':>9}{'ns/rating':>11}")
    summary = {}
    for name, outcomes in runs.items():
        seconds = statistics.median(r["seconds"] for r in outcomes)
        peak = max(r["peak_mb"] for r in outcomes)
        summary[name] = {"seconds": seconds, "runs": [r["seconds"] for r in outcomes],
                         "peak_mb": peak, "ratio": seconds / floor, "result": outcomes[-1]["result"]}
        print(f"{name:<28}{seconds:>9.3f}{seconds / floor:>12.2f}{peak:>9.0f}{1e9 * seconds / rows:>11.1f}")
    for name, s in summary.items():
        if name != "per_item":
            met = "met" if s["ratio"] <= TARGET else "NOT met"
            print(f"{name}: {s['ratio']:.2f}x the per-item floor (target within {TARGET:.0f}x: {met})")
    info = machine()
    print(f"machine: {info['platform']}, {info['cpus']} cpus, {info['memory_gb']} GB, Python "
          f"{info['python']}, DuckDB {info['duckdb']}, commit {info['commit']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "rows": rows, "path": str(path),
                                               "summary": summary}, indent=2) + "\n")


if __name__ == "__main__":
    main()
