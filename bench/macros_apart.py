"""The macros' cost taken apart (decision 0018, bench/README.md "DuckDB table macros"): one call
per fresh process, each way of running the same coefficient on the same file, the median wall
and process CPU seconds of --repeat warm calls (after one warm-up), values printed to compare.

    python bench/macros_apart.py --rows 1M              # every way, the three coefficients
    python bench/macros_apart.py --rows 1M --ways api,macro --cases fleiss

Ways:
  api             the Python API (profile, then the statement for the route it found)
  api_counts      the API forced to the counts form (routes.forcing(units="counts"))
  macro           the installed table macro (agreement_sql/macros.py)
  statement_text  the statement the macros ran before their routes, run directly on a view of
                  the file: counts form, all rater blocks, every column read as text
  statement_wide  the macros' wide route's statement run directly (columns read by their
                  type, the scale's categories, one rater block, the duplicate check only:
                  the macros run the row checks in the route query), without its guard
  statement_counts  the macros' counts route's statement (one rater block), without its guard
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

CASES = {
    "fleiss": ("fleiss_kappa", {}, "fleiss_kappa($path, metric := 'metric')"),
    "alpha": ("krippendorff_alpha", {"level": "interval"},
              "krippendorff_alpha($path, metric := 'metric', level := 'interval')"),
    "ac1": ("gwet_ac1", {}, "gwet_ac1($path, metric := 'metric')"),
}
WAYS = ("api", "api_counts", "macro", "statement_text", "statement_wide", "statement_counts")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def one(way: str, path: str, case: str, repeat: int) -> str:
    """One way, in this process: the median of ``repeat`` warm calls."""
    import duckdb

    import agreement_sql as ag
    from agreement_sql import routes
    from agreement_sql.constants import RATER_BLOCKS
    from agreement_sql.dialects import DUCKDB
    from agreement_sql.macros import ROUTES, SCALE, TYPED_IDS
    from agreement_sql.rendering import statement

    name, opts, macro_call = CASES[case]
    fn = getattr(ag, name)

    def values(rows: list[dict]) -> list:
        return [r["value"] for r in sorted(rows, key=lambda r: r["metric"])]

    if way in ("api", "api_counts"):
        def run() -> list:
            if way == "api_counts":
                with routes.forcing(units="counts"):
                    return values(fn(path, metric="metric", **opts))
            return values(fn(path, metric="metric", **opts))
    elif way == "macro":
        con = duckdb.connect()
        ag.install_macros(con)

        def run() -> list:
            return [r[0] for r in con.execute(f"SELECT value FROM {macro_call} ORDER BY metric",
                                              {"path": path}).fetchall()]
    else:
        con = duckdb.connect()
        for s in DUCKDB.setup:
            con.execute(s)
        con.execute("CREATE VIEW agreement_input AS SELECT item, rater, value, metric "
                    "FROM read_parquet($path)".replace("$path", "'" + path.replace("'", "''") + "'"))
        typed = {"value_kinds": ["typed"], "id_kinds": TYPED_IDS}
        choices = {"statement_text": {"rater_blocks": RATER_BLOCKS},
                   "statement_wide": {"rater_blocks": 1, "form": "wide",
                                      "categories": list(range(SCALE[0], SCALE[1] + 1)), **typed},
                   "statement_counts": {"rater_blocks": 1, "category_kinds": "mixed", **typed}}[way]
        # the checks each route's statement carries in the macros (the row checks run in the
        # route query); the statement of before the routes carried them all
        route = {r.name: r for r in ROUTES}
        checks = {"statement_wide": route["wide"].checks,
                  "statement_counts": route["counts"].checks}.get(way, True)
        rendered, params = statement(name, dialect=DUCKDB, relation="agreement_input",
                                     metric="metric", checks=checks, **opts, **choices)
        bound = {p: params[p] for p in rendered.params}

        def run() -> list:
            cur = con.execute(rendered.sql, bound)
            cols = [d[0] for d in cur.description]
            return values([dict(zip(cols, r)) for r in cur.fetchall()])

    first = run()
    walls, cpus = [], []
    for _ in range(repeat):
        c0, t0 = _cpu(), time.perf_counter()
        got = run()
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
        assert got == first, (way, got, first)
    return (f"{case:7s} {way:17s} wall {statistics.median(walls):7.3f} s  "
            f"cpu {statistics.median(cpus):7.3f} s  {first}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="1M")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ways", default=",".join(WAYS))
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--one", nargs=2, metavar=("WAY", "CASE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    from macros import dataset

    text = args.rows.lower()
    rows = int(float(text.rstrip("km")) * {"k": 10**3, "m": 10**6}.get(text[-1:], 1))
    path = dataset(rows)
    if args.one:
        print(one(args.one[0], path, args.one[1], args.repeat), flush=True)
        return
    print(f"{path}; load {os.getloadavg()[0]:.2f}", flush=True)
    for case in args.cases.split(","):
        for way in args.ways.split(","):
            subprocess.run([sys.executable, __file__, "--rows", args.rows, "--repeat",
                            str(args.repeat), "--one", way, case], check=True)
    print(f"load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
