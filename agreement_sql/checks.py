"""Input checks: one scan counts every problem; a second query fetches examples only on error.

Principle 6: bad input gets a typed error that names the column, value or row, and nothing is
dropped silently. NULL ratings are missing ratings (documented), every other problem raises.
"""
from __future__ import annotations

from typing import Any

from .errors import DuplicateRatingError, InvalidRatingError, MissingKeyError, SourceError
from .ratings import RatingsSpec
from .runner import execute

MAX_EXAMPLES = 5


def check_ratings(spec: RatingsSpec, *, numeric: bool = True, scales: str | None = None,
                  allow_empty: bool = False) -> dict[str, Any]:
    """Raise on unusable input; return the counts row (``n_ratings`` etc.) otherwise."""
    options = spec.options(scales=scales, on_duplicate=None, with_row_number=False)
    counts = execute(spec.source.con, "input_checks", options, spec.params())[0]
    if counts["n_ratings"] == 0 and allow_empty:
        return counts
    if counts["n_ratings"] == 0:
        raise SourceError(f"{spec.source.description} has no ratings (no row with a non-NULL "
                          f"{spec.value!r})")
    if counts["n_null_item"] or counts["n_null_rater"] or counts["n_null_metric"] or counts["n_null_slice"]:
        rows = _examples(spec, options, "null_key")
        missing = [name for name, key in ((spec.item, "n_null_item"), (spec.rater, "n_null_rater"),
                                          (spec.metric, "n_null_metric")) if name and counts[key]]
        missing += list(spec.group_by) if counts["n_null_slice"] else []
        raise MissingKeyError(f"column(s) {', '.join(repr(m) for m in missing)} are empty (NULL) in "
                              f"{_total(counts, 'n_null_item', 'n_null_rater', 'n_null_metric', 'n_null_slice')} "
                              f"rating row(s), e.g. {_show(spec, rows[0])}")
    if numeric and counts["n_not_numeric"]:
        rows = _examples(spec, options, "not_numeric")
        raise InvalidRatingError(f"{counts['n_not_numeric']} rating(s) in column {spec.value!r} are not "
                                 f"numbers, e.g. {rows[0]['value_text']!r} at {_show(spec, rows[0])}")
    if counts["n_out_of_scale"]:
        rows = _examples(spec, options, "out_of_scale")
        raise InvalidRatingError(f"{counts['n_out_of_scale']} rating(s) lie outside the declared scale, "
                                 f"e.g. {rows[0]['value_text']!r} at {_show(spec, rows[0])}")
    if counts["n_duplicate"] and spec.on_duplicate in (None, "error"):
        rows = _examples(spec, options, "duplicate")
        shown = "; ".join(f"{_show(spec, r)} rated {r['n_times']} times" for r in rows)
        raise DuplicateRatingError(
            f"{rows[0]['n_found']} (item, rater{', metric' if _has_metric(spec) else ''}) key(s) occur "
            f"more than once: {shown}; pass on_duplicate='first', 'last' or 'mean' to choose one rating")
    return counts


def _examples(spec: RatingsSpec, options: dict[str, Any], problem: str) -> list[dict[str, Any]]:
    return execute(spec.source.con, "input_examples", {**options, "problem": problem},
                   spec.params(max_examples=MAX_EXAMPLES))


def _has_metric(spec: RatingsSpec) -> bool:
    return spec.metric_label is not None


def _total(counts: dict[str, Any], *keys: str) -> int:
    return sum(counts[k] or 0 for k in keys)


def _show(spec: RatingsSpec, row: dict[str, Any]) -> str:
    parts = [f"{spec.item}={row['item']!r}", f"{spec.rater}={row['rater']!r}"]
    if _has_metric(spec):
        parts.append(f"{spec.metric_label}={row['metric']!r}")
    parts += [f"{g}={v!r}" for g, v in spec.describe_slice(row).items()]
    return "(" + ", ".join(parts) + ")"
