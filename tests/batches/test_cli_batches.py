"""``agreement-sql summarize`` and ``merge-states`` (docs/batches.md): the nightly job from the
command line gives what the Python calls give."""
from __future__ import annotations

import json

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from agreement_sql.cli import main
from coefficients._forms import close

from .test_batches import NEWSROOM, _strip


@pytest.mark.slow
def test_summarize_merge_and_compute_from_the_command_line(tmp_path, capsys):
    table = pacsv.read_csv(NEWSROOM)
    halves = [tmp_path / "day1.parquet", tmp_path / "day2.parquet"]
    pq.write_table(table.slice(0, 2000), halves[0])
    pq.write_table(table.slice(2000), halves[1])
    for day in halves:
        assert main(["summarize", str(day), "--metric", "metric", "--with-raters", "--quiet",
                     "-o", str(day.with_suffix(".state.parquet"))]) == 0
    capsys.readouterr()
    merged = tmp_path / "merged.parquet"
    assert main(["merge-states", *[str(d.with_suffix(".state.parquet")) for d in halves],
                 "--quiet", "-o", str(merged)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["n_rows"] == 5040 and summary["section"] == "unit_ratings"
    assert main(["coefficients", str(merged), "--quiet"]) == 0
    got = json.loads(capsys.readouterr().out)
    close(_strip(got), _strip(ag.coefficients(str(NEWSROOM), metric="metric")))


def test_the_command_line_refuses_what_the_api_refuses(tmp_path, capsys):
    state = tmp_path / "state.parquet"
    assert main(["summarize", str(NEWSROOM), "--on-duplicate", "first", "-o", str(state)]) == 1
    assert "--on-duplicate does not apply" in capsys.readouterr().err
    assert main(["summarize", str(NEWSROOM), "--metric", "metric", "-o", str(state)]) == 0
    capsys.readouterr()
    assert main(["merge-states", str(state), "-o", str(state)]) == 1
    assert "never writes onto a file it reads" in capsys.readouterr().err
    assert main(["summarize", str(NEWSROOM), "-o", str(tmp_path / "state.csv")]) == 1
