"""Time agreement-sql against its floors and the pandas/krippendorff/statsmodels route.

    python bench/run.py --rows 10M --raters 5 [--memory-limit 4GB] [--only scan,per_item]
    python bench/run.py --rows 10M --raters-sweep          # 5 vs 50 raters per item
    python bench/run.py --rows 10M --raters-sweep --kind continuous --only per_item,pairwise,human_agreement

``--rows`` is the full grid items x raters x metrics; ``--missing`` (default 0.1) then drops
that share, so the file holds about 10% fewer rows. The file is cached under bench/.data/.
Every repeat of every measurement runs in a fresh spawned process: the clock covers only the
call (imports, and a connection from the module's own ``connect`` when the function takes
``con=``, come first), and peak memory is that process's resident high-water mark (VmHWM),
DuckDB's allocations included. Package functions are imported lazily; a missing one is
reported as "skipped: <reason>" and the run goes on.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import importlib.metadata
import inspect
import json
import multiprocessing
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DATA = BENCH / ".data"
COLUMNS = {"item": "item", "rater": "rater", "value": "value", "metric": "metric"}
LEVELS = ("nominal", "ordinal", "interval", "ratio")
SWEEP_RATERS = (5, 50)
TIME_FLOOR, MEMORY_REFERENCE = "per_item", "reference"
SUFFIXES = {"k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9}


class Skipped(Exception):
    """The measured function does not exist (yet), so there is nothing to time."""


@dataclass(frozen=True)
class Measurement:
    """One timed call: ``target`` is "module:function", called as ``function(path, **kwargs)``."""

    name: str
    target: str
    kwargs: dict = field(default_factory=dict)
    preload: tuple[str, ...] = ()  # imported before the clock starts


MEASUREMENTS = (
    Measurement("scan", "baselines:scan"),
    Measurement("per_item", "baselines:per_item"),
    Measurement(
        "reference",
        "baselines:reference_pipeline",
        preload=("pyarrow.parquet", "pandas", "krippendorff", "statsmodels.stats.inter_rater"),
    ),
    Measurement("equivalent", "baselines:package_equivalent", preload=("agreement_sql",)),
    Measurement("irr", "agreement_sql:irr", COLUMNS),
    # pairwise % and A^HH alone: on --kind continuous these take the window form
    # (sql/_pairwise_sums.sql.j2), whose cost should not grow with raters per item
    Measurement("pairwise", "agreement_sql:pairwise_agreement", COLUMNS),
    Measurement("human_agreement", "agreement_sql:human_agreement", COLUMNS),
    *(
        Measurement(f"alpha_{level}", "agreement_sql:krippendorff_alpha", {**COLUMNS, "level": level})
        for level in LEVELS
    ),
    Measurement("coefficients", "agreement_sql:coefficients", COLUMNS),
    # the seed workflows on the same file (targets: within 4x per_item) and the page
    Measurement("judges", "agreement_sql:judge_agreement",
                {"item": "item", "rater": "rater", "value": "value", "group_by": "metric"}),
    Measurement("diagnostics", "agreement_sql:rater_diagnostics", COLUMNS),
    Measurement("report", "agreement_sql:report", COLUMNS),
)


# --- inside the spawned worker ----------------------------------------------------------------


def resolve(target: str):
    """Import "module:function" and return the function, or raise Skipped saying why not."""
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise Skipped(f"cannot import {module_name} ({exc})") from exc
    function = getattr(module, attr, None)
    if function is None:
        raise Skipped(f"{module_name}.{attr} does not exist yet")
    return function


def connection_parameter(function) -> str | None:
    """The name under which ``function`` accepts a DuckDB connection, if it does."""
    parameters = inspect.signature(function).parameters
    return next((name for name in ("con", "connection") if name in parameters), None)


def open_connection(function, limits: dict):
    """A connection from the ``connect`` of ``function``'s top-level module, with ``limits``."""
    return sys.modules[function.__module__.split(".")[0]].connect(**limits)


def peak_mb() -> float:
    """Peak resident set size of this process in MB.

    Reads VmHWM: ru_maxrss would report at least the parent's peak, because Linux carries the
    pre-exec high-water mark of a forked child into ru_maxrss.
    """
    try:
        with open("/proc/self/status") as status:
            line = next(line for line in status if line.startswith("VmHWM:"))
        return int(line.split()[1]) / 1024  # kB
    except OSError:  # no /proc (macOS): ru_maxrss is in bytes there
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def call_once(measurement: Measurement, path: str, limits: dict | None) -> dict:
    """Import, set up, then time one call; return seconds, peak MB and a short result summary."""
    for module in measurement.preload:
        importlib.import_module(module)
    function = resolve(measurement.target)
    kwargs = dict(measurement.kwargs)
    parameter = connection_parameter(function)
    if parameter:  # opened before the clock starts, with or without limits, for every callee alike
        kwargs[parameter] = open_connection(function, limits or {})
    note = "memory limit not applied: no con= parameter" if limits and not parameter else None
    start = time.perf_counter()
    result = function(path, **kwargs)
    seconds = time.perf_counter() - start
    return {"status": "ok", "seconds": seconds, "peak_mb": peak_mb(), "result": repr(result)[:300], "note": note}


def worker(measurement: Measurement, path: str, limits: dict | None, pipe) -> None:
    """Entry point of the spawned process: run ``call_once`` and send back its outcome."""
    try:
        outcome = call_once(measurement, path, limits)
    except Skipped as exc:
        outcome = {"status": "skipped", "detail": str(exc)}
    except Exception as exc:  # reported in the table; the run goes on
        outcome = {"status": "error", "detail": f"{type(exc).__name__}: {exc}"}
    pipe.send(outcome)
    pipe.close()


# --- in the parent ----------------------------------------------------------------------------


def spawn(measurement: Measurement, path: str, limits: dict | None) -> dict:
    """Run one repeat of ``measurement`` in a fresh process and return its outcome."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=worker, args=(measurement, path, limits, sender))
    process.start()
    sender.close()
    try:
        outcome = receiver.recv()
    except EOFError:
        outcome = {"status": "error", "detail": "worker died (killed for memory?)"}
    process.join()
    if process.exitcode:
        outcome = {"status": "error", "detail": f"worker exited with code {process.exitcode}"}
    return outcome


def measure(measurement: Measurement, path: str, repeat: int, limits: dict | None) -> dict:
    """Median seconds and maximum peak MB over ``repeat`` fresh processes."""
    runs = []
    for _ in range(repeat):
        outcome = spawn(measurement, path, limits)
        if outcome["status"] != "ok":
            return {"name": measurement.name, **outcome}
        runs.append(outcome)
    return {
        "name": measurement.name,
        "status": "ok",
        "seconds": statistics.median(run["seconds"] for run in runs),
        "runs": [run["seconds"] for run in runs],
        "peak_mb": max(run["peak_mb"] for run in runs),
        "result": runs[-1]["result"],
        "note": runs[-1]["note"],
    }


def measure_all(measurements, path: str, repeat: int, limits: dict | None) -> list[dict]:
    """Measure each in turn, printing one progress line per measurement."""
    results = []
    for measurement in measurements:
        result = measure(measurement, path, repeat, limits)
        print(f"  {measurement.name}: {describe(result)}", flush=True)
        results.append(result)
    return results


def describe(result: dict) -> str:
    """One-line outcome: figures, or "skipped: reason" / "error: reason"."""
    if result["status"] != "ok":
        return f"{result['status']}: {result['detail']}"
    text = f"{result['seconds']:.3f} s, {result['peak_mb']:.0f} MB -> {result['result'][:120]}"
    return f"{text} ({result['note']})" if result["note"] else text


def ratio(value: float, results: list[dict], name: str, key: str) -> str:
    """``value`` divided by the ``key`` figure of measurement ``name``, or '' if unavailable."""
    base = next((r for r in results if r["name"] == name and r["status"] == "ok"), None)
    return f"{value / base[key]:.2f}" if base and base[key] else ""


def table(results: list[dict]) -> str:
    """The results as a fixed-width table with ratios to the per-item floor and the reference."""
    lines = [f"{'measurement':<16}{'seconds':>9}{'x ' + TIME_FLOOR:>12}{'peak MB':>9}{'x ' + MEMORY_REFERENCE:>13}"]
    for r in results:
        if r["status"] != "ok":
            lines.append(f"{r['name']:<16}  {r['status']}: {r['detail']}")
            continue
        lines.append(
            f"{r['name']:<16}{r['seconds']:>9.3f}{ratio(r['seconds'], results, TIME_FLOOR, 'seconds'):>12}"
            f"{r['peak_mb']:>9.0f}{ratio(r['peak_mb'], results, MEMORY_REFERENCE, 'peak_mb'):>13}"
        )
    return "\n".join(lines)


def sweep_table(runs: list[dict]) -> str:
    """Seconds and nanoseconds per rating side by side for each raters-per-item setting."""
    header = f"{'measurement':<16}" + "".join(
        f"{'s @' + str(run['raters']):>10}{'ns/rating @' + str(run['raters']):>17}" for run in runs
    )
    lines = [header + f"{'last/first':>12}"]
    for index, first in enumerate(runs[0]["results"]):
        cells = [run["results"][index] for run in runs]
        if any(cell["status"] != "ok" for cell in cells):
            lines.append(f"{first['name']:<16}  {describe(next(c for c in cells if c['status'] != 'ok'))}")
            continue
        row = "".join(f"{c['seconds']:>10.3f}{1e9 * c['seconds'] / run['rows']:>17.1f}" for c, run in zip(cells, runs))
        lines.append(f"{first['name']:<16}{row}{cells[-1]['seconds'] / cells[0]['seconds']:>12.2f}")
    return "\n".join(lines)


def parse_count(text: str) -> int:
    """Parse 200k, 10M, 1G or 1e7 into an integer."""
    text = text.strip().lower()
    multiplier = SUFFIXES.get(text[-1:], 1)
    return int(float(text[:-1] if multiplier > 1 else text) * multiplier)


def dataset(args: argparse.Namespace, raters: int) -> tuple[str, int]:
    """Path and row count of the cached file for these options, generating it when absent."""
    import pyarrow.parquet as pq

    from generate import generate

    items = parse_count(args.rows) // (raters * args.metrics)
    if items < 1:
        raise SystemExit(f"--rows {args.rows} is fewer than raters x metrics")
    name = f"{args.kind}_{items}i_{raters}r_{args.metrics}m_miss{args.missing}_skew{args.skew}_seed{args.seed}"
    path = DATA / f"{name}.parquet"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        print(f"generating {path.name} ...", flush=True)
        generate(str(path), items, raters, args.metrics, args.missing, args.kind, args.skew, args.seed)
    return str(path), pq.ParquetFile(path).metadata.num_rows


def selected(only: str | None) -> list[Measurement]:
    """The measurements named in ``--only`` (comma-separated), or all of them."""
    if not only:
        return list(MEASUREMENTS)
    names = [name.strip() for name in only.split(",")]
    known = {m.name: m for m in MEASUREMENTS}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"unknown measurement(s) {unknown}; available: {', '.join(known)}")
    return [known[name] for name in names]


def version(package: str) -> str | None:
    """Installed version of ``package``, or None."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def git_commit() -> str | None:
    """Short commit hash of the checkout, or None outside git / before the first commit."""
    completed = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return completed.stdout.strip() or None


def machine() -> dict:
    """What the figures were measured on."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return {
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "memory_gb": round(memory / 2**30, 1),
        "python": platform.python_version(),
        "duckdb": version("duckdb"),
        "agreement_sql": version("agreement-sql"),
        "commit": git_commit(),
    }


def run(args: argparse.Namespace) -> dict:
    """Generate or reuse the data, measure, print the table(s); return everything for --json."""
    measurements = selected(args.only)
    limits = {"memory_limit": args.memory_limit, "temp_directory": str(DATA / "spill")} if args.memory_limit else None
    runs = []
    for raters in SWEEP_RATERS if args.raters_sweep else (args.raters,):
        path, rows = dataset(args, raters)
        print(f"{rows:,} rows ({raters} raters/item) in {path}", flush=True)
        results = measure_all(measurements, path, args.repeat, limits)
        runs.append({"raters": raters, "rows": rows, "path": path, "results": results})
        print(table(results), end="\n\n")
    if args.raters_sweep:
        print(sweep_table(runs))
    date = datetime.datetime.now().isoformat(timespec="seconds")
    options = {k: v for k, v in vars(args).items() if k != "json"}
    return {"date": date, "machine": machine(), "options": options, "runs": runs}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default="10M", help="grid size items x raters x metrics: 200k, 10M, 100M")
    parser.add_argument("--raters", type=int, default=5, help="raters per item")
    parser.add_argument("--metrics", type=int, default=2)
    parser.add_argument("--missing", type=float, default=0.1)
    parser.add_argument("--kind", choices=("likert", "binary", "continuous"), default="likert")
    parser.add_argument("--skew", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per measurement; median time")
    parser.add_argument("--memory-limit", help="DuckDB memory_limit, e.g. 4GB (spills to bench/.data/spill)")
    parser.add_argument("--only", help=f"comma-separated subset of: {', '.join(m.name for m in MEASUREMENTS)}")
    parser.add_argument("--raters-sweep", action="store_true", help=f"compare {SWEEP_RATERS} raters per item")
    parser.add_argument("--json", help="also save the results to this path")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and optionally save it as JSON."""
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
