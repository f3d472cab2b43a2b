"""The same 10M-rating job on DuckDB and on Spark local[2]: time and results side by side.

    python bench/spark.py [--path bench/.data/likert_1000000i_5r_2m_miss0.1_skew0.0_seed1.parquet]
                          [--master local[2]] [--driver-memory 8g] [--repeat 1]

The job is four calls on one Parquet file (columns item, rater, metric, value):
krippendorff_alpha interval and nominal, fleiss_kappa, irr, each with metric="metric". DuckDB
runs them with the package's default private connection; Spark with
``agreement_sql.connect(spark=spark)`` on a local SparkSession (two shuffle partitions per core
by default here: spark.sql.shuffle.partitions = 4). The Spark session is started (and warmed
by one tiny call) before the clock runs; each call's wall time is the median of --repeat runs.
Results are compared per metric: integers exactly, floats to 1e-9 (decision 0008).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT = ROOT / "bench" / ".data" / "likert_1000000i_5r_2m_miss0.1_skew0.0_seed1.parquet"


def job(a, path: str, con) -> dict:
    return {
        "krippendorff_alpha interval": lambda: a.krippendorff_alpha(path, metric="metric", level="interval", con=con),
        "krippendorff_alpha nominal": lambda: a.krippendorff_alpha(path, metric="metric", level="nominal", con=con),
        "fleiss_kappa": lambda: a.fleiss_kappa(path, metric="metric", con=con),
        "irr": lambda: a.irr(path, metric="metric", con=con),
    }


def timed(call, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=str(DEFAULT))
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--driver-memory", default="8g")
    parser.add_argument("--shuffle-partitions", default="4")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    args = parser.parse_args()

    import duckdb
    import pyspark
    from pyspark.sql import SparkSession

    import agreement_sql as a
    from tests.engines._compare import differences

    n_rows = duckdb.connect().execute("SELECT COUNT(*) FROM read_parquet($p)", {"p": args.path}).fetchall()[0][0]
    spark = (SparkSession.builder.master(args.master).appName("agreement-sql-bench")
             .config("spark.sql.shuffle.partitions", args.shuffle_partitions)
             .config("spark.driver.memory", args.driver_memory)
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    engine = a.connect(spark=spark)
    a.krippendorff_alpha(str(ROOT / "tests" / "reference" / "krippendorff2011_4x12.csv"), con=engine)

    rows = []
    duck_calls, spark_calls = job(a, args.path, None), job(a, args.path, engine)
    for name in duck_calls:
        t_duck, r_duck = timed(duck_calls[name], args.repeat)
        t_spark, r_spark = timed(spark_calls[name], args.repeat)
        diff = differences(r_duck, r_spark)
        value = (r_duck[0] if isinstance(r_duck, list) else r_duck)
        shown = value.get("value", value.get("score")) if isinstance(value, dict) else None
        rows.append({"call": name, "duckdb_s": round(t_duck, 2), "spark_s": round(t_spark, 2),
                     "same": not diff, "differences": diff[:5], "first_value": shown})
        print(f"{name:30s} duckdb {t_duck:7.2f} s   spark {t_spark:7.2f} s   "
              f"{'same results' if not diff else 'DIFFERENT: ' + '; '.join(diff[:3])}", flush=True)
    info = {"date": datetime.date.today().isoformat(), "ratings": n_rows, "path": args.path,
            "machine": f"{os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
                       f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GiB",
            "python": platform.python_version(), "duckdb": duckdb.__version__,
            "pyspark": pyspark.__version__, "master": args.master,
            "shuffle_partitions": args.shuffle_partitions, "rows": rows}
    print(json.dumps(info, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(info, indent=1))
    spark.stop()
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
