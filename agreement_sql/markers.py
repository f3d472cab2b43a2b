"""Labels spelled like a missing-value marker: rated, and said so (docs/decisions/0014).

A label is what the data says, so ``NA``, ``N/A``, ``null`` ... (constants.MISSING_MARKERS, any
case) are categories like any other label unless the caller declares them missing
(``missing=["NA"]``). A file written by R (``write.csv`` writes ``NA`` for a missing value) or
by hand often means "no rating" by them, so the ratings profile counts them
(sql/ratings_profile.sql.j2) and every result that rated them carries the line below in its
``conventions``. The wording lives here only; result builders call :func:`marker_conventions`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from .profile import Profile

KEY = "missing_markers"


def marker_note(count: int, example: str) -> str:
    """The sentence naming ``count`` rated labels spelled like a missing marker (``example``)."""
    return (f"{count} rating(s) are labels spelled like a missing-value marker (e.g. {example!r}) "
            f"and were rated as a category; pass missing=[{example!r}] to count them as missing "
            "instead")


def marker_hint(profile: "Profile") -> str:
    """For an error refusing labels: how many of them are spelled like a missing-value marker
    and how to declare them missing (empty when none is)."""
    keys = list(profile.keys.values())
    count = sum(k.n_marker_labels for k in keys)
    examples = sorted(k.marker_label for k in keys if k.n_marker_labels and k.marker_label)
    if not count or not examples:
        return ""
    return (f"; {count} of them are spelled like a missing-value marker (e.g. {examples[0]!r}): "
            f"pass missing=[{examples[0]!r}] if they mean no rating")


def marker_conventions(profile: "Profile", row: Mapping[str, Any] | None = None) -> dict[str, str]:
    """``{"missing_markers": ...}`` when the ratings of ``row``'s metric and slice (every
    rating, when ``row`` is None) hold labels spelled like a missing-value marker; else {}."""
    if row is not None:
        found = profile.of(dict(row))
        keys = [found] if found is not None else []
    else:
        keys = list(profile.keys.values())
    count = sum(k.n_marker_labels for k in keys)
    examples = sorted(k.marker_label for k in keys if k.n_marker_labels and k.marker_label)
    if not count or not examples:
        return {}
    return {KEY: marker_note(count, examples[0])}
