"""Every accepted source form gives the same results; inputs are never modified and nothing the
package creates is left in the caller's connection.

The comparison is strict: the whole result dict, accounting included (``n_rows``,
``n_excluded``, docs/decisions/0005), must be identical for the long table as CSV, Parquet
(one file and a glob), JSONL, Arrow, pandas, polars, a DuckDB relation (of the caller's or of
another connection) and a table name. The workshop export (one ratings object per trace and
rater) holds the same ratings; it differs only in what it can count: a question a rater
skipped is a NULL field there (counted as missing) and no row at all in the long table.
"""
from __future__ import annotations

import json

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from conftest import DATA, LONG

WORKSHOP = DATA / "workshop_annotations.jsonl"
# the bundled export: 105 (trace, rater) annotations x 4 questions = 420 fields, of which the
# long CSV (data/workshop_annotations.csv, 415 rows) holds the 415 that were rated
SKIPPED = 420 - 415


def results(source, **columns):
    """What the test compares: the workshop report and every coefficient, per metric."""
    return {"irr": ag.irr(source, **columns), "coefficients": ag.coefficients(source, **columns)}


@pytest.fixture(scope="module")
def expected():
    found = results(DATA / "workshop_annotations.csv", **LONG)
    # the numbers the package has always reported for this file (README, seed 001 report)
    assert found["irr"]["score"] == 73.7 and found["irr"]["num_annotations"] == 105
    assert found["irr"]["n_excluded"] == {"missing": 0, "placeholder": 0, "duplicate": 0}
    assert [r["metric"] for r in found["coefficients"]] == [
        "accuracy", "follows_policy", "helpfulness", "tone"]
    assert sum(c["fleiss_kappa"]["n_rows"] for c in
               (r["coefficients"] for r in found["coefficients"])) == 415
    return found


def flatten_export(*, keep_skipped: bool) -> pa.Table:
    """The bundled workshop export flattened to long form in Python (test-side oracle); with
    ``keep_skipped`` a skipped question is a row with a NULL rating."""
    rows = [json.loads(line) for line in WORKSHOP.read_text().splitlines() if line.strip()]
    questions = sorted({q for row in rows for q in row["ratings"]})
    out = {"trace_id": [], "user_id": [], "question_id": [], "rating": []}
    for row in rows:
        for q in questions:
            r = row["ratings"].get(q)
            if r is None and not keep_skipped:
                continue
            out["trace_id"].append(row["trace_id"]); out["user_id"].append(row["user_id"])
            out["question_id"].append(q); out["rating"].append(r)
    return pa.table(out)


@pytest.fixture(scope="module")
def long_arrow():
    return flatten_export(keep_skipped=False)


def as_export(expected):
    """``expected`` as the workshop export reports it: the skipped questions counted as missing
    rows of the workshop report and of each question's coefficients."""
    out = json.loads(json.dumps(expected))
    out["irr"]["n_excluded"]["missing"] = SKIPPED
    skipped = {}                                 # per question: 105 annotations less its rows
    for entry in out["coefficients"]:
        for result in entry["coefficients"].values():
            n = skipped.setdefault(entry["metric"], 105 - result["n_rows"])
            result["n_rows"] += n
            result["n_excluded"]["missing"] += n
    assert sum(skipped.values()) == SKIPPED
    return out


def test_long_arrow_matches_the_csv(long_arrow):
    assert long_arrow.num_rows == 415


def test_csv_with_crlf_line_ends(tmp_path, expected):
    path = tmp_path / "crlf.csv"
    path.write_bytes((DATA / "workshop_annotations.csv").read_bytes().replace(b"\n", b"\r\n"))
    assert results(path, **LONG) == expected


@pytest.mark.slow
def test_parquet_and_glob(tmp_path, long_arrow, expected):
    half = long_arrow.num_rows // 2
    pq.write_table(long_arrow.slice(0, half), tmp_path / "part-0.parquet")
    pq.write_table(long_arrow.slice(half), tmp_path / "part-1.parquet")
    assert results(str(tmp_path / "part-*.parquet"), **LONG) == expected
    pq.write_table(long_arrow, tmp_path / "all.parquet")
    assert results(tmp_path / "all.parquet", **LONG) == expected


def test_long_jsonl(tmp_path, long_arrow, expected):
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in long_arrow.to_pylist()))
    assert results(path, **LONG) == expected


def test_skipped_questions_as_null_rows_are_counted_missing(expected):
    # the long table with a NULL-rated row per skipped question: the export's accounting
    with_nulls = flatten_export(keep_skipped=True)
    assert with_nulls.num_rows == 420
    assert results(with_nulls, **LONG) == as_export(expected)


@pytest.fixture(scope="module")
def export_parquet(tmp_path_factory):
    path = tmp_path_factory.mktemp("export") / "w.parquet"
    duckdb.connect().read_json(str(WORKSHOP)).to_parquet(str(path))
    return path


def test_workshop_export_report_as_jsonl_and_parquet(export_parquet, expected):
    export = as_export(expected)["irr"]
    assert ag.irr(WORKSHOP) == export
    assert ag.irr(export_parquet) == export


@pytest.mark.slow
def test_workshop_export_coefficients_as_jsonl_and_parquet(export_parquet, expected):
    export = as_export(expected)["coefficients"]
    assert ag.coefficients(WORKSHOP) == export
    assert ag.coefficients(export_parquet) == export


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_arrow_pandas_relation_and_table_name(long_arrow, expected):
    assert results(long_arrow, **LONG) == expected
    assert results(long_arrow.to_pandas(), **LONG) == expected
    con = duckdb.connect()
    con.register("arrow_in", long_arrow)
    con.sql("CREATE TABLE annotations AS SELECT * FROM arrow_in")
    before = sorted(r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall())
    assert results(con.table("annotations"), con=con, **LONG) == expected
    assert results("annotations", con=con, **LONG) == expected
    after = sorted(r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall())
    assert after == before                      # nothing left behind in the caller's database
    assert con.sql("SELECT count(*) FROM annotations").fetchall()[0][0] == long_arrow.num_rows


def test_relation_from_another_connection(long_arrow, expected):
    other = duckdb.connect()
    other.register("t", long_arrow)
    assert results(other.sql("SELECT * FROM t"), **LONG) == expected


def test_polars(long_arrow, expected):
    import polars as pl                         # a test dependency (pyproject's [test] extra)

    assert results(pl.from_arrow(long_arrow), **LONG) == expected


@pytest.mark.parametrize("bad,error,match", [
    ("nope/missing.csv", ag.SourceError, "file not found"),
    ("nope/*.parquet", ag.SourceError, "no file matches"),
])
def test_bad_paths(bad, error, match):
    with pytest.raises(error, match=match):
        ag.irr(bad)


def test_unknown_object():
    with pytest.raises(ag.SourceError, match="cannot use a int"):
        ag.irr(42)


def test_empty_file(tmp_path):
    (tmp_path / "e.csv").write_text("")
    with pytest.raises(ag.SourceError, match="is empty"):
        ag.irr(tmp_path / "e.csv")


def test_broken_jsonl_names_the_file(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"trace_id": "t1", "user_id": "u1", "ratings": {"q": 1}}\n{"trace_id": \n')
    with pytest.raises(ag.SourceError, match="broken.jsonl"):
        ag.irr(path)


def test_csv_ids_stay_text(tmp_path):
    # ids such as 007 are not turned into integers: a text id stays text, leading zeros kept
    path = tmp_path / "ids.csv"
    pacsv.write_csv(pa.table({"item": ["007", "007", "010", "010"], "rater": ["a", "b", "a", "b"],
                              "value": [1, 1, 2, 3]}), path)
    report = ag.irr(path)
    assert {t["trace_id"] for t in report["trace_disagreements"]} == {"007", "010"}


def test_read_source_copies_only_the_kept_columns(tmp_path):
    """``read_source(columns=)`` (the evaluation sheet's reading): the names are resolved as every
    column a caller names is (exact, else case-insensitive), quoted, and only those are copied;
    a name not found is a ColumnError naming the available columns, and a malformed file is
    still reported as such first."""
    from agreement_sql.engine import open_session
    from agreement_sql.errors import ColumnError, SourceError

    path = tmp_path / "s.csv"
    path.write_text('id,"a ""b""",C\n1,x,y\n', encoding="utf-8")
    with open_session(None) as session:
        kept = session.read_source(str(path), columns=["ID", 'a "b"'])
        assert [c.name for c in kept.columns] == ["id", 'a "b"']
        assert session.query(f'SELECT * FROM "{kept.name}"', {}, what="kept") == [{"id": "1", 'a "b"': "x"}]
        chosen = session.read_source(str(path), columns=lambda rel: [c.name for c in rel.columns][::2])
        assert [c.name for c in chosen.columns] == ["id", "C"]
        in_place = session.read_source(pa.table({"id": ["1"], "C": ["y"]}), columns=["c"])
        assert [c.name for c in in_place.columns] == ["C"]
        with pytest.raises(ColumnError, match="'nope' not found .* available columns: 'id', 'a \"b\"', 'C'"):
            session.read_source(str(path), columns=["nope"])
    bad = tmp_path / "bad.csv"
    bad.write_text("id,a\n1,x\n2,y,z\n", encoding="utf-8")
    with open_session(None) as session, pytest.raises(SourceError, match="line 3: 3 fields"):
        session.read_source(str(bad), columns=["nope"])


def test_query_parts_gives_each_part_the_values_query_gives():
    """``Session.query_parts`` (judge_agreement's reading of its per-point rows): each listed
    part's listed columns, column by column, with the very values ``query`` gives row by row:
    SUM of BIGINT is a HUGEINT that Arrow carries as a Decimal and fetchall as an int; a
    listed part without a row is present and empty."""
    from agreement_sql.engine import open_session

    sql = """
      SELECT part, k, n, x, t, b FROM (
        SELECT 'a' AS part, 1 AS k, SUM(CAST(v AS BIGINT)) AS n, CAST(NULL AS DOUBLE) AS x,
               CAST(NULL AS VARCHAR) AS t, NULL::BOOLEAN AS b FROM range(3) AS r(v)
        UNION ALL
        SELECT 'b', CAST(v AS INTEGER), NULL, v / 4, 'é' || CAST(v AS VARCHAR), v % 2 = 0
        FROM range(5) AS r(v)
      ) ORDER BY part, k
    """
    with open_session(None) as session:
        rows = session.query(sql, {}, what="rows")
        parts = session.query_parts(sql, {}, what="parts",
                                    parts={"b": ["k", "x", "t", "b"], "a": ["k", "n"], "c": ["k"]})
    expected_b = {c: [r[c] for r in rows if r["part"] == "b"] for c in ("k", "x", "t", "b")}
    assert parts["b"] == expected_b and parts["b"]["t"][1] == "é1"
    assert parts["a"] == {"k": [1], "n": [3]} and type(parts["a"]["n"][0]) is int
    assert [type(v) for v in parts["a"]["n"]] == [type(r["n"]) for r in rows if r["part"] == "a"]
    assert parts["c"] == {"k": []}
    assert list(parts) == ["b", "a", "c"]
