"""Running one coefficient call through every route the plan can take (docs/decisions/0003).

A coefficient statement reads its ratings in one of two forms chosen by
``agreement_sql.plan.make_plan``: ``wide`` (at most 16 categories, a count column per category,
sums over unit patterns) or ``counts`` (a counts-per-(unit, value) table); with at most
``plan.MAX_BIT_RATERS`` raters the statement's own units find duplicates with rater bits, beyond
that ``sql/duplicate_check.sql.j2`` runs first; on large inputs the statement numbers the raters
the profile listed (``plan.LIST_RATERS_FROM``); in the wide form with few raters, a statement
with a pair coefficient or Conger's kappa reads its rater patterns (``make_plan(...,
patterns=True)``, agreement_sql/metrics/coefficient.py ``pattern_route``:
sql/_pair_patterns.sql.j2 and Conger's per-rater counts count from the per-unit pass's rater
patterns instead of the ratings). With rater patterns and numeric ratings, ``coefficients()``
also takes its ICC from that statement (sql/_icc.sql.j2 over the patterns,
agreement_sql/metrics/icc.py ``pattern_raters``) instead of a second statement over the ratings
(sql/icc.sql.j2). :func:`routes` forces each of them (``plan.FORCED_FORM``,
``plan.MAX_BIT_RATERS``, ``plan.LIST_RATERS_FROM``, ``plan.FORCED_PATTERNS``: the "wide" route
without rater patterns, the "patterns" route with them wherever the plan allows;
``icc.FROM_PATTERNS``: the "icc_apart" route, rater patterns but the ICC from its own
statement), records the plan every call made and whether its ICC came from the rater patterns,
and returns each route's outcome (its result, or its typed error as ``(name, message)``);
:func:`same` compares them. :func:`patterns` says which plans of a route used rater patterns,
:func:`icc_from_patterns` which statements of a route gave the ICC.

A call whose statements never ask for rater patterns (no pair coefficient, no Conger) gives
the same plans with ``FORCED_PATTERNS`` on or off, so its "patterns" route is the "wide" route's
outcome, not run again; likewise a call whose "patterns" route took no ICC from the patterns
has the "patterns" outcome as its "icc_apart" outcome.
"""
from __future__ import annotations

import json
import random
from typing import Any, Callable

import pyarrow as pa
import pytest

from agreement_sql import plan
from agreement_sql.metrics import coefficient as coefficient_module
from agreement_sql.metrics import icc as icc_module

ROUTES = ("wide", "patterns", "counts", "no_bits", "listed", "icc_apart")
ALL_ROUTES = ROUTES + ("counts_no_bits",)


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
    """``{route: {"outcome": result or (error name, message), "plans": [Plan, ...],
    "asked": [bool, ...], "icc": [bool, ...]}}``: per statement, whether it asked for rater
    patterns and whether it gave the ICC from them."""
    seen: list[Any] = []
    asked: list[bool] = []
    iccs: list[bool] = []
    original = plan.make_plan
    original_raters = coefficient_module.pattern_raters

    def recording(*args, **kwargs):
        made = original(*args, **kwargs)
        seen.append(made)
        asked.append(bool(kwargs.get("patterns")))
        return made

    def recording_raters(*args, **kwargs):
        raters = original_raters(*args, **kwargs)
        iccs.append(raters > 0)
        return raters

    def outcome() -> Any:
        seen.clear()
        iccs.clear()
        try:
            return call()
        except Exception as exc:            # the typed errors must match too
            return (type(exc).__name__, str(exc))

    forced = {"wide": {"FORCED_PATTERNS": False}, "patterns": {"FORCED_PATTERNS": True},
              "counts": {"FORCED_FORM": "counts"},
              "no_bits": {"MAX_BIT_RATERS": 0},
              "listed": {"LIST_RATERS_FROM": 0},
              "icc_apart": {"FORCED_PATTERNS": True},
              "counts_no_bits": {"FORCED_FORM": "counts", "MAX_BIT_RATERS": 0}}
    out: dict[str, dict[str, Any]] = {}
    with monkeypatch.context() as mp:
        mp.setattr(coefficient_module, "make_plan", recording)
        mp.setattr(coefficient_module, "pattern_raters", recording_raters)
        for name in names:
            if name == "patterns" and "wide" in out and not any(out["wide"]["asked"]):
                # no statement asked for rater patterns: the same plans, the same statements
                out[name] = dict(out["wide"])
                continue
            if name == "icc_apart" and "patterns" in out and not any(out["patterns"]["icc"]):
                # no statement gave the ICC from its rater patterns: the same statements
                out[name] = dict(out["patterns"])
                continue
            asked.clear()
            with monkeypatch.context() as route:
                for attribute, value in forced[name].items():
                    route.setattr(plan, attribute, value)
                route.setattr(icc_module, "FROM_PATTERNS", name != "icc_apart")
                result = outcome()
            out[name] = {"outcome": result, "plans": list(seen), "asked": list(asked),
                         "icc": list(iccs)}
    for name, got in out.items():
        if name not in ("patterns", "listed"):     # the others keep no rater patterns
            assert not any(got["icc"]), (name, got["icc"])
        for p in got["plans"]:
            if name in ("wide", "counts", "no_bits", "counts_no_bits"):
                assert not p.rater_patterns, (name, p)
            if "counts" in name:
                assert p.form == "counts", (name, p)
            if "no_bits" in name:
                assert p.rater_blocks == 0, (name, p)
            if name == "listed" and p.rater_blocks:
                assert p.rater_list is not None, (name, p)
            if name != "listed":
                assert p.rater_list is None, (name, p)
    return out


def forms(routes_: dict[str, dict[str, Any]], name: str = "wide") -> list[str]:
    """The forms the plans of one route chose (one plan per statement)."""
    return [p.form for p in routes_[name]["plans"]]


def patterns(routes_: dict[str, dict[str, Any]], name: str = "patterns") -> list[bool]:
    """Whether each plan of one route used rater patterns (one plan per statement)."""
    return [p.rater_patterns for p in routes_[name]["plans"]]


def icc_from_patterns(routes_: dict[str, dict[str, Any]], name: str = "patterns") -> list[bool]:
    """Whether each statement of one route that could give coefficients()' ICC gave it from its
    rater patterns (empty: no statement was asked for the ICC)."""
    return routes_[name].get("icc", [])


def outcome(routes_: dict[str, dict[str, Any]], name: str = "wide") -> Any:
    return routes_[name]["outcome"]


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
            close(other, first, tol, name)


def close(a: Any, b: Any, tol: float, path: str = "result") -> None:
    """Equal keys and values; floats within ``tol``."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and set(a) == set(b), (path, set(a) ^ set(b))
        for key in a:
            close(a[key], b[key], tol, f"{path}.{key}")
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            close(x, y, tol, f"{path}[{i}]")
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
