"""A declared value domain: ``domain=[1, 2, 3, 4, 5]`` or ``domain=["low", "mid", "high"]``.

The declaration becomes a small relation (value_text, rank, x) registered beside the source,
as declared scales are (agreement_sql.scales), so templates join it instead of having values
pasted into SQL (sql/_domain.sql.j2). Conventions (docs/alpha_and_bootstrap.md):

* numbers are values: ratings match them by number (``"2"`` and ``"2.0"`` are both 2), and
  ``x`` is the number itself; a numeric domain must be listed in increasing order;
* text labels are ordered categories: ratings match them by exact text, and ``x`` is the
  label's 1-based rank, which the ordinal, interval and ratio metrics use;
* a rating outside the domain is an error (input_checks, checks.check_ratings).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import OptionError
from .sources import Source, generated_name


@dataclass(frozen=True)
class Domain:
    values: tuple[Any, ...]
    numeric: bool
    relation: str | None = None

    def describe(self) -> list[Any]:
        return list(self.values)


def parse_domain(domain: Sequence[Any]) -> Domain:
    """Check a declaration: a non-empty list of distinct numbers (increasing) or of text labels."""
    if isinstance(domain, (str, bytes)) or not isinstance(domain, Sequence):
        raise OptionError(f"domain must be a list of values or labels, e.g. [1, 2, 3] or "
                          f"['low', 'mid', 'high'], got {domain!r}")
    values = list(domain)
    if not values:
        raise OptionError("domain is empty; give the values a rating can take")
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
    if numeric and any(float(a) >= float(b) for a, b in zip(values, values[1:])):
        raise OptionError(f"a numeric domain must be in increasing order, got {values!r}")
    return Domain(values=tuple(values), numeric=numeric)


def register_domain(source: Source, domain: Sequence[Any] | None) -> Domain | None:
    """Register the declaration as a relation beside ``source``; None when nothing is declared."""
    if domain is None:
        return None
    parsed = parse_domain(domain)
    import pyarrow as pa

    table = pa.table({
        "value_text": pa.array([str(v) for v in parsed.values], pa.string()),
        "rank": pa.array(range(1, len(parsed.values) + 1), pa.int64()),
        "x": pa.array([float(v) if parsed.numeric else float(i)
                       for i, v in enumerate(parsed.values, start=1)], pa.float64()),
    })
    name = generated_name("domain")
    source.con.register(name, table)
    source.track("registered", name)
    return Domain(values=parsed.values, numeric=parsed.numeric, relation=name)


def check_domain(spec: Any, domain: Domain | None) -> None:
    """Raise :class:`InvalidRatingError` naming a rating outside ``domain`` and its row."""
    if domain is None:
        return
    from .checks import MAX_EXAMPLES, _show
    from .errors import InvalidRatingError
    from .runner import execute

    # checked after the duplicate policy: a mean of two ratings must itself be a declared value
    options = spec.options(domain_check=domain.relation, domain_numeric=domain.numeric)
    rows = execute(spec.source.con, "domain_checks", options, spec.params(max_examples=MAX_EXAMPLES))
    if rows:
        shown = domain.describe()
        listed = repr(shown) if len(shown) <= 12 else repr(shown[:12])[:-1] + ", ...]"
        raise InvalidRatingError(
            f"{rows[0]['n_outside']} rating(s) in column {spec.value!r} lie outside the declared "
            f"domain {listed}, e.g. {rows[0]['value_text']!r} at {_show(spec, rows[0])}")
