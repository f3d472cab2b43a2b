"""Typed exceptions. Every user mistake raises a subclass of :class:`AgreementError`.

The CLI prints ``str(error)`` as one line on stderr and exits 1, so each message names the
column, value or row at fault and says what would fix it.
"""
from __future__ import annotations


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
