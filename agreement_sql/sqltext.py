"""The three kinds of text a template may write into SQL (docs/decisions/0001).

The template environment's ``finalize`` hook (agreement_sql.templates) lets through only these
and the output of a template's own macros: a caller's name reaches SQL as an
:class:`Identifier` (quoted for the dialect by the one ``ident`` filter), a value as a
:class:`BoundParam` marker (the value travels to the driver apart), and a dialect keyword, a
canonical name or a package constant as a :class:`Keyword`. They live here, below the template
layer, so that the modules that make them (agreement_sql.constants, the dialects) need not
import the renderer.
"""
from __future__ import annotations


class Identifier(str):
    """A quoted SQL identifier, produced only by the ``ident`` filter."""


class BoundParam(str):
    """A parameter marker such as ``$threshold``, produced only by ``bind()``."""


class Keyword(str):
    """A dialect keyword, a canonical name or a package constant, produced only by the package."""
