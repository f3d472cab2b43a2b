"""``agreement-sql icc``, ``concordance``, ``bland-altman`` and ``plan``, and the templates' options."""
from __future__ import annotations

import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from agreement_sql import cli
from agreement_sql.errors import AgreementError, TemplateError
from agreement_sql.metrics.icc import icc
from agreement_sql.templates import render, template_options

from ._data import SHROUT_FLEISS, long_table


def run(argv: list[str]) -> int:
    """agreement_sql.cli.main once the commands are listed there; until then the same parser
    class and error handling around just these commands."""
    if "icc" in cli.COMMANDS and "plan" in cli.COMMANDS:
        return cli.main(argv)
    from agreement_sql.cli import icc as icc_cli, plan as plan_cli
    parser = cli._Parser(prog="agreement-sql")
    sub = parser.add_subparsers(dest="command", parser_class=cli._Parser)
    sub.required = True
    icc_cli.register(sub)
    plan_cli.register(sub)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except AgreementError as exc:
        print(f"agreement-sql: error: {exc}", file=sys.stderr)
        return 1


@pytest.fixture
def ratings(tmp_path):
    path = tmp_path / "sf.parquet"
    pq.write_table(long_table(SHROUT_FLEISS), path)
    return path


def test_icc_command(ratings, capsys):
    assert run(["icc", str(ratings), "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["form"] for r in out] == ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]
    assert run(["icc", str(ratings), "--form", "ICC3", "--format", "table", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "ICC(3,1)" in text and "0.7148" in text


def test_concordance_and_bland_altman_commands(ratings, capsys):
    assert run(["concordance", str(ratings), "--raters", "j1,j4", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["raters"] == ["j1", "j4"]
    assert run(["bland-altman", str(ratings), "--raters", "j1,j4", "--format", "table", "--quiet"]) == 0
    assert "loa_low" in capsys.readouterr().out
    assert run(["concordance", str(ratings), "--quiet"]) == 1
    assert "name the two" in capsys.readouterr().err


def test_plan_commands(ratings, capsys):
    assert run(["plan", "size", "--expected", "0.85", "--ci-width", "0.2", "--coefficient", "icc",
                "--raters", "4", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["n_items"] == 20
    assert run(["plan", "size", "--expected", "0.8", "--lower-bound", "0.6", "--prevalence", "0.55",
                "--format", "table", "--quiet"]) == 0
    assert "goodness-of-fit" in capsys.readouterr().out
    code = run(["plan", "precision", str(ratings), "--coefficient", "icc", "--form", "ICC3",
                "--target-width", "0.2", "--quiet"])
    result = json.loads(capsys.readouterr().out)
    assert code == 3 and result["target_met"] is False and result["n_needed"] > 6


def test_template_options_are_declared():
    assert {"rater_digits", "categories", "rater_blocks"} <= template_options("icc")
    assert "named_raters" in template_options("concordance")
    assert template_options("plan_simulation") == frozenset({"n_categories"})
    with pytest.raises(TemplateError):
        render("plan_simulation", {"n_categories": 1})


def test_caller_names_are_quoted():
    table = long_table(SHROUT_FLEISS)
    odd = pa.table({'it"em': table["item"], "ra ter": table["rater"], "va;lue": table["value"]})
    ours = icc(odd, item='it"em', rater="ra ter", value="va;lue", form="ICC2")
    assert round(ours["value"], 2) == 0.29
