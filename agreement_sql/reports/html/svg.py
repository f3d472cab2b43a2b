"""Inline SVG charts for the HTML report: small functions from SQL results to markup.

Layout only: every number drawn arrives from SQL (data.py) and is written next to its mark, so a
chart is readable without colour and without JavaScript; lengths and shades are geometry (a value
over the largest value shown). Colours are CSS classes styled by the page (light and dark). Every
caller-supplied text passes :func:`markupsafe.escape`; the functions return :class:`Markup`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from markupsafe import Markup, escape

CHAR = 7.0          # average glyph width at the 12px chart font
ROW = 20            # row height of bar charts


def _clip(text: Any, limit: int) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _svg(ident: str, width: float, height: float, title: str, body: list[str], cls: str) -> Markup:
    return Markup(
        f'<svg class="chart {cls}" role="img" aria-labelledby="{ident}" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">'
        f'<title id="{ident}">{escape(title)}</title>'
        + "".join(body) + "</svg>")


def _text(x: float, y: float, text: Any, cls: str = "t", anchor: str = "start",
          full: Any = None) -> str:
    tip = f"<title>{escape(full)}</title>" if full is not None and str(full) != str(text) else ""
    return (f'<text class="{cls}" x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{tip}'
            f"{escape(text)}</text>")



class Charts:
    """The chart functions of one page: element ids are numbered per page (chart-1, chart-2...)."""

    def __init__(self) -> None:
        self.count = 0

    def next_id(self) -> str:
        self.count += 1
        return f"chart-{self.count}"

    def meter(self, value: float | None, lo: float, hi: float, mark: float | None, *, value_text: str,
              mark_text: str, title: str, good: bool | None) -> Markup:
        """A score on [lo, hi] against a threshold mark, both written out."""
        width, left, bar = 480.0, 4.0, 472.0
        body = [f'<rect class="track" x="{left}" y="18" width="{bar}" height="14" rx="3"/>']
        if value is not None:
            frac = min(max((value - lo) / (hi - lo), 0.0), 1.0)
            tone = "fill-good" if good else "fill-bad" if good is not None else "fill"
            body.append(f'<rect class="{tone}" x="{left}" y="18" width="{bar * frac:.1f}" height="14" rx="3"/>')
        if mark is not None:
            mx = left + bar * min(max((mark - lo) / (hi - lo), 0.0), 1.0)
            body.append(f'<line class="mark" x1="{mx:.1f}" x2="{mx:.1f}" y1="12" y2="38"/>')
            anchor = "end" if mx > width - 80 else "start"
            body.append(_text(mx + (-4 if anchor == "end" else 4), 50, mark_text, "t small", anchor))
        body.append(_text(left, 12, value_text, "t strong"))
        return _svg(self.next_id(), width, 56, title, body, "meter")


    def distribution(self, columns: Sequence[str], rows: Sequence[Mapping[str, Any]], *,
                     title: str) -> Markup:
        """Rows ({label, counts}) of counts per column (a rater's ratings per value): a bar per cell,
        its count beside it.
        Bars are scaled within a row, so raters with few ratings show their shape too."""
        label_w = min(max((len(_clip(r["label"], 18)) for r in rows), default=4) * CHAR + 10, 140)
        cell = max(46.0, max((len(c) for c in columns), default=1) * CHAR + 8)
        width = label_w + cell * len(columns) + 4
        body = [_text(label_w + cell * (i + 0.5), 13, c, "t small", "middle") for i, c in enumerate(columns)]
        for k, row in enumerate(rows):
            label, counts = row["label"], row["counts"]
            y = 20 + k * ROW
            top = max(counts) if counts else 0
            body.append(_text(label_w - 6, y + 14, _clip(label, 18), "t", "end", full=label))
            for i, n in enumerate(counts):
                x = label_w + cell * i
                length = (cell - 24) * (n / top) if top else 0.0
                body.append(f'<rect class="track" x="{x + 2:.1f}" y="{y + 4}" width="{cell - 24:.1f}" height="11"/>')
                if length:
                    body.append(f'<rect class="fill" x="{x + 2:.1f}" y="{y + 4}" width="{length:.1f}" height="11"/>')
                body.append(_text(x + cell - 20, y + 14, n, "t small"))
        return _svg(self.next_id(), width, 24 + len(rows) * ROW, title, body, "distribution")


    def heatmap(self, rows: Sequence[str], cols: Sequence[str], cells: Sequence[Sequence[float | None]], *,
                title: str, row_title: str, col_title: str, digits: int = 0,
                peak: float | None = None) -> Markup:
        """A grid of numbers (row label x column label), each written in its cell; the shade of a cell
        is its value over ``peak`` (default: the largest value); numbers show ``digits`` decimals."""
        def fmt(v: float | None) -> str:
            return "\u2014" if v is None else f"{v:,.{digits}f}"
        label_w = min(max((len(_clip(r, 16)) for r in rows), default=2) * CHAR + 12, 130)
        size = max(60.0, max((len(fmt(v)) for row in cells for v in row), default=3) * CHAR + 12,
                   max((len(_clip(c, 10)) for c in cols), default=1) * CHAR + 8)
        top = 40.0
        width = 22 + label_w + size * len(cols) + 4
        height = top + size * len(rows) + 6
        values = [v for row in cells for v in row if v is not None]
        peak = peak if peak is not None else (max(values) if values else 0.0)
        body = [_text(22 + label_w + size * len(cols) / 2, 12, col_title, "t small", "middle"),
                f'<text class="t small" transform="translate(12 {top + size * len(rows) / 2:.1f}) '
                f'rotate(-90)" text-anchor="middle">{escape(row_title)}</text>']
        for j, c in enumerate(cols):
            body.append(_text(22 + label_w + size * (j + 0.5), top - 8, _clip(c, 10), "t", "middle", full=c))
        for i, r in enumerate(rows):
            y = top + size * i
            body.append(_text(22 + label_w - 6, y + size / 2 + 4, _clip(r, 16), "t", "end", full=r))
            for j, v in enumerate(cells[i]):
                x = 22 + label_w + size * j
                shade = (v / peak) if (v is not None and peak > 0) else 0.0
                body.append(f'<rect class="cell" x="{x:.1f}" y="{y:.1f}" width="{size - 2:.1f}" '
                            f'height="{size - 2:.1f}" fill-opacity="{0.08 + 0.8 * max(shade, 0.0):.2f}"/>')
                body.append(_text(x + (size - 2) / 2, y + size / 2 + 4, fmt(v),
                                  "t on-strong" if shade > 0.55 else "t", "middle"))
        return _svg(self.next_id(), width, height, title, body, "heatmap")


    def hbars(self, rows: Sequence[tuple[str, float | None, str]], *, lo: float, hi: float,
              title: str, mark: float | None = None, mark_text: str = "", label_chars: int = 22,
              bar: float = 130.0) -> Markup:
        """Horizontal bars on [lo, hi] from zero (or lo) to each value, the value written beside it;
        an optional mark (a threshold) is drawn and labelled."""
        label_w = min(max((len(_clip(r[0], label_chars)) for r in rows), default=4) * CHAR + 10, 200)
        text_w = 56.0
        width = label_w + bar + text_w
        base = min(max(0.0, lo), hi)

        def at(v: float) -> float:
            return label_w + bar * (min(max(v, lo), hi) - lo) / (hi - lo)
        body = []
        for k, (label, value, text) in enumerate(rows):
            y = 8 + k * ROW
            body.append(_text(label_w - 6, y + 13, _clip(label, label_chars), "t", "end", full=label))
            body.append(f'<rect class="track" x="{label_w:.1f}" y="{y + 3}" width="{bar:.1f}" height="12"/>')
            if value is not None:
                x0, x1 = sorted((at(base), at(value)))
                body.append(f'<rect class="{"fill-neg" if value < base else "fill"}" x="{x0:.1f}" y="{y + 3}" '
                            f'width="{max(x1 - x0, 1.0):.1f}" height="12"/>')
            body.append(_text(label_w + bar + 6, y + 13, text, "t small"))
        height = 12 + len(rows) * ROW
        if base > lo:
            body.append(f'<line class="axis" x1="{at(base):.1f}" x2="{at(base):.1f}" y1="6" y2="{height - 4}"/>')
        if mark is not None:
            body.append(f'<line class="mark" x1="{at(mark):.1f}" x2="{at(mark):.1f}" y1="4" y2="{height}"/>')
            body.append(_text(at(mark) + 3, height + 10, mark_text, "t small"))
            height += 14
        return _svg(self.next_id(), width, height, title, body, "bars")
