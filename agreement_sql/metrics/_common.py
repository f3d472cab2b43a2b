"""Pieces every metric wrapper shares."""
from __future__ import annotations

from typing import Any, Mapping

from ..results import ScaleInfo

LIKERT_DEFAULT = (1.0, 5.0)


def scale_info(row: dict[str, Any], declared: Mapping[str, Any] | None) -> ScaleInfo:
    return ScaleInfo(kind=row["scale_kind"], min=float(row["scale_lo"]), max=float(row["scale_hi"]),
                     declared=bool(declared) and row["metric"] in declared)


def scale_params(**more: Any) -> dict[str, Any]:
    return {"likert_lo": LIKERT_DEFAULT[0], "likert_hi": LIKERT_DEFAULT[1], **more}
