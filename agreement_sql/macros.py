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
row checks run in the query that finds the call's route, once per call (:data:`ROUTE_CHECKS`);
the rest in the statement of the route that serves the ratings. The caller's columns are read by their type as the API reads them (the kind
"typed" of sql/_ratings.sql.j2: DuckDB's ``typeof`` is folded when the call is planned, so one
reading runs), and one statement serves a metric column or none (option metric_switch).

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
choice and route into an inner macro (``agreement_sql_<name>__<choice>__<route>``), and the
public macro dispatches: a UNION ALL of the inner macros, each under a filter on the call's
constant arguments, which DuckDB's optimizer removes before anything runs but the chosen
choice's routes; an unknown choice is an ``error()``. DuckDB binds every branch before it removes
them: a call's planning grows with the choices times the routes (0.3-0.4 s, bench/README.md).

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
# the inner macros' own parameters (prefixed: a macro parameter would capture a column reference
# of the same name in its body)
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


def _inner_name(macro: Macro, combo: dict[str, Any], route: MacroRoute) -> str:
    parts = [str(combo[k]) if combo[k] is not None else "none" for k, _ in macro.choices]
    return "__".join(["agreement_sql_" + macro.name, *parts, route.name])


def _source_query() -> str:
    """The caller's source as DuckDB's query() reads it: a query as it is, else a relation or
    file name as one quoted identifier (a table, a view, or a file DuckDB's replacement scan
    reads: Parquet, CSV, JSON, a glob)."""
    return ("query(CASE WHEN regexp_matches(agreement_src, '^\\s*(select|from|with)\\b', 'i') "
            "THEN agreement_src ELSE CONCAT('FROM \"', replace(agreement_src, '\"', '\"\"'), '\"') END)")


def _splice(sql: str) -> str:
    """The rendered statement with the caller's source as its first CTE: the columns named by
    the macro's arguments, read from the row as a struct (r[agreement_item] ...)."""
    marker = "\nWITH\n"
    if sql.count(marker) != 1:
        raise AssertionError("a macro's statement must open one top-level WITH")
    head, body = sql.split(marker, 1)
    # the metric column (read only when the call names one: option metric_switch)
    metric = ", r[agreement_metric] AS \"metric\""
    source = (f"{INPUT} AS {MACRO_DIALECT.inline} (\n  SELECT r[agreement_item] AS \"item\", r[agreement_rater] AS \"rater\", "
              f"r[agreement_value] AS \"value\"{metric}\n  FROM {_source_query()} AS r\n),\n")
    return head + marker + source + body


def _literal(value: Any) -> str:
    return MACRO_DIALECT.literal(value)


def _create(name: str, rendered: Any, params: dict[str, Any]) -> str:
    """The CREATE statement of an inner macro: the rendered statement with the source spliced
    in, its parameters the macro's (with the values a call would bind as defaults)."""
    args = list(INNER_ARGS)
    # every inner macro takes the metric name of a value column and whether a metric column
    # is given, so the dispatch passes the same arguments to each
    for p in ["default_metric", "metric_given"] + [q for q in rendered.params
                                                   if q not in ("default_metric", "metric_given")]:
        value = {"default_metric": "value", "metric_given": False}.get(p, params.get(p))
        args.append(f"agreement_p_{p} := {_literal(value)}")
    body = _splice(rendered.sql.strip().rstrip(";"))
    return f"CREATE OR REPLACE MACRO {name}({', '.join(args)}) AS TABLE\n{body}"


# the checks a route's statement carries itself (rendering.CHECKS): the row checks (NULL keys,
# unusable numbers) run once per call in the query that finds the route
# (sql/route_found.sql.j2), over the same rows, before any route's statement can be served; a
# row check in a statement's filter kept DuckDB from simplifying it (10M ratings: Fleiss' wide
# statement 1.34 s with them, 1.03 s without, bench/README.md "DuckDB table macros"). Labels are
# refused by a statement that needs numbers, on the routes that can meet one: the wide route
# serves only ratings that are whole numbers of the scale.
ROUTE_CHECKS = {"wide": ("duplicates",), "counts": ("duplicates", "labels"),
                "blocks": ("duplicates", "labels")}


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
    return {"form": route.form, "rater_blocks": route.rater_blocks, "route_guard": True,
            **({"categories": scale} if route.form == "wide" else {}),
            **({"category_kinds": "number" if route.form == "wide" else "mixed"}
               if (template in REGISTRY or "category_kinds" in template_options(template))
               else {})}


def inner_macros(macro: Macro) -> Iterator[tuple[str, str]]:
    """(name, CREATE statement) of each inner macro: one rendered statement per choice and
    route."""
    keys = [k for k, _ in macro.choices]
    for values in product(*(c for _, c in macro.choices)):
        combo = dict(zip(keys, values))
        for route in ROUTES:
            rendered, params = _rendered(macro.template, ROUTE_CHECKS[route.name],
                                         **_route_options(route, macro.template),
                                         **{k: v for k, v in combo.items() if v is not None})
            name = _inner_name(macro, combo, route)
            yield name, _create(name, rendered, params)


def public_macro(macro: Macro) -> str:
    """The CREATE statement of the public macro: the route found once (``agreement_found``),
    then the dispatch over its inner macros, each told whether its route serves the ratings."""
    params = ["src"] + [f"{k} := {_literal(v)}" for k, v in macro.defaults] + [
        "item := 'item'", "rater := 'rater'", "value := 'value'", "metric := NULL"]
    args = ("src, item, rater, value, COALESCE(metric, value), agreement_p_default_metric := value, "
            "agreement_p_metric_given := metric IS NOT NULL")
    found = f"WITH agreement_found AS MATERIALIZED (SELECT * FROM {FOUND}({args}))\n"
    branches = []
    keys = [k for k, _ in macro.choices]
    for values in product(*(c for _, c in macro.choices)):
        combo = dict(zip(keys, values))
        tests = [f"{k} IS NULL" if v is None else f"{k} = {_literal(v)}" for k, v in combo.items()]
        for route in ROUTES:
            branches.append(
                f"SELECT * FROM {_inner_name(macro, combo, route)}({args}, "
                f"agreement_p_route_served := (SELECT {route.served} FROM agreement_found))"
                + (f"\nWHERE {' AND '.join(tests)}" if tests else ""))
    # an unknown choice: the one branch left, whose guard stops the call when it runs
    for k, allowed in macro.choices:
        listed = ", ".join(_literal(v) for v in allowed if v is not None)
        shown = " | ".join(str(v) if v is not None else "NULL" for v in allowed)
        bad = (f"({k} IS NOT NULL AND {k} NOT IN ({listed}))" if None in allowed
               else f"({k} IS NULL OR {k} NOT IN ({listed}))")
        first = _inner_name(macro, {kk: c[0] for kk, c in macro.choices}, ROUTES[-1])
        branches.append(
            f"SELECT * FROM {first}({args}, agreement_p_route_served := (SELECT CASE WHEN {bad} "
            f"THEN error(CONCAT('agreement-sql: OptionError: {macro.name}: {k} must be {shown}, "
            f"got ', COALESCE(CAST({k} AS VARCHAR), 'NULL'))) ELSE FALSE END FROM agreement_found))\n"
            f"WHERE {bad}")
    return (f"CREATE OR REPLACE MACRO {macro.name}({', '.join(params)}) AS TABLE\n" + found
            + "\nUNION ALL\n".join(branches))


def macro_names(macros: list[Macro] | None = None) -> list[str]:
    macros = public_macros() if macros is None else macros
    names = ["agreement_fsum", "agreement_isnan"] + [name for name, _ in found_macros()]
    for macro in macros:
        names += [name for name, _ in inner_macros(macro)] + [macro.name]
    return names


def macro_script() -> list[str]:
    """Every statement that defines the macros, in order: the session macros the statements
    call (persistent here), the inner macros, the public ones, and each one's comment."""
    setup = [s.replace("CREATE OR REPLACE TEMP MACRO", "CREATE OR REPLACE MACRO")
             for s in DUCKDB.setup]
    statements = list(setup)
    comments = [f"COMMENT ON MACRO agreement_fsum IS '{COMMENT}'",
                f"COMMENT ON MACRO agreement_isnan IS '{COMMENT}'"]
    for name, create in found_macros():
        statements.append(create)
        comments.append(f"COMMENT ON MACRO TABLE {name} IS '{COMMENT}'")
    for macro in public_macros():
        for name, create in inner_macros(macro):
            statements.append(create)
            comments.append(f"COMMENT ON MACRO TABLE {name} IS '{COMMENT}'")
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
