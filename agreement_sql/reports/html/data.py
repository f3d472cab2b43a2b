"""Everything the HTML report reads, in one module: the input kind, the SQL results, shaped.

Every number comes from SQL: the public functions (``irr``, ``judge_agreement``,
``evaluation_sheet``) and, for the workshop report, ``sql/report_profile`` (who rated each question,
on what range), ``sql/report_raters`` (traces rated once, 0/1 coincidences, each rater's bias, the
% of their pairs agreeing, the question's % without them, rater pairs, two-rater confusion counts,
per-rater value counts), ``sql/report_distribution`` (value counts in bins, for ratings that are not
small whole numbers) and ``sql/report_traces`` (the ratings of the listed traces). This module only
picks rows, orders them and caps lists; the page (``page.html.j2``) rounds for display.
Sources are opened with ``ratings_session``/``execute`` as ``agreement_sql/reports/irr.py`` does.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Mapping

import duckdb

from ...ratings import materialize
from ...runner import execute
from ...session import ratings_session
from ...sources import open_source
from ...workflows.judges import judge_agreement
from ...workflows.sheet import ANNOTATOR, evaluation_sheet
from ..irr import irr
from ...results import (EvaluationSheetReport, IRRError, IRRReport, JudgeAgreementReport,
                        PerMetricScore)

if sys.version_info >= (3, 11):
    from typing import TypedDict
else:  # pragma: no cover - Python 3.10
    from typing_extensions import TypedDict

MAX_WIDE_RATERS = 12   # raters pivoted into columns by sql/report_raters.sql.j2 (66 pairs)
CODE_BASE = 16         # coded traces: whole ratings 0..14 as digits 1..15 of one BIGINT
N_BINS, MAX_CATEGORIES, MAX_SHOWN_RATERS = 10, 16, 12
MAX_GROUPS, MAX_POINTS, MAX_ROWS = 60, 40, 40   # judge groups, per-point rows, table rows shown
TITLES = {"irr": "Inter-rater reliability", "judges": "LLM judge agreement",
          "sheet": "Evaluation sheet agreement"}
CONVENTIONS = {
    "report_bias": "a rater's bias: mean over the traces they share with others of their rating "
                   "minus the mean of the other ratings of that trace (sql/report_raters.sql.j2)",
    "report_rater_agreement": "with others: the % of the rater's pairs that agree (exact for binary "
                              "questions, adjacent otherwise); without: the question's pairwise % "
                              "over the pairs that do not involve the rater (leave-one-out)",
    "report_heatmaps": "binary questions: two raters give their 2x2 confusion counts (traces both "
                       "rated); more raters the pooled coincidence matrix o_ck = sum over traces "
                       "of n_c n_k / (m - 1), Krippendorff (2011)",
    "report_distribution": "counts of each value per rater; ratings that are not whole numbers "
                           "spanning fewer than 16 values fall in 10 equal bins",
    "report_excluded": "ratings on a trace no other rater rated for the same question are left "
                       "out of every agreement figure (n_excluded)",
    "report_lists": "the page lists the top traces of the disagreement ranking and at most 12 "
                    "raters per question; the rater figures need at most 12 raters in the input",
}


class Grid(TypedDict):
    """A matrix for a heatmap: row and column labels (values or raters) and the SQL numbers."""
    rows: list[Any]
    cols: list[Any]
    cells: list[list[Any]]             # cells[i][j]; None where undefined
    row_title: str
    col_title: str
    adjacent: list[list[Any]]          # rater pairs only: the adjacent % (cells: exact %)


class Question(TypedDict):
    """One rubric question of the workshop report (a card, its rater table and heatmaps)."""
    name: str
    scores: PerMetricScore             # irr()'s per_metric_scores entry, as irr() rounds it
    n_units: int | None                # traces with a rating of it (report_raters)
    n_single: int | None               # ratings on traces nobody else rated for it: left out
    categories: list[float]            # value (or bin start) of each distribution column
    bins: list[tuple[float, float]]    # (low, high) per column; equal for a single value
    distribution: list[dict[str, Any]]  # rater (None: everyone), n_rater, counts per column
    n_raters: int                      # raters of the question (report_profile)
    raters: list[dict[str, Any]]       # report_raters' rater rows + mean, least agreeing first
    pairs: Grid | None                 # rater x rater: exact and adjacent % of each pair
    coincidence: Grid | None           # binary, three raters or more: o_ck for values 0 and 1
    confusion: Grid | None             # binary, two raters: traces per (rating a, rating b)


class ReportData(TypedDict):
    """What page.html.j2 renders; every number in it is an SQL result."""
    kind: str                      # "irr" (workshop), "judges" (Weval) or "sheet" (seed 003)
    title: str
    source: str
    threshold: float
    irr: IRRReport | IRRError | None
    questions: list[Question]
    traces: list[dict[str, Any]]   # irr()'s trace_disagreements + ratings {rater: x}
    trace_raters: list[str]        # the raters with a rating on a listed trace (columns)
    named_raters: bool             # the rater figures were computed (at most MAX_WIDE_RATERS)
    judges: JudgeAgreementReport | None
    sheet: EvaluationSheetReport | None
    limits: dict[str, int]         # the caps the page applies to its lists
    conventions: dict[str, str]


def collect(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
            metric: str | None = None, scales: Mapping[str, Any] | None = None,
            threshold: float = 75.0, on_duplicate: str | None = None, con: Any = None,
            title: str | None = None, max_traces: int = 20) -> ReportData:
    """Detect the input kind and read everything the page shows (one connection for all)."""
    own = con is None
    con = duckdb.connect() if own else con
    try:
        if type(source).__name__ == "RecordBatchReader":   # read once: detection opens it too
            source = source.read_all()
        kind, readable = detect(source, con)
        data = ReportData(kind=kind, title="", source=_describe(source), threshold=float(threshold),
                          irr=None, questions=[], traces=[], trace_raters=[], named_raters=False,
                          judges=None, sheet=None, conventions={},
                          limits={"raters": MAX_SHOWN_RATERS, "traces": int(max_traces),
                                  "groups": MAX_GROUPS, "points": MAX_POINTS, "rows": MAX_ROWS})
        if kind == "judges":
            judges = judge_agreement(readable, con=con)
            # least agreeing first (None: no alpha, last)
            judges["groups"].sort(key=lambda g: _none_last(
                g["judgeAgreement"]["krippendorffsAlpha"] if g["judgeAgreement"] else None))
            judges["perPoint"].sort(key=lambda p: _none_last(p["alpha"]))
            data["judges"] = judges
            data["conventions"] = dict(judges["conventions"])
        elif kind == "sheet":
            data["sheet"] = evaluation_sheet(readable, con=con)
            data["conventions"] = dict(data["sheet"]["conventions"])
        else:
            _workshop(data, readable, item=item, rater=rater, value=value, metric=metric,
                      scales=scales, on_duplicate=on_duplicate, con=con, max_traces=max_traces)
    finally:
        if own:
            con.close()
    data["title"] = title or f"{TITLES[kind]}: {data['source']}"
    return data


def _describe(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return "a Weval result" if isinstance(source, Mapping) else f"a {type(source).__name__}"


def detect(source: Any, con: duckdb.DuckDBPyConnection) -> tuple[str, Any]:
    """("judges" | "sheet" | "irr", what to read): a Weval result (a mapping, or a .json file
    naming llmCoverageScores or evaluationResults near its start, parsed once here), a seed 003
    sheet (two or more Annotator_N_Label columns), else a ratings table (the workshop report)."""
    if isinstance(source, Mapping):
        return "judges", source
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path.lower().endswith(".json") and os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as handle:
                head = handle.read(65536)
            if "llmCoverageScores" in head or "evaluationResults" in head:
                with open(path, encoding="utf-8") as handle:
                    parsed = json.load(handle)
                if isinstance(parsed, Mapping):
                    return "judges", parsed
    src = open_source(source, con)
    try:
        annotators = [c for c in src.columns if ANNOTATOR.match(c)]
    finally:
        src.close()
    return ("sheet" if len(annotators) >= 2 else "irr"), source


def _workshop(data: ReportData, source: Any, *, item: str, rater: str, value: str,
              metric: str | None, scales: Mapping[str, Any] | None, on_duplicate: str | None,
              con: duckdb.DuckDBPyConnection, max_traces: int) -> None:
    """irr() for the verdict, scores, patterns and trace ranking; the report_* templates for the rest."""
    report = irr(source, item=item, rater=rater, value=value, metric=metric, scales=scales,
                 threshold=data["threshold"], on_duplicate=on_duplicate, max_traces=max_traces,
                 con=con)
    data["irr"] = report
    if "error" in report:
        return
    data["conventions"] = {**report["conventions"], **CONVENTIONS}
    traces = report["trace_disagreements"]
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate) as spec:
        # as irr(): text files, the workshop export and a duplicate policy are copied once
        if spec.struct_fields or spec.on_duplicate is not None or not spec.source.cheap_scan:
            spec = materialize(spec)
        profile = execute(con, "report_profile", spec.options(), spec.params())
        raters = sorted({r["rater"] for r in profile})
        named = raters if len(raters) <= MAX_WIDE_RATERS else []
        coded = bool(named) and all(r["whole"] == 1 and r["x_min"] >= 0 and r["x_max"] <= CODE_BASE - 2
                                    for r in profile)
        rows = execute(con, "report_raters", spec.options(named_raters=len(named), coded=coded),
                       spec.params(adjacent_tolerance=1.0, code_base=CODE_BASE,
                                   **{f"rater_{i}": r for i, r in enumerate(named)},
                                   **{f"weight_{i}": CODE_BASE ** i for i in range(len(named))}))
        if coded:
            dist = [r for r in rows if r["part"] == "distribution"]
        else:
            dist = execute(con, "report_distribution", spec.options(),
                           spec.params(n_bins=N_BINS, max_categories=MAX_CATEGORIES,
                                       max_raters=MAX_SHOWN_RATERS))
        picked: list[dict[str, Any]] = []
        if traces:
            picks: dict[str, Any] = {}
            for i, t in enumerate(traces):
                picks.update({f"trace_metric_{i}": t["metric"], f"trace_item_{i}": t["trace_id"],
                              f"pick_{i}": i})
            picked = execute(con, "report_traces", spec.options(n_traces=len(traces)),
                             spec.params(**picks))
    data["named_raters"] = bool(named)
    data["questions"] = [_question(name, scores, profile, rows, dist, coded)
                         for name, scores in report["per_metric_scores"].items()]
    data["traces"] = [{**t, "ratings": {r["rater"]: r["x"] for r in picked if r["pick"] == i}}
                      for i, t in enumerate(traces)]
    counts: dict[str, int] = {}
    for r in picked:
        counts[r["rater"]] = counts.get(r["rater"], 0) + 1
    data["trace_raters"] = sorted(counts, key=lambda name: (-counts[name], name))


def _question(name: str, scores: PerMetricScore, profile: list[dict[str, Any]],
              rows: list[dict[str, Any]], dist: list[dict[str, Any]], coded: bool) -> Question:
    """One question's rows from each statement (no arithmetic: grouping, ordering, caps)."""
    mine = [r for r in rows if r["metric"] == name]
    head = next((r for r in mine if r["part"] == "question"), None)
    means = {r["rater"]: r for r in profile if r["metric"] == name}
    raters = sorted(({**r, "mean": means[r["rater"]]["mean"]} for r in mine if r["part"] == "rater"),
                    key=lambda r: (_none_last(r["rater_adjacent" if not scores["is_binary"]
                                                 else "rater_exact"]), r["rater"]))
    drows = [r for r in dist if r["metric"] == name]
    if coded:   # report_raters' value counts: one column per value
        bins = sorted({(r["cat_a"], r["cat_a"]) for r in drows})
        key = lambda r: (r["cat_a"], r["cat_a"])   # noqa: E731
        shown = [None] + sorted(means, key=lambda k: (-means[k]["n_ratings"], k))[:MAX_SHOWN_RATERS]
        totals = {None: head["n_ratings"] if head else None,
                  **{k: means[k]["n_ratings"] for k in shown[1:]}}
    else:       # report_distribution: bins, the question's total as rater None, top raters
        bins = sorted({(r["bin_lo"], r["bin_hi"]) for r in drows})
        key = lambda r: (r["bin_lo"], r["bin_hi"])   # noqa: E731
        order = sorted({(r["rater_rank"], r["rater"], r["n_rater"]) for r in drows},
                       key=lambda t: t[0])
        shown = [t[1] for t in order]
        totals = {t[1]: t[2] for t in order}
    counts: dict[Any, dict[tuple, int]] = {}
    for r in drows:
        counts.setdefault(r["rater"], {})[key(r)] = r["n"]
    distribution = [{"rater": k, "label": "all raters" if k is None else k, "n_rater": totals[k],
                     "counts": [counts.get(k, {}).get(b, 0) for b in bins]} for k in shown if k in totals]
    conf = [r for r in mine if r["part"] == "confusion"] if scores["is_binary"] else []
    pair_rows = {(r["rater"], r["rater_b"]): r for r in mine if r["part"] == "pair"}
    names = sorted(r["rater"] for r in raters)

    def pair(a: str, b: str, col: str) -> Any:
        hit = pair_rows.get((a, b)) or pair_rows.get((b, a))
        return hit[col] if hit else None
    return Question(
        name=name, scores=scores, n_units=head["n_units"] if head else None,
        n_single=head["n_single"] if head else None,
        categories=[b[0] for b in bins], bins=bins, distribution=distribution,
        n_raters=len(means), raters=raters,
        pairs=Grid(rows=names, cols=names, row_title="rater", col_title="rater",
                   cells=[[pair(a, b, "exact_agreement") for b in names] for a in names],
                   adjacent=[[pair(a, b, "adjacent_agreement") for b in names] for a in names])
        if pair_rows else None,
        coincidence=Grid(rows=[0.0, 1.0], cols=[0.0, 1.0], row_title="rating", col_title="paired rating",
                         cells=[[head["o_00"], head["o_01"]], [head["o_01"], head["o_11"]]], adjacent=[])
        if head and scores["is_binary"] and not conf and head["o_00"] is not None else None,
        confusion=_confusion(conf) if conf else None)


def _confusion(rows: list[dict[str, Any]]) -> Grid:
    """Two raters' counts per (rating a, rating b): rows rater a's ratings, columns rater b's."""
    cats = sorted({r["cat_a"] for r in rows} | {r["cat_b"] for r in rows})
    n = {(r["cat_a"], r["cat_b"]): r["n"] for r in rows}
    return Grid(rows=cats, cols=cats, row_title=rows[0]["rater"], col_title=rows[0]["rater_b"],
                cells=[[n.get((a, b), 0) for b in cats] for a in cats], adjacent=[])


def _none_last(x: float | None) -> tuple[bool, float]:
    return (x is None, x if x is not None else 0.0)
