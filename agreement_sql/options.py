"""The structural options of the SQL templates, declared once.

A template's options are the free variables it reads (agreement_sql.templates.template_options);
each must be declared here with the values it may take, so a misspelt option, in a template or
in the Python that fills it, is an error at render time rather than a silent default
(docs/decisions/0001). Values that reach SQL are never options: they are bound parameters.
"""
from __future__ import annotations

from typing import Any, Callable

from .constants import MAX_BIT_RATERS, RATER_BLOCKS
from .errors import TemplateError

Check = Callable[[Any], bool]


def _choice(*allowed: Any) -> Check:
    return lambda v: v in allowed


def _is_str(v: Any) -> bool:
    return isinstance(v, str) and v != ""


def _opt_str(v: Any) -> bool:
    return v is None or _is_str(v)


def _str_list(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(_is_str(x) for x in v)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _index_pairs(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and all(_count(k) for k in p) for p in v)


def _kinds(allowed: tuple[str, ...]) -> Check:
    return lambda v: isinstance(v, (list, tuple)) and all(x in allowed for x in v)


# "typed": the type is not known when the statement is rendered (a DuckDB table macro's source):
# the engine's kind of it (Dialect.kind_of)
VALUE_KINDS = ("number", "integer", "boolean", "text", "other", "typed")
ID_KINDS = ("text", "float", "boolean", "other", "typed")


def _id_kinds(v: Any) -> bool:
    return (isinstance(v, dict) and set(v) == {"item", "rater", "metric", "slices"}
            and all(v[k] in ID_KINDS for k in ("item", "rater", "metric"))
            and _kinds(ID_KINDS)(v["slices"]))

# name -> (check, what it means)
OPTIONS: dict[str, tuple[Check, str]] = {
    # the ratings relation (sql/_ratings.sql.j2)
    "source": (_is_str, "the relation the statement reads (a generated name)"),
    "source_form": (_choice("caller", "canonical", "state"),
                    "caller: the caller's columns; canonical: a materialised canonical copy; "
                    "state: a batch state (sql/_state_ratings.sql.j2)"),
    "item": (_is_str, "the caller's item column"),
    "rater": (_is_str, "the caller's rater column"),
    "value": (_is_str, "the caller's value column"),
    "metric": (_opt_str, "the caller's metric column, or None for one metric"),
    "group_by": (_str_list, "the caller's slice columns"),
    "slices": (_str_list, "canonical slice column names, slice_0 .."),
    "struct_fields": (_str_list, "the fields of a workshop ratings object (one metric each)"),
    "value_kinds": (_kinds(VALUE_KINDS), "the kind of the value column (or of each field)"),
    "placeholders": (_kinds(("text",)), "declared missing-value placeholders (bound as text)"),
    "id_kinds": (_id_kinds, "what the item, rater, metric and group_by (slices) columns hold, "
                            "for their id text (docs/decisions/0014)"),
    "native_item": (_bool, "the item column holds whole numbers: the per-unit passes group it as "
                           "it is (item_key) and write its id text once a unit "
                           "(docs/decisions/0014)"),
    "metric_switch": (_bool, "the metric column is read only when $metric_given, else the metric "
                      "is $default_metric (a DuckDB table macro: agreement_sql/macros.py)"),
    "route_guard": (_bool, "the ratings are kept only when $route_served (one of the routes a "
                    "DuckDB table macro renders ahead of the data: agreement_sql/macros.py)"),
    "on_duplicate": (_choice(None, "first", "last", "mean"), "duplicate policy"),
    "with_row_number": (_bool, "number rows in input order"),
    "domain": (_opt_str, "a declared value domain relation"),
    "domain_numeric": (_bool, "the declared domain holds numbers (else labels)"),
    "bootstrap": (_bool, "unit-resampling replicates"),
    "scales": (_opt_str, "a declared scales relation (metric, kind, lo, hi)"),
    "source_slices": (_str_list, "a canonical source's slice columns (before any re-keying)"),
    "rekey": (_choice("none", "pool", "across", "leave_one_out", "pairs"),
              "a workflow's re-keying of a canonical source"),
    "across_slice": (_opt_str, "rekey across: the source slice whose values become the units"),
    "slice_filter": (_str_list, "source slices kept at one bound value and dropped"),
    "rater_filter": (_count, "keep only the raters bound as $keep_rater_i (0: every rater)"),
    "layout": (_choice("long", "wide", "counts", "table"),
               "the caller's rows: long (item, rater, value), or a peer's wide, counts or "
               "contingency table turned into long rows by sql/_ratings.sql.j2"),
    "layout_columns": (_str_list, "a wide table's rater columns, a counts or contingency "
                                  "table's category columns (bound as $layout_column_i)"),
    "set_separator": (_bool, "every rating is a set of elements joined by $set_separator, read "
                             "as its canonical text (docs/decisions/0028)"),
    "unit_from_row": (_bool, "no item column: a row's position (from 0) is its unit, or its "
                             "contingency table row's category is the column at that position"),
    "numbers": (_opt_str, "a registered relation of k = 0 .. n - 1 (counts expanded into ratings)"),
    "cells": (_bool, "a contingency table read by its cells: each nonzero cell one unit whose "
                     "two rows carry w, the units it stands for; the per-unit pass weighs its "
                     "patterns by w (docs/decisions/0022)"),
    # incremental batches (sql/batch_state, merge_states, state_meta, state_ratings;
    # docs/decisions/0029)
    "with_raters": (_bool, "a batch state keeps each rating's rater (section unit_ratings)"),
    "state_weighted": (_bool, "a batch state's counts, or a counts table's cells, read as "
                              "weighted rows, not expanded: the statements sum w where they "
                              "count rows (docs/decisions/0029, 0022)"),
    "state_sources": (_str_list, "the states a merge adds (registered relations)"),
    "state_groups": (_str_list, "a state's slice columns (group_<column>), read as slice_0 .."),
    "anonymous": (_bool, "a state's rows are counts per unit and value (section unit_values): "
                         "expanded into ratings by anonymous raters"),
    "checks": (_kinds(("keys", "nonfinite", "labels", "duplicates")),
               "input checks the statement carries, each stopping it through the dialect's "
               "error form with a message naming the row (a rendering run by hand, a macro; "
               "a Python call checks before it runs the statement instead): NULL keys, "
               "infinite or too large numbers, labels where numbers are needed, a rater "
               "rating a unit twice (and more raters than the rater bits hold)"),
    # the per-unit aggregation (sql/_units.sql.j2) and the forms of the statistics' inputs
    "form": (_choice("wide", "counts", "sums"), "wide: a count column per category; counts: a counts "
             "table; sums: per-unit moments only (interval alpha)"),
    "categories": (_kinds(("number", "label")), "the wide form's categories, bound as $category_i"),
    "alpha_distances": (_choice("value_pairs", "midranks"),
                        "ordinal alpha's sums in the counts form: over pairs of distinct values, "
                        "or from midranks (linear; docs/decisions/0019)"),
    "kappa_weights": (_choice("value_pairs", "moments"),
                      "the kappa family's sums over pairs of categories: from a table of weights "
                      "per pair of positions, or (quadratic weights, counts form) from moments "
                      "(linear; docs/decisions/0019)"),
    "rater_blocks": (lambda v: _count(v) and v <= RATER_BLOCKS,
                     "blocks of rater bits counted per unit (0: no in-statement duplicate check)"),
    "rater_list": (lambda v: _count(v) and v <= MAX_BIT_RATERS,
                   "raters numbered from $listed_rater_0.. (the profile's raters with a "
                   "rating) instead of a DISTINCT over the ratings (0: the DISTINCT)"),
    "category_kinds": (_choice("number", "label", "mixed"),
                       "whether the ratings are all numbers, all labels, or both (join keys)"),
    "weights": (_choice(None, "linear", "quadratic", "matrix"), "agreement weights"),
    "weight_basis": (_choice("value", "position"), "weights from category values or positions"),
    "weight_matrix": (_opt_str, "the caller's weight matrix relation (label_k, label_l, w)"),
    "ci": (_bool, "analytic standard errors and intervals"),
    "which": (_str_list, "the coefficients of sql/coefficients.sql.j2, registry names"),
    "partials": (lambda v: _str_list(v) and all(x.startswith("_") and x.endswith(".sql.j2") for x in v),
                 "their partials (agreement_sql/registry.py)"),
    "families": (_kinds(("kappa", "alpha", "pair", "conger")), "their families"),
    "reports": (lambda v: isinstance(v, (list, tuple)) and all(_kinds(("n_pairs", "null_test"))(x) for x in v),
                "the fields each reports beyond its family's (agreement_sql/registry.py REPORTS)"),
    "listwise": (_bool, "category_agreement: only the units every rater of the metric (and slice) "
                        "rated enter (R irr's na.omit)"),
    "named_raters": (_count, "raters named by the caller, bound as $rater_i (0: every rater)"),
    "pair_max_raters": (_bool, "pair coefficients only where at most $pair_max_raters raters rate"),
    "unit_weights": (_opt_str, "a registered relation (item, w): scikit-learn's sample_weight=, "
                               "a weight per unit summed into the pair counts (sql/_pairs.sql.j2)"),
    "confusion_given": (_bool, "sql/_pairs.sql.j2 reads the includer's confusion counts instead "
                               "of a self-join of the ratings (the consistency report's grid, "
                               "the evaluation sheet's pair counts)"),
    "n_rows": (_count, "lookup_rows: the rows, bound as $row_<i>_<j>"),
    "row_names": (_str_list, "lookup_rows: the column names (the package's own)"),
    "row_types": (_kinds(("text", "double", "bigint", "boolean")), "lookup_rows: the column types"),
    "with_usage": (_bool, "judge_agreement: each judge's assessment count"),
    "with_points": (_bool, "judge_agreement: each point's spread and flag"),
    "granularities": (_bool, "judge_agreement: also the pooled and per-point alphas from the same "
                             "units (the wide form with rater bits)"),
    "point_across": (_opt_str, "judge_agreement: the slice a per-point alpha pools over (its "
                               "values are the units)"),
    "with_groups": (_bool, "judge_agreement: the groups' rows (and their usage, and the pooled "
                           "ones)"),
    "with_point_alphas": (_bool, "judge_agreement: the per-point alphas' rows (granularities)"),
    "units_given": (_opt_str, "judge_agreement: the units materialised apart "
                              "(sql/judge_units.sql.j2), read instead of aggregating the ratings"),
    "rater_patterns": (_bool, "keep each unit's rater pattern (few raters, wide form)"),
    "with_coincidences": (_bool, "rater_diagnostics: also the pooled coincidence matrix (the HTML report)"),
    "with_items": (_bool, "rater_diagnostics: rank the units that drive disagreement ($max_items > 0)"),
    "with_distribution": (_bool, "rater_diagnostics: also each rater's ratings per value or bin (the HTML report)"),
    "level": (_choice("nominal", "ordinal", "interval", "ratio"), "Krippendorff's level of measurement"),
    "distance": (_choice(None, "masi", "masi_rounded", "jaccard", "matrix"),
                 "Krippendorff's alpha with a distance in place of the level's (docs/decisions/"
                 "0028): MASI or Jaccard over set-valued labels, or the caller's matrix"),
    "distance_matrix": (_opt_str, "the caller's distance matrix relation (x_k, label_k, x_l, "
                                  "label_l, w: w the distance)"),
    "marginals": (_choice("pairwise", "gwet"),
                  "Cohen/Light/Scott marginals: the shared units, or each rater's rated units "
                  "(Gwet 2014; sql/_pairs.sql.j2)"),
    "variance": (_choice(None, "irrcac_raw", "irrcac_table"),
                 "the analytic variance's divisor as irrCAC's *.raw (n - 1) or *.table (n) "
                 "functions; None: each coefficient's own"),
    "inference": (_choice("normal", "irrcac"),
                  "the tests and analytic intervals: normal quantiles and each coefficient's "
                  "null variance, or irrCAC's Student's t on n - 1 degrees of freedom with the "
                  "estimate's own variance (sql/coefficients.sql.j2)"),
    "oriented": (_bool, "the rater-free kappa family's inputs from two raters' contingency table, "
                        "an asymmetric weight matrix kept in its orientation (rows the first "
                        "rater; sql/_kappa_pair_inputs.sql.j2)"),
    # R irr's agree() (sql/agree.sql.j2, sql/_agree.sql.j2)
    "agree_units": (_choice("rated_twice", "complete"),
                    "agree: the units counted, those rated twice or more or those every rater "
                    "rated (R irr's na.omit)"),
    "tolerant": (_bool, "agree: a unit agrees when max - min <= $agree_tolerance (numbers), "
                        "else when its ratings are one value"),
    # the intraclass correlation (sql/_icc.sql.j2) and the planning simulation
    # (sql/plan_simulation.sql.j2)
    "rater_digits": (lambda v: _count(v) and v <= 62,
                     "raters whose ratings are packed as digits per item (0: the joined form)"),
    "icc_from_patterns": (_bool, "the ICC's per-pattern inputs from the including statement's rater "
                                 "patterns (pattern_ratings; rater_digits the raters): "
                                 "sql/coefficients.sql.j2 gives the ICC without a second "
                                 "statement over the ratings"),
    "n_categories": (lambda v: _count(v) and 2 <= v <= 16,
                     "plan_simulation: categories, cut at the bound cumulative prevalences $cum_i"),
    "part": (_choice("kappa", "confusion", "summary", "unknown", "disagreements", "rows",
                     "strata", "summary", "lines", "repeats"),
             "which part of a multi-part workflow statement to return"),
    "input_form": (_choice("jsonl", "lines", "pairs", "split"),
                   "consistency: a merged pairs JSONL as DuckDB's reader gives it (jsonl), its "
                   "flattened lines materialised (lines), the same file prepared in Python "
                   "(pairs), or two files (split)"),
    "jsonl_rel": (_opt_str, "consistency: the merged pairs JSONL read by the engine (DuckDB)"),
    "lines_rel": (_opt_str, "consistency: the materialised flattened lines (part lines)"),
    "repeats_rel": (_opt_str, "consistency: the materialised repeated qids (part repeats)"),
    "pairs_rel": (_opt_str, "consistency: the merged pairs relation"),
    "citations_rel": (_opt_str, "consistency: the cited ids relation"),
    "retrieved_rel": (_opt_str, "consistency: the retrieved ids relation"),
    "scholar_rel": (_opt_str, "consistency: the scholar lines relation"),
    "auditor_rel": (_opt_str, "consistency: the auditor lines relation"),
    # the alternative annotator test (sql/alt_test.sql.j2)
    "scoring": (_choice("accuracy", "neg_rmse"),
                "alt_test: how the judge and a human are scored against the other humans"),
    "n_judges": (lambda v: _count(v) and v >= 1,
                 "alt_test: the judges, bound as $judge_i (every other rater is a human)"),
    "n_humans": (_count, "alt_test, forms pattern and pivot: the humans, bound as $human_i"),
    "alt_form": (_choice("pattern", "pivot", "cells"),
                 "alt_test: a row per instance with its raters' ratings as one rater pattern "
                 "(few raters, few categories) or a column per rater (few raters), or per "
                 "instance and category with the ratings joined back (any raters and categories)"),
    # Student's t distribution function (sql/student_t.sql.j2, sql/_student_t.sql.j2)
    "t_values": (_is_str, "student_t: the relation of rows (row_id, t, v) whose P(T <= t) it computes"),
    "z_values": (_is_str, "normal_tail: the relation of rows (row_id, x) whose 1 - Phi(x) it computes"),
    # input examples (sql/input_examples.sql.j2)
    "problem": (_choice("null_key", "nonfinite", "label", "outside_domain", "out_of_scale",
                        "outside_range", "duplicate", "invalid", "duplicate_id", "missing_id"),
                "which input problem to show rows of"),
    # the evaluation sheet (sql/sheet_*.sql.j2): the caller's columns
    "id_column": (_is_str, "the sheet's sample id column"),
    "split_column": (_is_str, "the sheet's dataset split column"),
    "label_columns": (_str_list, "the sheet's labelling columns"),
    "breakdowns": (_str_list, "the sheet's breakdown columns"),
    "n_annotators": (_count, "the sheet's annotators: the first n of its labelling columns"),
    "slice_pairs": (_index_pairs, "sheet_pairs: the labelling column pairs [i, j] counted in "
                                  "every slice (overall and each breakdown level)"),
    "overall_pairs": (_index_pairs, "sheet_pairs: the labelling column pairs [i, j] counted "
                                    "overall only"),
    "include_train": (_bool, "keep the Train rows"),
    "stratum_column": (_is_str, "the calibration sample's stratum column"),
    "verdict_column": (_is_str, "the calibration sample's LLM verdict column"),
    # the HTML report (sql/report_*.sql.j2)
    "n_traces": (lambda v: _count(v) and v >= 1,
                 "report_traces: the listed traces, bound as $trace_metric_i, $trace_item_i"),
    "numeric_items": (_bool, "report_traces: the item column holds numbers (compared as numbers)"),
}


def check_option(name: str, value: Any) -> None:
    """Raise TemplateError unless ``name`` is a declared option and ``value`` one it may take."""
    declared = OPTIONS.get(name)
    if declared is None:
        raise TemplateError(f"{name!r} is not a declared template option (agreement_sql/options.py)")
    check, meaning = declared
    if not check(value):
        raise TemplateError(f"option {name}={value!r} is not a value it takes ({meaning})")
