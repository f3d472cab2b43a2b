"""``agreement-sql krippendorff-alpha``: the registry-generated command (agreement_sql/cli/
coefficients.py) mirrors :func:`agreement_sql.krippendorff_alpha` — the same result, byte for
byte (docs/decisions/0008) — with the options its registry entry supports (levels, declared
categories, the bootstrap; no weights, no named raters)."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from agreement_sql import krippendorff_alpha
from agreement_sql.cli import main
from agreement_sql.cli.coefficients import parse_categories
from conftest import REFERENCE

K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")


def run_json(capsys, *args):
    assert main(["krippendorff-alpha", *args]) == 0
    return json.loads(capsys.readouterr().out)


def as_json(result):
    return json.loads(json.dumps(result))


@pytest.mark.parametrize("level,published", [("nominal", 0.743), ("ordinal", 0.815),
                                             ("interval", 0.849), ("ratio", 0.797)])
def test_levels_reproduce_krippendorff_2011(capsys, level, published):
    # Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, sec. C (the 4 x 12 data)
    out = run_json(capsys, K2011, "--level", level)
    assert (out["coefficient"], out["level"]) == ("krippendorff_alpha", level)
    assert round(out["value"], 3) == published
    # 41 rows: 40 pairable values, and unit 12's single rating (Krippendorff 2011: m_u = 1)
    assert (out["n_items"], out["n_values"], out["n_rows"]) == (11, 40, 41)
    assert out["n_excluded"]["single_rated"] == 1
    assert out == as_json(krippendorff_alpha(K2011, level=level))


def test_default_level_is_nominal(capsys):
    # one default for alpha's level in every function that takes it (agreement_sql/declared.py;
    # the seed workflows aside): nominal, as R irr's kripp.alpha, irrCAC and nltk
    assert run_json(capsys, K2011)["level"] == "nominal"


@pytest.mark.slow
def test_bootstrap_options(capsys):
    out = run_json(capsys, K2011, "--ci", "0.9", "--n-boot", "200", "--seed", "9",
                   "--ci-method", "bootstrap")
    assert out == as_json(krippendorff_alpha(K2011, ci=0.9, n_boot=200, seed=9))
    assert (out["ci_method"], out["ci_level"], out["n_boot"], out["seed"]) == ("bootstrap", 0.9, 200, 9)
    assert out["ci_low"] < out["value"] < out["ci_high"]
    # alpha has no analytic standard error, so --ci alone means the bootstrap (defaults 1000, 1)
    default = run_json(capsys, K2011, "--ci", "0.9")
    assert (default["ci_method"], default["n_boot"], default["seed"]) == ("bootstrap", 1000, 1)


def test_categories_option_and_its_domain_alias(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("item,rater,value\n1,a,low\n1,b,mid\n2,a,high\n2,b,high\n3,a,low\n3,b,low\n")
    out = run_json(capsys, str(path), "--level", "ordinal", "--categories", "low,mid,high")
    assert out["domain"] == ["low", "mid", "high"]
    assert out == as_json(krippendorff_alpha(str(path), level="ordinal",
                                             categories=["low", "mid", "high"]))
    assert run_json(capsys, str(path), "--level", "ordinal", "--domain", "low,mid,high") == out
    # the declared order matters at the ordinal level: high,mid,low reverses it, which gives
    # the same alpha; low,high,mid does not
    assert run_json(capsys, str(path), "--level", "ordinal",
                    "--categories", "high,mid,low")["value"] == pytest.approx(out["value"], abs=1e-15)
    assert run_json(capsys, str(path), "--level", "ordinal",
                    "--categories", "low,high,mid")["value"] != pytest.approx(out["value"])


def test_categories_text_parsing():
    assert parse_categories("1,2,3") == [1, 2, 3]
    assert parse_categories("0.5, 1.5") == [0.5, 1.5]
    assert parse_categories("1e1,2") == [10.0, 2]
    assert parse_categories("low,mid,high") == ["low", "mid", "high"]
    assert parse_categories("1,two,3") == ["1", "two", "3"]
    assert parse_categories("1,inf") == ["1", "inf"]
    assert parse_categories(None) is None


def test_group_by_table_and_csv(capsys, tmp_path):
    path = tmp_path / "sliced.csv"
    path.write_text("item,rater,value,team\n1,a,1,x\n1,b,2,x\n2,a,3,x\n2,b,3,x\n"
                    "3,a,1,y\n3,b,1,y\n4,a,2,y\n4,b,2,y\n")
    assert main(["krippendorff-alpha", str(path), "--group-by", "team", "--format", "table",
                 "--level", "interval"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["metric", "group.team", "coefficient", "level", "value"]
    assert [line.split()[1] for line in lines[2:]] == ["x", "y"]
    assert main(["krippendorff-alpha", str(path), "--group-by", "team", "--format", "csv",
                 "--level", "interval"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["group.team"] for r in rows] == ["x", "y"]
    # team x, interval: units (1, 2) and (3, 3); D_o = 2/4, D_e = 22/12 (by hand, Krippendorff
    # 2011's formulas), alpha = 1 - 0.5 / (22/12) = 8/11. Team y agrees perfectly: 1.
    assert float(rows[0]["value"]) == pytest.approx(8 / 11, rel=1e-15)
    assert float(rows[1]["value"]) == 1.0
    assert rows[0]["n_excluded.single_rated"] == "0"


def test_errors_are_one_line_exit_1(capsys):
    assert main(["krippendorff-alpha", K2011, "--categories", "1,2,3"]) == 1
    err = capsys.readouterr().err
    # the numeric value unquoted, the row as the caller's columns show it (CSV ids are text)
    assert err.startswith("agreement-sql: error: 8 rating(s) in column 'value' lie outside the "
                          "declared domain [1, 2, 3], e.g. ")
    assert re.search(r"e\.g\. [45] at \(item='\d+', rater='[ABCD]'\)$", err.strip())
    assert len(err.strip().splitlines()) == 1
    # alpha's analytic standard error (irrCAC's) exists at the nominal and interval levels only
    assert main(["krippendorff-alpha", K2011, "--level", "ordinal", "--ci", "0.95",
                 "--ci-method", "analytic"]) == 1
    assert "no analytic standard error" in capsys.readouterr().err
    assert main(["krippendorff-alpha", K2011, "--categories", "1,,2"]) == 1
    assert "--categories must be a comma-separated list" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--level", "cardinal"], ["--weights", "linear"],
                                  ["--raters", "A,B"], ["--n-boot", "many"]])
def test_usage_errors_exit_2(capsys, argv):
    # alpha's registry entry takes no weights and no named raters: not options of its command
    with pytest.raises(SystemExit) as done:
        main(["krippendorff-alpha", K2011, *argv])
    assert done.value.code == 2
    assert "usage error" in capsys.readouterr().err
