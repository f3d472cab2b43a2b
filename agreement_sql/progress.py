"""A progress bar on stderr for long CLI runs.

DuckDB's own bar prints to stdout, which would corrupt JSON or CSV written there, so the
connection computes progress without printing it (``enable_progress_bar_print = false``) and
this thread polls ``query_progress()`` and draws on stderr. Shown only when stderr is a terminal
and ``--quiet`` is not given; it never writes to stdout.
"""
from __future__ import annotations

import sys
import threading
from typing import Any, TextIO


class ProgressReporter:
    def __init__(self, con: Any, stream: TextIO | None = None, interval: float = 0.25,
                 delay: float = 1.0) -> None:
        self._con = con
        self._stream = stream or sys.stderr
        self._interval = interval
        self._delay = delay
        self._stop = threading.Event()
        self._drawn = False
        self._thread = threading.Thread(target=self._run, name="agreement-sql-progress", daemon=True)

    def start(self) -> "ProgressReporter":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=1.0)
        if self._drawn:
            self._stream.write("\r" + " " * 60 + "\r")
            self._stream.flush()

    def _run(self) -> None:
        if self._stop.wait(self._delay):     # short runs never show a bar
            return
        while not self._stop.is_set():
            try:
                percent = float(self._con.query_progress())
            except Exception:                # connection closed or busy: stop quietly
                return
            if percent >= 0:
                filled = int(percent / 100 * 30)
                self._stream.write(f"\ragreement-sql [{'#' * filled}{'.' * (30 - filled)}] {percent:5.1f}%")
                self._stream.flush()
                self._drawn = True
            self._stop.wait(self._interval)
