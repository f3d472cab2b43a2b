"""The CLI: exit codes, one-line errors, output formats, and a README that documents it."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from agreement_sql.cli import COMMANDS, build_parser, main
from conftest import DATA, ROOT

WORKSHOP = str(DATA / "workshop_annotations.jsonl")


def run(*args):
    return subprocess.run([sys.executable, "-m", "agreement_sql", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_module_entry_point_and_exit_0():
    done = run("irr", WORKSHOP)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 73.7


def test_data_error_is_one_line_exit_1():
    done = run("irr", WORKSHOP.replace(".jsonl", ".csv"))
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("agreement-sql: error: item column 'item' not found")


def test_usage_error_exit_2():
    done = run("irr")
    assert done.returncode == 2 and "usage error" in done.stderr
    assert run("irr", WORKSHOP, "--format", "yaml").returncode == 2


def test_bad_scale_option_is_exit_1(capsys):
    assert main(["irr", WORKSHOP, "--scale", "tone"]) == 1
    assert "--scale must look like NAME=VALUE" in capsys.readouterr().err


def test_table_format_and_output_file(tmp_path, capsys):
    out = tmp_path / "report.txt"
    assert main(["irr", WORKSHOP, "--format", "table", "--output", str(out)]) == 0
    assert capsys.readouterr().out == ""
    text = out.read_text()
    assert text.startswith("Inter-rater reliability: 73.7% pairwise agreement")
    assert re.search(r"^helpfulness\s+likert\s+48\.6", text, re.M)


def test_long_csv_with_flags(capsys):
    assert main(["irr", str(DATA / "workshop_annotations.csv"), "--item", "trace_id", "--rater",
                 "user_id", "--metric", "question_id", "--value", "rating",
                 "--scale", "follows_policy=binary"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["per_metric_scores"]["follows_policy"]["scale"]["declared"] is True


def test_render_prints_header_and_statement(capsys):
    assert main(["render", "krippendorff_alpha", "--option", "level=ordinal", "--relation", "My View"]) == 0
    sql = capsys.readouterr().out
    assert sql.startswith("-- agreement-sql: krippendorff_alpha (duckdb)\n-- reads relation: \"My View\"")
    assert "alpha_ranks AS (" in sql         # the ordinal branch was chosen


def test_render_unknown_template_is_exit_1(capsys):
    assert main(["render", "nope"]) == 1
    assert "no template named 'nope'" in capsys.readouterr().err


def test_metrics_lists_templates(capsys):
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines()]
    assert "krippendorff_alpha" in names and not any(n.startswith("_") for n in names)


def test_every_command_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    missing = [name for name in sub.choices if f"agreement-sql {name}" not in readme]
    assert not missing, f"commands not in README.md: {missing}"
    assert COMMANDS


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- test-command -->", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert block.strip() in (ROOT / ".ci" / "run").read_text()


def test_templates_found_from_the_checkout():
    from agreement_sql.templates import template_dir
    assert (template_dir() / "_ratings.sql.j2").exists()


def _command_names():
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    return list(sub.choices)


@pytest.mark.parametrize("command", [None] + _command_names())
def test_help_of_every_command(command):
    args = ["--help"] if command is None else [command, "--help"]
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 0
