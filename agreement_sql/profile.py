"""One pass per metric statement: what a statement needs to know before it is rendered.

A metric used to read its ratings twice: once to check them (sql/input_checks.sql.j2), once to
compute. The profile (sql/ratings_profile.sql.j2, two cheap DISTINCT scans) lists the raters and
the categories; with it the statement's one per-unit aggregation (sql/_unit_profile.sql.j2)
also counts every input problem, and, when the categories are few, counts each category in its
own column, so no counts-per-(item, value) table is built at all (issue 5).

* Raters: up to :data:`MAX_FUSED_RATERS` get their bits in a small temporary table
  (sql/rater_bits.sql.j2: rater, bit_0 .. bit_7, blocks of 40) and the statement's own
  aggregation finds duplicates and counts raters. With more raters, or a rating without a
  rater, the separate check (sql/input_checks.sql.j2) runs first, as before.
* Categories: up to :data:`MAX_WIDE_CATEGORIES` distinct values (after a declared domain maps
  the ratings) give the wide per-unit form; more (continuous scores) keep the counts form.

After the statement, :meth:`RatingsProfile.verify` reads the problem counts the statement
returned; any problem (or no result at all) runs :func:`agreement_sql.checks.check_ratings`,
which raises the typed error naming the column, value or row. The numbers of a statement whose
input has a problem are never returned.

A report that runs several statements over the same units (the workshop IRR report) keeps the
per-unit aggregation in a temporary table (sql/unit_profile.sql.j2) and has the statements read
it back (option ``unit_profile_from``); one of them returns the check_* columns, including
``check_n_out_of_scale`` when scales are declared.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .checks import check_ratings
from .ratings import RatingsSpec
from .runner import execute
from .sources import generated_name

MAX_FUSED_RATERS = 320       # 8 blocks of 40 rater bits (the columns of sql/rater_bits.sql.j2)
MAX_WIDE_CATEGORIES = 16     # Likert 0..10, 1..7, binary, small label sets; 120 category pairs
BITS_PER_BLOCK = 40          # as sql/_rater_bits.sql.j2


@dataclass(frozen=True)
class RatingsProfile:
    """What sql/ratings_profile.sql.j2 found, as template options and bound parameters."""

    spec: RatingsSpec
    numeric: bool
    by_label: bool
    rater_bits: str | None = None           # registered (rater, bit_0, ...) relation
    rater_blocks: int = 0
    categories: tuple[Any, ...] = ()        # wide form when non-empty, in value order
    n_raters: int = 0
    problems_checked: bool = False          # the separate check already ran

    @property
    def fused(self) -> bool:
        """The statement counts input problems itself (verify() must read them)."""
        return self.rater_bits is not None

    @property
    def wide(self) -> bool:
        return bool(self.categories)

    def options(self) -> dict[str, Any]:
        return {
            "rater_bits": self.rater_bits,
            "bit_columns": [f"bit_{b}" for b in range(self.rater_blocks)],
            "wide_categories": [f"n_{i}" for i in range(len(self.categories))],
            "wide_by_label": self.by_label,
        }

    def params(self) -> dict[str, Any]:
        return {f"category_{i}": c for i, c in enumerate(self.categories)}

    def verify(self, rows: list[dict[str, Any]], **check_options: Any) -> None:
        """Raise the typed input error when the statement counted a problem (or found nothing)."""
        if not self.fused:
            return
        first = rows[0] if rows else None
        problem = first is None or not first.get("check_n_ratings") or any(
            first.get(c) for c in ("check_n_null_item", "check_n_null_metric",
                                   "check_n_null_slice"))
        problem = problem or (self.numeric and bool(first.get("check_n_not_numeric")))
        # ratings outside a declared scale: counted by statements that know the scales
        # (sql/_irr_validation.sql.j2, the workshop report); absent elsewhere
        problem = problem or bool(first.get("check_n_out_of_scale"))
        problem = problem or (bool(first.get("check_n_duplicate"))
                              and self.spec.on_duplicate in (None, "error"))
        if problem:
            check_ratings(self.spec, numeric=self.numeric, **check_options)


def profile_ratings(spec: RatingsSpec, *, numeric: bool, by_label: bool = False,
                    domain: Any = None, fuse_checks: bool = True, wide: bool = True,
                    **check_options: Any) -> RatingsProfile:
    """Profile ``spec``'s ratings; register the rater bits; run the separate check if needed.

    ``domain`` (an :class:`agreement_sql.domain.Domain`) maps the ratings first, so the
    categories are the declared values that occur. ``fuse_checks=False`` (bootstrap replicates, declared scales) runs the separate
    check now, as before.
    """
    mapped = {"domain": domain.relation if domain else None,
              "domain_numeric": domain.numeric if domain else True}
    table = None
    if fuse_checks:
        # the raters with their bits first; the profile then counts them without a scan
        table = generated_name("raters")
        execute(spec.source.con, "rater_bits", spec.options(into=table, **mapped), spec.params())
        spec.source.track("table", table)
    rows = execute(spec.source.con, "ratings_profile",
                   spec.options(by_label=by_label, raters_from=table, **mapped),
                   spec.params(max_categories=MAX_WIDE_CATEGORIES))
    raters = next(r for r in rows if r["kind"] == "raters")
    n_raters, null_rater = int(raters["position"]), bool(raters["x"])
    found = [r["value_text"] if by_label else r["x"] for r in rows if r["kind"] == "category"]
    categories: tuple[Any, ...] = ()
    if wide and 0 < len(found) <= MAX_WIDE_CATEGORIES:
        categories = tuple(found)
    rater_bits, blocks = None, 0
    if table and not null_rater and 0 < n_raters <= MAX_FUSED_RATERS:
        blocks = (n_raters + BITS_PER_BLOCK - 1) // BITS_PER_BLOCK
        rater_bits = table
    profile = RatingsProfile(spec=spec, numeric=numeric, by_label=by_label,
                             rater_bits=rater_bits, rater_blocks=blocks,
                             categories=categories, n_raters=n_raters)
    if not profile.fused:
        check_ratings(spec, numeric=numeric, **check_options)
        return RatingsProfile(**{**profile.__dict__, "problems_checked": True})
    return profile
