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


@pytest.mark.slow
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


# -- the caller's connection is the caller's (docs/decisions/0015) ----------------------------
# A table or view name resolves as the caller's own con.table(name) resolves it, inside the
# caller's transaction; labels compare by their bytes whatever the caller's settings. The oracle
# for each case is the caller's own read: the same call on the rows con.table(name) gives.

LABELS = [(1, "a", "x"), (1, "b", "x"), (2, "a", "y"), (2, "b", "y"), (3, "a", "x"), (3, "b", "x")]
OTHER = [(1, "a", "x"), (1, "b", "y"), (2, "a", "y"), (2, "b", "x"), (3, "a", "x"), (3, "b", "y")]


def _fill(con, name: str, rows, temp: bool = False) -> None:
    con.execute(f"CREATE {'TEMP ' if temp else ''}TABLE {name} (item INTEGER, rater VARCHAR, "
                "value VARCHAR)")
    con.execute(f"INSERT INTO {name} VALUES " + ", ".join(f"({i}, '{r}', '{v}')" for i, r, v in rows))


def _as_caller_reads(con, name: str) -> float:
    """percent_agreement of the rows the caller's own connection reads under ``name``."""
    return ag.percent_agreement(con.table(name).to_arrow_table())["value"]


def _read_in_place(con, name: str) -> bool:
    """Whether a session reads ``name`` where it is (a view of its cursor over the name) rather
    than a copy streamed from the caller's connection (a temporary table, ``..._src_...``)."""
    from agreement_sql.engine import open_session

    with open_session(con) as session:
        return "agreement_sql_table_" in session.read_source(name).name


def test_a_name_is_read_inside_the_callers_transaction_uncommitted_rows_included(tmp_path):
    con = duckdb.connect(str(tmp_path / "tx.duckdb"))
    _fill(con, "ratings", LABELS)
    con.execute("CREATE TABLE log (x INTEGER)")
    assert ag.percent_agreement("ratings", con=con)["value"] == 1.0 and _read_in_place(con, "ratings")
    con.execute("BEGIN TRANSACTION")
    con.execute("INSERT INTO log VALUES (1)")
    con.execute("UPDATE ratings SET value = 'z' WHERE item = 1 AND rater = 'a'")
    # hand count: units 2 and 3 of 3 agree once the caller's uncommitted update is seen
    assert ag.percent_agreement("ratings", con=con)["value"] == pytest.approx(2 / 3, abs=1e-15)
    assert _as_caller_reads(con, "ratings") == pytest.approx(2 / 3, abs=1e-15)
    assert not _read_in_place(con, "ratings")             # a copy, from inside the transaction
    # the caller's transaction is intact: still open, its own writes still there, it commits
    con.execute("INSERT INTO log VALUES (2)")
    con.execute("COMMIT")
    assert con.execute("SELECT list(x ORDER BY x) FROM log").fetchone()[0] == [1, 2]
    assert con.execute("SELECT value FROM ratings WHERE item = 1 AND rater = 'a'").fetchone()[0] == "z"


def test_a_rolled_back_transaction_is_not_seen_afterwards(tmp_path):
    con = duckdb.connect(str(tmp_path / "rb.duckdb"))
    _fill(con, "ratings", LABELS)
    con.execute("BEGIN TRANSACTION")
    con.execute("DELETE FROM ratings WHERE item = 1")
    assert ag.percent_agreement("ratings", con=con)["n_items"] == 2
    con.execute("ROLLBACK")
    assert ag.percent_agreement("ratings", con=con)["n_items"] == 3


def test_use_schema_makes_a_name_the_schemas_table():
    con = duckdb.connect()
    _fill(con, "ratings", LABELS)
    con.execute("CREATE SCHEMA s")
    _fill(con, "s.ratings", OTHER)
    con.execute("USE s")
    # hand count: no unit of OTHER agrees
    assert ag.percent_agreement("ratings", con=con)["value"] == 0.0 == _as_caller_reads(con, "ratings")
    assert not _read_in_place(con, "ratings")
    con.execute("USE main")
    assert ag.percent_agreement("ratings", con=con)["value"] == 1.0 and _read_in_place(con, "ratings")


def test_a_temporary_table_shadows_the_main_table_as_it_does_for_the_caller():
    con = duckdb.connect()
    _fill(con, "ratings", LABELS)
    _fill(con, "ratings", OTHER, temp=True)
    assert ag.percent_agreement("ratings", con=con)["value"] == 0.0 == _as_caller_reads(con, "ratings")
    assert not _read_in_place(con, "ratings")
    assert ag.percent_agreement("memory.main.ratings", con=con)["value"] == 1.0
    assert ag.percent_agreement("main.ratings", con=con)["value"] == _as_caller_reads(con, "main.ratings")


def test_a_registered_dataframe_shadows_the_main_table_as_it_does_for_the_caller():
    con = duckdb.connect()
    _fill(con, "ratings", LABELS)
    items, raters, values = zip(*OTHER)
    con.register("ratings", pa.table({"item": items, "rater": raters, "value": values}))
    assert ag.percent_agreement("ratings", con=con)["value"] == 0.0 == _as_caller_reads(con, "ratings")
    con.unregister("ratings")
    assert ag.percent_agreement("ratings", con=con)["value"] == 1.0


CASED = [(1, "a", "Yes"), (1, "b", "yes"), (2, "a", "No"), (2, "b", "No")]


def test_labels_compare_by_their_bytes_whatever_the_callers_default_collation():
    con = duckdb.connect()
    _fill(con, "ratings", CASED)
    con.execute("SET default_collation = 'nocase'")
    # hand count: 'Yes' and 'yes' differ, 'No' and 'No' agree: one unit of two
    assert ag.percent_agreement("ratings", con=con)["value"] == 0.5
    assert ag.percent_agreement(con.table("ratings"), con=con)["value"] == 0.5
    assert ag.cohen_kappa("ratings", con=con)["n_categories"] == 3
    # the package's SET is its own cursor's: the caller's connection still compares without case
    assert con.execute("SELECT current_setting('default_collation')").fetchone()[0] == "nocase"
    assert con.execute("SELECT COUNT(DISTINCT value) FROM ratings").fetchone()[0] == 2


def test_a_view_is_evaluated_under_the_callers_settings_then_compared_by_bytes():
    # the caller's view filters under its collation ('yes' matches 'Yes' there): the view's
    # rows are the caller's; the package then tells 'Yes' from 'yes'
    con = duckdb.connect()
    _fill(con, "ratings", CASED + [(3, "a", "maybe"), (3, "b", "maybe")])
    con.execute("SET default_collation = 'nocase'")
    con.execute("CREATE VIEW kept AS SELECT * FROM ratings WHERE value <> 'MAYBE'")
    assert con.table("kept").to_arrow_table().num_rows == 4
    got = ag.percent_agreement("kept", con=con)
    assert (got["n_items"], got["value"]) == (2, 0.5)
    assert not _read_in_place(con, "kept")
    con.execute("RESET default_collation")
    assert _read_in_place(con, "kept")


def test_a_column_declared_collate_nocase_is_compared_by_its_bytes():
    con = duckdb.connect()
    con.execute("CREATE TABLE ratings (item INTEGER, rater VARCHAR COLLATE NOCASE, "
                "value VARCHAR COLLATE NOCASE)")
    con.execute("INSERT INTO ratings VALUES (1, 'a', 'Yes'), (1, 'b', 'yes'), (2, 'a', 'No'), "
                "(2, 'b', 'No'), (2, 'A', 'No')")
    # 'a' and 'A' are two raters, 'Yes' and 'yes' two labels: unit 2 has three ratings
    got = ag.fleiss_kappa("ratings", con=con)
    assert got["n_raters"] == 3 and got["n_categories"] == 3


def test_a_read_only_database_with_a_view(tmp_path):
    path = tmp_path / "ro.duckdb"
    with duckdb.connect(str(path)) as con:
        _fill(con, "ratings", LABELS)
        con.execute("CREATE VIEW v AS SELECT * FROM ratings WHERE item < 3")
    ro = duckdb.connect(str(path), read_only=True)
    assert ag.percent_agreement("v", con=ro)["n_items"] == 2 and _read_in_place(ro, "v")
    assert ag.percent_agreement("ratings", con=ro)["value"] == 1.0


def test_an_unfinished_result_on_the_callers_connection_is_left_alone():
    con = duckdb.connect()
    _fill(con, "ratings", LABELS)
    pending = con.execute("SELECT * FROM range(5) AS r(x)")
    assert pending.fetchone() == (0,)
    with pytest.raises(SourceError, match="unfinished result"):
        ag.percent_agreement("ratings", con=con)
    assert [r[0] for r in pending.fetchall()] == [1, 2, 3, 4]
    assert ag.percent_agreement("ratings", con=con)["value"] == 1.0
