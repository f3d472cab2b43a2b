"""``agreement_sql.render``: the exact SQL a metric runs, for an analyst to run by hand.

A coefficient's name (``fleiss_kappa``, ``krippendorff_alpha``, any registry alias) renders
``sql/coefficients.sql.j2`` for it; any other name renders that template. The options are the
ones a call would build: the ratings options of :class:`agreement_sql.ratings.RatingsSpec` for a
relation of your own (default: a table ``ratings`` with columns item, rater, value), the route
of :class:`agreement_sql.routes.Route` (the counts form, which needs no profile; ``form="wide"``
with ``categories=[1, 2, 3, 4, 5]`` renders the wide form for those categories), and, for a
coefficient, the options a call builds (agreement_sql.metrics.coefficient.statement_options,
the same builder) from the coefficient options of :func:`agreement_sql.parameters.validate`.
``explain=True`` gives the route instead of the SQL: every producer the statement would use,
what it gathers and why (agreement_sql.routes.describe); with ``source=`` the route a call on
that source would take, decided from its profile as the call decides it. The header names the
relations and every bound parameter with the value the Python API would bind, and shows the
DuckDB ``PREPARE``/``EXECUTE`` lines that run it.

Options a template takes beyond those come from the call that runs it (:data:`TEMPLATE_OPTIONS`,
and ``choices`` override any of them, e.g. ``named_raters=3`` or ``label_columns=A,B``):

==================== ===========================================================================
template             options (the call they mirror)
==================== ===========================================================================
icc                  ``rater_digits=0``: the joined form (metrics/icc.py; the packed form,
                     ``rater_digits=k``, needs ``categories=``)
coefficients         ``icc_from_patterns=False``, ``rater_digits=0``: no ICC columns (the ICC
                     from the rater patterns, ``icc_from_patterns=True rater_digits=k
                     rater_patterns=True``, needs number ``categories=``; metrics/coefficient.py)
concordance          ``named_raters=0``: no ``raters=``, the metric's two raters (metrics/concordance.py)
category_agreement   ``weights=None``, ``listwise=False``: the unweighted per-unit counts of every
                     rated unit (metrics/categories.py)
agree                ``agree_units="rated_twice"``, ``tolerant=False``: R irr's agree() with the
                     package's units and no tolerance (metrics/agree.py)
named_raters         ``named_raters=2``: ``raters=[a, b]`` (metrics/coefficient.py check_named_raters)
cohen_pairs          every pair, unweighted, no interval, ``part="kappa"`` (a call may name one
                     pair, ``named_raters=2``, as reports/html/data.py does for part "confusion")
judge_agreement,     ``with_row_number=True``: rows numbered in input order, as
judge_units          ``ratings_session(ordered=True)`` does (workflows/judges.py); the
                     group granularity alone, its units aggregated in the statement
report_traces        ``n_traces=1``, ``numeric_items=False`` (reports/html/data.py)
alt_test             ``scoring="accuracy"``, ``n_judges=1``, ``alt_form="cells"``: one judge, ``$judge_0``,
                     the form for any raters (``alt_form=pivot n_humans=k`` the form with a column per
                     rater: k humans ``$human_i``; workflows/alt_test.py)
student_t            ``t_values``: the caller's relation of rows (row_id, t, v)
normal_tail          ``z_values``: the caller's relation of rows (row_id, x)
layout_profile       ``layout_columns=value``: a counts table of one category column (ratings.py)
plan_simulation      ``n_categories=2`` (simulation.py: one per prevalence)
consistency          ``input_form="pairs"``, ``part="summary"`` (workflows/consistency.py)
sheet_checks,        the seed 003 sheet's columns: Sample_ID, Dataset_Split, the labelling
sheet_examples,      columns Annotator_1_Label, Annotator_2_Label, LLM_Judge_Verdict,
sheet_long,          Final_Consensus_Label, the breakdowns Dataset_Split, Module, Scenario;
calibration_sample   Train rows left out; ``problem="invalid"``; stratum Scenario, verdict
                     LLM_Judge_Verdict, ``part="rows"`` (workflows/sheet.py, workflows/sample.py)
sheet_disagreements  the same sheet, its first two labelling columns the annotators
                     (``n_annotators=2``) (workflows/sheet.py)
sheet_agreement      the same sheet's annotators (Annotator_1_Label, Annotator_2_Label) and
                     breakdowns; Fleiss' kappa in the wide form over the labels FAIL and PASS,
                     keyed by (breakdown, level) (workflows/sheet.py SHEET_FLEISS)
sheet_confusion      the same sheet's labelling columns, in rater name order (workflows/sheet.py)
sheet_pairs          the same sheet's labelling columns and breakdowns; per slice the two
                     annotators and the consensus against the judge, overall only each annotator
                     against the judge; plain Cohen's kappa from the counted confusion counts
                     (workflows/sheet.py SHEET_COHEN)
batch_state          ``with_raters=False``: summarize() keeping counts per unit and value (batches.py)
merge_states         two states, ``state_a`` and ``state_b``, without group columns (batches.py)
state_meta           a state, ``state`` (states.py)
==================== ===========================================================================

The caller's own input is ``relation`` (a sheet for the sheet templates and
calibration_sample; sheet_agreement, sheet_confusion, sheet_pairs and sheet_disagreements show it as
``sheet``); relations a call registers itself appear under the readable names of
:data:`SAMPLE_RELATIONS` and :data:`CALL_RELATIONS` (``scales``, ``t_values``, ``z_values``, ``pairs``, ``citations``,
``retrieved``, ``jsonl``, ``lines``, ``repeats``, ``scholar``, ``auditor``, ``sheet``,
``unit_weights``: scikit-learn's sample_weight= as rows (item, w)).
Parameters a call computes from its data are shown with the values of :data:`SAMPLE_PARAMS`,
and with :func:`_template_params` for a template's own (``$rater_i``, ``$trace_item_i``, ``$cum_i``, ``$column_i``, ...).
"""
from __future__ import annotations

from typing import Any, Collection, Sequence

from .constants import MAX_WIDE_CATEGORIES
from .dialects import DIALECTS, Dialect, script_dialect
from .engine import TEXT, Column, Relation
from .errors import OptionError
from .options import OPTIONS
from .parameters import DEFAULT_LEVEL, validate
from . import routes
from .bootstrap import interval_spec
from .ratings import RatingsSpec
from .templates import Rendered, render as render_template, template_options
from .workflows.sheet import SHEET_COHEN, SHEET_FLEISS

# what render() binds and shows for parameters a call computes from its data
SAMPLE_PARAMS: dict[str, Any] = {
    "max_categories": MAX_WIDE_CATEGORIES, "max_examples": 5, "adjacent_tolerance": 1.0,
    "agree_tolerance": 0.0,
    "threshold": 75.0, "extreme_range": 4.0, "mean_gap": 2.0, "max_patterns": 20,
    "priority_sd": 1.5, "max_traces": 100, "max_items": 10, "sigma_threshold": 0.3,
    "n_boot": 1000, "seed": 1, "ci_low_p": 0.025, "ci_high_p": 0.975, "z": 1.959963984540054,
    "pair_max_raters": 10, "rating_min": 0.0, "rating_max": 5.0,
    # coefficients() with the ICC from its rater patterns (metrics/coefficients.py ICC_FORM)
    "icc_form": "ICC2",
    # the HTML report's distribution cards (reports/html/data.py N_BINS, MAX_SHOWN_RATERS)
    "n_bins": 10, "max_raters": 12,
    # alt_test()'s defaults (workflows/alt_test.py)
    "epsilon": 0.2, "q": 0.05, "min_humans": 2, "min_items": 30,
    # a batch state's constant columns (agreement_sql/states.py): version 1, counts per unit
    # and value, no metric column
    "state_version": 1, "section": "unit_values", "metric_column": None,
    # a route a DuckDB table macro renders ahead of the data (agreement_sql/macros.py): served,
    # and the scale its wide form holds (sql/route_found.sql.j2)
    "route_served": True, "scale_low": 0.0, "scale_high": 9.0, "metric_given": True,
}
# relations a template joins that a call registers itself (shown under these names)
SAMPLE_RELATIONS: dict[str, Any] = {"scales": None, "domain": None, "weight_matrix": None,
                                    "unit_weights": None,
                                    "t_values": "t_values", "z_values": "z_values"}
# the relations of a workflow's own input preparation: consistency's JSONL lines (by
# input_form) and the caller's sheet, for the sheet statements that read it in one pass
_NO_CONSISTENCY_RELATIONS = {"jsonl_rel": None, "lines_rel": None, "repeats_rel": None,
                             "pairs_rel": None, "citations_rel": None, "retrieved_rel": None,
                             "scholar_rel": None, "auditor_rel": None}
CALL_RELATIONS: dict[str, dict[str, Any]] = {
    "consistency:pairs": {**_NO_CONSISTENCY_RELATIONS, "pairs_rel": "pairs",
                          "citations_rel": "citations", "retrieved_rel": "retrieved"},
    "consistency:jsonl": {**_NO_CONSISTENCY_RELATIONS, "jsonl_rel": "jsonl"},
    "consistency:lines": {**_NO_CONSISTENCY_RELATIONS, "lines_rel": "lines",
                          "repeats_rel": "repeats"},
    "consistency:split": {**_NO_CONSISTENCY_RELATIONS, "scholar_rel": "scholar",
                          "auditor_rel": "auditor"},
    "state_meta": {"source": "state"},
    "sheet_disagreements": {"source": "sheet"},
    "unit_weights_check": {"unit_weights": "unit_weights"},
    "sheet_agreement": {"source": "sheet"},
    "sheet_confusion": {"source": "sheet"},
    "sheet_pairs": {"source": "sheet"},
}

# the seed 003 evaluation sheet (workflows/sheet.py): its columns, as evaluation_sheet() finds them
SHEET_LABELS = ["Annotator_1_Label", "Annotator_2_Label", "LLM_Judge_Verdict", "Final_Consensus_Label"]
SHEET = {"id_column": "Sample_ID", "split_column": "Dataset_Split", "label_columns": SHEET_LABELS,
         "breakdowns": ["Dataset_Split", "Module", "Scenario"], "include_train": False}
SAMPLE_RATERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")

# options a template takes beyond the ratings spec, the plan and the coefficients, as the
# call that runs it passes them (the module docstring's table); choices override them
TEMPLATE_OPTIONS: dict[str, dict[str, Any]] = {
    "icc": {"rater_digits": 0, "icc_from_patterns": False},
    "concordance": {"named_raters": 0},
    "category_agreement": {"weights": None, "weight_basis": "value", "weight_matrix": None,
                           "listwise": False},
    "agree": {"agree_units": "rated_twice", "tolerant": False},
    "named_raters": {"named_raters": 2},
    "cohen_pairs": {"named_raters": 0, "pair_max_raters": False, "confusion_given": False,
                    "unit_weights": None,
                    "weights": None,
                    "marginals": "pairwise", "variance": None,
                    "weight_basis": "value", "weight_matrix": None, "ci": False, "part": "kappa",
                    "kappa_weights": "value_pairs"},
    "judge_agreement": {"with_row_number": True, "granularities": False, "point_across": None,
                        "with_groups": True, "with_point_alphas": False, "units_given": None},
    "judge_units": {"with_row_number": True},
    "lookup_rows": {"n_rows": 2, "row_names": ["value_text", "rank", "x"],
                    "row_types": ["text", "bigint", "double"]},
    "report_traces": {"n_traces": 1, "numeric_items": False},
    "plan_simulation": {"n_categories": 2},
    "consistency": {"input_form": "pairs", "part": "summary", "confusion_given": True,
                    "unit_weights": None,
                    "weights": None, "weight_basis": "value", "weight_matrix": None,
                    "marginals": "pairwise", "named_raters": 0, "pair_max_raters": False,
                    "ci": False, "variance": None, "kappa_weights": "value_pairs"},
    "sheet_checks": SHEET,
    "sheet_examples": {**SHEET, "problem": "invalid"},
    "sheet_long": SHEET,
    "sheet_disagreements": {**SHEET, "n_annotators": 2},
    "sheet_agreement": {**SHEET, **SHEET_FLEISS, "label_columns": SHEET_LABELS[:2]},
    "sheet_confusion": {**SHEET, "label_columns": SHEET_LABELS[:2] + SHEET_LABELS[:1:-1]},
    # columns Annotator_1, Annotator_2, LLM_Judge, Consensus; each pair in rater name order
    "sheet_pairs": {**SHEET, **SHEET_COHEN, "slice_pairs": [[0, 1], [3, 2]],
                    "overall_pairs": [[0, 2], [1, 2]]},
    "calibration_sample": {**SHEET, "stratum_column": "Scenario",
                           "verdict_column": "LLM_Judge_Verdict", "part": "rows"},
    # a counts table whose one category column is the sample's value column (ratings.py)
    "layout_profile": {"layout_columns": ["value"]},
    # one judge, accuracy (workflows/alt_test.py)
    "alt_test": {"scoring": "accuracy", "n_judges": 1, "alt_form": "cells", "n_humans": 0},
    # batch states (agreement_sql/batches.py, states.py): summarize() without raters, two
    # states merged
    "batch_state": {"with_raters": False},
    "merge_states": {"state_sources": ["state_a", "state_b"], "state_groups": []},
}


def _coerce(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if lowered.isdigit():
        return int(lowered)
    return text


def _listed(name: str, value: Any) -> Any:
    """``label_columns=A,B`` (the CLI's text) as the list a list-valued option takes."""
    declared = OPTIONS.get(name)
    if not isinstance(value, str) or declared is None or declared[0](value):
        return value
    parts = [p.strip() for p in value.split(",") if p.strip()]
    return parts if declared[0](parts) else value


# the input checks a statement run by hand carries (option checks, sql/_ratings.sql.j2,
# sql/_units.sql.j2, sql/_rater_codes.sql.j2): what a Python call refuses before it runs the
# statement, refused by the statement itself through the dialect's error form
CHECKS = ["keys", "nonfinite", "duplicates"]
# statements that need every rating to be a number (the Python call refuses labels)
NUMBERS_NEEDED = ("irr_report", "pairwise_agreement", "icc", "concordance", "report_traces")


def checks_for(template: str, options: dict[str, Any]) -> list[str]:
    """The checks a statement carries: CHECKS, and labels refused where the Python call refuses
    them (alpha at a level beyond nominal, linear or quadratic weights by value, without a
    declared domain; the workshop scores, the ICC, the concordance)."""
    numbers = template in NUMBERS_NEEDED
    if template == "coefficients" and not options.get("domain"):
        numbers = (("krippendorff_alpha" in options["which"] and options["level"] != "nominal")
                   or (options["weights"] in ("linear", "quadratic")
                       and options["weight_basis"] == "value"))
    return CHECKS + (["labels"] if numbers else [])


def statement(name: str, *, dialect: "str | Dialect" = "duckdb", relation: str = "ratings",
              item: str = "item", rater: str = "rater", value: str = "value",
              metric: str | None = None, group_by: Sequence[str] | None = None,
              checks: bool | Collection[str] = False, script: bool = False,
              **choices: Any) -> tuple[Rendered, dict[str, Any]]:
    """The rendered statement for ``name`` and the parameter values a call would bind.

    ``checks``: the statement carries the input checks (:data:`CHECKS`; it stops, naming the
    row, on input a Python call refuses); given as names, only those of them it would carry
    (the macros' statements leave the row checks to the query that finds their route,
    agreement_sql/macros.py); ``script``: parameters in the form the dialect's
    client sets by hand (agreement_sql.dialects.script_dialect), for a printed rendering.
    """
    from .registry import REGISTRY, lookup

    choices = {k: _listed(k, _coerce(v)) for k, v in choices.items()}
    columns = tuple(Column(c, TEXT, "VARCHAR") for c in
                    [item, rater, value, *([metric] if metric else []), *(group_by or ())])
    spec = RatingsSpec(session=None, relation=Relation(relation, columns, relation, True),  # type: ignore[arg-type]
                       item=item, rater=rater, value=value, metric=metric,
                       group_by=tuple(group_by or ()), default_metric=value)
    categories = choices.pop("categories", None)
    if isinstance(categories, str):
        categories = [c.strip() for c in categories.split(",")]
    form = choices.pop("form", "wide" if categories else "counts")
    cats = tuple(("number", float(c)) if _number(c) else ("label", str(c)) for c in categories or ())
    if form == "wide" and not cats:
        raise OptionError("form=wide renders for given categories, e.g. categories=1,2,3,4,5")
    route = routes.Route(statement=name, units=form, categories=cats,
                         rater_blocks=int(choices.pop("rater_blocks", 1)),
                         rater_patterns=bool(choices.pop("rater_patterns", False)))
    template = name
    bootstrap = bool(choices.pop("bootstrap", False))
    options: dict[str, Any] = {**spec.options(bootstrap=bootstrap), **route.options(name)}
    params: dict[str, Any] = {**SAMPLE_PARAMS, **spec.params(), **route.params()}
    try:
        entry = lookup(name)
    except OptionError:
        entry = None
    if entry is not None or name == "coefficients":
        from .metrics.coefficient import statement_options

        which = [entry] if entry is not None else list(REGISTRY.values())
        opts = validate(weights=choices.pop("weights", None),
                        weight_basis=choices.pop("weight_basis", "value"),
                        level=choices.pop("level", DEFAULT_LEVEL))
        analytic = bool(choices.pop("ci", False))
        interval = (interval_spec(0.95, "bootstrap", analytic=False) if bootstrap
                    else interval_spec(0.95, "analytic", analytic=True) if analytic
                    else interval_spec(analytic=True))
        template = "coefficients"
        built, _ = statement_options(spec.options(bootstrap=bootstrap), spec.params(), route,
                                     which, opts, interval, matrix=None,
                                     # a rendering sees no data: categories are matched on their
                                     # number and their label, right for numbers, labels or both
                                     category_kinds="mixed", cap_pairs=False)
        options.update(built)
    wanted = template_options(template)
    options.update(TEMPLATE_OPTIONS.get(template, {}))
    defaults = {"level": "interval", "category_kinds": "mixed", "with_usage": True,
                "with_points": True, "with_coincidences": False, "with_items": True, "with_distribution": False, "problem": "duplicate",
                "part": None}
    for key, value_ in choices.items():
        options[key] = value_
    if template == "icc":
        _icc_form(options)
    if template == "coefficients" and options["icc_from_patterns"]:
        _icc_from_patterns(options)
    for key, sample in SAMPLE_RELATIONS.items():
        if key in wanted and key not in options:
            options[key] = sample
    keyed = f"{template}:{options['input_form']}" if "input_form" in wanted else template
    for key, sample in CALL_RELATIONS.get(keyed, {}).items():
        if key not in choices:
            options[key] = sample
    for key in wanted - set(options):
        if key in defaults:
            options[key] = defaults[key]
    if checks and "checks" in wanted and "checks" not in choices:
        options["checks"] = [c for c in checks_for(template, options)
                             if checks is True or c in checks]
    unknown = sorted(set(options) - wanted)
    for key in unknown:
        if key in choices:
            raise OptionError(f"{template} takes no option {key!r}; it takes: "
                              f"{', '.join(sorted(wanted))}")
        options.pop(key)
    chosen = DIALECTS.get(dialect, dialect) if isinstance(dialect, str) else dialect
    if not isinstance(chosen, Dialect):
        raise OptionError(f"unknown dialect {dialect!r}; choose from {', '.join(DIALECTS)}")
    rendered = render_template(template, options,
                               dialect=script_dialect(chosen) if script else chosen)
    params.update(_template_params(template, options, spec))
    return rendered, params


def _icc_form(options: dict[str, Any]) -> None:
    """metrics/icc.py: the packed form (rater_digits > 0) counts no rater blocks and binds the
    profile's categories; the joined form (0) binds none. Its statement has no rater patterns
    (icc_from_patterns is sql/coefficients.sql.j2's)."""
    if options["icc_from_patterns"]:
        raise OptionError("icc reads its ratings itself: icc_from_patterns=true is the coefficients "
                          "statement's (render coefficients with rater_patterns=true)")
    if options["rater_digits"]:
        if not options["categories"] or "label" in options["categories"]:
            raise OptionError("icc's packed form (rater_digits=k, k raters) renders for given "
                              "number categories, e.g. categories=1,2,3,4,5")
        options["rater_blocks"] = 0
    else:
        options["categories"] = []


def _icc_from_patterns(options: dict[str, Any]) -> None:
    """metrics/coefficient.py: the ICC from the statement's rater patterns reads the digits of
    ``rater_digits`` raters from them, so it needs the patterns and number categories."""
    if (not options["rater_patterns"] or not options["rater_digits"] or not options["categories"]
            or "label" in options["categories"]):
        raise OptionError("the ICC from the rater patterns (icc_from_patterns=true) renders with "
                          "rater_patterns=true, rater_digits=k (k raters) and number categories, "
                          "e.g. categories=1,2,3,4,5")


def _sheet_rater(column: str) -> str:
    """The rater a labelling column stands for (workflows/sheet.py _columns): Annotator_<n>,
    LLM_Judge, Consensus, else the column's own name."""
    from .workflows.sheet import ANNOTATOR, CONSENSUS, JUDGE

    found = ANNOTATOR.match(column)
    if found:
        return f"Annotator_{int(found.group(1))}"
    return {"llm_judge_verdict": JUDGE, "final_consensus_label": CONSENSUS}.get(column.lower(), column)


def _template_params(template: str, options: dict[str, Any], spec: RatingsSpec) -> dict[str, Any]:
    """Sample values of the parameters a template's own call binds (beyond SAMPLE_PARAMS), for
    the counts its options hold: the raters a call names, the listed traces, the cumulative
    prevalences, a sheet's labelling columns and breakdowns."""
    from .workflows.sheet import BLANK_LEVEL, LABELS, MAX_EXAMPLES

    def rater(i: int) -> str:
        return SAMPLE_RATERS[i] if i < len(SAMPLE_RATERS) else f"rater_{i}"

    out: dict[str, Any] = {}
    if template in ("named_raters", "concordance", "cohen_pairs"):
        out.update({f"rater_{i}": rater(i) for i in range(options["named_raters"])})
    if template == "alt_test":                          # alt_test(judges=["ann", ...]), humans after them
        out.update({f"judge_{i}": rater(i) for i in range(options["n_judges"])})
        out.update({f"human_{i}": rater(options["n_judges"] + i) for i in range(options["n_humans"])})
    if template == "lookup_rows":                       # a declared domain ["no", "yes"]
        for i, label in enumerate(("no", "yes")):
            out.update({f"row_{i}_0": label, f"row_{i}_1": i + 1, f"row_{i}_2": float(i + 1)})
    if template == "concordance":                       # 95% (concordance(ci=0.95, level=0.95))
        out.update(z_ci=SAMPLE_PARAMS["z"], z_limits=SAMPLE_PARAMS["z"])
    if template == "report_traces":                     # irr()'s first listed traces
        for i in range(options["n_traces"]):
            out[f"trace_metric_{i}"] = spec.default_metric
            out[f"trace_item_{i}"] = i + 1 if options["numeric_items"] else str(i + 1)
    if template == "plan_simulation":                   # planning.py: n_sim studies, equal prevalences
        k = options["n_categories"]
        out.update(n_studies=200, n_items=50, n_raters=2, kappa=0.6)
        out.update({f"cum_{c}": (c + 1) / k for c in range(k - 1)})
    if template == "calibration_sample":                # calibration_sample(n_per_stratum=4, seed=0)
        out.update(seed=0, n_pass=2, n_fail=2, blank_level=BLANK_LEVEL)
    if template == "sheet_examples":
        out.update({f"column_{i}": c for i, c in enumerate(options["label_columns"])},
                   max_examples=MAX_EXAMPLES)
    if template == "sheet_long":
        out.update({f"rater_{i}": _sheet_rater(c) for i, c in enumerate(options["label_columns"])},
                   default_metric="label", blank_level=BLANK_LEVEL)
    if template in ("sheet_long", "sheet_agreement", "sheet_pairs"):
        out.update({f"dimension_{i}": b for i, b in enumerate(options["breakdowns"])})
    if template in ("sheet_agreement", "sheet_disagreements", "sheet_pairs"):
        out.update(blank_level=BLANK_LEVEL)
    if template == "sheet_agreement":                   # the labels sheet_checks lets through
        out.update({f"category_{i}": c for i, c in enumerate(LABELS)}, default_metric="label")
    if template in ("sheet_confusion", "sheet_pairs"):
        out.update({f"rater_{i}": _sheet_rater(c) for i, c in enumerate(options["label_columns"])})
    if template == "sheet_pairs":
        out.update(default_metric="label")
    return out


def _number(value: Any) -> bool:
    try:
        float(value)
        return True
    except (TypeError, ValueError):
        return False


def render(name: str, *, dialect: str = "duckdb", relation: str = "ratings", item: str = "item",
           rater: str = "rater", value: str = "value", metric: str | None = None,
           group_by: Sequence[str] | None = None, explain: bool = False, source: Any = None,
           con: Any = None, **choices: Any) -> str:
    """The SQL of a metric (or ``sql/<name>.sql.j2``) with a header, ready to run by hand.

    ``explain=True``: the route instead, every producer the statement uses (what it gathers, why);
    with ``source=`` (and ``con=``) the route a call on that source takes, from its profile.

    >>> sql = render("krippendorff_alpha", level="ordinal")
    >>> sql.splitlines()[0]
    '-- agreement-sql: coefficients (duckdb)'
    """
    if explain:
        return explain_route(name, source=source, con=con, item=item, rater=rater, value=value,
                             metric=metric, group_by=group_by, **choices)
    if source is not None or con is not None:
        raise OptionError("source= and con= are for explain=True (render prints the SQL for a "
                          "relation you name with relation=)")
    checks = bool(choices.pop("checks", True))
    rendered, params = statement(name, dialect=dialect, relation=relation, item=item,
                                 rater=rater, value=value, metric=metric, group_by=group_by or (),
                                 checks=checks, script=True, **choices)
    return script(rendered, params)


def script(rendered: Rendered, params: dict[str, Any]) -> str:
    """The rendering as printed: a header naming the relations, the lines that set the
    parameters (DuckDB, Spark, psql) or their values (BigQuery, Snowflake), the setup the
    statement calls, and the statement, ended by a semicolon: it runs as printed in the
    dialect's client (``duckdb < file.sql``, ``spark-sql -f``, ``psql -f``)."""
    values = {p: params[p] for p in rendered.params if p in params}
    return rendered.script(values)


def explain_route(name: str, *, source: Any = None, con: Any = None, item: str = "item",
                  rater: str = "rater", value: str = "value", metric: str | None = None,
                  group_by: Sequence[str] | None = None, **choices: Any) -> str:
    """The route of ``name``'s statement as text: with ``source`` decided from its profile as a
    call decides it (agreement_sql.routes.predict: nothing is run but the profile), else the
    route of the options render would use (the counts form, or ``form=wide categories=...``)."""
    from .registry import lookup

    try:
        entries = [lookup(name)]
        statement = "coefficients"
    except OptionError:
        entries = []
        statement = name
    if name == "coefficients":
        from .registry import REGISTRY
        entries = list(REGISTRY.values())
    opts = validate(weights=choices.get("weights"), level=choices.get(
        "level", DEFAULT_LEVEL))
    if source is None:
        given = {k: _listed(k, _coerce(v)) for k, v in choices.items()}
        form = given.get("form", "wide" if given.get("categories") else "counts")
        taken = {"units": form, "rater_bits": "bits" if int(given.get("rater_blocks", 1)) else "none"}
        if taken["rater_bits"] == "bits" and statement in routes.LISTED_RATERS_STATEMENTS:
            # a rendering made ahead of the data has no profile to list the raters from
            taken["rater_list"] = "scan"
        if given.get("rater_patterns"):
            taken["rater_patterns"] = "patterns"
        where = "the options given (no source: pass source= for a call's route)"
    else:
        from .metrics.coefficient import needs as coefficient_needs
        from .profile import read_profile
        from .session import ratings_session

        with ratings_session(source, con=con, item=item, rater=rater, value=value,
                             metric=metric, group_by=list(group_by or ()) or None) as spec:
            profile = read_profile(spec)
            wanted = (coefficient_needs(entries, opts) if entries
                      else routes.STATEMENT_NEEDS.get(statement, routes.Needs()))
            route = routes.predict(profile, statement, wanted)
            taken = dict(route.taken)
            if statement == "icc" or (statement == "coefficients" and profile.totals["n_labels"] == 0):
                taken["icc"] = routes.icc_producer(profile, route if statement != "icc" else None)
            if statement == "judge_agreement":
                taken["judges"] = routes.judges_producer(route)
            where = spec.relation.description
    lines = [f"-- agreement-sql route: {statement} on {where}"]
    lines += [f"--   {line}" for line in routes.describe(taken)]
    return "\n".join(lines) + "\n"

