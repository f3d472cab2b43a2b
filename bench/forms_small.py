"""The per-unit form a small call should take: the wide form against the counts form, one process.

    python bench/forms_small.py                          # K2011 and about 1k, 5k, 10k ratings
    python bench/forms_small.py --sizes 2000,3000 --rounds 9

On a few thousand ratings a warm call's cost is DuckDB planning its statements (docs/decisions/
0023), and the two per-unit forms plan differently: the wide form carries a count column per
category, packed counts, unit patterns and rater patterns; the counts form a counts-per-(unit,
value) table. This measures each call under ``routes.forcing(units="wide")`` and
``routes.forcing(units="counts")`` in interleaved rounds (the same call under both forms, one
after the other, so drift in the machine's speed touches both alike), CPU seconds of the process
(every thread), and prints per call the minimum and the median over the rounds and the ratio
counts / wide of the minima, with the form the default route takes on that input
(routes.decide: the counts form on at most ``constants.SMALL_INPUT_RATINGS`` ratings). The ratio
is what set that threshold (bench/README.md '2026-12-07, the counts form on few ratings').

Inputs: the Krippendorff (2011) 4 x 12 table (41 ratings) and tables of about ``--sizes``
ratings from bench/generate.py's model (Likert 1-5, 5 raters, 10% missing, seed 1; cached
under bench/.data/small/), each an in-memory Arrow table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from small import DATASETS, MISSING, RATERS, SEED, SMALL  # noqa: E402  (bench/small.py's inputs)

K2011 = DATASETS["k2011"][0]
CALLS = (
    ("alpha_nominal", "krippendorff_alpha", {"level": "nominal"}),
    ("alpha_interval", "krippendorff_alpha", {"level": "interval"}),
    ("fleiss_kappa", "fleiss_kappa", {}),
    ("cohen_kappa", "cohen_kappa", None),          # raters: the first two by name
    ("gwet_ac1", "gwet_ac1", {}),
    ("irr", "irr", {}),
    ("coefficients", "coefficients", {}),
)


def generated(ratings: int):
    """About ``ratings`` ratings from bench/generate.py's model, as an Arrow table (cached)."""
    import pyarrow.parquet as pq
    from generate import generate

    items = round(ratings / (RATERS * (1 - MISSING)))
    path = SMALL / f"forms_likert_{items}i_{RATERS}r_miss{MISSING}_seed{SEED}.parquet"
    if not path.exists():
        SMALL.mkdir(parents=True, exist_ok=True)
        generate(str(path), items, RATERS, 1, MISSING, "likert", 0.0, SEED)
    return pq.read_table(path).select(["item", "rater", "value"])


def units_of(result) -> str:
    """The units form of the first statement in ``result``'s route (coefficients() keeps a route
    per coefficient)."""
    if isinstance(result, dict):
        if "route" in result:
            return next((e["units"] for e in result["route"] if "units" in e), "")
        result = list(result.values())
    if isinstance(result, list):
        return next((u for u in map(units_of, result) if u), "")
    return ""


def cpu_ms(call) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,5000,10000",
                        help="generated inputs of about these many ratings (besides K2011)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", default="", help="comma-separated call names")
    args = parser.parse_args()

    import duckdb
    import pyarrow.csv as pacsv

    import agreement_sql as ag
    from agreement_sql import routes
    from agreement_sql.constants import SMALL_INPUT_RATINGS

    inputs = [("k2011", pacsv.read_csv(K2011))]
    inputs += [(f"{int(n):,}", generated(int(n))) for n in args.sizes.split(",") if n]
    only = set(filter(None, args.only.split(",")))
    print(f"duckdb {duckdb.__version__}, {os.cpu_count()} cpus, load average "
          f"{[round(x, 2) for x in os.getloadavg()]}, SMALL_INPUT_RATINGS {SMALL_INPUT_RATINGS:,}, "
          f"{args.rounds} interleaved rounds, CPU ms (min / median)")
    for name, table in inputs:
        print(f"\n{name}: {table.num_rows:,} ratings")
        print(f"{'call':16s} {'wide':>17s} {'counts':>17s} {'counts/wide':>12s}  default")
        for label, function, options in CALLS:
            if only and label not in only:
                continue
            if options is None:
                options = {"raters": sorted(set(table.column("rater").to_pylist()))[:2]}
            call = getattr(ag, function)
            default = units_of(call(table, **options))
            times: dict[str, list[float]] = {"wide": [], "counts": []}
            for form in times:                                    # warm both
                with routes.forcing(units=form):
                    call(table, **options)
            for _ in range(args.rounds):
                for form in times:
                    with routes.forcing(units=form):
                        times[form].append(cpu_ms(lambda: call(table, **options)))
            wide, counts = (min(times[f]) for f in ("wide", "counts"))
            print(f"{label:16s} {wide:7.1f} / {statistics.median(times['wide']):7.1f} "
                  f"{counts:7.1f} / {statistics.median(times['counts']):7.1f} "
                  f"{counts / wide:12.2f}  {default}")


if __name__ == "__main__":
    main()
