"""agreement-sql: inter-rater agreement as templated SQL over annotation tables in DuckDB.

Every number comes from a template in ``sql/``; this package loads and checks inputs, renders
and binds the templates, runs them, and shapes typed, JSON-ready result dicts.
"""
from __future__ import annotations

from .connection import connect
from .errors import (AgreementError, ColumnError, DuplicateRatingError, InvalidRatingError,
                     MissingKeyError, OptionError, SourceError, TemplateError)
from .metrics.human_agreement import human_agreement
from .metrics.krippendorff import krippendorff_alpha
from .metrics.pairwise import pairwise_agreement
from .reports.irr import irr
from .rendering import render
from .templates import available_templates

__version__ = "0.1.0"

__all__ = [
    "AgreementError", "ColumnError", "DuplicateRatingError", "InvalidRatingError",
    "MissingKeyError", "OptionError", "SourceError", "TemplateError",
    "available_templates", "connect", "human_agreement", "irr", "krippendorff_alpha",
    "pairwise_agreement", "render",
]
