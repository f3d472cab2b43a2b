"""The template layer: Jinja2 that can only emit quoted identifiers and bound parameters.

Four rules make a forgotten bind or a misspelt option impossible (docs/decisions/0001):

* ``{{ name | ident }}`` is the one way a caller's column or relation name reaches SQL; it
  returns an :class:`Identifier`, quoted for the dialect (embedded quotes doubled, NUL refused).
* ``{{ bind("threshold") }}`` writes a named parameter marker (``$threshold`` on DuckDB) and
  records the name; the value travels separately to the driver.
* The environment's ``finalize`` hook refuses every other value, so ``{{ level }}`` or a
  number pasted into the text raises :class:`TemplateError` instead of rendering. Numbers the
  package and its SQL must agree on come from ``const`` (:mod:`agreement_sql.constants`).
* Options are declared by use: the options a template takes are exactly the free variables of
  it and every partial it includes or imports (:func:`template_options`). Rendering refuses an
  option the template does not take and a template option it was not given (so no ``|default``
  and no silent fallback), and every option value is checked against its declaration in
  :mod:`agreement_sql.options`.

Jinja only chooses structure (``{% if level == "ordinal" %}``); the SQL text is the template's.
"""
from __future__ import annotations

import os
import re
import stat
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import jinja2
from jinja2 import meta
from markupsafe import Markup

from . import constants
from .dialects import DIALECTS, DUCKDB, Dialect
from .errors import OptionError, TemplateError
from .options import check_option
from .sqltext import BoundParam, Identifier, Keyword

_PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CANONICAL = re.compile(r"^([a-z][a-z0-9_]*\.)?[a-z][a-z0-9_]*$")
GLOBALS = frozenset({"bind", "relation", "canon", "num", "sql", "dialect", "const", "loop", "caller",
                     "range", "true", "false", "none", "True", "False", "None"})


def template_dir() -> Path:
    """The folder of SQL templates: the copy inside the installed wheel, else the checkout's ``sql/``."""
    installed = Path(__file__).resolve().parent / "sql"
    if installed.is_dir():
        return installed
    checkout = Path(__file__).resolve().parent.parent / "sql"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("agreement-sql cannot find its SQL templates (looked in "
                            f"{installed} and {checkout})")


def _finalize(value: Any) -> Markup:
    if isinstance(value, (Identifier, BoundParam, Keyword)):
        return Markup(str(value))
    if isinstance(value, Markup):   # output of a macro defined in a template
        return value
    raise TemplateError(
        f"template tried to write {value!r} into SQL; use '| ident' for names and bind() for values")


def quote_identifier(dialect: Dialect, name: Any) -> Identifier:
    """The one identifier-quoting function: every caller-supplied name passes through here."""
    if not isinstance(name, str) or name == "":
        raise OptionError(f"an identifier must be a non-empty string, got {name!r}")
    if "\x00" in name:
        raise OptionError("an identifier cannot contain a NUL character")
    return Identifier(dialect.quote_identifier(str.__str__(name)))


@jinja2.pass_context
def _ident_filter(context: Any, name: Any) -> Identifier:
    return quote_identifier(context["dialect_"], name)


def bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept between processes (a CLI run or a batch job is a new process, and
    compiling a metric's templates costs ~0.1 s).

    In ``$AGREEMENT_SQL_CACHE_DIR``, else ``$XDG_CACHE_HOME/agreement-sql`` or
    ``~/.cache/agreement-sql``; ``AGREEMENT_SQL_CACHE_DIR=off`` disables it, and an unwritable
    place silently means no cache. Jinja keys each entry on the template's source checksum and
    the Python version, so an edited or upgraded template is compiled afresh.

    The cache holds compiled Python code (loaded with ``marshal``) and the options file
    (``_declared_options``), so it is used only from a folder no one else can write
    (:func:`trusted_folder`): a folder that fails the test means no cache, never a load.
    """
    chosen = os.environ.get("AGREEMENT_SQL_CACHE_DIR")
    if chosen is not None and chosen.strip().lower() in ("", "off", "0", "none"):
        return None
    if not chosen:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        chosen = os.path.join(base, "agreement-sql")
    try:
        os.makedirs(chosen, mode=0o700, exist_ok=True)
        if not os.access(chosen, os.W_OK):
            return None
    except OSError:
        return None
    if not trusted_folder(chosen):
        return None
    return jinja2.FileSystemBytecodeCache(chosen)


def trusted_folder(path: str) -> bool:
    """Whether only the current user (and root) can change what ``path`` holds: the folder is
    owned by the user and writable by no one else (no group or other write bit), and every
    folder above it, on the path as written and on the resolved path, is owned by the user or
    root and writable by no one else, or sticky (as /tmp, where no one can rename or remove
    another user's entry). Where ownership cannot be checked (no ``os.getuid``: Windows) no
    folder is trusted."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return False
    uid = getuid()
    try:
        absolute = os.path.abspath(path)
        real = os.path.realpath(absolute)
        folder = os.stat(real)
        if not stat.S_ISDIR(folder.st_mode) or folder.st_uid != uid \
                or folder.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return False
        for chain in (absolute, real):
            parent = os.path.dirname(chain)
            while True:
                st = os.stat(parent)
                if st.st_uid not in (uid, 0):
                    return False
                if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not st.st_mode & stat.S_ISVTX:
                    return False
                above = os.path.dirname(parent)
                if above == parent:
                    break
                parent = above
    except OSError:
        return False
    return True


@lru_cache(maxsize=None)
def environment(directory: str | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory or str(template_dir())),
        bytecode_cache=bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        autoescape=True,
        finalize=_finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ident"] = _ident_filter
    return env


def _cache_dir() -> str | None:
    cache = bytecode_cache()
    return getattr(cache, "directory", None)


@lru_cache(maxsize=1)
def _declared_options() -> dict[str, list[str]]:
    """Every template's options, from a file in the template cache keyed by a hash of all the
    template texts (the analysis parses every template, ~0.1 s a process), else computed."""
    import hashlib
    import json

    folder = template_dir()
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.sql.j2")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    directory = _cache_dir()
    target = os.path.join(directory, f"options-{digest.hexdigest()[:16]}.json") if directory else None
    if target and os.path.exists(target):
        try:
            with open(target, encoding="utf-8") as handle:
                loaded = json.load(handle)
            if isinstance(loaded, dict) and all(
                    isinstance(k, str) and isinstance(v, list) and all(isinstance(o, str) for o in v)
                    for k, v in loaded.items()):
                return loaded
        except (OSError, ValueError):
            pass
    found = {p.name[: -len(".sql.j2")]: sorted(_analyse(p.name[: -len(".sql.j2")]))
             for p in folder.glob("*.sql.j2") if not p.name.startswith("_")}
    if target and directory:
        import tempfile
        temp = None
        try:
            fd, temp = tempfile.mkstemp(dir=directory, prefix=".options-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(found, handle)
            os.replace(temp, target)
        except OSError:
            if temp is not None and os.path.exists(temp):
                os.remove(temp)
    return found


def template_options(template: str) -> frozenset[str]:
    """The options ``sql/<template>.sql.j2`` takes: the free variables of the template and of
    every partial it includes or imports, less the globals the renderer provides."""
    declared = _declared_options()
    if template not in declared:
        if not (template_dir() / f"{template}.sql.j2").exists():
            raise OptionError(f"no template named {template!r}; see `agreement-sql metrics`")
        return frozenset(_analyse(template))
    return frozenset(declared[template])


@lru_cache(maxsize=None)
def _analyse(template: str) -> frozenset[str]:
    env = environment()
    seen: set[str] = set()
    names: set[str] = set()

    def walk(file_name: str) -> None:
        if file_name in seen:
            return
        seen.add(file_name)
        try:
            source = env.loader.get_source(env, file_name)[0]  # type: ignore[union-attr]
        except jinja2.TemplateNotFound:
            raise OptionError(f"no template named {file_name!r}; see `agreement-sql metrics`") from None
        ast = env.parse(source)
        names.update(meta.find_undeclared_variables(ast))
        for child in meta.find_referenced_templates(ast):
            if child is None:
                # a partial chosen by option `partials`: any coefficient of the registry
                from .registry import partials
                for partial in partials():
                    walk(partial)
                continue
            walk(child)

    walk(f"{template}.sql.j2")
    return frozenset(names - GLOBALS)


@dataclass
class Rendered:
    """A rendered statement: the SQL text and the names of the parameters it binds."""

    template: str
    sql: str
    params: list[str] = field(default_factory=list)
    relations: list[str] = field(default_factory=list)
    dialect: str = "duckdb"
    scripted: bool = False      # rendered with the dialect's printed parameter form (script_dialect)

    def bind(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The parameter values this statement needs, and only those."""
        missing = [p for p in self.params if p not in values]
        if missing:
            raise TemplateError(f"{self.template}: no value for parameter(s) {', '.join(missing)}")
        return {p: values[p] for p in self.params}

    def script(self, values: Mapping[str, Any] | None = None) -> str:
        """The statement with a header naming the relations and parameters it expects.

        Every header line is a SQL comment; caller-supplied text in it (a relation name, a
        parameter value) is shown with ``repr`` and its line breaks escaped, so it can never
        end the comment and start a statement.
        """
        lines = [f"-- agreement-sql: {self.template} ({self.dialect})"]
        for rel in self.relations:
            lines.append(f"-- reads relation: {_one_line(rel)}")
        d = DIALECTS[self.dialect]
        sql = self.sql.strip()
        if self.scripted and self.params:
            # the parameters set by the script itself, in the client's own form: it runs as
            # printed (change a value on its line)
            lines.append(f"-- parameters: set on the lines below ({_SET_HOW[self.dialect]})")
            lines += d.script_header(self.params, values or {})
            if self.dialect == "postgres":
                sql = _psql_text_params(sql, [p for p in self.params
                                              if isinstance((values or {}).get(p), str)])
        else:
            for p in self.params:
                shown = f" = {_one_line(repr(values[p]))}" if values and p in values else ""
                lines.append(f"-- parameter: {d.param_prefix}{p}{shown}")
        # the dialect's session macros and functions the statement calls, defined first
        setup = [s + ";" for s in self.setup()]
        # one statement ended by a semicolon: the clients run a script statement by statement
        return "\n".join(lines + setup) + "\n" + sql.rstrip().rstrip(";") + ";\n"

    def setup(self) -> list[str]:
        """The dialect's setup statements (fixed package text) that define a macro or function
        this statement calls, to run before it: DuckDB's session macros, PostgreSQL's
        ``pg_temp`` functions."""
        return [s for s in DIALECTS[self.dialect].setup if _macro_name(s) in self.sql]


_SET_HOW = {
    "duckdb": "DuckDB variables, read with getvariable()",
    "spark": "spark-sql variable substitution: SET agreement_sql.NAME=LITERAL; read as "
             "${agreement_sql.NAME}",
    "postgres": "psql variables: \\set NAME VALUE, a text quoted or not; the statement reads a "
                "text as :'NAME' and a number as :NAME",
}


def _psql_text_params(sql: str, texts: list[str]) -> str:
    """psql substitutes ``:'name'`` as a quoted literal and ``:name`` as it is: text parameters
    are read the first way, so ``\\set default_metric value`` (or ``'value'``) gives the
    literal 'value', never the column value."""
    if not texts:
        return sql
    pattern = re.compile(r":(" + "|".join(re.escape(t) for t in sorted(texts, key=len, reverse=True))
                         + r")(?![A-Za-z0-9_])")
    return pattern.sub(lambda m: ":'" + m.group(1) + "'", sql)


_DEFINES = re.compile(r"^CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:MACRO|FUNCTION)\s+"
                      r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(", re.IGNORECASE)


def _macro_name(statement: str) -> str:
    """The name a ``CREATE [OR REPLACE] [TEMP] MACRO|FUNCTION name(...)`` statement defines, as
    the statement calls it (``agreement_fsum``, ``pg_temp.agreement_to_number``)."""
    found = _DEFINES.match(statement)
    if found is None:
        raise TemplateError(f"a dialect setup statement must define a macro or function: {statement[:60]!r}")
    return found.group(1)


def _form(form: str, missing: str = "this dialect has no list functions for set-valued labels "
          "(set_separator=, distance='masi' or 'jaccard'): DuckDB and Spark do") -> Callable[..., Keyword]:
    """A dialect form (``TRY_CAST({} AS DOUBLE)``, or ``MOD({0}, {1})`` of several) as a function
    of the SQL the template wrote: a macro's output, an identifier, a bound parameter or a
    keyword, never a value."""
    def apply(*exprs: Any) -> Keyword:
        if not form:
            raise TemplateError(missing)
        for expr in exprs:
            if not isinstance(expr, (Markup, Identifier, BoundParam, Keyword)):
                raise TemplateError(f"a dialect form takes SQL the template wrote, got {expr!r}")
        texts = [str.__str__(e) for e in exprs]
        if "{0}" in form:
            out = form
            for i, text in enumerate(texts):
                out = out.replace("{" + str(i) + "}", text)
            return Keyword(out)
        return Keyword(form.replace("{}", texts[0]))
    return apply


def _one_line(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")


def _plain(value: Any) -> Any:
    """Options reach templates as plain Python values: a caller's Markup cannot pass the finalize hook."""
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def render(template: str, options: Mapping[str, Any], *, dialect: str | Dialect = DUCKDB) -> Rendered:
    """Render ``sql/<template>.sql.j2`` with exactly the options it takes.

    ``options`` must hold every option of :func:`template_options` and no other; each value is
    checked against :mod:`agreement_sql.options`. Names that reach SQL go through ``ident``;
    values go through ``bind()``.
    """
    d = DIALECTS[dialect] if isinstance(dialect, str) else dialect
    try:
        key: Any = (template, d, _frozen(options))
    except TypeError:                   # an unhashable option value: checked and refused below
        key = None
    cached = _RENDERED.get(key) if key is not None else None
    if cached is not None:
        return cached
    rendered = _render(template, options, d)
    if key is not None:
        with _RENDERED_LOCK:                              # threads may render at once
            while len(_RENDERED) >= _RENDERED_MAX:
                _RENDERED.pop(next(iter(_RENDERED)))    # the oldest entry
            _RENDERED[key] = rendered
    return rendered


# Rendered statements by (template, dialect, options): the text is a function of these alone (the
# templates are package files), so a loop of calls over inputs of one shape renders each statement
# once. Session-generated relation names are stable per call shape (engine/duckdb.py), so they
# do not defeat the cache. Bounded: the oldest entry goes first.
_RENDERED: dict[Any, Rendered] = {}
_RENDERED_MAX = 256
_RENDERED_LOCK = threading.Lock()


_SCALARS = (str, int, bool, type(None))


def _frozen(value: Any) -> Any:
    """A hashable image of an options value that tells apart what renders differently: the type
    is part of it (True and 1, 1 and 1.0 are different options), floats by their repr. The
    plain scalars most options are come first: ``isinstance`` against ``typing.Mapping`` costs
    an ABC check per value, about a millisecond of a warm small call."""
    if type(value) in _SCALARS:
        return (type(value).__name__, value)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_frozen(v) for v in value)
    if isinstance(value, Mapping):       # in its order: a template may iterate over it
        return ("mapping",) + tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    if isinstance(value, float):
        return ("float", repr(value))
    hash(value)
    return (type(value).__name__, value)


def _render(template: str, options: Mapping[str, Any], d: Dialect) -> Rendered:
    wanted = template_options(template)
    extra = sorted(set(options) - wanted)
    if extra:
        raise TemplateError(f"{template}: option(s) {', '.join(extra)} are not options of this "
                            f"template (it takes: {', '.join(sorted(wanted)) or 'none'})")
    missing = sorted(wanted - set(options))
    if missing:
        raise TemplateError(f"{template}: no value for option(s) {', '.join(missing)}")
    for name, value in options.items():
        check_option(name, value)
    used: list[str] = []
    relations: list[str] = []

    def relation(name: Any) -> Identifier:
        quoted = quote_identifier(d, name)
        if str(quoted) not in relations:
            relations.append(str(quoted))
        return quoted

    def canon(name: str) -> Keyword:
        # package-chosen names (canonical columns, CTE aliases): never a caller's text
        if not isinstance(name, str) or not _CANONICAL.match(name):
            raise TemplateError(f"{name!r} is not a canonical column name")
        return Keyword(name)

    def num(value: Any) -> Keyword:
        # a structural whole number the template itself chose (a loop index, a block number)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TemplateError(f"num() takes a whole number of the template's own, got {value!r}")
        return Keyword(str(value))

    def bind(name: str) -> BoundParam:
        if not isinstance(name, str) or not _PARAM_NAME.match(name):
            raise TemplateError(f"bad parameter name {name!r}")
        if name not in used:
            used.append(name)
        return BoundParam(d.param(name))

    env = environment()
    tmpl = env.get_template(f"{template}.sql.j2")
    context = {k: _plain(v) for k, v in options.items()}
    context.update(
        bind=bind,
        relation=relation,
        canon=canon,
        num=num,
        sql={"text": Keyword(d.text), "double": Keyword(d.double), "inline": Keyword(d.inline),
             "materialize": Keyword(d.materialize), "input_order": Keyword(d.input_order),
             "fsum": Keyword(d.fsum), "isnan": Keyword(d.isnan),
             "row_number": Keyword(d.row_number), "bit_or": Keyword(d.bit_or),
             "to_number": _form(d.to_number), "trim": _form(d.trim),
             "error": _form(d.error), "mod": _form(d.mod), "no_underscore": _form(d.no_underscore),
             "byte_length": _form(d.byte_length),
             "mod_open": Keyword(d.mod_open), "mod_sep": Keyword(d.mod_sep),
             "mod_close": Keyword(d.mod_close),
             "bit_count": _form(d.bit_count), "exact_text": _form(d.exact_text),
             "float_text": _form(d.float_text), "set_canonical": _form(d.set_canonical),
             "set_size": _form(d.set_size), "set_common": _form(d.set_common),
             "kind_of": _form(d.kind_of, "this dialect cannot read a column whose type the rendering "
                                           "does not know (kind 'typed': DuckDB's table macros)")},
        const=constants.sql_constants(),
        dialect=d.name,
        dialect_=d,
    )
    try:
        sql = tmpl.render(**context)
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"{template}: {exc}") from None
    return Rendered(template=template, sql=sql, params=used, relations=relations, dialect=d.name,
                    scripted=d.scripted)


def available_templates() -> list[str]:
    """Public templates (partials start with ``_``)."""
    return sorted(p.name[: -len(".sql.j2")] for p in template_dir().glob("*.sql.j2")
                  if not p.name.startswith("_"))
