"""The plan: how a statement reads its ratings, decided once from the profile.

A plan names the form of the per-unit aggregation (docs/decisions/0003) and carries the
options and bound values the form needs; templates declare the options they take and refuse
any other (agreement_sql.templates), so a plan cannot switch a template into a form by a
misspelt flag.

* ``form="wide"``: the categories are few (at most constants.MAX_WIDE_CATEGORIES, listed by
  the profile): one count column per category, summed over unit patterns.
* ``form="counts"``: any number of categories (continuous scores, or means of a rater's
  repeated ratings under ``on_duplicate="mean"``): a counts-per-(unit, value) table.
* ``rater_blocks``: with at most constants.MAX_BIT_RATERS raters, the statement's own per-unit
  aggregation finds a rater who rated a unit twice (rater bits); with more, the separate
  sql/duplicate_check.sql.j2 runs before it. With a duplicate policy nothing needs checking.
* ``all_rated``: the profile counted no missing value and no placeholder, so the statement
  reads every row as a rating without testing its state (sql/_ratings.sql.j2).
* ``rater_list``: on large inputs (LIST_RATERS_FROM ratings or more) the raters the profile
  listed, registered for sql/_rater_codes.sql.j2 to number; else None, and the statement finds
  them itself. The codes are the same either way (name order).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import checks
from .constants import BITS_PER_BLOCK, MAX_BIT_RATERS, pattern_capacity
from .profile import Profile
from .runner import lookup_rows, query

FORMS = ("wide", "counts")
# tests set these to run the same data through every form (tests/coefficients/_forms.py);
# FORCED_PATTERNS False: never rater patterns; True or None: where the caller asks and they fit
FORCED_FORM: str | None = None
FORCED_PATTERNS: bool | None = None
# from this many ratings on, a statement numbers the raters the profile listed (registered as a
# small relation, one more statement) instead of finding them with a DISTINCT over its ratings:
# at 9M ratings the DISTINCT costs about 0.05 s, a registered list about 2 ms whatever the size
LIST_RATERS_FROM = 500_000


@dataclass(frozen=True)
class Plan:
    form: str
    categories: tuple[tuple[str, Any], ...] = ()      # (kind, value) of the wide form
    rater_blocks: int = 0
    rater_patterns: bool = False                      # keep each unit's rater pattern
    rater_list: str | None = None                     # the profile's raters, registered
    all_rated: bool = False                           # no row is missing or a placeholder

    def options(self) -> dict[str, Any]:
        return {"form": self.form, "categories": [kind for kind, _ in self.categories],
                "rater_blocks": self.rater_blocks, "rater_patterns": self.rater_patterns,
                "rater_list": self.rater_list, "all_rated": self.all_rated}

    def params(self) -> dict[str, Any]:
        return {f"category_{i}": value for i, (_, value) in enumerate(self.categories)}


def make_plan(profile: Profile, *, wide: bool = True, rater_bits: bool | None = None,
              patterns: bool = False) -> Plan:
    """Choose the form for ``profile``'s ratings and run the separate duplicate check if needed.

    ``wide``: the statement has a wide form for this call (False forces the counts form).
    ``rater_bits``: number the raters in the statement even with a duplicate policy (a report
    that reads each unit's rater set). ``patterns``: the statement can use rater patterns
    (sql/_rater_patterns.sql.j2) when the form is wide and the raters few enough
    (constants.pattern_capacity); Plan.rater_patterns says whether it does.
    """
    # the mean of a rater's repeated ratings may be a value the profile never saw (3.5 between
    # 3 and 4), so that policy reads its ratings in the counts form, which needs no category list
    averaging = profile.spec.on_duplicate == "mean"
    form = ("wide" if wide and profile.categories and not profile.many_categories
            and not averaging else "counts")
    if FORCED_FORM is not None and (FORCED_FORM == "counts" or profile.categories and not averaging):
        form = FORCED_FORM
    categories: tuple[tuple[str, Any], ...] = ()
    if form == "wide":
        categories = tuple(("label", label) if label is not None else ("number", x)
                           for x, label in profile.categories)
    checking = profile.spec.on_duplicate in (None, "error")
    blocks = 0
    if 0 < profile.n_raters <= MAX_BIT_RATERS:
        # the statement finds duplicates and counts each metric's raters with these bits
        blocks = (profile.n_raters + BITS_PER_BLOCK - 1) // BITS_PER_BLOCK
    elif checking and profile.n_raters > MAX_BIT_RATERS:
        check_duplicates_apart(profile)
    # the patterns' place values come with the rater bits' join (sql/_units.sql.j2)
    use_patterns = (patterns and form == "wide" and FORCED_PATTERNS is not False and blocks > 0
                    and 0 < profile.n_raters <= pattern_capacity(len(categories)))
    listed = None
    if (blocks and len(profile.raters) == profile.n_raters
            and profile.totals.get("n_ratings", 0) >= LIST_RATERS_FROM):
        # the statement numbers the profile's raters instead of finding them in another scan
        listed = lookup_rows(profile.spec.session, [("rater", "text")],
                             [(r,) for r in profile.raters], "raters")
    totals = profile.totals
    all_rated = (totals.get("n_rows", 0) > 0 and totals.get("n_missing", 1) == 0
                 and totals.get("n_placeholder", 1) == 0)
    return Plan(form=form, categories=categories, rater_blocks=blocks,
                rater_patterns=use_patterns, rater_list=listed, all_rated=all_rated)


def check_duplicates_apart(profile: Profile) -> None:
    spec = profile.spec
    rows = query(spec.session, "duplicate_check",
                 {**spec.options(domain=profile.domain), "categories": [], "rater_patterns": False,
                  "rater_list": None},
                 spec.params())
    if rows and rows[0]["n_duplicate_units"]:
        checks.raise_duplicates(profile, int(rows[0]["n_duplicate_units"]))


def verify_units(profile: Profile, rows: list[dict[str, Any]]) -> None:
    """After a statement: refuse its numbers if its units found a rater rating a unit twice."""
    refuse_duplicate_units(profile, sum(int(r.get("n_duplicate_units") or 0) for r in rows))


def refuse_duplicate_units(profile: Profile, found: int) -> None:
    """:func:`verify_units` on the statement's count of units a rater rated twice."""
    if found and profile.spec.on_duplicate in (None, "error"):
        checks.raise_duplicates(profile, found)
