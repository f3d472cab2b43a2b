"""``agreement-sql agree`` and cohen-kappa's ``--labels``/``--sample-weight`` mirror the Python
calls (docs/decisions/0027)."""
from __future__ import annotations

import json

import pytest

import agreement_sql as ag
from agreement_sql.cli import main
from conftest import REFERENCE

VIDEO = str(REFERENCE / "irr_video_20x4.csv")
SAS = str(REFERENCE / "sas_kappa_3x3.csv")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_agree_command_is_irrs_documented_output(capsys):
    code, out, _ = run(capsys, "agree", VIDEO, "--tolerance", "1")
    assert code == 0 and json.loads(out)["percent"] == pytest.approx(90.0)   # irr docs, agree(video, 1)
    code, out, _ = run(capsys, "agree", VIDEO, "--units", "complete", "--format", "table")
    assert code == 0 and "35" in out                                          # irr docs, agree(video)


def test_agree_tolerance_on_labels_is_one_error_line(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("item,rater,value\n1,a,x\n1,b,y\n")
    code, _, err = run(capsys, "agree", str(path), "--tolerance", "1")
    assert code == 1 and "tolerance" in err and len(err.strip().splitlines()) == 1


def test_cohen_kappa_labels_and_sample_weight_flags_are_the_api(capsys):
    weights = {str(i): 1.0 + (i % 3) for i in range(1, 40)}
    code, out, _ = run(capsys, "cohen-kappa", SAS, "--labels", "1,2",
                       "--sample-weight", json.dumps(weights))
    assert code == 0
    expected = ag.cohen_kappa(SAS, labels=[1, 2], sample_weight=weights)
    got = json.loads(out)
    assert got["value"] == pytest.approx(expected["value"], abs=1e-15)
    assert got["n_excluded"] == expected["n_excluded"] and got["n_excluded"]["outside_labels"] > 0
    code, _, err = run(capsys, "cohen-kappa", SAS, "--sample-weight", "[1,")
    assert code == 1 and "--sample-weight" in err
