"""No text output carries a control character from the data (decision 0016, README "Errors and
exit codes"): rater, label, metric, slice, item and point names holding escape sequences,
line breaks, C1 controls and bidi overrides are shown escaped (formatting.shown: \\t \\n \\r,
\\xHH, \\uHHHH, a backslash doubled) in every table and CSV output (each command with such a
format, found by walking the parsers), in the CLI's error and warning lines on stderr, and in
the HTML report; JSON escapes them itself. The escape reads back to the exact text.
"""
from __future__ import annotations

import argparse
import ast
import csv
import io
import json

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.cli import build_parser, main
from agreement_sql.formatting import ESCAPED, shown

RATERS = ["r\x1b[2J", "\u202eb\u202c", "c\\x1b"]        # CSI, a bidi override, a literal backslash
METRICS = ["q\nsecond line", "q2\x9b31m"]                # a line break, C1 CSI
GROUPS = ["g\rover", "g2"]                                # a carriage return
# one item per (metric, group, index), rated by the three raters: mostly agreeing numbers
ROWS = [(f"i{k}{group}\x07", rater, metric, group, 1 + (k + j * (k % 3 == 0)) % 5)
        for metric in METRICS for group in GROUPS for k in range(8)
        for j, rater in enumerate(RATERS)]
BAD = {ch for ch in map(chr, ESCAPED)} - {"\n"}


def _csv(path, rows, header=("item", "rater", "metric", "g", "value")):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _clean(text: str) -> bool:
    """No escaped character but the newlines between lines."""
    return not (BAD & set(text))


def _leaves(parser, prefix=()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield prefix, parser
        return
    for name, child in subs[0].choices.items():
        yield from _leaves(child, prefix + (name,))


def _formats(leaf):
    for action in leaf._actions:
        if action.dest == "format":
            return [f for f in action.choices if f in ("table", "csv")]
    return []


# commands reading a long ratings table; the workflows with their own input shapes are below
SPECIAL = {"sheet", "sample", "consistency", "judges", "report", "plan size"}
LONG = [(words, leaf, fmt) for words, leaf in _leaves(build_parser())
        if " ".join(words) not in SPECIAL for fmt in _formats(leaf)]


@pytest.mark.parametrize("words, leaf, fmt", LONG, ids=[f"{' '.join(w)}-{f}" for w, _, f in LONG])
def test_tables_and_csv_of_every_command_show_names_escaped(tmp_path, capsys, words, leaf, fmt):
    source = _csv(tmp_path / "r.csv", ROWS)
    options = {a.dest for a in leaf._actions}
    argv = [*words, str(source), "--format", fmt]
    argv += ["--metric", "metric"] if "metric" in options else []
    argv += ["--group-by", "g"] if "group_by" in options else []
    argv += ["--raters", f"{RATERS[0]},{RATERS[1]}"] if "raters" in options and words != ("coefficients",) else []
    argv += ["--judges", RATERS[0]] if "judges" in options else []
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 3), err
    assert out and _clean(out) and _clean(err), (out, err)
    shown_names = [shown(n) for n in RATERS + METRICS + GROUPS]
    assert any(name in out for name in shown_names), out
    if fmt == "csv":        # one record per line: no field holds a line break
        assert all(len(row) == len(next(csv.reader(io.StringIO(out)))) for row in
                   csv.reader(io.StringIO(out)))


def test_json_escapes_by_itself_and_keeps_the_exact_names(tmp_path, capsys):
    source = _csv(tmp_path / "r.csv", ROWS)
    assert main(["fleiss-kappa", str(source), "--metric", "metric", "--group-by", "g"]) == 0
    out = capsys.readouterr().out
    assert _clean(out)
    assert {r["metric"] for r in json.loads(out)} == set(METRICS)


@pytest.mark.slow
def test_workflow_tables_show_names_escaped(tmp_path, capsys):
    # judges: a long table with hostile points, judges and groups
    judges = _csv(tmp_path / "j.csv", [(f"point\x1b{k}", r, "p\u202e", m, (k + j) % 2)
                                       for k in range(6) for j, r in enumerate(RATERS)
                                       for m in ("m\n1", "m2")],
                  header=("point", "judge", "prompt", "model", "score"))
    # the evaluation sheet with a hostile Module and Scenario
    with open(_data("evaluation_sheet.csv"), newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    renamed = {"M09": "M09\x1b[5m", "Listing Optimization": "Listing\nOptimization"}
    sheet = _csv(tmp_path / "sheet.csv", [[renamed.get(c, c) for c in row] for row in table[1:]],
                 header=table[0])
    pairs = tmp_path / "pairs.jsonl"
    lines = open(_data("consistency_pairs.jsonl"), encoding="utf-8").read().splitlines()
    pairs.write_text("\n".join(line.replace('"A0001"', '"A\\u001b[2J1"') for line in lines) + "\n")
    for argv in (["judges", str(judges), "--item", "point", "--rater", "judge", "--value", "score",
                  "--group-by", "prompt", "--group-by", "model", "--format", "table"],
                 ["sheet", str(sheet), "--format", "table"],
                 ["sample", str(sheet), "--format", "table"],
                 ["consistency", str(pairs), "--format", "table"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (0, 3), (argv, err)
        assert _clean(out) and _clean(err), (argv, out, err)


def _data(name):
    from pathlib import Path
    return Path(__file__).resolve().parents[2] / "data" / name


def test_the_error_line_is_one_escaped_line(tmp_path, capsys):
    source = _csv(tmp_path / "r.csv", ROWS)
    assert main(["fleiss-kappa", str(source), "--value", "no\x1b[2Jsuch\ncolumn"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and _clean(err)
    assert "no\\x1b[2Jsuch\\ncolumn" in err          # repr's escapes, kept as they are


def test_warning_lines_are_escaped(tmp_path, capsys):
    # an unreliable judge group warns: its group names reach stderr escaped
    rows = [(f"p{k}", judge, "pr\x1b[1m", 1 + (k * (j + 1)) % 4) for k in range(8)
            for j, judge in enumerate(["a", "b"])]
    source = _csv(tmp_path / "j.csv", rows, header=("point", "judge", "prompt", "score"))
    assert main(["judges", str(source), "--item", "point", "--rater", "judge", "--value", "score",
                 "--group-by", "prompt", "--no-diagnostics"]) == 0
    err = capsys.readouterr().err
    assert "agreement-sql: warning: Low judge agreement" in err and _clean(err)
    assert "pr\\x1b[1m" in err


def test_the_html_report_shows_names_escaped(tmp_path):
    rows = [(f"t{k}", rater, 1 + (k + j) % 5) for k in range(6) for j, rater in enumerate(RATERS)]
    table = pa.table({"trace_id": [r[0] for r in rows], "user_id": [r[1] for r in rows],
                      "question_id": ["tone\x1b[2J"] * len(rows), "rating": [r[2] for r in rows]})
    page = ag.report(table, item="trace_id", rater="user_id", metric="question_id", value="rating")
    assert not (BAD - {"\n", "\t"}) & set(page)
    assert "tone\\x1b[2J" in page and "\u202e" not in page


def test_render_refuses_to_print_a_control_character(capsys):
    assert main(["render", "fleiss_kappa", "--relation", "x\x1b[2J"]) == 1
    assert "U+001B" in capsys.readouterr().err


@given(st.text())
def test_the_escape_reads_back_to_the_text(text):
    escaped = shown(text)
    assert not (set(map(chr, ESCAPED)) & set(escaped))
    # the form Python writes in a string literal: a literal reads it back exactly
    assert ast.literal_eval('"' + escaped.replace('"', '\\"') + '"') == text
