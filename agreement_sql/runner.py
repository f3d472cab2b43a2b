"""Render, bind, run: the only place SQL reaches the database."""
from __future__ import annotations

from typing import Any

import duckdb

from .errors import AgreementError
from .templates import render


def execute(con: duckdb.DuckDBPyConnection, template: str, options: dict[str, Any],
            params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run ``sql/<template>.sql.j2`` and return its rows as dicts (SQL NULL becomes None)."""
    rendered = render(template, **options)
    try:
        cursor = con.execute(rendered.sql, rendered.bind(params))
        if cursor.description is None:
            return []
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    except duckdb.Error as exc:
        raise AgreementError(f"{template}: the database refused the query: "
                             f"{str(exc).strip().splitlines()[0]}") from exc
