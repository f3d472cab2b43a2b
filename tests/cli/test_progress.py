"""The progress bar: drawn on stderr only, never on stdout, and off unless asked."""
from __future__ import annotations

import io
import time

from agreement_sql.connection import connect
from agreement_sql.progress import ProgressReporter


class FakeCon:
    def __init__(self):
        self.values = iter([-1.0, 12.5, 50.0, 99.0] + [99.0] * 100)

    def query_progress(self):
        return next(self.values)


def test_bar_is_drawn_on_its_stream_and_cleared():
    stream = io.StringIO()
    reporter = ProgressReporter(FakeCon(), stream=stream, interval=0.01, delay=0.0).start()
    time.sleep(0.2)
    reporter.stop()
    text = stream.getvalue()
    assert "agreement-sql [" in text and " 50.0%" in text
    assert text.endswith("\r" + " " * 60 + "\r")


def test_short_runs_show_nothing():
    stream = io.StringIO()
    reporter = ProgressReporter(FakeCon(), stream=stream, delay=5.0).start()
    reporter.stop()
    assert stream.getvalue() == ""


def test_duckdb_never_prints_its_own_bar(capfd):
    con = connect(progress_bar=True)
    assert con.execute("SELECT current_setting('enable_progress_bar_print')").fetchall()[0][0] is False
    con.execute("SELECT count(*) FROM range(3000000) a ORDER BY 1").fetchall()
    assert capfd.readouterr().out == ""


def test_cli_without_a_terminal_has_no_bar(capfd):
    from agreement_sql.cli import main
    from conftest import DATA
    assert main(["irr", str(DATA / "workshop_annotations.jsonl")]) == 0
    err = capfd.readouterr().err
    assert "agreement-sql [" not in err
