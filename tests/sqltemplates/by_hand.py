"""Run a rendered script (``agreement_sql.render`` / ``agreement-sql render``) as printed, the way
the DuckDB CLI runs a file: every statement in order (the ``SET VARIABLE`` lines that set its
parameters, the session macros it calls, then the statement); the last one's rows."""
from __future__ import annotations

from typing import Any


def run_by_hand(con: Any, script: str) -> list[dict[str, Any]]:
    assert "PREPARE" not in script, "a rendering runs as printed, without PREPARE/EXECUTE"
    rel = con.sql(script)
    return [dict(zip(rel.columns, row)) for row in rel.fetchall()]
