"""The bad-input catalogue: what a user meets when the input is wrong, odd or hostile.

Each case names its input, the call, and the expected outcome: a typed error (an AgreementError
subclass) whose message names the column, value or row, or a documented result (the rules are
docs/decisions/0002 and the README's "Errors and exit codes"). Expected numbers come from the
same ratings given cleanly (the comparison is the oracle) or from hand counts in the comments.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from conftest import as_any_format
from agreement_sql.errors import (AgreementError, ColumnError, DuplicateRatingError,
                                  InvalidRatingError, MissingKeyError, OptionError, SourceError)

ROWS = [  # item, rater, value: 4 items, 2 raters; hand counts: 3 of 4 items agree
    (1, "a", 1), (1, "b", 1), (2, "a", 2), (2, "b", 2), (3, "a", 3), (3, "b", 1), (4, "a", 2), (4, "b", 2),
]


def _csv(tmp_path, text: str, name: str = "r.csv", newline: str = "\n", encoding: str = "utf-8"):
    path = tmp_path / name
    with open(path, "w", encoding=encoding, newline="") as f:
        f.write(text.replace("\n", newline))
    return path


def _clean_csv(tmp_path, rows=ROWS, name="clean.csv"):
    return _csv(tmp_path, "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in rows), name)


def _table(rows=ROWS, value_type=None):
    items, raters, values = zip(*rows)
    return pa.table({"item": list(items), "rater": list(raters),
                     "value": pa.array(list(values), type=value_type)})


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "agreement_sql", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def _strip(result: dict) -> dict:
    """A result without its input accounting (which legitimately differs when rows differ)."""
    return {k: v for k, v in result.items() if k not in ("n_rows", "n_excluded", "n_ratings")}


# --- 1-6: non-finite numbers -----------------------------------------------------------------

def test_01_nan_in_parquet_is_missing_like_arrow_and_csv(tmp_path):
    # NaN is a missing rating on every route (DuckDB folds ISNAN from Parquet statistics; the
    # dialect's isnan does not). Same result, same accounting: one missing rating.
    rows = ROWS + [(5, "a", float("nan")), (5, "b", 2)]
    table = _table(rows)
    pq.write_table(table, tmp_path / "r.parquet")
    csv = _csv(tmp_path, "item,rater,value\n" + "".join(
        f"{i},{r},{'NaN' if isinstance(v, float) and math.isnan(v) else v}\n" for i, r, v in rows))
    # (as_any_format: the route record may say a source's whole-number items were grouped as
    # they are, routes.Decision.by_source_types; the answer is the same)
    results = [as_any_format(ag.krippendorff_alpha(src, level="nominal"))
               for src in (table, tmp_path / "r.parquet", csv)]
    assert results[0] == results[1] == results[2]
    assert results[0]["n_excluded"]["missing"] == 1


def test_02_nan_in_parquet_irr_is_not_ready_by_accident(tmp_path):
    rows = [(1, "a", 1), (1, "b", float("nan")), (2, "a", 2), (2, "b", 2), (3, "a", 3), (3, "b", 1)]
    pq.write_table(_table(rows), tmp_path / "r.parquet")
    assert ag.irr(tmp_path / "r.parquet") == ag.irr(_table(rows))


@pytest.mark.parametrize("bad", [math.inf, -math.inf])
def test_03_infinite_rating_is_refused_naming_value_and_row(bad):
    rows = ROWS[:-1] + [(4, "b", bad)]
    with pytest.raises(InvalidRatingError, match=r"e\.g\. -?inf at \(item='4', rater='b'\)"):
        ag.fleiss_kappa(_table(rows))


def test_04_huge_rating_is_refused_not_overflowed_to_nan():
    rows = ROWS[:-2] + [(4, "a", 1e308), (4, "b", -1e308)]
    with pytest.raises(InvalidRatingError, match=r"1e\+308 at \(item='4'"):
        ag.krippendorff_alpha(_table(rows), level="interval")


def test_05_below_two_pow_53_is_a_number_and_two_pow_53_plus_1_is_a_code(tmp_path):
    ok = [(1, "a", 2 ** 53 - 1), (1, "b", 2 ** 53 - 1), (2, "a", 1), (2, "b", 2)]
    assert ag.krippendorff_alpha(_table(ok), level="nominal")["n_values"] == 4
    bad = ok[2:] + [(3, "a", 2 ** 53 + 1), (3, "b", 2 ** 53 + 2), (4, "a", 2 ** 53 + 1),
                    (4, "b", 2 ** 53 + 1)]
    # 2^53 + 1 would read as 2^53 in a DOUBLE: in an integer column it is a code, its digits (a
    # label), as the same digits in a CSV are (docs/decisions/0014): 2^53 + 1 and + 2 differ
    table = _table(bad, value_type=pa.int64())
    got = ag.krippendorff_alpha(table, level="nominal")
    assert got["n_categories"] == 4 and got["n_values"] == 6
    csv = _csv(tmp_path, "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in bad))
    assert as_any_format(ag.krippendorff_alpha(csv, level="nominal")) == as_any_format(got)
    # a label where numbers are needed is refused, naming the digits
    with pytest.raises(InvalidRatingError, match=r"'9007199254740993' at \(item='3', rater='a'\)"):
        ag.krippendorff_alpha(table, level="interval")
    # a floating-point 2^53 + 2 is not written in digits: refused, shown as read
    floats = ok[2:] + [(3, "a", 2.0 ** 53 + 2), (3, "b", 1.0)]
    with pytest.raises(InvalidRatingError,
                       match=r"2\^53.*9007199254740994 \(as read into a floating-point number\) at \(item='3', rater='a'\)"):
        ag.krippendorff_alpha(_table(floats, value_type=pa.float64()), level="nominal")


def test_06_big_integer_codes_as_text_are_exact_labels():
    # numeric text of 2^53 or more stays a label (exact text): 2^53 + 1 and 2^53 + 2 differ
    big = 2 ** 53
    rows = [(1, "a", str(big + 1)), (1, "b", str(big + 1)), (2, "a", str(big + 1)),
            (2, "b", str(big + 2)), (3, "a", "7"), (3, "b", "7")]
    got = ag.percent_agreement(_table(rows))
    assert got["value"] == pytest.approx(2 / 3, abs=1e-15) and got["n_categories"] == 3


# --- 7-12: numbers held as text, missing values --------------------------------------------

def test_07_numeric_text_reads_as_the_number(tmp_path):
    # "00" = 0, "-0" = 0, " 4 " = 4, "1e0" = 1: nominal alpha equals the numeric table's
    text = "item,rater,value\n1,a,00\n1,b,0\n2,a,-0\n2,b,1\n3,a, 4 \n3,b,4\n4,a,1e0\n4,b,1\n"
    numeric = _table([(1, "a", 0), (1, "b", 0), (2, "a", 0), (2, "b", 1), (3, "a", 4), (3, "b", 4),
                      (4, "a", 1), (4, "b", 1)])
    import pandas as pd
    path = _csv(tmp_path, text)
    expected = as_any_format(ag.krippendorff_alpha(numeric, level="nominal"))
    assert as_any_format(ag.krippendorff_alpha(path, level="nominal")) == expected
    assert as_any_format(ag.krippendorff_alpha(pd.read_csv(path, dtype=str), level="nominal")) == expected


def test_08_empty_and_blank_strings_are_missing_from_csv_and_pandas(tmp_path):
    import pandas as pd
    text = "item,rater,value\n1,a,\n1,b,x\n2,a,y\n2,b,y\n3,a,   \n3,b,y\n4,a,x\n4,b,y\n"
    path = _csv(tmp_path, text)
    frame = pd.DataFrame({"item": [1, 1, 2, 2, 3, 3, 4, 4], "rater": list("abababab"),
                          "value": ["", "x", "y", "y", "   ", "y", "x", "y"]})
    a, b = ag.fleiss_kappa(path), ag.fleiss_kappa(frame)
    assert as_any_format(a) == as_any_format(b)
    assert a["n_excluded"]["missing"] == 2 and a["n_items"] == 2


def test_09_mean_policy_refuses_labels():
    rows = [(1, "a", "x"), (1, "a", "y"), (1, "b", "x"), (2, "a", "y"), (2, "b", "y")]
    with pytest.raises(OptionError, match=r"on_duplicate='mean' averages numbers only.*'x' at \(item='1'"):
        ag.fleiss_kappa(_table(rows), on_duplicate="mean")


def test_10_mean_policy_averages_numbers_and_counts_the_merged_rows():
    rows = [(1, "a", 1), (1, "a", 3), (1, "b", 2), (2, "a", 4), (2, "b", 4)]
    got = ag.krippendorff_alpha(_table(rows), level="interval", on_duplicate="mean")
    # (1, a) is mean(1, 3) = 2: both items agree, alpha 1.0 (hand count); one row merged
    assert got["value"] == 1.0 and got["n_excluded"]["duplicate"] == 1


def test_11_duplicate_without_policy_names_item_and_rater():
    rows = ROWS + [(2, "b", 3)]
    with pytest.raises(DuplicateRatingError, match=r"item='2'.*rater='b'"):
        ag.cohen_kappa(_table(rows))


def test_12_user_placeholders_are_counted_not_rated(tmp_path):
    path = _csv(tmp_path, "item,rater,value\n1,a,1\n1,b,NA\n2,a,2\n2,b,2\n3,a,*\n3,b,-1\n4,a,1\n4,b,1\n")
    got = ag.krippendorff_alpha(path, level="nominal", missing=["NA", "*", -1])
    assert got["n_excluded"]["placeholder"] == 3 and got["n_items"] == 2


# --- 13-24: files ----------------------------------------------------------------------------

def test_13_header_only_csv_is_an_error_and_the_cli_exits_1(tmp_path):
    path = _csv(tmp_path, "item,rater,value\n")
    with pytest.raises(AgreementError, match="has no rows"):
        ag.krippendorff_alpha(path)
    out = _cli("irr", path, "--item", "item", "--rater", "rater", "--value", "value")
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr


def test_14_ragged_csv_names_the_line(tmp_path):
    path = _csv(tmp_path, "item,rater,value\n1,a,1\n1,b,1,9\n2,a,2\n")
    with pytest.raises(SourceError, match="line 3"):
        ag.krippendorff_alpha(path)


def test_15_csv_with_bom_reads_its_first_column(tmp_path):
    path = _csv(tmp_path, "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in ROWS),
                encoding="utf-8-sig")
    assert ag.krippendorff_alpha(path) == ag.krippendorff_alpha(_clean_csv(tmp_path))


def test_16_quoted_commas_stay_inside_a_label(tmp_path):
    path = _csv(tmp_path, 'item,rater,value\n1,a,"yes, mostly"\n1,b,"yes, mostly"\n2,a,no\n2,b,"yes, mostly"\n')
    got = ag.percent_agreement(path)
    assert got["n_categories"] == 2 and got["value"] == 0.5      # hand count: 1 of 2 items


def test_17_crlf_line_ends_give_the_same_result(tmp_path):
    text = "item,rater,value\n" + "".join(f"{i},{r},{v}\n" for i, r, v in ROWS)
    assert (ag.krippendorff_alpha(_csv(tmp_path, text, "crlf.csv", newline="\r\n"))
            == ag.krippendorff_alpha(_csv(tmp_path, text, "lf.csv")))


def test_18_broken_jsonl_line_is_reported_by_its_number(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"item":1,"rater":"a","value":1}\n{"item":1,"rater":"b","value":2}\n'
                    '{"item":2,"rater":"a",\n{"item":2,"rater":"b","value":2}\n')
    with pytest.raises(SourceError, match="line 3"):
        ag.krippendorff_alpha(path)


def test_19_garbage_parquet_is_a_source_error(tmp_path):
    path = tmp_path / "r.parquet"
    path.write_bytes(b"PAR1 this is not parquet" * 10)
    with pytest.raises(SourceError, match="r.parquet"):
        ag.krippendorff_alpha(path)


def test_20_truncated_parquet_is_a_source_error(tmp_path):
    pq.write_table(_table(), tmp_path / "full.parquet")
    data = (tmp_path / "full.parquet").read_bytes()
    (tmp_path / "cut.parquet").write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError, match="cut.parquet"):
        ag.krippendorff_alpha(tmp_path / "cut.parquet")


def test_21_a_directory_is_a_source_error(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(SourceError, match="directory"):
        ag.krippendorff_alpha(tmp_path / "d")


def test_22_a_glob_matching_nothing_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no file matches"):
        ag.krippendorff_alpha(str(tmp_path / "*.parquet"))


def test_23_a_missing_file_is_a_source_error_and_cli_exit_1(tmp_path):
    with pytest.raises(SourceError, match="file not found"):
        ag.krippendorff_alpha(tmp_path / "nope.csv")
    out = _cli("krippendorff-alpha", tmp_path / "nope.csv")
    assert out.returncode != 0 and "file not found" in out.stderr and out.stderr.count("\n") == 1


def test_24_source_given_as_output_is_refused(tmp_path):
    path = _clean_csv(tmp_path)
    out = _cli("krippendorff-alpha", path, "-o", path)
    assert out.returncode != 0 and out.stderr.count("\n") == 1, out.stderr
    assert path.read_text().startswith("item,rater,value")       # untouched


# --- 25-31: identifiers and labels -----------------------------------------------------------

def test_25_unicode_and_emoji_ids_and_labels():
    rows = [("🧪", "rätér", "✓"), ("🧪", "b", "✓"), ("ß", "rätér", "✗"), ("ß", "b", "✓")]
    got = ag.percent_agreement(_table(rows))
    assert got["value"] == 0.5 and got["n_categories"] == 2


def test_26_nul_in_an_id_is_kept_as_text():
    rows = [("a\x00b", "r1", 1), ("a\x00b", "r2", 1), ("c", "r1", 2), ("c", "r2", 1)]
    assert ag.percent_agreement(_table(rows))["value"] == 0.5


def test_27_a_one_megabyte_id_is_truncated_in_messages():
    long = "x" * (1 << 20)
    rows = [(long, "a", 1), (long, "a", 2), (long, "b", 1)]
    with pytest.raises(DuplicateRatingError) as err:
        ag.krippendorff_alpha(_table(rows))
    assert len(str(err.value)) < 1000 and "..." in str(err.value)


def test_28_labels_differing_in_case_are_different_categories():
    rows = [(1, "a", "Yes"), (1, "b", "yes"), (2, "a", "No"), (2, "b", "No")]
    got = ag.percent_agreement(_table(rows))
    assert got["n_categories"] == 3 and got["value"] == 0.5     # no case folding


def test_29_surrounding_space_is_trimmed_from_labels():
    # the documented rule (decision 0002): text is trimmed before it is compared
    rows = [(1, "a", " yes"), (1, "b", "yes "), (2, "a", "no"), (2, "b", "no")]
    got = ag.percent_agreement(_table(rows))
    assert got["n_categories"] == 2 and got["value"] == 1.0


def test_30_labels_in_an_interval_metric_are_refused_naming_the_label():
    rows = [(1, "a", "1"), (1, "b", "x"), (2, "a", "2"), (2, "b", "2")]
    with pytest.raises(InvalidRatingError, match=r"'x' at \(item='1', rater='b'\)"):
        ag.krippendorff_alpha(_table(rows), level="interval")


def test_31_booleans_are_labels_true_and_false():
    rows = [(1, "a", True), (1, "b", True), (2, "a", False), (2, "b", True)]
    got = ag.percent_agreement(_table(rows))
    assert got["value"] == 0.5 and got["n_categories"] == 2


# --- 32-38: shapes of data -------------------------------------------------------------------

def test_32_one_rater_gives_undefined_not_zero_and_irr_exit_1(tmp_path):
    rows = [(1, "a", 1), (2, "a", 2), (3, "a", 3)]
    got = ag.krippendorff_alpha(_table(rows))
    assert got["value"] is None and got["n_excluded"]["single_rated"] == 3
    path = _clean_csv(tmp_path, rows, "one.csv")
    assert "error" in ag.irr(path, item="item", rater="rater", value="value")
    out = _cli("irr", path, "--item", "item", "--rater", "rater", "--value", "value")
    assert out.returncode == 1


def test_33_one_item_and_degenerate_chance_terms():
    # one item, both raters say 1: 0/0 for alpha (D_e = 0) and kappa (p_e = 1); both take the
    # documented convention for one category, 1.0 (docs/coefficients.md,
    # docs/alpha_and_bootstrap.md), and kappa's analytic SE is then undefined: None
    table = _table([(1, "a", 1), (1, "b", 1)])
    assert ag.krippendorff_alpha(table, level="nominal")["value"] == 1.0
    got = ag.cohen_kappa(table, ci=0.95)
    assert got["value"] == 1.0 and got["se"] is None
    # no item rated twice: undefined, None (not 0.0)
    assert ag.cohen_kappa(_table([(1, "a", 1), (2, "b", 1)]))["value"] is None
    # one item, two values: D_o = D_e = 1, alpha = 1 - (n - 1) D_o / D_e = 0 (krippendorff agrees)
    assert ag.krippendorff_alpha(_table([(1, "a", 1), (1, "b", 2)]), level="nominal")["value"] == 0.0


def test_34_no_shared_trace_irr_exits_1(tmp_path):
    path = _clean_csv(tmp_path, [(1, "a", 1), (2, "b", 2), (3, "c", 3)], "apart.csv")
    out = _cli("irr", path, "--item", "item", "--rater", "rater", "--value", "value")
    assert out.returncode == 1


def test_35_an_item_with_1000_raters_matches_the_hand_count():
    # 1000 raters (beyond the 496 rater bits): item 1 all 1s, item 2 half 1s half 2s
    rows = [(1, f"r{i}", 1) for i in range(1000)] + [(2, f"r{i}", 1 + i % 2) for i in range(1000)]
    got = ag.percent_agreement(_table(rows))
    # pairs agreeing: item 1 all C(1000,2); item 2 2*C(500,2); share = mean over items of the
    # per-item share (Fleiss' P_i): (1 + 2*C(500,2)/C(1000,2)) / 2
    expected = (1 + 2 * (500 * 499 / 2) / (1000 * 999 / 2)) / 2
    assert got["value"] == pytest.approx(expected, abs=1e-12)


def test_36_missing_column_names_the_column_and_what_exists():
    with pytest.raises(ColumnError, match=r"'score'.*item.*rater.*value"):
        ag.krippendorff_alpha(_table(), value="score")


def test_37_null_item_names_the_row():
    table = pa.table({"item": [1, None, 2, 2], "rater": ["a", "b", "a", "b"], "value": [1, 1, 2, 2]})
    with pytest.raises(MissingKeyError, match="item"):
        ag.krippendorff_alpha(table)


def test_38_null_rater_names_the_row():
    table = pa.table({"item": [1, 1, 2, 2], "rater": ["a", None, "a", "b"], "value": [1, 1, 2, 2]})
    with pytest.raises(MissingKeyError, match="rater"):
        ag.krippendorff_alpha(table)


# --- 39-48: options and type mistakes --------------------------------------------------------

@pytest.mark.parametrize("call,match", [
    (lambda p: ag.irr(p, threshold="abc"), "threshold"),
    (lambda p: ag.irr(p, scales=["x"]), "scales"),
    (lambda p: ag.krippendorff_alpha(p, item=None), "item="),
    (lambda p: ag.krippendorff_alpha(p, group_by=5), "group_by="),
    (lambda p: ag.krippendorff_alpha(p, con="x"), "con must be"),
    (lambda p: ag.krippendorff_alpha(p, level="nominl"), "level"),
    (lambda p: ag.fleiss_kappa(p, weights="cubic"), "weights"),
    (lambda p: ag.krippendorff_alpha(p, ci=0.95, n_boot="many"), "n_boot"),
    (lambda p: ag.krippendorff_alpha(p, ci="high"), "ci must be"),
], ids=["threshold", "scales", "item-none", "group-by-int", "con-str", "level", "weights", "n-boot",
     "ci"])
def test_39_type_mistakes_are_option_errors(tmp_path, call, match):
    path = _clean_csv(tmp_path)
    with pytest.raises(OptionError, match=match):
        call(path)


def test_40_cohen_unknown_rater_is_named():
    with pytest.raises(OptionError, match=r"'z'.*rated nothing"):
        ag.cohen_kappa(_table(), raters=["a", "z"])


def test_41_cohen_with_three_raters_is_refused():
    with pytest.raises(OptionError, match="compares two raters"):
        ag.cohen_kappa(_table(), raters=["a", "b", "c"])


def test_42_numpy_and_pandas_domains_are_accepted():
    import numpy as np
    import pandas as pd
    expected = ag.krippendorff_alpha(_table(), domain=[1, 2, 3])
    assert ag.krippendorff_alpha(_table(), domain=np.array([1, 2, 3])) == expected
    assert ag.krippendorff_alpha(_table(), domain=pd.Series([1, 2, 3])) == expected
    assert ag.krippendorff_alpha(_table(), domain=[np.int64(1), np.int64(2), np.int64(3)]) == expected


def test_43_out_of_domain_message_shows_the_real_rating():
    with pytest.raises(InvalidRatingError, match=r"e\.g\. 3 at \(item='3', rater='a'\)"):
        ag.krippendorff_alpha(_table(), domain=[1, 2])


def test_44_render_relation_with_a_newline_stays_in_the_comment():
    import duckdb
    script = ag.render("krippendorff_alpha", relation="x\nSELECT 42; --")
    safe = ag.render("krippendorff_alpha", relation="x")
    # DuckDB's parser finds the same statements (the SET VARIABLE line, two session macros and
    # the statement) as for a plain name: the newline stays inside the header comment and the
    # quoted identifier
    statements = duckdb.extract_statements(script)
    assert len(statements) == len(duckdb.extract_statements(safe)) == 4
    assert not any(str(st.query).strip().startswith("SELECT 42") for st in statements)


# --- 45-50: output channels ------------------------------------------------------------------

def test_45_results_never_hold_nan_or_inf():
    # constant ratings: every chance term degenerate; undefined values are None
    rows = [(1, "a", 1), (1, "b", 1), (2, "a", 1), (2, "b", 1)]
    for result in (ag.coefficients(_table(rows)), ag.irr(_table(rows))):
        json.dumps(result, allow_nan=False)


def test_46_the_python_api_prints_nothing(capfd):
    ag.krippendorff_alpha(_table())
    ag.irr(_table())
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_47_cli_errors_are_one_line_on_stderr_with_exit_1(tmp_path):
    path = _clean_csv(tmp_path)
    out = _cli("krippendorff-alpha", path, "--value", "score")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "score" in out.stderr


def test_48_cli_exits_1_when_it_computed_nothing(tmp_path):
    path = _csv(tmp_path, "item,rater,value\n1,a,\n1,b,\n")
    out = _cli("krippendorff-alpha", path)
    assert out.returncode == 1, out.stdout + out.stderr
