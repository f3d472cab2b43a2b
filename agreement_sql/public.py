"""The one door every public computation passes through.

:func:`public` wraps each public function of the package (the coefficient functions,
``coefficients``, ``icc``, the reports and workflows). Around the call it

* checks every argument the caller passed against its declaration (agreement_sql.declared:
  every public parameter declared once, with its type, range and default), refusing what it
  cannot take with an OptionError that names it, before anything runs;
* collects the route of every statement the call runs (agreement_sql.routes) and puts it in
  each result as ``route``: a list with, per statement, the producers its inputs came from
  (docs/decisions/0013), so a result says how it was computed;
* writes the result where ``to=`` says (a ``.parquet`` or ``.csv`` file, or ``("table",
  name)`` on the caller's DuckDB connection), as long typed rows: agreement_sql.tables,
  docs/decisions/0024. ``to=`` is declared once (agreement_sql.declared) and taken here, so
  every public function returning results accepts it and none repeats it;

and it is where the rules every call must follow are applied once, rather than remembered by
each function. A function whose parameter is not declared cannot be made public (an import-time
error), so a new parameter is checked by construction.
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar

from . import declared, routes

F = TypeVar("F", bound=Callable[..., Any])

# where a function's results are: "result" (a result dict, or a list of them, possibly nested),
# "each" (a mapping of results, {metric: result}), "coefficients" (coefficients(): {name:
# result}, or a list of {"metric", "coefficients": {...}}), "none" (no result dict: text),
# "state" (a batch state's summary: the function writes the state itself to its required to=,
# agreement_sql.batches, so to= is its own argument and no result rows are written)
ATTACH = ("result", "each", "coefficients", "none", "state")

# every public computation, by name, as it was made public (tests/parameters walks them all)
PUBLIC: dict[str, Callable[..., Any]] = {}


def public(attach: str = "result") -> Callable[[F], F]:
    """Make ``function`` a public computation (see the module's docstring)."""
    if attach not in ATTACH:
        raise ValueError(f"attach must be one of {ATTACH}")

    def wrap(function: F) -> F:
        signature = inspect.signature(function)
        name = function.__name__
        for parameter in signature.parameters.values():
            if parameter.kind is not inspect.Parameter.VAR_KEYWORD:
                declared.declared(parameter.name)       # undeclared: an error at import

        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            to = kwargs.pop("to", None) if attach != "state" else None
            if to is not None:
                declared.check_arguments(name, {"to": to})
                if attach == "none":
                    from .errors import OptionError
                    raise OptionError(f"{name}() returns text, not a result: to= cannot apply")
            try:
                given = signature.bind(*args, **kwargs).arguments
            except TypeError as exc:
                from .errors import OptionError
                raise OptionError(f"{name}(): {exc}") from None
            declared.check_arguments(name, given)
            target = _destination(to, given) if to is not None else None
            with routes.collecting() as log:
                result = function(*args, **kwargs)
            if attach != "none":
                _attach(result, [dict(entry) for entry in log], attach)
            if target is not None:
                target.write(result, name)
            return result

        PUBLIC[name] = call
        return call  # type: ignore[return-value]

    return wrap


def _attach(result: Any, log: list[dict[str, str]], attach: str) -> None:
    if isinstance(result, list):
        for element in result:
            _attach(element, log, attach)
    elif isinstance(result, dict):
        if attach in ("each", "coefficients"):
            inner: dict[Any, Any] = (result["coefficients"] if attach == "coefficients"
                                     and isinstance(result.get("coefficients"), dict) else result)
            for value in inner.values():
                if isinstance(value, dict):
                    value["route"] = [dict(e) for e in log]
        else:
            result["route"] = [dict(e) for e in log]


def _destination(to: Any, given: dict[str, Any]) -> Any:
    """``to`` checked before anything runs (agreement_sql.tables): never a file the call reads."""
    from . import tables
    from .outputs import Inputs

    read = [value for key, value in given.items() if key not in WRITTEN]
    return tables.destination(to, inputs=Inputs.of(*read), con=given.get("con"))


# the arguments naming files a call writes (not inputs)
WRITTEN = ("output", "points_to", "disagreements_tsv")
