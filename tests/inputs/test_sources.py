"""Every accepted source form gives the same report; inputs are never modified and nothing the
package creates is left in the caller's connection."""
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


@pytest.fixture(scope="module")
def expected():
    return ag.irr(WORKSHOP)


@pytest.fixture(scope="module")
def long_arrow():
    """The bundled workshop export flattened to long form by DuckDB itself (test-side oracle)."""
    rows = [json.loads(line) for line in WORKSHOP.read_text().splitlines() if line.strip()]
    out = {"trace_id": [], "user_id": [], "question_id": [], "rating": []}
    for row in rows:
        for q, r in row["ratings"].items():
            out["trace_id"].append(row["trace_id"]); out["user_id"].append(row["user_id"])
            out["question_id"].append(q); out["rating"].append(r)
    return pa.table(out)


def test_csv(expected):
    assert ag.irr(DATA / "workshop_annotations.csv", **LONG) == expected


def test_parquet_and_glob(tmp_path, long_arrow, expected):
    half = long_arrow.num_rows // 2
    pq.write_table(long_arrow.slice(0, half), tmp_path / "part-0.parquet")
    pq.write_table(long_arrow.slice(half), tmp_path / "part-1.parquet")
    assert ag.irr(str(tmp_path / "part-*.parquet"), **LONG) == expected
    pq.write_table(long_arrow, tmp_path / "all.parquet")
    assert ag.irr(tmp_path / "all.parquet", **LONG) == expected


def test_long_jsonl(tmp_path, long_arrow, expected):
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in long_arrow.to_pylist()))
    assert ag.irr(path, **LONG) == expected


def test_workshop_shape_as_parquet(tmp_path, expected):
    con = duckdb.connect()
    con.read_json(str(WORKSHOP)).to_parquet(str(tmp_path / "w.parquet"))
    assert ag.irr(tmp_path / "w.parquet") == expected


def test_arrow_pandas_relation_and_table_name(long_arrow, expected):
    assert ag.irr(long_arrow, **LONG) == expected
    assert ag.irr(long_arrow.to_pandas(), **LONG) == expected
    con = duckdb.connect()
    con.register("arrow_in", long_arrow)
    con.sql("CREATE TABLE annotations AS SELECT * FROM arrow_in")
    before = sorted(r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall())
    assert ag.irr(con.table("annotations"), con=con, **LONG) == expected
    assert ag.irr("annotations", con=con, **LONG) == expected
    after = sorted(r[0] for r in con.sql("SELECT table_name FROM information_schema.tables").fetchall())
    assert after == before                      # nothing left behind in the caller's database
    assert con.sql("SELECT count(*) FROM annotations").fetchall()[0][0] == long_arrow.num_rows


def test_relation_from_another_connection(long_arrow, expected):
    other = duckdb.connect()
    other.register("t", long_arrow)
    assert ag.irr(other.sql("SELECT * FROM t"), **LONG) == expected


def test_polars_if_installed(long_arrow, expected):
    pl = pytest.importorskip("polars")
    assert ag.irr(pl.from_arrow(long_arrow), **LONG) == expected


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
    # ids such as 007 are not turned into integers (DESIGN_NOTES §3)
    path = tmp_path / "ids.csv"
    pacsv.write_csv(pa.table({"item": ["007", "007", "010", "010"], "rater": ["a", "b", "a", "b"],
                              "value": [1, 1, 2, 3]}), path)
    report = ag.irr(path)
    assert {t["trace_id"] for t in report["trace_disagreements"]} == {"007", "010"}
