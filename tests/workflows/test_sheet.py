"""The Cohen's kappa evaluation sheet (seed 003), as docs/workflows.md describes it.

Oracles: scikit-learn's cohen_kappa_score and statsmodels' fleiss_kappa on labels read here
with pandas; simple agreement by hand (same label / both labelled).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from agreement_sql import evaluation_sheet
from agreement_sql.cli import main
from agreement_sql.errors import ColumnError, DuplicateRatingError, InvalidRatingError, SourceError

from conftest import DATA  # noqa: E402
SHEET = DATA / "evaluation_sheet.csv"
SHEET3 = DATA / "evaluation_sheet_3annotators.csv"


def _frame(path, include_train=False):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    for c in df.columns:
        if c.endswith("_Label") or c == "LLM_Judge_Verdict":
            df[c] = df[c].str.strip().str.upper()
    return df if include_train else df[df["Dataset_Split"].str.upper() != "TRAIN"]


def _both(df, a, b):
    d = df[(df[a] != "") & (df[b] != "")]
    return list(d[a]), list(d[b])


@pytest.fixture(scope="module")
def report():
    return evaluation_sheet(str(SHEET))


def test_annotator_kappa_and_agreement(report):
    a, b = _both(_frame(SHEET), "Annotator_1_Label", "Annotator_2_Label")
    agg = report["annotator_agreement"]
    assert agg["coefficient"] == "cohen_kappa" and agg["n"] == len(a) == 198
    assert agg["kappa"] == round(cohen_kappa_score(a, b), 4) == 0.6543
    assert agg["percent_agreement"] == round(100 * sum(x == y for x, y in zip(a, b)) / len(a), 1) == 82.8
    assert agg["interpretation"] == "Substantial" and agg["target_met"] is True


def test_train_is_excluded_with_a_visible_note(report):
    assert report["train_rows"] == 36
    assert any("Train rows excluded: 36 of 240" in n for n in report["notes"])
    with_train = evaluation_sheet(str(SHEET), include_train=True, diagnostics=False)
    a, b = _both(_frame(SHEET, include_train=True), "Annotator_1_Label", "Annotator_2_Label")
    assert with_train["annotator_agreement"]["kappa"] == round(cohen_kappa_score(a, b), 4)
    assert with_train["annotator_agreement"]["kappa"] > report["annotator_agreement"]["kappa"]
    assert any("INCLUDED" in n for n in with_train["notes"])


def test_llm_judge_against_each_annotator_and_the_consensus(report):
    df = _frame(SHEET)
    for entry in report["llm_judge"]["vs_annotators"]:
        a, j = _both(df, entry["annotator"] + "_Label", "LLM_Judge_Verdict")
        assert entry["kappa"] == round(cohen_kappa_score(a, j), 4) and entry["n"] == len(a)
    c, j = _both(df, "Final_Consensus_Label", "LLM_Judge_Verdict")
    vs = report["llm_judge"]["vs_consensus"]
    assert vs["kappa"] == round(cohen_kappa_score(c, j), 4)
    assert vs["percent_agreement"] == round(100 * sum(x == y for x, y in zip(c, j)) / len(c), 1) == 80.9


def test_breakdowns_by_split_module_and_scenario(report):
    df = _frame(SHEET)
    assert set(report["breakdowns"]) == {"Dataset_Split", "Module", "Scenario"}
    assert [lv["level"] for lv in report["breakdowns"]["Dataset_Split"]] == ["Dev", "Test"]
    m11 = next(lv for lv in report["breakdowns"]["Module"] if lv["level"] == "M11")
    a, b = _both(df[df["Module"] == "M11"], "Annotator_1_Label", "Annotator_2_Label")
    assert m11["kappa"] == round(cohen_kappa_score(a, b), 4)
    assert m11["interpretation"] == "Poor (worse than chance)" and m11["target_met"] is False


def test_disagreements_for_the_consensus_round(report):
    df = _frame(SHEET)
    d = df[(df["Annotator_1_Label"] != "") & (df["Annotator_2_Label"] != "")
           & (df["Annotator_1_Label"] != df["Annotator_2_Label"])]
    assert [r["Sample_ID"] for r in report["disagreements"]] == list(d["Sample_ID"])
    first = report["disagreements"][0]
    assert set(first) >= {"Sample_ID", "Dataset_Split", "Module", "Scenario", "Annotator_1_Label",
                          "Annotator_2_Label", "Final_Consensus_Label", "LLM_Judge_Verdict"}


def test_three_annotators_pairwise_and_fleiss(tmp_path):
    df = _frame(SHEET3)
    r = evaluation_sheet(str(SHEET3))
    agg = r["annotator_agreement"]
    assert agg["coefficient"] == "fleiss_kappa"
    cols = ["Annotator_1_Label", "Annotator_2_Label", "Annotator_3_Label"]
    for pair in agg["pairs"]:
        a, b = _both(df, pair["raters"][0] + "_Label", pair["raters"][1] + "_Label")
        assert pair["kappa"] == round(cohen_kappa_score(a, b), 4)
    # Fleiss (statsmodels) needs complete rows: drop the samples with a blank label
    complete = df[(df[cols] != "").all(axis=1)]
    path = tmp_path / "complete.csv"
    pd.read_csv(SHEET3, dtype=str, keep_default_na=False).loc[complete.index].to_csv(path, index=False)
    table, _ = aggregate_raters(complete[cols].to_numpy())
    assert evaluation_sheet(str(path), diagnostics=False)["annotator_agreement"]["kappa"] == \
        round(fleiss_kappa(table, method="fleiss"), 4)


def test_labels_compare_case_insensitively_and_blank_is_missing(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("Sample_ID,Dataset_Split,Scenario,Module,Annotator_1_Label,Annotator_2_Label\n"
                    "a,Dev,S,M,pass,PASS\nb,Test,S,M, Fail ,fail\nc,Dev,S,M,PASS,\nd,Dev,S,M,FAIL,PASS\n"
                    "e,Train,S,M,PASS,FAIL\n", encoding="utf-8")
    r = evaluation_sheet(str(path))
    # a, b agree; c has one label (missing, not a category); d disagrees; e is Train
    a = ["PASS", "FAIL", "FAIL"]
    b = ["PASS", "FAIL", "PASS"]
    assert r["annotator_agreement"]["n"] == 3
    assert r["annotator_agreement"]["kappa"] == round(cohen_kappa_score(a, b), 4)
    assert r["labels"] == {"Annotator_1_Label": 4, "Annotator_2_Label": 3}
    assert "llm_judge" in r and r["llm_judge"] == {}
    assert any("LLM_Judge_Verdict" in n for n in r["notes"])


@pytest.mark.parametrize("text,error,needle", [
    ("Sample_ID,Dataset_Split,Annotator_1_Label,Annotator_2_Label\na,Dev,PASS,PASSS\n",
     InvalidRatingError, "'PASSS' in column 'Annotator_2_Label' at Sample_ID 'a' (data row 1)"),
    ("Sample_ID,Dataset_Split,Annotator_1_Label\na,Dev,PASS\n", ColumnError,
     "needs at least two Annotator_N_Label columns (found 'Annotator_1_Label')"),
    ("Dataset_Split,Annotator_1_Label,Annotator_2_Label\nDev,PASS,PASS\n", ColumnError,
     "sample id column 'Sample_ID' not found"),
    ("Sample_ID,Dataset_Split,Annotator_1_Label,Annotator_2_Label\na,Dev,PASS,PASS\na,Test,FAIL,FAIL\n",
     DuplicateRatingError, "'a' (data row 1)"),
    ("", SourceError, "is empty"),
])
def test_malformed_sheets(tmp_path, text, error, needle):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error) as info:
        evaluation_sheet(str(path))
    assert needle in str(info.value)


def test_cli_on_the_examples(capsys):
    assert main(["sheet", str(SHEET), "--no-diagnostics"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["annotator_agreement"]["kappa"] == 0.6543
    assert main(["sheet", str(SHEET3), "--format", "table"]) == 0
    text = capsys.readouterr().out
    assert "Fleiss' kappa: 0.6666 (Substantial) - target >= 0.6 met" in text


@pytest.mark.parametrize("text,needle", [
    ("Sample_ID,Dataset_Split,Annotator_1_Label,Annotator_2_Label\na,Dev,PASS,maybe\n",
     "'maybe' in column 'Annotator_2_Label'"),
    ("Sample_ID,Annotator_1_Label,Annotator_2_Label\na,PASS,PASS\n", "split column 'Dataset_Split' not found"),
    ("", "is empty"),
])
def test_cli_malformed_input_is_one_line(tmp_path, capsys, text, needle):
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    assert main(["sheet", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


# -- the per-slice pairs, the one-pass statements and the refusals they keep -------------------

def test_llm_vs_consensus_per_level_and_confusion_counts(report):
    df = _frame(SHEET)
    for level in report["breakdowns"]["Dataset_Split"]:
        c, j = _both(df[df["Dataset_Split"] == level["level"]], "Final_Consensus_Label", "LLM_Judge_Verdict")
        assert level["llm_vs_consensus"]["n"] == len(c)
        assert level["llm_vs_consensus"]["kappa"] == round(cohen_kappa_score(c, j), 4)
    a, b = _both(df, "Annotator_1_Label", "Annotator_2_Label")
    counts = pd.crosstab(pd.Series(a, name="a"), pd.Series(b, name="b"))
    matrix = report["confusion_matrices"]["Annotator_1 x Annotator_2"]
    assert {la: {lb: int(counts.loc[la, lb]) for lb in counts.columns if counts.loc[la, lb]}
            for la in counts.index} == matrix
    assert set(report["confusion_matrices"]) == {"Annotator_1 x Annotator_2", "Annotator_1 x LLM_Judge",
                                                 "Annotator_2 x LLM_Judge", "Consensus x LLM_Judge"}


def test_fleiss_and_all_agree_per_level_with_three_annotators(tmp_path):
    cols = ["Annotator_1_Label", "Annotator_2_Label", "Annotator_3_Label"]
    df = _frame(SHEET3)
    complete = df[(df[cols] != "").all(axis=1)]
    path = tmp_path / "complete.csv"
    pd.read_csv(SHEET3, dtype=str, keep_default_na=False).loc[complete.index].to_csv(path, index=False)
    r = evaluation_sheet(str(path), diagnostics=False)
    for level in r["breakdowns"]["Dataset_Split"]:
        rows = complete[complete["Dataset_Split"] == level["level"]]
        table, _ = aggregate_raters(rows[cols].to_numpy())
        assert level["coefficient"] == "fleiss_kappa" and level["n"] == len(rows)
        assert level["kappa"] == round(fleiss_kappa(table, method="fleiss"), 4)
        same = (rows[cols].nunique(axis=1) == 1).mean()
        assert level["all_agree_percent"] == round(100 * same, 1)


def test_a_missing_label_in_a_disagreement_is_none_after_the_labels_present(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("Sample_ID,Dataset_Split,Module,Annotator_1_Label,Annotator_2_Label,"
                    "LLM_Judge_Verdict,Final_Consensus_Label\n"
                    "a,Dev,M,PASS,fail,,PASS\nb,Test,,FAIL,FAIL,PASS,FAIL\n", encoding="utf-8")
    r = evaluation_sheet(str(path), diagnostics=False)
    assert r["disagreements"] == [{"Sample_ID": "a", "Dataset_Split": "Dev", "Module": "M",
                                   "Annotator_1_Label": "PASS", "Annotator_2_Label": "FAIL",
                                   "Final_Consensus_Label": "PASS", "LLM_Judge_Verdict": None}]
    assert list(r["disagreements"][0])[-1] == "LLM_Judge_Verdict"


@pytest.mark.parametrize("header,row,kwargs", [
    # two columns of one annotator, both labelling a sample: a rater rating it twice
    ("Annotator_1_Label,Annotator_01_Label,Annotator_2_Label", "PASS,FAIL,PASS", {}),
    # a breakdown given twice: every sample twice in its slice
    ("Annotator_1_Label,Annotator_2_Label,Module", "PASS,FAIL,M", {"breakdowns": ["Module", "module"]}),
])
def test_a_sample_rated_twice_in_a_slice_is_refused(tmp_path, header, row, kwargs):
    path = tmp_path / "s.csv"
    path.write_text(f"Sample_ID,Dataset_Split,{header}\na,Dev,{row}\n", encoding="utf-8")
    with pytest.raises(DuplicateRatingError, match="occur more than once"):
        evaluation_sheet(str(path), **kwargs)
