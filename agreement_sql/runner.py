"""Render, bind, run: the one place a template meets a session."""
from __future__ import annotations

from typing import Any, Mapping

from .engine import Relation, Session
from .templates import render


def query(session: Session, template: str, options: Mapping[str, Any],
          params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Run ``sql/<template>.sql.j2`` and return its rows as dicts (SQL NULL becomes None)."""
    rendered = render(template, options, dialect=session.dialect)
    return session.query(rendered.sql, rendered.bind(params), what=template)


def run_template(session: Session, template: str, options: Mapping[str, Any],
                 params: Mapping[str, Any], *, into: str) -> Relation:
    """Run ``sql/<template>.sql.j2`` (a SELECT) into a temporary relation of the session."""
    rendered = render(template, options, dialect=session.dialect)
    return session.materialize(rendered.sql, rendered.bind(params), into)
