"""``agreement_sql.render``: the exact SQL a metric runs, for an analyst to run by hand.

Templates read a relation with the caller's column names; here the relation defaults to a view
called ``ratings`` with columns ``item``, ``rater``, ``value``. The header names the relations
and every bound parameter with the value the Python API would bind, and shows the DuckDB
``PREPARE``/``EXECUTE`` lines that run it.
"""
from __future__ import annotations

from typing import Any, Sequence

from .templates import Rendered, render as render_template

# structural defaults per template (Jinja choices) and the parameter values the API binds
BASE_OPTIONS: dict[str, Any] = {
    "canonical": False, "on_duplicate": None, "with_row_number": False, "by_label": False,
    "scales": None, "struct_fields": [], "level": "interval",
    "domain": None, "domain_numeric": True, "bootstrap": False,
    # one-pass statements (agreement_sql/profile.py): registered rater bits, wide category counts
    "rater_bits": None, "bit_columns": [], "wide_categories": [], "wide_by_label": False,
    "raters_from": None,
}
DEFAULT_PARAMS: dict[str, Any] = {
    "default_metric": "value", "adjacent_tolerance": 1.0, "likert_lo": 1.0, "likert_hi": 5.0,
    "threshold": 75.0, "rating_min": 0.0, "rating_max": 5.0, "extreme_range": 4.0,
    "mean_gap": 2.0, "max_patterns": 20, "priority_sd": 1.5, "max_traces": 100,
    "max_examples": 5, "max_raters": 320, "max_categories": 16,
    "n_boot": 1000, "seed": 1, "ci_low_p": 0.025, "ci_high_p": 0.975,
}
TEMPLATE_OPTIONS: dict[str, dict[str, Any]] = {
    "materialize_ratings": {"into": "ratings_canonical"},
    "rater_bits": {"into": "rater_bits"},
    "input_examples": {"problem": "duplicate"},
    "drop_relation": {"kind": "view", "name": "ratings"},
    "domain_checks": {"domain_check": "value_domain", "domain_numeric": False},
    # the one-pass workshop report: a Likert 1..5 profile (five categories, one block of raters)
    "irr_report": {"rater_bits": "rater_bits", "bit_columns": ["bit_0"],
                   "wide_categories": ["n_0", "n_1", "n_2", "n_3", "n_4"]},
}

# the kappa family (sql/cohen_kappa.sql.j2, fleiss_kappa, ...): unweighted, every rater pair, no
# interval; `coefficients` renders every coefficient it can compute in one statement
KAPPA_OPTIONS: dict[str, Any] = {"weights": None, "weight_matrix": None, "weight_basis": "value",
                                 "ci": False, "named_raters": 0}
for _name in ("cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "gwet_ac1",
              "brennan_prediger", "percent_agreement"):
    TEMPLATE_OPTIONS[_name] = dict(KAPPA_OPTIONS)
TEMPLATE_OPTIONS["coefficients"] = {
    **KAPPA_OPTIONS, "level": "nominal",
    "which": ["cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "gwet_ac1",
              "brennan_prediger", "percent_agreement", "krippendorff_alpha"]}
DEFAULT_PARAMS["z"] = 1.959963984540054     # the 95% normal quantile ci=0.95 binds
DEFAULT_PARAMS["pair_max_raters"] = 10      # coefficients(): Light's kappa by default (LIGHT_MAX_RATERS)

# the workflows (issue 4): judge agreement, rater diagnostics, consistency, evaluation sheet,
# calibration sample. They read the canonical table a workflow materialises (re-keyed by
# sql/_regroup.sql.j2); rendered here without group_by (no slices).
_REGROUP: dict[str, Any] = {"canonical": True, "in_slices": [], "base_slices": [], "out_slices": [],
                            "regroup_pool": False, "regroup_across": None, "regroup_expand": None,
                            "regroup_select": [], "regroup_raters": 0}
for _name in ("judge_agreement", "judge_usage", "judge_points", "rater_diagnostics",
              "rater_diagnostics_bias", "rater_diagnostics_items"):
    TEMPLATE_OPTIONS[_name] = dict(_REGROUP)
TEMPLATE_OPTIONS["rater_diagnostics_loo"] = {**_REGROUP, "regroup_expand": "leave_one_out",
                                             "out_slices": ["slice_0"]}
TEMPLATE_OPTIONS["rater_diagnostics_pairs"] = {**_REGROUP, "regroup_expand": "pairs",
                                               "out_slices": ["slice_0", "slice_1"]}
_SHEET: dict[str, Any] = {"id_column": "Sample_ID", "split_column": "Dataset_Split",
                          "label_columns": ["Annotator_1_Label", "Annotator_2_Label"],
                          "breakdowns": ["Module"], "include_train": False}
TEMPLATE_OPTIONS["sheet_long"] = {**_SHEET, "into": "sheet_canonical"}
TEMPLATE_OPTIONS["sheet_checks"] = dict(_SHEET)
TEMPLATE_OPTIONS["sheet_examples"] = {**_SHEET, "problem": "invalid"}
TEMPLATE_OPTIONS["sheet_pairs"] = {**KAPPA_OPTIONS, "canonical": True, "by_label": True,
                                   "categories": None, "part": "kappa"}
TEMPLATE_OPTIONS["sheet_fleiss"] = {"canonical": True, "named_raters": 2}
TEMPLATE_OPTIONS["sheet_disagreements"] = {"named_raters": 2, "breakdowns": ["Module"]}
TEMPLATE_OPTIONS["consistency"] = {"form": "pairs", "part": "summary", "pairs_rel": "pairs",
                                   "citations_rel": "citations", "retrieved_rel": "retrieved"}
TEMPLATE_OPTIONS["calibration_sample"] = {"id_column": "Sample_ID", "split_column": "Dataset_Split",
                                          "stratum_column": "Scenario",
                                          "verdict_column": "LLM_Judge_Verdict", "part": "rows"}
for _param, _value in {"unit_separator": " | ", "sigma_threshold": 0.3, "max_items": 10,
                       "gate_pa": 0.90, "gate_kappa": 0.75, "gate_abstain": 0.02,
                       "rater_0": "Annotator_1", "rater_1": "Annotator_2", "column_0": "Annotator_1_Label",
                       "column_1": "Annotator_2_Label", "dimension_0": "Module",
                       "blank_level": "(blank)", "n_pass": 2, "n_fail": 2}.items():
    DEFAULT_PARAMS.setdefault(_param, _value)


def _coerce(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    return text


def render_options(template: str, *, relation: str = "ratings", item: str = "item",
                   rater: str = "rater", value: str = "value", metric: str | None = None,
                   group_by: Sequence[str] = (), **options: Any) -> dict[str, Any]:
    groups = list(group_by)
    merged = {**BASE_OPTIONS, **TEMPLATE_OPTIONS.get(template, {}),
              "source": relation, "item": item, "rater": rater, "value": value, "metric": metric,
              "group_by": groups, "slices": [f"slice_{i}" for i in range(len(groups))]}
    merged.update({k: _coerce(v) for k, v in options.items()})
    return merged


def render(template: str, *, dialect: str = "duckdb", relation: str = "ratings",
           item: str = "item", rater: str = "rater", value: str = "value",
           metric: str | None = None, group_by: Sequence[str] = (), **options: Any) -> str:
    """The SQL of ``sql/<template>.sql.j2`` with a header, ready to paste into the DuckDB CLI.

    >>> sql = render("krippendorff_alpha", level="ordinal")
    >>> sql.splitlines()[0]
    '-- agreement-sql: krippendorff_alpha (duckdb)'
    """
    rendered = render_template(template, dialect=dialect,
                               **render_options(template, relation=relation, item=item, rater=rater,
                                                value=value, metric=metric, group_by=group_by,
                                                **options))
    return script(rendered)


def script(rendered: Rendered) -> str:
    values = {p: DEFAULT_PARAMS[p] for p in rendered.params if p in DEFAULT_PARAMS}
    text = rendered.script(values)
    if rendered.dialect == "duckdb" and rendered.params:
        args = ", ".join(f"{p} := {values[p]!r}" if p in values else f"{p} := ?" for p in rendered.params)
        head, body = text.split("\n", 1)
        lines = [l for l in body.split("\n") if l.startswith("-- ")]
        n = len(lines)
        parts = body.split("\n")
        hint = [f"-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement({args});"]
        text = "\n".join([head] + parts[:n] + hint + parts[n:])
    return text
