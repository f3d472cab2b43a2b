"""Run a rendered script (``agreement_sql.render`` / ``agreement-sql render``) the way its header
tells a user to: the session macros it lists, then ``PREPARE agreement AS <statement>`` and the
``EXECUTE`` line of the header."""
from __future__ import annotations

from typing import Any

HINT = "-- run by hand: PREPARE agreement AS <the statement below>; "


def run_by_hand(con: Any, script: str) -> list[dict[str, Any]]:
    lines = script.splitlines()
    i = 0
    while lines[i].startswith("--"):
        i += 1
    while lines[i].startswith("CREATE OR REPLACE TEMP MACRO "):
        con.sql(lines[i])
        i += 1
    statement = "\n".join(lines[i:])
    hint = [line for line in lines[:i] if line.startswith(HINT)]
    if hint:
        con.sql("PREPARE agreement AS " + statement)
        rel = con.sql(hint[0][len(HINT):])
    else:
        rel = con.sql(statement)
    return [dict(zip(rel.columns, row)) for row in rel.fetchall()]
