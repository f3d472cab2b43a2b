"""DuckDB table macros: the package's statements callable from SQL alone (docs/decisions/0018).

``install_macros(con)`` (CLI ``agreement-sql macros DB``) defines, in the DuckDB database the
caller names, one table macro per public coefficient of the registry
(agreement_sql/registry.py), ``pairwise_agreement`` and ``irr_summary``, so that any DuckDB
client, with no Python, runs::

    SELECT * FROM krippendorff_alpha('ratings.parquet', level := 'nominal');
    SELECT * FROM fleiss_kappa('my_table', weights := 'quadratic');
    SELECT * FROM cohen_kappa('SELECT item, coder AS rater, code AS value FROM t', rater := 'rater');

The first argument is a table or view name, a file path DuckDB reads (a Parquet, CSV or JSON
file, or a glob), or a query (text starting with SELECT, FROM or WITH); ``item``, ``rater``,
``value`` name its columns (default item, rater, value) and ``metric`` a metric column
(default none: one metric named after the value column).

Every macro body is a statement rendered from the templates (agreement_sql.rendering.statement,
the builder ``agreement-sql render`` uses), never a hand-written copy, with the input checks a
Python call applies before it runs (rendering.CHECKS: NULL keys, unusable numbers, labels where
numbers are needed, a rater rating a unit twice, more raters than the rater bits hold) carried
through DuckDB's ``error()``: a bad input stops the query with a message naming the row. The
row checks run in the query that finds the call's route, once per call (:attr:`MacroRoute.checks`);
the rest in the statement of the route that serves the ratings. The caller's columns are read
by their type as the API reads them (the kind "typed" of sql/_ratings.sql.j2: DuckDB's
``typeof`` is folded when the call is planned, so one reading runs), and one statement serves a
metric column or none (option metric_switch).

Routes (docs/decisions/0018, measured in bench/README.md). A macro has no profile step, so it
renders the statement once per route of :data:`ROUTES` (agreement_sql/routes.py's vocabulary:
``units`` wide or counts, ``rater_bits`` with one block or all RATER_BLOCKS) and finds, once per
call, which route serves the ratings (sql/route_found.sql.j2, the macro ``agreement_sql_found``:
the distinct raters, and whether every rating is a whole number of the scale :data:`SCALE`);
each route's statement keeps its ratings only when it serves them (option route_guard), and
DuckDB skips every pipeline of the others. The wide route's categories are the scale's whole
numbers, fixed when the macro is rendered (unused ones count 0 and are not in any domain),
where the API's are the categories its profile found.

Structure options that vary per call (alpha's ``level``, the ``weights``) are rendered once per
choice, each choice's statement the UNION ALL of its routes' statements (:func:`choice_statement`),
and the public macro runs the chosen one with ``query()``: its argument, a CASE over the call's
constant arguments whose branches are the package's statement texts, is folded before DuckDB
binds anything, so only the chosen choice's routes are planned (before, a UNION ALL of every
choice's inner macros was bound and optimised whole: 10 statements for Fleiss, 13 for alpha).
The texts hold no value of the caller's: they read the public macro's CTEs, the caller's rows
(``agreement_input``, picked from the source's row struct by the column arguments), the call's
values (``agreement_args``: the metric name of a value column, whether a metric column is
given) and the route found (``agreement_found``). An unknown choice is an ``error()`` raised
when the CASE is folded.

Writing: this is the one command that writes into a database on purpose. It creates or
replaces only macros that carry the package's comment (``COMMENT ON MACRO``); an existing
function or macro of the same name that is not the package's is refused (OptionError), and
nothing is written then.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Any, Iterator

from .constants import BITS_PER_BLOCK, RATER_BLOCKS
from .dialects import DUCKDB
from .errors import OptionError
from .parameters import DEFAULT_LEVEL
from .registry import REGISTRY

COMMENT = "agreement-sql"
INPUT = "agreement_input"                       # the relation the rendered statements read
MACRO_DIALECT = replace(DUCKDB, param_form="agreement_p_{}")
# the route query macro's own parameters (prefixed: a macro parameter would capture a column
# reference of the same name in its body)
INNER_ARGS = ("agreement_src", "agreement_item", "agreement_rater", "agreement_value",
              "agreement_metric")
WEIGHTS = (None, "linear", "quadratic")
LEVELS = ("nominal", "ordinal", "interval", "ratio")
# the kinds of the caller's columns are not known when a macro is rendered: the engine's (the
# kind "typed" of sql/_ratings.sql.j2, folded to one reading when DuckDB plans the call)
TYPED_IDS = {"item": "typed", "rater": "typed", "metric": "typed", "slices": []}
# the wide form's categories in a macro: the whole numbers SCALE[0]..SCALE[1] (binary 0/1,
# Likert 1-5, 1-7, 0-9 ...), fixed when the macro is rendered (no profile lists the categories)
SCALE = (0, 9)


@dataclass(frozen=True)
class MacroRoute:
    """A route a macro renders ahead of the data (agreement_sql/routes.py's vocabulary: the
    units form and the rater bits), and the test on sql/route_found.sql.j2's row (columns of
    ``agreement_found``) that says it serves the ratings; exactly one route serves any input."""

    name: str
    form: str
    rater_blocks: int
    served: str

    @property
    def checks(self) -> tuple[str, ...]:
        """The checks the route's statement carries itself (rendering.CHECKS): the row checks
        (NULL keys, unusable numbers) run once per call in the query that finds the route
        (sql/route_found.sql.j2), over the same rows, before any route's statement can be
        served; a row check in a statement's filter kept DuckDB from simplifying it (10M
        ratings: Fleiss' wide statement 1.34 s with them, 1.03 s without, bench/README.md
        "DuckDB table macros"). Labels are refused by a statement that needs numbers on the
        counts form only: the wide route serves only ratings that are whole numbers of the
        scale."""
        return ("duplicates",) if self.form == "wide" else ("duplicates", "labels")


ROUTES = (
    # few raters, every rating a whole number of the scale: the wide form over the scale's
    # categories (unused ones count 0), one block of rater bits
    MacroRoute("wide", "wide", 1, f"n_raters <= {BITS_PER_BLOCK} AND in_scale"),
    # few raters, any other ratings (labels, fractions, numbers beyond the scale): the counts form
    MacroRoute("counts", "counts", 1, f"n_raters <= {BITS_PER_BLOCK} AND NOT in_scale"),
    # more raters than one block holds: the counts form with every block (up to 496 raters;
    # beyond, the statement stops naming the rater, sql/_rater_codes.sql.j2)
    MacroRoute("blocks", "counts", RATER_BLOCKS, f"n_raters > {BITS_PER_BLOCK}"),
)
FOUND = "agreement_sql_found"


@dataclass(frozen=True)
class Macro:
    """A public macro: its name, the template (a registry coefficient or a statement), and the
    per-call structure options it dispatches on (option name -> choices; None: not given)."""

    name: str
    template: str
    choices: tuple[tuple[str, tuple[Any, ...]], ...]
    defaults: tuple[tuple[str, Any], ...]
    title: str


def public_macros() -> list[Macro]:
    """Every public coefficient, pairwise agreement and the IRR summary."""
    out = []
    for entry in REGISTRY.values():
        choices: list[tuple[str, tuple[Any, ...]]] = []
        defaults: list[tuple[str, Any]] = []
        if entry.levels:
            choices.append(("level", LEVELS))
            defaults.append(("level", DEFAULT_LEVEL))
        if entry.weighted:
            choices.append(("weights", WEIGHTS))
            defaults.append(("weights", None))
        out.append(Macro(entry.name, entry.name, tuple(choices), tuple(defaults), entry.title))
    out.append(Macro("pairwise_agreement", "pairwise_agreement", (), (),
                     "exact and adjacent pairwise agreement % and GDPval A^HH per metric"))
    out.append(Macro("irr_summary", "irr_report", (), (),
                     "the workshop IRR report's statement: validation, scores, patterns, traces"))
    return out


def _source_query(src: str = "agreement_src") -> str:
    """The caller's source as DuckDB's query() reads it: a query as it is, else a relation or
    file name as one quoted identifier (a table, a view, or a file DuckDB's replacement scan
    reads: Parquet, CSV, JSON, a glob)."""
    return (f"query(CASE WHEN regexp_matches({src}, '^\\s*(select|from|with)\\b', 'i') "
            f"THEN {src} ELSE CONCAT('FROM \"', replace({src}, '\"', '\"\"'), '\"') END)")


def _input(src: str, item: str, rater: str, value: str, metric: str, inline: str) -> str:
    """The CTE ``agreement_input``: the caller's rows, their columns picked from the source's
    row struct by the macro's column arguments (the metric column is read only when the call
    names one: option metric_switch)."""
    return (f"{INPUT} AS {inline} (\n  SELECT r[{item}] AS \"item\", r[{rater}] AS \"rater\", "
            f"r[{value}] AS \"value\", r[{metric}] AS \"metric\"\n"
            f"  FROM {_source_query(src)} AS r\n)")


def _splice(sql: str) -> str:
    """The rendered statement with the caller's source as its first CTE: the columns named by
    the macro's arguments, read from the row as a struct (r[agreement_item] ...)."""
    marker = "\nWITH\n"
    if sql.count(marker) != 1:
        raise AssertionError("a macro's statement must open one top-level WITH")
    head, body = sql.split(marker, 1)
    source = _input(*INNER_ARGS, MACRO_DIALECT.inline)
    return head + marker + source + ",\n" + body


def _literal(value: Any) -> str:
    return MACRO_DIALECT.literal(value)


def _create(name: str, rendered: Any, params: dict[str, Any]) -> str:
    """The CREATE statement of a macro of one rendered statement (the route query): the source
    spliced in, its parameters the macro's (with the values a call would bind as defaults)."""
    args = list(INNER_ARGS)
    # the metric name of a value column and whether a metric column is given come first
    for p in ["default_metric", "metric_given"] + [q for q in rendered.params
                                                   if q not in ("default_metric", "metric_given")]:
        value = {"default_metric": "value", "metric_given": False}.get(p, params.get(p))
        args.append(f"agreement_p_{p} := {_literal(value)}")
    body = _splice(rendered.sql.strip().rstrip(";"))
    return f"CREATE OR REPLACE MACRO {name}({', '.join(args)}) AS TABLE\n{body}"


def _rendered(template: str, checks: Any = True, **options: Any) -> tuple[Any, dict[str, Any]]:
    from .rendering import statement

    rendered, params = statement(
        template, dialect=MACRO_DIALECT, relation=INPUT, item="item", rater="rater",
        value="value", metric="metric", metric_switch=True, checks=checks,
        value_kinds=["typed"], id_kinds=TYPED_IDS, **options)
    params.update(scale_low=float(SCALE[0]), scale_high=float(SCALE[1]))
    return rendered, params


def found_macros() -> Iterator[tuple[str, str]]:
    """(name, CREATE statement) of the macro that finds a call's route (sql/route_found.sql.j2)."""
    rendered, params = _rendered("route_found")
    yield FOUND, _create(FOUND, rendered, params)


def _route_options(route: MacroRoute, template: str) -> dict[str, Any]:
    from .templates import template_options

    scale = list(range(SCALE[0], SCALE[1] + 1))
    # the wide route's ratings are numbers; the others may hold labels, or labels and numbers
    # (category_kinds "mixed": a category is matched on its number and its label)
    return {"form": route.form, "rater_blocks": route.rater_blocks, "rater_list": 0,
            "route_guard": True,
            **({"categories": scale} if route.form == "wide" else {}),
            **({"category_kinds": "number" if route.form == "wide" else "mixed"}
               if (template in REGISTRY or "category_kinds" in template_options(template))
               else {})}


# the call's values a route's statement reads, as the public macro's CTE agreement_args holds
# them (the statement runs inside query(), where the macro's parameters are not visible)
CALL_PARAMS = ("default_metric", "metric_given")


def route_statement(macro: Macro, combo: dict[str, Any], route: MacroRoute) -> str:
    """The statement of one choice and route, as the text the public macro hands query(): it
    reads the public macro's CTEs, ``agreement_input`` (the caller's rows), ``agreement_args``
    (the call's values, :data:`CALL_PARAMS`) and ``agreement_found`` (its guard, the route's
    test); the package's own values (the scale's categories) are literals."""
    rendered, params = _rendered(macro.template, route.checks,
                                 **_route_options(route, macro.template),
                                 **{k: v for k, v in combo.items() if v is not None})

    def value(name: str) -> str:
        if name in CALL_PARAMS:
            return f"(SELECT agreement_p_{name} FROM agreement_args)"
        if name == "route_served":
            return f"(SELECT {route.served} FROM agreement_found)"
        return _literal(params[name])
    sql = rendered.sql.strip().rstrip(";")
    for name in sorted(rendered.params, key=len, reverse=True):
        sql = sql.replace(MACRO_DIALECT.param(name), value(name))
    return sql


def choice_statement(macro: Macro, combo: dict[str, Any]) -> str:
    """One choice's statement: its routes' statements under one UNION ALL (each keeps its rows
    only when its route serves the ratings)."""
    return "\nUNION ALL\n".join(f"SELECT * FROM (\n{route_statement(macro, combo, route)}\n)"
                                 for route in ROUTES)


def public_macro(macro: Macro) -> str:
    """The CREATE statement of the public macro. Its CTEs read the caller's rows
    (``agreement_input``), hold the call's values (``agreement_args``) and find the route once
    (``agreement_found``, materialised: the row checks run there); its body is ``query()`` of
    the chosen choice's statement, a text of the package's chosen by a CASE on the call's
    constant arguments, which DuckDB folds before it binds: only that choice's routes are
    planned. An unknown choice is an ``error()`` when the CASE is folded."""
    params = ["src"] + [f"{k} := {_literal(v)}" for k, v in macro.defaults] + [
        "item := 'item'", "rater := 'rater'", "value := 'value'", "metric := NULL"]
    found_args = ("src, item, rater, value, COALESCE(metric, value), "
                  "agreement_p_default_metric := value, "
                  "agreement_p_metric_given := metric IS NOT NULL")
    head = (f"CREATE OR REPLACE MACRO {macro.name}({', '.join(params)}) AS TABLE\n"
            f"WITH {_input('src', 'item', 'rater', 'value', 'COALESCE(metric, value)', MACRO_DIALECT.inline)},\n"
            "agreement_args AS MATERIALIZED (\n"
            "  SELECT value AS agreement_p_default_metric, "
            "metric IS NOT NULL AS agreement_p_metric_given\n),\n"
            f"agreement_found AS MATERIALIZED (SELECT * FROM {FOUND}({found_args}))\n")
    if not macro.choices:
        return head + f"SELECT * FROM query({_literal(choice_statement(macro, {}))})"
    keys = [k for k, _ in macro.choices]
    whens = []
    for values in product(*(c for _, c in macro.choices)):
        combo = dict(zip(keys, values))
        tests = " AND ".join(f"{k} IS NULL" if v is None else f"{k} = {_literal(v)}"
                             for k, v in combo.items())
        whens.append(f"WHEN {tests} THEN {_literal(choice_statement(macro, combo))}")
    # an unknown choice: the first argument that has none of its choices is named
    refusals = []
    for k, allowed in macro.choices:
        listed = ", ".join(_literal(v) for v in allowed if v is not None)
        shown = " | ".join(str(v) if v is not None else "NULL" for v in allowed)
        bad = (f"({k} IS NOT NULL AND {k} NOT IN ({listed}))" if None in allowed
               else f"({k} IS NULL OR {k} NOT IN ({listed}))")
        refusals.append(f"WHEN {bad} THEN error(CONCAT('agreement-sql: OptionError: {macro.name}: "
                        f"{k} must be {shown}, got ', COALESCE(CAST({k} AS VARCHAR), 'NULL')))")
    return (head + "SELECT * FROM query(CASE\n" + "\n".join(whens)
            + f"\nELSE CASE {' '.join(refusals)} END END)")


def macro_names(macros: list[Macro] | None = None) -> list[str]:
    macros = public_macros() if macros is None else macros
    names = ["agreement_fsum", "agreement_isnan"] + [name for name, _ in found_macros()]
    return names + [macro.name for macro in macros]


def macro_script() -> list[str]:
    """Every statement that defines the macros, in order: the session macros the statements
    call (persistent here), the route query, the public macros, and each one's comment."""
    setup = [s.replace("CREATE OR REPLACE TEMP MACRO", "CREATE OR REPLACE MACRO")
             for s in DUCKDB.setup]
    statements = list(setup)
    comments = [f"COMMENT ON MACRO agreement_fsum IS '{COMMENT}'",
                f"COMMENT ON MACRO agreement_isnan IS '{COMMENT}'"]
    for name, create in found_macros():
        statements.append(create)
        comments.append(f"COMMENT ON MACRO TABLE {name} IS '{COMMENT}'")
    for macro in public_macros():
        statements.append(public_macro(macro))
        comments.append(f"COMMENT ON MACRO TABLE {macro.name} IS "
                        f"{_literal(COMMENT + ': ' + macro.title)}")
    return statements + comments


def script_text() -> str:
    """The macros as one SQL script (``agreement-sql macros`` without a database), for the
    DuckDB CLI: ``agreement-sql macros | duckdb my.db``."""
    head = ("-- agreement-sql macros: table macros for DuckDB (docs/decisions/0018).\n"
            "-- Run in the database that should hold them; they replace earlier agreement-sql\n"
            "-- macros of the same names. Then: SELECT * FROM krippendorff_alpha('ratings.parquet');\n")
    return head + "".join(s + ";\n" for s in macro_script())


def install_macros(con: Any) -> list[str]:
    """Define the macros in ``con``'s current database (a duckdb connection); returns the public
    macros' names. Refuses (OptionError, nothing written) when a function or macro of one of
    the names exists that is not the package's (its comment does not start with
    'agreement-sql'). Runs in one transaction on a cursor of ``con``."""
    import duckdb

    if not isinstance(con, duckdb.DuckDBPyConnection):
        raise OptionError(f"install_macros takes a duckdb connection, got {type(con).__name__}")
    names = macro_names()
    cur = con.cursor()
    try:
        # (a scalar and a table macro may share a name: every function of the name is looked at)
        found = cur.execute(
            "SELECT function_name, comment FROM duckdb_functions() "
            "WHERE database_name = current_database() AND schema_name = current_schema() "
            "AND list_contains(?, function_name)", [names]).fetchall()
        foreign = sorted({n for n, comment in found if not str(comment or "").startswith(COMMENT)})
        builtin = cur.execute(
            "SELECT DISTINCT function_name FROM duckdb_functions() WHERE internal "
            "AND list_contains(?, function_name)", [names]).fetchall()
        foreign += sorted(n for (n,) in builtin)
        if foreign:
            raise OptionError(f"the database already has {len(foreign)} function(s) or macro(s) of "
                              f"these names that agreement-sql did not create: "
                              f"{', '.join(repr(n) for n in foreign[:5])}; nothing was written")
        cur.execute("BEGIN TRANSACTION")
        try:
            for statement in macro_script():
                cur.execute(statement)
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise
    finally:
        cur.close()
    return [m.name for m in public_macros()]
