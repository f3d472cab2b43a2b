"""Numbers the Python layer and the SQL templates must agree on, defined once.

Templates read them as ``{{ const.<name> }}`` (rendered as literals by the package, never from
a caller); the Python layer imports them. :func:`sql_constants` checks the arithmetic the SQL
relies on, so changing one of them cannot break a template silently.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from .sqltext import Keyword

# raters: each rater of the first MAX_BIT_RATERS (in name order) has one bit in one of
# RATER_BLOCKS BIGINT columns of BITS_PER_BLOCK bits; a unit's rater set is their BIT_OR
BITS_PER_BLOCK = 62                       # bits 0..61 of a signed BIGINT (2^61 < 2^63)
RATER_BLOCKS = 8
MAX_BIT_RATERS = BITS_PER_BLOCK * RATER_BLOCKS          # 496

# categories: up to MAX_WIDE_CATEGORIES distinct values get a count column per unit (the wide
# form); the counts of PACK_DIGITS categories are summed as base-PACK_BASE digits of one DOUBLE
MAX_WIDE_CATEGORIES = 16
# an input of at most this many ratings takes the counts form in the coefficients statement and
# the workshop report (routes.decide, routes.FEW_RATINGS_COUNTS): on so few rows
# DuckDB's planning, not the aggregation, is the call's cost, and it plans the counts form faster
# (docs/decisions/0023, '2026-12-07: the counts form on few ratings')
SMALL_INPUT_RATINGS = 1_000
PACK_BASE = 512
PACK_DIGITS = 5

def pattern_capacity(n_categories: int) -> int:
    """How many raters a unit's rater pattern can hold exactly: sum_r (c_r + 1) (K + 1)^r stays
    below 2^53 while (K + 1)^R <= 2^53 (sql/_units.sql.j2, rater_patterns)."""
    base, raters, place = n_categories + 1, 0, 1
    while place * base <= 2 ** 53:
        place *= base
        raters += 1
    return raters


# ratings: a number is usable when finite and smaller than this in magnitude (from 2^53 on,
# neighbouring integers share a DOUBLE: 2^53 + 1 reads as 2^53, so distinct codes would silently
# become one category). Numeric text this large stays a label (exact text).
MAX_EXACT_RATING = 2.0 ** 53
MAX_DOUBLE = 1.7976931348623157e308

# labels spelled like a common missing-value marker, in lower case: rated as categories (a
# label is what the data says), counted by the ratings profile so that a result says so and
# names missing= (agreement_sql.markers; docs/decisions/0014). NaN is never a label: the text
# "NaN" reads as the number NaN, which is missing.
MISSING_MARKERS = ("na", "n/a", "#n/a", "null", "none", "nil")

# bootstrap: replicates are numbered with five decimal digits (sql/_replicates.sql.j2)
MAX_N_BOOT = 100_000

# counts and contingency tables (docs/decisions/0022): a table is expanded into ratings (the
# route's "expanded" reading: the bootstrap, the statements that count rows) only while its
# largest cell is at most this many; the numbers 0 .. cell - 1 are registered from Python (8
# bytes each) and each count becomes that many rows. Beyond it the call is refused, naming the
# cells' reading (ci_method="analytic", the coefficient functions) as the way out.
MAX_EXPANDED_CELL = 100_000_000

# the workshop report: seed 001's rating range for questions without a declared scale
SEED_RATING_RANGE = (0.0, 5.0)
LIKERT_DEFAULT = (1.0, 5.0)


class _Literal(str):
    """A constant rendered into SQL (the template finalize hook lets it through)."""


def _check() -> None:
    if MAX_BIT_RATERS >= PACK_BASE:
        raise AssertionError("a unit of MAX_BIT_RATERS ratings must fit one base-PACK_BASE digit")
    if float(PACK_BASE) ** PACK_DIGITS >= 2.0 ** 53:
        raise AssertionError("PACK_DIGITS base-PACK_BASE digits must be exact in a DOUBLE")
    if BITS_PER_BLOCK > 62:
        raise AssertionError("rater bits must stay below the sign bit of a BIGINT")


@lru_cache(maxsize=1)
def sql_constants() -> dict[str, Any]:
    """The constants as template literals (checked first)."""
    _check()
    values: dict[str, Any] = {
        "bits_per_block": BITS_PER_BLOCK,
        "rater_blocks": RATER_BLOCKS,
        "listed_raters": MAX_BIT_RATERS + 1,
        "pack_base": PACK_BASE,
        "pack_digits": PACK_DIGITS,
        "max_exact_rating": repr(MAX_EXACT_RATING),
        "max_double": repr(MAX_DOUBLE),
        "max_n_boot": MAX_N_BOOT,
        # the detected Likert scale of a question with no declared one (sql/_scale.sql.j2)
        "likert_lo": repr(float(LIKERT_DEFAULT[0])),
        "likert_hi": repr(float(LIKERT_DEFAULT[1])),
    }
    out: dict[str, Any] = {k: Keyword(str(v)) for k, v in values.items()}
    # the place values of the packed digits, PACK_BASE ** d as exact DOUBLE literals
    out["pack_weights"] = [Keyword(repr(float(PACK_BASE) ** d)) for d in range(PACK_DIGITS + 1)]
    # the markers as SQL text literals (package constants: no quote in any of them)
    assert all("'" not in m and m == m.lower() for m in MISSING_MARKERS)
    out["missing_markers"] = Keyword(", ".join(f"'{m}'" for m in MISSING_MARKERS))
    return out


# value-by-value tables (weights w_kl, coincidences over pairs of distinct values: quadratic in
# the distinct values; docs/decisions/0019): a statement that needs one refuses above this many
# distinct values (4M cells per metric), naming the way out; coefficients() leaves those
# coefficients out, saying why (quadratic weights need no table: moments, routes.by_moments)
MAX_VALUE_TABLE = 2_000
