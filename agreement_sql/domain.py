"""A declared value domain: ``domain=[1, 2, 3, 4, 5]`` or ``domain=["low", "mid", "high"]``.

The declaration becomes a small relation (value_text, rank, x) registered beside the source,
as declared scales are (agreement_sql.scales), so templates join it instead of having values
pasted into SQL (sql/_domain.sql.j2). Conventions (docs/alpha_and_bootstrap.md):

* numbers are values: ratings match them by number (``"2"`` and ``"2.0"`` are both 2), and
  ``x`` is the number itself; a numeric domain must be listed in increasing order;
* text labels are ordered categories: ratings match them by exact text, and ``x`` is the
  label's 1-based rank, which the ordinal, interval and ratio metrics use;
* a rating outside the domain is an error naming it (the ratings profile counts them).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import OptionError
from .engine import Session
from .runner import lookup_rows


@dataclass(frozen=True)
class Domain:
    values: tuple[Any, ...]
    numeric: bool
    relation: str | None = None

    def describe(self) -> list[Any]:
        return list(self.values)


def parse_domain(domain: Any, any_order: bool = False) -> Domain:
    """Check a declaration: a non-empty list of distinct numbers (increasing, unless
    ``any_order``: scikit-learn's ``labels=``, whose order is the confusion matrix's) or of
    text labels.
    A NumPy array, a pandas Series or Index, or any iterable of values is accepted; NumPy
    scalars count as the numbers they hold."""
    if isinstance(domain, (str, bytes, dict)) or not hasattr(domain, "__iter__"):
        raise OptionError(f"domain must be a list of values or labels, e.g. [1, 2, 3] or "
                          f"['low', 'mid', 'high'], got {domain!r}")
    values = [v.item() if hasattr(v, "item") and not isinstance(v, (str, bytes)) else v
              for v in (domain.tolist() if hasattr(domain, "tolist") else list(domain))]
    if not values:
        raise OptionError("domain is empty; give the values a rating can take")
    values = [_as_number(v) if isinstance(v, str) else v for v in values]
    kinds = set()
    for v in values:
        if isinstance(v, bool) or v is None:
            raise OptionError(f"domain values must be numbers or text labels, got {v!r}")
        if isinstance(v, (int, float)):
            if not math.isfinite(v):
                raise OptionError(f"domain values must be finite numbers, got {v!r}")
            kinds.add("number")
        elif isinstance(v, str):
            kinds.add("text")
        else:
            raise OptionError(f"domain values must be numbers or text labels, got {v!r}")
    if len(kinds) > 1:
        raise OptionError("domain mixes numbers and text labels; give one kind")
    numeric = kinds == {"number"}
    seen: set[Any] = set()
    for v in values:
        key = float(v) if numeric else v
        if key in seen:
            raise OptionError(f"domain lists {v!r} twice")
        seen.add(key)
    if numeric and not any_order and any(float(a) >= float(b) for a, b in zip(values, values[1:])):
        raise OptionError(f"a numeric domain must be in increasing order, got {values!r}")
    return Domain(values=tuple(values), numeric=numeric)


def _as_number(text: str) -> Any:
    """A declared value read by the ratings' rule: trimmed text that reads as a decimal or
    scientific number is that number (docs/decisions/0002); other text is a label, trimmed."""
    stripped = text.strip()
    if "_" not in stripped:
        try:
            number = float(stripped)
            if math.isfinite(number) and stripped.lower() not in ("nan", "inf", "infinity"):
                return int(number) if number.is_integer() and "." not in stripped and "e" not in stripped.lower() else number
        except ValueError:
            pass
    return stripped


def register_domain(session: Session, domain: Sequence[Any] | None,
                    any_order: bool = False) -> Domain | None:
    """Register the declaration as a relation of ``session``; None when nothing is declared."""
    if domain is None:
        return None
    parsed = parse_domain(domain, any_order)
    rows = [(str(v), i, float(v) if parsed.numeric else float(i))
            for i, v in enumerate(parsed.values, start=1)]
    name = lookup_rows(session, [("value_text", "text"), ("rank", "bigint"), ("x", "double")],
                       rows, "domain")
    return Domain(values=parsed.values, numeric=parsed.numeric, relation=name)
