"""The kappa family's one-pass form (sql/_kappa_wide.sql.j2, agreement_sql/metrics/_kappa.py)
against the counts form it replaces and against independent oracles.

Fleiss, Gwet's AC1, Brennan-Prediger and percent agreement (and, in coefficients(), alpha and
Conger's shared terms) are computed from one per-unit aggregation with one count column per
category; the input checks are counted in the same aggregation. Whatever that changes in cost,
it must not change a number or an error: every test runs the one-pass form and the counts form
(forced by lowering the profile's category cap to zero) and compares them, and the values are
also checked against statsmodels, published figures and a plain numpy implementation of Gwet's
(2014) formulas (irrCAC fleiss.kappa.raw, gwet.ac1.raw, bp.coeff.raw, pa.coeff.raw).
"""
from __future__ import annotations

import math
import random

import numpy as np
import pyarrow as pa
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import agreement_sql as ag
from agreement_sql import profile
from agreement_sql.cli import main as cli_main
from agreement_sql.errors import DuplicateRatingError, InvalidRatingError, MissingKeyError
from agreement_sql.metrics import _kappa, coefficients as coefficients_module

MANY = {"fleiss_kappa": ag.fleiss_kappa, "gwet_ac1": ag.gwet_ac1,
        "brennan_prediger": ag.brennan_prediger, "percent_agreement": ag.percent_agreement}


def random_table(seed: int, *, items: int = 60, raters: int = 6, values=(1, 2, 3, 4, 5),
                 missing: float = 0.35, metrics: int = 2, labels: bool = False,
                 batches: int = 0) -> pa.Table:
    """Long ratings; with missing=0.35 many items have one rating (or none)."""
    rng = random.Random(seed)
    out: dict[str, list] = {"item": [], "rater": [], "metric": [], "value": []}
    if batches:
        out["batch"] = []
    for m in range(metrics):
        for i in range(items):
            truth = rng.choice(values)
            for r in range(raters):
                if rng.random() < missing:
                    continue
                v = truth if rng.random() < 0.6 else rng.choice(values)
                out["item"].append(i)
                out["rater"].append(f"r{r:03d}")
                out["metric"].append(f"m{m}")
                out["value"].append(str(v) if labels else v)
                if batches:
                    out["batch"].append(i % batches)
    return pa.table(out)


def _forms(monkeypatch, call):
    """The call's result in the one-pass form and in the counts form (category cap 0)."""
    seen: list[bool] = []
    real = _kappa.execute

    def spy(con, template, options, params):
        if template not in ("value_kinds", "ratings_profile", "rater_bits", "input_checks",
                            "input_examples", "domain_checks", "drop_relation"):
            seen.append(bool(options.get("wide_categories")))
        return real(con, template, options, params)

    monkeypatch.setattr(_kappa, "execute", spy)
    one_pass = call()
    assert seen and seen[0], "the one-pass form was not used"
    monkeypatch.setattr(profile, "MAX_WIDE_CATEGORIES", 0)
    seen.clear()
    counts = call()
    assert seen and not any(seen), "the counts form was not used"
    return one_pass, counts


def assert_same(a, b, path="result"):
    """Equal keys and values; floats to 1e-12 (the sums run in another order)."""
    if isinstance(a, dict):
        assert set(a) == set(b), (path, set(a) ^ set(b))
        for key in a:
            assert_same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12), path
    else:
        assert a == b, (path, a, b)


def gwet_oracle(table: pa.Table, name: str, q: int | None = None) -> tuple[float, float, float]:
    """(value, p_e, se) by Gwet (2014) ch. 5 / irrCAC *.raw, in numpy, for one metric."""
    rows = table.to_pylist()
    cats = sorted({r["value"] for r in rows})
    items = sorted({r["item"] for r in rows})
    counts = np.zeros((len(items), len(cats)))
    for r in rows:
        counts[items.index(r["item"]), cats.index(r["value"])] += 1
    r_i = counts.sum(axis=1)
    n, two = len(items), r_i >= 2
    n2 = two.sum()
    q = q or len(cats)
    pa_i = np.where(two, (counts * (counts - 1)).sum(axis=1) / np.maximum(r_i * (r_i - 1), 1), 0.0)
    p_a = pa_i[two].mean()
    pi = (counts / r_i[:, None]).mean(axis=0)
    if name == "fleiss_kappa":
        p_e, pe_i = (pi ** 2).sum(), (counts * pi).sum(axis=1) / r_i
    elif name == "gwet_ac1":
        p_e = (pi * (1 - pi)).sum() / (q - 1)
        pe_i = (counts * (1 - pi)).sum(axis=1) / (r_i * (q - 1))
    elif name == "brennan_prediger":
        p_e, pe_i = 1.0 / q, None
    else:
        p_e, pe_i = 0.0, None
    value = (p_a - p_e) / (1 - p_e)
    k_i = (n / n2) * (pa_i - p_e * two) / (1 - p_e)
    if pe_i is not None:
        k_i = k_i - 2 * (1 - value) * (pe_i - p_e) / (1 - p_e)
    se = math.sqrt(((k_i - value) ** 2).sum() / (n * (n - 1)))
    return value, p_e, se


# --- the single functions ----------------------------------------------------------------


@pytest.mark.parametrize("name", list(MANY))
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("options", [{}, {"ci": 0.95}, {"categories": [0, 1, 2, 3, 4, 5, 6], "ci": 0.9}])
def test_one_pass_equals_counts_form(monkeypatch, name, seed, options):
    table = random_table(seed, batches=3)
    one_pass, counts = _forms(monkeypatch, lambda: MANY[name](
        table, metric="metric", group_by="batch", **options))
    assert len(one_pass) == 6
    assert_same(one_pass, counts)


@pytest.mark.parametrize("name", list(MANY))
def test_one_pass_against_gwet_formulas_with_single_rated_items(name):
    # missing=0.55 of 5 raters: many items rated once (they count in pi_k, not in p_a)
    table = random_table(5, raters=5, missing=0.55, metrics=1, items=80)
    items = table.group_by("item").aggregate([("rater", "count")])
    assert min(items["rater_count"].to_pylist()) == 1
    got = MANY[name](table, ci=0.95)
    value, p_e, se = gwet_oracle(table, name)
    assert got["value"] == pytest.approx(value, abs=1e-12)
    assert got["chance_agreement"] == pytest.approx(p_e, abs=1e-12)
    assert got["se"] == pytest.approx(se, abs=1e-12)


def test_fleiss_against_statsmodels_on_complete_data():
    table = random_table(8, raters=7, missing=0.0, metrics=1, items=120)
    rows = table.to_pylist()
    matrix = np.array([[r["value"] for r in rows if r["item"] == i] for i in range(120)])
    counts, _ = aggregate_raters(matrix)
    expected = sm_fleiss_kappa(counts, method="fleiss")
    assert ag.fleiss_kappa(table)["value"] == pytest.approx(expected, abs=1e-12)


def test_fleiss_1971_published_value_in_one_pass(monkeypatch):
    # Fleiss (1971), Table 1: 30 patients x 6 psychiatrists, 5 diagnoses; kappa = 0.430
    # (R irr::kappam.fleiss and statsmodels give 0.4302445)
    data = "tests/reference/fleiss1971_diagnoses_30x6.csv"
    one_pass, counts = _forms(monkeypatch, lambda: ag.fleiss_kappa(data, ci=0.95))
    assert one_pass["value"] == pytest.approx(0.4302445, abs=5e-8)
    assert_same(one_pass, counts)


def test_text_labels_use_label_categories(monkeypatch):
    # "1" and "1.0" are one category as numbers, two as labels; one text rating ("n/a") makes
    # every rating a label (docs/coefficients.md, Categories), in both forms
    rows = random_table(4, metrics=1, values=("1", "1.0", "2", "3"), labels=True).to_pylist()
    rows.append({"item": 0, "rater": "r999", "metric": "m0", "value": "n/a"})
    table = pa.Table.from_pylist(rows)
    one_pass, counts = _forms(monkeypatch, lambda: ag.fleiss_kappa(table, ci=0.95))
    assert one_pass["n_categories"] == 5
    assert_same(one_pass, counts)
    # without the text rating the same labels are numbers: "1" and "1.0" are one category
    numbers = pa.Table.from_pylist(rows[:-1])
    assert ag.fleiss_kappa(numbers)["n_categories"] == 3


def test_declared_text_domain(monkeypatch):
    # an unused declared label changes q for Gwet and Brennan-Prediger, not Fleiss
    table = random_table(11, labels=True, values=("low", "mid", "high"), metrics=1)
    domain = ["none", "low", "mid", "high"]
    for name in MANY:
        one_pass, counts = _forms(monkeypatch, lambda: MANY[name](table, categories=domain, ci=0.95))
        monkeypatch.undo()
        assert one_pass["n_categories"] == 4
        assert_same(one_pass, counts)
    value, _, _ = gwet_oracle(table, "gwet_ac1", q=4)
    assert ag.gwet_ac1(table, categories=domain)["value"] == pytest.approx(value, abs=1e-12)


def test_weighted_and_bootstrap_keep_the_counts_form(monkeypatch):
    seen = []
    real = _kappa.execute
    monkeypatch.setattr(_kappa, "execute", lambda con, t, o, p: (
        seen.append((t, bool(o.get("wide_categories")))), real(con, t, o, p))[1])
    table = random_table(3, metrics=1)
    ag.fleiss_kappa(table, weights="quadratic")
    ag.gwet_ac1(table, ci=0.95, ci_method="bootstrap", n_boot=20)
    ag.fleiss_kappa(table, on_duplicate="first")
    assert [w for t, w in seen if t in ("fleiss_kappa", "gwet_ac1")] == [False, False, False]


def test_more_categories_than_the_cap(monkeypatch):
    # 30 distinct values: the profile reports more than 16, the counts form runs (same result
    # as the numpy formulas)
    table = random_table(6, values=tuple(range(30)), metrics=1, missing=0.2)
    value, _, se = gwet_oracle(table, "fleiss_kappa")
    got = ag.fleiss_kappa(table, ci=0.95)
    assert got["value"] == pytest.approx(value, abs=1e-12)
    assert got["se"] == pytest.approx(se, abs=1e-12)


def test_more_raters_than_the_bits_run_the_separate_check(monkeypatch):
    # 330 raters: no rater bits, the wide form with COUNT(DISTINCT rater), the separate check
    table = random_table(2, raters=330, metrics=1, items=8, missing=0.5)
    one_pass, counts = _forms(monkeypatch, lambda: ag.fleiss_kappa(table, ci=0.95))
    assert one_pass["n_raters"] == counts["n_raters"] > 300
    assert_same(one_pass, counts)


# --- input errors found by the statement's own aggregation -------------------------------


def _with_duplicate(raters: int, late_rater: int) -> pa.Table:
    rows = random_table(3, raters=raters, missing=0.0, metrics=1, items=5).to_pylist()
    first = next(r for r in rows if r["rater"] == f"r{late_rater:03d}" and r["item"] == 2)
    return pa.Table.from_pylist(rows + [{**first, "value": 1 if first["value"] != 1 else 2}])


@pytest.mark.parametrize("raters,late", [(45, 44), (100, 85), (100, 3)])
def test_duplicates_in_any_rater_block_raise(raters, late):
    # more than 40 raters: several blocks of rater bits (sql/rater_bits.sql.j2)
    table = _with_duplicate(raters, late)
    with pytest.raises(DuplicateRatingError, match=f"r{late:03d}"):
        ag.fleiss_kappa(table)
    with pytest.raises(DuplicateRatingError, match=f"r{late:03d}"):
        ag.coefficients(table, which=["fleiss_kappa", "gwet_ac1", "krippendorff_alpha"])


def test_non_numeric_rating_outside_a_declared_numeric_domain():
    # numbers are required by categories=[1..5]: "n/a" is named, as in the counts form
    rows = random_table(4, metrics=1).to_pylist()
    rows = [{**r, "value": str(r["value"])} for r in rows]
    rows.append({"item": 3, "rater": "r999", "metric": "m0", "value": "n/a"})
    table = pa.Table.from_pylist(rows)
    with pytest.raises(InvalidRatingError, match="'n/a'"):
        ag.fleiss_kappa(table, categories=[1, 2, 3, 4, 5])
    with pytest.raises(InvalidRatingError, match="'n/a'"):
        ag.coefficients(table, categories=[1, 2, 3, 4, 5])
    # without a domain, "n/a" is one more label
    assert ag.fleiss_kappa(table)["n_categories"] == 6


def test_null_keys_are_named():
    rows = random_table(4, metrics=1).to_pylist()
    with pytest.raises(MissingKeyError, match="'item'"):
        ag.fleiss_kappa(pa.Table.from_pylist(rows + [{"item": None, "rater": "r000",
                                                      "metric": "m0", "value": 3}]))
    with pytest.raises(MissingKeyError, match="'rater'"):
        ag.gwet_ac1(pa.Table.from_pylist(rows + [{"item": 1, "rater": None,
                                                  "metric": "m0", "value": 3}]))


def test_one_pass_leaves_the_connection_as_found():
    con = ag.connect()
    before = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    ag.fleiss_kappa(random_table(2), metric="metric", con=con)
    ag.coefficients(random_table(2), metric="metric", con=con)
    assert set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall()) == before


# --- coefficients() ------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {},
    {"ci": 0.95},                                   # analytic, alpha and Light bootstrapped
    {"ci": 0.95, "ci_method": "analytic", "level": "interval"},
    {"level": "ordinal", "which": ["krippendorff_alpha", "conger_kappa", "fleiss_kappa"]},
    {"level": "ratio", "which": ["gwet_ac1", "alpha"], "categories": [1, 2, 3, 4, 5, 9]},
    {"which": ["conger_kappa", "percent_agreement"], "ci": 0.95},
])
def test_coefficients_one_pass_equals_counts_form(monkeypatch, options):
    table = random_table(9, batches=2)
    one_pass, counts = _forms(monkeypatch, lambda: ag.coefficients(
        table, metric="metric", group_by="batch", n_boot=50, **options))
    assert_same(one_pass, counts)


def test_coefficients_one_pass_on_labels(monkeypatch):
    table = random_table(10, labels=True, values=("yes", "no", "maybe"))
    one_pass, counts = _forms(monkeypatch, lambda: ag.coefficients(table, metric="metric",
                                                                   ci=0.95, ci_method="analytic"))
    assert_same(one_pass, counts)
    assert {"light_kappa", "conger_kappa", "krippendorff_alpha"} <= set(one_pass[0]["coefficients"])


def test_coefficients_match_the_single_functions():
    table = random_table(12, raters=8)
    together = ag.coefficients(table, metric="metric", ci=0.95, ci_method="analytic")
    for entry in together:
        for name, function in MANY.items():
            alone = [r for r in function(table, metric="metric", ci=0.95)
                     if r["metric"] == entry["metric"]][0]
            got = dict(entry["coefficients"][name])
            assert_same(got, {k: v for k, v in alone.items() if k != "metric"})


# --- Light's kappa by default: up to LIGHT_MAX_RATERS raters ---------------------------------


def test_light_kappa_beyond_the_cap_is_listed_as_skipped():
    many = random_table(13, raters=12, metrics=1, missing=0.1)
    result = ag.coefficients(many, ci=0.95)
    light = result["light_kappa"]
    assert light["value"] is None and light["n_raters"] == 12
    assert "which=['light_kappa'" in light["skipped"] and "10 raters" in light["skipped"]
    assert light["ci_method"] == "none"
    assert "scott_pi" not in result and result["fleiss_kappa"]["value"] is not None
    # asked for by name it is computed at any size, and equals cohen_kappa()'s Light's kappa
    asked = ag.coefficients(many, which=["light_kappa"])["light_kappa"]
    assert "skipped" not in asked and asked["n_pairs"] == 66
    assert asked["value"] == pytest.approx(ag.cohen_kappa(many)["value"], abs=1e-12)


def test_light_kappa_cap_is_per_metric():
    # m0 has 12 raters (skipped), m1 the first 3 of them (computed), m2 two (Cohen's kappa)
    rows = random_table(14, raters=12, metrics=1, missing=0.0).to_pylist()
    rows += [{**r, "metric": "m1"} for r in rows if r["rater"] < "r003"]
    rows += [{**r, "metric": "m2"} for r in rows if r["rater"] < "r002" and r["metric"] == "m0"]
    got = {e["metric"]: e["coefficients"] for e in ag.coefficients(pa.Table.from_pylist(rows),
                                                                  metric="metric")}
    assert got["m0"]["light_kappa"]["skipped"] and got["m0"]["light_kappa"]["n_raters"] == 12
    assert got["m1"]["light_kappa"]["n_pairs"] == 3 and "skipped" not in got["m1"]["light_kappa"]
    assert got["m2"]["cohen_kappa"]["value"] is not None and "scott_pi" in got["m2"]
    assert coefficients_module.LIGHT_MAX_RATERS == 10


def test_light_kappa_skip_is_noted_under_the_cli_table(tmp_path, capsys):
    path = tmp_path / "many.csv"
    import pyarrow.csv as pacsv
    pacsv.write_csv(random_table(15, raters=11, metrics=1), str(path))
    assert cli_main(["coefficients", str(path), "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert "note: light_kappa" in out and "--which light_kappa" in out
