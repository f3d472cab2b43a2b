"""Small data, one warm process: milliseconds per call against krippendorff and statsmodels.

    python bench/small.py                                   # 3 inputs, 3 processes x 20 calls each
    python bench/small.py --calls 5 --warmup 1 --repeat 1   # quick smoke run
    python bench/small.py --datasets k2011,10k --only alpha_nominal,irr --shared-connection
    python bench/small.py --json small.json                 # also save everything

Small data: a warm call on up to 10,000 ratings, ``krippendorff_alpha``
and each kappa in at most 5 ms, ``irr`` and ``coefficients()`` in at most 20 ms, the CLI on the
bundled example in under 0.4 s wall.

Inputs (``--datasets``): ``k2011`` is the Krippendorff (2011) 4 raters x 12 units table
(tests/reference/krippendorff2011_4x12.csv, 48 cells of which 41 are rated); ``1k`` and ``10k``
are long tables of about 1,000 and 10,000 ratings written by bench/generate.py's model (Likert
1-5, 5 raters, 10% of ratings missing, one metric; cached under bench/.data/small/). Each is given
to the package as an in-memory pyarrow Table and as a file path (``--file-format``, default CSV).

Every repeat of a dataset is one fresh spawned process. In it, before any clock: imports, the
Arrow table read from the file, the peers' raters x units matrix (NaN = missing). Then every
callable runs ``--warmup`` times, then ``--calls`` rounds in which each callable runs once in
turn (interleaved, so drift in the machine's speed touches all alike); a row's figure is the
median over the calls, and the median of those over ``--repeat`` processes. The callables are
the package calls (Arrow and file input), DuckDB's own scan of the same input (the floor: count
and sum), the least SQL for nominal alpha on it (``duckdb alpha``: one hand-written statement,
no input checks: DuckDB's floor for any alpha computed in SQL), and the peers:
``krippendorff.alpha`` on the matrix (nominal, interval), statsmodels'
``fleiss_kappa(aggregate_raters(complete items))`` and
``cohens_kappa(to_table(the two raters' common units))``, each timed on the prepared matrix
("peer ms": conversion excluded) and from the same Arrow table or file through pandas' pivot
("+arrow", "+file": conversion included). Ratios are the package's ms over the peer's with its
conversion from the same input. Peak MB is the process's resident high-water mark (VmHWM) during
that row's package calls, reset before each call (``/proc/self/clear_refs``), so it includes the
interpreter, the imports and anything earlier calls left allocated; the idle figure is printed
with each dataset.

Ratios (issue #26 point 3), printed under each dataset's table for the Arrow input: each call's
ms over the one-statement floor (``duckdb alpha``: the target for alpha and the kappas is 3x),
over its own statements (``own``: the rendered statements the call ran, captured once in the
worker and replayed alone with the same bound parameters on a cursor where the Arrow table is
registered under the call's source names: no reading, typing, checks, rendering or shaping; the
target for ``irr`` and ``coefficients()`` is 3x), and over its peer with the peer's conversion
from the same Arrow table.

Also: the CLI (``agreement-sql irr data/workshop_annotations.jsonl --format json``), wall clock of
a fresh process, median of ``--cli-runs`` runs after one unrecorded run; and, per dataset, where
one alpha call's time goes: a subprocess with ``AGREEMENT_SQL_TRACE=1`` whose stderr lines
(``agreement-sql trace: <statement> <seconds>s``) give each statement's share of the call, for
the first (cold) call and for one after ``--warmup`` calls (warm).
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SMALL = BENCH / ".data" / "small"
CLI_EXAMPLE = ROOT / "data" / "workshop_annotations.jsonl"
CLI_TARGET_S = 0.4
RATERS, MISSING, SEED = 5, 0.1, 1
# name -> (file or ratings wanted, description)
DATASETS = {
    "k2011": (ROOT / "tests" / "reference" / "krippendorff2011_4x12.csv", "Krippendorff (2011) 4x12 table"),
    "1k": (1_000, "generated, Likert 1-5, 5 raters, 10% missing"),
    "10k": (10_000, "generated, Likert 1-5, 5 raters, 10% missing"),
}
# name, package function, extra keyword arguments, target ms, peer (or None)
CALLS = (
    ("alpha_nominal", "krippendorff_alpha", {"level": "nominal"}, 5.0, "krippendorff nominal"),
    ("alpha_interval", "krippendorff_alpha", {"level": "interval"}, 5.0, "krippendorff interval"),
    ("fleiss_kappa", "fleiss_kappa", {}, 5.0, "statsmodels fleiss"),
    ("cohen_kappa", "cohen_kappa", {"raters": "two"}, 5.0, "statsmodels cohen"),
    ("gwet_ac1", "gwet_ac1", {}, 5.0, None),
    ("irr", "irr", {}, 20.0, None),
    ("coefficients", "coefficients", {}, 20.0, None),
)
FLOOR = "duckdb_scan"
# a package call's own floor: the statements it runs, replayed alone (own_statements)
OWN = "own"
# issue #26 point 3: a warm small call at most this many times its floor
FLOOR_TARGET = 3.0
# the least SQL that gives nominal alpha: one statement, no input checks, the value column read as
# a number; its time is DuckDB's own floor for an alpha computed in SQL on this input
FLOOR_ALPHA = "duckdb_alpha"
MINIMAL_ALPHA = """
WITH r AS (SELECT item, TRY_CAST(value AS DOUBLE) AS x FROM {source}),
iv AS (SELECT item, x, COUNT(*) AS n FROM r WHERE x IS NOT NULL GROUP BY item, x),
iu AS (SELECT item, SUM(n) AS m, SUM(n * n) AS q FROM iv GROUP BY item HAVING SUM(n) >= 2),
pv AS (SELECT iv.x, SUM(iv.n) AS n FROM iv JOIN iu ON iu.item = iv.item GROUP BY iv.x),
s AS (SELECT SUM((m * m - q) / (m - 1.0)) AS d_o, SUM(m) AS n FROM iu)
SELECT 1 - (s.n - 1) * s.d_o / (s.n * s.n - (SELECT SUM(n * n) FROM pv)) FROM s
"""
TRACE_LINE = re.compile(r"^agreement-sql trace: (.+) ([0-9.]+)s$")
MARK = "bench-small:"


# --- data -------------------------------------------------------------------------------------


def dataset_file(name: str, file_format: str) -> Path:
    """The input file of dataset ``name`` in ``file_format``, written (once) when absent."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    source, _ = DATASETS[name]
    if isinstance(source, Path):
        if file_format == "csv":
            return source
        path = SMALL / f"{source.stem}.parquet"
        if not path.exists():
            SMALL.mkdir(parents=True, exist_ok=True)
            pq.write_table(pacsv.read_csv(source), path)
        return path
    from generate import generate

    items = round(source / (RATERS * (1 - MISSING)))
    stem = f"likert_{items}i_{RATERS}r_miss{MISSING}_seed{SEED}"
    parquet, csv = SMALL / f"{stem}.parquet", SMALL / f"{stem}.csv"
    if not parquet.exists():
        SMALL.mkdir(parents=True, exist_ok=True)
        full = SMALL / f"{stem}_with_metric.parquet"
        generate(str(full), items, RATERS, 1, MISSING, "likert", 0.0, SEED)
        table = pq.read_table(full).drop_columns(["metric"])  # one metric: item, rater, value
        pq.write_table(table, parquet)
        full.unlink()
    if file_format == "csv" and not csv.exists():
        pacsv.write_csv(pq.read_table(parquet), csv)
    return parquet if file_format == "parquet" else csv


# --- inside the spawned worker ----------------------------------------------------------------


def read_peak_mb() -> float | None:
    """This process's resident high-water mark (VmHWM) in MB, or None without /proc."""
    try:
        with open("/proc/self/status") as status:
            return int(next(line for line in status if line.startswith("VmHWM:")).split()[1]) / 1024
    except (OSError, StopIteration):
        return None


def resident_mb() -> float | None:
    """Current resident set size (VmRSS) in MB, or None without /proc."""
    try:
        with open("/proc/self/status") as status:
            return int(next(line for line in status if line.startswith("VmRSS:")).split()[1]) / 1024
    except (OSError, StopIteration):
        return None


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux >= 4.0); False where that is not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def read_table(path: str):
    """The file as a pyarrow Table (columns item, rater, value)."""
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        return pq.read_table(path)
    import pyarrow.csv as pacsv

    return pacsv.read_csv(path)


def read_frame(path: str):
    """The file as a pandas DataFrame, as a peer's user reads it."""
    import pandas as pd

    return pd.read_parquet(path) if path.endswith(".parquet") else pd.read_csv(path)


def wide(frame):
    """Long ratings -> raters x units float matrix, NaN = missing (the peers' layout)."""
    return frame.pivot(index="item", columns="rater", values="value").to_numpy(dtype=float).T


def peer_functions() -> dict:
    """Peer name -> function of the raters x units matrix returning the coefficient."""
    import krippendorff
    import numpy as np
    from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa, to_table

    def fleiss(matrix):
        complete = matrix[:, ~np.isnan(matrix).any(axis=0)].T  # units x raters, every rater rated
        counts, _ = aggregate_raters(complete)
        return float(fleiss_kappa(counts, method="fleiss"))

    def cohen(matrix):
        pair = matrix[:2]  # the first two raters in sorted order: the package's raters=[a, b]
        both = pair[:, ~np.isnan(pair).any(axis=0)].T
        table, _ = to_table(both)
        return float(cohens_kappa(table).kappa)

    return {
        "krippendorff nominal": lambda m: float(krippendorff.alpha(reliability_data=m, level_of_measurement="nominal")),
        "krippendorff interval": lambda m: float(krippendorff.alpha(reliability_data=m, level_of_measurement="interval")),
        "statsmodels fleiss": fleiss,
        "statsmodels cohen": cohen,
    }


def summary_value(result):
    """The headline number of a result (a coefficient's value, irr's score), else a short repr."""
    if isinstance(result, (int, float)):
        return float(result)
    if isinstance(result, dict):
        for key in ("value", "score"):
            if isinstance(result.get(key), (int, float)):
                return float(result[key])
        return f"dict with {len(result)} keys"
    return repr(result)[:80]


def callables(spec: dict) -> tuple[dict, dict, dict]:
    """Name -> zero-argument callable (package, floor, peers); plus setup facts and skips."""
    import duckdb

    import agreement_sql as ag

    path = spec["path"]
    table = read_table(path)
    frame = table.to_pandas()
    matrix = wide(frame)
    raters = sorted(frame["rater"].astype(str).unique())
    con = ag.connect() if spec["shared_connection"] else None
    facts = {"ratings": table.num_rows, "items": int(frame["item"].nunique()), "raters": len(raters),
             "cohen_raters": raters[:2]}
    todo, skipped = {}, {}
    for name, function_name, extra, _, peer in CALLS:
        if spec["only"] and name not in spec["only"]:
            continue
        function = getattr(ag, function_name, None)
        if function is None:
            skipped[name] = f"agreement_sql.{function_name} does not exist"
            continue
        kwargs = {k: (raters[:2] if v == "two" else v) for k, v in extra.items()}
        if con is not None:
            kwargs["con"] = con
        for form, source in (("arrow", table), ("file", path)):
            todo[f"{name}|{form}"] = (lambda f=function, s=source, k=kwargs: f(s, **k))
    scan_con = duckdb.connect()
    scan_con.register("small_ratings", table)
    reader = "read_parquet" if path.endswith(".parquet") else "read_csv"
    todo[f"{FLOOR}|arrow"] = lambda: scan_con.execute("SELECT count(*), sum(value) FROM small_ratings").fetchall()
    todo[f"{FLOOR}|file"] = lambda: scan_con.execute(
        f"SELECT count(*), sum(value) FROM {reader}($path)", {"path": path}).fetchall()
    todo[f"{FLOOR_ALPHA}|arrow"] = lambda: scan_con.execute(
        MINIMAL_ALPHA.format(source="small_ratings")).fetchall()[0][0]
    todo[f"{FLOOR_ALPHA}|file"] = lambda: scan_con.execute(
        MINIMAL_ALPHA.format(source=f"{reader}($path)"), {"path": path}).fetchall()[0][0]
    for name, function_name, extra, _, _ in CALLS:
        key = f"{name}|arrow"
        if key in todo:
            replay = own_statements(todo[key], table, ag)
            if replay is not None:
                todo[f"{name}|{OWN}"] = replay
    peers = peer_functions()
    wanted = {peer for name, _, _, _, peer in CALLS if peer and (not spec["only"] or name in spec["only"])}
    for peer in sorted(wanted):
        function = peers[peer]
        todo[f"{peer}|prepared"] = lambda f=function: f(matrix)
        todo[f"{peer}|arrow"] = lambda f=function: f(wide(table.to_pandas()))
        todo[f"{peer}|file"] = lambda f=function: f(wide(read_frame(path)))
    return todo, facts, skipped


def captured_statements(call) -> list[tuple[str, str, dict]] | None:
    """(what, sql, params) of each statement ``call`` runs on the DuckDB engine, in order (its
    rendered text and bound parameters, taken at the engine's two entry points); None when the
    call raised."""
    from agreement_sql.engine import duckdb as engine

    captured: list[tuple[str, str, dict]] = []
    run, parts = engine.DuckDBSession._run, engine.DuckDBSession.query_parts

    def capture_run(self, sql, params, *, what):
        captured.append((what, sql, dict(params)))
        return run(self, sql, params, what=what)

    def capture_parts(self, sql, params, **kwargs):
        captured.append((kwargs.get("what", ""), sql, dict(params)))
        return parts(self, sql, params, **kwargs)

    engine.DuckDBSession._run, engine.DuckDBSession.query_parts = capture_run, capture_parts
    try:
        call()
    except Exception:
        return None
    finally:
        engine.DuckDBSession._run, engine.DuckDBSession.query_parts = run, parts
    return captured


def own_statements(call, table, ag):
    """The statements ``call`` runs, replayed alone: a callable executing each rendered statement
    with the same bound parameters, on a cursor of its own connection where the Arrow ``table``
    is registered under the call's generated source names and the dialect's setup statements
    ran once (the call's own floor: no source reading, typing, checks, rendering or shaping);
    the temporary tables they create are dropped after each replay, as the call's session does.
    None when the call could not be captured (an error, or a relation the replay lacks)."""
    import duckdb

    from agreement_sql.dialects import DUCKDB

    statements = captured_statements(call)
    if statements is None:
        return None
    captured = [(sql, params) for _, sql, params in statements]
    text = "\n".join(sql for sql, _ in captured)
    sources = set(re.findall(r"agreement_sql_src_[0-9a-f]+_[0-9]+", text))
    created = [m for sql, _ in captured for m in re.findall(r'TEMP(?:ORARY)? TABLE "?(agreement_sql_\w+)', sql)]
    cursor = duckdb.connect().cursor()
    for statement in DUCKDB.setup:
        cursor.execute(statement)
    for name in sources:
        cursor.register(name, table)

    def replay():
        for sql, params in captured:
            cursor.execute(sql, params).fetchall()
        for name in created:
            cursor.execute(f'DROP TABLE IF EXISTS "{name}"')

    try:
        replay()
    except duckdb.Error:
        return None
    return replay


def run_dataset(spec: dict) -> dict:
    """Warm up, then time interleaved rounds of every callable; per callable ms and peak MB."""
    todo, facts, skipped = callables(spec)
    errors = {}
    for _ in range(spec["warmup"]):
        for name, function in list(todo.items()):
            try:
                function()
            except Exception as exc:  # reported in the table; the others go on
                errors[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                del todo[name]
    idle = resident_mb()
    can_reset = reset_peak()
    times = {name: [] for name in todo}
    peaks = {name: 0.0 for name in todo}
    values = {}
    for _ in range(spec["calls"]):
        for name, function in list(todo.items()):
            if can_reset:
                reset_peak()
            try:
                start = time.perf_counter()
                result = function()
                elapsed = time.perf_counter() - start
            except Exception as exc:
                errors[name] = f"{type(exc).__name__}: {exc}"
                del todo[name]
                continue
            times[name].append(1000 * elapsed)
            peaks[name] = max(peaks[name], read_peak_mb() or 0.0)
            values[name] = summary_value(result)
    return {
        "status": "ok", "facts": facts, "idle_mb": idle, "peak_reset": can_reset,
        "ms": {name: statistics.median(runs) for name, runs in times.items() if runs},
        "calls_ms": times, "peak_mb": peaks, "values": values, "errors": errors, "skipped": skipped,
    }


def worker(spec: dict, pipe) -> None:
    """Entry point of the spawned process."""
    try:
        outcome = run_dataset(spec)
    except Exception as exc:
        outcome = {"status": "error", "detail": f"{type(exc).__name__}: {exc}"}
    pipe.send(outcome)
    pipe.close()


def spawn(spec: dict) -> dict:
    """One fresh process running ``run_dataset(spec)``."""
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=worker, args=(spec, sender))
    process.start()
    sender.close()
    try:
        outcome = receiver.recv()
    except EOFError:
        outcome = {"status": "error", "detail": "worker died (killed for memory?)"}
    process.join()
    return outcome


# --- in the parent ----------------------------------------------------------------------------


def combine(outcomes: list[dict]) -> dict:
    """Median over processes of each callable's per-process median ms; max peak MB."""
    ok = [o for o in outcomes if o["status"] == "ok"]
    if not ok:
        return outcomes[-1]
    names = set().union(*(o["ms"] for o in ok))
    return {
        "status": "ok", "facts": ok[0]["facts"], "peak_reset": ok[0]["peak_reset"],
        "idle_mb": max(o["idle_mb"] or 0 for o in ok),
        "ms": {n: statistics.median(o["ms"][n] for o in ok if n in o["ms"]) for n in names},
        "peak_mb": {n: max(o["peak_mb"].get(n, 0.0) for o in ok) for n in names},
        "values": ok[-1]["values"],
        "errors": {k: v for o in ok for k, v in o["errors"].items()},
        "skipped": ok[0]["skipped"],
        "process_ms": [o["ms"] for o in ok],
    }


def fmt(value, spec: str = ".2f") -> str:
    return format(value, spec) if isinstance(value, (int, float)) else ""


def shown_value(value) -> str:
    """A result's headline number to 4 decimals, or its short description."""
    return fmt(value, ".4f") if isinstance(value, (int, float)) else str(value or "")


def dataset_table(result: dict) -> str:
    """One dataset's rows: package ms (Arrow, file), target, the peer's ms and the ratios."""
    ms, peaks, errors = result["ms"], result["peak_mb"], result["errors"]
    head = (f"{'call':<16}{'arrow ms':>10}{'file ms':>10}{'target':>8}{'met':>5}{'peak MB':>9}  "
            f"{'peer':<23}{'peer ms':>9}{'+arrow':>9}{'+file':>9}{'x peer a':>10}{'x peer f':>10}"
            f"  {'value / peer value'}")
    lines = [head]
    for name, _, _, target, peer in CALLS:
        if name in result["skipped"]:
            lines.append(f"{name:<16}  skipped: {result['skipped'][name]}")
            continue
        a, f = ms.get(f"{name}|arrow"), ms.get(f"{name}|file")
        failed = [errors[k] for k in (f"{name}|arrow", f"{name}|file") if k in errors]
        if a is None and f is None and not failed:
            continue  # not selected with --only
        if failed and a is None and f is None:
            lines.append(f"{name:<16}  error: {failed[0][:150]}")
            continue
        met = "yes" if a is not None and f is not None and max(a, f) <= target else "no"
        peak = max(peaks.get(f"{name}|arrow", 0.0), peaks.get(f"{name}|file", 0.0))
        row = f"{name:<16}{fmt(a):>10}{fmt(f):>10}{target:>8.0f}{met:>5}{peak:>9.0f}  "
        if peer:
            p, pa_, pf = (ms.get(f"{peer}|{k}") for k in ("prepared", "arrow", "file"))
            ratio_a = a / pa_ if a is not None and pa_ else None
            ratio_f = f / pf if f is not None and pf else None
            ours = result["values"].get(f"{name}|arrow")
            theirs = result["values"].get(f"{peer}|prepared")
            shown = f"{fmt(ours, '.4f')} / {fmt(theirs, '.4f')}"
            row += (f"{peer:<23}{fmt(p, '.3f'):>9}{fmt(pa_):>9}{fmt(pf):>9}"
                    f"{fmt(ratio_a, '.1f'):>10}{fmt(ratio_f, '.1f'):>10}  {shown}")
        else:
            row += f"{'':<23}{'':>9}{'':>9}{'':>9}{'':>10}{'':>10}  {shown_value(result['values'].get(f'{name}|arrow'))}"
        if failed:
            row += f"  (one input failed: {failed[0][:100]})"
        lines.append(row)
    a, f = ms.get(f"{FLOOR}|arrow"), ms.get(f"{FLOOR}|file")
    lines.append(f"{'duckdb scan':<16}{fmt(a):>10}{fmt(f):>10}{'':>8}{'':>5}{'':>9}  (floor: count and sum of the same input)")
    a, f = ms.get(f"{FLOOR_ALPHA}|arrow"), ms.get(f"{FLOOR_ALPHA}|file")
    value = result["values"].get(f"{FLOOR_ALPHA}|arrow") if "values" in result else None
    lines.append(f"{'duckdb alpha':<16}{fmt(a):>10}{fmt(f):>10}{'':>8}{'':>5}{'':>9}  (floor: the least SQL "
                 f"for nominal alpha, one statement, no checks: {fmt(value, '.4f')})")
    return "\n".join(lines)


# issue #26 point 3: alpha and the kappas against the one-statement floor (duckdb alpha), irr and
# coefficients() against their own statements replayed alone
OWN_FLOOR_CALLS = ("irr", "coefficients")


def ratio_table(result: dict) -> str:
    """Per package call on the Arrow input: its ms, its own statements' floor, and the ratios the
    issue asks (package / one statement, package / own statements, package / its peer with the
    peer's conversion from the same Arrow table); ``met`` against FLOOR_TARGET."""
    ms = result["ms"]
    one = ms.get(f"{FLOOR_ALPHA}|arrow")
    lines = [f"{'call':<16}{'ms':>9}{'own ms':>9}{'x own':>8}{'x 1-stmt':>10}{'x peer':>8}"
             f"  {'target':<22}{'met':>4}"]
    for name, _, _, _, peer in CALLS:
        package = ms.get(f"{name}|arrow")
        if package is None:
            continue
        own = ms.get(f"{name}|{OWN}")
        x_own = package / own if own else None
        x_one = package / one if one else None
        peer_ms = ms.get(f"{peer}|arrow") if peer else None
        x_peer = package / peer_ms if peer_ms else None
        against, ratio = (("own statements", x_own) if name in OWN_FLOOR_CALLS
                          else ("one statement", x_one))
        met = "" if ratio is None else ("yes" if ratio <= FLOOR_TARGET else "no")
        lines.append(f"{name:<16}{fmt(package):>9}{fmt(own):>9}{fmt(x_own, '.1f'):>8}"
                     f"{fmt(x_one, '.1f'):>10}{fmt(x_peer, '.1f'):>8}"
                     f"  {f'<= {FLOOR_TARGET:g}x ' + against:<22}{met:>4}")
    return "\n".join(lines)


def cli_command() -> list[str]:
    """The installed ``agreement-sql`` next to this interpreter, else ``python -m agreement_sql``."""
    found = shutil.which("agreement-sql", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "agreement_sql"]


def time_cli(runs: int) -> dict:
    """Wall clock of fresh ``agreement-sql irr <example> --format json`` processes."""
    command = [*cli_command(), "irr", str(CLI_EXAMPLE), "--format", "json"]
    walls = []
    for index in range(runs + 1):  # the first run (byte-compilation, cold page cache) is dropped
        start = time.perf_counter()
        completed = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - start
        if completed.returncode != 0:
            return {"status": "error", "command": command,
                    "detail": f"exit {completed.returncode}: {completed.stderr.strip()[-300:]}"}
        if index:
            walls.append(wall)
    median = statistics.median(walls)
    return {"status": "ok", "command": command, "runs": walls, "seconds": median,
            "target": CLI_TARGET_S, "met": median < CLI_TARGET_S}


TRACE_SNIPPET = f"""
import sys, time
import agreement_sql as ag
path, level, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3])
def traced(label):
    print("{MARK} begin " + label, file=sys.stderr, flush=True)
    start = time.perf_counter()
    ag.krippendorff_alpha(path, level=level)
    print("{MARK} end " + label + " %.6f" % (time.perf_counter() - start), file=sys.stderr, flush=True)
traced("cold")
for _ in range(warmup):
    ag.krippendorff_alpha(path, level=level)
traced("warm")
"""


def trace_alpha(path: str, level: str, warmup: int) -> dict:
    """Each traced statement's seconds and share of one alpha call (cold and warm)."""
    env = {**os.environ, "AGREEMENT_SQL_TRACE": "1"}
    completed = subprocess.run([sys.executable, "-c", TRACE_SNIPPET, path, level, str(max(warmup, 1))],
                               capture_output=True, text=True, env=env, cwd=ROOT)
    if completed.returncode != 0:
        return {"status": "error", "detail": completed.stderr.strip()[-300:]}
    calls, current = {}, None
    for line in completed.stderr.splitlines():
        if line.startswith(f"{MARK} begin "):
            current = line.split()[-1]
            calls[current] = {"statements": []}
        elif line.startswith(f"{MARK} end "):
            calls[current]["seconds"] = float(line.split()[-1])
            current = None
        elif current and (match := TRACE_LINE.match(line)):
            calls[current]["statements"].append((match.group(1), float(match.group(2))))
    return {"status": "ok", "level": level, "path": path, "calls": calls}


def trace_table(trace: dict) -> str:
    if trace["status"] != "ok":
        return f"  trace error: {trace['detail']}"
    lines = []
    for label, call in trace["calls"].items():
        total = call.get("seconds") or 0.0
        lines.append(f"  {label} call: {1000 * total:.1f} ms")
        traced = 0.0
        for statement, seconds in call["statements"]:
            traced += seconds
            lines.append(f"    {statement:<34}{1000 * seconds:>9.1f} ms{100 * seconds / total if total else 0:>7.0f}%")
        rest = total - traced
        lines.append(f"    {'(outside statements: Python)':<34}{1000 * rest:>9.1f} ms{100 * rest / total if total else 0:>7.0f}%")
    return "\n".join(lines)


def describe_machine() -> dict:
    """bench/run.py's machine description, the load average and the peers' versions."""
    from run import machine, version

    info = machine()
    info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    for package in ("krippendorff", "statsmodels", "pandas", "pyarrow"):
        info[package] = version(package)
    return info


def run(args: argparse.Namespace) -> dict:
    info = describe_machine()
    print(f"machine: {info['cpus']} cpus, {info['memory_gb']} GB, Python {info['python']}, DuckDB "
          f"{info['duckdb']}, agreement-sql {info['agreement_sql']}, commit {info['commit']}, "
          f"krippendorff {info['krippendorff']}, statsmodels {info['statsmodels']}, "
          f"load average {info['load_average']}", flush=True)
    only = [n.strip() for n in args.only.split(",")] if args.only else None
    known = [c[0] for c in CALLS]
    if only and (unknown := [n for n in only if n not in known]):
        raise SystemExit(f"unknown call(s) {unknown}; available: {', '.join(known)}")
    datasets = []
    for name in [n.strip() for n in args.datasets.split(",")]:
        if name not in DATASETS:
            raise SystemExit(f"unknown dataset {name!r}; available: {', '.join(DATASETS)}")
        path = str(dataset_file(name, args.file_format))
        spec = {"path": path, "calls": args.calls, "warmup": args.warmup, "only": only,
                "shared_connection": args.shared_connection}
        outcomes = []
        for index in range(args.repeat):
            outcome = spawn(spec)
            print(f"  {name}: process {index + 1}/{args.repeat} {outcome['status']}"
                  + (f": {outcome.get('detail')}" if outcome["status"] != "ok" else ""), flush=True)
            outcomes.append(outcome)
        result = combine(outcomes)
        trace = trace_alpha(path, args.trace_level, args.warmup) if not args.no_trace else None
        datasets.append({"name": name, "path": path, "result": result, "trace": trace, "runs": outcomes})
        print()
        if result["status"] != "ok":
            print(f"{name}: error: {result.get('detail')}")
            continue
        facts = result["facts"]
        memory = (f"idle {result['idle_mb']:.0f} MB before the timed calls" if result["peak_reset"]
                  else "peak MB is the process's (VmHWM could not be reset)")
        print(f"({name}) {DATASETS[name][1]}: {facts['ratings']:,} ratings, {facts['items']:,} items, "
              f"{facts['raters']} raters; file {Path(path).name}; median of {args.calls} warm calls x "
              f"{args.repeat} process(es); {memory}; cohen_kappa raters={facts['cohen_raters']}")
        print(dataset_table(result))
        print(f"ratios (issue #26 point 3; Arrow input; 'own' = the call's rendered statements "
              f"replayed alone with the same parameters; 1-stmt = duckdb alpha "
              f"{fmt(result['ms'].get(f'{FLOOR_ALPHA}|arrow'))} ms):")
        print(ratio_table(result))
        if trace is not None:
            print(f"where one krippendorff_alpha(level={args.trace_level!r}) call on the file goes "
                  f"(AGREEMENT_SQL_TRACE=1, separate process):")
            print(trace_table(trace))
        print(flush=True)
    cli = None
    if args.cli_runs:
        cli = time_cli(args.cli_runs)
        if cli["status"] == "ok":
            print(f"CLI `agreement-sql irr {CLI_EXAMPLE.relative_to(ROOT)} --format json`: "
                  f"{cli['seconds']:.3f} s wall (median of {args.cli_runs} fresh processes; runs "
                  f"{', '.join(f'{s:.3f}' for s in cli['runs'])}); target < {CLI_TARGET_S} s: "
                  f"{'met' if cli['met'] else 'NOT met'}")
        else:
            print(f"CLI error: {cli['detail']}")
    date = datetime.datetime.now().isoformat(timespec="seconds")
    options = {k: v for k, v in vars(args).items() if k != "json"}
    return {"date": date, "machine": info, "options": options, "datasets": datasets, "cli": cli}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS), help=f"comma-separated: {', '.join(DATASETS)}")
    parser.add_argument("--only", help=f"comma-separated subset of: {', '.join(c[0] for c in CALLS)}")
    parser.add_argument("--calls", type=int, default=20, help="timed calls per callable per process; median [20]")
    parser.add_argument("--warmup", type=int, default=3, help="untimed calls per callable first [3]")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per dataset; median of their medians [3]")
    parser.add_argument("--file-format", choices=("csv", "parquet"), default="csv", help="the file input [csv]")
    parser.add_argument("--shared-connection", action="store_true",
                        help="pass one agreement_sql.connect() as con= to every call (default: none)")
    parser.add_argument("--cli-runs", type=int, default=7, help="fresh CLI processes; 0 to skip [7]")
    parser.add_argument("--trace-level", default="nominal", help="level of the traced alpha call [nominal]")
    parser.add_argument("--no-trace", action="store_true", help="skip the AGREEMENT_SQL_TRACE breakdown")
    parser.add_argument("--json", help="also save the results to this path")
    args = parser.parse_args(argv)
    if args.calls < 1 or args.repeat < 1 or args.warmup < 0:
        parser.error("--calls and --repeat must be >= 1, --warmup >= 0")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    for extra in (ROOT, ROOT / "src"):  # benchmark the checkout even when not installed
        if extra.is_dir():
            sys.path.insert(1, str(extra))
    report = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=str) + "\n")
        print(f"saved {args.json}")


if __name__ == "__main__":
    main()
