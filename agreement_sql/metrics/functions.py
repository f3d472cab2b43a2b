"""The public coefficient functions: one per registry entry (agreement_sql.registry), each made
by :func:`agreement_sql.metrics.coefficient.coefficient_function`. An entry added to the registry
is a function here, exported by the package, with no line to write (docs/adding-a-coefficient.md).
"""
from __future__ import annotations

from ..registry import REGISTRY
from .coefficient import CoefficientFunction, coefficient_function

FUNCTIONS: dict[str, CoefficientFunction] = {
    name: coefficient_function(entry) for name, entry in REGISTRY.items()}
globals().update(FUNCTIONS)

__all__ = list(FUNCTIONS)
