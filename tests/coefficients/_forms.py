"""Running one coefficient call through every route it can take (docs/decisions/0003, 0013).

The routes are agreement_sql.routes' declared alternatives, forced with ``routes.forcing``
(the one way to force a producer): ``wide`` (the wide form without rater patterns),
``patterns`` (the wide form's default: rater patterns wherever a statement asks and they fit),
``counts`` (the counts form, also where interval alpha alone would take the sums form; the
coefficients statement's default on inputs of at most ``constants.SMALL_INPUT_RATINGS`` ratings,
which every table here is), ``no_bits`` (no rater bits: the separate duplicate check), ``icc_apart`` (rater patterns, but the ICC from its own statement)
and ``counts_no_bits``. :func:`routes` runs the call under each, records the route every
statement took (``routes.collecting``), checks each forced alternative was taken wherever it
could serve, and returns each route's outcome (its result, or its typed error as ``(name,
message)``); :func:`same` compares them (without the ``route`` field, which differs by
construction). :func:`patterns` says which statements of a route used rater patterns,
:func:`icc_from_patterns` which gave the ICC from them.

A call whose statements never ask for rater patterns (no pair coefficient, no Conger) takes the
same route with or without them, so its "patterns" outcome is the "wide" outcome, not run
again; likewise a call whose "patterns" route took no ICC from the patterns has the "patterns"
outcome as its "icc_apart" outcome.
"""
from __future__ import annotations

import json
import random
from typing import Any, Callable

import pyarrow as pa
import pytest

from agreement_sql import routes as routing

ROUTES = ("wide", "patterns", "counts", "no_bits", "icc_apart")
ALL_ROUTES = ROUTES + ("counts_no_bits",)
# the wide form is forced: on inputs of at most constants.SMALL_INPUT_RATINGS ratings (every table
# here) the coefficients statement's default is the counts form, the "counts" route
FORCED = {"wide": {"units": "wide", "rater_patterns": "ratings"}, "patterns": {"units": "wide"},
          "counts": {"units": "counts"}, "no_bits": {"units": "wide", "rater_bits": "none"},
          "icc_apart": {"units": "wide", "icc": "packed"},
          "counts_no_bits": {"units": "counts", "rater_bits": "none"}}


def random_table(seed: int, *, items: int = 60, raters: int = 6, values=(1, 2, 3, 4, 5),
                 missing: float = 0.3, metrics: int = 2, labels: bool = False,
                 batches: int = 0, gaps: bool = False) -> pa.Table:
    """Long ratings (item, rater, metric, value[, batch]); a rating is the item's true value
    with probability 0.6, else drawn at random; a missing rating has no row.

    ``gaps``: also rows whose value is missing (NULL) or the placeholder -1 (numbers only),
    which a call passing ``missing=[-1]`` counts in ``n_excluded`` and never uses.
    """
    rng = random.Random(seed)
    out: dict[str, list] = {"item": [], "rater": [], "metric": [], "value": []}
    if batches:
        out["batch"] = []
    for m in range(metrics):
        for i in range(items):
            truth = rng.choice(values)
            for r in range(raters):
                if rng.random() < missing:
                    if not gaps or rng.random() < 0.7:
                        continue
                    v: Any = None if labels or rng.random() < 0.5 else -1
                else:
                    v = truth if rng.random() < 0.6 else rng.choice(values)
                    v = str(v) if labels else v
                out["item"].append(i)
                out["rater"].append(f"r{r:03d}")
                out["metric"].append(f"m{m}")
                out["value"].append(v)
                if batches:
                    out["batch"].append(f"b{i % batches}")
    return pa.table(out)


def routes(monkeypatch, call: Callable[[], Any], names=ROUTES) -> dict[str, dict[str, Any]]:
    """``{route: {"outcome": result or (error name, message), "log": [statement route, ...]}}``.
    (``monkeypatch`` is kept for the callers' signature; forcing needs none.)"""

    def outcome() -> tuple[Any, list[dict[str, str]]]:
        with routing.collecting() as log:
            try:
                result = call()
            except Exception as exc:            # the typed errors must match too
                result = (type(exc).__name__, str(exc))
        return result, list(log)

    out: dict[str, dict[str, Any]] = {}
    for name in names:
        if name == "patterns" and "wide" in out and not any(
                "rater_patterns" in e for e in out["wide"]["log"]):
            out[name] = dict(out["wide"])        # no statement asked for rater patterns
            continue
        if name == "icc_apart" and "patterns" in out and not icc_from_patterns(out):
            out[name] = dict(out["patterns"])    # no statement gave the ICC from its patterns
            continue
        with routing.forcing(**FORCED[name]):
            result, log = outcome()
        out[name] = {"outcome": result, "log": log}
    for name, got in out.items():
        for entry in got["log"]:
            forced = FORCED[name]
            if name in ("wide", "counts", "no_bits", "counts_no_bits"):
                assert entry.get("rater_patterns") in (None, "ratings"), (name, entry)
            if forced.get("units") == "counts" and "units" in entry:
                assert entry["units"] == "counts", (name, entry)
            if "rater_bits" in forced and "rater_bits" in entry:
                assert entry["rater_bits"] == "none", (name, entry)
            if name != "patterns":
                assert entry.get("icc") != "from_patterns", (name, entry)
    return out


def forms(routes_: dict[str, dict[str, Any]], name: str = "wide") -> list[str]:
    """The units form of each statement of one route that aggregates units."""
    return [e["units"] for e in routes_[name]["log"] if "units" in e]


def patterns(routes_: dict[str, dict[str, Any]], name: str = "patterns") -> list[bool]:
    """Whether each statement of one route that asked for rater identity used rater patterns."""
    return [e["rater_patterns"] == "patterns" for e in routes_[name]["log"]
            if "rater_patterns" in e]


def icc_from_patterns(routes_: dict[str, dict[str, Any]], name: str = "patterns") -> list[bool]:
    """Whether each statement of one route that gave an ICC gave it from rater patterns (empty:
    no statement was asked for the ICC)."""
    return [e["icc"] == "from_patterns" for e in routes_[name]["log"] if "icc" in e]


def outcome(routes_: dict[str, dict[str, Any]], name: str = "wide") -> Any:
    """One route's result (or typed error), without its ``route`` fields."""
    return without_route(routes_[name]["outcome"])


def same(routes_: dict[str, dict[str, Any]], *, tol: float = 0.0) -> None:
    """Every route's outcome equals the wide route's: JSON-identical with ``tol=0``; else the
    same keys, types and non-float values, and floats within ``tol`` (absolute and relative),
    for statistics whose floating-point sums run over other terms in another form."""
    first = outcome(routes_)
    for name in routes_:
        other = outcome(routes_, name)
        if tol == 0.0:
            assert json.dumps(other, sort_keys=True, default=str) == \
                json.dumps(first, sort_keys=True, default=str), (name, differences(other, first))
        else:
            close(other, first, name, tol)


def close(a: Any, b: Any, path: str = "result", tol: float = 1e-12) -> None:
    """Equal keys and values; floats within ``tol``."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (path, set(a) ^ set(b))
        for key in a:
            close(a[key], b[key], f"{path}.{key}", tol)
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, f"{path}[{i}]", tol)
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=tol, abs=tol), (path, a, b)
    else:
        assert type(a) is type(b) and a == b, (path, a, b)


def differences(a: Any, b: Any, path: str = "result") -> list[tuple[str, Any, Any]]:
    """Where two outcomes differ (for a failing comparison's message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b), key=str)
        return [d for k in keys for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [(path, a, b)]


def without_route(result: Any) -> Any:
    """``result`` without its ``route`` fields (they say which producers ran, which differ from
    route to route by construction)."""
    if isinstance(result, dict):
        return {k: without_route(v) for k, v in result.items() if k != "route"}
    if isinstance(result, (list, tuple)):
        return [without_route(v) for v in result]
    return result
