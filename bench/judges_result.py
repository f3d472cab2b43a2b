"""How much of ``judge_agreement``'s time its result alone costs: a floor for the judges target.

    python bench/judges_result.py                       # the 10M-rating file of bench/run.py
    python bench/judges_result.py --rows 2M --repeat 3

``judge_agreement(path, item="item", rater="rater", value="value", group_by="metric")`` on the
ratings Parquet of bench/run.py makes every item a rubric point, so its report holds a JSON
object per point several times over (``perPoint``, each group's ``perPointAlphas``, the flagged
``highDisagreementPoints``). This script measures, each in a fresh spawned process:

* ``per_item``: bench/baselines.py's GROUP BY item, metric (the floor of bench/workflows.py);
* ``judges``: the call itself (seconds and peak MB), and the report's size: how many dicts it
  holds, by the keys they have, and its length as JSON;
* ``objects``: building that many dicts, each with as many keys, from constants (no database,
  no rounding, no lookups): what CPython needs to hold the report at all.

``objects`` over ``per_item`` is a lower bound on the judges ratio for any implementation that
returns the report as Python objects; the target of bench/workflows.py is 4x.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import multiprocessing  # noqa: E402

from run import Measurement, machine, parse_count, peak_mb, spawn  # noqa: E402
from workflows import COLUMNS, ratings_file  # noqa: E402


def count_objects(path: str) -> dict:
    """Run judge_agreement on ``path``: its seconds, and its dicts counted by their key count."""
    import agreement_sql as ag

    con = ag.connect()
    started = time.perf_counter()
    report = ag.judge_agreement(path, item=COLUMNS["item"], rater=COLUMNS["rater"],
                                value=COLUMNS["value"], group_by="metric", con=con)
    seconds = time.perf_counter() - started
    peak = peak_mb()
    shapes: Counter = Counter()

    def walk(node) -> None:
        if isinstance(node, dict):
            shapes[len(node)] += 1
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(report)
    return {"seconds": seconds, "peak_mb": peak,
            "shapes": {str(k): v for k, v in sorted(shapes.items())},
            "json_mb": len(json.dumps(report)) / 2**20}


def build_objects(shapes: dict) -> dict:
    """As many dicts as the report holds, each with as many keys, from constants."""
    started = time.perf_counter()
    held = []
    for keys, count in shapes.items():
        template = {f"k{i}": 0.5 for i in range(int(keys))}
        held.extend(dict(template) for _ in range(count))
    return {"seconds": time.perf_counter() - started, "peak_mb": peak_mb(), "n": len(held)}


def _child(name: str, argument, pipe) -> None:
    pipe.send(globals()[name](argument))
    pipe.close()


def fresh(name: str, argument) -> dict:
    """``name(argument)`` in a fresh spawned process."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(name, argument, sender))
    process.start()
    sender.close()
    try:
        outcome = receiver.recv()
    except EOFError:
        sys.exit(f"{name}: the worker died (killed for memory?)")
    process.join()
    return outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="10M")
    parser.add_argument("--raters", type=int, default=5)
    parser.add_argument("--metrics", type=int, default=2)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--kind", default="likert")
    parser.add_argument("--skew", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-limit", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path, n = ratings_file(args, args.raters)
    print(f"{machine()}\n{n:,} ratings in {path}")

    floor = Measurement("per_item", "baselines:per_item")
    judged = fresh("count_objects", path)
    shapes = judged["shapes"]
    floors, objects, peaks = [], [], []
    for _ in range(args.repeat):
        floors.append(spawn(floor, path, None)["seconds"])
        built = fresh("build_objects", shapes)
        objects.append(built["seconds"])
        peaks.append(built["peak_mb"])
    per_item = statistics.median(floors)
    total = sum(shapes.values())
    print(f"per_item: {per_item:.3f} s (median of {args.repeat})")
    print(f"judges: {judged['seconds']:.2f} s = {judged['seconds'] / per_item:.0f}x per_item, "
          f"peak {judged['peak_mb']:.0f} MB; report: {total:,} dicts "
          f"(by key count {shapes}), {judged['json_mb']:.0f} MB as JSON")
    print(f"objects: {statistics.median(objects):.3f} s = "
          f"{statistics.median(objects) / per_item:.1f}x per_item, peak {max(peaks):.0f} MB, to "
          f"build {total:,} dicts (median of {args.repeat}); the judges target is 4x")


if __name__ == "__main__":
    main()
