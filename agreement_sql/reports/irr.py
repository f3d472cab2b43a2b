"""The Human Evaluation Workshop IRR report (seeds 000 and 001), key for key.

Flow: register the source (copied once into a temporary canonical table when it is costly to
read again: text files, the workshop export's ratings objects, a duplicate policy) -> the
ratings profile (agreement_sql/profile.py) -> input checks (typed errors) -> the seed's
validation (error-shaped dict) -> scores, patterns, disagreement ranking -> the seed's
``details`` dict, rounded as the seed rounds and decided on unrounded values.

One pass (issue 5): with at most 16 distinct ratings and 320 raters (the profile's caps) the
report is one statement, sql/irr_report.sql.j2: one per-unit aggregation (a count column per
rating value, the rater bits' ORs) read by every part; it also counts the input problems
(checked by RatingsProfile.verify before any number is used) and the ratings outside 0..5
(sql/irr_validation.sql.j2 then runs only to name the first). Otherwise the statements
irr_validation, irr_scores, irr_patterns and trace_disagreement each read the ratings, as
before, and with more than 16 distinct ratings (continuous scores) pairwise % and A^HH use the
window form (sql/_value_windows.sql.j2). Every route gives the same report
(tests/test_irr_one_pass.py).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..checks import check_ratings
from ..errors import OptionError
from ..metrics._common import scale_info, scale_params
from ..interpret import disagreement_label, workshop_label
from ..profile import profile_ratings
from ..ratings import RatingsSpec, materialize
from ..results import IRRError, IRRReport, PerMetricScore, TraceDisagreement
from ..runner import execute
from ..scales import register_scales
from ..session import ratings_session
from .suggestions import LOW_CRITERIA, metric_suggestions, more_message, pattern_message

RATING_RANGE = (0.0, 5.0)      # seed validation 2, for metrics without a declared scale
PRIORITY_SD = 1.5
EXTREME_RANGE = 4.0
MEAN_GAP = 2.0

CONVENTIONS = {
    "pairs": "every unordered pair of raters on the same trace, pooled over traces",
    "primary": "exact agreement for binary questions, adjacent (|a-b| <= 1) otherwise",
    "binary_detection": "a question without a declared scale is binary when every rating is 0 or 1",
    "human_agreement": "GDPval A^HH: ratings normalised to [0,1] by the question's scale "
                       "(Likert 1..5 unless declared), mean over traces of mean 1-|h_i-h_j|",
    "krippendorff_alpha": "interval level, coincidence matrix, clamped to [-1, 1]",
    "missing_data": "a missing rating has no row; traces with fewer than two ratings are left out",
    "overall": "unweighted mean over questions that have at least one trace rated twice",
    "decisions": "acceptable and ready_to_proceed compare unrounded scores with the threshold",
    "rounding": "percentages to 1 decimal, completeness, alpha and A^HH to 3 decimals",
}


def irr(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
        metric: str | None = None, scales: Mapping[str, Any] | None = None,
        threshold: float = 75.0, on_duplicate: str | None = None, max_traces: int = 100,
        max_patterns: int = 20, con: Any = None) -> IRRReport | IRRError:
    """The workshop IRR report: pairwise agreement %, GDPval A^HH and Krippendorff's alpha.

    Returns seed 001's ``details`` dict (plus ``trace_disagreements`` and ``conventions``).
    When the seed's validation fails (fewer than 2 annotations, a rating outside 0..5 for an
    undeclared question, fewer than 2 raters, fewer than 2 traces rated by several raters) it
    returns the seed's error-shaped dict instead of raising. Unusable input (missing column,
    non-numeric rating, duplicate rating without ``on_duplicate``) raises an AgreementError.
    ``max_traces`` caps ``trace_disagreements`` (largest sigma first; None for all) and
    ``max_patterns`` the trace patterns listed per question.
    """
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate) as spec:
        scales_rel = register_scales(spec.source, scales)
        if _copy_first(spec):
            spec = materialize(spec)
        checks = {"scales": scales_rel, "allow_empty": True}
        profile = profile_ratings(spec, numeric=True, **checks)
        con_ = spec.source.con
        options = spec.options(scales=scales_rel)
        params = spec.params(rating_min=RATING_RANGE[0], rating_max=RATING_RANGE[1])
        if profile.fused and profile.wide:
            # one statement, one pass: every part from the unit profile
            options = {**options, **profile.options()}
            params.update(profile.params())
            rows = execute(con_, "irr_report", options,
                           {**params, **_score_params(threshold), **_pattern_params(max_patterns),
                            **_trace_params(max_traces)})
            validation = _part(rows, "validation")[0]
            profile.verify([validation], **checks)
            if validation["n_invalid"]:      # name the first rating outside 0..5
                validation = execute(con_, "irr_validation", options, params)[0]
            failure = _validate(validation)
            if failure is not None:
                return failure
            scores, patterns = _part(rows, "scores"), _part(rows, "patterns")
            traces = [{**t, "item": t["trace_item"]} for t in _part(rows, "traces")]
        else:
            if not profile.problems_checked:
                check_ratings(spec, numeric=True, **checks)
            # continuous scores: pairwise % and A^HH from windows over the sorted ratings
            options = {**options, "window_form": not profile.wide}
            validation = execute(con_, "irr_validation", options, params)[0]
            failure = _validate(validation)
            if failure is not None:
                return failure
            scores = execute(con_, "irr_scores", {**options, "level": "interval"},
                             {**params, **_score_params(threshold)})
            patterns = execute(con_, "irr_patterns", options, {**params, **_pattern_params(max_patterns)})
            traces = execute(con_, "trace_disagreement", options, {**params, **_trace_params(max_traces)})
    _check_declared(scales, scores)
    return _report(validation, scores, patterns, traces, float(threshold), scales)


def _score_params(threshold: float) -> dict[str, Any]:
    return scale_params(threshold=float(threshold), adjacent_tolerance=1.0)


def _pattern_params(max_patterns: int) -> dict[str, Any]:
    return {**scale_params(), "extreme_range": EXTREME_RANGE, "mean_gap": MEAN_GAP,
            "max_patterns": int(max_patterns)}


def _trace_params(max_traces: int | None) -> dict[str, Any]:
    return {"priority_sd": PRIORITY_SD,
            "max_traces": int(max_traces) if max_traces is not None else 2**62}


def _part(rows: list[dict[str, Any]], part: str) -> list[dict[str, Any]]:
    """The rows of one part of the irr_report statement, already in order."""
    return [r for r in rows if r["part"] == part]


def _copy_first(spec: RatingsSpec) -> bool:
    """Copy the ratings into a temporary table first? When reading the source again is costly:
    text files to parse again, the workshop export's ratings objects (unnested per question),
    views of unknown cost, or a duplicate policy (input order numbered once)."""
    return bool(spec.struct_fields) or spec.on_duplicate is not None \
        or not spec.source.cheap_scan


def _validate(v: dict[str, Any]) -> IRRError | None:
    n = int(v["num_annotations"] or 0)
    if n < 2:
        return _error("Need at least 2 annotations to calculate IRR", n)
    if v.get("invalid_x") is not None:       # the one-pass report names it only on demand
        err = _error(f"Invalid rating {_seed_number(v['invalid_x'])}: must be between 0 and 5", n)
        err["invalid_rating"] = {"item": str(v["invalid_item"]), "rater": v["invalid_rater"],
                                 "metric": v["invalid_metric"], "value": v["invalid_x"]}
        return err
    if v["num_raters"] < 2:
        return _error(f"Need at least 2 raters to calculate IRR, got {v['num_raters']}", n)
    if v["traces_multi"] < 2:
        return _error(f"Need at least 2 traces rated by multiple raters, got {v['traces_multi']}", n)
    return None


def _error(message: str, n: int) -> IRRError:
    return IRRError(error=message, metric_used="none", num_annotations=n, score=0.0,
                    ready_to_proceed=False)


def _seed_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _check_declared(scales: Mapping[str, Any] | None, scores: list[dict[str, Any]]) -> None:
    present = [r["metric"] for r in scores if r["metric"] is not None]
    unknown = [m for m in (scales or {}) if m not in present]
    if unknown:
        raise OptionError(f"scales names question(s) {', '.join(map(repr, unknown))} that have no "
                          f"ratings; questions present: {', '.join(map(repr, present))}")


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _report(v: dict[str, Any], scores: list[dict[str, Any]], patterns: list[dict[str, Any]],
            traces: list[dict[str, Any]], threshold: float,
            scales: Mapping[str, Any] | None) -> IRRReport:
    overall = next(r for r in scores if r["metric"] is None)
    per_metric: dict[str, PerMetricScore] = {}
    all_patterns: list[str] = []
    for row in (r for r in scores if r["metric"] is not None):
        binary = bool(row["is_binary"])
        messages = []
        for p in (p for p in patterns if p["metric"] == row["metric"]):
            messages.append(pattern_message(p, binary))
            if p["n_more"]:
                messages.append(more_message(int(p["n_more"])))
        for text in messages:
            if text not in all_patterns:
                all_patterns.append(text)
        per_metric[row["metric"]] = PerMetricScore(
            score=_round(row["primary_score"], 1),
            exact_agreement=_round(row["exact_agreement"], 1),
            adjacent_agreement=_round(row["adjacent_agreement"], 1),
            interpretation=workshop_label(row["primary_score"]),
            acceptable=bool(row["acceptable"]),
            suggestions=metric_suggestions(primary=row["primary_score"], exact=row["exact_agreement"],
                                           adjacent=row["adjacent_agreement"], is_binary=binary,
                                           acceptable=bool(row["acceptable"]),
                                           lo=row["scale_lo"], hi=row["scale_hi"]),
            is_binary=binary,
            krippendorff_alpha=_round(row["krippendorff_alpha"], 3),
            human_agreement=_round(row["human_agreement"], 3),
            problematic_patterns=messages,
            scale=scale_info(row, scales),
        )
    score = overall["primary_score"]
    report = IRRReport(
        metric_used="Pairwise Agreement",
        score=_round(score, 1) if score is not None else 0.0,
        interpretation=workshop_label(score) or "Poor agreement",
        ready_to_proceed=bool(overall["acceptable"]),
        threshold=threshold,
        suggestions=[LOW_CRITERIA] if any(not m["acceptable"] for m in per_metric.values()) else [],
        num_raters=int(v["num_raters"]),
        num_traces=int(v["num_traces"]),
        num_annotations=int(v["num_annotations"]),
        completeness=round(v["completeness"], 3),
        missing_data=v["completeness"] < 1.0,
        per_metric_scores=per_metric,
        problematic_patterns=all_patterns,
        trace_disagreements=[_trace(t) for t in traces],
        conventions=dict(CONVENTIONS),
    )
    if overall["human_agreement"] is not None:
        report["human_agreement"] = round(overall["human_agreement"], 3)
    return report


def _trace(row: dict[str, Any]) -> TraceDisagreement:
    return TraceDisagreement(trace_id=str(row["item"]), metric=row["metric"], std_dev=row["std_dev"],
                             label=disagreement_label(row["std_dev"]), priority=bool(row["priority"]),
                             num_ratings=int(row["n_ratings"]), mean=row["mean"], range=row["spread"])
