"""The bad-input catalogue's Spark leg (marker spark): the same bad input gives the same typed
error on Spark as on DuckDB, the same class and the same message, and the same good-but-odd
input the same result (tests/engines/_compare.py: integers and text exactly, floats to 1e-9).

Each case is a case of tests/inputs/test_bad_input_catalogue.py (its number in the name) that a
Spark session can run: a file, an Arrow table or a pandas frame, and a call. Left out, with
their reason: 21 (a folder is a Spark source: Spark reads a folder of Parquet files, DuckDB
refuses it), 13/23/24/32/34/47/48 (the CLI runs on DuckDB), 44 (render, no engine), 46 (the
silence of the API: tests/inputs/test_silence.py). Two cases compare the message up to the
engine's own words after "cannot read '<file>': " (19, 20: an unreadable Parquet file, where
each engine names its own reason), two up to the cell a counts-layout message quotes (each
engine writes a DOUBLE as text its own way). Found by this leg and fixed: inf and 1e308
ratings overflowed Spark's BIGINT FLOOR in the profile (sql/ratings_profile.sql.j2) and in a
counts layout's check (sql/layout_profile.sql.j2), and a ragged CSV's message named no line
(agreement_sql/engine/spark.py maps Spark's FAILFAST error to the first malformed record).
"""
from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag

from engines._compare import assert_same
from .test_bad_input_catalogue import ROWS, _clean_csv, _csv, _table

pytestmark = pytest.mark.spark


def _parquet(tmp_path, table, name="r.parquet"):
    pq.write_table(table, tmp_path / name)
    return str(tmp_path / name)


def _truncated(tmp_path):
    pq.write_table(_table(), tmp_path / "full.parquet")
    data = (tmp_path / "full.parquet").read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[: len(data) // 2])
    return str(tmp_path / "cut.parquet")


def _garbage(tmp_path):
    (tmp_path / "g.parquet").write_bytes(b"PAR1 this is not parquet" * 10)
    return str(tmp_path / "g.parquet")


def _pandas(rows):
    import pandas as pd
    return pd.DataFrame(rows, columns=["item", "rater", "value"])


NAN_ROWS = ROWS + [(5, "a", float("nan")), (5, "b", 2)]
# (name, source builder, call): each call gets the engine as con=
CASES = [
    ("01-nan-parquet", lambda p: _parquet(p, _table(NAN_ROWS)),
     lambda s, con: ag.krippendorff_alpha(s, level="nominal", con=con)),
    ("01-nan-csv", lambda p: str(_csv(p, "item,rater,value\n" + "".join(
        f"{i},{r},{'NaN' if isinstance(v, float) and math.isnan(v) else v}\n" for i, r, v in NAN_ROWS))),
     lambda s, con: ag.krippendorff_alpha(s, level="nominal", con=con)),
    ("02-nan-irr", lambda p: _parquet(p, _table([(1, "a", 1), (1, "b", float("nan")), (2, "a", 2),
                                                  (2, "b", 2), (3, "a", 3), (3, "b", 1)])),
     lambda s, con: ag.irr(s, con=con)),
    ("03-inf", lambda p: _table(ROWS[:-1] + [(4, "b", math.inf)]),
     lambda s, con: ag.fleiss_kappa(s, con=con)),
    ("03-minus-inf", lambda p: _table(ROWS[:-1] + [(4, "b", -math.inf)]),
     lambda s, con: ag.fleiss_kappa(s, con=con)),
    ("03-inf-parquet", lambda p: _parquet(p, _table(ROWS[:-1] + [(4, "b", math.inf)])),
     lambda s, con: ag.krippendorff_alpha(s, level="interval", con=con)),
    ("03-inf-csv", lambda p: str(_csv(p, "item,rater,value\n1,a,1\n1,b,inf\n2,a,2\n2,b,2\n")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("04-huge", lambda p: _table(ROWS[:-2] + [(4, "a", 1e308), (4, "b", -1e308)]),
     lambda s, con: ag.krippendorff_alpha(s, level="interval", con=con)),
    ("05-two-pow-53", lambda p: _table([(1, "a", 1), (1, "b", 2), (3, "a", 2 ** 53 + 1), (3, "b", 1)],
                                       value_type=pa.int64()),
     lambda s, con: ag.krippendorff_alpha(s, level="nominal", con=con)),
    ("06-big-codes-as-text", lambda p: _table([(1, "a", str(2 ** 53 + 1)), (1, "b", str(2 ** 53 + 1)),
                                               (2, "a", str(2 ** 53 + 1)), (2, "b", str(2 ** 53 + 2)),
                                               (3, "a", "7"), (3, "b", "7")]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("07-numeric-text", lambda p: str(_csv(p, "item,rater,value\n1,a,00\n1,b,0\n2,a,-0\n2,b,1\n"
                                             "3,a, 4 \n3,b,4\n4,a,1e0\n4,b,1\n")),
     lambda s, con: ag.krippendorff_alpha(s, level="nominal", con=con)),
    ("08-blank-csv", lambda p: str(_csv(p, "item,rater,value\n1,a,\n1,b,x\n2,a,y\n2,b,y\n3,a,   \n"
                                          "3,b,y\n4,a,x\n4,b,y\n")),
     lambda s, con: ag.fleiss_kappa(s, con=con)),
    ("08-blank-pandas", lambda p: _pandas([(1, "a", ""), (1, "b", "x"), (2, "a", "y"), (2, "b", "y"),
                                           (3, "a", "   "), (3, "b", "y"), (4, "a", "x"), (4, "b", "y")]),
     lambda s, con: ag.fleiss_kappa(s, con=con)),
    ("09-mean-refuses-labels", lambda p: _table([(1, "a", "x"), (1, "a", "y"), (1, "b", "x"),
                                                 (2, "a", "y"), (2, "b", "y")]),
     lambda s, con: ag.fleiss_kappa(s, on_duplicate="mean", con=con)),
    ("10-mean-numbers", lambda p: _table([(1, "a", 1), (1, "a", 3), (1, "b", 2), (2, "a", 4), (2, "b", 4)]),
     lambda s, con: ag.krippendorff_alpha(s, level="interval", on_duplicate="mean", con=con)),
    ("11-duplicate", lambda p: _table(ROWS + [(2, "b", 3)]),
     lambda s, con: ag.cohen_kappa(s, con=con)),
    ("12-placeholders", lambda p: str(_csv(p, "item,rater,value\n1,a,1\n1,b,NA\n2,a,2\n2,b,2\n3,a,*\n"
                                             "3,b,-1\n4,a,1\n4,b,1\n")),
     lambda s, con: ag.krippendorff_alpha(s, level="nominal", missing=["NA", "*", -1], con=con)),
    ("13-header-only", lambda p: str(_csv(p, "item,rater,value\n")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("14-ragged-csv", lambda p: str(_csv(p, "item,rater,value\n1,a,1\n1,b,1,9\n2,a,2\n")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("14-ragged-csv-later", lambda p: str(_csv(p, "item,rater,value\n" + "".join(
        f"{i},a,1\n{i},b,2\n" for i in range(1, 40)) + "40,a\n41,a,1\n")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("15-bom", lambda p: str(_csv(p, "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in ROWS),
                                  encoding="utf-8-sig")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("16-quoted-commas", lambda p: str(_csv(p, 'item,rater,value\n1,a,"yes, mostly"\n1,b,"yes, mostly"\n'
                                              '2,a,no\n2,b,"yes, mostly"\n')),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("17-crlf", lambda p: str(_csv(p, "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in ROWS),
                                   newline="\r\n")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("18-broken-jsonl", lambda p: str(_csv(p, '{"item":1,"rater":"a","value":1}\n{"item":1,"rater":"b",'
                                              '"value":2}\n{"item":2,"rater":"a",\n{"item":2,"rater":"b",'
                                              '"value":2}\n', name="r.jsonl")),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("19-garbage-parquet", _garbage, lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("20-truncated-parquet", _truncated, lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("22-glob-matching-nothing", lambda p: str(p / "*.parquet"),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("23-missing-file", lambda p: str(p / "nope.csv"), lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("25-unicode", lambda p: _table([("🧪", "rätér", "✓"), ("🧪", "b", "✓"), ("ß", "rätér", "✗"), ("ß", "b", "✓")]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("26-nul-in-an-id", lambda p: _table([("a\x00b", "r1", 1), ("a\x00b", "r2", 1), ("c", "r1", 2), ("c", "r2", 1)]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("27-long-id", lambda p: _table([("x" * 100_000, "a", 1), ("x" * 100_000, "a", 2), ("x" * 100_000, "b", 1)]),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("28-case", lambda p: _table([(1, "a", "Yes"), (1, "b", "yes"), (2, "a", "No"), (2, "b", "No")]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("29-trim", lambda p: _table([(1, "a", " yes"), (1, "b", "yes "), (2, "a", "no"), (2, "b", "no")]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("30-labels-in-interval", lambda p: _table([(1, "a", "1"), (1, "b", "x"), (2, "a", "2"), (2, "b", "2")]),
     lambda s, con: ag.krippendorff_alpha(s, level="interval", con=con)),
    ("31-booleans", lambda p: _table([(1, "a", True), (1, "b", True), (2, "a", False), (2, "b", True)]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("32-one-rater", lambda p: _table([(1, "a", 1), (2, "a", 2), (3, "a", 3)]),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("33-one-item", lambda p: _table([(1, "a", 1), (1, "b", 1)]),
     lambda s, con: ag.cohen_kappa(s, ci=0.95, con=con)),
    ("35-many-raters", lambda p: _table([(1, f"r{i}", 1) for i in range(600)]
                                        + [(2, f"r{i}", 1 + i % 2) for i in range(600)]),
     lambda s, con: ag.percent_agreement(s, con=con)),
    ("36-missing-column", lambda p: _table(), lambda s, con: ag.krippendorff_alpha(s, value="score", con=con)),
    ("37-null-item", lambda p: pa.table({"item": [1, None, 2, 2], "rater": ["a", "b", "a", "b"],
                                         "value": [1, 1, 2, 2]}),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("38-null-rater", lambda p: pa.table({"item": [1, 1, 2, 2], "rater": ["a", None, "a", "b"],
                                          "value": [1, 1, 2, 2]}),
     lambda s, con: ag.krippendorff_alpha(s, con=con)),
    ("39-option-types", lambda p: str(_clean_csv(p)),
     lambda s, con: ag.krippendorff_alpha(s, ci="high", con=con)),
    ("40-unknown-rater", lambda p: _table(), lambda s, con: ag.cohen_kappa(s, raters=["a", "z"], con=con)),
    ("41-three-raters", lambda p: _table(), lambda s, con: ag.cohen_kappa(s, raters=["a", "b", "c"], con=con)),
    ("43-outside-the-domain", lambda p: _table(), lambda s, con: ag.krippendorff_alpha(s, domain=[1, 2], con=con)),
    # a peer's counts layout whose cell is not a count (docs/migrating.md): inf, and 2^53
    ("layout-counts-inf", lambda p: pa.table({"yes": [2.0, 1.0, math.inf], "no": [0.0, 1.0, 1.0]}),
     lambda s, con: ag.fleiss_kappa(s, layout="counts", con=con)),
    ("layout-counts-huge", lambda p: pa.table({"yes": [2.0, 1.0, 1e300], "no": [0.0, 1.0, 1.0]}),
     lambda s, con: ag.fleiss_kappa(s, layout="counts", con=con)),
    ("45-no-nan-in-results", lambda p: _table([(1, "a", 1), (1, "b", 1), (2, "a", 1), (2, "b", 1)]),
     lambda s, con: ag.coefficients(s, con=con)),
]
# an unreadable Parquet file: each engine names its own reason after the file
ENGINE_WORDS = {"19-garbage-parquet", "20-truncated-parquet"}
# a number column's cell quoted as the engine writes a DOUBLE as text (inf: DuckDB 'inf',
# Spark 'Infinity'; 1e300: '1e+300', '1.0E300'): the message up to the quoted cell
CELL_TEXT = {"layout-counts-inf", "layout-counts-huge"}


def _outcome(call, source, con):
    try:
        return "result", call(source, con)
    except ag.AgreementError as exc:
        return type(exc), str(exc)


@pytest.mark.parametrize("name, build, call", CASES, ids=[c[0] for c in CASES])
def test_spark_gives_duckdbs_error_or_result(tmp_path, spark_engine, name, build, call):
    source = build(tmp_path)
    duck = _outcome(call, source, None)
    spark = _outcome(call, source, spark_engine)
    if duck[0] == "result":
        assert spark[0] == "result", (name, spark)
        assert_same(duck[1], spark[1], name)
        return
    assert spark[0] is duck[0], (name, duck, spark)
    if name in ENGINE_WORDS:
        prefix = duck[1].split(": ", 1)[0]
        assert prefix.startswith("cannot read") and spark[1].startswith(prefix + ": "), (duck, spark)
    elif name in CELL_TEXT:
        assert spark[1].rsplit(", is '", 1)[0] == duck[1].rsplit(", is '", 1)[0], (duck, spark)
    else:
        assert spark[1] == duck[1], (name, duck, spark)


def test_the_cases_cover_inf_and_a_ragged_csv():
    names = {c[0] for c in CASES}
    assert {"03-inf", "14-ragged-csv"} <= names
