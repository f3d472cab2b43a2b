"""``agreement-sql krippendorff-alpha``: mirrors :func:`agreement_sql.krippendorff_alpha`."""
from __future__ import annotations

import csv
import io
import json

import pytest

from agreement_sql import krippendorff_alpha
from agreement_sql.cli import main
from agreement_sql.cli.alpha import parse_domain_text
from conftest import REFERENCE

K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")


def run_json(capsys, *args):
    assert main(["krippendorff-alpha", *args]) == 0
    return json.loads(capsys.readouterr().out)


def same(a, b):
    """Equal up to floating-point rounding: parallel sums may add in a different order."""
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], float) and isinstance(b[key], float):
            assert a[key] == pytest.approx(b[key], rel=1e-12, abs=1e-12), key
        else:
            assert a[key] == b[key], key


@pytest.mark.parametrize("level,published", [("nominal", 0.743), ("ordinal", 0.815),
                                             ("interval", 0.849), ("ratio", 0.797)])
def test_levels_reproduce_krippendorff_2011(capsys, level, published):
    # Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, sec. C
    out = run_json(capsys, K2011, "--level", level)
    assert round(out["value"], 3) == published
    same(out, krippendorff_alpha(K2011, level=level))


def test_bootstrap_options(capsys):
    out = run_json(capsys, K2011, "--ci", "0.9", "--n-boot", "200", "--seed", "9",
                   "--ci-method", "bootstrap")
    same(out, krippendorff_alpha(K2011, ci=0.9, n_boot=200, seed=9))
    assert (out["ci_method"], out["n_boot"], out["seed"]) == ("bootstrap", 200, 9)


def test_domain_option(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("item,rater,value\n1,a,low\n1,b,mid\n2,a,high\n2,b,high\n3,a,low\n3,b,low\n")
    out = run_json(capsys, str(path), "--level", "ordinal", "--domain", "low,mid,high")
    assert out["domain"] == ["low", "mid", "high"]
    assert out["value"] == krippendorff_alpha(str(path), level="ordinal",
                                              domain=["low", "mid", "high"])["value"]


def test_domain_text_parsing():
    assert parse_domain_text("1,2,3") == [1, 2, 3]
    assert parse_domain_text("0.5, 1.5") == [0.5, 1.5]
    assert parse_domain_text("low,mid,high") == ["low", "mid", "high"]
    assert parse_domain_text("1,two,3") == ["1", "two", "3"]
    assert parse_domain_text(None) is None


def test_group_by_table_and_csv(capsys, tmp_path):
    path = tmp_path / "sliced.csv"
    path.write_text("item,rater,value,team\n1,a,1,x\n1,b,2,x\n2,a,3,x\n2,b,3,x\n"
                    "3,a,1,y\n3,b,1,y\n4,a,2,y\n4,b,2,y\n")
    assert main(["krippendorff-alpha", str(path), "--group-by", "team", "--format", "table"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["metric", "group.team", "level"]
    assert lines[2].split()[1] == "x" and lines[3].split()[1] == "y"
    assert main(["krippendorff-alpha", str(path), "--group-by", "team", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["group.team"] for r in rows] == ["x", "y"]
    assert float(rows[1]["value"]) == 1.0


def test_errors_are_one_line_exit_1(capsys, tmp_path):
    assert main(["krippendorff-alpha", K2011, "--domain", "1,2,3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("agreement-sql: error: ") and "outside the declared domain [1, 2, 3]" in err
    assert len(err.strip().splitlines()) == 1
    assert main(["krippendorff-alpha", K2011, "--ci", "0.95", "--ci-method", "analytic"]) == 1
    assert "no analytic standard error" in capsys.readouterr().err
    assert main(["krippendorff-alpha", K2011, "--domain", "1,,2"]) == 1
    assert "--domain must be" in capsys.readouterr().err


def test_usage_error_exit_2():
    with pytest.raises(SystemExit) as done:
        main(["krippendorff-alpha", K2011, "--level", "cardinal"])
    assert done.value.code == 2
