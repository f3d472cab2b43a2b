"""The kappa family's conventions: degenerate data, text labels, declared categories, weight
matrices, slices, typed errors, and `coefficients()` computing several at once."""
from __future__ import annotations

import json
from decimal import Decimal

import pyarrow as pa
import pytest

from agreement_sql import (InvalidRatingError, OptionError, brennan_prediger, coefficients,
                           cohen_kappa, conger_kappa, fleiss_kappa, gwet_ac1, percent_agreement,
                           render, scott_pi)
from agreement_sql.dialects import DIALECTS
from conftest import REFERENCE, ROOT

MANY = [fleiss_kappa, conger_kappa, gwet_ac1, brennan_prediger, percent_agreement]
ALL = [cohen_kappa, scott_pi] + MANY


def table(rows, **extra):
    """[(item, rater, value), ...] as an Arrow table (value type as given)."""
    columns = {"item": [str(r[0]) for r in rows], "rater": [str(r[1]) for r in rows],
               "value": [r[2] for r in rows]}
    for i, name in enumerate(extra.get("extra_columns", [])):
        columns[name] = [r[3 + i] for r in rows]
    return pa.table(columns)


def two_raters(pairs):
    return table([(i, r, v) for i, (a, b) in enumerate(pairs) for r, v in (("A", a), ("B", b))
                  if v is not None])


# ---------------------------------------------------------------- degenerate data

@pytest.mark.parametrize("function", ALL, ids=lambda f: f.__name__)
def test_one_category_everyone_agrees_is_one(function):
    data = two_raters([("yes", "yes")] * 5)
    result = function(data, ci=0.95)
    assert result["value"] == 1.0
    assert result["n_categories"] == 1
    if function in (cohen_kappa, scott_pi, fleiss_kappa, conger_kappa):
        assert result["se"] is None          # p_e = 1: the variance is undefined


@pytest.mark.parametrize("function", ALL, ids=lambda f: f.__name__)
def test_unanimous_items_in_several_categories_are_one(function):
    data = two_raters([(1, 1), (2, 2), (3, 3), (1, 1)])
    assert function(data)["value"] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("function", ALL, ids=lambda f: f.__name__)
def test_no_item_rated_twice_is_none(function):
    data = two_raters([(1, None), (None, 2), (3, None)])
    result = function(data)
    assert result["value"] is None
    assert result["n_items"] == 0
    assert result["interpretation"] is None


@pytest.mark.parametrize("function", [cohen_kappa] + MANY, ids=lambda f: f.__name__)
def test_one_rater_is_none(function):
    data = table([(i, "A", v) for i, v in enumerate([1, 2, 1, 3])])
    result = function(data, ci=0.95)
    assert result["value"] is None
    assert result["n_raters"] == 1
    assert result["se"] is None


def test_declared_category_never_used():
    data = two_raters([(1, 1), (1, 2), (2, 2), (2, 2), (1, 1)])
    observed = brennan_prediger(data)
    declared = brennan_prediger(data, categories=[1, 2, 3])
    assert observed["n_categories"] == 2 and declared["n_categories"] == 3
    assert observed["chance_agreement"] == pytest.approx(1 / 2)
    assert declared["chance_agreement"] == pytest.approx(1 / 3)    # q from the declared domain
    # Cohen's and Fleiss' chance agreement only sees used categories: unchanged
    assert cohen_kappa(data, categories=[1, 2, 3])["value"] == pytest.approx(cohen_kappa(data)["value"])
    assert fleiss_kappa(data, categories=[1, 2, 3])["value"] == pytest.approx(fleiss_kappa(data)["value"])
    # ... but an unused extreme widens the range linear weights are scaled by
    assert cohen_kappa(data, categories=[1, 2, 3], weights="linear")["n_categories"] == 3


def test_single_rated_items_count_in_gwet_shares_not_in_pa():
    # Gwet's generalisation: pi_k averages over every rated item, p_a only over items rated twice
    data = table([(1, "A", 1), (1, "B", 1), (2, "A", 2), (2, "B", 2), (3, "A", 2)])
    result = fleiss_kappa(data)
    assert result["n_items"] == 2
    assert result["observed_agreement"] == 1.0
    pi_1, pi_2 = 1 / 3, 2 / 3
    assert result["chance_agreement"] == pytest.approx(pi_1 ** 2 + pi_2 ** 2)


# ---------------------------------------------------------------- labels, weights, declared order

def test_text_labels_are_compared_by_label():
    text = two_raters([("PASS", "PASS"), ("PASS", "FAIL"), ("FAIL", "FAIL"), ("FAIL", "FAIL")])
    numbers = two_raters([(1, 1), (1, 0), (0, 0), (0, 0)])
    assert cohen_kappa(text)["value"] == pytest.approx(cohen_kappa(numbers)["value"])
    assert scott_pi(text)["value"] == pytest.approx(scott_pi(numbers)["value"])


def test_weights_need_values_or_a_declared_order():
    data = two_raters([("low", "mid"), ("mid", "mid"), ("high", "mid"), ("high", "high")])
    with pytest.raises(OptionError, match="declared order"):
        cohen_kappa(data, weights="linear")
    ordered = cohen_kappa(data, weights="linear", categories=["low", "mid", "high"])
    as_numbers = cohen_kappa(two_raters([(1, 2), (2, 2), (3, 2), (3, 3)]), weights="linear")
    assert ordered["value"] == pytest.approx(as_numbers["value"])
    # scikit-learn's convention: positions in sorted label order (high < low < mid)
    by_position = cohen_kappa(data, weights="linear", weight_basis="position")
    assert by_position["weight_basis"] == "position"


def test_value_and_position_weights_differ_on_uneven_scales():
    data = two_raters([(1, 2), (2, 2), (10, 2), (10, 10), (1, 1)])
    by_value = cohen_kappa(data, weights="quadratic")["value"]
    by_position = cohen_kappa(data, weights="quadratic", weight_basis="position")["value"]
    assert by_value != pytest.approx(by_position)


@pytest.mark.slow
def test_weight_matrix_forms_agree():
    data = two_raters([("a", "a"), ("a", "b"), ("b", "c"), ("c", "c"), ("b", "b")])
    cats = ["a", "b", "c"]
    rows = [[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]]
    listed = cohen_kappa(data, weights=rows, categories=cats)
    nested = cohen_kappa(data, weights={k: dict(zip(cats, r)) for k, r in zip(cats, rows)})
    pairs = cohen_kappa(data, weights={(k, l): rows[i][j] for i, k in enumerate(cats)
                                       for j, l in enumerate(cats)})
    linear = cohen_kappa(data, weights="linear", categories=cats)
    assert listed["weights"] == "custom"
    for other in (nested, pairs, linear):
        assert other["value"] == pytest.approx(listed["value"])
    identity = cohen_kappa(data, weights={(k, l): float(k == l) for k in cats for l in cats})
    assert identity["value"] == pytest.approx(cohen_kappa(data)["value"])   # a full identity matrix
    assert fleiss_kappa(data, weights=rows, categories=cats)["value"] == pytest.approx(
        fleiss_kappa(data, weights="linear", categories=cats)["value"])


def test_gwet_is_named_ac2_when_weighted():
    data = REFERENCE / "krippendorff2011_4x12.csv"
    assert gwet_ac1(data)["coefficient"] == "gwet_ac1"
    assert gwet_ac1(data, weights="quadratic")["coefficient"] == "gwet_ac2"


# ---------------------------------------------------------------- raters, slices, results

@pytest.mark.slow
def test_named_raters_pick_the_pair():
    data = table([(i, r, v) for i, row in enumerate([(1, 1, 2), (2, 2, 2), (1, 2, 1), (2, 2, 2)])
                  for r, v in zip("ABC", row)])
    light = cohen_kappa(data)
    assert light["coefficient"] == "light_kappa" and light["n_pairs"] == 3
    pair = cohen_kappa(data, raters=["C", "A"], ci=0.95)
    assert pair["coefficient"] == "cohen_kappa" and pair["raters"] == ["C", "A"]
    assert pair["se"] is not None
    assert scott_pi(data, raters=["A", "B"])["n_raters"] == 2
    # Scott's pi is a two-rater coefficient: three raters and no pair named is an error
    # pointing to raters= and to Fleiss' kappa (its many-rater generalisation) ...
    with pytest.raises(OptionError, match="two raters.*raters=\\[a, b\\].*fleiss_kappa"):
        scott_pi(data)
    # ... but where some slices have two raters, those get a value and the others none
    # (sql/_scott.sql.j2)
    rows = [(i, r, v, "three") for i, row in enumerate([(1, 1, 2), (2, 2, 2), (1, 2, 1)])
            for r, v in zip("ABC", row)]
    rows += [(10 + i, r, v, "two") for i, row in enumerate([(1, 1), (2, 2), (1, 2)])
             for r, v in zip("AB", row)]
    sliced = table(rows, extra_columns=["part"])
    by_part = {r["group"]["part"]: r for r in scott_pi(sliced, group_by="part")}
    assert by_part["three"]["n_raters"] == 3 and by_part["three"]["value"] is None
    assert by_part["two"]["n_raters"] == 2 and by_part["two"]["value"] is not None
    # an unknown rater is an error naming them, not a pair without a value
    with pytest.raises(OptionError, match="raters= names 'Z', who rated nothing"):
        scott_pi(data, raters=["A", "Z"])
    assert light["value"] is not None
    # Light's kappa has no analytic SE: the default interval is the bootstrap's; asked for
    # the analytic one, it has none
    assert cohen_kappa(data, ci=0.95, n_boot=50)["ci_method"] == "bootstrap"
    assert cohen_kappa(data, ci=0.95, ci_method="analytic")["ci_method"] == "none"


@pytest.mark.slow
def test_group_by_and_metric_give_one_result_per_slice():
    rows = []
    for module, pairs in (("m1", [(1, 1), (2, 2), (1, 2)]), ("m2", [(1, 2), (2, 1), (2, 2), (1, 1)])):
        for question in ("q1", "q2"):
            for i, (a, b) in enumerate(pairs):
                rows += [(f"{module}-{i}", "A", a, module, question), (f"{module}-{i}", "B", b, module, question)]
    data = table(rows, extra_columns=["Module", "question"])
    results = fleiss_kappa(data, metric="question", group_by="Module", ci=0.95)
    assert isinstance(results, list) and len(results) == 4
    assert {(r["metric"], r["group"]["Module"]) for r in results} == {
        ("q1", "m1"), ("q1", "m2"), ("q2", "m1"), ("q2", "m2")}
    m1 = [r for r in results if r["group"]["Module"] == "m1"][0]
    alone = fleiss_kappa(table([r for r in rows if r[3] == "m1" and r[4] == "q1"]), ci=0.95)
    assert m1["value"] == pytest.approx(alone["value"]) and m1["se"] == pytest.approx(alone["se"])
    both = coefficients(data, metric="question", group_by=["Module"])
    assert len(both) == 4 and set(both[0]["coefficients"]) >= {"cohen_kappa", "fleiss_kappa"}


@pytest.mark.parametrize("function", ALL, ids=lambda f: f.__name__)
def test_results_are_plain_json(function):
    result = function(REFERENCE / "sas_kappa_3x3.csv", ci=0.95, weights="linear")
    json.dumps(result, allow_nan=False)
    for key, value in result.items():
        assert not isinstance(value, Decimal), key
    for key in ("value", "observed_agreement", "chance_agreement", "se", "ci_low", "ci_high"):
        assert isinstance(result[key], float), key
    assert result["ci_method"] == "analytic" and result["ci_level"] == 0.95


def test_interval_uses_the_requested_level():
    path = REFERENCE / "sas_kappa_3x3.csv"
    r90, r99 = cohen_kappa(path, ci=0.90), cohen_kappa(path, ci=0.99)
    assert r90["se"] == pytest.approx(r99["se"])
    assert r99["ci_high"] - r99["ci_low"] > r90["ci_high"] - r90["ci_low"]
    assert (r90["ci_high"] - r90["value"]) / r90["se"] == pytest.approx(1.6448536269514722)


def test_percent_agreement_is_a_proportion_without_chance():
    result = percent_agreement(REFERENCE / "wikipedia_fleiss_10x14.csv")
    assert result["value"] == pytest.approx(0.378021978021978)
    assert result["chance_agreement"] == 0.0 and result["interpretation"] is None


# ---------------------------------------------------------------- coefficients()

@pytest.mark.slow
def test_coefficients_default_is_all_that_apply():
    two = coefficients(REFERENCE / "sas_kappa_3x3.csv")
    # every registry entry, in its order (two raters: each two-rater coefficient too), and for
    # numeric ratings the ICC (McGraw & Wong's ICC(A,1), listwise)
    from agreement_sql.registry import REGISTRY
    assert list(two) == [*REGISTRY, "icc"]
    many = coefficients(REFERENCE / "fleiss1971_diagnoses_30x6.csv")
    assert "light_kappa" in many and "cohen_kappa" not in many and "scott_pi" not in many
    assert many["krippendorff_alpha"]["interpretation"] in ("reliable", "tentative", "unreliable")
    labels = coefficients(REFERENCE / "artstein_poesio2008_table1_2x2.csv")
    assert "icc" not in labels and "cohen_kappa" in labels        # text labels: no ICC


def test_coefficients_icc_is_the_icc_function_s_icc2():
    # the same numbers as icc(form="ICC2") (tests/icc checks those against Shrout & Fleiss,
    # pingouin and R irr), per metric and slice, with the interval at ci's level
    from agreement_sql import icc
    data = ROOT / "data" / "irr" / "irr_anxiety_20x3.csv"
    got = coefficients(data, which=["icc", "fleiss_kappa"], ci=0.9)
    want = icc(data, form="ICC2", ci=0.9)
    # icc()'s F interval, stated as such (ci_method "f")
    assert {k: v for k, v in got["icc"].items() if k != "route"} == {
        "coefficient": "icc", **{k: v for k, v in want.items() if k not in ("metric", "route")},
        "ci_method": "f"}
    assert list(coefficients(data, which="icc")) == ["icc"]


def test_coefficients_which_and_aliases():
    result = coefficients(REFERENCE / "krippendorff2011_4x12.csv", which=["gwet_ac2", "alpha"],
                          weights="quadratic", level="interval")
    assert list(result) == ["gwet_ac2", "krippendorff_alpha"]
    with pytest.raises(OptionError, match="unknown coefficient"):
        coefficients(REFERENCE / "krippendorff2011_4x12.csv", which=["kappa_of_doom"])


def test_coefficients_is_one_statement():
    # the script render() prints: the lines that set its parameters, the dialect's session
    # macros (agreement_fsum, ...: fixed package text, one line each), then one statement
    # (ended by ";") with one WITH and one scan of the source
    sql = render("coefficients", checks=False)
    code = [line.split("--")[0] for line in sql.splitlines()]
    setup = {statement + ";" for statement in DIALECTS["duckdb"].setup}
    sets = {line for line in code if line.startswith("SET VARIABLE ")}
    assert all(line in setup or line in sets for line in code[:-1] if ";" in line)
    statement = "\n".join(line for line in code if line not in setup and line not in sets)
    assert statement.rstrip().endswith(";") and statement.count(";") == 1
    assert statement.count("WITH") == 1
    assert statement.count("FROM \"ratings\"") == 1         # one scan of the source


# ---------------------------------------------------------------- typed errors

@pytest.mark.parametrize("kwargs,error,match", [
    ({"weights": "cubic"}, OptionError, "weights must be"),
    ({"weight_basis": "rank"}, OptionError, "weight_basis"),
    ({"ci": 1.5}, OptionError, "confidence level"),
    ({"raters": ["A"]}, OptionError, "two or more"),
    ({"raters": "AB"}, OptionError, "string"),
    ({"weights": [[1, 0], [0, 1]]}, OptionError, "needs categories"),
    ({"weights": [[1, 0], [0, 1]], "categories": [1, 2, 3]}, OptionError, "3 x 3"),
    ({"weights": {("x", "y"): 0.5}, "categories": [1, 2, 3]}, OptionError, "not among"),
    ({"categories": [1, 2]}, InvalidRatingError, "outside the declared domain"),
])
def test_bad_options_raise_typed_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        cohen_kappa(REFERENCE / "sas_kappa_3x3.csv", **kwargs)


def test_rendered_templates_stay_portable():
    for name in ("cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "gwet_ac1",
                 "brennan_prediger", "percent_agreement", "coefficients"):
        for dialect in ("duckdb", "spark"):
            sql = render(name, dialect=dialect, ci=True, weights="quadratic")
            code = "\n".join(l.split("--")[0] for l in sql.splitlines())
            for banned in ("::", " FILTER", "QUALIFY", "GROUP BY ALL", "//", "PIVOT", "hash("):
                assert banned not in code, (name, dialect, banned)
