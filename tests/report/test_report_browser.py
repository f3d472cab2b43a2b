"""The HTML report in a real browser: what a person sees, in headless Chromium.

Chromium (Debian's ``chromium`` package, .ci/install-browser.sh) is driven over the DevTools
protocol on a pipe (``--remote-debugging-pipe``: JSON messages ending in NUL on fds 3 and 4), with
the standard library only. The tests read the rendered text and layout, count console errors and
every network request, switch the colour scheme and print to PDF. Without a chromium binary they
skip, except under CI (the CI environment variable set), where they fail: CI never skips them.

``python tests/report/test_report_browser.py --screenshot docs/report.png`` renders the example
report (data/workshop_annotations.jsonl) and writes the screenshot shown in the README.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
pytestmark = pytest.mark.browser
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--disable-default-apps", "--mute-audio",
         "--hide-scrollbars", "--remote-debugging-pipe"]


def find_chromium() -> str | None:
    """$CHROMIUM, else the first of chromium, chromium-browser, google-chrome on PATH."""
    chosen = os.environ.get("CHROMIUM")
    if chosen:
        return chosen if shutil.which(chosen) else None
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


class Browser:
    """A headless Chromium and a DevTools connection over a pipe (no websocket, no dependency)."""

    def __init__(self, binary: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="agreement-sql-chromium-")
        self.log = open(os.path.join(self.profile, "stderr.log"), "wb")
        cmd_r, self._cmd_w = os.pipe()       # we write commands, Chromium reads them on fd 3
        self._out_r, out_w = os.pipe()       # Chromium writes on fd 4, we read

        def child() -> None:   # move the pipe ends to fds 3 and 4 (via high fds: no clash)
            high_r, high_w = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 20), fcntl.fcntl(out_w, fcntl.F_DUPFD, 20)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     preexec_fn=child, close_fds=False)
        os.close(cmd_r)
        os.close(out_w)
        self._next = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        with os.fdopen(self._out_r, "rb", buffering=0) as pipe:
            while chunk := pipe.read(1 << 16):
                buffer += chunk
                *messages, buffer = buffer.split(b"\0")
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        with self._cond:
                            self._replies[message["id"]] = message
                            self._cond.notify_all()
                    else:
                        self.events.put(message)

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        message: dict[str, Any] = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd_w, json.dumps(message).encode() + b"\0")
        with self._cond:
            if not self._cond.wait_for(lambda: ident in self._replies, timeout=self.timeout):
                raise TimeoutError(f"Chromium did not answer {method}")
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:   # noqa: BLE001 - closing anyway
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._cmd_w)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    """One tab showing one file; every DevTools event it raised is kept in ``events``."""

    def __init__(self, browser: Browser, path: Path, *, scheme: str = "light",
                 width: int = 1366, height: int = 900) -> None:
        self.browser = browser
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for method in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            self.call(method)
        self.call("Emulation.setEmulatedMedia",
                  {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.url = path.resolve().as_uri()
        self.events: list[dict[str, Any]] = []
        self.call("Page.navigate", {"url": self.url})
        self._wait("Page.loadEventFired")
        time.sleep(0.2)       # let late console or network events arrive
        self._drain()

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.browser.call(method, params, session=self.session)

    def _drain(self) -> None:
        while True:
            try:
                event = self.browser.events.get_nowait()
            except queue.Empty:
                return
            if event.get("sessionId") == self.session:
                self.events.append(event)

    def _wait(self, method: str) -> None:
        deadline = time.monotonic() + self.browser.timeout
        while time.monotonic() < deadline:
            try:
                event = self.browser.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if event.get("sessionId") == self.session:
                self.events.append(event)
                if event["method"] == method:
                    return
        raise TimeoutError(f"no {method} for {self.url}")

    def js(self, expression: str) -> Any:
        """Evaluate in the page (the harness's script; the report has none) and return the value."""
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def errors(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, browser log errors (a blocked load, a CSP
        violation), as text."""
        self._drain()
        found = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                found.append(f"console.{p['type']}: {p.get('args')}")
            elif e["method"] == "Runtime.exceptionThrown":
                found.append(f"exception: {p.get('exceptionDetails')}")
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                found.append(f"log: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return found

    def requests(self) -> list[str]:
        """Every URL the page asked for except itself."""
        self._drain()
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent" and e["params"]["request"]["url"] != self.url]

    def screenshot(self, out: Path, height: int | None = None) -> None:
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], height or size["height"]),
                "scale": 1}
        shot = self.call("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
        out.write_bytes(base64.b64decode(shot["data"]))

    def pdf(self) -> bytes:
        return base64.b64decode(self.call("Page.printToPDF", {"printBackground": False})["data"])
