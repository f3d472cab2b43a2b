"""The private connection keeps a closed session's cursor for the next call (docs/decisions/0023).

A kept cursor must hold nothing of the call that used it (no view of the caller's data, no
temporary table), must give the same numbers as a fresh cursor, and must survive a call that
failed half-way; a caller's connection never has its cursors kept.
"""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.engine import duckdb as engine
from agreement_sql.errors import AgreementError

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the 4 raters x 12 units
# example: nominal alpha 0.743 (tests/reference/krippendorff2011_4x12.csv)
K2011 = "tests/reference/krippendorff2011_4x12.csv"
K2011_NOMINAL = 0.743


def _leftovers(cursor) -> list[tuple]:
    """The package's objects a cursor still sees: registered views and temporary tables."""
    return cursor.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'agreement_sql_%'"
    ).fetchall()


def test_a_kept_cursor_holds_nothing_of_the_call_and_gives_the_same_numbers():
    private = engine.private_engine()
    assert private.reuse_cursors
    first = ag.krippendorff_alpha(K2011, level="nominal")
    assert private.idle_cursors, "the closed session's cursor was not kept"
    kept = private.idle_cursors[-1]
    assert _leftovers(kept) == []
    again = ag.krippendorff_alpha(K2011, level="nominal")
    assert private.idle_cursors[-1] is kept            # the same cursor served the second call
    assert again["value"] == first["value"]
    assert round(first["value"], 3) == K2011_NOMINAL
    private.reuse_cursors = False
    try:
        fresh = ag.krippendorff_alpha(K2011, level="nominal")
    finally:
        private.reuse_cursors = True
    assert fresh == again


def test_a_call_that_fails_leaves_a_cursor_the_next_call_can_use():
    private = engine.private_engine()
    bad = pa.table({"item": [1, 1, 2], "rater": ["a", "a", "b"], "value": [1, 2, 1]})  # a twice on 1
    with pytest.raises(AgreementError):
        ag.krippendorff_alpha(bad, level="nominal")
    for cursor in private.idle_cursors:
        assert _leftovers(cursor) == []
    assert round(ag.krippendorff_alpha(K2011, level="nominal")["value"], 3) == K2011_NOMINAL


def test_nested_sessions_take_separate_cursors():
    private = engine.private_engine()
    with _open(private) as outer:
        with _open(private) as inner:
            assert outer.cursor is not inner.cursor


class _open:
    def __init__(self, eng) -> None:
        self.session = eng.session()

    def __enter__(self):
        return self.session

    def __exit__(self, *exc) -> None:
        self.session.close()


def test_a_callers_connection_gets_a_fresh_cursor_every_call():
    con = duckdb.connect()
    seen = []
    original = engine.DuckDBSession.close

    def spy(self):
        seen.append(self.cursor)
        original(self)

    engine.DuckDBSession.close = spy  # type: ignore[method-assign]
    try:
        ag.krippendorff_alpha(K2011, level="nominal", con=con)
        ag.krippendorff_alpha(K2011, level="nominal", con=con)
    finally:
        engine.DuckDBSession.close = original  # type: ignore[method-assign]
    assert len(seen) == 2 and seen[0] is not seen[1]
    with pytest.raises(duckdb.Error):                  # closed, not kept
        seen[0].execute("SELECT 1")
