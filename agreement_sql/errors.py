"""Typed exceptions. Every user mistake raises a subclass of :class:`AgreementError`.

The CLI prints ``str(error)`` as one line on stderr and exits 1, so each message names the
column, value or row at fault and says what would fix it.

:class:`AgreementWarning` is the category of every warning the package issues (through
:mod:`warnings`, never a print or a log line): the Python API writes nothing to stdout or
stderr, so the package adds one filter at import, *at the end* of the filter list, that
ignores the category. Any filter of yours comes first and wins:
``warnings.simplefilter("default", agreement_sql.AgreementWarning)`` shows them,
``"error"`` raises them, ``python -W default::agreement_sql.AgreementWarning`` or
``warnings.catch_warnings(record=True)`` collects them. A result that warns also lists its
warnings in its ``warnings`` field; the CLI prints each as ``agreement-sql: warning: ...``.
"""
from __future__ import annotations

import warnings


class AgreementError(Exception):
    """Base class for every error agreement-sql raises on bad input or bad options."""


class SourceError(AgreementError):
    """The source cannot be read: unknown type, missing file, unreadable format, empty input."""


class ColumnError(AgreementError):
    """A requested column does not exist; the message lists the available columns."""


class DuplicateRatingError(AgreementError):
    """The same rater rated the same item (and metric) more than once."""


class InvalidRatingError(AgreementError):
    """A rating is not a number where one is needed, or lies outside its declared scale."""


class MissingKeyError(AgreementError):
    """An item, rater, metric or slice key is NULL."""


class OptionError(AgreementError):
    """An option has a value the function does not accept."""


class TemplateError(AgreementError):
    """A template tried to emit something that is neither a quoted identifier nor a bound parameter."""


class AgreementWarning(UserWarning):
    """Something the caller should know about a result that is still returned (an unreliable
    judge group, ...): also listed in the result's ``warnings``."""


# silent unless the caller asks (appended: every filter of the caller's comes first)
warnings.filterwarnings("ignore", category=AgreementWarning, append=True)
