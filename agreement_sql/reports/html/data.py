"""Everything the HTML report reads, in one module: the input kind, the SQL results, shaped.

Every number comes from SQL, and each statistic from the one statement that computes it in the
package: the public functions (``irr``, ``judge_agreement``, ``evaluation_sheet``), the rater
diagnostics (:func:`agreement_sql.workflows.diagnostics.diagnose_with_rows`: each rater's exact
agreement with the others, mean absolute difference, bias, alpha without the rater; each pair's
exact % and alpha; and, from the same statement, the unit counts of sql/_units.sql.j2, the
pooled coincidence matrix of sql/_coincidences.sql.j2 and the ratings per rater and value or bin
of sql/_distribution.sql.j2) and sql/cohen_pairs.sql.j2 (two raters' confusion counts). The
report's own statement, ``sql/report_traces``, adds the ratings of the listed traces. This
module only picks rows, orders them and caps lists; the page (``page.html.j2``) rounds for
display.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import replace
from typing import Any, Mapping

from ...engine import open_session
from ... import declared, routes
from ...ratings import RatingsSpec, materialize
from ...errors import OptionError
from ...results import (AltTestResult, EvaluationSheetReport, IRRError, IRRReport,
                        JudgeAgreementReport, PerMetricScore, RaterDiagnostics)
from ...runner import query
from ...session import check_raters, ratings_session
from ...sources import FileSource, resolve_source
from ...workflows.alt_test import alt_test_on, check_options
from ...workflows.diagnostics import diagnose_with_rows
from ...workflows.judges import judge_agreement
from ...workflows.sheet import ANNOTATOR, evaluation_sheet
from ..irr import MAX_PATTERNS, checked_options, irr_on, workshop_profile

if sys.version_info >= (3, 11):
    from typing import TypedDict
else:  # pragma: no cover - Python 3.10
    from typing_extensions import TypedDict

# the rater figures: one diagnostics statement for every question, at the interval level (see
# CONVENTIONS["report_rater_level"])
LEVEL = "interval"
N_BINS, MAX_CATEGORIES, MAX_SHOWN_RATERS = 10, 16, 12
MAX_GROUPS, MAX_POINTS, MAX_ROWS = 60, 40, 40   # judge groups, per-point rows, table rows shown
# alt_test()'s own defaults for the report's alt_test_options= (agreement_sql/declared.py)
ALT_TEST_DEFAULTS = {name: declared.PARAMETERS[name].default_of("alt_test")
                     for name in ("epsilon", "scoring", "q", "min_humans", "min_items")}
TITLES = {"irr": "Inter-rater reliability", "judges": "LLM judge agreement",
          "sheet": "Evaluation sheet agreement"}
CONVENTIONS = {
    "report_rater_figures": "per question, from rater_diagnostics() on the same ratings: a rater's "
                            "exact agreement with the others (% of their pairs that agree), mean "
                            "|difference|, bias and Krippendorff's alpha without the rater; each "
                            "pair's exact agreement and alpha of the two alone. The adjacent rule "
                            "is not computed per rater or per pair",
    "report_rater_level": "the rater figures read every question at the interval level, as irr()'s "
                          "alpha does: on 0/1 ratings interval and nominal alpha are equal, and the "
                          "mean offset is the difference in the share of 1s",
    "report_bias": "a rater's bias: mean over the traces they share with others of their rating "
                   "minus the mean of the other ratings of that trace (rater_diagnostics())",
    "report_heatmaps": "binary questions: two raters give their 2x2 confusion counts (traces both "
                       "rated; sql/cohen_pairs.sql.j2); more raters the pooled coincidence matrix "
                       "o_ck = sum over traces of n_c (n_k - [c = k]) / (m - 1), Krippendorff (2011)",
    "report_distribution": "counts of each value per rater; ratings that are not whole numbers "
                           "spanning fewer than 16 values fall in 10 equal bins",
    "report_excluded": "ratings on a trace no other rater rated for the same question are left "
                       "out of every agreement figure (n_excluded)",
    "report_lists": "the page lists the top traces of the disagreement ranking and at most 12 "
                    "raters per question (distribution, rater table, pair matrices); with more "
                    "than 12 raters the pair matrices and the alphas without a rater are not "
                    "computed",
}


class Grid(TypedDict):
    """A matrix for a heatmap: row and column labels (values or raters) and the SQL numbers."""
    rows: list[Any]
    cols: list[Any]
    cells: list[list[Any]]             # cells[i][j]; None where undefined
    row_title: str
    col_title: str


class Question(TypedDict):
    """One rubric question of the workshop report (a card, its rater table and heatmaps)."""
    name: str
    scores: PerMetricScore             # irr()'s per_metric_scores entry, as irr() rounds it
    n_units: int | None                # traces with a rating of it (sql/_units.sql.j2)
    n_single: int | None               # ratings on traces nobody else rated for it: left out
    categories: list[float]            # value (or bin start) of each distribution column
    bins: list[tuple[float, float]]    # (low, high) per column; equal for a single value
    distribution: list[dict[str, Any]]  # rater (None: everyone), n_rater, counts per column
    n_raters: int                      # raters of the question
    alpha: float | None                # diagnostics' alpha with every rater (irr()'s, unrounded)
    raters: list[dict[str, Any]]       # diagnostics' raters (least agreeing first) + their bias
    pairs: Grid | None                 # rater x rater: exact % of each pair (diagnostics)
    pair_alpha: Grid | None            # rater x rater: alpha of each pair alone (diagnostics)
    coincidence: Grid | None           # binary, three raters or more: o_ck for values 0 and 1
    confusion: Grid | None             # binary, two raters: traces per (rating a, rating b)
    notes: list[str]


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
    judges: JudgeAgreementReport | None
    sheet: EvaluationSheetReport | None
    alt_test: list[AltTestResult] | None   # judges=: the alternative annotator test per question
    limits: dict[str, int]         # the caps the page applies to its lists
    conventions: dict[str, str]


def collect(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
            metric: str | None = None, scales: Mapping[str, Any] | None = None,
            threshold: float = 75.0, on_duplicate: str | None = None, missing: Any = None,
            con: Any = None, title: str | None = None, max_traces: int = 20,
            layout: Any = None, judges: Any = None,
            alt_test_options: Mapping[str, Any] | None = None) -> ReportData:
    """Detect the input kind and read everything the page shows (``con`` as every public
    function takes it: a DuckDB connection, an engine, or None). ``judges``: the alternative
    annotator test of these raters against the others, per question (a ratings table only)."""
    alt = _alt_test_options(judges, alt_test_options)
    if type(source).__name__ == "RecordBatchReader":   # read once: detection reads it too
        source = source.read_all()
    kind, readable = detect(source, con) if layout is None or layout.kind == "long" \
        else ("irr", source)
    if alt is not None and kind != "irr":
        raise OptionError("judges= adds the alternative annotator test to the report of a ratings "
                          f"table; this input is {'a Weval result' if kind == 'judges' else 'an evaluation sheet'} "
                          "(run agreement_sql.alt_test on its ratings instead)")
    data = ReportData(kind=kind, title="", source=_describe(source), threshold=float(threshold),
                      irr=None, questions=[], traces=[], trace_raters=[], judges=None, sheet=None,
                      alt_test=None, conventions={},
                      limits={"raters": MAX_SHOWN_RATERS, "traces": int(max_traces),
                              "groups": MAX_GROUPS, "points": MAX_POINTS, "rows": MAX_ROWS})
    if kind == "judges":
        weval = judge_agreement(readable, con=con)
        # least agreeing first (None: no alpha, last)
        weval["groups"].sort(key=lambda g: _none_last(
            g["judgeAgreement"]["krippendorffsAlpha"] if g["judgeAgreement"] else None))
        weval["perPoint"].sort(key=lambda p: _none_last(p["alpha"]))   # type: ignore[union-attr]
        data["judges"] = weval
        data["conventions"] = dict(weval["conventions"])
    elif kind == "sheet":
        sheet = evaluation_sheet(readable, con=con)
        data["sheet"] = sheet
        data["conventions"] = dict(sheet["conventions"])
    else:
        _workshop(data, readable, item=item, rater=rater, value=value, metric=metric, layout=layout,
                  scales=scales, on_duplicate=on_duplicate, missing=missing, con=con,
                  max_traces=max_traces, alt=alt)
    data["title"] = title or f"{TITLES[kind]}: {data['source']}"
    return data


def _describe(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return "a Weval result" if isinstance(source, Mapping) else f"a {type(source).__name__}"


def detect(source: Any, con: Any = None) -> tuple[str, Any]:
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
    annotators = [c for c in _column_names(source, con) if ANNOTATOR.match(c)]
    return ("sheet" if len(annotators) >= 2 else "irr"), source


def _column_names(source: Any, con: Any) -> list[str]:
    """The source's columns: a CSV's header line as the sources module reads it (no parse of the
    rows), else the columns of the source registered in a session of the engine."""
    if isinstance(source, (str, os.PathLike)):
        found = resolve_source(source)
        if isinstance(found, FileSource) and found.kind == "csv":
            return list(found.header)
    names: list[str] = []

    def listed(relation: Any) -> list[str]:
        # every name, whether or not two differ only in case; one column is read
        names.extend(c.name for c in relation.columns)
        return names[:1]

    with open_session(con) as session:
        session.read_source(source, columns=listed)
    return names


def _alt_test_options(judges: Any, options: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The report's judges= and alt_test_options=, checked as alt_test() checks them."""
    if judges is None:
        if options:
            raise OptionError("alt_test_options= needs judges=: the raters the test is run for")
        return None
    given = dict(options or {})
    unknown = sorted(set(given) - set(ALT_TEST_DEFAULTS))
    if unknown:
        raise OptionError(f"alt_test_options= takes {', '.join(ALT_TEST_DEFAULTS)}; got {', '.join(unknown)}")
    chosen = {**ALT_TEST_DEFAULTS, **given}
    declared.check_arguments("alt_test", chosen)
    names = check_options(judges)
    return {**chosen, "judges": names, "epsilon": float(chosen["epsilon"]), "q": float(chosen["q"])}


def _workshop(data: ReportData, source: Any, *, item: str, rater: str, value: str,
              metric: str | None, scales: Mapping[str, Any] | None, on_duplicate: str | None,
              missing: Any, con: Any, max_traces: int, layout: Any = None,
              alt: dict[str, Any] | None = None) -> None:
    """irr() for the verdict, scores, patterns and trace ranking; the rater diagnostics for the
    rater figures; the report_* statements for the rest (one session, the same ratings)."""
    threshold, cap_traces, cap_patterns = checked_options(data["threshold"], max_traces,
                                                          MAX_PATTERNS, scales)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate, missing=missing, layout=layout) as spec:
        # one profile for irr()'s statement and the page's own (docs/report.md)
        profile = workshop_profile(spec, scales)
        report = irr_on(spec, profile, scales=scales, threshold=threshold,
                        max_traces=cap_traces, max_patterns=cap_patterns)
        data["irr"] = report
        if "error" in report:
            return
        data["conventions"] = {**report["conventions"], **CONVENTIONS}
        if alt is not None:
            # the same ratings and profile: the alternative annotator test per question
            data["alt_test"] = alt_test_on(spec, profile=profile, **alt)
            data["conventions"].update({f"alt_test_{k}": v for k, v in
                                        data["alt_test"][0]["conventions"].items()}
                                       if data["alt_test"] else {})
        scores = report["per_metric_scores"]
        traces = report["trace_disagreements"]
        check_raters(spec.layout, "the report's rater figures")
        planned = routes.predict(profile, "rater_diagnostics", routes.Needs(rater_identity=True))
        if not planned.rater_patterns and not spec.canonical and profile.n_raters <= MAX_SHOWN_RATERS:
            # diagnostics then expands the ratings per left-out rater and per pair, which reads
            # a canonical copy (the same ratings: the profile holds for it)
            spec = materialize(spec)
            profile = replace(profile, spec=spec)
        # the diagnostics' statement also returns the unit counts and the pooled coincidences
        bins = {"n_bins": N_BINS, "max_categories": MAX_CATEGORIES, "max_raters": MAX_SHOWN_RATERS}
        found, units = diagnose_with_rows(spec, level=LEVEL, max_items=0,
                                          max_pair_raters=MAX_SHOWN_RATERS, profile=profile,
                                          coincidences=True, distribution=bins)
        diagnostics = {d["metric"]: d for d in found}
        dist = [r for r in units if r["part"] == "distribution"]
        confusion = _confusions(spec, scores, diagnostics)
        picked = _trace_ratings(spec, traces) if traces else []
    data["questions"] = [_question(name, s, diagnostics.get(name), units, dist, confusion.get(name))
                         for name, s in scores.items()]
    data["traces"] = [{**t, "ratings": {r["rater"]: r["x"] for r in picked if r["pick"] == i}}
                      for i, t in enumerate(traces)]
    counts: dict[str, int] = {}
    for r in picked:
        counts[r["rater"]] = counts.get(r["rater"], 0) + 1
    data["trace_raters"] = sorted(counts, key=lambda name: (-counts[name], name))


def _confusions(spec: RatingsSpec, scores: Mapping[str, PerMetricScore],
                diagnostics: Mapping[str, RaterDiagnostics]) -> dict[str, list[dict[str, Any]]]:
    """sql/cohen_pairs.sql.j2 (part "confusion") for each binary question rated by exactly two
    raters, once per such pair of raters: rows the first rater (by name), columns the second."""
    wanted: dict[tuple[str, str], list[str]] = {}
    for name, s in scores.items():
        d = diagnostics.get(name)
        if s["is_binary"] and d is not None and len(d["raters"]) == 2:
            pair = tuple(sorted(r["rater"] for r in d["raters"]))
            wanted.setdefault(pair, []).append(name)   # type: ignore[arg-type]
    out: dict[str, list[dict[str, Any]]] = {}
    for (a, b), names in wanted.items():
        rows = query(spec.session, "cohen_pairs",
                     {**spec.options(), "named_raters": 2, "pair_max_raters": False,
                      "confusion_given": False,
                      "weights": None, "weight_basis": "value", "weight_matrix": None, "ci": False,
                      "marginals": "pairwise", "variance": None, "part": "confusion",
                      "unit_weights": None, "kappa_weights": "value_pairs"},
                     {**spec.params(), "rater_0": a, "rater_1": b})
        for name in names:
            out[name] = [r for r in rows if r["metric"] == name]
    return out


def _trace_ratings(spec: RatingsSpec, traces: list[Any]) -> list[dict[str, Any]]:
    """sql/report_traces.sql.j2: every rating of the listed traces. irr() names a trace by its
    item, which is text in the ratings relation whatever the column's type (docs/decisions/0014)."""
    params: dict[str, Any] = {}
    for i, t in enumerate(traces):
        params[f"trace_metric_{i}"] = t["metric"]
        params[f"trace_item_{i}"] = t["trace_id"]
    return query(spec.session, "report_traces",
                 {**spec.options(), "n_traces": len(traces), "numeric_items": False},
                 {**spec.params(), **params})


def _question(name: str, scores: PerMetricScore, diag: RaterDiagnostics | None,
              units: list[dict[str, Any]], dist: list[dict[str, Any]],
              conf: list[dict[str, Any]] | None) -> Question:
    """One question's rows from each statement (no arithmetic: grouping, ordering, caps)."""
    counted = next((r for r in units if r["part"] == "alpha" and r["metric"] == name), None)
    drows = [r for r in dist if r["metric"] == name]
    bins = sorted({(r["bin_lo"], r["bin_hi"]) for r in drows})
    order = sorted({(r["rater_rank"], r["rater"], r["n_rater"]) for r in drows}, key=lambda t: t[0])
    counts: dict[Any, dict[tuple, int]] = {}
    for r in drows:
        counts.setdefault(r["rater"], {})[(r["bin_lo"], r["bin_hi"])] = r["n"]
    distribution = [{"rater": k, "label": "all raters" if k is None else k, "n_rater": n,
                     "counts": [counts.get(k, {}).get(b, 0) for b in bins]} for _, k, n in order]
    raters: list[dict[str, Any]] = []
    notes: list[str] = []
    pairs = pair_alpha = None
    if diag is not None:
        bias = {b["rater"]: b["offset"] for b in diag["bias"]}
        raters = [{**r, "bias": bias.get(r["rater"])} for r in diag["raters"]]
        names = sorted(r["rater"] for r in raters)
        if diag["pairs"] and len(names) <= MAX_SHOWN_RATERS:
            pairs = _pair_grid(diag, names, "exact_agreement")
            pair_alpha = _pair_grid(diag, names, "alpha")
        elif len(names) > MAX_SHOWN_RATERS:
            notes.append(f"More than {MAX_SHOWN_RATERS} raters ({len(names)}): the pair matrices "
                         f"and the alpha without each rater are not computed; the table lists the "
                         f"{MAX_SHOWN_RATERS} least agreeing raters.")
    coincidence = None
    if scores["is_binary"] and not conf:
        cells = {(r["category_x"], r["x_k"]): r["o"] for r in units
                 if r["part"] == "coincidence" and r["metric"] == name}
        if any(cells.get((a, b)) for a in (0.0, 1.0) for b in (0.0, 1.0)):
            coincidence = Grid(rows=[0.0, 1.0], cols=[0.0, 1.0], row_title="rating",
                               col_title="paired rating",
                               cells=[[cells.get((a, b), 0.0) for b in (0.0, 1.0)] for a in (0.0, 1.0)])
    return Question(
        name=name, scores=scores,
        n_units=counted["n_units"] if counted else None,
        n_single=counted["n_single"] if counted else None,
        categories=[b[0] for b in bins], bins=bins, distribution=distribution,
        n_raters=len(raters), alpha=diag["alpha"] if diag is not None else None, raters=raters,
        pairs=pairs, pair_alpha=pair_alpha, coincidence=coincidence,
        confusion=_confusion(conf) if conf else None, notes=notes)


def _pair_grid(diag: RaterDiagnostics, names: list[str], column: str) -> Grid:
    """A symmetric rater x rater grid of one pair figure (the diagonal undefined)."""
    found = {(p["rater_a"], p["rater_b"]): dict(p)[column] for p in diag["pairs"]}

    def cell(a: str, b: str) -> Any:
        return found.get((a, b), found.get((b, a)))
    return Grid(rows=names, cols=names, row_title="rater", col_title="rater",
                cells=[[cell(a, b) if a != b else None for b in names] for a in names])


def _confusion(rows: list[dict[str, Any]]) -> Grid:
    """Two raters' counts per (rating a, rating b): rows rater a's ratings, columns rater b's."""
    cats = sorted({r["x_a"] for r in rows} | {r["x_b"] for r in rows})
    n = {(r["x_a"], r["x_b"]): r["n"] for r in rows}
    return Grid(rows=cats, cols=cats, row_title=rows[0]["rater_a"], col_title=rows[0]["rater_b"],
                cells=[[n.get((a, b), 0) for b in cats] for a in cats])


def _none_last(x: float | None) -> tuple[bool, float]:
    return (x is None, x if x is not None else 0.0)
