"""Typed errors for unusable input, each naming the column, the value and the row.

The ratings profile (agreement_sql.profile) and a statement's unit counts say *that* there is a
problem and how many rows have it; this module asks sql/input_examples.sql.j2 for the first
offending rows (the same input always names the same rows) and raises the error. Nothing is
dropped silently: a missing value is counted as excluded, every other problem stops the call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .constants import MAX_EXACT_RATING
from .errors import AgreementError, DuplicateRatingError, InvalidRatingError, MissingKeyError
from .runner import query

if TYPE_CHECKING:
    from .profile import Profile

MAX_EXAMPLES = 5


def examples(profile: "Profile", problem: str, **params: Any) -> list[dict[str, Any]]:
    """The first offending rows of one problem (sql/input_examples.sql.j2)."""
    spec = profile.spec
    options = {**spec.options(domain=profile.domain), "scales": profile.scales, "problem": problem}
    return query(spec.session, "input_examples", options,
                 {**spec.params(), "max_examples": MAX_EXAMPLES, **params})


def shown_value(row: dict[str, Any]) -> str:
    """The offending rating as read: a number as a number, a label quoted (long ones cut)."""
    if row.get("label") is not None:
        text = repr(row["label"])
        return text if len(text) <= 60 else text[:56] + "...'"
    x = row.get("x")
    if x is None:
        return "a missing value"
    if MAX_EXACT_RATING <= abs(x) < 2.0 ** 64:
        # the input may have been a neighbouring integer the DOUBLE cannot hold (2^53 + 1)
        return f"{x:.17g} (as read into a floating-point number)"
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))


def raise_example(profile: "Profile", problem: str, count: int | None, message: str,
                  error: type[AgreementError] = InvalidRatingError) -> None:
    """Raise ``error``: the count (else the examples query's), the message, the first row."""
    rows = examples(profile, problem)
    spec = profile.spec
    if count is None:
        count = int(rows[0]["n_found"]) if rows else 0
    text = f"{count} " + message.format(value=spec.value)
    if rows:
        text += f", e.g. {shown_value(rows[0])} at {spec.show_row(rows[0])}"
    raise error(text)


def raise_null_keys(profile: "Profile") -> None:
    spec, t = profile.spec, profile.totals
    rows = examples(profile, "null_key")
    missing = [name for name, key in ((spec.item, "n_null_item"), (spec.rater, "n_null_rater"),
                                      (spec.metric or spec.metric_label, "n_null_metric"))
               if name and t[key]]
    missing += list(spec.group_by) if t["n_null_slice"] else []
    total = sum(t[k] for k in ("n_null_item", "n_null_rater", "n_null_metric", "n_null_slice"))
    shown = f", e.g. {spec.show_row(rows[0])}" if rows else ""
    raise MissingKeyError(f"column(s) {', '.join(repr(m) for m in missing)} are empty (NULL) in "
                          f"{total} row(s){shown}")


def raise_duplicates(profile: "Profile", n_units: int) -> None:
    """The statement found units in which a rater occurs twice."""
    spec = profile.spec
    rows = examples(profile, "duplicate")
    shown = "; ".join(f"{spec.show_row(r)} rated {r['n_times']} times" for r in rows)
    keys = "item, rater" + (", " + spec.metric_label if spec.metric_label else "")
    found = rows[0]["n_found"] if rows else n_units
    raise DuplicateRatingError(
        f"{found} ({keys}) key(s) occur more than once: {shown}; pass on_duplicate='first', "
        "'last' or 'mean' to choose one rating")
