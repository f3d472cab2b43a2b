"""``--missing``: comma-separated placeholders, as the README writes them (issue #24 point 1).

``--missing 'NA,*,-1'`` is three placeholders, each read by the typing rule like
``missing=["NA", "*", "-1"]`` in Python (so ``-1`` matches the number -1 in a numeric column);
repeated flags add up; a backslash keeps a comma inside one placeholder.
"""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.cli import main
from agreement_sql.cli._common import placeholders


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=6), min_size=1, max_size=5))
def test_the_flag_reads_back_the_placeholders_it_was_written_from(values):
    text = ",".join(v.replace("\\", "\\\\").replace(",", "\\,") for v in values)
    assert placeholders(text) == values


def _alpha(capsys, path, *flags):
    assert main(["krippendorff-alpha", str(path), "--format", "json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


def test_comma_separated_equals_repeated_equals_the_api(tmp_path, capsys):
    path = tmp_path / "r.csv"
    path.write_text("item,rater,value\n1,a,1\n1,b,1\n2,a,2\n2,b,*\n3,a,-1\n3,b,2\n"
                    "4,a,NA\n4,b,1\n5,a,2\n5,b,2\n")
    comma = _alpha(capsys, path, "--missing", "NA,*,-1")
    repeated = _alpha(capsys, path, "--missing", "NA", "--missing", "*", "--missing=-1")
    api = ag.krippendorff_alpha(str(path), missing=["NA", "*", "-1"])
    # three placeholder rows (-1, *, NA), their units then rated once
    assert comma["n_excluded"]["placeholder"] == 3
    for got in (comma, repeated):
        got.pop("route"), api.pop("route", None)
        assert got == json.loads(json.dumps(api))


def test_a_numeric_parquet_column_honours_a_text_placeholder(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": ["a", "b"] * 3,
                             "value": [1, 1, 2, -1, 2, 2]}), path)
    got = _alpha(capsys, path, "--missing", "-1")
    assert got["n_excluded"]["placeholder"] == 1 and got["n_ratings"] == 4
