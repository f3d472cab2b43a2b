"""One self-contained HTML page of agreement results (docs/report.md): ``report()`` and its renderer.

``report(source, ...)`` reads everything through :mod:`.data` (every number from SQL), then
renders ``page.html.j2`` with autoescape on: inline CSS (``report.css``), inline SVG charts
(:mod:`.svg`), no script, no external resource of any kind, so the page opens offline, prints,
and follows the reader's light or dark scheme. Python here only formats numbers for display.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import jinja2

from ...public import public
from ...sources import check_layout
from ...templates import bytecode_cache
from ...interpret import (disagreement_label, human_agreement_label, krippendorff_label,
                          landis_koch, workshop_label)
from .data import ReportData, collect
from .svg import Charts

__all__ = ["report", "render_page", "collect", "ReportData"]
_SPEC = re.compile(r"(pct|signed|n)(\d)")


@public("none")
def report(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
           metric: str | None = None, scales: Mapping[str, Any] | None = None,
           threshold: float = 75.0, on_duplicate: str | None = None, missing: Any = None,
           con: Any = None, title: str | None = None, max_traces: int = 20,
           layout: str | None = None, rater_columns: Any = None, orientation: str | None = None,
           judges: Any = None, alt_test_options: Mapping[str, Any] | None = None) -> str:
    """The agreement report as one self-contained HTML page (returns the HTML text).

    The input kind is detected as :func:`agreement_sql.irr`, ``judge_agreement`` and
    ``evaluation_sheet`` read theirs: a Weval result JSON gives the judge report, a seed 003
    evaluation sheet (``Annotator_N_Label`` columns) the sheet report, anything else the workshop
    IRR report (same keywords as ``irr()``; ``threshold`` in percent) with the rater diagnostics
    of each question (``rater_diagnostics()`` on the same ratings). ``max_traces`` caps the
    traces to discuss; every other list is capped too, so the page stays small (under 2 MB) for
    any input size. Unusable input raises the same :class:`agreement_sql.AgreementError` as irr().
    ``judges`` (a ratings table): the LLM judges among the raters; the page then adds the
    alternative annotator test of each judge against the other raters, per question
    (:func:`agreement_sql.alt_test` on the same ratings, with ``alt_test_options``: epsilon,
    scoring, q, min_humans, min_items).
    """
    return render_page(collect(source, item=item, rater=rater, value=value, metric=metric,
                               scales=scales, threshold=threshold, on_duplicate=on_duplicate,
                               missing=missing, con=con, title=title, max_traces=max_traces,
                               layout=check_layout(layout, rater_columns, orientation),
                               judges=judges, alt_test_options=alt_test_options))


def render_page(data: ReportData) -> str:
    """Render ``page.html.j2`` for ``data`` (autoescaped; charts numbered per page). Every text
    of ``data`` is shown with its control, bidi and line-separator characters escaped first
    (agreement_sql.formatting.shown), as in every text output."""
    from ...formatting import shown_all

    return _environment().get_template("page.html.j2").render(data=shown_all(data),
                                                               charts=Charts())


def fmt(value: Any, spec: str = "n2") -> str:
    """A number for display: ``pct1`` 73.7%, ``n3`` 0.866, ``signed2`` +0.13, ``int`` 1,234,
    ``rating`` 4 or 3.5; None (undefined) is an em dash. Rounding only, no arithmetic."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "\u2014"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if spec == "int":
        return f"{int(value):,}"
    if spec == "rating":
        return f"{value:g}" if float(value).is_integer() else f"{value:.2f}".rstrip("0")
    kind, digits = _SPEC.fullmatch(spec).groups()   # type: ignore[union-attr]
    text = f"{value:{'+' if kind == 'signed' else ''}.{int(digits)}f}"
    return text + "%" if kind == "pct" else text


def bar_row(row: Mapping[str, Any], label: str, value: str, spec: str) -> tuple[str, Any, str]:
    """(label, value, value as text) of a result row, for :meth:`Charts.hbars`."""
    return str(row[label]), row[value], fmt(row[value], spec)


def group_name(group: Mapping[str, Any]) -> str:
    return " \u00b7 ".join(str(v) for v in group.values())


def lookup(key: Any, mapping: Mapping[Any, Any]) -> Any:
    """A count from a nested result dict; an absent pair of labels was counted zero times."""
    return mapping.get(key, 0)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    # compiled pages kept between processes like the SQL templates' (a CLI run compiles the
    # page's templates otherwise: about 0.25 s)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).resolve().parent)),
                             bytecode_cache=bytecode_cache(),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters.update(fmt=fmt, bar_row=bar_row, group_name=group_name, lookup=lookup)
    env.globals.update(workshop_label=workshop_label, human_agreement_label=human_agreement_label,
                       krippendorff_label=krippendorff_label, landis_koch=landis_koch,
                       disagreement_label=disagreement_label)
    return env
