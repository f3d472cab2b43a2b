"""Render, bind, run: the one place a template meets a session."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .engine import Relation, Session
from .templates import render


def query(session: Session, template: str, options: Mapping[str, Any],
          params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Run ``sql/<template>.sql.j2`` and return its rows as dicts (SQL NULL becomes None)."""
    rendered = render(template, options, dialect=session.dialect)
    return session.query(rendered.sql, rendered.bind(params), what=template)


def query_parts(session: Session, template: str, options: Mapping[str, Any],
                params: Mapping[str, Any],
                parts: Mapping[str, Sequence[str]],
                sinks: Mapping[str, Any] | None = None) -> dict[str, dict[str, list[Any]]]:
    """Run ``sql/<template>.sql.j2``, whose rows are tagged by ``part`` and ordered by it, and
    return the listed columns of each listed part column by column (Session.query_parts): for
    results of hundreds of thousands of rows, which a dict per row would cost more to hold
    than to compute. ``sinks``: parts written to Parquet files instead (agreement_sql.sinks)."""
    rendered = render(template, options, dialect=session.dialect)
    return session.query_parts(rendered.sql, rendered.bind(params), what=template, parts=parts,
                               sinks=sinks)


def run_template(session: Session, template: str, options: Mapping[str, Any],
                 params: Mapping[str, Any], *, into: str) -> Relation:
    """Run ``sql/<template>.sql.j2`` (a SELECT) into a temporary relation of the session."""
    rendered = render(template, options, dialect=session.dialect)
    return session.materialize(rendered.sql, rendered.bind(params), into)


def lookup_rows(session: Session, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]],
                kind: str) -> str:
    """Run ``sql/lookup_rows.sql.j2`` into a temporary relation and return its name: ``rows``
    the package built (a declared domain, weights, scales), ``columns`` (name, type) with type
    "text", "double", "bigint" or "boolean"; every value a bound parameter. (No Arrow: a first
    ``pyarrow.array`` of Python values imports pandas, a quarter second per process.)"""
    options = {"n_rows": len(rows), "row_names": [name for name, _ in columns],
               "row_types": [kind_ for _, kind_ in columns]}
    params = {f"row_{i}_{j}": value for i, row in enumerate(rows) for j, value in enumerate(row)}
    return run_template(session, "lookup_rows", options, params, into=kind).name
