"""docs/migrating.md, irrCAC (R and Python): raw data (*.raw), rater distributions (*.dist) and
contingency tables (*.table) in irrCAC's shapes, under irrCAC's conventions.

irrCAC 0.4.4 (PyPI) pins scipy==1.12 and pandas<3, which the test environment's pingouin and
pandas exclude, and on pandas 3 it miscounts missing ratings; so its numbers were computed once
in an environment of its own and stored in tests/reference/peers/irrcac_0.4.4.json (how: the
README there). Where irrCAC's own documentation prints a value (the doctests of irrCAC/raw.py
and irrCAC/table.py, 5 decimals) the test says so and checks it too."""
from __future__ import annotations

import pytest

import agreement_sql as a

from ._data import IRRCAC, gwet_table3_5, irrcac_cont3x3, irrcac_distrib6, irrcac_raw4raters

RAW = {"fleiss": a.fleiss_kappa, "gwet": a.gwet_ac1, "bp": a.brennan_prediger,
       "conger": a.conger_kappa}
TABLE = {"cohen": a.cohen_kappa, "scott": a.scott_pi, "gwet": a.gwet_ac1, "bp": a.brennan_prediger,
         "pa2": a.percent_agreement}


@pytest.mark.parametrize("weights", ["identity", "quadratic"])
@pytest.mark.parametrize("name", list(RAW))
def test_raw_functions(name, weights):
    # irrCAC *.raw / CAC(ratings): a row per subject, a column per rater, NaN for no rating;
    # standard errors with divisor n - 1, this package's default for these coefficients
    expected = IRRCAC[f"raw4raters/{weights}"][name]
    ours = RAW[name](irrcac_raw4raters(), layout="wide", ci=0.95,
                     weights=None if weights == "identity" else weights)
    assert ours["value"] == pytest.approx(expected["coefficient_value"], abs=1e-9)
    assert ours["se"] == pytest.approx(expected["se"], abs=1e-9)
    assert ours["observed_agreement"] == pytest.approx(expected["pa"], abs=1e-9)
    assert ours["chance_agreement"] == pytest.approx(expected["pe"], abs=1e-9)


def test_raw_documented_output():
    # irrCAC/raw.py doctest: CAC(raw_4raters()).gwet() 0.77544, se 0.14295; .fleiss() 0.76117,
    # se 0.15302
    data = irrcac_raw4raters()
    gwet = a.gwet_ac1(data, layout="wide", ci=0.95)
    fleiss = a.fleiss_kappa(data, layout="wide", ci=0.95)
    assert (round(gwet["value"], 5), round(gwet["se"], 5)) == (0.77544, 0.14295)
    assert (round(fleiss["value"], 5), round(fleiss["se"], 5)) == (0.76117, 0.15302)


def test_raw_krippendorff_alpha():
    # irrCAC krippen.alpha.raw(cac.raw4raters): 0.7434210526 (irrCAC 0.4.4), the nominal alpha
    # (its standard error is Gwet's; this package gives alpha a bootstrap interval)
    expected = IRRCAC["raw4raters/identity"]["krippendorff"]["coefficient_value"]
    ours = a.krippendorff_alpha(irrcac_raw4raters(), layout="wide", level="nominal")
    assert ours["value"] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("weights", ["identity", "quadratic"])
@pytest.mark.parametrize("name", list(TABLE))
def test_table_functions(name, weights):
    # irrCAC *.table / irrCAC.table.CAC(table): rows rater A, columns rater B; weights from the
    # categories' positions (categories= in the table's order); standard errors with divisor n:
    # Cohen's and Scott's by default, the rater-free ones with variance="irrcac_table"
    table = irrcac_cont3x3()
    expected = IRRCAC[f"cont3x3abstractors/{weights}"][name]
    extra = {} if weights == "identity" else {"weights": weights,
                                              "categories": list(table.columns)}
    variance = {} if name in ("cohen", "scott") else {"variance": "irrcac_table"}
    ours = TABLE[name](table, layout="table", ci=0.95, **extra, **variance)
    assert ours["value"] == pytest.approx(expected["coefficient_value"], abs=1e-9)
    assert ours["se"] == pytest.approx(expected["se"], abs=1e-9)


def test_table_documented_output():
    # irrCAC/table.py doctest: CAC(table_cont3x3abstractors()).gwet() 0.84933, se 0.04322; with
    # weights="quadratic" 0.94024, se 0.01792
    table = irrcac_cont3x3()
    plain = a.gwet_ac1(table, layout="table", ci=0.95, variance="irrcac_table")
    quadratic = a.gwet_ac1(table, layout="table", ci=0.95, variance="irrcac_table",
                           weights="quadratic", categories=list(table.columns))
    assert (round(plain["value"], 5), round(plain["se"], 5)) == (0.84933, 0.04322)
    assert (round(quadratic["value"], 5), round(quadratic["se"], 5)) == (0.94024, 0.01792)
    assert quadratic["conventions"]["variance"].startswith("irrcac_table")
    # the 100 units read as the table's 9 cells (docs/decisions/0022)
    assert [r["layout_cells"] for r in plain["route"] + quadratic["route"]] == ["cells", "cells"]


def test_table_variance_default_is_the_raw_divisor():
    # without variance=, the rater-free coefficients divide by n - 1 (irrCAC's raw functions on
    # the same 100 units): the table form's variance times n / (n - 1)
    table = irrcac_cont3x3()
    expected = IRRCAC["cont3x3abstractors/identity"]["gwet"]["se"]
    ours = a.gwet_ac1(table, layout="table", ci=0.95)
    assert ours["se"] == pytest.approx(expected * (100 / 99) ** 0.5, abs=1e-9)
    assert "conventions" not in ours or "variance" not in ours["conventions"]


@pytest.mark.parametrize("name", ["fleiss", "gwet", "bp", "krippendorff"])
def test_dist_functions(name):
    # irrCAC *.dist (distrib.6raters): a row per subject, a column per category, a cell the
    # raters who chose it; irrCAC's dist functions are its raw ones on the same ratings, and
    # irrCAC 0.4.4 (Python, no dist module) gave these on the expanded data
    expected = IRRCAC["distrib6raters/identity"][name]
    function = {"fleiss": a.fleiss_kappa, "gwet": a.gwet_ac1, "bp": a.brennan_prediger,
                "krippendorff": a.krippendorff_alpha}[name]
    extra = {"level": "nominal"} if name == "krippendorff" else {"ci": 0.95}
    ours = function(irrcac_distrib6(), layout="counts", **extra)
    assert ours["value"] == pytest.approx(expected["coefficient_value"], abs=1e-9)
    if name != "krippendorff":
        assert ours["se"] == pytest.approx(expected["se"], abs=1e-9)


@pytest.mark.parametrize("weights", ["identity", "quadratic"])
def test_gwet_marginals(weights):
    # Gwet (2014) Example 3.2 (Table 3.5): irrCAC's Cohen's kappa for two raters with missing
    # ratings is conger.kappa.raw, its Scott's pi fleiss.kappa.raw (each rater's marginals over
    # the units it rated; quadratic: 0.7772 and 0.7673, irrCAC's values)
    data = gwet_table3_5()
    expected = IRRCAC[f"gwet2014_table3_5/{weights}"]
    extra = {} if weights == "identity" else {"weights": weights, "categories": ["A", "B", "C"]}
    cohen = a.cohen_kappa(data, layout="wide", marginals="gwet", **extra)
    scott = a.scott_pi(data, layout="wide", marginals="gwet", **extra)
    assert cohen["value"] == pytest.approx(expected["conger"]["coefficient_value"], abs=1e-9)
    assert scott["value"] == pytest.approx(expected["fleiss"]["coefficient_value"], abs=1e-9)
    # with the standard errors: conger_kappa and fleiss_kappa are irrCAC's functions themselves
    conger = a.conger_kappa(data, layout="wide", ci=0.95, **extra)
    fleiss = a.fleiss_kappa(data, layout="wide", ci=0.95, **extra)
    assert conger["value"] == pytest.approx(cohen["value"], abs=1e-12)
    assert fleiss["value"] == pytest.approx(scott["value"], abs=1e-12)
    assert conger["se"] == pytest.approx(expected["conger"]["se"], abs=1e-9)
    assert fleiss["se"] == pytest.approx(expected["fleiss"]["se"], abs=1e-9)


@pytest.mark.parametrize("weights", ["identity", "quadratic"])
def test_raw_percent_agreement(weights):
    # irrCAC pa.coeff.raw: the percent agreement p_a every raw function reports as "pa"
    expected = IRRCAC[f"raw4raters/{weights}"]["fleiss"]["pa"]
    ours = a.percent_agreement(irrcac_raw4raters(), layout="wide",
                               weights=None if weights == "identity" else weights)
    assert ours["value"] == pytest.approx(expected, abs=1e-9)
