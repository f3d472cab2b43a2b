"""Two raters on continuous scores: Lin's concordance correlation coefficient and the
Bland-Altman bias and limits of agreement, from one statement (sql/concordance.sql.j2).

Both read the items the two raters both rated (``raters=[a, b]``, or the only two raters of
the metric); differences are ``a - b``. Python adds only quantiles: the normal quantiles bound
into the statement (``statistics.NormalDist``) and the Student t quantile of the bias and
limit intervals (agreement_sql.distributions), plugged into ``estimate -/+ t se`` with the
standard errors the statement computed.
"""
from __future__ import annotations

from statistics import NormalDist
from typing import Any, Mapping, Sequence

from .. import checks
from ..public import public
from ..distributions import t_ppf
from ..errors import OptionError
from ..interpret import mcbride
from ..profile import Profile, read_profile
from ..results import BlandAltmanResult, ConcordanceResult
from ..runner import query
from ..session import ratings_session
from ..sources import check_layout
from ._common import counted, every_key
from .coefficient import check_named_raters


def _level(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 < float(value) < 1.0:
        raise OptionError(f"{name} must be a level between 0 and 1 (e.g. 0.95), got {value!r}")
    return float(value)


def _pair(raters: Sequence[Any] | None) -> list[str]:
    if raters is None:
        return []
    names = [raters] if isinstance(raters, str) else list(raters)
    if len(names) != 2 or names[0] == names[1] or not all(isinstance(r, str) and r for r in names):
        raise OptionError(f"raters= must name two different raters, e.g. ['ann', 'bob'], got {raters!r}")
    return names


def _rows(source: Any, *, item: Any, rater: Any, value: Any, metric: Any, group_by: Any,
          raters: Any, z_ci: float, z_limits: float, on_duplicate: Any, missing: Any,
          con: Any, what: str, layout: Any = None) -> tuple[list[dict[str, Any]], Profile, Any]:
    pair = _pair(raters)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=layout, needs_raters=what) as spec:
        profile = read_profile(spec)
        profile.check(numbers=True, what=what)
        check_named_raters(spec, pair, None)
        rows = query(spec.session, "concordance",
                     {**spec.options(), "named_raters": len(pair)},
                     {**spec.params(), "z_ci": z_ci, "z_limits": z_limits,
                      **{f"rater_{i}": r for i, r in enumerate(pair)}})
        duplicates = sum(int(r["n_duplicate_units"] or 0) for r in rows)
        if duplicates and spec.on_duplicate in (None, "error"):
            checks.raise_duplicates(profile, duplicates)
        if not pair:
            for row in rows:
                if row["n_raters"] > 2:
                    where = f" for metric {row['metric']!r}" if spec.several else ""
                    where += "".join(f", {g}={v!r}" for g, v in spec.describe_slice(row).items())
                    raise OptionError(f"{what} compares two raters, and {row['n_raters']} raters "
                                      f"rated{where}; name the two with raters=[a, b]")
    return rows, profile, spec


def _accounting(profile: Profile, row: Mapping[str, Any]) -> dict[str, Any]:
    outside = int(row["n_ratings"] or 0) - int(row["n_pair_ratings"] or 0)
    out = counted(profile, row, used=2 * int(row["n_items"] or 0), single_rated=False,
                  outside_pair=outside)
    out["n_excluded"]["unpaired"] = int(row["n_unpaired"] or 0)
    return out


class _Blank(dict):
    """The row of a metric (or slice) the statement did not reach: its key, every other
    column NULL."""

    def __missing__(self, key: str) -> None:
        return None


def _shaped(rows: list[dict[str, Any]], spec: Any, profile: Profile, make: Any) -> Any:
    """One result per metric (and slice) of the input, in the profile's order; one with no
    pair to compare (every rating missing) null with its exclusions (_common.every_key)."""
    found = {profile.key_of(row): row for row in rows}
    out = []
    for row in every_key(profile, found, _Blank).values():
        result = make(row)
        if spec.group_by:
            result["group"] = spec.describe_slice(row)
        out.append(result)
    return out if spec.several else (out[0] if out else None)


@public()
def concordance(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                raters: Sequence[str] | None = None, metric: str | None = None,
                group_by: Any = None, ci: float = 0.95, on_duplicate: str | None = None,
                missing: Any = None, con: Any = None, layout: str | None = None,
                rater_columns: Sequence[str] | None = None, orientation: str | None = None) -> Any:
    """Lin's (1989) concordance correlation coefficient of two raters, with its interval.

    rho_c = 2 s_ab / (s_a^2 + s_b^2 + (mean_a - mean_b)^2) over the items both rated (1/n
    moments, as Lin); ``pearson_r`` (precision) and ``bias_correction`` C_b = rho_c / r
    (accuracy) with it. The interval is Lin's: the Fisher z of rho_c with its asymptotic
    variance (Lin 1989, corrected 2000; DescTools ``CCC(ci="z-transform")``), back-transformed.
    ``raters=[a, b]`` names the pair; without it a metric must have exactly two raters.
    Interpretation: McBride (2005). One result, or a list with ``metric``/``group_by``.
    """
    level = _level(ci, "ci")
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    rows, profile, spec = _rows(source, item=item, rater=rater, value=value, metric=metric,
                                group_by=group_by, raters=raters, z_ci=z, z_limits=z,
                                on_duplicate=on_duplicate, missing=missing, con=con,
                                what="Lin's concordance correlation", layout=check_layout(layout, rater_columns, orientation))

    def make(row: dict[str, Any]) -> ConcordanceResult:
        return ConcordanceResult(
            coefficient="lin_ccc", value=row["ccc"], pearson_r=row["pearson_r"],
            bias_correction=row["bias_correction"], z=row["ccc_z"], se_z=row["ccc_se_z"],
            ci_low=row["ccc_ci_low"], ci_high=row["ccc_ci_high"], ci_level=level,
            raters=[row["rater_a"], row["rater_b"]], n_items=int(row["n_items"] or 0),
            mean_a=row["mean_a"], mean_b=row["mean_b"], interpretation=mcbride(row["ccc"]),
            metric=row["metric"], **_accounting(profile, row))  # type: ignore[typeddict-item]
    return _shaped(rows, spec, profile, make)


@public()
def bland_altman(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 raters: Sequence[str] | None = None, metric: str | None = None,
                 group_by: Any = None, limits: float = 0.95, ci: float = 0.95,
                 on_duplicate: str | None = None, missing: Any = None, con: Any = None,
                 layout: str | None = None, rater_columns: Sequence[str] | None = None,
                 orientation: str | None = None) -> Any:
    """Bland & Altman (1986) bias and limits of agreement of two raters (differences a - b).

    ``bias`` is the mean difference, ``sd_diff`` the sample SD of the differences, and the
    limits ``bias -/+ z sd_diff`` with z the normal quantile of ``limits`` (1.96 for 0.95). The
    ``ci`` intervals: the bias -/+ t_(n-1) sd/sqrt(n), and each limit -/+ t_(n-1) times its
    approximate standard error sd sqrt(1/n + z^2 / (2 (n - 1))) (Bland & Altman 1999, 5.2).
    ``raters=[a, b]`` names the pair (a is the minuend); without it a metric must have exactly
    two raters, taken in name order. One result, or a list with ``metric``/``group_by``.
    """
    share = _level(limits, "limits")
    ci_level = _level(ci, "ci")
    z = NormalDist().inv_cdf(0.5 + share / 2.0)
    rows, profile, spec = _rows(source, item=item, rater=rater, value=value, metric=metric,
                                group_by=group_by, raters=raters, z_ci=z, z_limits=z,
                                on_duplicate=on_duplicate, missing=missing, con=con,
                                what="Bland-Altman limits of agreement", layout=check_layout(layout, rater_columns, orientation))

    def make(row: dict[str, Any]) -> BlandAltmanResult:
        n = int(row["n_items"] or 0)
        t = t_ppf(0.5 + ci_level / 2.0, n - 1) if n > 1 else None
        return BlandAltmanResult(
            raters=[row["rater_a"], row["rater_b"]], n_items=n, mean_a=row["mean_a"],
            mean_b=row["mean_b"], bias=row["bias"], sd_diff=row["sd_diff"],
            loa_low=row["loa_low"], loa_high=row["loa_high"], limits=share, z=z,
            bias_ci_low=_plus(row["bias"], t, row["bias_se"], -1),
            bias_ci_high=_plus(row["bias"], t, row["bias_se"], 1),
            loa_low_ci=[_plus(row["loa_low"], t, row["loa_se"], -1),
                        _plus(row["loa_low"], t, row["loa_se"], 1)],
            loa_high_ci=[_plus(row["loa_high"], t, row["loa_se"], -1),
                         _plus(row["loa_high"], t, row["loa_se"], 1)],
            ci_level=ci_level, metric=row["metric"],
            **_accounting(profile, row))  # type: ignore[typeddict-item]
    return _shaped(rows, spec, profile, make)


def _plus(estimate: float | None, t: float | None, se: float | None, sign: int) -> float | None:
    if estimate is None or t is None or se is None:
        return None
    return estimate + sign * t * se
