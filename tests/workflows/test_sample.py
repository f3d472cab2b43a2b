"""The calibration sample of seed 003: Dev and Test only, balanced by the LLM verdict, stratified
per Scenario, seeded and reproducible.

Oracle: the draw re-implemented here in plain Python integers from the template's stated
formula (MINSTD, Park & Miller 1988: multiplier 48271 mod 2^31 - 1), then the per-stratum quotas.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pandas as pd
import pytest

from agreement_sql import calibration_sample
from agreement_sql.cli import main
from agreement_sql.errors import ColumnError, InvalidRatingError, OptionError

from conftest import DATA  # noqa: E402
SHEET = DATA / "evaluation_sheet.csv"
M = 2**31 - 1


def _oracle(path, n_per_stratum, seed):
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    ranks = {sid: r for r, sid in enumerate(sorted(set(df["Sample_ID"])), start=1)}

    def key(sid):
        r = ranks[sid]
        h1 = (48271 * ((seed * 69621 + r) % M)) % M
        return (48271 * ((h1 * h1 + r) % M)) % M

    df["split"] = df["Dataset_Split"].str.strip().str.upper()
    df["verdict"] = df["LLM_Judge_Verdict"].str.strip().str.upper()
    ok = df[df["split"].isin(["DEV", "TEST"]) & df["verdict"].isin(["PASS", "FAIL"])].copy()
    ok["key"] = ok["Sample_ID"].map(key)
    n_pass, n_fail = n_per_stratum // 2, n_per_stratum - n_per_stratum // 2
    drawn = []
    for _, g in ok.groupby("Scenario"):
        ap, af = (g["verdict"] == "PASS").sum(), (g["verdict"] == "FAIL").sum()
        take = {"PASS": min(ap, n_pass + max(n_fail - af, 0)), "FAIL": min(af, n_fail + max(n_pass - ap, 0))}
        for verdict, gv in g.groupby("verdict"):
            drawn += gv.sort_values(["key", "Sample_ID"]).head(take[verdict])[["key", "Sample_ID"]].values.tolist()
    return [sid for _, sid in sorted(drawn)]


def test_the_draw_matches_the_stated_formula():
    for seed in (0, 7, 2**31 - 2):
        assert calibration_sample(str(SHEET), 4, seed=seed)["sample_ids"] == _oracle(SHEET, 4, seed)


def test_reproducible_and_seed_dependent():
    a = calibration_sample(str(SHEET), 4, seed=11)
    assert calibration_sample(str(SHEET), 4, seed=11)["sample_ids"] == a["sample_ids"]
    assert calibration_sample(str(SHEET), 4, seed=12)["sample_ids"] != a["sample_ids"]


def test_dev_and_test_only_balanced_per_scenario(tmp_path):
    out = tmp_path / "sample.csv"
    s = calibration_sample(str(SHEET), 4, seed=3, output=str(out))
    df = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert len(df) == s["drawn"] == 32 and set(df["Dataset_Split"]) <= {"Dev", "Test"}
    assert s["excluded"]["train_rows"] == 36
    counts = df.groupby(["Scenario", "LLM_Judge_Verdict"]).size()
    assert (counts == 2).all() and len(counts) == 2 * df["Scenario"].nunique() == 16
    assert s["by_verdict"] == {"PASS": 16, "FAIL": 16}
    assert s["by_split"] == {"Dev": int((df["Dataset_Split"] == "Dev").sum()),
                             "Test": int((df["Dataset_Split"] == "Test").sum())}
    # annotator columns and the consensus are empty; everything else is the sheet's row
    blank = ["Annotator_1_Label", "Annotator_1_Reasoning", "Annotator_2_Label",
             "Annotator_2_Reasoning", "Final_Consensus_Label"]
    assert s["blanked_columns"] == blank and (df[blank] == "").all().all()
    source = pd.read_csv(SHEET, dtype=str, keep_default_na=False).set_index("Sample_ID")
    kept = [c for c in df.columns if c not in blank and c != "Sample_ID"]
    assert (source.loc[df["Sample_ID"], kept].to_numpy() == df[kept].to_numpy()).all()
    assert list(df["Sample_ID"]) == s["sample_ids"]


def test_a_short_stratum_fills_with_the_other_verdict_and_reports_its_shortfall(tmp_path):
    path = tmp_path / "s.csv"
    rows = [("a1", "Dev", "A", "PASS"), ("a2", "Test", "A", "FAIL"), ("a3", "Dev", "A", "FAIL"),
            ("a4", "Dev", "A", "fail"), ("a5", "Train", "A", "PASS"),
            ("b1", "Dev", "B", "PASS")]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["Sample_ID", "Dataset_Split", "Scenario", "LLM_Judge_Verdict", "Annotator_1_Label"])
        w.writerows([r + ("PASS",) for r in rows])
    s = calibration_sample(str(path), 4, seed=1)
    strata = {t["stratum"]: t for t in s["strata"]}
    # A: 1 PASS available (Train never counts), so 3 FAIL fill the 4; B: 1 row, shortfall 3
    assert strata["A"]["drawn"] == {"PASS": 1, "FAIL": 3} and strata["A"]["shortfall"] == 0
    assert strata["A"]["train_rows"] == 1
    assert strata["B"]["drawn"] == {"PASS": 1, "FAIL": 0} and strata["B"]["shortfall"] == 3
    assert s["shortfall"] == 3 and "a5" not in s["sample_ids"]


@pytest.mark.parametrize("kwargs,error,needle", [
    ({"n_per_stratum": 0}, OptionError, "n_per_stratum must be a whole number from 1"),
    ({"seed": -1}, OptionError, "seed must be a whole number from 0"),
    ({"stratum_column": "Scene"}, ColumnError, "stratum column 'Scene' not found"),
])
def test_bad_options(kwargs, error, needle):
    with pytest.raises(error, match=needle):
        calibration_sample(str(SHEET), **kwargs)


def test_an_unknown_verdict_is_an_error(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("Sample_ID,Dataset_Split,Scenario,LLM_Judge_Verdict\na,Dev,A,PASS\nb,Dev,A,UNSURE\n",
                    encoding="utf-8")
    with pytest.raises(InvalidRatingError, match="'UNSURE' in column 'LLM_Judge_Verdict'"):
        calibration_sample(str(path))


def test_cli(tmp_path, capsys):
    out = tmp_path / "sample.csv"
    assert main(["sample", str(SHEET), "--seed", "7", "-o", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["drawn"] == 32 and summary["output"] == str(out)
    assert len(pd.read_csv(out)) == 32
    assert main(["sample", str(SHEET), "--seed", "7", "--format", "table"]) == 0
    assert "Drew 32 rows (PASS 16, FAIL 16" in capsys.readouterr().out


def test_cli_malformed_input_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("Sample_ID,Dataset_Split,LLM_Judge_Verdict\na,Dev,PASS\n", encoding="utf-8")
    assert main(["sample", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "stratum column 'Scenario' not found" in err
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    assert main(["sample", str(empty)]) == 1
    assert "is empty" in capsys.readouterr().err
