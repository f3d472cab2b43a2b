"""Every published Cohen / Fleiss value in tests/reference/published.json, at its published precision.

Each expectation names its source (the same as published.json's "source" field). Values are
compared after rounding to the published number of decimals, as the publication printed them.
"""
from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa

from agreement_sql import cohen_kappa, coefficients, fleiss_kappa
from conftest import REFERENCE

PUBLISHED = json.loads((REFERENCE / "published.json").read_text(encoding="utf-8"))
WEIGHTS = {"cohen_kappa": None, "cohen_kappa[w=linear]": "linear",
           "cohen_kappa[w=quadratic]": "quadratic"}


def _cases(prefix: str):
    for dataset, entry in PUBLISHED.items():
        for published in entry["published"]:
            if published["metric"].startswith(prefix):
                yield pytest.param(dataset, entry, published,
                                   id=f"{dataset}-{published['metric']}-{published['decimals']}dp")


def _same(actual: float, published: float, decimals: int) -> None:
    assert round(actual, decimals) == pytest.approx(published, abs=10 ** -(decimals + 3)), \
        f"{actual!r} does not round to {published} at {decimals} decimals"


@pytest.mark.parametrize("dataset,entry,published", list(_cases("cohen_kappa")))
def test_cohen_kappa_published(dataset, entry, published):
    # Sources: sklearn test_cohen_kappa (0.9315 / 0.9412 / 0.9541 and Artstein & Poesio 2008
    # Table 1, 0.348); SAS PROC FREQ AGREE printout in statsmodels TestUnweightedCohens /
    # TestWeightedCohens (0.4842 se 0.1380 CI 0.2137..0.7547; linear 0.4701 se 0.1457
    # CI 0.1845..0.7558); the test of kappa = 0 from the same printout (Fleiss, Cohen & Everitt
    # 1969 null SE): se0 0.1484, z 3.2626, Pr > Z 0.0006, Pr > |Z| 0.0011; linear se0 0.1426,
    # z 3.2971, 0.0005, 0.0010.
    weights = WEIGHTS[published["metric"]]
    result = cohen_kappa(REFERENCE / entry["csv"], weights=weights, ci=0.95)
    assert result["coefficient"] == "cohen_kappa"
    _same(result["value"], published["value"], published["decimals"])
    for key in ("se", "ci_low", "ci_high", "se0", "z", "p_one_sided", "p_value"):
        if key in published:
            _same(result[key], published[key], published["decimals"])


@pytest.mark.parametrize("dataset,entry,published", list(_cases("fleiss_kappa")))
def test_fleiss_kappa_published(dataset, entry, published):
    # Sources: Fleiss (1971) Psychological Bulletin 76(5), 0.430 (30 subjects x 6 raters);
    # statsmodels test_fleiss_kappa_irr (R irr kappam.fleiss), 0.4302445; Wikipedia's Fleiss'
    # kappa worked example (P-bar 0.378, Pe-bar 0.213), 0.210.
    result = fleiss_kappa(REFERENCE / entry["csv"])
    assert result["coefficient"] == "fleiss_kappa"
    _same(result["value"], published["value"], published["decimals"])


def test_wikipedia_fleiss_terms():
    # Wikipedia, Fleiss' kappa worked example: P-bar = 0.378, Pe-bar = 0.213 (3 decimals)
    result = fleiss_kappa(REFERENCE / "wikipedia_fleiss_10x14.csv")
    _same(result["observed_agreement"], 0.378, 3)
    _same(result["chance_agreement"], 0.213, 3)


def test_sas_weighted_kappa_uses_values_or_positions_alike():
    # SAS uses Cicchetti-Allison weights on scores 0, 1, 2; the data's values are 1, 2, 3, an
    # equal spacing, so value- and position-based weights agree (0.4701, se 0.1457).
    path = REFERENCE / "sas_kappa_3x3.csv"
    by_value = cohen_kappa(path, weights="linear", ci=0.95)
    by_position = cohen_kappa(path, weights="linear", weight_basis="position", ci=0.95)
    assert by_value["value"] == pytest.approx(by_position["value"], abs=1e-12)
    assert by_value["se"] == pytest.approx(by_position["se"], abs=1e-12)


@pytest.mark.slow
def test_coefficients_reproduce_the_same_published_values():
    # one statement, several coefficients: SAS 0.4842 (se 0.1380) and Fleiss (1971) 0.430
    sas = coefficients(REFERENCE / "sas_kappa_3x3.csv", ci=0.95)
    _same(sas["cohen_kappa"]["value"], 0.4842, 4)
    _same(sas["cohen_kappa"]["se"], 0.138, 4)
    fleiss = coefficients(REFERENCE / "fleiss1971_diagnoses_30x6.csv", which=["fleiss_kappa"])
    _same(fleiss["fleiss_kappa"]["value"], 0.4302445, 7)


def test_coefficients_alpha_matches_krippendorff_2011():
    # Krippendorff (2011) sec. C: nominal 0.743, interval 0.849, from the shared alpha partial
    path = REFERENCE / "krippendorff2011_4x12.csv"
    _same(coefficients(path, which=["krippendorff_alpha"])["krippendorff_alpha"]["value"], 0.743, 3)
    _same(coefficients(path, which=["krippendorff_alpha"], level="interval")
          ["krippendorff_alpha"]["value"], 0.849, 3)


def test_light_kappa_on_fleiss_diagnoses():
    # R irr kappam.light(diagnoses): Light's kappa 0.459 (the mean of the 15 pairwise kappas)
    result = cohen_kappa(REFERENCE / "fleiss1971_diagnoses_30x6.csv")
    assert result["coefficient"] == "light_kappa"
    assert result["n_pairs"] == 15
    _same(result["value"], 0.459, 3)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_null_test_matches_statsmodels(seed, weights):
    # statsmodels cohens_kappa: std_kappa0, z_value, pvalue_one_sided, pvalue_two_sided (exact
    # normal tail); ours uses Abramowitz & Stegun 26.2.17 (error < 7.5e-8), so 1e-6.
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    n = int(rng.integers(15, 60))
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    table = np.zeros((k, k))
    np.add.at(table, (a, b), 1)
    expected = sm_cohens_kappa(table, wt=weights)
    data = pa.table({"item": [i for i in range(n) for _ in (0, 1)],
                     "rater": ["A", "B"] * n,
                     "value": [float(v) for pair in zip(a, b) for v in pair]})
    result = cohen_kappa(data, weights=weights, categories=list(range(k)), ci=0.95)
    assert result["value"] == pytest.approx(expected.kappa, abs=1e-9)
    assert result["se0"] == pytest.approx(expected.std_kappa0, abs=1e-9)
    assert result["z"] == pytest.approx(expected.z_value, abs=1e-6)
    assert result["p_one_sided"] == pytest.approx(expected.pvalue_one_sided, abs=1e-6)
    assert result["p_value"] == pytest.approx(expected.pvalue_two_sided, abs=1e-6)


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_cohen_null_test_with_ci_for_two_raters_only():
    # Light's kappa has no null SE; without ci= there is no test; the bootstrap gives the same
    # test, computed on the observed data (SAS 3x3: se0 0.1484, p 0.0011)
    light = cohen_kappa(REFERENCE / "fleiss1971_diagnoses_30x6.csv", ci=0.95, n_boot=20)
    assert all(light[key] is None for key in ("se0", "z", "p_one_sided", "p_value"))
    plain = cohen_kappa(REFERENCE / "sas_kappa_3x3.csv")
    assert "se0" not in plain and "p_value" not in plain
    analytic = cohen_kappa(REFERENCE / "sas_kappa_3x3.csv", ci=0.95)
    boot = cohen_kappa(REFERENCE / "sas_kappa_3x3.csv", ci=0.95, ci_method="bootstrap", n_boot=20)
    for key in ("se0", "z", "p_one_sided", "p_value"):
        assert boot[key] == pytest.approx(analytic[key], rel=1e-12, abs=1e-12), key
    boot_all = coefficients(REFERENCE / "sas_kappa_3x3.csv", ci=0.95, ci_method="bootstrap",
                            n_boot=20)["cohen_kappa"]
    _same(boot_all["se0"], 0.1484, 4)
    sas = coefficients(REFERENCE / "sas_kappa_3x3.csv", ci=0.95)["cohen_kappa"]
    _same(sas["se0"], 0.1484, 4)
    _same(sas["p_value"], 0.0011, 4)
