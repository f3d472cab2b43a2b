"""How many examples a property test draws: all of them in the full run, a third in the default one.

The default local run (``pytest``: addopts deselect ``slow``) must stay under three minutes; the
full run (``pytest -m "slow or not slow"``, what .ci/run executes) draws every property test's
declared number of examples. ``tests/conftest.py`` sets :data:`THOROUGH` from the marker
expression before any test module is collected, so a decorator's ``examples(n)`` reads it.

The second rule of the budget: a test function that takes a second or more in the default run
(``--durations``, all its parameters together) is marked ``slow``; CI still runs it. Two stay
in the default run whatever they cost, as its guards: the route-equality share
(tests/routes/test_route_equality.py, every alternative on its first cheap call) and the dbt
package's freshness (tests/dbt/test_dbt_package.py). Measured on
the 2-core machine on 2026-12-07: the default run took 345 s with 3,236 tests; marking the other
94 functions of a second or more brought it to 151 s (2,983 tests; collection about 12 s of it).
"""
from __future__ import annotations

THOROUGH = True


def examples(declared: int) -> int:
    """``declared`` in the full run; in the default run a third of it, never fewer than
    ``min(declared, 5)`` (a property keeps being drawn over several inputs)."""
    if THOROUGH:
        return declared
    return max(min(declared, 5), declared // 3)


def share(items: "list", part: int, parts: int) -> "list":
    """``items`` in the full run; in the default run every ``parts``-th of them from ``part``:
    a test parametrized over ``parts`` cases covers every item in one of them by default, and
    every item in every case in the full run."""
    if THOROUGH:
        return list(items)
    return list(items)[part % parts::parts]
