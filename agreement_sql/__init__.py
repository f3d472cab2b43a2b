"""agreement-sql: inter-rater agreement as templated SQL over annotation tables in DuckDB."""
from __future__ import annotations

from .errors import (AgreementError, ColumnError, DuplicateRatingError, InvalidRatingError,
                     MissingKeyError, OptionError, SourceError, TemplateError)
from .metrics.coefficients import coefficients
from .metrics.pairwise import human_agreement, pairwise_agreement
from .registry import (brennan_prediger, cohen_kappa, conger_kappa, fleiss_kappa, gwet_ac1,
                       krippendorff_alpha, percent_agreement, scott_pi)
from .reports.irr import irr

__version__ = "0.2.0"
