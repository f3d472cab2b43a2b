"""The same input gives byte-identical JSON from the CLI, run after run and format after format.

Floating-point sums are written with the dialect's exact-order-free sum (docs/decisions/0008),
so the threads' delivery order cannot change a bit; every ranking has a tie-breaker. Continuous
scores on a 0.1 grid are the hard case (their sums are not exact in binary); the bootstrap
runs with a seed. The oracle is the first run.
"""
from __future__ import annotations

import random
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest


def _scores(path, n_items=400, n_raters=7, seed=3):
    rng = random.Random(seed)
    rows = []
    for i in range(n_items):
        for r in range(n_raters):
            if rng.random() < 0.2:
                continue
            rows.append({"item": f"t{i}", "rater": f"r{r}", "metric": f"q{i % 3}",
                         "value": round(rng.randrange(0, 51) * 0.1, 1)})
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=512)
    return rows


def _run(*args):
    out = subprocess.run([sys.executable, "-m", "agreement_sql", *map(str, args), "--format", "json"],
                         capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout


@pytest.mark.parametrize("argv", [
    ["krippendorff-alpha", "--level", "interval", "--ci", "0.95", "--n-boot", "200", "--seed", "7"],
    pytest.param(["fleiss-kappa", "--ci", "0.95"], marks=pytest.mark.slow),
    pytest.param(["irr"], marks=pytest.mark.slow),
    pytest.param(["icc"], marks=pytest.mark.slow),
    pytest.param(["diagnostics", "--level", "interval"], marks=pytest.mark.slow),
])
@pytest.mark.slow
def test_cli_json_is_byte_identical_across_runs_and_formats(tmp_path, argv):
    path = tmp_path / "scores.parquet"
    rows = _scores(path)
    csv = tmp_path / "scores.csv"
    csv.write_text("item,rater,metric,value\n" + "".join(
        f"{r['item']},{r['rater']},{r['metric']},{r['value']}\n" for r in rows))
    keys = ["--item", "item", "--rater", "rater", "--metric", "metric", "--value", "value"]
    first = _run(argv[0], path, *keys, *argv[1:])
    for _ in range(2):
        assert _run(argv[0], path, *keys, *argv[1:]) == first
    assert _run(argv[0], csv, *keys, *argv[1:]) == first
