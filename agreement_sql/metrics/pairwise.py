"""Pairwise agreement % (seed 001): exact and adjacent, pooled over rater pairs per metric."""
from __future__ import annotations

from typing import Any, Mapping

from ..errors import OptionError
from ..profile import profile_ratings
from ..runner import execute
from ..results import PairwiseAgreementResult
from ..scales import register_scales
from ..session import ratings_session
from ._common import scale_info, scale_params


def pairwise_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                       value: str = "value", metric: str | None = None,
                       scales: Mapping[str, Any] | None = None, tolerance: float = 1.0,
                       on_duplicate: str | None = None, con: Any = None,
                       ) -> dict[str, PairwiseAgreementResult]:
    """Percent of unordered rater pairs on the same item that agree, per metric.

    Exact agreement counts pairs with ``a == b``; adjacent counts ``|a - b| <= tolerance``
    (seed 001: 1). Pairs are pooled over items, not averaged per item. ``primary`` is exact for
    binary metrics (every rating 0 or 1, or declared ``"binary"``) and adjacent otherwise.
    Values are unrounded percentages; ``None`` when no item was rated twice. Adjacency is
    decided as ``b <= a + tolerance`` for ``a <= b`` (decimal ratings a tolerance apart count).

    Continuous scores (more distinct values than the profile's wide cap) are counted from
    windows over each item's sorted ratings (sql/_value_windows.sql.j2), whose cost does not
    grow with the square of the raters per item; the result is the same.

    >>> r = pairwise_agreement("tests/data/seed_three_vs_four.csv")   # doctest: +SKIP
    """
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate) as spec:
        if not tolerance >= 0:
            raise OptionError(f"tolerance must be a number >= 0, got {tolerance!r}")
        scales_rel = register_scales(spec.source, scales)
        profile = profile_ratings(spec, numeric=True, fuse_checks=False, scales=scales_rel)
        rows = execute(spec.source.con, "pairwise_agreement",
                       spec.options(scales=scales_rel, window_form=not profile.wide),
                       spec.params(**scale_params(adjacent_tolerance=float(tolerance))))
    out: dict[str, PairwiseAgreementResult] = {}
    for row in rows:
        binary = bool(row["is_binary"])
        out[row["metric"]] = PairwiseAgreementResult(
            metric=row["metric"],
            n_items_paired=int(row["n_items_paired"]),
            n_pairs=int(row["n_pairs"]),
            exact_pairs=int(row["exact_pairs"]),
            adjacent_pairs=int(row["adjacent_pairs"]),
            exact_agreement=row["exact_agreement"],
            adjacent_agreement=row["adjacent_agreement"],
            primary=row["exact_agreement"] if binary else row["adjacent_agreement"],
            is_binary=binary,
            scale=scale_info(row, scales),
        )
    return out
