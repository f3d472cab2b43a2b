"""R irr's ``agree()``: the share of units on which every rater agrees, per metric (and slice),
from one statement (sql/agree.sql.j2; the formula in sql/_agree.sql.j2).

Not a registry coefficient: it has no chance agreement, no variance and no weights, so the
coefficients' row contract (observed and chance agreement, a variance) does not fit it; its
result is its own (:class:`agreement_sql.results.AgreeResult`). Percent agreement over rater
pairs is ``percent_agreement`` (Gwet 2014), a different statistic: a unit rated 1, 1, 2 adds two
agreeing pairs of three there and a disagreeing unit here.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

from .. import routes
from ..errors import OptionError
from ..profile import read_profile
from ..public import public
from ..results import AgreeResult
from ..session import ratings_session
from ..sources import check_layout
from ._common import counted, every_key

# sql/agree.sql.j2's columns a result reads (a key the statement did not reach has them NULL)
AGREE_COLUMNS = ("n_items", "n_agree", "n_used", "n_incomplete", "value", "percent",
                 "n_raters", "n_single", "n_merged", "n_ratings")

UNITS = {
    "rated_twice": "the units rated twice or more (the package's convention, as percent "
                   "agreement counts them; a unit rated once is counted in "
                   "n_excluded['single_rated'])",
    "complete": "the units every rater of the metric (and slice) rated, R irr's listwise "
                "na.omit (units='complete'); the ratings of the others are counted in "
                "n_excluded['single_rated'] and n_excluded['incomplete_unit']",
}


@public()
def agree(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
          metric: str | None = None, group_by: Any = None, tolerance: float = 0.0,
          units: str = "rated_twice", on_duplicate: str | None = None, missing: Any = None,
          con: Any = None, layout: str | None = None,
          rater_columns: Sequence[str] | None = None,
          orientation: str | None = None) -> Any:
    """The share of units on which every rater agrees: R irr's ``agree(ratings, tolerance)``.

    A unit agrees when all its ratings are one value, or, with ``tolerance`` (numeric ratings
    only, refused on text labels), when its largest rating exceeds its smallest by at most
    ``tolerance`` (irr: "raters differing by one scale degree are interpreted as agreeing" at
    tolerance 1). ``value`` is a proportion, as every coefficient of the package; ``percent``
    is irr's ``%-agree``, 100 times it. ``units`` chooses the units counted: "rated_twice"
    (the default: every unit with two or more ratings) or "complete" (irr's listwise
    deletion, na.omit: only the units every rater rated). ``None`` when no unit is counted.
    One result without ``metric``/``group_by``, a list otherwise.

    irr's documentation example, ``data(video); agree(video)`` (20 subjects, 4 raters):

        >>> round(agree("tests/reference/irr_video_20x4.csv")["percent"], 6)
        35.0
        >>> round(agree("tests/reference/irr_video_20x4.csv", tolerance=1)["percent"], 6)
        90.0
    """
    if hasattr(tolerance, "item"):
        tolerance = tolerance.item()
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) \
            or not math.isfinite(float(tolerance)) or tolerance < 0:
        raise OptionError(f"tolerance must be a number >= 0, got {tolerance!r}")
    if units not in UNITS:
        raise OptionError(f"units must be 'rated_twice' (units rated twice or more) or "
                          f"'complete' (units every rater rated, R irr's na.omit), got {units!r}")
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=check_layout(layout, rater_columns, orientation)) as spec:
        profile = read_profile(spec)
        profile.check()
        if tolerance > 0 and profile.has_labels:
            raise OptionError(f"tolerance={tolerance!r} applies to numeric ratings (irr: "
                              "'only possible for numerical values'), and the ratings include "
                              "text labels; leave tolerance at 0")
        route = routes.decide(profile, "agree")
        rows = route.query(spec, "agree",
                           {**spec.options(), **route.options("agree"), "agree_units": units,
                            "tolerant": tolerance > 0},
                           {**spec.params(), **route.params(),
                            "agree_tolerance": float(tolerance)})

        def shaped(row: Mapping[str, Any]) -> AgreeResult:
            result: dict[str, Any] = {
                "coefficient": "agree", "value": row["value"], "percent": row["percent"],
                "tolerance": float(tolerance), "units": units,
                "n_items": int(row["n_items"] or 0), "n_agree": int(row["n_agree"] or 0),
                "n_raters": int(row["n_raters"] or 0), "metric": row["metric"]}
            if spec.group_by:
                result["group"] = spec.describe_slice(dict(row))
            accounting = counted(profile, row, used=int(row["n_used"] or 0), single_rated=True)
            if units == "complete":
                accounting["n_excluded"]["incomplete_unit"] = int(row["n_incomplete"] or 0)
            result.update(accounting)
            result["conventions"] = {"units": UNITS[units]} | (
                {"tolerance": f"a unit agrees when max - min <= {float(tolerance):g} (numbers)"}
                if tolerance > 0 else {"tolerance": "a unit agrees when its ratings are one value"})
            return AgreeResult(**result)

        found = {profile.key_of(row): shaped(row) for row in rows}
        out = list(every_key(profile, found, lambda key: shaped(
            {**dict.fromkeys(AGREE_COLUMNS), **key})).values())
    return out if spec.several else out[0]
