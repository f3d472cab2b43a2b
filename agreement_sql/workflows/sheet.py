"""The Cohen's kappa evaluation sheet (seed 003): annotators, the LLM judge and the consensus.

Input: the seed's CSV (``Sample_ID, Dataset_Split, Scenario, Module, ..., Annotator_N_Label,
..., Final_Consensus_Label, LLM_Judge_Verdict, ...``) with any number of ``Annotator_N_Label``
columns. Labels are PASS/FAIL in any case; an empty cell is a missing label (never a category);
any other text is an error naming the row and column. Train rows are left out by default (few-shot
examples inflate agreement), with a note saying so. Every number comes from ``sql/sheet_*.sql.j2``,
which reuse the kappa family's Cohen and Fleiss partials, and the rater diagnostics' statements:

* only the columns the report uses are read (the id, the split, the labelling columns and the
  breakdowns): ``read_source(columns=)`` chooses them from the sheet's header before any row is
  read (so a missing column is named as it always was), and a CSV is copied once into a
  temporary table of those columns;
* the sheet is wide (a row per sample, a column per labeller), so every figure is read from it
  in one statement each: the checks (``sheet_checks``), the annotators' Fleiss' kappa and "all
  agree" share per slice (``sheet_agreement``: the wide form's unit patterns, produced from the
  rows), the pairs' Cohen's kappas (``sheet_pairs``: per slice, overall and every breakdown
  level, the two annotators' when there are two and the judge against the consensus; overall
  only, each annotator against the judge and, with more annotators, every pair of them; each
  pair's confusion counts per slice, counted from the rows, are what ``sql/_pairs.sql.j2``
  reads with option ``confusion_given``), the confusion matrices (``sheet_confusion``), the
  samples for the consensus round (``sheet_disagreements``). The statements that count read
  the rows alike in their columns' text once (``sql/_sheet_kept.sql.j2``, counted);
* the canonical ratings (``sheet_long``, one row per slice, sample and label, kept in a
  temporary table) are written for the rater diagnostics only, which read the overall slice:
  so only that slice's rows are written, and none with ``diagnostics=False``. A sheet on which
  a sample could be rated twice by one rater in one slice (two columns of one annotator, a
  breakdown given twice or named "overall") gets them for every slice, as the coefficient
  statement's refusal of such ratings needs.
"""
from __future__ import annotations

import os
import re
from typing import Any, Sequence

from ..public import public
from ..engine import Relation, Session, open_session
from ..errors import (ColumnError, DuplicateRatingError, InvalidRatingError, MissingKeyError,
                      OptionError, SourceError)
from ..interpret import at_least, landis_koch
from ..metrics.coefficient import compute_on
from ..parameters import validate
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
LABELS = ("FAIL", "PASS")           # the only labels sheet_checks lets through, in label order
LABEL_METRIC = "label"              # the canonical ratings' one metric
# sql/sheet_agreement.sql.j2's Fleiss' kappa: the wide form over the two labels, unweighted, no
# interval, keyed by (breakdown, level) like the canonical ratings
SHEET_FLEISS: dict[str, Any] = {
    "slices": ["slice_0", "slice_1"], "bootstrap": False, "form": "wide",
    "categories": ["label"] * len(LABELS), "category_kinds": "label", "ci": False, "domain": None,
    "variance": None, "oriented": False, "weights": None, "weight_basis": "value", "weight_matrix": None,
    "kappa_weights": "value_pairs"}
# sql/sheet_pairs.sql.j2's Cohen's kappas: plain Cohen's kappa of each pair from the confusion
# counts the statement counts (sql/_pairs.sql.j2 option confusion_given), unweighted, no
# interval, keyed by (breakdown, level) like the canonical ratings
SHEET_COHEN: dict[str, Any] = {
    "slices": ["slice_0", "slice_1"], "bootstrap": False, "confusion_given": True,
    "weights": None, "weight_basis": "value", "weight_matrix": None, "domain": None,
    "marginals": "pairwise", "named_raters": 0, "pair_max_raters": False, "ci": False,
    "variance": None, "unit_weights": None, "kappa_weights": "value_pairs"}

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


@public()
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
        cols: dict[str, Any] = {}

        def used(relation: Relation) -> list[str]:
            # the sheet's columns found in its header (errors name the columns available); only
            # these are read
            cols.update(_columns(relation, id_column, split_column, judge_column,
                                 consensus_column, breakdowns))
            return [cols["id"], cols["split"], *(c for c, _ in cols["labels"]), *cols["breakdowns"]]

        src = session.read_source(source, columns=used)
        options = {"id_column": cols["id"], "split_column": cols["split"],
                   "label_columns": [c for c, _ in cols["labels"]],
                   "include_train": bool(include_train), "source": src.name}
        checks = query(session, "sheet_checks", options, {})[0]
        check_sheet(session, src, checks, options, cols)
        annotators = [r for c, r in cols["labels"] if r not in (JUDGE, CONSENSUS)]
        if not any(checks[f"n_labels_{i}"] for i, (_, r) in enumerate(cols["labels"])
                   if r in annotators):
            # what the annotators' ratings profile refuses: no annotator label is kept
            raise SourceError(f"{src.description} has no rows")
        dims = cols["breakdowns"]
        spec: RatingsSpec | None = None
        if len(set(annotators)) < len(annotators) or len(set(dims)) < len(dims) or "overall" in dims:
            # two columns name one annotator (Annotator_1_Label, Annotator_01_Label), a breakdown
            # is given twice or is named like the overall slice: a sample may then be rated twice
            # by one annotator in one slice of the canonical ratings, which the coefficient
            # statement on them refuses (sheet_agreement and sheet_pairs, reading the sheet's
            # columns, would not): the canonical ratings of every slice, checked
            spec = _materialize(session, src, options, cols, cols["labels"], dims)
            compute_on(regrouped(spec, raters=annotators), [REGISTRY["fleiss_kappa"]], opts=validate())
        # the statements that read the sheet's own columns, one pass each
        read = {k: options[k] for k in ("id_column", "split_column", "include_train", "source")}
        pairs = _pairs(session, read, cols, annotators)
        by_name = sorted(cols["labels"], key=lambda cr: cr[1])
        confusion = query(session, "sheet_confusion",
                          {**read, "breakdowns": dims, "label_columns": [c for c, _ in by_name]},
                          {f"rater_{i}": r for i, (_, r) in enumerate(by_name)})
        agree = query(session, "sheet_agreement",
                      {**read, **SHEET_FLEISS, "breakdowns": dims,
                       "label_columns": [c for c, r in cols["labels"] if r in annotators]},
                      {"default_metric": LABEL_METRIC, "blank_level": BLANK_LEVEL,
                       **{f"dimension_{i}": b for i, b in enumerate(dims)},
                       **{f"category_{i}": c for i, c in enumerate(LABELS)}})
        disagreements = query(session, "sheet_disagreements",
                              {**options, "breakdowns": dims, "n_annotators": len(annotators)},
                              {"blank_level": BLANK_LEVEL})
        diag = []
        if diagnostics:
            if spec is None:
                # the diagnostics read the annotators' ratings in the overall slice: only those
                spec = _materialize(session, src, options, cols,
                                    [(c, r) for c, r in cols["labels"] if r in annotators], [])
            diag = diagnose(regrouped(spec, select={"slice_0": "overall", "slice_1": "all"},
                                      raters=annotators), level="nominal", max_items=max_items)
    shown = os.fspath(source) if isinstance(source, (str, os.PathLike)) else src.description
    return _report(checks, cols, annotators, pairs, confusion, agree, disagreements, diag,
                   bool(include_train), float(target), shown)


def _pairs(session: Session, read: dict[str, Any], cols,
           annotators: list[str]) -> list[dict[str, Any]]:
    """sql/sheet_pairs.sql.j2 for the pairs the report shows: per slice (overall and every
    breakdown level) the two annotators (when exactly two) and the judge against the consensus;
    overall only, each annotator against the judge and, with more than two annotators, every
    pair of them. A pair is named in rater name order (its columns given in that order); a pair
    of one rater name (two columns of one annotator) is no pair, and the column pairs of one
    rater pair are counted together, as the canonical ratings pool them."""
    labels = cols["labels"]
    raters = {r for _, r in labels}

    def ordered(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
        found = [(min(a, b), max(a, b)) for a, b in pairs if a != b]
        return list(dict.fromkeys(found))

    def columns_of(pairs: list[tuple[str, str]]) -> list[tuple[int, int]]:
        return [(i, j) for a, b in pairs for i, (_, ra) in enumerate(labels) if ra == a
                for j, (_, rb) in enumerate(labels) if rb == b]

    per_slice = ordered(([(annotators[0], annotators[1])] if len(annotators) == 2 else [])
                        + ([(CONSENSUS, JUDGE)] if JUDGE in raters and CONSENSUS in raters else []))
    overall = [p for p in ordered(([(a, b) for i, a in enumerate(annotators) for b in annotators[i + 1:]]
                                   if len(annotators) > 2 else [])
                                  + ([(a, JUDGE) for a in annotators] if JUDGE in raters else []))
               if p not in per_slice]
    slice_columns, overall_columns = columns_of(per_slice), columns_of(overall)
    # the statement reads the labelling columns of these pairs only
    used = sorted({k for pair in slice_columns + overall_columns for k in pair})
    if not used:
        return []
    at = {k: n for n, k in enumerate(used)}
    options = {**read, **SHEET_COHEN, "breakdowns": cols["breakdowns"],
               "label_columns": [labels[k][0] for k in used],
               "slice_pairs": [[at[i], at[j]] for i, j in slice_columns],
               "overall_pairs": [[at[i], at[j]] for i, j in overall_columns]}
    params = {"default_metric": LABEL_METRIC, "blank_level": BLANK_LEVEL,
              **{f"rater_{n}": labels[k][1] for n, k in enumerate(used)},
              **{f"dimension_{i}": b for i, b in enumerate(cols["breakdowns"])}}
    return query(session, "sheet_pairs", options, params)


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


def _materialize(session: Session, src: Relation, options: dict[str, Any], cols,
                 labels: list[tuple[str, str]], breakdowns: list[str]) -> RatingsSpec:
    """sql/sheet_long.sql.j2 into a temporary table: the canonical ratings of the labelling
    columns ``labels`` ((column, rater) pairs), in the overall slice and in every level of
    ``breakdowns``."""
    params = {"default_metric": LABEL_METRIC, "blank_level": BLANK_LEVEL,
              **{f"rater_{i}": r for i, (_, r) in enumerate(labels)},
              **{f"dimension_{i}": b for i, b in enumerate(breakdowns)}}
    return canonical_spec(session, "sheet_long",
                          {**options, "label_columns": [c for c, _ in labels],
                           "breakdowns": list(breakdowns)},
                          params, description=src.description,
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


def _disagreement_rows(rows: list[dict[str, Any]], cols, label_of: dict[str, str]) -> list[dict[str, Any]]:
    """One entry per disagreeing sample (sql/sheet_disagreements.sql.j2 gives one row each): the
    id, the breakdown values, then the labels present in rater name order, then the missing ones
    (None) in column order. A label is filed under the column its rater names (of two columns of
    one annotator, the last)."""
    id_column = cols["id"]
    columns = [column for column, _ in cols["labels"]]
    filed = sorted(((f"label_{j}", rater) for j, (_, rater) in enumerate(cols["labels"])),
                   key=lambda kr: kr[1])
    filed_as = [(key, label_of[rater]) for key, rater in filed]
    every_column = len({column for _, column in filed_as}) == len(columns)
    # a breakdown named "overall" shares its slice name with the overall slice ('all'), so the
    # canonical ratings gave the least of the two
    levels = [(f"level_{i}", b, b == "overall") for i, b in enumerate(cols["breakdowns"])]
    out = []
    for r in rows:
        entry: dict[str, Any] = {id_column: r["item"]}
        for key, b, shared in levels:
            entry[b] = min(r[key], "all") if shared else r[key]
        complete = every_column
        for key, column in filed_as:
            value = r[key]
            if value is None:
                complete = False
            else:
                entry[column] = value
        if not complete:
            for column in columns:
                entry.setdefault(column, None)
        out.append(entry)
    return out


def _report(checks, cols, annotators, pairs, confusion, agree, disagreements, diag,
            include_train, target, description) -> EvaluationSheetReport:
    label_of = {rater: column for column, rater in cols["labels"]}
    by_level: dict[tuple, dict[tuple, dict[str, Any]]] = {}
    for row in pairs:
        by_level.setdefault((row["slice_0"], row["slice_1"]), {})[(row["rater_a"], row["rater_b"])] = row
    fleiss_by = {(r["slice_0"], r["slice_1"]): {
        "fleiss_kappa": r["fleiss_kappa"], "percent_agreement": _percent(r["observed_agreement"]),
        "n_items": r["n_items"], "all_agree_percent": r["all_agree_percent"]}
        for r in agree}

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
        if row["rater_a"] == row["rater_b"]:
            continue                    # two columns of one annotator: not a pair of raters
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
    shown = _disagreement_rows(disagreements, cols, label_of)
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
        disagreements=shown,
        diagnostics=diag[0] if diag else None,
        notes=notes,
        conventions=dict(CONVENTIONS),
    )
