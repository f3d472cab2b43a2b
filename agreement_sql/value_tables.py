"""Coefficients whose inputs need a value-by-value table, refused (or left out) on many values.

Docs/decisions/0019. Interval alpha, ordinal alpha (from midranks), nominal alpha and the ICC
read sums per unit and per value: their cost is linear in the ratings whatever the number of
distinct values. The kappa family (Cohen, Light, Scott, Fleiss, Conger, Gwet's AC1/AC2,
Brennan-Prediger, percent agreement; sql/_kappa_inputs.sql.j2's kappa_weights, the pair
coefficients' agreement tables) and ratio alpha (whose distance ((c - k)/(c + k))^2 has no
moment form; sql/_alpha_sums.sql.j2's value pairs) sum over pairs of distinct values: q^2 cells,
which on continuous scores (100k distinct values: 10^10 cells) exhausts any memory. Above
:data:`~agreement_sql.constants.MAX_VALUE_TABLE` distinct values such a coefficient is refused
with an error naming the count and the way out, or, in ``coefficients()``'s default set, left
out with the reason (a ``skipped`` entry). Quadratic weights are the exception for the whole
kappa family (the rater-free kappas, Conger's, and Cohen's, Light's and Scott's pair tables):
every sum over pairs of categories splits into moments (routes decision ``kappa_weights``), so
they run at any number of distinct values.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import routes
from .constants import MAX_VALUE_TABLE
from .errors import OptionError
from .profile import Profile
from .runner import query


def needs_table(entry: Any, level: str | None, distance: str | None = None,
                weights: str | None = None, oriented: bool = False) -> bool:
    """The coefficient sums over pairs of distinct values: every kappa-family entry but those
    whose quadratic-weighted sums the moments serve (agreement_sql.routes.by_moments: every
    kappa-family coefficient with weights='quadratic'), and
    alpha at the ratio level or with a distance (docs/decisions/0028: d over every pair of
    labels)."""
    if entry.levels:
        return level == "ratio" or distance is not None
    return not routes.by_moments(entry.family, weights, oriented)


def distinct_values(profile: Profile) -> int:
    """The number of distinct values of the ratings (sql/distinct_values.sql.j2 when the
    profile found more than the wide form's categories; else the profile's categories)."""
    if not profile.many_categories:
        return len(profile.categories)
    spec = profile.spec
    rows = query(spec.session, "distinct_values", spec.options(domain=profile.domain),
                 spec.params())
    return int(rows[0]["n_values"] or 0) if rows else 0


def reason(n_values: int, level: str | None) -> str:
    """Why a table-bound coefficient is not computed on ``n_values`` distinct values, and the
    way out."""
    return (f"{n_values} distinct values: more than {MAX_VALUE_TABLE} "
            "(constants.MAX_VALUE_TABLE), and this coefficient sums over every pair of distinct "
            "values (a table of their square); for scores use krippendorff_alpha(level="
            "'interval') (or 'ordinal'), icc() or concordance(), or bin the values into at most "
            f"{MAX_VALUE_TABLE} categories")


def split(profile: Profile, entries: Sequence[Any], level: str | None, *,
          leave_out: bool, distance: str | None = None, weights: str | None = None,
          oriented: bool = False) -> tuple[list[Any], dict[str, str]]:
    """``entries`` that can run on ``profile``'s ratings, and the left-out ones with their
    reason (``leave_out``: coefficients()'s default set), or an OptionError naming the number
    of distinct values and the way out."""
    bound = [e for e in entries if needs_table(e, level, distance, weights, oriented)]
    if not bound or not profile.many_categories or profile.domain is not None:
        return list(entries), {}
    n_values = distinct_values(profile)
    if n_values <= MAX_VALUE_TABLE:
        return list(entries), {}
    why = reason(n_values, level)
    if not leave_out:
        names = ", ".join(e.name for e in bound)
        raise OptionError(f"{names}: {why}")
    return [e for e in entries if e not in bound], {e.name: why for e in bound}
