"""The workshop report's words: per-question suggestions and problematic-pattern messages.

Strings are verbatim from seed 001 (dashboards match on them); the rules read unrounded values
that the templates computed. Decision (README, the rules of irr()): the "close but not exact" note is given
whenever adjacent >= 75 and exact < 50, also when the question is acceptable.
"""
from __future__ import annotations

from typing import Any

REVISE = "Agreement is very low - consider revising the rubric for this criterion"
CALIBRATE = "Conduct a calibration session with example traces before re-annotating"
CLARIFY_BINARY = "Clarify what constitutes Pass vs Fail for this criterion"
BORDERLINE = "Discuss specific borderline cases where raters disagreed"
CLOSE = "Raters are close but not exact - this may be acceptable for ordinal scales"
CLARIFY_RUBRIC = "Clarify the rubric description to reduce subjective interpretation"
SIMPLIFY = "Consider simplifying to a binary (Pass/Fail) scale for this criterion"
DISCUSS = "Discuss high-disagreement traces as a group to align understanding"
LOW_CRITERIA = "Some criteria have low agreement - review per-metric details below"
NO_PAIRS = "No trace has two ratings for this criterion - collect overlapping annotations"
RATER_MEANS = "Raters have very different average ratings - consider discussing rating standards"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def anchors(lo: float, hi: float) -> str:
    return f"Provide anchor examples for each rating level ({_num(lo)}-{_num(hi)})"


def metric_suggestions(*, primary: float | None, exact: float | None, adjacent: float | None,
                       is_binary: bool, acceptable: bool, lo: float, hi: float) -> list[str]:
    """Seed 001 ``get_pairwise_improvement_suggestions`` with the documented Decision."""
    if primary is None:
        return [NO_PAIRS]
    close = (not is_binary and adjacent is not None and exact is not None
             and adjacent >= 75.0 and exact < 50.0)
    if acceptable:
        return [CLOSE] if close else []
    out: list[str] = []
    if primary < 50.0:
        out += [REVISE, CALIBRATE]
    if is_binary:
        out += [CLARIFY_BINARY, BORDERLINE]
    elif close:
        out.append(CLOSE)
    else:
        out += [CLARIFY_RUBRIC, anchors(lo, hi)]
        if exact is not None and exact < 30.0:
            out.append(SIMPLIFY)
    out.append(DISCUSS)
    return out


def pattern_message(row: dict[str, Any], is_binary: bool) -> str:
    """One irr_patterns row as the seed's sentence."""
    kind = row["pattern"]
    if kind == "constant_rater":
        if is_binary:
            verdict = "Pass" if row["x"] == 1 else "Fail"
            return f"Rater {row['rater']} always gives {verdict} (no variation)"
        return f"Rater {row['rater']} always gives rating {_num(row['x'])} (no variation)"
    if kind == "split_trace":
        return f"Trace {str(row['item'])[:16]}... has disagreement (Pass vs Fail)"
    if kind == "extreme_trace":
        return f"Trace {str(row['item'])[:16]}... has extreme disagreement (range: {_num(row['spread'])})"
    if kind == "rater_means":
        return RATER_MEANS
    raise ValueError(kind)


def more_message(n_more: int) -> str:
    return f"... and {n_more} more traces with disagreement (see trace_disagreements)"
