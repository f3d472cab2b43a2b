"""The kappa-family commands mirror the Python functions: same numbers, three output formats,
one-line errors with exit code 1."""
from __future__ import annotations

import csv
import io
import json

import pytest

from agreement_sql import cohen_kappa, fleiss_kappa
from agreement_sql.cli import build_parser, main
from conftest import REFERENCE

SAS = str(REFERENCE / "sas_kappa_3x3.csv")
K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")
COMMANDS = ["cohen-kappa", "scott-pi", "fleiss-kappa", "conger-kappa", "gwet-ac1",
            "brennan-prediger", "percent-agreement", "coefficients"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_is_registered():
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in COMMANDS:
        assert name in sub.choices
        assert sub.choices[name].format_help()        # each command's own --help renders


@pytest.mark.parametrize("command", COMMANDS[:-1])
@pytest.mark.parametrize("fmt", ["json", "table", "csv"])
def test_commands_run_in_every_format(capsys, command, fmt):
    code, out, err = run(capsys, command, SAS, "--ci", "0.95", "--format", fmt)
    assert code == 0, err
    if fmt == "json":
        result = json.loads(out)
        assert result["coefficient"].replace("_", "-").startswith(command.split("-")[0])
        assert result["ci_method"] == "analytic"
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        assert len(rows) == 1 and rows[0]["value"]
    else:
        assert "value" in out.splitlines()[0]


def test_cohen_kappa_cli_matches_python(capsys):
    code, out, _ = run(capsys, "cohen-kappa", SAS, "--weights", "linear", "--ci", "0.95")
    assert code == 0
    cli, python = json.loads(out), json.loads(json.dumps(cohen_kappa(SAS, weights="linear", ci=0.95)))
    # equal up to floating-point rounding: DuckDB may add parallel partial sums in any order
    assert cli.keys() == python.keys()
    for key, value in python.items():
        expected = pytest.approx(value, rel=1e-12, abs=1e-12) if isinstance(value, float) else value
        assert cli[key] == expected, key


def test_fleiss_kappa_cli_group_by_and_categories(capsys, tmp_path):
    path = tmp_path / "sliced.csv"
    lines = ["item,rater,value,Module"]
    for i, (a, b, m) in enumerate([(1, 1, "x"), (1, 2, "x"), (2, 2, "x"), (1, 1, "y"), (2, 1, "y")]):
        lines += [f"{i},A,{a},{m}", f"{i},B,{b},{m}"]
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "fleiss-kappa", str(path), "--group-by", "Module",
                         "--categories", "1,2,3")
    assert code == 0, err
    results = json.loads(out)
    assert [r["group"]["Module"] for r in results] == ["x", "y"]
    assert all(r["n_categories"] == 3 for r in results)
    expected = fleiss_kappa(str(path), group_by="Module", categories=[1, 2, 3])
    assert [r["value"] for r in results] == pytest.approx([r["value"] for r in expected])


def test_weight_matrix_and_raters_options(capsys):
    # a complete matrix over the file's categories 1..5: 1 on the diagonal, 0.5 between 1 and 2
    full = {str(i): {str(j): 1.0 if i == j else 0.5 if {i, j} == {1, 2} else 0.0
                     for j in range(1, 6)} for i in range(1, 6)}
    code, out, err = run(capsys, "cohen-kappa", K2011, "--raters", "A,B", "--weights", json.dumps(full))
    assert code == 0, err
    result = json.loads(out)
    assert result["raters"] == ["A", "B"] and result["weights"] == "custom"
    # a partial one is refused, naming a missing cell (decision 0016), never completed
    code, out, err = run(capsys, "cohen-kappa", K2011, "--raters", "A,B",
                         "--weights", '{"1": {"2": 0.5}, "2": {"1": 0.5}}')
    assert code == 1 and ("does not name" in err or "gives no weight" in err), err


@pytest.mark.slow
def test_coefficients_command(capsys):
    code, out, _ = run(capsys, "coefficients", K2011, "--which", "fleiss_kappa",
                       "--which", "krippendorff_alpha", "--level", "interval")
    assert code == 0
    result = json.loads(out)
    assert list(result) == ["fleiss_kappa", "krippendorff_alpha"]
    assert result["krippendorff_alpha"]["value"] == pytest.approx(0.849, abs=5e-4)
    code, out, _ = run(capsys, "coefficients", K2011, "--format", "table")
    assert code == 0 and "light_kappa" in out and "gwet_ac1" in out
    code, out, _ = run(capsys, "coefficients", K2011, "--format", "csv", "--ci", "0.95")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["coefficient"] for r in rows} >= {"fleiss_kappa", "conger_kappa", "krippendorff_alpha"}


@pytest.mark.parametrize("argv,message", [
    (["cohen-kappa", SAS, "--weights", "cubic"], "--weights must be"),
    (["cohen-kappa", SAS, "--categories", "1,2"], "outside the declared domain"),
    (["scott-pi", str(REFERENCE / "fleiss1971_diagnoses_30x6.csv")], "two raters"),
    (["coefficients", SAS, "--which", "nope"], "unknown coefficient"),
    (["fleiss-kappa", SAS, "--ci", "2"], "confidence level"),
])
def test_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
