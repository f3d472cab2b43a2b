"""GDPval A^HH (seed 000): normalised pairwise agreement between human raters, per metric."""
from __future__ import annotations

from typing import Any, Mapping

from ..interpret import human_agreement_label
from ..profile import profile_ratings
from ..results import HumanAgreementResult
from ..runner import execute
from ..scales import register_scales
from ..session import ratings_session
from ._common import scale_info, scale_params


def human_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                    value: str = "value", metric: str | None = None,
                    scales: Mapping[str, Any] | None = None, on_duplicate: str | None = None,
                    con: Any = None) -> dict[str, HumanAgreementResult]:
    """GDPval A^HH per metric: ``A_s = E[1 - |H_1 - H_2|]`` per sample, averaged over samples.

    Ratings are normalised to ``h = (r - min)/(max - min)`` clamped to [0, 1]: binary 0/1 as is,
    Likert on the declared range (default 1..5, so ``(r - 1)/4``). Samples with fewer than two
    ratings are excluded; ``None`` when none qualifies. Seed 000 worked example: traces [3, 4]
    and [2, 3] give 0.75.

    Continuous scores (more distinct values than the profile's wide cap) use the closed form
    ``sum_k h_(k) (2k - m - 1)`` over each item's sorted ratings (sql/_value_windows.sql.j2)
    instead of pairs of values; the result is the same.
    """
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         on_duplicate=on_duplicate) as spec:
        scales_rel = register_scales(spec.source, scales)
        profile = profile_ratings(spec, numeric=True, fuse_checks=False, scales=scales_rel)
        rows = execute(spec.source.con, "human_agreement",
                       spec.options(scales=scales_rel, window_form=not profile.wide),
                       spec.params(**scale_params()))
    return {
        row["metric"]: HumanAgreementResult(
            metric=row["metric"],
            human_agreement=row["a_hh"],
            n_samples=int(row["n_samples"]),
            interpretation=human_agreement_label(row["a_hh"]),
            scale=scale_info(row, scales),
        )
        for row in rows
    }
