"""docs/migrating.md, statsmodels.stats.inter_rater: fleiss_kappa, aggregate_raters, cohens_kappa
on the same data in statsmodels' shapes."""
from __future__ import annotations

import numpy as np
import pytest

import agreement_sql as a

from ._data import irrcac_distrib6

inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


def subjects_by_raters(seed: int = 3, n: int = 30, raters: int = 4, categories: int = 4):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, categories, size=(n, 1))
    noise = rng.integers(0, categories, size=(n, raters))
    keep = rng.random((n, raters)) < 0.7          # raters agree with the truth 70% of the time
    return np.where(keep, truth, noise)


def test_fleiss_kappa_from_a_counts_table():
    # statsmodels fleiss_kappa(table): a subject x category count table (Fleiss 1971)
    table = irrcac_distrib6().to_numpy()
    expected = inter_rater.fleiss_kappa(table)
    ours = a.fleiss_kappa(table, layout="counts")
    assert ours["value"] == pytest.approx(expected, abs=1e-12)
    # 15 subjects x 6 ratings: n_rows counts the ratings, the raters are the 6 per subject
    assert (ours["n_rows"], ours["n_ratings"], ours["n_raters"]) == (90, 90, 6)
    # read by its cells, each once with its count (docs/decisions/0022)
    assert [r["layout_cells"] for r in ours["route"]] == ["cells"]


def test_randolph_kappa_is_brennan_prediger():
    # fleiss_kappa(table, method="randolph"): chance agreement 1/q, Brennan & Prediger's
    table = irrcac_distrib6().to_numpy()
    expected = inter_rater.fleiss_kappa(table, method="randolph")
    assert a.brennan_prediger(table, layout="counts")["value"] == pytest.approx(expected, abs=1e-12)


def test_aggregate_raters_output_as_it_is():
    # aggregate_raters(data) returns (counts, categories); either the raw subjects x raters
    # data (layout="wide") or aggregate_raters' tuple (layout="counts") gives fleiss_kappa's
    data = subjects_by_raters()
    counts, categories = inter_rater.aggregate_raters(data)
    expected = inter_rater.fleiss_kappa(counts)
    wide = a.fleiss_kappa(data, layout="wide", orientation="units_x_raters")
    aggregated = a.fleiss_kappa((counts, categories), layout="counts")
    assert wide["value"] == pytest.approx(expected, abs=1e-12)
    assert aggregated["value"] == pytest.approx(expected, abs=1e-12)
    assert wide["n_ratings"] == aggregated["n_ratings"] == data.size


@pytest.mark.parametrize("wt", [None, "linear", "quadratic"])
def test_cohens_kappa_from_a_contingency_table(wt):
    # cohens_kappa(table, wt=...): rows rater A, columns rater B, categories 0..k-1; statsmodels'
    # standard errors are Fleiss, Cohen & Everitt's (the package's default)
    table = np.array([[22, 5, 1], [4, 30, 6], [2, 7, 23]])
    res = inter_rater.cohens_kappa(table, wt=wt)
    weights = {None: None, "linear": "linear", "quadratic": "quadratic"}[wt]
    ours = a.cohen_kappa(table, layout="table", weights=weights, ci=0.95)
    assert ours["value"] == pytest.approx(res.kappa, abs=1e-12)
    assert ours["se"] == pytest.approx(res.std_kappa, rel=1e-9)
    assert ours["se0"] == pytest.approx(res.std_kappa0, rel=1e-9)
    assert ours["raters"] == ["A", "B"]
    assert ours["n_items"] == table.sum()
    assert ours["n_rows"] == 2 * table.sum()           # two ratings per unit
    # read by its cells, each one unit of weight n (docs/decisions/0022)
    assert [r["layout_cells"] for r in ours["route"]] == ["cells"]


def test_cohens_kappa_asymmetric_weights_keep_their_orientation():
    # cohens_kappa(table, weights=W) with W asymmetric (a disagreement-weight matrix, as
    # statsmodels' wt=None with weights=...: 0 on the diagonal); agreement weights are 1 - W / max
    table = np.array([[22, 9, 1], [2, 30, 8], [1, 3, 23]])
    disagreement = np.array([[0.0, 1.0, 1.0], [3.0, 0.0, 1.0], [3.0, 3.0, 0.0]])
    res = inter_rater.cohens_kappa(table, weights=disagreement)
    agreement = 1.0 - disagreement / disagreement.max()
    ours = a.cohen_kappa(table, layout="table", weights=agreement.tolist(), categories=[0, 1, 2])
    assert ours["value"] == pytest.approx(res.kappa, abs=1e-12)
    assert "rows are rater A" in ours["conventions"]["weights"]
    # the same matrix on the transposed table (raters swapped) is another number, statsmodels' too
    transposed = a.cohen_kappa(table.T, layout="table", weights=agreement.tolist(),
                               categories=[0, 1, 2])
    swapped = inter_rater.cohens_kappa(table.T, weights=disagreement).kappa
    assert transposed["value"] == pytest.approx(swapped, abs=1e-12)
    assert abs(swapped - res.kappa) > 0.1
