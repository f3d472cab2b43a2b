"""Pieces every metric wrapper shares."""
from __future__ import annotations

from typing import Any, Mapping

from ..results import ScaleInfo


def scale_info(row: dict[str, Any], declared: Mapping[str, Any] | None) -> ScaleInfo:
    return ScaleInfo(kind=row["scale_kind"], min=float(row["scale_lo"]), max=float(row["scale_hi"]),
                     declared=declared is not None and row["metric"] in declared)


def counted(profile: Any, row: Mapping[str, Any], *, used: int, single_rated: bool,
            outside_pair: int | None = None) -> dict[str, Any]:
    """A result's accounting of its input rows (docs/decisions/0005): ``n_rows`` read for the
    metric (and slice), ``n_ratings`` that entered the statistic, and ``n_excluded`` by reason,
    every count from the profile or the statement: n_rows = n_ratings + sum(n_excluded)."""
    kp = profile.of(row)
    excluded = {
        "missing": kp.n_missing if kp else 0,
        "placeholder": kp.n_placeholder if kp else 0,
        "duplicate": int(row.get("n_merged") or 0),
    }
    if single_rated:
        excluded["single_rated"] = int(row.get("n_single") or 0)
    if outside_pair is not None:
        excluded["outside_pair"] = outside_pair
    return {"n_rows": kp.n_rows if kp else 0, "n_ratings": used, "n_excluded": excluded}
