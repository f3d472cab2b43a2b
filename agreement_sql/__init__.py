"""agreement-sql: inter-rater agreement as templated SQL over annotation tables in DuckDB.

Every number comes from a template in ``sql/``; this package loads and checks inputs, renders
and binds the templates, runs them, and shapes typed, JSON-ready result dicts.
"""
from __future__ import annotations

from .connection import connect
from .errors import (AgreementError, AgreementWarning, ColumnError, DuplicateRatingError,
                     InvalidRatingError, MissingKeyError, OptionError, SourceError, TemplateError)
from .metrics.agree import agree
from .metrics.categories import category_agreement
from .metrics.coefficients import coefficients
from .metrics.concordance import bland_altman, concordance
from .metrics.icc import icc
from .metrics.pairwise import human_agreement, pairwise_agreement
from .metrics.functions import *  # noqa: F401,F403  (one public function per registry entry)
from .metrics.functions import __all__ as _coefficient_functions
from .rendering import render
from .batches import merge_states, summarize
from .macros import install_macros
from .planning import achieved_precision, sample_size
from .reports.html import report
from .reports.irr import irr
from .templates import available_templates
from .workflows.alt_test import alt_test
from .workflows.consistency import consistency
from .workflows.diagnostics import rater_diagnostics
from .workflows.judges import judge_agreement, judge_set_fingerprint
from .workflows.sample import calibration_sample
from .workflows.sheet import evaluation_sheet

# the default engine, loaded with the package rather than by the first call (every call without
# con= or with a DuckDB connection uses it)
from .engine import duckdb as _duckdb_engine  # noqa: E402,F401

# the name of the statistic, for a reader who does not know R irr's agree(): the same function
# (not in __all__, so every list of the public functions names it once, as agree)
unanimous_agreement = agree

__version__ = "0.2.0"

__all__ = [
    "AgreementError", "AgreementWarning", "ColumnError", "DuplicateRatingError", "InvalidRatingError",
    "MissingKeyError", "OptionError", "SourceError", "TemplateError",
    "agree", "available_templates", "category_agreement", "connect", "human_agreement", "irr",
    "pairwise_agreement", "render", "install_macros", "coefficients",
    *_coefficient_functions,
    "calibration_sample", "consistency", "evaluation_sheet", "judge_agreement",
    "judge_set_fingerprint", "rater_diagnostics",
    "achieved_precision", "bland_altman", "concordance", "icc", "report", "sample_size",
    "alt_test", "merge_states", "summarize",
]
