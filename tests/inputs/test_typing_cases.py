"""The typing rule's cases, one by one (docs/decisions/0014): what the issue saw, the ids, the
values, R's write.csv, labels spelled like a missing marker, pandas' odd frames, and a column
named exactly when another differs from it only in case.

The property test (test_typing_rule.py) holds every format to the CSV's bytes; these cases pin
what the CSV (and so every format) must give, against independent oracles: statsmodels'
fleiss_kappa, hand counts in the comments, or the same ratings given cleanly.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from agreement_sql.errors import ColumnError, InvalidRatingError, MissingKeyError
from conftest import as_any_format

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _dump(result) -> str:
    # one input in several formats: the same answer; the route record may say the source's
    # whole-number items were grouped as they are (routes.Decision.by_source_types)
    return json.dumps(as_any_format(result), sort_keys=True)


# -- what the issue saw: JSON with numbers and text in one field -------------------------------

# item 1 and "1", 4 and "4" are one unit each; rater 7 and "7" one rater; "x" is the label x;
# "NA" with missing=["NA"] is a placeholder; 1 and "1" are the number 1.
MIXED = [
    {"item": 1, "rater": 7, "value": "x"}, {"item": "1", "rater": "8", "value": "x"},
    {"item": 2, "rater": 7, "value": "NA"}, {"item": 2, "rater": 8, "value": "x"},
    {"item": 2, "rater": 9, "value": "x"},
    {"item": 3, "rater": "7", "value": "y"}, {"item": 3, "rater": 8, "value": "x"},
    {"item": 4, "rater": 7, "value": 1}, {"item": "4", "rater": "8", "value": "1"},
    {"item": 5, "rater": 7, "value": "y"}, {"item": 5, "rater": "8", "value": "y"},
]
# per unit, the counts of x, y and 1 once NA is missing: two ratings each
MIXED_COUNTS = np.array([[2, 0, 0], [2, 0, 0], [1, 1, 0], [0, 0, 2], [0, 2, 0]])


def test_json_with_numbers_and_text_in_one_field_reads_as_its_csv(tmp_path):
    path = _jsonl(tmp_path / "mixed.jsonl", MIXED)
    got = ag.fleiss_kappa(path, missing=["NA"])
    # oracle: statsmodels on the counts above (every unit rated twice: Fleiss' own formula)
    assert got["value"] == pytest.approx(inter_rater.fleiss_kappa(MIXED_COUNTS), abs=1e-12)
    assert (got["n_items"], got["n_raters"], got["n_categories"]) == (5, 3, 3)
    assert got["n_excluded"] == {"missing": 0, "placeholder": 1, "duplicate": 0}
    csv = tmp_path / "mixed.csv"
    csv.write_text("item,rater,value\n" + "".join(f"{r['item']},{r['rater']},{r['value']}\n"
                                                   for r in MIXED), encoding="utf-8")
    assert _dump(ag.fleiss_kappa(csv, missing=["NA"])) == _dump(got)
    as_json = tmp_path / "mixed.json"
    as_json.write_text(json.dumps(MIXED), encoding="utf-8")
    assert _dump(ag.fleiss_kappa(as_json, missing=["NA"])) == _dump(got)


def test_a_pandas_object_column_of_numbers_and_text_reads_as_its_csv(tmp_path):
    frame = pd.DataFrame(MIXED)
    assert frame["item"].dtype == object
    expected = ag.fleiss_kappa(_jsonl(tmp_path / "m.jsonl", MIXED), missing=["NA"])
    assert _dump(ag.fleiss_kappa(frame, missing=["NA"])) == _dump(expected)


# -- ids -------------------------------------------------------------------------------------

@pytest.mark.slow
def test_ids_are_text_and_sort_by_their_bytes_whatever_the_column_type(tmp_path):
    # Parquet int 7 and CSV "7", float 7.0 and text "7.0", bool True and "TRUE"
    rows = {"item": [10, 10, 9, 9], "rater": [7, 8, 7, 8], "value": [1, 2, 2, 3],
            "slice": [True, True, False, False]}
    typed = pa.table(rows)
    pq.write_table(typed, tmp_path / "t.parquet")
    text = tmp_path / "t.csv"
    text.write_text("item,rater,value,slice\n10,7,1,TRUE\n10,8,2,TRUE\n9,7,2,FALSE\n9,8,3,FALSE\n")
    got = [ag.rater_diagnostics(s, group_by="slice", level="nominal")
           for s in (typed, tmp_path / "t.parquet", text)]
    assert _dump(got[0]) == _dump(got[1]) == _dump(got[2])
    assert [d["group"] for d in got[0]] == [{"slice": "false"}, {"slice": "true"}]
    assert [r["rater"] for r in got[0][1]["raters"]] == ["7", "8"]
    report = ag.irr(text)
    # both traces spread by 0.5: "10" sorts before "9" by its bytes (the trace ids are text)
    assert [t["trace_id"] for t in report["trace_disagreements"]] == ["10", "9"]
    assert _dump(ag.irr(typed)) == _dump(report)
    floats = pa.table({"item": [7.0, 7.0, 2.5, 2.5], "rater": ["a", "b", "a", "b"],
                       "value": [1, 2, 1, 1]})
    as_text = pa.table({"item": ["7.0", "7.0", "2.5", "2.5"], "rater": ["a", "b", "a", "b"],
                        "value": [1, 2, 1, 1]})
    assert _dump(ag.irr(floats)) == _dump(ag.irr(as_text))
    assert ag.irr(floats)["trace_disagreements"][0]["trace_id"] == "7.0"


def test_an_empty_or_nan_id_is_a_missing_key(tmp_path):
    for item in (["", "1", "2", "2"], [np.nan, 1.0, 2.0, 2.0]):
        table = pa.table({"item": pa.array(item, from_pandas=True), "rater": ["a", "b", "a", "b"],
                          "value": [1, 1, 2, 2]})
        with pytest.raises(MissingKeyError, match=r"'item' are empty \(NULL\) in 1 row"):
            ag.fleiss_kappa(table)


# -- values ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_booleans_and_their_spellings_are_one_label(tmp_path):
    bools = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"),
                      "value": [True, True, False, True, False, False]})
    for spelled in (("True", "False"), ("TRUE", "FALSE"), ("true", "false")):
        t, f = spelled
        path = tmp_path / f"{t}.csv"
        path.write_text(f"item,rater,value\n1,a,{t}\n1,b,{t}\n2,a,{f}\n2,b,{t}\n3,a,{f}\n3,b,{f}\n")
        assert _dump(ag.cohen_kappa(path)) == _dump(ag.cohen_kappa(bools))
    # hand count: 2 of 3 units agree
    assert ag.percent_agreement(bools)["value"] == pytest.approx(2 / 3, abs=1e-15)


def test_only_a_booleans_spelling_is_lower_cased_whatever_its_length_in_bytes():
    # the test for true/false counts bytes (the dialect's byte_length, decision 0014): "tRuE"
    # and " FALSE " (trimmed) are the booleans' labels, for ids and values alike; "trüe" (four
    # characters, five bytes), "TRUEx" and "Truе" (a Cyrillic е) stay as they are, distinct
    # labels and raters. Hand count: raters true (from "tRuE") and false (from "FALSE") agree
    # on units 1 and 2 (label true, label false), disagree on 3 and 4.
    table = pa.table({
        "item": ["1", "1", "2", "2", "3", "3", "4", "4"],
        "rater": ["tRuE", "FALSE", "true", "false", "TRUE", "False", "true", "false"],
        "value": ["True", " true", " FALSE ", "false", "trüe", "TRUE", "TRUEx", "Truе"]})
    result = ag.coefficients(table, which=["percent_agreement", "cohen_kappa"])
    cohen = result["cohen_kappa"]
    assert result["percent_agreement"]["value"] == pytest.approx(0.5, abs=1e-15)
    assert cohen["raters"] == ["false", "true"]
    # the categories: true, false, and the three texts kept as they are
    assert cohen["n_categories"] == 5
    # chance agreement by hand: rater true gave true, false, trüe, TRUEx; rater false true,
    # false, true, Truе: pe = (1/4)(2/4) + (1/4)(1/4) = 3/16, kappa = (1/2 - 3/16) / (13/16)
    assert cohen["chance_agreement"] == pytest.approx(3 / 16, abs=1e-15)
    assert cohen["value"] == pytest.approx(5 / 13, abs=1e-15)


@pytest.mark.parametrize("missing", [["-1"], [-1], [-1.0], [" -1 "]])
def test_a_placeholder_matches_a_number_whatever_its_type_and_the_columns(tmp_path, missing):
    numbers = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"),
                        "value": [1, 1, -1, 2, 3, 3]})
    pq.write_table(numbers, tmp_path / "n.parquet")
    text = tmp_path / "n.csv"
    text.write_text("item,rater,value\n1,a,1\n1,b,1\n2,a,-1.0\n2,b,2\n3,a,3\n3,b,3\n")
    got = [ag.krippendorff_alpha(s, missing=missing, level="nominal")
           for s in (numbers, tmp_path / "n.parquet", text)]
    assert got[0]["n_excluded"]["placeholder"] == 1 and got[0]["value"] == 1.0
    assert _dump(got[0]) == _dump(got[1]) == _dump(got[2])


def test_null_nan_and_blank_are_missing_in_every_form(tmp_path):
    table = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4], "rater": list("abababab"),
                      "value": pa.array([1.0, 1.0, None, 2.0, float("nan"), 3.0, 2.0, 2.0])})
    text = tmp_path / "m.csv"
    text.write_text("item,rater,value\n1,a,1.0\n1,b,1.0\n2,a,\n2,b,2.0\n3,a,NaN\n3,b,3.0\n"
                    "4,a,2.0\n4,b,2.0\n")
    expected = ag.fleiss_kappa(table)
    assert expected["n_excluded"]["missing"] == 2
    assert _dump(ag.fleiss_kappa(text)) == _dump(expected)


def test_a_whole_number_code_of_two_pow_53_or_more_is_its_digits_in_every_form(tmp_path):
    big = 2 ** 53
    table = pa.table({"item": [1, 1, 2, 2], "rater": list("abab"),
                      "value": pa.array([big + 1, big + 2, big + 1, big + 1], type=pa.int64())})
    text = tmp_path / "b.csv"
    text.write_text(f"item,rater,value\n1,a,{big + 1}\n1,b,{big + 2}\n2,a,{big + 1}\n2,b,{big + 1}\n")
    jsonl = _jsonl(tmp_path / "b.jsonl", [{"item": i, "rater": r, "value": v} for i, r, v in
                                          zip([1, 1, 2, 2], "abab", [big + 1, big + 2, big + 1, big + 1])])
    got = [ag.percent_agreement(s) for s in (table, text, jsonl)]
    # hand count: unit 2 agrees, unit 1 does not (2^53 + 1 and 2^53 + 2 differ)
    assert got[0]["value"] == 0.5 and got[0]["n_categories"] == 2
    assert _dump(got[0]) == _dump(got[1]) == _dump(got[2])


# -- R's write.csv ---------------------------------------------------------------------------

R_CSV = ('"","item","rater","value"\n"1","u1","a",3\n"2","u1","b",3\n"3","u2","a",NA\n'
         '"4","u2","b",2\n"5","u3","a",1\n"6","u3","b",2\n"7","u4","a",TRUE\n"8","u4","b",TRUE\n')


def test_r_write_csv_output_reads(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text(R_CSV, encoding="utf-8")
    clean = pa.table({"item": ["u1", "u1", "u2", "u3", "u3", "u4", "u4"],
                      "rater": ["a", "b", "b", "a", "b", "a", "b"],
                      "value": ["3", "3", "2", "1", "2", "true", "true"]})
    got = ag.fleiss_kappa(path, missing=["NA"])
    expected = ag.fleiss_kappa(clean)
    assert got["value"] == expected["value"] and got["n_items"] == expected["n_items"] == 3
    assert got["n_excluded"]["placeholder"] == 1 and "conventions" not in got
    # without missing=, R's NA is a label, rated, and the result says so
    rated = ag.fleiss_kappa(path)
    assert "missing=['NA']" in rated["conventions"]["missing_markers"]


def test_r_row_names_name_the_units_of_a_wide_table(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text('"","ann","bob"\n"u1",1,1\n"u2",2,NA\n"u3",3,2\n', encoding="utf-8")
    got = ag.krippendorff_alpha(path, layout="wide", missing=["NA"], level="interval")
    same = ag.krippendorff_alpha(pa.table({"item": ["u1", "u2", "u3"], "ann": [1, 2, 3],
                                           "bob": [1, None, 2]}), layout="wide", level="interval")
    # the same units (R's row names u1..u3, not the row positions), the NA a placeholder there
    # and a NULL here
    assert got["n_excluded"] == {**same["n_excluded"], "missing": 0, "placeholder": 1}
    assert _dump({**got, "n_excluded": None}) == _dump({**same, "n_excluded": None})
    # the units are named by the row names (u2 has one rating left: no spread to report)
    traces = ag.irr(path, layout="wide", missing=["NA"])["trace_disagreements"]
    assert [t["trace_id"] for t in traces] == ["u3", "u1"]


# -- labels spelled like a missing marker ---------------------------------------------------

@pytest.mark.parametrize("marker", ["NA", "N/A", "null", "None", "na", "#N/A"])
def test_a_label_spelled_like_a_missing_marker_is_rated_and_said_so(marker):
    table = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"),
                      "value": ["yes", "yes", marker, "no", "no", "no"]})
    rated = ag.coefficients(table, which=["fleiss_kappa", "percent_agreement"])
    for result in rated.values():
        note = result["conventions"]["missing_markers"]
        assert f"1 rating(s)" in note and f"missing=[{marker!r}]" in note
    declared = ag.fleiss_kappa(table, missing=[marker])
    assert "conventions" not in declared and declared["n_excluded"]["placeholder"] == 1
    # a computation that needs numbers names the marker and missing=
    numbers = pa.table({"item": [1, 1, 2, 2], "rater": list("abab"), "value": ["1", "2", marker, "2"]})
    with pytest.raises(InvalidRatingError, match=rf"pass missing=\[{marker!r}\]"):
        ag.krippendorff_alpha(numbers, level="interval")


def test_no_marker_no_line():
    table = pa.table({"item": [1, 1], "rater": ["a", "b"], "value": ["nab", "n/a/b"]})
    assert "conventions" not in ag.percent_agreement(table)


# -- pandas' odd frames ----------------------------------------------------------------------

def test_pandas_duplicate_column_names_are_read_or_refused_by_name():
    frame = pd.DataFrame([[1, "a", 1, 9], [1, "b", 1, 9], [2, "a", 2, 9], [2, "b", 1, 9]],
                         columns=["item", "rater", "value", "note"])
    twice = frame.rename(columns={"note": "value"})
    assert list(twice.columns).count("value") == 2
    with pytest.raises(ColumnError, match="'value' appears 2 times in the pandas DataFrame"):
        ag.fleiss_kappa(twice)
    # a duplicated column the call does not name is not read
    unnamed = frame.rename(columns={"note": "item"}).iloc[:, [0, 1, 2]].copy()
    unnamed["extra"] = 1
    unnamed.columns = ["item", "rater", "value", "rater_note"]
    assert ag.fleiss_kappa(unnamed) == ag.fleiss_kappa(frame)
    other = frame.rename(columns={"note": "x"}).assign(y=0)
    other.columns = ["item", "rater", "value", "x", "x"]
    assert ag.fleiss_kappa(other) == ag.fleiss_kappa(frame)


def test_pandas_and_arrow_float16_columns_read_as_their_values():
    half = pd.DataFrame({"item": [1, 1, 2, 2], "rater": list("abab"),
                         "value": np.array([1.5, 1.5, 2.0, 0.5], dtype=np.float16)})
    single = half.astype({"value": "float32"})
    assert ag.krippendorff_alpha(half) == ag.krippendorff_alpha(single)
    table = pa.Table.from_pandas(half, preserve_index=False)
    assert pa.types.is_float16(table.schema.field("value").type)
    assert ag.krippendorff_alpha(table) == ag.krippendorff_alpha(single)


# -- a column named exactly when another differs from it only in case ------------------------

CASES = {"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"),
         "value": [1, 2, 1, 2, 1, 2],          # no unit agrees
         "VALUE": [1, 1, 2, 2, 3, 3]}          # every unit agrees


@pytest.mark.parametrize("form", ["arrow", "parquet", "pandas", "polars", "csv", "jsonl"])
def test_an_explicit_column_name_is_honoured_exactly(tmp_path, form):
    table = pa.table(CASES)
    if form == "parquet":
        pq.write_table(table, tmp_path / "c.parquet")
        source = tmp_path / "c.parquet"
    elif form == "pandas":
        source = table.to_pandas()
    elif form == "polars":
        source = pl.from_arrow(table)
    elif form == "csv":
        source = tmp_path / "c.csv"
        source.write_text("item,rater,value,VALUE\n" + "".join(
            f"{i},{r},{v},{w}\n" for i, r, v, w in zip(*CASES.values())))
    elif form == "jsonl":
        source = _jsonl(tmp_path / "c.jsonl", table.to_pylist())
    else:
        source = table
    # hand counts: VALUE agrees on 3 of 3 units, value on none
    assert ag.percent_agreement(source, value="VALUE")["value"] == 1.0
    assert ag.percent_agreement(source, value="value")["value"] == 0.0
    assert ag.percent_agreement(source)["value"] == 0.0            # the default names 'value'
    with pytest.raises(ColumnError, match="'Value' not found.*'value', 'VALUE' differ from it "
                                          "only in case"):
        ag.percent_agreement(source, value="Value")
    with pytest.raises(ColumnError, match="differ only in case"):
        ag.percent_agreement(source, metric="VALUE")             # both read: refused


def test_rater_diagnostics_say_so_too():
    table = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": list("ababab"),
                      "value": ["yes", "yes", "N/A", "no", "no", "no"]})
    found = ag.rater_diagnostics(table, level="nominal")
    assert "missing=['N/A']" in found["conventions"]["missing_markers"]
    assert "conventions" not in ag.rater_diagnostics(table, level="nominal", missing=["N/A"])
