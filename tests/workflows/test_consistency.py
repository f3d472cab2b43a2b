"""Cross-agent consistency (seed 002, WFGY), as docs/workflows.md describes it.

Oracles: scikit-learn's cohen_kappa_score on labels read here with the json module; the seed's
own arithmetic (PA = agreeing / N, abstain = scholar ABSTAIN / N) by hand where stated.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from sklearn.metrics import cohen_kappa_score

from agreement_sql import consistency
from agreement_sql.cli import main
from agreement_sql.errors import ColumnError, InvalidRatingError, SourceError

from conftest import DATA  # noqa: E402
PAIRS = DATA / "consistency_pairs.jsonl"
SCHOLAR = DATA / "consistency_scholar.jsonl"
AUDITOR = DATA / "consistency_auditor.jsonl"


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _row(qid, s, a, *, flags=None, citations=None, retrieved=None):
    row = {"qid": qid, "scholar": {"label": s, "reason": ""}, "auditor": {"label": a, "reason": ""}}
    if flags is not None:
        row["flags"] = flags
    if citations is not None:
        row["answer_json"] = {"claim": "x", "citations": citations}
    if retrieved is not None:
        row["retrieved_ids"] = retrieved
    return row


def test_the_example_pairs_file():
    rows = _lines(PAIRS)
    s = [r["scholar"]["label"] for r in rows]
    a = [r["auditor"]["label"] for r in rows]
    r = consistency(str(PAIRS))
    assert r["n"] == 120
    assert r["percent_agreement"] == round(sum(x == y for x, y in zip(s, a)) / 120, 4) == 0.9083
    assert r["kappa"] == round(cohen_kappa_score(s, a), 4) == 0.8286
    assert r["abstain_rate"] == round(s.count("ABSTAIN") / 120, 4) == 0.0167
    assert r["disagreements"] == 11
    assert r["gates"] == {"pa": 0.90, "kappa": 0.75, "abstain": 0.02} and r["pass"] is True
    assert sum(sum(row.values()) for row in r["confusion_matrix"].values()) == 120
    assert r["confusion_matrix"]["VALID"]["REJECT"] == sum(x == "VALID" and y == "REJECT" for x, y in zip(s, a))
    assert [d["why"] for d in r["arbitration"]].count("hard_flag") == 3
    assert r["unknown_labels"] == {"count": 0, "qids": []}


def test_two_files_join_on_qid_and_the_last_duplicate_wins():
    scholar = {r["qid"]: r["label"] for r in _lines(SCHOLAR)}
    auditor = {}
    for r in _lines(AUDITOR):           # a dict keeps the last line of a qid: the oracle
        auditor[r["qid"]] = r["label"]
    qids = sorted(set(scholar) & set(auditor))
    s = [scholar[q] for q in qids]
    a = [auditor[q] for q in qids]
    r = consistency(scholar=str(SCHOLAR), auditor=str(AUDITOR))
    assert r["n"] == len(qids) == 117
    assert r["percent_agreement"] == round(sum(x == y for x, y in zip(s, a)) / 117, 4) == 0.9145
    assert r["kappa"] == round(cohen_kappa_score(s, a), 4)
    assert r["disagreements"] == 10
    assert r["input"]["rows_auditor"] == 118 and r["input"]["qids_auditor"] == 117
    # the arbitration of separate files sees no flags: sorted by qid as upstream iterates
    assert [d["qid"] for d in r["arbitration"]] == sorted(d["qid"] for d in r["arbitration"])


def test_arbitration_policy_in_its_stated_order():
    rows = [
        # a hard flag outranks an out-of-scope citation and the auditor's VALID
        _row("q1", "REJECT", "VALID", flags={"provenance_violation": True},
             citations=["x#9"], retrieved=["p#1"]),
        _row("q2", "VALID", "REJECT", flags={"constraints_mismatch": True}),
        # citations not within retrieved_ids outrank the auditor
        _row("q3", "REJECT", "VALID", citations=["p#1", "x#9"], retrieved=["p#1"]),
        # every citation retrieved: on to the auditor
        _row("q4", "VALID", "REJECT", citations=["p#1"], retrieved=["p#1", "p#2"]),
        _row("q5", "VALID", "NOT_IN_CONTEXT"),
        _row("q6", "NOT_IN_CONTEXT", "VALID"),
        _row("q7", "ABSTAIN", "VALID"),
        _row("q8", "REJECT", "VALID", citations=[], retrieved=[]),
        _row("q9", "VALID", "VALID", flags={"provenance_violation": True}),   # agreement: no arbitration
    ]
    r = consistency(rows)
    assert [(d["qid"], d["final"], d["why"]) for d in r["arbitration"]] == [
        ("q1", "REJECT", "hard_flag"), ("q2", "REJECT", "hard_flag"),
        ("q3", "REJECT", "citation_out_of_scope"), ("q4", "REJECT", "auditor_veto"),
        ("q5", "REJECT", "auditor_veto"), ("q6", "VALID", "auditor_ok"),
        ("q7", "REJECT", "incoherent_pair"), ("q8", "REJECT", "incoherent_pair")]


def test_abstain_rate_counts_the_scholar_side_only():
    rows = [_row("q1", "ABSTAIN", "VALID"), _row("q2", "VALID", "ABSTAIN"),
            _row("q3", "REJECT", "ABSTAIN"), _row("q4", "VALID", "VALID")]
    assert consistency(rows)["abstain_rate"] == 0.25        # 1 scholar ABSTAIN of 4


def test_gates_are_decided_on_unrounded_values():
    # PA = 109/120 = 0.908333 (shown 0.9083): a gate of 0.90832 passes, though 0.9083 < 0.90832
    # abstain = 2/120 = 0.016667 (shown 0.0167): a gate of 0.01667 passes, though 0.0167 > 0.01667
    r = consistency(str(PAIRS), gates={"pa": 0.90832, "abstain": 0.01667})
    assert r["percent_agreement"] == 0.9083 and r["abstain_rate"] == 0.0167
    assert r["gate_results"] == {"pa": True, "kappa": True, "abstain": True} and r["pass"] is True
    r = consistency(str(PAIRS), gates={"pa": 0.90834})
    assert r["percent_agreement"] == 0.9083 and r["pass"] is False and r["gate_results"]["pa"] is False


def test_kappa_without_variation_is_one():
    r = consistency([_row(f"q{i}", "VALID", "VALID") for i in range(5)])
    assert (r["kappa"], r["percent_agreement"], r["pass"]) == (1.0, 1.0, True)


def test_unknown_labels_are_reported_never_dropped(tmp_path):
    rows = [_row("q1", "VALID", "VALID"), _row("q2", "VALIDD", "VALID"), _row("q3", "REJECT", "REJECT"),
            _row("q4", "VALID", None)]
    with pytest.raises(InvalidRatingError, match=r"2 row\(s\) carry a label outside .*qid q2 \(line 2: scholar 'VALIDD'\)"):
        consistency(rows)
    r = consistency(rows, unknown_labels="exclude")
    assert r["unknown_labels"] == {"count": 2, "qids": ["q2", "q4"]}
    assert r["n"] == 2 and r["percent_agreement"] == 1.0


def test_disagreements_tsv(tmp_path):
    path = tmp_path / "dis.tsv"
    consistency(str(PAIRS), disagreements_tsv=str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "qid\tscholar\tauditor\tfinal\twhy"
    assert len(lines) == 12 and lines[1] == "A0015\tVALID\tREJECT\tREJECT\thard_flag"


@pytest.mark.parametrize("text,error,needle", [
    ('{"qid": "q1", "scholar": {"label": "VALID"}, "auditor": {"label": "VALID"}}\n{"qid": "q2", "scholar":\n',
     SourceError, "line 2: not valid JSON"),
    ('{"qid": "q1", "scholar": {"label": "VALID"}}\n', ColumnError, "line 1: no 'auditor' object"),
    ('{"scholar": {"label": "VALID"}, "auditor": {"label": "VALID"}}\n', ColumnError, "line 1: no 'qid'"),
    ("\n\n", SourceError, "is empty"),
])
def test_malformed_pairs(tmp_path, text, error, needle):
    path = tmp_path / "pairs.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error, match=needle):
        consistency(str(path))


def test_cli_exit_codes(tmp_path, capsys):
    assert main(["consistency", str(PAIRS)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["n"], out["kappa"], out["pass"]) == (120, 0.8286, True)
    tsv = tmp_path / "d.tsv"
    assert main(["consistency", "--scholar", str(SCHOLAR), "--auditor", str(AUDITOR),
                 "--gate", "pa=0.95", "--disagreements", str(tsv)]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["pass"] is False and out["gates"]["pa"] == 0.95
    assert len(tsv.read_text().splitlines()) == 11


@pytest.mark.parametrize("text,needle", [
    ('{"qid": "q1", "scholar": {"label": "VALID"}, "auditor": {"label": "VALID"}}\n{broken\n', "line 2: not valid JSON"),
    ('{"qid": "q1", "scholar": {"label": "VALID"}}\n', "no 'auditor' object"),
    ('{"qid": "q1", "scholar": {"label": "MAYBE"}, "auditor": {"label": "VALID"}}\n', "label outside"),
    ("", "is empty"),
])
def test_cli_malformed_input_is_one_line(tmp_path, capsys, text, needle):
    path = tmp_path / "pairs.jsonl"
    path.write_text(text, encoding="utf-8")
    assert main(["consistency", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and err.startswith("agreement-sql: error:")


def test_cli_rejects_a_bad_gate(capsys):
    assert main(["consistency", str(PAIRS), "--gate", "speed=1"]) == 1
    assert "unknown gate 'speed'" in capsys.readouterr().err
