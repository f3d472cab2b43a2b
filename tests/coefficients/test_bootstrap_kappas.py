"""The in-database bootstrap for the kappa family (sql/_replicates.sql.j2, sql/_bootstrap.sql.j2
included by sql/cohen_kappa ... percent_agreement and once per coefficient by
sql/coefficients.sql.j2): reproducible by seed, close to the analytic interval on a large sample,
and the same from coefficients() as from each single function.
"""
from __future__ import annotations

import csv
import io
import json

import duckdb
import numpy as np
import pyarrow as pa
import pytest

import agreement_sql as ag

from agreement_sql import (OptionError, brennan_prediger, coefficients, cohen_kappa, conger_kappa,
                           fleiss_kappa, gwet_ac1, krippendorff_alpha, percent_agreement, render,
                           scott_pi)
from agreement_sql.cli import main
from agreement_sql.metrics.functions import FUNCTIONS
from agreement_sql.registry import REGISTRY, lookup
from conftest import REFERENCE, without_route

SAS = str(REFERENCE / "sas_kappa_3x3.csv")                    # 2 raters, 3 categories
FLEISS = str(REFERENCE / "fleiss1971_diagnoses_30x6.csv")     # 6 raters, 30 items
K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")          # 4 raters, missing ratings

# name -> (function, a small table it applies to)
SINGLES = {
    "cohen_kappa": (cohen_kappa, SAS),
    "light_kappa": (cohen_kappa, K2011),
    "scott_pi": (scott_pi, SAS),
    "fleiss_kappa": (fleiss_kappa, FLEISS),
    "conger_kappa": (conger_kappa, FLEISS),
    "gwet_ac1": (gwet_ac1, FLEISS),
    "brennan_prediger": (brennan_prediger, FLEISS),
    "percent_agreement": (percent_agreement, FLEISS),
}
BOOT_KEYS = ("se", "ci_low", "ci_high", "ci_method", "ci_level", "n_boot", "n_boot_valid", "seed")


def same(a: dict, b: dict) -> None:
    """Equal up to floating-point rounding (parallel sums may add in another order); the
    ``route`` each call records (its own statements) is left out."""
    a, b = without_route(a), without_route(b)
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], float) and isinstance(b[key], float):
            assert a[key] == pytest.approx(b[key], rel=1e-12, abs=1e-12), key
        else:
            assert a[key] == b[key], key


def raters_table(n_units: int, n_raters: int, seed: int, flip: float = 0.35,
                 n_categories: int = 4) -> pa.Table:
    """Complete ratings: each rater copies a unit's true category, or with probability
    ``flip`` rates at random."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_categories, n_units)
    items, raters, values = [], [], []
    for r in range(n_raters):
        noisy = rng.random(n_units) < flip
        v = np.where(noisy, rng.integers(0, n_categories, n_units), truth)
        items += [f"u{i:05d}" for i in range(n_units)]
        raters += [f"R{r}"] * n_units
        values += v.astype(float).tolist()
    return pa.table({"item": items, "rater": raters, "value": values})


# ---------------------------------------------------------------- reproducible by seed

@pytest.mark.parametrize("name", list(SINGLES))
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_same_seed_same_interval_other_seed_other_interval(name):
    function, data = SINGLES[name]
    first = function(data, ci=0.95, ci_method="bootstrap", n_boot=100, seed=42)
    again = function(data, ci=0.95, ci_method="bootstrap", n_boot=100, seed=42)
    other = function(data, ci=0.95, ci_method="bootstrap", n_boot=100, seed=43)
    assert first["coefficient"].startswith(name.split("_")[0])
    assert json.dumps(again) == json.dumps(first)      # the same bytes (docs/decisions/0008)
    interval = ("se", "ci_low", "ci_high")
    assert [first[k] for k in interval] != [other[k] for k in interval]
    # the point estimate is replicate 0: the observed data, whatever the seed
    assert first["value"] == pytest.approx(function(data)["value"], abs=1e-12)
    assert first["value"] == pytest.approx(other["value"], abs=1e-12)
    assert tuple(k for k in first if k in BOOT_KEYS) == BOOT_KEYS
    assert (first["ci_method"], first["ci_level"]) == ("bootstrap", 0.95)
    assert (first["n_boot"], first["seed"]) == (100, 42)
    assert 0 < first["n_boot_valid"] <= 100
    assert first["ci_low"] <= first["ci_high"]


def test_analytic_results_carry_no_bootstrap_keys():
    r = fleiss_kappa(FLEISS, ci=0.95)
    assert r["ci_method"] == "analytic" and not {"n_boot", "n_boot_valid", "seed"} & set(r)
    assert "se" not in fleiss_kappa(FLEISS)


# ---------------------------------------------------------------- agreement with the analytic SE

@pytest.fixture(scope="module")
def large_sample():
    """2000 units, complete data: Cohen and Scott on two raters, the many-rater coefficients on
    three. Each family's bootstrap runs as one coefficients() statement (equal to the single
    functions, tested below), B = 1000."""
    con = duckdb.connect()
    out = {}
    for data, which in ((raters_table(2000, 2, 5), ["cohen_kappa", "scott_pi"]),
                        (raters_table(2000, 3, 6), ["fleiss_kappa", "conger_kappa", "gwet_ac1",
                                                    "brennan_prediger", "percent_agreement"])):
        analytic = coefficients(data, which=which, ci=0.95, ci_method="analytic", con=con)
        boot = coefficients(data, which=which, ci=0.95, ci_method="bootstrap", n_boot=1000,
                            seed=11, con=con)
        out.update({name: (analytic[name], boot[name]) for name in analytic})
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa",
                                  "gwet_ac1", "brennan_prediger", "percent_agreement"])
def test_large_sample_bootstrap_agrees_with_the_analytic_interval(large_sample, name):
    # With 2000 units the sampling distribution is close to normal and the analytic SEs
    # (Fleiss-Cohen-Everitt for Cohen, Gwet's for the rest) are accurate. The bootstrap SD has
    # a Monte Carlo error of about 1/sqrt(2 B) = 2.2% at B = 1000, so 10% is over four sigmas;
    # a percentile end's Monte Carlo error is about sqrt(0.025 * 0.975 / B) / phi(1.96) =
    # 0.085 SE, so 0.3 SE is three and a half. Measured (seed 11): SE ratios 0.994-1.017,
    # ends within 0.12 SE of value -/+ 1.96 se.
    analytic, boot = large_sample[name]
    assert boot["value"] == pytest.approx(analytic["value"], abs=1e-12)
    assert boot["n_boot_valid"] == 1000
    assert boot["se"] == pytest.approx(analytic["se"], rel=0.10)
    assert boot["ci_low"] == pytest.approx(analytic["ci_low"], abs=0.3 * analytic["se"])
    assert boot["ci_high"] == pytest.approx(analytic["ci_high"], abs=0.3 * analytic["se"])


# ---------------------------------------------------------------- coefficients() = single calls

def _sliced() -> pa.Table:
    rng = np.random.default_rng(3)
    rows = []
    for module, n_raters in (("m1", 2), ("m2", 3)):
        for i in range(25):
            truth = int(rng.integers(1, 4))
            for r in range(n_raters):
                if rng.random() < 0.1:
                    continue                                   # a missing rating
                v = truth if rng.random() < 0.7 else int(rng.integers(1, 4))
                rows.append((f"{module}-{i:02d}", f"R{r}", float(v), module))
    return pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                     "value": [r[2] for r in rows], "Module": [r[3] for r in rows]})


def single_of(name):
    """The public function that computes ``name`` alone (every registry entry has one, by
    construction: agreement_sql.metrics.functions), found through the registry's aliases."""
    return FUNCTIONS[lookup(name).name]


@pytest.mark.parametrize("data,weights", [
    (SAS, None), (K2011, "quadratic"),
    pytest.param(FLEISS, None, marks=pytest.mark.slow),   # Light's over 15 pairs, as K2011's 6
], ids=["two-raters", "four-raters-missing-quadratic", "six-raters"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_coefficients_bootstrap_equals_the_single_functions(data, weights):
    # one statement, one set of replicates: every coefficient's interval is the one its own
    # function gives with the same seed (the resampling units are the same items)
    interval = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 150, "seed": 2024}
    together = coefficients(data, weights=weights, level="interval", **interval)
    assert set(together) >= {"fleiss_kappa", "krippendorff_alpha"}
    # the ICC (numeric data) is a second statement with its own interval, icc()'s F interval
    # (test_coefficients.py, test_every_coefficient_has_a_bootstrap_interval_when_asked)
    together.pop("icc", None)
    for name, joint in together.items():
        if name == "krippendorff_alpha":
            alone = krippendorff_alpha(data, level="interval", **interval)
        else:
            weighted = {"weights": weights} if lookup(name).weighted else {}
            alone = single_of(name)(data, **weighted, **interval)
        alone.pop("metric")
        if "raters" not in alone:
            joint.pop("raters", None)       # coefficients() also names Scott's pair
        same(joint, alone)
        assert joint["ci_method"] == "bootstrap" and joint["seed"] == 2024


@pytest.mark.slow
def test_coefficients_bootstrap_by_slice_equals_the_single_functions():
    data = _sliced()
    interval = {"ci": 0.95, "ci_method": "bootstrap", "n_boot": 100, "seed": 8}
    together = coefficients(data, group_by="Module", which=["cohen", "fleiss", "gwet_ac1", "alpha"],
                            level="nominal", **interval)
    assert [e["group"]["Module"] for e in together] == ["m1", "m2"]
    assert together[0]["coefficients"]["cohen_kappa"]["coefficient"] == "cohen_kappa"
    assert "light_kappa" in together[1]["coefficients"]
    singles = {"cohen_kappa": cohen_kappa(data, group_by="Module", **interval),
               "fleiss_kappa": fleiss_kappa(data, group_by="Module", **interval),
               "gwet_ac1": gwet_ac1(data, group_by="Module", **interval),
               "krippendorff_alpha": krippendorff_alpha(data, group_by="Module", level="nominal",
                                                        **interval)}
    for i, entry in enumerate(together):
        for joint in entry["coefficients"].values():
            key = "cohen_kappa" if joint["coefficient"] == "light_kappa" else joint["coefficient"]
            alone = dict(singles[key][i])
            assert (alone.pop("metric"), alone.pop("group")) == (entry["metric"], entry["group"])
            same(joint, alone)


@pytest.mark.slow
def test_coefficients_point_estimates_do_not_depend_on_the_interval():
    plain = coefficients(K2011, level="ordinal")
    boot = coefficients(K2011, level="ordinal", ci=0.95, ci_method="bootstrap", n_boot=50)
    for name, result in plain.items():
        assert boot[name]["value"] == pytest.approx(result["value"], abs=1e-12), name
        assert boot[name]["n_items"] == result["n_items"]


# ---------------------------------------------------------------- default methods

@pytest.mark.slow
def test_default_method_is_analytic_where_a_standard_error_exists():
    for name, (function, data) in SINGLES.items():
        if name in ("light_kappa", "cohen_kappa"):      # Cohen's is Light's with more raters
            r = function(data, ci=0.95, n_boot=100, seed=3)
        else:
            r = function(data, ci=0.95)
            # n_boot and seed would change nothing: refused, never ignored (issue #24)
            with pytest.raises(ag.OptionError, match="n_boot= applies to a bootstrap interval"):
                function(data, ci=0.95, n_boot=100)
        assert r["ci_method"] == ("bootstrap" if name == "light_kappa" else "analytic"), name


def test_light_kappa_default_is_the_bootstrap_next_to_cohen_analytic():
    data = _sliced()                        # m1: two raters (Cohen), m2: three (Light)
    default = cohen_kappa(data, group_by="Module", ci=0.95, n_boot=100, seed=8)
    assert [r["coefficient"] for r in default] == ["cohen_kappa", "light_kappa"]
    analytic = cohen_kappa(data, group_by="Module", ci=0.95, ci_method="analytic")
    boot = cohen_kappa(data, group_by="Module", ci=0.95, ci_method="bootstrap", n_boot=100, seed=8)
    same(default[0], analytic[0])
    same(default[1], boot[1])
    assert (analytic[1]["ci_method"], analytic[1]["se"]) == ("none", None)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_coefficients_default_matches_the_single_defaults():
    # analytic where a standard error exists; the bootstrap (a second statement) for alpha
    # and Light's kappa, as krippendorff_alpha and cohen_kappa do by default
    together = coefficients(K2011, level="interval", ci=0.95, n_boot=120, seed=5)
    assert together["light_kappa"]["ci_method"] == "bootstrap"
    assert together["krippendorff_alpha"]["ci_method"] == "bootstrap"
    assert together["fleiss_kappa"]["ci_method"] == "analytic"
    alpha = krippendorff_alpha(K2011, level="interval", ci=0.95, n_boot=120, seed=5)
    alpha.pop("metric")
    same(together["krippendorff_alpha"], alpha)
    light = cohen_kappa(K2011, ci=0.95, n_boot=120, seed=5)
    light.pop("metric")
    same(together["light_kappa"], light)
    analytic = coefficients(K2011, level="interval", ci=0.95, ci_method="analytic")
    # alpha has irrCAC's analytic standard error (krippen.alpha.raw, docs/decisions/0020);
    # Light's kappa, a mean over pairs, has none
    assert analytic["krippendorff_alpha"]["ci_method"] == "analytic"
    assert analytic["light_kappa"]["ci_method"] == "none"


# ---------------------------------------------------------------- degenerate cases and errors

def test_degenerate_bootstrap_results():
    agree = pa.table({"item": ["a", "a", "b", "b", "c", "c"], "rater": ["x", "y"] * 3,
                      "value": [1.0, 1.0, 2.0, 2.0, 1.0, 1.0]})
    r = fleiss_kappa(agree, ci=0.95, ci_method="bootstrap", n_boot=50)
    found = (r["value"], r["se"], r["ci_low"], r["ci_high"], r["n_boot_valid"])
    assert found == (1.0, 0.0, 1.0, 1.0, 50)
    apart = pa.table({"item": ["a", "b"], "rater": ["x", "y"], "value": [1.0, 2.0]})
    r = cohen_kappa(apart, ci=0.95, ci_method="bootstrap", n_boot=50)
    assert r["value"] is None and r["se"] is None and r["ci_low"] is None and r["n_boot_valid"] == 0
    # a slice where the named pair never rated together (R2 rates only in m2): no value, no
    # replicate, no interval there; its one rater of the pair is counted, its ratings excluded
    sliced = coefficients(_sliced(), group_by="Module", raters=["R1", "R2"],
                          which=["cohen", "fleiss"], ci=0.95, ci_method="bootstrap", n_boot=30)
    m1 = sliced[0]["coefficients"]["cohen_kappa"]
    assert (m1["value"], m1["se"], m1["n_boot_valid"], m1["n_raters"]) == (None, None, 0, 1)
    assert m1["n_ratings"] == 0 and m1["n_excluded"]["outside_pair"] == m1["n_rows"]
    assert sliced[0]["coefficients"]["fleiss_kappa"]["n_boot_valid"] == 30
    assert sliced[1]["coefficients"]["cohen_kappa"]["n_boot_valid"] == 30
    # a rater who rated nothing at all is an error naming them, not a slice without a value
    with pytest.raises(OptionError, match="raters= names 'R9', who rated nothing"):
        coefficients(_sliced(), group_by="Module", raters=["R2", "R9"], which=["cohen"],
                     ci=0.95, ci_method="bootstrap", n_boot=30)


@pytest.mark.parametrize("kwargs,message", [
    ({"ci_method": "bootstrap"}, "needs a confidence level"),
    ({"ci": 0.95, "ci_method": "jackknife"}, "'analytic' or 'bootstrap'"),
    ({"ci": 0.95, "ci_method": "bootstrap", "n_boot": 1}, "n_boot must be"),
    ({"ci": 0.95, "ci_method": "bootstrap", "seed": -3}, "seed must be"),
    ({"ci": 1.5}, "between 0 and 1"),
])
def test_bad_interval_options(kwargs, message):
    for function in (cohen_kappa, gwet_ac1, coefficients):
        with pytest.raises(OptionError, match=message):
            function(SAS, **kwargs)
    # alpha's analytic standard error is irrCAC's, at the nominal and interval levels only
    with pytest.raises(OptionError, match="no analytic standard error"):
        coefficients(SAS, which="alpha", level="ordinal", ci=0.95, ci_method="analytic")


# ---------------------------------------------------------------- SQL and CLI

@pytest.mark.slow
def test_every_coefficient_has_a_bootstrap_interval_when_asked():
    # coefficients() docstring: with ci_method="bootstrap" every registry coefficient gets its
    # unit-resampling interval over the same replicates, and says so (ci_method, n_boot, seed);
    # the ICC keeps icc()'s exact F interval at the same level and says so (ci_method "f")
    together = coefficients(SAS, ci=0.9, ci_method="bootstrap", n_boot=50, seed=3)
    icc_entry = together.pop("icc")                      # numeric ratings: the ICC by default
    assert (icc_entry["ci_method"], icc_entry["ci_level"]) == ("f", 0.9)
    assert icc_entry["ci_low"] < icc_entry["value"] < icc_entry["ci_high"]
    for name, result in together.items():
        assert (result.get("ci_method"), result.get("n_boot"), result.get("seed")) == (
            "bootstrap", 50, 3), name
    # without ci=, no coefficient has an interval, the ICC neither
    plain = coefficients(SAS)
    assert not any("ci_low" in r or "ci_method" in r for r in plain.values())


def test_coefficients_bootstrap_sql_is_portable_and_names_each_interval():
    sql = render("coefficients", dialect="spark", bootstrap=True, level="ordinal",
                 weights="linear", metric="question", group_by=["Module"])
    code = "\n".join(line.split("--")[0] for line in sql.splitlines())     # no comments
    upper = code.upper()
    for construct in ("RANGE(", "GENERATE_SERIES", "RANDOM(", "HASH(", "QUALIFY", "FILTER (",
                      "::", "QUANTILE", "MEDIAN", "PERCENTILE", "GROUP BY ALL"):
        assert construct not in upper, construct
    for name in REGISTRY:                  # every coefficient's percentile interval, by name
        assert f"{name}_interval AS (" in code and f"{name}_boot_interval AS (" in code, name
    assert code.count("boot_replicates AS (") == 1          # one set of replicates for all
    assert "`question`" in code and "`Module`" in code


@pytest.mark.slow
def test_cli_bootstrap_options(capsys):
    argv = ["fleiss-kappa", FLEISS, "--ci", "0.9", "--ci-method", "bootstrap", "--n-boot", "150",
            "--seed", "9"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    same(out, json.loads(json.dumps(fleiss_kappa(FLEISS, ci=0.9, ci_method="bootstrap",
                                                 n_boot=150, seed=9))))
    assert (out["ci_method"], out["n_boot"], out["seed"]) == ("bootstrap", 150, 9)
    assert main(["coefficients", K2011, "--ci", "0.95", "--ci-method", "bootstrap", "--n-boot",
                 "100", "--seed", "4", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    # the ICC keeps its F interval: test_every_coefficient_has_a_bootstrap_interval_when_asked
    assert {r["ci_method"] for r in rows if r["coefficient"] == "icc"} == {"f"}
    rows = [r for r in rows if r["coefficient"] != "icc"]
    assert {r["ci_method"] for r in rows} == {"bootstrap"}
    assert {r["coefficient"] for r in rows} >= {"light_kappa", "fleiss_kappa", "krippendorff_alpha"}
