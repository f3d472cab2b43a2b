"""Every public parameter is honoured or refused, never ignored (issue #24 point 1).

The walk goes over every public function (agreement_sql.public.PUBLIC: every function made
public is there by construction) and every parameter of its signature:

* its default is the one agreement_sql/declared.py declares for that function;
* every value its declaration refuses is refused, with an OptionError naming the parameter,
  before anything runs;
* (slow) a valid non-default value changes the call's outcome, or the call refuses it with an
  error naming the parameter: an option that cannot apply is refused, never passed over.

The tables it reads (tests/parameters/_walk.py) are inputs: a public function or parameter that
is not in them fails the walk.
"""
from __future__ import annotations

import inspect
import json
from typing import Any

import pytest

import agreement_sql  # noqa: F401  (imports every public module)
from agreement_sql import declared
from agreement_sql.errors import AgreementError, OptionError
from agreement_sql.public import PUBLIC

from ._walk import ALTERNATIVES, BASE, NOT_WALKED, REQUIRED, TABLES

PAIRS = [(f, p) for f, fn in sorted(PUBLIC.items())
         for p in inspect.signature(fn).parameters]


def test_every_public_function_is_walked():
    assert len(PUBLIC) >= 25, sorted(PUBLIC)


@pytest.mark.parametrize("function,parameter", PAIRS, ids=[f"{f}-{p}" for f, p in PAIRS])
def test_the_signature_default_is_the_declared_one(function, parameter):
    got = inspect.signature(PUBLIC[function]).parameters[parameter].default
    if got is inspect.Parameter.empty:
        return                                      # required: no default to hold
    assert got == declared.declared(parameter).default_of(function), (function, parameter)


REFUSALS = [(f, p, i) for f, p in PAIRS for i in range(len(declared.declared(p).refuses))]


@pytest.mark.parametrize("function,parameter,index", REFUSALS,
                         ids=[f"{f}-{p}-{i}" for f, p, i in REFUSALS])
def test_a_refused_value_is_refused_naming_the_parameter(function, parameter, index):
    value = declared.declared(parameter).refuses[index]
    fn = PUBLIC[function]
    required = {name: REQUIRED[name] for name, p in inspect.signature(fn).parameters.items()
                if p.default is inspect.Parameter.empty and name != parameter}
    with pytest.raises(OptionError) as info:
        fn(**required, **{parameter: value})
    assert parameter in str(info.value), str(info.value)


def test_every_required_parameter_has_a_valid_value():
    for function, fn in PUBLIC.items():
        for name, p in inspect.signature(fn).parameters.items():
            if p.default is inspect.Parameter.empty:
                assert name in REQUIRED, (function, name)


# -- the effect walk -------------------------------------------------------------------------

def _outcome(function: str, table: str, **kwargs: Any) -> Any:
    """A call's outcome: its result as JSON without the route (which may differ by input), or
    its error as (type, message)."""
    try:
        result = PUBLIC[function](TABLES[table](), **{**BASE[function], **kwargs})
    except AgreementError as exc:
        return (type(exc).__name__, str(exc))

    def strip(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "route"}
        return [strip(v) for v in x] if isinstance(x, list) else x
    return json.dumps(strip(result), sort_keys=True, default=str)


# what a None default means, where it means a value
EFFECTIVE = {"level": {None: "nominal"}}

WALK = [(f, p, value, table) for f in sorted(BASE)
        for p in inspect.signature(PUBLIC[f]).parameters if p not in NOT_WALKED
        for value, table in ALTERNATIVES.get(p, [(None, None)])]


@pytest.mark.slow   # a few hundred calls; CI runs it
@pytest.mark.parametrize("function,parameter,value,table", WALK,
                         ids=[f"{f}-{p}-{i}" for i, (f, p, _, _) in enumerate(WALK)])
def test_a_valid_value_changes_the_outcome_or_is_refused(function, parameter, value, table):
    assert table is not None, f"no alternative value of {parameter} to try (tests/parameters/_walk.py)"
    default = declared.declared(parameter).default_of(function)
    if value == (EFFECTIVE.get(parameter, {}).get(default, default)):
        return                          # this function's default (a level of None is nominal)
    base = _outcome(function, table)
    got = _outcome(function, table, **{parameter: value})
    if isinstance(got, tuple):
        refused = parameter in got[1] or (isinstance(value, str) and value in got[1])
        assert refused or got != base, (function, parameter, value, got)
    else:
        assert got != base, f"{function}({parameter}={value!r}) changed nothing"


def test_every_public_function_has_an_effect_walk_or_a_reason():
    # the workflows whose inputs are their own (a sheet, judges, merged pairs, a plan) walk
    # their parameters in their own suites
    own = {"evaluation_sheet": "tests/workflows/test_sheet*.py",
           "calibration_sample": "tests/workflows/test_sample*.py",
           "sample_size": "tests/planning", "alt_test": "tests/workflows/test_alt_test*.py",
           "judge_agreement": "tests/workflows/test_judges*.py",
           "report": "tests/report", "consistency": "tests/workflows/test_consistency*.py",
           "summarize": "tests/batches", "merge_states": "tests/batches"}
    assert set(PUBLIC) == set(BASE) | set(own), set(PUBLIC) ^ (set(BASE) | set(own))
