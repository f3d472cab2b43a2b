"""The caller's database is never written to, and calls are thread-safe (docs/decisions/0004).

Every call opens its own cursor of the caller's connection; its temporary objects live in that
cursor's temporary catalog and are dropped when it closes. The oracle is the same call on the
package's private connection (con=None), run serially.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import duckdb
import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.errors import SourceError

ROWS = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "rater": list("ababababab"),
                 "value": [1, 1, 2, 2, 3, 1, 2, 2, 4, 3]})


def _catalog(con) -> list[tuple]:
    """Every object the connection can see, temporary ones included."""
    return sorted(con.execute(
        "SELECT database_name, schema_name, table_name, temporary FROM duckdb_tables() "
        "UNION ALL SELECT database_name, schema_name, view_name, temporary FROM duckdb_views() "
        "WHERE NOT internal").fetchall())


def _macros(con) -> list[tuple]:
    return sorted(con.execute("SELECT database_name, function_name FROM duckdb_functions() "
                              "WHERE function_name LIKE 'agreement%'").fetchall())


def test_a_table_in_a_file_database_leaves_nothing_behind(tmp_path):
    path = tmp_path / "caller.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE ratings AS SELECT * FROM ROWS")
    before = _catalog(con)
    expected = ag.krippendorff_alpha(ROWS)
    assert ag.krippendorff_alpha("ratings", con=con) == expected
    assert ag.irr("ratings", con=con) == ag.irr(ROWS)
    rel = con.table("ratings")
    assert ag.krippendorff_alpha(rel, con=con) == expected
    assert _catalog(con) == before and _macros(con) == []
    con.close()
    again = duckdb.connect(str(path))
    assert [r[2] for r in _catalog(again)] == ["ratings"]


def test_a_relation_from_another_connection_leaves_nothing_in_either(tmp_path):
    other = duckdb.connect(str(tmp_path / "other.duckdb"))
    other.execute("CREATE TABLE r AS SELECT * FROM ROWS")
    rel = other.sql("SELECT * FROM r")
    before = _catalog(other)
    assert ag.krippendorff_alpha(rel) == ag.krippendorff_alpha(ROWS)
    assert _catalog(other) == before and _macros(other) == []


def test_a_read_only_database_works(tmp_path):
    path = tmp_path / "ro.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE ratings AS SELECT * FROM ROWS")
    ro = duckdb.connect(str(path), read_only=True)
    assert ag.krippendorff_alpha("ratings", con=ro) == ag.krippendorff_alpha(ROWS)
    assert ag.coefficients("ratings", con=ro) == ag.coefficients(ROWS)
    assert ag.irr("ratings", con=ro) == ag.irr(ROWS)


def test_the_callers_open_transaction_survives_a_failing_call(tmp_path):
    con = duckdb.connect(str(tmp_path / "tx.duckdb"))
    con.execute("CREATE TABLE ratings AS SELECT * FROM ROWS")
    con.execute("CREATE TABLE log (x INTEGER)")
    con.execute("BEGIN TRANSACTION")
    con.execute("INSERT INTO log VALUES (1)")
    with pytest.raises(ag.ColumnError):
        ag.krippendorff_alpha("ratings", con=con, value="no_such_column")
    ag.krippendorff_alpha("ratings", con=con)          # and a call that succeeds
    con.execute("INSERT INTO log VALUES (2)")
    con.execute("COMMIT")
    assert con.execute("SELECT list(x ORDER BY x) FROM log").fetchone()[0] == [1, 2]


def test_a_callers_temporary_table_is_read_and_kept(tmp_path):
    con = duckdb.connect()
    con.execute("CREATE TEMP TABLE mine AS SELECT * FROM ROWS")
    assert ag.krippendorff_alpha("mine", con=con) == ag.krippendorff_alpha(ROWS)
    assert con.execute("SELECT COUNT(*) FROM mine").fetchone()[0] == 10


def test_a_table_name_is_not_taken_for_a_file_while_the_connection_is_busy(tmp_path):
    # a name that is neither a table nor a file: the error says so, naming both readings
    with pytest.raises(SourceError, match="ratings"):
        ag.krippendorff_alpha("ratings", con=duckdb.connect())


def _jobs():
    sources = [ROWS, ROWS.slice(0, 8), ROWS.slice(2, 8)]
    calls = [lambda s, c: ag.krippendorff_alpha(s, con=c, level="ordinal"),
             lambda s, c: ag.fleiss_kappa(s, con=c, ci=0.95),
             lambda s, c: ag.irr(s, con=c),
             lambda s, c: ag.coefficients(s, con=c)]
    return [(call, src) for call in calls for src in sources]


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_many_threads_on_one_shared_connection_give_the_serial_results():
    jobs = _jobs()
    serial = [call(src, None) for call, src in jobs]
    con = duckdb.connect()
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda job: job[0](job[1], con), jobs))
    assert parallel == serial
    assert _catalog(con) == [] and _macros(con) == []


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_many_threads_on_their_own_connections_and_the_private_one():
    jobs = _jobs()
    serial = [call(src, None) for call, src in jobs]
    results: dict[int, object] = {}

    def run(i):
        call, src = jobs[i % len(jobs)]
        results[i] = call(src, duckdb.connect() if i % 2 else None)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(len(threads))] == serial
