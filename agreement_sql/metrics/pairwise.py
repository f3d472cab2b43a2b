"""Pairwise agreement % (seed 001) and GDPval A^HH (seed 000), per metric, from one statement
(sql/pairwise_agreement.sql.j2)."""
from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

from ..public import public
from ..errors import OptionError
from ..interpret import human_agreement_label
from .. import routes
from ..profile import read_profile
from ..results import HumanAgreementResult, PairwiseAgreementResult
from ..scales import register_all_scales, register_scales
from ..session import ratings_session
from ..sources import check_layout
from ._common import counted, every_key, scale_info

# the columns of sql/pairwise_agreement.sql.j2's rows the results read (a metric the statement
# did not reach has them all NULL: _common.every_key)
PAIRWISE_COLUMNS = ("n_items_paired", "n_pairs", "exact_pairs", "adjacent_pairs",
                    "exact_agreement", "adjacent_agreement", "primary_score", "scale_kind",
                    "scale_lo", "scale_hi", "human_agreement", "n_samples", "n_ratings",
                    "n_single", "n_merged")


def _pairwise_rows(source: Any, *, item: Any, rater: Any, value: Any, metric: Any,
                   scales: Any, tolerance: Any, on_duplicate: Any, missing: Any,
                   con: Any, layout: Any = None) -> tuple[list[dict[str, Any]], Any]:
    if hasattr(tolerance, "item"):
        tolerance = tolerance.item()
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) \
            or not math.isfinite(float(tolerance)) or tolerance < 0:
        raise OptionError(f"tolerance must be a number >= 0, got {tolerance!r}")
    if scales is not None and not isinstance(scales, Mapping):
        raise OptionError(f"scales must map metric names to scales, got {scales!r}")
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate, missing=missing, layout=layout) as spec:
        declared = register_scales(spec.session, scales)
        profile = read_profile(spec, scales=declared)
        profile.check(numbers=True, what="pairwise agreement (numeric ratings)")
        all_scales = register_all_scales(spec.session, profile, scales)
        route = routes.decide(profile, "pairwise_agreement")
        rows = route.query(spec, "pairwise_agreement",
                           {**spec.options(), **route.options(), "scales": all_scales},
                           {**spec.params(), **route.params(),
                            "adjacent_tolerance": float(tolerance)})
    return rows, profile


@public("each")
def pairwise_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                       value: str = "value", metric: str | None = None,
                       scales: Mapping[str, Any] | None = None, tolerance: float = 1.0,
                       on_duplicate: str | None = None, missing: Any = None, con: Any = None,
                       layout: str | None = None, rater_columns: Sequence[str] | None = None,
                       orientation: str | None = None) -> dict[str, PairwiseAgreementResult]:
    """Percent of unordered rater pairs on the same item that agree, per metric.

    Exact agreement counts pairs with ``a == b``; adjacent counts ``|a - b| <= tolerance``
    (seed 001: 1). Pairs are pooled over items, not averaged per item. ``primary`` is exact for
    binary metrics (every rating 0 or 1, or declared ``"binary"``) and adjacent otherwise.
    Values are unrounded percentages; ``None`` when no item was rated twice. Adjacency is
    decided as ``b <= a + tolerance`` for ``a <= b`` (decimal ratings a tolerance apart count).

    Continuous scores (more distinct values than the wide cap) are counted from windows over
    each item's sorted ratings, whose cost does not grow with the square of the raters per
    item; the result is the same.
    """
    rows, profile = _pairwise_rows(source, item=item, rater=rater, value=value, metric=metric,
                                   scales=scales, tolerance=tolerance, on_duplicate=on_duplicate,
                                   missing=missing, con=con, layout=check_layout(layout, rater_columns, orientation))
    def shaped(row: Mapping[str, Any]) -> PairwiseAgreementResult:
        result = PairwiseAgreementResult(
            metric=row["metric"],
            n_items_paired=int(row["n_items_paired"] or 0),
            n_pairs=int(row["n_pairs"] or 0),
            exact_pairs=int(row["exact_pairs"] or 0),
            adjacent_pairs=int(row["adjacent_pairs"] or 0),
            exact_agreement=row["exact_agreement"],
            adjacent_agreement=row["adjacent_agreement"],
            primary=row["primary_score"],
            is_binary=row["scale_kind"] == "binary",
            scale=scale_info(row, scales),
        )
        result.update(counted(profile, row, used=int(row["n_ratings"] or 0) - int(row["n_single"] or 0),  # type: ignore[typeddict-item]
                              single_rated=True))
        return result

    found = {profile.key_of(row): shaped(row) for row in rows}
    return {r["metric"]: r for r in every_key(profile, found, lambda key: shaped(
        {**dict.fromkeys(PAIRWISE_COLUMNS), **key})).values()}


@public("each")
def human_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                    value: str = "value", metric: str | None = None,
                    scales: Mapping[str, Any] | None = None, on_duplicate: str | None = None,
                    missing: Any = None, con: Any = None, layout: str | None = None,
                    rater_columns: Sequence[str] | None = None,
                    orientation: str | None = None) -> dict[str, HumanAgreementResult]:
    """GDPval A^HH per metric: ``A_s = E[1 - |H_1 - H_2|]`` per sample, averaged over samples.

    Ratings are normalised to ``h = (r - min)/(max - min)`` clamped to [0, 1]: binary 0/1 as is,
    Likert on the declared range (default 1..5, so ``(r - 1)/4``). Samples with fewer than two
    ratings are excluded; ``None`` when none qualifies. Seed 000 worked example: traces [3, 4]
    and [2, 3] give 0.75.
    """
    rows, profile = _pairwise_rows(source, item=item, rater=rater, value=value, metric=metric,
                                   scales=scales, tolerance=1.0, on_duplicate=on_duplicate,
                                   missing=missing, con=con, layout=check_layout(layout, rater_columns, orientation))
    def shaped(row: Mapping[str, Any]) -> HumanAgreementResult:
        result = HumanAgreementResult(
            metric=row["metric"],
            human_agreement=row["human_agreement"],
            n_samples=int(row["n_samples"] or 0),
            interpretation=human_agreement_label(row["human_agreement"]),
            scale=scale_info(row, scales),
        )
        result.update(counted(profile, row, used=int(row["n_ratings"] or 0) - int(row["n_single"] or 0),  # type: ignore[typeddict-item]
                              single_rated=True))
        return result

    found = {profile.key_of(row): shaped(row) for row in rows}
    return {r["metric"]: r for r in every_key(profile, found, lambda key: shaped(
        {**dict.fromkeys(PAIRWISE_COLUMNS), **key})).values()}
