"""Continuous scores: 1M ratings with about 100k distinct values (issue #26 point 4).

    python bench/scores.py                          # 250k items x 4 raters, 3 repeats, 3GB limit
    python bench/scores.py --items 200k --raters 5 --repeat 1

Each measurement runs in a fresh spawned process (bench/run.py's machinery: median seconds,
peak MB as VmHWM), next to the per-item floor measured in the same run (``per_item``: GROUP BY
item with count, sum and sum of squares). The file (bench/.data/, written once) holds a
latent score per item in 0..100 plus rater noise, rounded to 3 decimals: about 100k distinct
values. Targets (issue #26): interval alpha <= 2x the floor, coefficients() <= 4x, each under
1 GB. ``alpha_interval`` reads per-unit moments (the sums form), ``alpha_interval_counts`` the
same with the counts form forced (the route it replaced); ``alpha_ordinal`` reads midranks
(routes decision alpha_distances, docs/decisions/0019); ``fleiss_quadratic`` (and
``coeffs_quadratic``: coefficients() with quadratic weights, whose rater-free kappas and
Conger's kappa it computes) reads the moments of the scores (routes decision kappa_weights);
``alpha_ratio`` sums over pairs of distinct values and is refused above
constants.MAX_VALUE_TABLE (its line shows the error: what a caller gets).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from run import DATA, Measurement, measure, parse_count, table  # noqa: E402


def dataset(items: int, raters: int) -> str:
    """The scores file for ``items`` x ``raters`` (written once)."""
    import duckdb

    DATA.mkdir(exist_ok=True)
    path = DATA / f"scores_{items}i_{raters}r.parquet"
    if not path.exists():
        duckdb.connect().execute(f"""
            COPY (SELECT i AS item, 'r' || r AS rater, 'm1' AS metric,
                         round(least(100, greatest(0,
                             (hash(i) % 1000000)::BIGINT / 10000.0
                             + ((hash(i * 7 + r) % 200001)::BIGINT - 100000) / 10000.0)), 3) AS value
                  FROM range({items}) t(i), range({raters}) s(r))
            TO '{path}' (FORMAT parquet)""")
    return str(path)


def alpha_interval_counts(path: str, con=None):
    """krippendorff_alpha(level="interval") with the counts form forced: the route the sums
    form (routes decision units, docs/decisions/0019) replaced, measured beside it."""
    import agreement_sql as ag
    from agreement_sql import routes

    with routes.forcing(units="counts"):
        return ag.krippendorff_alpha(path, con=con, level="interval")


def connect(**limits):
    """The connection bench/run.py opens for this module's functions (with the run's limits)."""
    import agreement_sql

    return agreement_sql.connect(**limits)


MEASUREMENTS = (
    Measurement("per_item", "baselines:per_item"),
    Measurement("alpha_interval", "agreement_sql:krippendorff_alpha", {"level": "interval"}),
    Measurement("alpha_interval_counts", "scores:alpha_interval_counts"),
    Measurement("icc", "agreement_sql:icc"),
    Measurement("coefficients", "agreement_sql:coefficients"),
    Measurement("coeffs_interval", "agreement_sql:coefficients", {"level": "interval"}),
    Measurement("alpha_ordinal", "agreement_sql:krippendorff_alpha", {"level": "ordinal"}),
    Measurement("alpha_nominal", "agreement_sql:krippendorff_alpha", {"level": "nominal"}),
    Measurement("fleiss_quadratic", "agreement_sql:fleiss_kappa", {"weights": "quadratic"}),
    Measurement("coeffs_quadratic", "agreement_sql:coefficients", {"weights": "quadratic"}),
    Measurement("alpha_ratio", "agreement_sql:krippendorff_alpha", {"level": "ratio"}),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", default="250k")
    parser.add_argument("--raters", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-limit", default="3GB")
    parser.add_argument("--only", help="comma-separated measurement names (per_item always runs)")
    args = parser.parse_args(argv)
    path = dataset(parse_count(args.items), args.raters)
    limits = {"memory_limit": args.memory_limit, "temp_directory": str(DATA / "spill")}
    wanted = set(args.only.split(",")) | {"per_item"} if args.only else None
    chosen = [m for m in MEASUREMENTS if wanted is None or m.name in wanted]
    print(f"{path}: {args.items} items x {args.raters} raters, memory_limit {args.memory_limit}")
    results = []
    for m in chosen:
        results.append(measure(m, path, args.repeat, limits))
        r = results[-1]
        print(f"  {m.name}: " + (f"{r['seconds']:.3f} s, {r['peak_mb']:.0f} MB" if r["status"] == "ok"
                                 else f"{r['status']}: {r['detail'][:160]}"), flush=True)
    print(table(results))


if __name__ == "__main__":
    main()
