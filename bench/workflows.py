"""The seed workflows at platform scale: each against its floor, measured in the same run.

    python bench/workflows.py                                  # 1M-row sheet and pairs, 10M ratings
    python bench/workflows.py --sheet-rows 50k --pairs-rows 50k --rows 200k --repeat 1   # smoke run
    python bench/workflows.py --rows 10M --raters-sweep        # also 5 vs 50 raters per item
    python bench/workflows.py --only per_item,judges --json workflows.json

Three sections, each timed against a floor measured in the same run:

* ``evaluation_sheet`` on a generated seed-003 evaluation sheet CSV (``--sheet-rows``, default
  1M rows, every column of data/evaluation_sheet.csv) against ``scan_sheet``: DuckDB reading
  every column of the same CSV (``count(COLUMNS(*))``), ``COUNT(*)`` and one aggregate (rows where
  the two annotators agree). Target: within 3x the scan.
* ``consistency`` on a generated seed-002 consistency pairs JSONL (``--pairs-rows``, default 1M
  lines) against ``scan_pairs``: the same with ``read_json`` (the aggregate: scholar label =
  auditor label). Target: within 3x the scan.
* on the ratings Parquet of bench/run.py (``--rows``, default 10M grid: 1M items x 5 raters x 2
  metrics, 10% missing: bench/.data/likert_1000000i_5r_2m_miss0.1_skew0.0_seed1.parquet, written
  with bench/generate.py when absent): ``judges`` = ``judge_agreement(path, item="item",
  rater="rater", value="value", group_by="metric")`` (per-point alphas and diagnostics on, the
  defaults) and ``diagnostics`` = ``rater_diagnostics(path, item=, rater=, value=,
  metric="metric")`` against ``per_item`` (bench/baselines.py's GROUP BY item, metric) and against
  ``irr``'s peak memory. Targets: within 4x per_item; peak memory at most irr's + 50%.
  ``judges_files`` is ``judges`` with ``points_to`` (the per-point rows to Parquet files,
  docs/decisions/0012) and ``judges_floor`` the least hand-written DuckDB SQL for the same
  content (JUDGES_FLOOR_SQL: no checks, no pooled alpha, only the diagnostics' leave-one-out
  sums), the floor any implementation of the call meets on the machine.
  ``--raters-sweep`` runs this section on 5 and on 50 raters per item with the same grid and
  prints nanoseconds per rating side by side (target: 50/5 <= 1, cost per rating flat or falling).

The sheet rows are the seed's 240 rows drawn at random (so every text column keeps the seed's
width, and the labels, case variants and blanks their mix), each with a new ``Sample_ID`` and a
``Dataset_Split`` drawn Dev/Test/Train in the seed's shares (45/40/15%); the pairs lines are the
seed's 120 lines drawn at random, each with a new ``qid``. Both are deterministic (``--seed``)
and cached under bench/.data/; delete a file to regenerate it.

Every repeat of every measurement is a fresh spawned process (bench/run.py's worker: imports,
and a connection from the callee's module's ``connect``, before the clock; peak MB is the
process's VmHWM). Within a section the measurements alternate, repeat by repeat, so drift in the
machine's speed touches floor and call alike; seconds are medians over ``--repeat``, peak MB the
maximum.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import statistics
import sys
from pathlib import Path

from baselines import connect  # noqa: F401  (run.py's worker opens the scans' connection with it)
from run import Measurement, describe, machine, parse_count, spawn

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = BENCH / ".data"
SEED_SHEET = ROOT / "data" / "evaluation_sheet.csv"
SEED_PAIRS = ROOT / "data" / "consistency_pairs.jsonl"
SPLITS = (("Dev", 0.45), ("Test", 0.40), ("Train", 0.15))
CHUNK = 200_000
SWEEP_RATERS = (5, 50)
COLUMNS = {"item": "item", "rater": "rater", "value": "value", "metric": "metric"}

SCAN_SHEET_SQL = """
SELECT count(*) AS n,
       sum(CASE WHEN upper(trim(Annotator_1_Label)) = upper(trim(Annotator_2_Label)) THEN 1 ELSE 0 END) AS agree,
       count(COLUMNS(*))
FROM read_csv($path)
"""
SCAN_PAIRS_SQL = """
SELECT count(*) AS n,
       sum(CASE WHEN scholar.label = auditor.label THEN 1 ELSE 0 END) AS agree,
       count(COLUMNS(*))
FROM read_json($path, format = 'newline_delimited')
"""

# section -> (floor, memory reference or None, measurements, {name: (time target x floor, memory target x ref)})
SECTIONS = {
    "sheet": ("scan_sheet", None, (
        Measurement("scan_sheet", "workflows:scan_sheet"),
        Measurement("evaluation_sheet", "agreement_sql:evaluation_sheet", preload=("agreement_sql",)),
    ), {"evaluation_sheet": (3.0, None)}),
    "pairs": ("scan_pairs", None, (
        Measurement("scan_pairs", "workflows:scan_pairs"),
        Measurement("consistency", "agreement_sql:consistency", preload=("agreement_sql",)),
    ), {"consistency": (3.0, None)}),
    "ratings": ("per_item", "irr", (
        Measurement("per_item", "baselines:per_item"),
        Measurement("irr", "agreement_sql:irr", COLUMNS),
        Measurement("judges", "agreement_sql:judge_agreement",
                    {"item": "item", "rater": "rater", "value": "value", "group_by": "metric"}),
        Measurement("judges_files", "workflows:judges_to_files", preload=("agreement_sql",)),
        Measurement("judges_floor", "workflows:judges_floor"),
        Measurement("diagnostics", "agreement_sql:rater_diagnostics", COLUMNS),
    ), {"judges": (4.0, 1.5), "judges_files": (4.0, 1.5), "judges_floor": (4.0, 1.5),
        "diagnostics": (4.0, 1.5)}),
}


# --- the floors (run in the spawned worker as "workflows:scan_sheet" / "workflows:scan_pairs") --


def scan_sheet(path: str, con=None) -> tuple:
    """Every column of the sheet CSV read; row count and rows where the two annotators agree."""
    return (con or connect()).execute(SCAN_SHEET_SQL, {"path": path}).fetchall()[0][:2]


def scan_pairs(path: str, con=None) -> tuple:
    """Every field of the pairs JSONL read; line count and lines where the two labels agree."""
    return (con or connect()).execute(SCAN_PAIRS_SQL, {"path": path}).fetchall()[0][:2]


def judges_to_files(path: str, con=None) -> tuple:
    """``judges`` with ``points_to``: the per-point rows written to Parquet files (a fresh
    directory, removed after the call, inside the timing) instead of returned as objects."""
    import shutil
    import tempfile

    from agreement_sql import judge_agreement

    out = tempfile.mkdtemp(prefix="judges-", dir=DATA)
    try:
        report = judge_agreement(path, item="item", rater="rater", value="value", group_by="metric",
                                 points_to=out, con=con)
        return tuple((name, f["rows"]) for name, f in report["pointFiles"].items())
    finally:
        shutil.rmtree(out, ignore_errors=True)


# the least SQL for judge_agreement's content on the ratings file (group_by metric, across
# metric: every item a rubric point), by hand, with none of the package's checks or rules:
# interval alpha in closed form per metric, each judge's paired scores, the points' spread
# and sigma and the point alphas written to Parquet in input order, and the leave-one-out
# sums of the rater diagnostics (one join of every score to its unit); no pooled alpha, no
# other diagnostics
JUDGES_FLOOR_SQL = (
    """CREATE TEMP TABLE rc AS SELECT rater, (1::BIGINT << (row_number() OVER (ORDER BY rater) - 1)::INT) AS bit
       FROM (SELECT DISTINCT rater FROM read_parquet($path))""",
    """CREATE TEMP TABLE u AS
       SELECT r.metric, r.item, count(*) AS m, sum(value) AS s1, sum(value * value) AS s2, min(value) AS mn,
              max(value) AS mx, min(file_row_number) AS fr, bit_or(c.bit) AS b
       FROM read_parquet($path, file_row_number = true) AS r JOIN rc AS c ON c.rater = r.rater
       WHERE value IS NOT NULL GROUP BY r.metric, r.item""",
    """SELECT metric, 1 - (sum(m) - 1) * sum(2 * (m * s2 - s1 * s1) / (m - 1)) / (2 * (sum(m) * sum(s2) - sum(s1) ^ 2)),
              bit_count(bit_or(b)), sum(m * (m - 1)) / 2, min(fr)
       FROM u WHERE m >= 2 GROUP BY metric""",
    """SELECT r.metric, r.rater, count(*), min(file_row_number)
       FROM read_parquet($path, file_row_number = true) AS r
       WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.m = 1 AND u.metric = r.metric AND u.item = r.item)
       GROUP BY r.metric, r.rater""",
    """COPY (SELECT metric, CAST(item AS VARCHAR) AS pointText, m AS numJudges, s1 / m AS mean, mx - mn AS spread,
                   sqrt(greatest(s2 / m - (s1 / m) ^ 2, 0)) AS stdDev, sqrt(greatest(s2 / m - (s1 / m) ^ 2, 0)) > 0.3 AS flagged
            FROM u WHERE m >= 2 ORDER BY fr) TO $points (FORMAT PARQUET)""",
    """COPY (SELECT CAST(item AS VARCHAR) AS pointText,
                   1 - (sum(m) - 1) * sum(2 * (m * s2 - s1 * s1) / (m - 1)) / nullif(2 * (sum(m) * sum(s2) - sum(s1) ^ 2), 0) AS alpha,
                   sum(s2) / sum(m) - (sum(s1) / sum(m)) ^ 2 AS scoreVariance, bit_count(bit_or(b)) AS numJudges,
                   count(*) AS numResponses, sum(m * (m - 1)) / 2 AS numComparisons
            FROM u WHERE m >= 2 GROUP BY item ORDER BY min(fr)) TO $alphas (FORMAT PARQUET)""",
    """SELECT r.rater, sum(u.m - 1), sum(u.s1 - r.value), sum(u.s2 - r.value * r.value),
              sum(2 * ((u.m - 1) * (u.s2 - r.value * r.value) - (u.s1 - r.value) ^ 2) / nullif(u.m - 2, 0))
       FROM read_parquet($path) AS r JOIN u ON u.metric = r.metric AND u.item = r.item
       WHERE u.m >= 2 GROUP BY r.rater""",
)


def judges_floor(path: str, con=None) -> tuple:
    """JUDGES_FLOOR_SQL on ``path``: the floor of judge_agreement's work on this file."""
    import shutil
    import tempfile

    con = con or connect()
    out = tempfile.mkdtemp(prefix="floor-", dir=DATA)
    try:
        files = {"points": os.path.join(out, "points.parquet"),
                 "alphas": os.path.join(out, "point_alphas.parquet")}
        rows = []
        for sql in JUDGES_FLOOR_SQL:
            params = {"path": path, **files}
            rows.append(con.execute(sql, {k: v for k, v in params.items() if f"${k}" in sql}).fetchall())
        return (len(rows[2]), len(rows[3]), len(rows[6]))
    finally:
        shutil.rmtree(out, ignore_errors=True)


# --- data -------------------------------------------------------------------------------------


def sheet_file(rows: int, seed: int) -> Path:
    """The cached sheet CSV of ``rows`` rows, generated when absent."""
    path = DATA / f"evaluation_sheet_{rows}r_seed{seed}.csv"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", flush=True)
        generate_sheet(path, rows, seed)
    return path


def generate_sheet(path: Path, rows: int, seed: int) -> None:
    """Seed 003's rows drawn at random, each with a new Sample_ID and a random Dataset_Split."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    with open(SEED_SHEET, newline="", encoding="utf-8") as handle:
        names = next(csv.reader(handle))
    template = pacsv.read_csv(SEED_SHEET, convert_options=pacsv.ConvertOptions(
        column_types={name: pa.string() for name in names}, strings_can_be_null=True,
        quoted_strings_can_be_null=False))  # an empty cell stays empty (a missing label), as in the seed
    rng = np.random.default_rng(seed)
    split_names = pa.array([name for name, _ in SPLITS])
    shares = [share for _, share in SPLITS]
    width = len(str(rows))
    partial = f"{path}.partial"
    with pacsv.CSVWriter(partial, template.schema) as writer:
        for first in range(0, rows, CHUNK):
            n = min(CHUNK, rows - first)
            chunk = template.take(pa.array(rng.integers(0, template.num_rows, n)))
            ids = pa.array([f"HJ-{i:0{width}d}" for i in range(first + 1, first + n + 1)])
            splits = pc.take(split_names, pa.array(rng.choice(len(SPLITS), n, p=shares)))
            chunk = chunk.set_column(chunk.column_names.index("Sample_ID"), "Sample_ID", ids)
            chunk = chunk.set_column(chunk.column_names.index("Dataset_Split"), "Dataset_Split", splits)
            writer.write_table(chunk)
    os.replace(partial, path)


def pairs_file(rows: int, seed: int) -> Path:
    """The cached pairs JSONL of ``rows`` lines, generated when absent."""
    path = DATA / f"consistency_pairs_{rows}r_seed{seed}.jsonl"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", flush=True)
        generate_pairs(path, rows, seed)
    return path


def generate_pairs(path: Path, rows: int, seed: int) -> None:
    """Seed 002's lines drawn at random, each with a new qid (first key, as in the seed)."""
    import numpy as np

    records = [json.loads(line) for line in SEED_PAIRS.read_text().splitlines() if line.strip()]
    rests = [json.dumps({k: v for k, v in record.items() if k != "qid"})[1:] for record in records]
    rng = np.random.default_rng(seed)
    width = len(str(rows))
    partial = f"{path}.partial"
    with open(partial, "w", encoding="utf-8") as handle:
        for first in range(0, rows, CHUNK):
            n = min(CHUNK, rows - first)
            picks = rng.integers(0, len(rests), n)
            handle.write("".join(f'{{"qid": "Q{first + i + 1:0{width}d}", {rests[p]}\n'
                                 for i, p in enumerate(picks.tolist())))
    os.replace(partial, path)


def ratings_file(args: argparse.Namespace, raters: int) -> tuple[str, int]:
    """bench/run.py's cached ratings Parquet for ``--rows`` with ``raters`` per item."""
    from run import dataset

    return dataset(args, raters)


def file_size(path) -> str:
    return f"{os.path.getsize(path) / 2**20:,.0f} MB"


# --- measuring --------------------------------------------------------------------------------


def measure_section(measurements, path: str, repeat: int, limits: dict | None) -> list[dict]:
    """Every measurement ``repeat`` times in fresh processes, alternating; run.py's result dicts."""
    runs = {m.name: [] for m in measurements}
    failed: dict[str, dict] = {}
    for index in range(repeat):
        line = []
        for m in measurements:
            if m.name in failed:
                continue
            outcome = spawn(m, path, limits)
            if outcome["status"] != "ok":
                failed[m.name] = outcome
                line.append(f"{m.name} {outcome['status']}")
                continue
            runs[m.name].append(outcome)
            line.append(f"{m.name} {outcome['seconds']:.3f} s {outcome['peak_mb']:.0f} MB")
        print(f"  repeat {index + 1}: " + ", ".join(line), flush=True)
    results = []
    for m in measurements:
        if m.name in failed:
            results.append({"name": m.name, **failed[m.name]})
            continue
        done = runs[m.name]
        results.append({
            "name": m.name, "status": "ok",
            "seconds": statistics.median(r["seconds"] for r in done),
            "runs": [r["seconds"] for r in done],
            "peak_mb": max(r["peak_mb"] for r in done),
            "result": done[-1]["result"], "note": done[-1]["note"],
        })
    return results


def figure(results: list[dict], name: str | None, key: str) -> float | None:
    found = next((r for r in results if r["name"] == name and r["status"] == "ok"), None)
    return found[key] if found else None


def section_table(section: str, results: list[dict]) -> str:
    """seconds, x floor, peak MB, x memory reference, target and whether it is met."""
    floor, memory_ref, _, targets = SECTIONS[section]
    floor_s, ref_mb = figure(results, floor, "seconds"), figure(results, memory_ref, "peak_mb")
    ref_label = f"x {memory_ref} MB" if memory_ref else ""
    lines = [f"{'measurement':<18}{'seconds':>9}{'x ' + floor:>14}{'peak MB':>9}{ref_label:>12}  {'target':<42}met"]
    for r in results:
        if r["status"] != "ok":
            lines.append(f"{r['name']:<18}  {describe(r)}")
            continue
        x_time = r["seconds"] / floor_s if floor_s else None
        x_mem = r["peak_mb"] / ref_mb if ref_mb else None
        target, met = "", ""
        if r["name"] in targets:
            time_target, memory_target = targets[r["name"]]
            target = f"within {time_target:g}x {floor}"
            checks = [x_time is not None and x_time <= time_target]
            if memory_target:
                target += f", peak <= {memory_ref}'s +{100 * (memory_target - 1):.0f}%"
                checks.append(x_mem is not None and x_mem <= memory_target)
            met = "yes" if all(checks) else "no"
        lines.append(
            f"{r['name']:<18}{r['seconds']:>9.3f}{(f'{x_time:.2f}' if x_time else ''):>14}"
            f"{r['peak_mb']:>9.0f}{(f'{x_mem:.2f}' if x_mem and memory_ref else ''):>12}  {target:<42}{met}"
        )
    return "\n".join(lines)


def sweep_table(runs: list[dict]) -> str:
    """Seconds and ns per rating at each raters-per-item setting; last/first and the target."""
    header = f"{'measurement':<18}" + "".join(
        f"{'s @' + str(run['raters']):>10}{'ns/rating @' + str(run['raters']):>17}" for run in runs)
    lines = [header + f"{'last/first':>12}  target (no slower per rating)"]
    _, _, _, targets = SECTIONS["ratings"]
    for index, first in enumerate(runs[0]["results"]):
        cells = [run["results"][index] for run in runs]
        bad = next((c for c in cells if c["status"] != "ok"), None)
        if bad:
            lines.append(f"{first['name']:<18}  {describe(bad)}")
            continue
        row = "".join(f"{c['seconds']:>10.3f}{1e9 * c['seconds'] / run['rows']:>17.1f}" for c, run in zip(cells, runs))
        change = (cells[-1]["seconds"] / runs[-1]["rows"]) / (cells[0]["seconds"] / runs[0]["rows"])
        met = ("met" if change <= 1.0 else "NOT met") if first["name"] in targets else ""
        lines.append(f"{first['name']:<18}{row}{change:>12.2f}  {met}")
    return "\n".join(lines)


def selected(section: str, only: list[str] | None) -> list[Measurement]:
    """The section's measurements named in ``--only`` (all without it)."""
    measurements = SECTIONS[section][2]
    return [m for m in measurements if not only or m.name in only]


def run(args: argparse.Namespace) -> dict:
    info = machine()
    info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(f"machine: {info['cpus']} cpus, {info['memory_gb']} GB, Python {info['python']}, DuckDB "
          f"{info['duckdb']}, agreement-sql {info['agreement_sql']}, commit {info['commit']}, "
          f"load average {info['load_average']}", flush=True)
    only = [n.strip() for n in args.only.split(",")] if args.only else None
    known = [m.name for section in SECTIONS.values() for m in section[2]]
    if only and (unknown := [n for n in only if n not in known]):
        raise SystemExit(f"unknown measurement(s) {unknown}; available: {', '.join(known)}")
    limits = ({"memory_limit": args.memory_limit, "temp_directory": str(DATA / "spill")}
              if args.memory_limit else None)
    report: dict = {"sections": {}}
    for section, make in (("sheet", lambda: sheet_file(parse_count(args.sheet_rows), args.seed)),
                          ("pairs", lambda: pairs_file(parse_count(args.pairs_rows), args.seed))):
        measurements = selected(section, only)
        if not measurements:
            continue
        path = str(make())
        print(f"\n[{section}] {parse_count(getattr(args, section + '_rows')):,} rows in {path} ({file_size(path)})", flush=True)
        results = measure_section(measurements, path, args.repeat, limits)
        print(section_table(section, results), flush=True)
        report["sections"][section] = {"path": path, "results": results}
    measurements = selected("ratings", only)
    if measurements:
        runs = []
        for raters in SWEEP_RATERS if args.raters_sweep else (args.raters,):
            path, rows = ratings_file(args, raters)
            print(f"\n[ratings] {rows:,} ratings ({raters} raters/item) in {path} ({file_size(path)})", flush=True)
            results = measure_section(measurements, path, args.repeat, limits)
            print(section_table("ratings", results), flush=True)
            runs.append({"raters": raters, "rows": rows, "path": path, "results": results})
        if args.raters_sweep:
            print(f"\n[raters sweep] same grid ({args.rows}), {' vs '.join(map(str, SWEEP_RATERS))} raters per item")
            print(sweep_table(runs))
        report["sections"]["ratings"] = runs
    date = datetime.datetime.now().isoformat(timespec="seconds")
    options = {k: v for k, v in vars(args).items() if k != "json"}
    return {"date": date, "machine": info, "options": options, **report}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sheet-rows", default="1M", help="rows of the generated evaluation sheet [1M]")
    parser.add_argument("--pairs-rows", default="1M", help="lines of the generated consistency pairs [1M]")
    parser.add_argument("--rows", default="10M", help="ratings grid items x raters x metrics, as bench/run.py [10M]")
    parser.add_argument("--raters", type=int, default=5, help="raters per item [5]")
    parser.add_argument("--metrics", type=int, default=2)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--kind", choices=("likert", "binary", "continuous"), default="likert")
    parser.add_argument("--skew", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1, help="seed of all three generated files [1]")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per measurement; median time [3]")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit, e.g. 4GB (spills to bench/.data/spill)")
    known = [m.name for section in SECTIONS.values() for m in section[2]]
    parser.add_argument("--only", help=f"comma-separated subset of: {', '.join(known)}")
    parser.add_argument("--raters-sweep", action="store_true",
                        help=f"ratings section on {SWEEP_RATERS} raters per item, same grid")
    parser.add_argument("--json", help="also save the results to this path")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    for extra in (ROOT, ROOT / "src"):  # benchmark the checkout even when not installed
        if extra.is_dir():
            sys.path.insert(1, str(extra))
    report = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
        print(f"saved {args.json}")


if __name__ == "__main__":
    main()
