"""The Human Evaluation Workshop IRR report (seeds 000 and 001), key for key.

Flow: open the call's session -> the ratings profile (agreement_sql/profile.py: typed errors
for unusable input; the scales declared or detected) -> one statement, sql/irr_report.sql.j2,
in the form the plan chose (wide: a count column per rating value; counts: continuous
scores, pairwise % and A^HH from windows over each trace's sorted ratings) -> the seed's
validation (an error-shaped dict) -> the seed's ``details`` dict, rounded as the seed rounds and
decided on unrounded values.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

from .. import checks
from ..public import public
from ..constants import SEED_RATING_RANGE
from ..errors import OptionError
from ..interpret import at_least, disagreement_label, workshop_label
from ..metrics._common import every_key, scale_info
from .. import routes
from ..profile import Profile, read_profile
from ..results import IRRError, IRRReport, PerMetricScore, TraceDisagreement
from ..scales import register_all_scales, register_scales
from ..session import ratings_session
from ..sources import check_layout
from .suggestions import LOW_CRITERIA, metric_suggestions, more_message, pattern_message

PRIORITY_SD = 1.5
MAX_PATTERNS = 20        # trace patterns listed per question (irr()'s max_patterns)
EXTREME_RANGE = 4.0
MEAN_GAP = 2.0

CONVENTIONS = {
    "pairs": "every unordered pair of raters on the same trace, pooled over traces",
    "primary": "exact agreement for binary questions, adjacent (|a-b| <= 1) otherwise",
    "binary_detection": "a question without a declared scale is binary when every rating is 0 or 1",
    "human_agreement": "GDPval A^HH: ratings normalised to [0,1] by the question's scale "
                       "(Likert 1..5 unless declared), mean over traces of mean 1-|h_i-h_j|",
    "krippendorff_alpha": "interval level, coincidence matrix, clamped to [-1, 1]",
    "missing_data": "a missing rating has no row (NULL, NaN, blank and declared placeholders "
                    "are missing); traces with fewer than two ratings are left out",
    "overall": "unweighted mean over questions that have at least one trace rated twice",
    "decisions": "acceptable and ready_to_proceed compare unrounded scores with the threshold",
    "rounding": "percentages to 1 decimal, completeness, alpha and A^HH to 3 decimals",
}


def _whole(value: Any, name: str, *, allow_none: bool = False) -> int | None:
    if value is None and allow_none:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise OptionError(f"{name} must be a whole number >= 0{' or None' if allow_none else ''}, "
                          f"got {value!r}")
    return int(value)


def _threshold(value: Any) -> float:
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise OptionError(f"threshold must be a percentage such as 75, got {value!r}")
    return float(value)


@public()
def irr(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
        metric: str | None = None, scales: Mapping[str, Any] | None = None,
        threshold: float = 75.0, on_duplicate: str | None = None, missing: Any = None,
        max_traces: int | None = 100, max_patterns: int = MAX_PATTERNS, con: Any = None,
        layout: str | None = None, rater_columns: Sequence[str] | None = None,
        orientation: str | None = None) -> IRRReport | IRRError:
    """The workshop IRR report: pairwise agreement %, GDPval A^HH and Krippendorff's alpha.

    Returns seed 001's ``details`` dict (plus ``trace_disagreements``, ``n_excluded`` and
    ``conventions``). When the seed's validation fails (fewer than 2 annotations, a rating
    outside 0..5 for an undeclared question, fewer than 2 raters, fewer than 2 traces rated by
    several raters) it returns the seed's error-shaped dict instead of raising. Unusable input
    (missing column, non-numeric rating, duplicate rating without ``on_duplicate``) raises an
    AgreementError. ``max_traces`` caps ``trace_disagreements`` (largest sigma first; None for
    all) and ``max_patterns`` the trace patterns listed per question.
    """
    threshold, cap_traces, cap_patterns = checked_options(threshold, max_traces, max_patterns, scales)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate, missing=missing,
                         layout=check_layout(layout, rater_columns, orientation)) as spec:
        return irr_on(spec, workshop_profile(spec, scales), scales=scales, threshold=threshold,
                      max_traces=cap_traces, max_patterns=cap_patterns)


def checked_options(threshold: Any, max_traces: Any, max_patterns: Any,
                    scales: Any) -> tuple[float, int | None, int]:
    """irr()'s keyword arguments, checked: (threshold, max_traces, max_patterns)."""
    if scales is not None and not isinstance(scales, Mapping):
        raise OptionError(f"scales must map question names to scales, e.g. "
                          f"{{'tone': (1, 5), 'safe': 'binary'}}, got {scales!r}")
    return (_threshold(threshold), _whole(max_traces, "max_traces", allow_none=True),
            _whole(max_patterns, "max_patterns") or 0)


def workshop_profile(spec: Any, scales: Mapping[str, Any] | None) -> Profile:
    """The ratings profile the report reads (with the declared scales), checked."""
    profile = read_profile(spec, scales=register_scales(spec.session, scales))
    profile.check(numbers=True, allow_empty=True, what="the workshop report (numeric ratings)")
    _check_declared(scales, profile)
    return profile


def irr_on(spec: Any, profile: Profile, *, scales: Mapping[str, Any] | None, threshold: float,
           max_traces: int | None, max_patterns: int) -> IRRReport | IRRError:
    """The report on the ratings of an open call (:func:`workshop_profile` read them): one
    statement, sql/irr_report.sql.j2. The HTML report calls this in its own session, so that its
    other statements read the same profile."""
    all_scales = register_all_scales(spec.session, profile, scales)
    route = routes.decide(profile, "irr_report")
    options = {**spec.options(), **route.options("irr_report"), "scales": all_scales, "level": "interval"}
    params = {**spec.params(), **route.params(), **_score_params(threshold),
              **_pattern_params(max_patterns), **_trace_params(max_traces)}
    rows = route.query(spec, "irr_report", options, params)
    validation = _part(rows, "validation")[0]
    failure = _validate(validation, profile, scales)
    if failure is not None:
        return failure
    scores, patterns = _part(rows, "scores"), _part(rows, "patterns")
    traces = [{**t, "item": t["trace_item"]} for t in _part(rows, "traces")]
    report = _report(validation, every_metric(profile, scores), patterns, traces, threshold,
                     scales)
    report["n_excluded"] = _excluded(profile, validation)
    return report


def _excluded(profile: Profile, validation: dict[str, Any]) -> dict[str, int]:
    """Input rows the report did not count, by reason (docs/decisions/0005)."""
    t = profile.totals
    return {"missing": t["n_missing"], "placeholder": t["n_placeholder"],
            "duplicate": int(validation.get("n_merged") or 0)}


def _score_params(threshold: float) -> dict[str, Any]:
    return {"adjacent_tolerance": 1.0}


def _pattern_params(max_patterns: int | None) -> dict[str, Any]:
    return {"extreme_range": EXTREME_RANGE, "mean_gap": MEAN_GAP, "max_patterns": max_patterns}


def _trace_params(max_traces: int | None) -> dict[str, Any]:
    return {"priority_sd": PRIORITY_SD,
            "max_traces": int(max_traces) if max_traces is not None else 2**62}


def _part(rows: list[dict[str, Any]], part: str) -> list[dict[str, Any]]:
    """The rows of one part of the irr_report statement, already in order."""
    return [r for r in rows if r["part"] == part]


def _validate(v: dict[str, Any], profile: Profile, scales: Mapping[str, Any] | None) -> IRRError | None:
    """Seed 001's validation, in its order, on the statement's counts."""
    n = int(v["num_annotations"] or 0)
    if n < 2:
        return _error("Need at least 2 annotations to calculate IRR", n)
    lo, hi = SEED_RATING_RANGE
    outside = any(kp.x_min is not None and kp.x_max is not None and (kp.x_min < lo or kp.x_max > hi)
                  for key, kp in profile.keys.items() if key[0] not in (scales or {}))
    if outside:       # name the first rating outside 0..5 of a question without a declared scale
        row = checks.examples(profile, "outside_range", rating_min=lo, rating_max=hi)[0]
        err = _error(f"Invalid rating {_seed_number(row['x'])}: must be between 0 and 5", n)
        err["invalid_rating"] = {"item": str(row["item"]), "rater": row["rater"],
                                 "metric": row["metric"], "value": row["x"]}
        return err
    if int(v["num_raters"] or 0) < 2:
        return _error(f"Need at least 2 raters to calculate IRR, got {int(v['num_raters'] or 0)}", n)
    if int(v["traces_multi"] or 0) < 2:
        return _error(f"Need at least 2 traces rated by multiple raters, got {int(v['traces_multi'] or 0)}", n)
    return None


def _error(message: str, n: int) -> IRRError:
    return IRRError(error=message, metric_used="none", num_annotations=n, score=0.0,
                    ready_to_proceed=False)


def _seed_number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _check_declared(scales: Mapping[str, Any] | None, profile: Profile) -> None:
    present = [key[0] for key, kp in profile.keys.items() if key[0] is not None and kp.n_ratings]
    unknown = [m for m in (scales or {}) if m not in present]
    if unknown:
        raise OptionError(f"scales names question(s) {', '.join(map(repr, unknown))} that have no "
                          f"ratings; questions present: {', '.join(map(repr, present))}")


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def every_metric(profile: Profile, scores: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The statement's score rows and a row of NULLs for each metric of the input it did not
    reach (every rating missing, or no trace rated twice): a question the input holds is in
    ``per_metric_scores``, null, rather than gone (docs/decisions/0005)."""
    found = {(r["metric"],): r for r in scores if r["metric"] is not None}
    blank = dict.fromkeys(("primary_score", "exact_agreement", "adjacent_agreement", "is_binary",
                           "scale_kind", "scale_lo", "scale_hi", "krippendorff_alpha",
                           "human_agreement"))
    rows = every_key(profile, found, lambda key: {**blank, **key}).values()
    return [r for r in scores if r["metric"] is None] + [r for r in rows if r["metric"] is not None]


def _report(v: dict[str, Any], scores: list[dict[str, Any]], patterns: list[dict[str, Any]],
            traces: list[dict[str, Any]], threshold: float,
            scales: Mapping[str, Any] | None) -> IRRReport:
    overall = next(r for r in scores if r["metric"] is None)
    per_metric: dict[str, PerMetricScore] = {}
    all_patterns: list[str] = []
    for row in (r for r in scores if r["metric"] is not None):
        binary = bool(row["is_binary"])
        acceptable = at_least(row["primary_score"], threshold)
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
            acceptable=acceptable,
            suggestions=metric_suggestions(primary=row["primary_score"], exact=row["exact_agreement"],
                                           adjacent=row["adjacent_agreement"], is_binary=binary,
                                           acceptable=acceptable,
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
        score=round(score, 1) if score is not None else 0.0,
        interpretation=workshop_label(score) or "Poor agreement",
        ready_to_proceed=at_least(score, threshold),
        threshold=threshold,
        # a question with no score (nothing rated twice) is not a low one
        suggestions=[LOW_CRITERIA] if any(not m["acceptable"] and m["score"] is not None
                                          for m in per_metric.values()) else [],
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
