"""Result types: TypedDicts, JSON-ready (floats, ints, strings, bools, None, lists, dicts).

Core functions return unrounded values; only the seed-shaped reports round, as the seeds did,
and they decide on unrounded values. Undefined is ``None`` (JSON ``null``), never 0.0 or NaN.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - Python 3.10
    from typing_extensions import NotRequired, TypedDict


class ScaleInfo(TypedDict):
    kind: str                      # "binary" or "likert"
    min: float
    max: float
    declared: bool                 # False when detected from the ratings


class PairwiseAgreementResult(TypedDict):
    metric: str
    n_items_paired: int            # units with two or more ratings
    n_pairs: int                   # unordered rater pairs on the same unit, pooled
    exact_pairs: int
    adjacent_pairs: int
    exact_agreement: Optional[float]     # percent, unrounded; None when n_pairs == 0
    adjacent_agreement: Optional[float]  # |a - b| <= tolerance
    primary: Optional[float]       # exact for binary, adjacent otherwise
    is_binary: bool
    scale: ScaleInfo


class HumanAgreementResult(TypedDict):
    metric: str
    human_agreement: Optional[float]     # GDPval A^HH in [0, 1]; None when no unit has 2 ratings
    n_samples: int
    interpretation: Optional[str]
    scale: ScaleInfo


class KrippendorffAlphaResult(TypedDict):
    coefficient: str               # "krippendorff_alpha"
    level: str
    value: Optional[float]
    observed_disagreement: Optional[float]
    expected_disagreement: Optional[float]
    n_items: int                   # pairable units
    n_values: int                  # pairable values
    n_categories: int
    interpretation: Optional[str]
    metric: NotRequired[str]
    group: NotRequired[Dict[str, Any]]


class PerMetricScore(TypedDict):
    score: Optional[float]
    exact_agreement: Optional[float]
    adjacent_agreement: Optional[float]
    interpretation: Optional[str]
    acceptable: bool
    suggestions: List[str]
    is_binary: bool
    krippendorff_alpha: Optional[float]
    human_agreement: Optional[float]
    problematic_patterns: List[str]
    scale: ScaleInfo


class TraceDisagreement(TypedDict):
    trace_id: str
    metric: str
    std_dev: float                 # population sigma, unrounded
    label: str                     # Perfect / Good / Moderate / High / Very High
    priority: bool                 # "Priority Discussion Needed" when sigma > 1.5
    num_ratings: int
    mean: float
    range: float


class IRRReport(TypedDict):
    metric_used: str
    score: float
    interpretation: str
    ready_to_proceed: bool
    threshold: float
    suggestions: List[str]
    num_raters: int
    num_traces: int
    num_annotations: int
    completeness: float
    missing_data: bool
    per_metric_scores: Dict[str, PerMetricScore]
    problematic_patterns: List[str]
    human_agreement: NotRequired[float]
    trace_disagreements: List[TraceDisagreement]
    conventions: Dict[str, str]


class IRRError(TypedDict):
    error: str
    metric_used: str               # "none"
    num_annotations: int
    score: float                   # 0.0
    ready_to_proceed: bool         # False
    invalid_rating: NotRequired[Dict[str, Any]]
