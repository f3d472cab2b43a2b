"""The kappa family in every form the route can choose, against each other and independent
oracles.

Fleiss, Gwet's AC1/AC2, Brennan-Prediger, percent agreement and Conger read their shares and
per-unit terms from sql/_kappa_inputs.sql.j2, Cohen, Light and Scott their pair tables from
sql/_pairs.sql.j2, in the wide form (at most 16 categories: a count column per category, sums
over unit patterns) or the counts form (a counts-per-(unit, value) table); duplicates are found
by rater bits (at most constants.MAX_BIT_RATERS raters) or the separate duplicate check
(docs/decisions/0003, 0009). Every test runs the same input through each route
(tests/coefficients/_forms.py) and requires the same result or the same typed error, and checks
the values against an oracle: a numpy implementation of Gwet's (2014) ch. 5 formulas (irrCAC
fleiss.kappa.raw, gwet.ac1.raw, bp.coeff.raw, pa.coeff.raw), the irrCAC port of
test_kappa_oracles.py (weights, Conger), statsmodels, scikit-learn, or a published value.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pyarrow as pa
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss_kappa

import agreement_sql as ag
from agreement_sql.constants import MAX_BIT_RATERS
from agreement_sql.cli import main as cli_main
from agreement_sql.metrics import coefficients as coefficients_module
from conftest import REFERENCE

from ._forms import (ALL_ROUTES, ROUTES, close, forms, icc_from_patterns, outcome, patterns,
                     random_table, routes, same)
from .test_kappa_oracles import irrcac

# A standard error (and a bootstrap interval) sums per-unit variance terms: in the wide form a unit
# pattern's term times its count, in the counts form one term per unit, so the two agree to the
# last bit or two; values, shares and counts are identical (JSON-identical results otherwise).
CI_TOL = 1e-12


def _tolerance(options: dict) -> float:
    """JSON-identical, but for standard errors (CI_TOL, above) and quadratic weights: the counts
    form sums those from moments (routes decision kappa_weights, docs/decisions/0019), the wide
    form from its table of weights, the same numbers to the last bit or two."""
    return CI_TOL if "ci" in options or options.get("weights") == "quadratic" else 0.0
MANY = {"fleiss_kappa": ag.fleiss_kappa, "gwet_ac1": ag.gwet_ac1,
        "brennan_prediger": ag.brennan_prediger, "percent_agreement": ag.percent_agreement}


def usable(rows: list[dict]) -> list[dict]:
    """The ratings a call with missing=[-1] uses."""
    return [r for r in rows if r["value"] is not None and r["value"] != -1]


def gwet_oracle(rows: list[dict], name: str, q: int | None = None) -> tuple[float, float, float]:
    """(value, p_e, se) by Gwet (2014) ch. 5 / irrCAC *.raw, in numpy, for one metric."""
    rows = usable(rows)
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


def wide_rows(rows: list[dict]) -> list[list]:
    """Long rows as irrCAC's items x raters matrix (None = no rating)."""
    rows = usable(rows)
    items = sorted({r["item"] for r in rows})
    raters = sorted({r["rater"] for r in rows})
    matrix = [[None] * len(raters) for _ in items]
    for r in rows:
        matrix[items.index(r["item"])][raters.index(r["rater"])] = r["value"]
    return matrix


def part(table: pa.Table, result: dict) -> list[dict]:
    """The rows of ``table`` in ``result``'s metric (and slice)."""
    group = result.get("group", {})
    return [r for r in table.to_pylist() if r["metric"] == result["metric"]
            and all(r[k] == v for k, v in group.items())]


# --- values in every form ---------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"ci": 0.95},
                                     {"categories": [0, 1, 2, 3, 4, 5, 6], "ci": 0.9}],
                         ids=["plain", "ci", "declared-ci"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_every_form_equals_gwets_formulas(monkeypatch, options):
    # Fleiss, Gwet's AC1, Brennan-Prediger and percent agreement from one statement (the
    # single functions give the same: test_coefficients_match_the_single_functions); missing
    # ratings, NULL values and the placeholder -1 (counted, never used, never checked against
    # the declared domain), two metrics, three slices
    table = random_table(1, batches=3, gaps=True)
    got = routes(monkeypatch, lambda: ag.coefficients(
        table, which=list(MANY), metric="metric", group_by="batch", missing=[-1], **options))
    assert forms(got) == ["wide"]
    same(got, tol=_tolerance(options))
    entries = outcome(got)
    assert len(entries) == 6
    for entry in entries:
        rows = part(table, entry)
        for name, result in entry["coefficients"].items():
            value, p_e, se = gwet_oracle(rows, name, q=len(options.get("categories", [])))
            assert result["value"] == pytest.approx(value, abs=1e-12), name
            assert result["chance_agreement"] == pytest.approx(p_e, abs=1e-12), name
            if "ci" in options:
                assert result["se"] == pytest.approx(se, abs=1e-12), name
            # accounting (docs/decisions/0005): these coefficients exclude no usable rating
            assert (result["n_rows"], result["n_ratings"]) == (len(rows), len(usable(rows)))
            assert result["n_excluded"]["placeholder"] == sum(r["value"] == -1 for r in rows)
        assert set(entry["coefficients"]) == set(MANY)


def test_single_rated_items_count_in_the_shares_in_every_form(monkeypatch):
    # missing=0.55 of 5 raters: many items rated once (they count in pi_k, not in p_a)
    table = random_table(5, raters=5, missing=0.55, metrics=1, items=80)
    items = table.group_by("item").aggregate([("rater", "count")])
    assert min(items["rater_count"].to_pylist()) == 1
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=list(MANY), ci=0.95))
    same(got, tol=CI_TOL)
    for name, result in outcome(got).items():
        value, p_e, se = gwet_oracle(table.to_pylist(), name)
        assert result["value"] == pytest.approx(value, abs=1e-12), name
        assert result["chance_agreement"] == pytest.approx(p_e, abs=1e-12), name
        assert result["se"] == pytest.approx(se, abs=1e-12), name
        assert result["n_items"] == sum(c >= 2 for c in items["rater_count"].to_pylist())


@pytest.mark.parametrize("which", [list(MANY), ["conger_kappa"]], ids=["kappa-family", "conger"])
@pytest.mark.parametrize("weights", ["linear", "quadratic"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_weighted_coefficients_in_every_form_equal_irrcac(monkeypatch, which, weights):
    # AC2 and the weighted kappas: values and standard errors of the irrCAC port
    table = random_table(6, raters=5, metrics=1, items=40, missing=0.3)
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=which, weights=weights,
                                                      ci=0.95))
    # Conger's analytic variance reads each unit's raters: the counts form on every route
    assert forms(got) == ["counts" if which == ["conger_kappa"] else "wide"]
    same(got, tol=CI_TOL)
    matrix = wide_rows(table.to_pylist())
    for name in which:
        result = outcome(got)["gwet_ac2" if name == "gwet_ac1" else name]
        expected, expected_se = irrcac(matrix, name, weights)
        assert result["value"] == pytest.approx(expected, abs=1e-12), name
        assert result["se"] == pytest.approx(expected_se, abs=1e-12), name


def test_conger_without_an_interval_reads_the_wide_form(monkeypatch):
    table = random_table(7, raters=4, metrics=1, items=50, missing=0.2)
    got = routes(monkeypatch, lambda: ag.conger_kappa(table))
    assert forms(got) == ["wide"] and patterns(got) == [True]
    same(got)
    expected, _ = irrcac(wide_rows(table.to_pylist()), "conger_kappa")
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_pair_coefficients_in_every_form_equal_scikit_learn(monkeypatch):
    # Light's kappa (the mean of Cohen's over the rater pairs), a named pair with quadratic
    # weights on positions (scikit-learn's cohen_kappa_score), Scott's pi on a named pair
    table = random_table(8, raters=3, metrics=1, items=50, missing=0.2)
    rows = table.to_pylist()
    got = routes(monkeypatch, lambda: (
        ag.cohen_kappa(table),
        ag.cohen_kappa(table, raters=["r002", "r000"], weights="quadratic",
                       weight_basis="position", ci=0.95),
        ag.scott_pi(table, raters=["r000", "r001"], ci=0.95)))
    assert forms(got) == ["wide"] * 3 and patterns(got) == [True] * 3
    same(got, tol=CI_TOL)
    light, pair, scott = outcome(got)
    by = {(r["item"], r["rater"]): r["value"] for r in rows}

    def shared(a: str, b: str) -> list:
        return sorted({i for i, r in by if r == a} & {i for i, r in by if r == b})

    def sklearn(a: str, b: str, weights=None) -> float:
        return cohen_kappa_score([by[(i, a)] for i in shared(a, b)],
                                 [by[(i, b)] for i in shared(a, b)], weights=weights)

    pairs = [("r000", "r001"), ("r000", "r002"), ("r001", "r002")]
    assert light["coefficient"] == "light_kappa" and light["n_pairs"] == 3
    assert light["value"] == pytest.approx(np.mean([sklearn(a, b) for a, b in pairs]), abs=1e-12)
    assert pair["raters"] == ["r002", "r000"]
    assert pair["value"] == pytest.approx(sklearn("r002", "r000", "quadratic"), abs=1e-12)
    # Scott's pi on two raters is Fleiss' kappa on their shared items (statsmodels)
    matrix = np.array([[by[(i, "r000")], by[(i, "r001")]] for i in shared("r000", "r001")])
    expected = sm_fleiss_kappa(aggregate_raters(matrix)[0], method="fleiss")
    assert scott["value"] == pytest.approx(expected, abs=1e-12)


# --- the pair coefficients and Conger's kappa from rater patterns ----------------------------
# With few raters and the wide form, Cohen's, Light's, Scott's and Conger's inputs are counted
# from the per-unit pass's rater patterns (sql/_pair_patterns.sql.j2, sql/_conger.sql.j2): the
# same confusion counts, rater marginals and unit counts as the ratings route, so the patterns
# route's result is JSON-identical to the wide route's, and equal to the counts form's.

def _identical(got: dict, name: str = "patterns") -> None:
    assert json.dumps(outcome(got, name), sort_keys=True, default=str) == \
        json.dumps(outcome(got), sort_keys=True, default=str)


PATTERN_CASES = {
    "default": {},
    "linear-named-ci": {"which": ["cohen_kappa", "scott_pi"], "raters": ["r004", "r001"],
                        "weights": "linear", "ci": 0.95, "ci_method": "analytic"},
    "quadratic-declared": {"which": ["light_kappa", "conger_kappa"], "weights": "quadratic",
                           "categories": [0, 1, 2, 3, 4, 5, 6]},
    "gwet": {"which": ["light_kappa", "scott_pi"], "marginals": "gwet"},
    "gwet-named-ci": {"which": ["cohen_kappa", "scott_pi", "fleiss_kappa"],
                      "raters": ["r002", "r000"],
                      "marginals": "gwet", "weights": "quadratic", "ci": 0.9, "n_boot": 20},
    "three-named": {"which": ["light_kappa", "conger_kappa", "fleiss_kappa"],
                    "raters": ["r000", "r002", "r005"]},
    "light-ci-default-method": {"which": ["light_kappa", "scott_pi", "alpha"], "ci": 0.9,
                                "n_boot": 20, "variance": "irrcac_raw"},
    # (Conger's test with ci= reads the counts form whatever the interval: conger-ci below)
    "bootstrap": {"which": ["light_kappa", "scott_pi", "alpha"], "ci": 0.9,
                  "ci_method": "bootstrap", "n_boot": 20, "seed": 3},
    "gwet-bootstrap": {"which": ["cohen_kappa", "scott_pi"], "raters": ["r005", "r001"],
                       "marginals": "gwet", "ci": 0.9, "n_boot": 20},
    "matrix": {"which": ["light_kappa", "scott_pi", "conger_kappa"],
               # a complete matrix (every pair of the categories 1-5 named: decision 0016)
               "weights": {(a, b): 1.0 if a == b else {(1, 2): 0.5, (2, 1): 0.5, (4, 5): 0.25,
                                                       (5, 4): 0.25}.get((a, b), 0.0)
                           for a in range(1, 6) for b in range(1, 6)}},
}


@pytest.mark.parametrize("options", list(PATTERN_CASES.values()), ids=list(PATTERN_CASES))
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_pair_and_conger_from_rater_patterns_in_every_form(monkeypatch, options):
    # two metrics, two slices, missing ratings, NULL values and the placeholder -1
    table = random_table(21, raters=6, batches=2, gaps=True)
    got = routes(monkeypatch, lambda: ag.coefficients(
        table, metric="metric", group_by="batch", missing=[-1], **options))
    assert forms(got) == ["wide"] and patterns(got) == [True]
    assert patterns(got, "wide") == [False]
    same(got, tol=_tolerance(options))
    _identical(got)
    for entry in outcome(got):
        for name, result in entry["coefficients"].items():
            if name in ("light_kappa", "cohen_kappa") and "skipped" not in result:
                assert result["value"] is not None and result["n_items"] > 0, (name, result)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_rater_patterns_on_labels_mixed_kinds_and_a_text_domain(monkeypatch):
    rows = random_table(22, raters=4, metrics=1, labels=True, values=("no", "maybe", "yes"),
                        gaps=True).to_pylist()
    mixed = rows + [{"item": 1, "rater": "r003", "metric": "m0", "value": "7"},
                    {"item": 2, "rater": "r001", "metric": "m0", "value": "7.0"}]
    mixed = [r for i, r in enumerate(mixed) if not (r["item"] in (1, 2) and r["rater"] in
                                                     ("r003", "r001") and i < len(rows))]
    for table, options in (
            (pa.Table.from_pylist(rows), {}),
            (pa.Table.from_pylist(rows), {"categories": ["no", "maybe", "yes"],
                                          "weights": "linear", "ci": 0.95,
                                          "ci_method": "analytic",
                                          "which": ["light_kappa", "scott_pi"]}),
            (pa.Table.from_pylist(rows), {"weights": "quadratic", "weight_basis": "position",
                                          "which": ["light_kappa", "conger_kappa"],
                                          "marginals": "gwet"}),
            (pa.Table.from_pylist(mixed), {"which": ["light_kappa", "conger_kappa"]})):
        got = routes(monkeypatch, lambda: ag.coefficients(table, **options))
        assert forms(got) == ["wide"] and patterns(got) == [True], options
        same(got, tol=_tolerance(options))
        _identical(got)
    assert outcome(got)["light_kappa"]["n_categories"] == 4           # no, maybe, yes and 7


@pytest.mark.parametrize("policy", ["first", "last"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_rater_patterns_after_a_duplicate_policy(monkeypatch, policy):
    rows = random_table(23, raters=4, metrics=1).to_pylist()
    rows += [{**r, "value": 6 - r["value"]} for r in rows[::5]]
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.coefficients(
        table, which=["cohen_kappa", "scott_pi", "conger_kappa"], raters=["r003", "r001"],
        on_duplicate=policy, weights="linear"))
    assert patterns(got) == [True]
    same(got)
    _identical(got)
    assert outcome(got)["cohen_kappa"]["n_excluded"]["duplicate"] > 0


def test_rater_patterns_with_a_duplicate_are_refused_like_the_ratings(monkeypatch):
    rows = random_table(24, raters=4, missing=0.0, metrics=1, items=6).to_pylist()
    first = next(r for r in rows if r["rater"] == "r002" and r["item"] == 3)
    table = pa.Table.from_pylist(rows + [{**first, "value": 1 if first["value"] != 1 else 2}])
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=["light_kappa", "conger_kappa"]))
    same(got)
    name, message = outcome(got)
    assert name == "DuplicateRatingError" and "(item='3', rater='r002') rated 2 times" in message


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_rater_patterns_with_the_light_kappa_cap_per_metric(monkeypatch):
    # m0: 12 raters (Light's kappa skipped by default, pair_max_raters), m1: 3, m2: 2
    rows = random_table(25, raters=12, metrics=1, missing=0.2).to_pylist()
    rows += [{**r, "metric": "m1"} for r in rows if r["rater"] < "r003"]
    rows += [{**r, "metric": "m2"} for r in rows if r["rater"] < "r002" and r["metric"] == "m0"]
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.coefficients(table, metric="metric"))
    assert patterns(got) == [True]
    same(got)
    _identical(got)
    by = {e["metric"]: e["coefficients"] for e in outcome(got)}
    assert by["m0"]["light_kappa"]["skipped"] and by["m1"]["light_kappa"]["n_pairs"] == 3
    assert by["m2"]["cohen_kappa"]["value"] is not None and "scott_pi" in by["m2"]


def test_no_rater_patterns_beyond_their_capacity(monkeypatch):
    # 16 categories hold (16 + 1)^r < 2^53 for r <= 12 raters: 13 raters read the ratings
    table = random_table(26, raters=13, metrics=1, items=30, values=tuple(range(16)),
                         missing=0.1)
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=["light_kappa"]),
                 ("wide", "patterns"))
    assert forms(got) == ["wide"] and patterns(got) == [False]
    same(got)


def test_fleiss_against_statsmodels_on_complete_data(monkeypatch):
    table = random_table(8, raters=7, missing=0.0, metrics=1, items=120)
    rows = table.to_pylist()
    matrix = np.array([[r["value"] for r in rows if r["item"] == i] for i in range(120)])
    counts, _ = aggregate_raters(matrix)
    got = routes(monkeypatch, lambda: ag.fleiss_kappa(table))
    same(got)
    expected = sm_fleiss_kappa(counts, method="fleiss")
    assert outcome(got)["value"] == pytest.approx(expected, abs=1e-12)


def test_fleiss_1971_published_value_in_every_form(monkeypatch):
    # Fleiss (1971), Table 1: 30 patients x 6 psychiatrists, 5 diagnoses; kappa = 0.430
    # (R irr::kappam.fleiss and statsmodels give 0.4302445)
    data = REFERENCE / "fleiss1971_diagnoses_30x6.csv"
    got = routes(monkeypatch, lambda: ag.fleiss_kappa(data, ci=0.95))
    assert forms(got) == ["wide"]
    same(got, tol=CI_TOL)
    assert outcome(got)["value"] == pytest.approx(0.4302445, abs=5e-8)


def test_numbers_that_compare_equal_are_one_category_in_every_form(monkeypatch):
    # "1" and "1.0" are the number 1 (docs/decisions/0002), with or without a text rating
    # beside them; "n/a" is one more category, a label
    rows = random_table(4, metrics=1, values=("1", "1.0", "2", "3"), labels=True).to_pylist()
    rows.append({"item": 0, "rater": "r999", "metric": "m0", "value": "n/a"})
    table = pa.Table.from_pylist(rows)
    got = routes(monkeypatch, lambda: ag.fleiss_kappa(table, ci=0.95))
    same(got, tol=CI_TOL)
    assert outcome(got)["n_categories"] == 4                  # 1, 2, 3 and "n/a"
    as_numbers = [{**r, "value": float(r["value"]) if r["value"] != "n/a" else 99.0} for r in rows]
    value, _, se = gwet_oracle(as_numbers, "fleiss_kappa")
    assert outcome(got)["value"] == pytest.approx(value, abs=1e-12)
    assert outcome(got)["se"] == pytest.approx(se, abs=1e-12)
    numbers = pa.Table.from_pylist(rows[:-1])
    assert ag.fleiss_kappa(numbers)["n_categories"] == 3


@pytest.mark.slow
def test_declared_text_domain_in_every_form(monkeypatch):
    # an unused declared label changes q for Gwet and Brennan-Prediger, not Fleiss
    table = random_table(11, labels=True, values=("low", "mid", "high"), metrics=1)
    domain = ["none", "low", "mid", "high"]
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=list(MANY), categories=domain,
                                                      ci=0.95))
    assert forms(got) == ["wide"]
    same(got, tol=CI_TOL)
    for name, result in outcome(got).items():
        assert result["n_categories"] == 4
        value, p_e, se = gwet_oracle(table.to_pylist(), name, q=4)
        assert result["value"] == pytest.approx(value, abs=1e-12), name
        assert result["se"] == pytest.approx(se, abs=1e-12), name
    assert ag.gwet_ac1(table, categories=domain)["value"] == outcome(got)["gwet_ac1"]["value"]


def test_more_categories_than_the_wide_form_holds(monkeypatch):
    # 30 distinct values: more than 16, so every route reads the counts form
    table = random_table(6, values=tuple(range(30)), metrics=1, missing=0.2)
    got = routes(monkeypatch, lambda: ag.fleiss_kappa(table, ci=0.95))
    assert forms(got) == ["counts"]
    same(got, tol=CI_TOL)
    value, _, se = gwet_oracle(table.to_pylist(), "fleiss_kappa")
    assert outcome(got)["value"] == pytest.approx(value, abs=1e-12)
    assert outcome(got)["se"] == pytest.approx(se, abs=1e-12)


def test_more_raters_than_rater_bits(monkeypatch):
    # MAX_BIT_RATERS + 4 raters: no rater bits on any route, the separate duplicate check
    raters = MAX_BIT_RATERS + 4
    table = random_table(2, raters=raters, metrics=1, items=8, missing=0.5)
    got = routes(monkeypatch, lambda: ag.fleiss_kappa(table, ci=0.95))
    assert forms(got) == ["wide"] and got["wide"]["log"][-1]["rater_bits"] == "none"
    same(got, tol=CI_TOL)
    assert outcome(got)["n_raters"] == len(set(table["rater"].to_pylist()))
    value, _, se = gwet_oracle(table.to_pylist(), "fleiss_kappa")
    assert outcome(got)["value"] == pytest.approx(value, abs=1e-12)
    assert outcome(got)["se"] == pytest.approx(se, abs=1e-12)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_bootstrap_in_every_form(monkeypatch):
    # the replicates resample units before the same producers run: the same intervals
    table = random_table(3, metrics=1, raters=4)
    got = routes(monkeypatch, lambda: ag.coefficients(
        table, which=["fleiss_kappa", "alpha", "light_kappa"], ci=0.9, ci_method="bootstrap",
        n_boot=40, seed=7))
    assert forms(got) == ["wide"] and patterns(got) == [True]
    same(got, tol=CI_TOL)
    fleiss = outcome(got)["fleiss_kappa"]
    value, _, _ = gwet_oracle(table.to_pylist(), "fleiss_kappa")
    assert fleiss["value"] == pytest.approx(value, abs=1e-12)
    assert fleiss["n_boot_valid"] == outcome(got)["krippendorff_alpha"]["n_boot_valid"] == 40


# --- duplicates and typed errors: the same on every route -----------------------------------

def _with_duplicate(raters: int, late_rater: int) -> pa.Table:
    rows = random_table(3, raters=raters, missing=0.0, metrics=1, items=5).to_pylist()
    first = next(r for r in rows if r["rater"] == f"r{late_rater:03d}" and r["item"] == 2)
    return pa.Table.from_pylist(rows + [{**first, "value": 1 if first["value"] != 1 else 2}])


@pytest.mark.parametrize("raters,late,several", [(70, 69, False), (130, 125, True)])
def test_duplicates_in_any_rater_block_raise_on_every_route(monkeypatch, raters, late, several):
    # more than 62 raters: several blocks of rater bits (test_forms.py tries every block)
    table = _with_duplicate(raters, late)
    got = routes(monkeypatch, (lambda: ag.coefficients(
        table, which=["fleiss_kappa", "gwet_ac1", "krippendorff_alpha"])) if several
        else (lambda: ag.fleiss_kappa(table)))
    same(got)
    name, message = outcome(got)
    assert name == "DuplicateRatingError"
    assert f"(item='2', rater='r{late:03d}') rated 2 times" in message


def test_a_label_outside_a_declared_numeric_domain_is_named_on_every_route(monkeypatch):
    rows = random_table(4, metrics=1).to_pylist()
    rows = [{**r, "value": str(r["value"])} for r in rows]
    rows.append({"item": 3, "rater": "r999", "metric": "m0", "value": "n/a"})
    table = pa.Table.from_pylist(rows)
    for call in (lambda: ag.fleiss_kappa(table, categories=[1, 2, 3, 4, 5]),
                 lambda: ag.coefficients(table, categories=[1, 2, 3, 4, 5])):
        got = routes(monkeypatch, call)
        same(got)
        name, message = outcome(got)
        assert name == "InvalidRatingError"
        assert ("1 rating(s) in column 'value' lie outside the declared domain [1, 2, 3, 4, 5]"
                in message)
        assert "'n/a' at (item='3', rater='r999')" in message
    # without a domain, "n/a" is one more category beside the numbers 1..5
    assert ag.fleiss_kappa(table)["n_categories"] == 6


@pytest.mark.parametrize("key", ["item", "rater"])
def test_null_keys_are_named_on_every_route(monkeypatch, key):
    rows = random_table(4, metrics=1).to_pylist()
    table = pa.Table.from_pylist(rows + [{"item": 1, "rater": "r000", "metric": "m0",
                                          "value": 3, key: None}])
    got = routes(monkeypatch, lambda: ag.gwet_ac1(table))
    same(got)
    name, message = outcome(got)
    assert name == "MissingKeyError" and f"column(s) '{key}' are empty (NULL)" in message


def test_calls_leave_the_connection_as_found():
    con = ag.connect()
    before = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    ag.fleiss_kappa(random_table(2), metric="metric", con=con)
    ag.coefficients(random_table(2), metric="metric", con=con)
    assert set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall()) == before


# --- coefficients() --------------------------------------------------------------------------

@pytest.mark.parametrize("options", [
    # every coefficient with its analytic interval (alpha and Light's have none; their
    # bootstrap in every form: test_bootstrap_in_every_form)
    {"ci": 0.95, "ci_method": "analytic"},
    {"level": "ordinal", "which": ["krippendorff_alpha", "conger_kappa", "fleiss_kappa"]},
    {"level": "ratio", "which": ["gwet_ac1", "alpha"], "categories": [1, 2, 3, 4, 5, 9]},
    {"which": ["conger_kappa", "percent_agreement"], "ci": 0.95},
], ids=["all-ci", "ordinal", "ratio-declared", "conger-ci"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_coefficients_in_every_form(monkeypatch, options):
    table = random_table(9, batches=2)
    got = routes(monkeypatch, lambda: ag.coefficients(
        table, metric="metric", group_by="batch", **options))
    # Conger's analytic variance reads the counts form; so does the whole statement then
    conger_se = options.get("ci") and "conger_kappa" in options.get("which", ["conger_kappa"])
    assert set(forms(got)) == {"counts" if conger_se else "wide"}
    floats_differ = options.get("ci") or options.get("level") in ("ordinal", "ratio")
    same(got, tol=CI_TOL if floats_differ else 0.0)
    for entry in outcome(got):
        rows = part(table, entry)
        for name in ("fleiss_kappa", "gwet_ac1", "percent_agreement"):
            if name in entry["coefficients"] and "categories" not in options:
                value, _, _ = gwet_oracle(rows, name)
                assert entry["coefficients"][name]["value"] == pytest.approx(value, abs=1e-12)
        if "conger_kappa" in entry["coefficients"]:
            expected, _ = irrcac(wide_rows(rows), "conger_kappa")
            assert entry["coefficients"]["conger_kappa"]["value"] == pytest.approx(expected,
                                                                                   abs=1e-12)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_coefficients_on_labels_in_every_form(monkeypatch):
    table = random_table(10, labels=True, values=("yes", "no", "maybe"))
    got = routes(monkeypatch, lambda: ag.coefficients(table, metric="metric", ci=0.95,
                                                      ci_method="analytic"))
    same(got, tol=CI_TOL)
    entry = outcome(got)[0]
    assert {"light_kappa", "conger_kappa", "krippendorff_alpha"} <= set(entry["coefficients"])
    value, _, se = gwet_oracle(part(table, entry), "gwet_ac1")
    assert entry["coefficients"]["gwet_ac1"]["value"] == pytest.approx(value, abs=1e-12)
    assert entry["coefficients"]["gwet_ac1"]["se"] == pytest.approx(se, abs=1e-12)


@pytest.mark.slow
def test_coefficients_match_the_single_functions():
    table = random_table(12, raters=8)
    together = ag.coefficients(table, metric="metric", which=list(MANY), ci=0.95,
                               ci_method="analytic")
    for entry in together:
        for name, function in MANY.items():
            alone = [r for r in function(table, metric="metric", ci=0.95)
                     if r["metric"] == entry["metric"]][0]
            got = dict(entry["coefficients"][name])
            close(got, {k: v for k, v in alone.items() if k != "metric"}, tol=1e-12)


# --- Light's kappa by default: up to LIGHT_MAX_RATERS raters ---------------------------------


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
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
    assert "skipped" not in asked and asked["n_pairs"] == 66          # 12 * 11 / 2 pairs
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


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_every_route_is_exercised(monkeypatch):
    # the routes differ where they should: the forced counts form, the lowered rater cap and
    # the rater patterns reach the route (a route that silently
    # kept the wide form would make every test above compare a call with itself)
    table = random_table(1, metrics=1)
    got = routes(monkeypatch, lambda: ag.coefficients(table, which=["fleiss_kappa", "light_kappa",
                                                                    "conger_kappa"]), ALL_ROUTES)
    assert [(e["units"], e["rater_bits"], e["rater_patterns"])
            for name in ALL_ROUTES for e in got[name]["log"] if "units" in e] == [
        ("wide", "bits", "ratings"), ("wide", "bits", "patterns"),
        ("counts", "bits", "ratings"), ("wide", "none", "ratings"),
        ("wide", "bits", "patterns"), ("counts", "none", "ratings")]
    same(got)
    # no ICC asked for: its icc_apart route is its patterns route; by default (numeric
    # ratings) the patterns route gives the ICC from its rater patterns, the
    # icc_apart route from the ICC's own statement
    assert got["icc_apart"]["log"] == got["patterns"]["log"]
    by_default = routes(monkeypatch, lambda: ag.coefficients(table))
    assert [icc_from_patterns(by_default, name) for name in ROUTES] == [
        [False], [True], [False], [False], [False]]
    same(by_default)
    # a statement without a pair coefficient or Conger's kappa never asks for rater patterns:
    # its patterns route is its wide route
    alone = routes(monkeypatch, lambda: ag.fleiss_kappa(table), ("wide", "patterns"))
    assert patterns(alone, "wide") == patterns(alone) == []    # no statement needs rater identity
    assert alone["patterns"]["log"] == alone["wide"]["log"]
