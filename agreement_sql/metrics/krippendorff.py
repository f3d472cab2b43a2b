"""Krippendorff's alpha at the nominal, ordinal, interval and ratio levels."""
from __future__ import annotations

from typing import Any, Sequence

from ..bootstrap import IntervalSpec, interval_spec
from ..domain import Domain, check_domain, register_domain
from ..errors import OptionError
from ..interpret import krippendorff_label
from ..profile import profile_ratings
from ..results import KrippendorffAlphaResult
from ..runner import execute
from ..session import ratings_session

LEVELS = ("nominal", "ordinal", "interval", "ratio")


def krippendorff_alpha(source: Any, *, item: str = "item", rater: str = "rater",
                       value: str = "value", level: str = "interval",
                       domain: Sequence[Any] | None = None, metric: str | None = None,
                       group_by: Sequence[str] | str | None = None,
                       on_duplicate: str | None = None, ci: float | None = None,
                       ci_method: str | None = None, n_boot: int | None = None,
                       seed: int | None = None, con: Any = None,
                       ) -> KrippendorffAlphaResult | list[KrippendorffAlphaResult]:
    """Krippendorff's alpha, ``1 - D_o / D_e`` from the coincidence matrix (Krippendorff 2011).

    ``level`` picks the distance: nominal, ordinal (rank-based), interval or ratio. Units with
    fewer than two ratings are not pairable and drop out, as Krippendorff defines. ``None``
    when no unit is pairable; 1.0 when every pairable value is the same category.

    ``domain`` declares the values a rating can take, in order: numbers (``[1, 2, 3, 4, 5]``,
    increasing) or text labels (``["low", "mid", "high"]``, which then count as 1, 2, 3). A
    rating outside it raises :class:`InvalidRatingError`. Unused values change nothing.

    ``ci=0.95`` adds a unit-resampling bootstrap interval computed in the database
    (``n_boot`` replicates, default 1000; ``seed``, default 1): ``se``, ``ci_low``,
    ``ci_high``. One result without ``metric``/``group_by``; a list with one result per
    metric and slice otherwise.

    Krippendorff (2011) sec. C, 4 observers x 12 units:

    >>> data = "tests/reference/krippendorff2011_4x12.csv"
    >>> [round(krippendorff_alpha(data, level=lv)["value"], 3)
    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]
    [0.743, 0.815, 0.849, 0.797]
    """
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    interval = interval_spec(ci, ci_method, n_boot, seed, analytic=False)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate) as spec:
        declared = register_domain(spec.source, domain)
        # nominal categories are the label texts, unless the column holds numbers: then they
        # are the numbers themselves (no text cast of every rating; 0.0 and -0.0 are one value)
        by_label = level == "nominal" and declared is None and not spec.numeric_values
        one_pass = not interval.bootstrap
        profile = profile_ratings(spec, numeric=level != "nominal" and declared is None,
                                  by_label=by_label, domain=declared, fuse_checks=one_pass,
                                  wide=one_pass)
        check_domain(spec, declared)
        options = spec.options(level=level, by_label=by_label,
                               domain=declared.relation if declared else None,
                               domain_numeric=declared.numeric if declared else True,
                               **interval.options(), **profile.options())
        rows = execute(spec.source.con, "krippendorff_alpha", options,
                       spec.params(**interval.params(), **profile.params()))
        profile.verify(rows)
        results = [_shape(row, level, spec, declared, interval) for row in rows]
    if metric is None and not group_by and not spec.struct_fields:
        return results[0]
    return results


def _shape(row: dict[str, Any], level: str, spec: Any, declared: Domain | None,
           interval: IntervalSpec) -> KrippendorffAlphaResult:
    result = KrippendorffAlphaResult(
        coefficient="krippendorff_alpha",
        level=level,
        value=row["value"],
        observed_disagreement=row["observed_disagreement"],
        expected_disagreement=row["expected_disagreement"],
        n_items=int(row["n_items"]),
        n_raters=int(row["n_raters"]),
        n_values=int(row["n_values"]),
        n_categories=None if row["n_categories"] is None else int(row["n_categories"]),
        interpretation=krippendorff_label(row["value"]),
        metric=row["metric"],
    )
    if spec.group_by:
        result["group"] = spec.describe_slice(row)
    if declared is not None:
        result["domain"] = declared.describe()
    result.update(interval.fields(row))  # type: ignore[typeddict-item]
    return result
