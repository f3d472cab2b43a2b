"""Pieces every metric wrapper shares."""
from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from ..results import ScaleInfo


def scale_info(row: Mapping[str, Any], declared: Mapping[str, Any] | None) -> ScaleInfo | None:
    """The scale a metric's ratings were read on; None for a metric with no rating."""
    if row.get("scale_kind") is None:
        return None
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


R = TypeVar("R")


def every_key(profile: Any, found: Mapping[tuple[Any, ...], R],
              empty: Callable[[dict[str, Any]], R]) -> dict[tuple[Any, ...], R]:
    """``found`` (results by metric-and-slice key) for every key of the input, in the profile's
    order (the statements' ORDER BY of the key columns): a key the statement did not reach
    (every rating missing, or none rated twice) gets ``empty(key_row)``, its result built from
    a row naming only the key (statistics None, counts from the profile's accounting), so
    nothing the input holds vanishes from a result (docs/decisions/0005)."""
    names = ("metric",) + tuple(profile.spec.slices)
    out = {k: (found[k] if k in found else empty(dict(zip(names, k)))) for k in profile.keys}
    out.update({k: v for k, v in found.items() if k not in out})
    return out
