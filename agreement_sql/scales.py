"""Declared scales: ``scales={"q1": "binary", "q2": (1, 7), "q3": "likert", "q4": "1..7"}``.

A declaration becomes a small relation (metric, kind, lo, hi) registered beside the source, so
the templates join it instead of having values pasted into SQL. Metrics without a declaration
are detected from their ratings (all 0/1 -> binary, else Likert 1..5), as in seed 000.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from .errors import OptionError
from .engine import Session
from .runner import lookup_rows

_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:\.\.|-|:)\s*(-?\d+(?:\.\d+)?)\s*$")


def parse_scale(metric: str, declared: Any) -> tuple[str, float, float]:
    """One declaration as (kind, lo, hi)."""
    if isinstance(declared, str):
        text = declared.strip().lower()
        if text == "binary":
            return "binary", 0.0, 1.0
        if text == "likert":
            return "likert", 1.0, 5.0
        found = _RANGE.match(text)
        if found:
            declared = (float(found.group(1)), float(found.group(2)))
    if isinstance(declared, (tuple, list)) and len(declared) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in declared):
        lo, hi = float(declared[0]), float(declared[1])
        if lo >= hi:
            raise OptionError(f"scale for {metric!r}: minimum {lo:g} must be below maximum {hi:g}")
        return "likert", lo, hi
    raise OptionError(f"scale for {metric!r} must be 'binary', 'likert', a (min, max) pair or "
                      f"'min..max', got {declared!r}")


def register_scales(session: Session, scales: Mapping[str, Any] | None) -> str | None:
    """Register the declarations as a relation and return its generated name (None when empty)."""
    if not scales:
        return None
    if not isinstance(scales, Mapping):
        raise OptionError(f"scales must map question names to scales, e.g. "
                          f"{{'tone': (1, 5), 'safe': 'binary'}}, got {scales!r}")
    rows = [(str(metric), *parse_scale(str(metric), declared)) for metric, declared in scales.items()]
    return lookup_rows(session, [("metric", "text"), ("kind", "text"), ("lo", "double"),
                                ("hi", "double")], rows, "scales")


def register_all_scales(session: Session, profile: Any, scales: Mapping[str, Any] | None) -> str:
    """Every metric's scale as one relation (metric, kind, lo, hi): the declared one, else the
    detected one (binary when every rating is 0 or 1, counted by the ratings profile; else
    Likert on 1..5), so the templates join one table whatever was declared."""
    from .constants import LIKERT_DEFAULT

    declared = {str(m): parse_scale(str(m), d) for m, d in (scales or {}).items()}
    rows = []
    for key, kp in profile.keys.items():
        metric = key[0]
        if metric is None:
            continue
        if metric in declared:
            kind, lo, hi = declared[metric]
        elif kp.n_ratings > 0 and kp.all_zero_one:
            kind, lo, hi = "binary", 0.0, 1.0
        else:
            kind, (lo, hi) = "likert", LIKERT_DEFAULT
        rows.append((metric, kind, lo, hi))
    return lookup_rows(session, [("metric", "text"), ("kind", "text"), ("lo", "double"),
                                ("hi", "double")], rows, "scales")
