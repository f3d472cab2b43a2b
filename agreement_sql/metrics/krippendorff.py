"""Krippendorff's alpha at the nominal, ordinal, interval and ratio levels."""
from __future__ import annotations

from typing import Any, Sequence

from ..checks import check_ratings
from ..errors import OptionError
from ..interpret import krippendorff_label
from ..results import KrippendorffAlphaResult
from ..runner import execute
from ..session import ratings_session

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def krippendorff_alpha(source: Any, *, item: str = "item", rater: str = "rater",
                       value: str = "value", level: str = "interval", metric: str | None = None,
                       group_by: Sequence[str] | str | None = None,
                       on_duplicate: str | None = None, con: Any = None,
                       ) -> KrippendorffAlphaResult | list[KrippendorffAlphaResult]:
    """Krippendorff's alpha, ``1 - D_o / D_e`` from the coincidence matrix (Krippendorff 2011).

    Units with fewer than two ratings are not pairable and drop out, as Krippendorff defines.
    ``None`` when no unit is pairable; 1.0 when every pairable value is the same category.
    One result without ``metric``/``group_by``; a list with one result per metric and slice
    otherwise. Krippendorff (2011) sec. C, 4 observers x 12 units: nominal 0.743, ordinal
    0.815, interval 0.849, ratio 0.797.
    """
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate) as spec:
        check_ratings(spec, numeric=level != "nominal")
        rows = execute(spec.source.con, "krippendorff_alpha",
                       spec.options(level=level, by_label=level == "nominal"), spec.params())
        results = [_shape(row, level, spec) for row in rows]
    if metric is None and not group_by and not spec.struct_fields:
        return results[0]
    return results


def _shape(row: dict[str, Any], level: str, spec: Any) -> KrippendorffAlphaResult:
    result = KrippendorffAlphaResult(
        coefficient="krippendorff_alpha",
        level=level,
        value=row["alpha"],
        observed_disagreement=row["observed_disagreement"],
        expected_disagreement=row["expected_disagreement"],
        n_items=int(row["n_units"]),
        n_values=int(row["n_values"]),
        n_categories=int(row["n_categories"]),
        interpretation=krippendorff_label(row["alpha"]),
        metric=row["metric"],
    )
    if spec.group_by:
        result["group"] = spec.describe_slice(row)
    return result
