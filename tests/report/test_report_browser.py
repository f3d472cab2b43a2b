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


# --- the tests --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    binary = find_chromium()
    if binary is None:
        message = ("no chromium binary (install Debian's chromium: .ci/install-browser.sh, or set "
                   "$CHROMIUM)")
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot be skipped under CI: {message}")
        pytest.skip(message)
    b = Browser(binary)
    yield b
    b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The example report and the judge and sheet reports, written as files."""
    from agreement_sql.reports.html import report
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for name, source in (("workshop", DATA / "workshop_annotations.jsonl"),
                         ("judges", DATA / "weval_results.json"),
                         ("sheet", DATA / "evaluation_sheet.csv")):
        out[name] = folder / f"{name}.html"
        out[name].write_text(report(source), encoding="utf-8")
    return out


VISIBLE = "(el => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el); " \
          "return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; })"


@pytest.mark.slow
def test_example_report_shows_the_verdict_and_a_card_per_question(browser, pages):
    """A person sees the verdict first, with the score against the threshold, then one card per
    rubric question with its name and A^HH."""
    import agreement_sql as ag
    expected = ag.irr(DATA / "workshop_annotations.jsonl")
    page = Page(browser, pages["workshop"])
    text = page.js("document.body.innerText")
    verdict = page.js("document.querySelector('#verdict').innerText")
    assert "NOT ready to proceed" in verdict and "73.7% pairwise agreement against a 75.0% threshold" in verdict
    assert text.index("NOT ready to proceed") < text.index("Rubric questions")
    cards = page.js(f"[...document.querySelectorAll('article.card')].map(c => [c.dataset.question, {VISIBLE}(c), c.innerText])")
    assert [c[0] for c in cards] == list(expected["per_metric_scores"])
    for name, visible, card_text in cards:
        assert visible, name
        assert f"{expected['per_metric_scores'][name]['human_agreement']:.3f}" in card_text
    assert page.errors() == []
    assert page.requests() == []


@pytest.mark.slow
def test_heatmaps_are_present_and_labelled(browser, pages):
    """Every heatmap is drawn, has a caption and a title, writes its numbers in the cells and
    labels its axes; the binary question's coincidence matrix shows its four cells."""
    page = Page(browser, pages["workshop"])
    maps = page.js("[...document.querySelectorAll('figure.heatmap')].map(f => ({id: f.id, "
                   f"visible: {VISIBLE}(f.querySelector('svg')), caption: f.querySelector('figcaption').innerText, "
                   "title: f.querySelector('svg > title').textContent, "
                   "texts: [...f.querySelectorAll('svg text')].map(t => t.textContent)}))")
    assert len(maps) == 9            # 1 coincidence + per question the pairs' exact % and alpha
    for m in maps:
        assert m["visible"] and m["caption"] and m["title"], m["id"]
    coincidence = next(m for m in maps if m["title"].startswith("Coincidence matrix: follows_policy"))
    assert {"0", "1", "rating", "paired rating", "13.7", "9.3", "68.7"} <= set(coincidence["texts"])
    assert page.errors() == []


@pytest.mark.parametrize("kind, headline", [("judges", "NOT ready to proceed"), ("sheet", "Ready to proceed")])
def test_judge_and_sheet_reports(browser, pages, kind, headline):
    """The judge and sheet pages open without an error or a request, verdict first."""
    page = Page(browser, pages[kind])
    assert page.js("document.querySelector('#verdict .headline').innerText").lstrip("\u2713\u2717 ").startswith(headline)
    assert page.js("document.querySelectorAll('article.card').length") >= 2
    assert page.errors() == [] and page.requests() == []


def test_dark_scheme_is_legible(browser, pages):
    """With prefers-color-scheme: dark the page turns dark and its text light (contrast > 7)."""
    page = Page(browser, pages["workshop"], scheme="dark")
    contrast = page.js("""(() => {
      const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map(v => v / 255)
        .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
      const lum = s => { const [r, g, b] = rgb(s); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
      const body = getComputedStyle(document.body);
      const bg = lum(body.backgroundColor), fg = lum(body.color);
      return [bg, fg, (Math.max(bg, fg) + 0.05) / (Math.min(bg, fg) + 0.05)];
    })()""")
    bg, fg, ratio = contrast
    assert bg < 0.1 and fg > 0.5 and ratio > 7
    assert page.errors() == []


def test_prints_to_pdf(browser, pages):
    """The page prints (a PDF of a few pages, no request made while printing)."""
    page = Page(browser, pages["workshop"])
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    assert page.requests() == []


def main(argv: list[str]) -> int:
    """``--screenshot PATH``: the example report's screenshot (docs/report.png)."""
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", required=True, type=Path)
    parser.add_argument("--source", type=Path,
                        default=Path(os.path.relpath(DATA / "workshop_annotations.jsonl")))
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1400, help="CSS pixels from the top")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    args = parser.parse_args(argv)
    try:
        from agreement_sql.reports.html import report
    except ImportError:         # run as a script from the checkout without an install
        sys.path.insert(0, str(ROOT))
        from agreement_sql.reports.html import report
    binary = find_chromium()
    if binary is None:
        parser.error("no chromium binary: run .ci/install-browser.sh")
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "report.html"
        page_file.write_text(report(args.source), encoding="utf-8")
        b = Browser(binary)
        try:
            Page(b, page_file, scheme=args.scheme, width=args.width).screenshot(args.screenshot, args.height)
        finally:
            b.close()
    print(f"wrote {args.screenshot}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
