"""Comparing one call's result on two engines: integers and text exactly, floats to 1e-9.

The DuckDB result is the oracle (its numbers are checked against publications and reference
libraries in tests/coefficients, tests/workshop and tests/icc); another engine must give the
same result to within 1e-9, absolute or relative, whichever is larger (decision 0008: Spark
adds floating-point terms in an order its scheduler picks).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from conftest import without_choices

TOLERANCE = 1e-9


def plain(value: Any) -> Any:
    """A result as plain JSON-like data (dicts, lists, numbers, text, None)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return plain(value.to_dict())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def differences(a: Any, b: Any, path: str = "$", tol: float = TOLERANCE) -> list[str]:
    """Where ``b`` differs from ``a`` (empty when the same within ``tol``)."""
    a, b = plain(a), plain(b)
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        if set(a) != set(b):
            out.append(f"{path}: keys {sorted(map(str, set(a) ^ set(b)))} differ")
        for k in a:
            if k in b:
                out += differences(a[k], b[k], f"{path}.{k}", tol)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} elements"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]", tol)
        return out
    if isinstance(a, (bool, int)) or isinstance(b, (bool, int)):
        # integers (counts) exactly, and of the same type: 3 is not 3.0
        return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return [f"{path}: NaN ({a!r} vs {b!r})"]
        if abs(a - b) <= tol * max(1.0, abs(a)):
            return []
        return [f"{path}: {a!r} vs {b!r} (difference {abs(a - b):.3g})"]
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def _engine_free(value: Any) -> Any:
    """``value`` without the route choices the engine alone settles (routes.Decision.by_engine:
    Spark has no JSON Lines reader, so consistency() reads its file in Python there)."""
    return without_choices(plain(value), "by_engine")


def assert_same(a: Any, b: Any, what: str = "") -> None:
    found = differences(_engine_free(a), _engine_free(b))
    assert not found, f"{what}: {len(found)} difference(s):\n  " + "\n  ".join(found[:20])
