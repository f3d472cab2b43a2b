"""The DuckDB table macros (agreement_sql/macros.py, decision 0018) against the Python API on the
same ratings file: the same statements, rendered from the same templates, so the macros should
cost what the API costs (target: within 1.1x). Wall-clock seconds of each call, best of
--repeat, measured in one process and one run (the API first, then the macro, alternating), with
the values checked equal (1e-12).

    python bench/macros.py --rows 10M            # 1M items x 5 raters x 2 metrics, 10% missing
    python bench/macros.py --rows 1M --repeat 1  # quick
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

import duckdb  # noqa: E402

import agreement_sql as ag  # noqa: E402

# (label, API call on path, macro SQL on path); both with metric='metric'
CASES = (
    ("fleiss_kappa", lambda p: ag.fleiss_kappa(p, metric="metric"),
     "SELECT * FROM fleiss_kappa($path, metric := 'metric') ORDER BY metric"),
    ("krippendorff_alpha interval",
     lambda p: ag.krippendorff_alpha(p, metric="metric", level="interval"),
     "SELECT * FROM krippendorff_alpha($path, metric := 'metric', level := 'interval') "
     "ORDER BY metric"),
    ("gwet_ac1", lambda p: ag.gwet_ac1(p, metric="metric"),
     "SELECT * FROM gwet_ac1($path, metric := 'metric') ORDER BY metric"),
)


def dataset(rows: int) -> str:
    from generate import generate

    items = rows // 10
    path = BENCH / ".data" / f"macros_likert_{items}i_5r_2m.parquet"
    if not path.exists():
        path.parent.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", flush=True)
        generate(str(path), items, 5, 2, 0.1, "likert", 0.0, 1)
    return str(path)


def values(result: object) -> list[float | None]:
    listed = result if isinstance(result, list) else [result]
    return [r["value"] for r in sorted(listed, key=lambda r: r["metric"])]  # type: ignore[index]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="10M")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    text = args.rows.lower()
    rows = int(float(text.rstrip("km")) * {"k": 10**3, "m": 10**6}.get(text[-1:], 1))
    path = dataset(rows)
    con = duckdb.connect()
    ag.install_macros(con)
    print(f"{platform.node()} {platform.machine()} {os.cpu_count()} cores, duckdb "
          f"{duckdb.__version__}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
          f"{path} (other helpers share the machine: noise expected)")
    for label, api, sql in CASES:
        best_api = best_macro = math.inf
        for _ in range(args.repeat):
            start = time.perf_counter()
            expected = values(api(path))
            best_api = min(best_api, time.perf_counter() - start)
            start = time.perf_counter()
            cur = con.cursor()
            got = [r[0] for r in cur.execute(
                f"SELECT value FROM ({sql})", {"path": path}).fetchall()]
            cur.close()
            best_macro = min(best_macro, time.perf_counter() - start)
            assert len(got) == len(expected) and all(
                (a is None and b is None) or abs(a - b) <= 1e-12 for a, b in zip(got, expected)), \
                (label, got, expected)
        print(f"{label:30s} API {best_api:7.2f} s   macro {best_macro:7.2f} s   "
              f"macro/API {best_macro / best_api:5.2f}x", flush=True)


if __name__ == "__main__":
    main()
