"""Cross-agent consistency: the two readings of a merged pairs file give one answer.

A pairs file is read by DuckDB's JSON reader and flattened in SQL (sql/consistency.sql.j2,
input forms "jsonl" and "lines"); a file holding a line that reading cannot vouch for is read
again by the package's Python reader (the oracle here: the reader every file went through
before), which also names the line of every error. Each test runs both readings and asks for
the same report, or the same error, and checks which reader answered.
"""
from __future__ import annotations

import contextlib
import json
import random

import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql import routes
from agreement_sql.engine import open_session
from agreement_sql.errors import InvalidRatingError, SourceError
from agreement_sql.rendering import statement
from agreement_sql.runner import query
from agreement_sql.workflows import consistency as workflow

from conftest import DATA, without_route  # noqa: E402
PAIRS = DATA / "consistency_pairs.jsonl"
LABELS = ["VALID", "NOT_IN_CONTEXT", "REJECT", "ABSTAIN"]


def _python_reader(stack):
    """Make every call inside ``stack`` read its pairs file with the Python reader (the route's
    consistency_input "python")."""
    stack.enter_context(routes.forcing(consistency_input="python"))


def _outcome(path, **options):
    """The report without its route (the readers' routes differ by construction), or the error."""
    try:
        return without_route(workflow.consistency(str(path), **options))
    except Exception as exc:                       # the error is part of the answer
        return (type(exc).__name__, str(exc))


def _both(path, monkeypatch, **options):
    """(the call as it reads the file, whether the Python reader was used, the oracle)."""
    used = []
    real = workflow._pairs_tables

    def spy(source):
        used.append(source)
        return real(source)

    with monkeypatch.context() as m:
        m.setattr(workflow, "_pairs_tables", spy)
        got = _outcome(path, **options)
    with contextlib.ExitStack() as stack:
        _python_reader(stack)
        want = _outcome(path, **options)
    return got, bool(used), want


def _write(tmp_path, lines, name="pairs.jsonl", end="\n"):
    path = tmp_path / name
    path.write_bytes(end.join(lines).encode("utf-8") + end.encode())
    return path


def _line(qid, s="VALID", a="VALID", **extra):
    record = {"qid": qid, "scholar": {"label": s, "reason": "r"}, "auditor": {"label": a, "reason": "r"}}
    record.update(extra)
    return json.dumps(record)


def test_the_example_file_is_read_by_the_database(monkeypatch):
    got, python, want = _both(PAIRS, monkeypatch)
    assert not python and got == want
    got, python, want = _both(PAIRS, monkeypatch, gates={"pa": 0.95}, unknown_labels="exclude")
    assert not python and got == want


REGULAR = {
    "duplicates, the last line wins": [
        _line("q1", "VALID", "REJECT"), _line("q2", "REJECT", "REJECT"), _line("q1", "ABSTAIN", "VALID"),
        _line("q3", "NOT_IN_CONTEXT", "VALID"), _line("q2", "VALID", "REJECT",
                                                      flags={"provenance_violation": True}),
        _line("q1", "REJECT", "VALID")],
    "blank lines": ["", _line("q1", "VALID", "REJECT"), "   ", "", _line("q2", "ABSTAIN", "VALID"), "\t"],
    "an integer qid is the string of its digits": [
        _line(5, "VALID", "REJECT"), _line("5", "REJECT", "VALID"), _line(-0, "VALID", "VALID"),
        _line(12, "ABSTAIN", "VALID"), _line("012", "VALID", "NOT_IN_CONTEXT")],
    "citations and retrieved ids": [
        _line("q1", "REJECT", "VALID", answer_json={"citations": ["p1", "p9"]}, retrieved_ids=["p1"]),
        _line("q2", "REJECT", "VALID", answer_json={"citations": ["p1"]}),
        _line("q3", "REJECT", "VALID", answer_json={"citations": []}, retrieved_ids=None),
        _line("q4", "REJECT", "VALID", answer_json={"claim": "x"}, retrieved_ids=["p1"]),
        _line("q5", "REJECT", "VALID", answer_json=None, retrieved_ids=[]),
        _line("q6", "REJECT", "VALID", answer_json={"citations": ["p\u00e9", "p\"q"]},
              retrieved_ids=["p\"q", "p\u00e9"]),
        # where the labels agree, the ids are never read
        _line("q8", "VALID", "VALID", answer_json={"citations": [None, 2.5, True]},
              retrieved_ids=[None])],
    "flags": [
        _line("q1", "REJECT", "VALID", flags={"provenance_violation": None}),
        _line("q2", "REJECT", "VALID", flags={}),
        _line("q3", "REJECT", "VALID", flags=None),
        _line("q4", "REJECT", "VALID", flags={"constraints_mismatch": True}),
        _line("q5", "VALID", "VALID", flags={"constraints_mismatch": "yes", "provenance_violation": 7})],
    "labels that are not one of the four": [
        _line("q1", "VALIDD", "VALID"), _line("q2", None, "REJECT"), _line("q3", 5, "VALID"),
        _line("q4", {"x": [1]}, ["VALID"]), _line("q5", "REJECT", "ABSTAIN"), _line("q6", "valid", "VALID")],
}


@pytest.mark.parametrize("name", list(REGULAR))
@pytest.mark.parametrize("end", ["\n", "\r\n"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_the_database_reads_these_files_as_the_python_reader(tmp_path, monkeypatch, name, end):
    path = _write(tmp_path, REGULAR[name], end=end)
    for unknown in ("error", "exclude"):
        got, python, want = _both(path, monkeypatch, unknown_labels=unknown)
        assert got == want
        if unknown == "exclude" or name != "labels that are not one of the four":
            assert not python, "read again in Python"


IRREGULAR = {
    "a float qid": _line(1.5),
    "a boolean qid": _line(True),
    "an empty qid": _line(""),
    "an object qid": _line({"a": 1}),
    "no qid": json.dumps({"scholar": {"label": "VALID"}, "auditor": {"label": "VALID"}}),
    "no auditor": json.dumps({"qid": "q9", "scholar": {"label": "VALID"}}),
    "a null scholar": json.dumps({"qid": "q9", "scholar": None, "auditor": {"label": "VALID"}}),
    "a text flag": _line("q9", "REJECT", "VALID", flags={"provenance_violation": "f"}),
    "a number flag": _line("q9", "REJECT", "VALID", flags={"provenance_violation": 0.0}),
    "flags false": _line("q9", "REJECT", "VALID", flags=False),
    "answer_json an empty list": _line("q9", "REJECT", "VALID", answer_json=[]),
    "answer_json a text": _line("q9", "REJECT", "VALID", answer_json="x"),
    "a number citation": _line("q9", "REJECT", "VALID", answer_json={"citations": [1]},
                               retrieved_ids=["1"]),
    "a null citation": _line("q9", "REJECT", "VALID", answer_json={"citations": [None]},
                             retrieved_ids=["None"]),
    "a number retrieved id": _line("q9", "REJECT", "VALID", answer_json={"citations": ["1"]},
                                   retrieved_ids=[1]),
    "a boolean retrieved id": _line("q9", "REJECT", "VALID", answer_json={"citations": ["True"]},
                                    retrieved_ids=[True]),
    "retrieved ids a text": _line("q9", "REJECT", "VALID", retrieved_ids="p1"),
    "not JSON": '{"qid": "q9", "scholar":',
    "a list": "[1, 2]",
    "null": "null",
    "a duplicate key": '{"qid": "q9", "qid": "q8", "scholar": {"label": "VALID"}, "auditor": {"label": "REJECT"}}',
    "NaN": '{"qid": NaN, "scholar": {"label": "VALID"}, "auditor": {"label": "VALID"}}',
    "an unknown label": _line("q9", "MAYBE", "VALID"),
}


@pytest.mark.parametrize("name", list(IRREGULAR))
def test_a_line_the_database_cannot_vouch_for_is_read_in_python(tmp_path, monkeypatch, name):
    lines = [_line("q1", "VALID", "REJECT"), "", _line("q2", "ABSTAIN", "VALID"), IRREGULAR[name],
             _line("q3", "REJECT", "REJECT")]
    path = _write(tmp_path, lines)
    got, python, want = _both(path, monkeypatch)
    assert python and got == want
    if isinstance(want, tuple):             # an error names the file and the line, as before
        assert "line 4" in want[1] and (str(path) in want[1] or want[0] == "InvalidRatingError")


def test_an_unknown_label_names_the_line_counting_blank_lines(tmp_path):
    path = _write(tmp_path, ["", _line("q1"), "", _line("q2", "VALID", "MAYBE")])
    with pytest.raises(InvalidRatingError, match=r"qid q2 \(line 4: auditor 'MAYBE'\)"):
        ag.consistency(str(path))


def test_a_file_of_blank_lines_is_empty(tmp_path):
    path = _write(tmp_path, ["", "  ", "\t"])
    with pytest.raises(SourceError, match="is empty"):
        ag.consistency(str(path))


@pytest.mark.slow       # an 80 MB file, read in parallel
def test_order_and_the_last_line_survive_a_parallel_read(tmp_path, monkeypatch):
    """A file of many read buffers, with repeated qids spread over it: the disagreements come
    in file order and each repeated qid keeps its last line, as the Python reader has it."""
    rng = random.Random(7)
    padding = "x" * 1500                     # ~80 MB: the reader splits it between threads
    lines = []
    for i in range(50_000):
        qid = f"q{rng.randrange(40_000)}" if rng.random() < 0.3 else f"u{i}"
        cited = rng.sample(["p1", "p2", "p3"], rng.randint(0, 2))
        lines.append(json.dumps({"qid": qid, "scholar": {"label": rng.choice(LABELS), "reason": padding},
                                 "auditor": {"label": rng.choice(LABELS), "reason": "r"},
                                 "answer_json": {"citations": cited},
                                 "retrieved_ids": rng.sample(["p1", "p2", "p3"], 2),
                                 "flags": {"provenance_violation": rng.random() < 0.05}}))
    path = _write(tmp_path, lines)
    got, python, want = _both(path, monkeypatch, unknown_labels="exclude")
    assert not python and got == want
    assert want["input"]["rows"] == 50_000 and want["input"]["qids"] < 50_000


def _kappa_of_summary(scholar, auditor):
    rows = [{"qid": f"q{i}", "scholar": {"label": s}, "auditor": {"label": a}}
            for i, (s, a) in enumerate(zip(scholar, auditor))]
    tables = workflow._pairs_tables(rows)
    with open_session(None) as session:
        options = {**workflow.NO_RELATIONS, "input_form": "pairs", "part": "summary",
                   "pairs_rel": session.register_arrow(tables["pairs"], "pairs"),
                   "citations_rel": session.register_arrow(tables["citations"], "citations"),
                   "retrieved_rel": session.register_arrow(tables["retrieved"], "retrieved")}
        return query(session, "consistency", options, {})[0]["kappa"]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_kappa_is_the_cohen_kappa_coefficient_to_the_bit(seed):
    """The summary's kappa (on the label grid) is the value of the cohen_kappa coefficient's
    own statement (sql/_pairs.sql.j2, sql/_cohen.sql.j2) on the same labels, bit for bit."""
    rng = random.Random(seed)
    used = rng.sample(LABELS, rng.randint(1, 4))
    n = rng.randint(1, 300)
    scholar = [rng.choice(used) for _ in range(n)]
    auditor = [rng.choice(used) if rng.random() < 0.6 else s for s in scholar]
    long = pa.table({"item": [f"q{i}" for i in range(n) for _ in range(2)],
                     "rater": ["scholar", "auditor"] * n,
                     "value": [v for pair in zip(scholar, auditor) for v in pair]})
    expected = ag.cohen_kappa(long, raters=["scholar", "auditor"])
    assert _kappa_of_summary(scholar, auditor) == (expected["value"] if expected else None)


def test_the_reading_statements_render():
    for form, part in (("jsonl", "lines"), ("lines", "repeats"), ("lines", "summary"),
                       ("lines", "disagreements"), ("jsonl", "summary")):
        rendered, _ = statement("consistency", input_form=form, part=part)
        assert rendered.sql.strip()
