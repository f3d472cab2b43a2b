"""The Cohen's kappa evaluation sheet (seed 003): annotators, the LLM judge and the consensus.

Input: the seed's CSV (``Sample_ID, Dataset_Split, Scenario, Module, ..., Annotator_N_Label,
..., Final_Consensus_Label, LLM_Judge_Verdict, ...``) with any number of ``Annotator_N_Label``
columns. Labels are PASS/FAIL in any case; an empty cell is a missing label (never a category);
any other text is an error naming the row and column. Train rows are left out by default (few-shot
examples inflate agreement), with a note saying so. The sheet is read once into a temporary
table (``sql/sheet_long.sql.j2``); every number comes from ``sql/sheet_*.sql.j2``, which reuse the
kappa family's Cohen and Fleiss partials.
"""
from __future__ import annotations

import os
import re
from typing import Any, Sequence

from ..engine import Relation, Session, open_session
from ..errors import (ColumnError, DuplicateRatingError, InvalidRatingError, MissingKeyError,
                      OptionError, SourceError)
from ..interpret import at_least, landis_koch
from ..metrics.coefficient import compute_on
from ..parameters import validate
from ..plan import make_plan
from ..profile import read_profile
from ..ratings import RatingsSpec, _has, _resolve
from ..registry import REGISTRY
from ..results import EvaluationSheetReport
from ..runner import query
from ._common import canonical_spec, regrouped, rounded
from .diagnostics import diagnose

ANNOTATOR = re.compile(r"^annotator_(\d+)_label$", re.IGNORECASE)
JUDGE, CONSENSUS = "LLM_Judge", "Consensus"
BREAKDOWNS = ("Dataset_Split", "Module", "Scenario")
TARGET = 0.60
BLANK_LEVEL = "(blank)"
MAX_EXAMPLES = 5

CONVENTIONS = {
    "labels": "PASS/FAIL compared case-insensitively after trimming; an empty cell is a missing label",
    "train": "Train rows are excluded from every figure unless include_train (seed 003: few-shot "
             "examples inflate agreement)",
    "kappa": "two annotators: Cohen's kappa on the samples both labelled; more: Fleiss' kappa; "
             "pairwise Cohen's kappas always",
    "percent_agreement": "samples with the same label / samples both labelled (more annotators: "
                         "the mean pairwise agreement)",
    "interpretation": "Landis & Koch (1977) on the unrounded kappa; target kappa >= 0.60",
    "rounding": "kappas to 4 decimals, percentages to 1 (as the seed prints them); diagnostics unrounded",
}


def evaluation_sheet(source: Any, *, include_train: bool = False, target: float = TARGET,
                     id_column: str = "Sample_ID", split_column: str = "Dataset_Split",
                     judge_column: str | None = "LLM_Judge_Verdict",
                     consensus_column: str | None = "Final_Consensus_Label",
                     breakdowns: Sequence[str] | None = None, diagnostics: bool = True,
                     max_items: int = 10, con: Any = None,
                     ) -> EvaluationSheetReport:
    """Agreement on a seed 003 evaluation sheet.

    Annotator agreement (pairwise Cohen's kappas, Fleiss' kappa, percent agreement; the headline
    kappa is Cohen's for two annotators and Fleiss' for more), the LLM judge against each
    annotator and against the consensus, the same per ``breakdowns`` (default: Dataset_Split,
    Module and Scenario, those present), the samples the annotators disagree on (for the
    consensus round), the Landis & Koch label and whether ``kappa >= target``.
    """
    if isinstance(target, bool) or not isinstance(target, (int, float)):
        raise OptionError(f"target must be a number, got {target!r}")
    with open_session(con) as session:
        src = session.read_source(source)
        cols = _columns(src, id_column, split_column, judge_column, consensus_column, breakdowns)
        options = {"id_column": cols["id"], "split_column": cols["split"],
                   "label_columns": [c for c, _ in cols["labels"]],
                   "include_train": bool(include_train), "source": src.name}
        checks = query(session, "sheet_checks", options, {})[0]
        check_sheet(session, src, checks, options, cols)
        spec = _materialize(session, src, {**options, "breakdowns": cols["breakdowns"]}, cols)
        annotators = [r for c, r in cols["labels"] if r not in (JUDGE, CONSENSUS)]
        pair_options = _pair_options(spec)
        pairs = query(session, "cohen_pairs", {**pair_options, "part": "kappa"}, spec.params())
        overall = regrouped(spec, select={"slice_0": "overall", "slice_1": "all"})
        confusion = query(session, "cohen_pairs", {**_pair_options(overall), "part": "confusion"},
                          overall.params())
        annotated = regrouped(spec, raters=annotators)
        fleiss = compute_on(annotated, [REGISTRY["fleiss_kappa"]], opts=validate()).rows
        plan = make_plan(read_profile(annotated))
        agree = query(session, "sheet_agreement", {**annotated.options(), **plan.options()},
                      {**annotated.params(), **plan.params()})
        dims = {f"dimension_{i}": b for i, b in enumerate(cols["breakdowns"])}
        disagreements = query(session, "sheet_disagreements",
                              {"source": spec.relation.name, "rater_filter": len(annotators),
                               "breakdowns": cols["breakdowns"]},
                              {**{f"keep_rater_{i}": r for i, r in enumerate(annotators)}, **dims})
        diag = (diagnose(regrouped(spec, select={"slice_0": "overall", "slice_1": "all"},
                                   raters=annotators), level="nominal", max_items=max_items)
                if diagnostics else [])
    shown = os.fspath(source) if isinstance(source, (str, os.PathLike)) else src.description
    return _report(checks, cols, annotators, pairs, confusion, fleiss, agree, disagreements, diag,
                   bool(include_train), float(target), shown)


def _pair_options(spec: RatingsSpec) -> dict[str, Any]:
    """sql/cohen_pairs.sql.j2 on the sheet's labels: every pair, unweighted, no interval."""
    return {**spec.options(), "named_raters": 0, "pair_max_raters": False, "weights": None,
            "weight_basis": "value", "weight_matrix": None, "ci": False, "marginals": "pairwise",
            "variance": None}


# --- columns and checks ---------------------------------------------------------------------

def _columns(src: Relation, id_column, split_column, judge_column, consensus_column, breakdowns):
    names = [c.name for c in src.columns]
    cols: dict[str, Any] = {"id": _resolve(src, id_column, "sample id"),
                            "split": _resolve(src, split_column, "split")}
    annot = sorted(((int(m.group(1)), c) for c in names if (m := ANNOTATOR.match(c))))
    if len(annot) < 2:
        found = ", ".join(repr(c) for _, c in annot) or "none"
        raise ColumnError(f"{src.description} needs at least two Annotator_N_Label columns "
                          f"(found {found}); available columns: "
                          f"{', '.join(repr(c) for c in names)}")
    labels = [(c, f"Annotator_{n}") for n, c in annot]
    notes = []
    for column, rater, what in ((judge_column, JUDGE, "LLM judge"), (consensus_column, CONSENSUS, "consensus")):
        if column is None:
            continue
        if _has(src, column):
            labels.append((_resolve(src, column, what), rater))
        else:
            notes.append(f"no {column!r} column: the {what} comparisons are left out")
    if breakdowns is None:
        chosen = [_resolve(src, b, "breakdown") for b in BREAKDOWNS if _has(src, b)]
        notes += [f"no {b!r} column: no breakdown by it" for b in BREAKDOWNS if not _has(src, b)]
    else:
        chosen = [_resolve(src, b, "breakdown") for b in ([breakdowns] if isinstance(breakdowns, str) else breakdowns)]
    cols.update(labels=labels, breakdowns=chosen, notes=notes)
    return cols


def check_sheet(session: Session, src: Relation, checks: dict[str, Any], options: dict[str, Any],
                cols) -> None:
    if not checks["n_rows"]:
        raise SourceError(f"{src.description} has no rows")
    params = {f"column_{i}": c for i, (c, _) in enumerate(cols["labels"])}
    params["max_examples"] = MAX_EXAMPLES

    def examples(problem: str) -> list[dict[str, Any]]:
        wanted = {k: options[k] for k in ("id_column", "label_columns", "source")}
        return query(session, "sheet_examples", {**wanted, "problem": problem}, params)

    if checks["n_missing_id"]:
        rows = examples("missing_id")
        raise MissingKeyError(f"{src.description}: {checks['n_missing_id']} row(s) have no "
                              f"{cols['id']!r}, e.g. data row {rows[0]['row_no']}")
    if checks["n_duplicate_id"]:
        rows = examples("duplicate_id")
        shown = ", ".join(f"{r['item']!r} (data row {r['row_no']})" for r in rows)
        raise DuplicateRatingError(f"{src.description}: {checks['n_duplicate_id']} {cols['id']} "
                                   f"value(s) occur on more than one row: {shown}")
    if checks["n_invalid"]:
        rows = examples("invalid")
        shown = "; ".join(f"{r['value']!r} in column {r['column_name']!r} at {cols['id']} "
                          f"{r['item']!r} (data row {r['row_no']})" for r in rows)
        raise InvalidRatingError(f"{src.description}: {checks['n_invalid']} label(s) are neither "
                                 f"PASS nor FAIL (nor empty): {shown}")


def _materialize(session: Session, src: Relation, options: dict[str, Any], cols) -> RatingsSpec:
    params = {"default_metric": "label", "blank_level": BLANK_LEVEL,
              **{f"rater_{i}": r for i, (_, r) in enumerate(cols["labels"])},
              **{f"dimension_{i}": b for i, b in enumerate(cols["breakdowns"])}}
    return canonical_spec(session, "sheet_long", options, params, description=src.description,
                          slice_names=("breakdown", "level"), item=cols["id"], rater="column")


# --- shaping ----------------------------------------------------------------------------------

def _kappa(x: float | None) -> float | None:
    return rounded(x, 4)


def _pct(x: float | None) -> float | None:
    return rounded(x, 1)


def _percent(p: float | None) -> float | None:
    """A proportion from SQL shown as the seed's percentage (the seed prints 100 p_o)."""
    return None if p is None else 100.0 * p


def _pair_entry(row: dict[str, Any]) -> dict[str, Any]:
    return {"raters": [row["rater_a"], row["rater_b"]], "n": int(row["n_shared"]),
            "kappa": _kappa(row["kappa"]), "percent_agreement": _pct(row["percent_agreement"]),
            "interpretation": landis_koch(row["kappa"])}


def _report(checks, cols, annotators, pairs, confusion, fleiss, agree, disagreements, diag,
            include_train, target, description) -> EvaluationSheetReport:
    label_of = {rater: column for column, rater in cols["labels"]}
    by_level: dict[tuple, dict[tuple, dict[str, Any]]] = {}
    for row in pairs:
        by_level.setdefault((row["slice_0"], row["slice_1"]), {})[(row["rater_a"], row["rater_b"])] = row
    agree_by = {(r["slice_0"], r["slice_1"]): r for r in agree}
    fleiss_by = {(r["slice_0"], r["slice_1"]): {
        "fleiss_kappa": r["value"], "percent_agreement": _percent(r["observed_agreement"]),
        "n_items": r["n_items"], "all_agree_percent": agree_by.get((r["slice_0"], r["slice_1"]), {}).get("all_agree_percent")}
        for r in fleiss if r.get("name") == "fleiss_kappa"}

    def pair(level: tuple, a: str, b: str) -> dict[str, Any] | None:
        rows = by_level.get(level, {})
        return rows.get((a, b)) or rows.get((b, a))

    def summary(level: tuple) -> dict[str, Any]:
        f = fleiss_by.get(level)
        if len(annotators) == 2:
            p = pair(level, *annotators)
            kappa, coefficient = (p["kappa"] if p else None), "cohen_kappa"
            pa = p["percent_agreement"] if p else None
            n = int(p["n_shared"]) if p else 0
        else:
            kappa, coefficient = (f["fleiss_kappa"] if f else None), "fleiss_kappa"
            pa = f["percent_agreement"] if f else None
            n = int(f["n_items"]) if f else 0
        out: dict[str, Any] = {"coefficient": coefficient, "kappa": _kappa(kappa), "percent_agreement": _pct(pa),
               "n": n, "interpretation": landis_koch(kappa),
               "target_met": at_least(kappa, target)}
        if f is not None:
            out["fleiss_kappa"] = _kappa(f["fleiss_kappa"])
            out["all_agree_percent"] = _pct(f["all_agree_percent"])
        if JUDGE in label_of and CONSENSUS in label_of:
            j = pair(level, JUDGE, CONSENSUS)
            out["llm_vs_consensus"] = {"kappa": _kappa(j["kappa"]) if j else None,
                                       "percent_agreement": _pct(j["percent_agreement"]) if j else None,
                                       "n": int(j["n_shared"]) if j else 0}
        return out

    overall = ("overall", "all")
    headline = summary(overall)
    annotator_pairs = [_pair_entry(p) for i, a in enumerate(annotators)
                       for b in annotators[i + 1:] for p in [pair(overall, a, b)] if p]
    matrices: dict[str, Any] = {}
    for row in confusion:
        if row["rater_a"] in annotators and row["rater_b"] in annotators or JUDGE in (row["rater_a"], row["rater_b"]):
            key = f"{row['rater_a']} x {row['rater_b']}"
            matrices.setdefault(key, {}).setdefault(row["label_a"], {})[row["label_b"]] = int(row["n"])
    judge: dict[str, Any] = {}
    if JUDGE in label_of:
        judge["vs_annotators"] = [dict(_pair_entry(p), annotator=a) for a in annotators
                                  if (p := pair(overall, a, JUDGE))]
        if CONSENSUS in label_of:
            p = pair(overall, CONSENSUS, JUDGE)
            judge["vs_consensus"] = _pair_entry(p) if p else None
    breakdown_out: dict[str, list[dict[str, Any]]] = {}
    levels = sorted({k for k in list(by_level) + list(fleiss_by) if k[0] != "overall"})
    for b in cols["breakdowns"]:
        breakdown_out[b] = [{"level": lv[1], **summary(lv)} for lv in levels if lv[0] == b]
    rows: dict[str, dict[str, Any]] = {}
    for r in disagreements:
        entry = rows.setdefault(r["item"], {cols["id"]: r["item"],
                                            **{b: r[f"level_{i}"] for i, b in enumerate(cols["breakdowns"])}})
        entry[label_of[r["rater"]]] = r["value_text"]
    for entry in rows.values():
        for column, _ in cols["labels"]:
            entry.setdefault(column, None)
    notes = list(cols["notes"])
    if include_train:
        notes.append(f"Train rows are INCLUDED ({int(checks['n_train'])} rows): few-shot examples "
                     "inflate agreement; seed 003 keeps them out of the kappa set")
    else:
        notes.append(f"Train rows excluded: {int(checks['n_train'])} of {int(checks['n_rows'])} rows "
                     "(few-shot examples never enter the kappa set; include_train=True to include them)")
    return EvaluationSheetReport(
        source=description,
        rows=int(checks["n_rows"]),
        train_rows=int(checks["n_train"]),
        include_train=include_train,
        annotators=[label_of[a] for a in annotators],
        labels={column: int(checks[f"n_labels_{i}"]) for i, (column, _) in enumerate(cols["labels"])},
        target=target,
        annotator_agreement={**headline, "pairs": annotator_pairs},
        llm_judge=judge,
        confusion_matrices=matrices,
        breakdowns=breakdown_out,
        disagreements=list(rows.values()),
        diagnostics=diag[0] if diag else None,
        notes=notes,
        conventions=dict(CONVENTIONS),
    )
