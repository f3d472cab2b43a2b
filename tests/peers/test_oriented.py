"""docs/migrating.md, issue #29 point 7: an asymmetric ("oriented") weight matrix for Gwet's AC2,
Brennan-Prediger and percent agreement on two raters' contingency table, as irrCAC's *.table
functions compute them (asymmetric_weights="oriented": rows the first rater's categories).

Source of the documented number: the Python irrCAC 0.4.4 documentation
(afergadis/irrCAC docs/source/usage/usage_table_data.ipynb, "To use custom weights"):
CAC(table_cont3x3abstractors(), weights=[[1, .75, 0], [.75, 1, 0], [0, .75, 1]]).bp() gives
0.808, confidence interval (0.68557, 0.93043), z 13.09482, se 0.0617, pa 0.92, pe 0.58333.
Gwet's AC2 and percent agreement are compared with irrCAC's table formulas transcribed
(irrCAC/table.py gwet() and pa2(); an independent oracle in numpy).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import agreement_sql as a

from ._data import irrcac_cont3x3

W = [[1.0, 0.75, 0.0], [0.75, 1.0, 0.0], [0.0, 0.75, 1.0]]


def _table_oracle(table: np.ndarray, w: np.ndarray) -> dict[str, tuple[float, float]]:
    """irrCAC/table.py's gwet(), bp() and pa2() (value, se), transcribed."""
    n, q = table.sum(), len(table)
    p = table / n
    pa = float(np.sum(w * p))
    pk, pl = p.sum(axis=1), p.sum(axis=0)
    pi = (pk + pl) / 2
    tw = w.sum()
    out = {}
    pe = tw * np.sum(pi * (1 - pi)) / (q * (q - 1))
    ac = (pa - pe) / (1 - pe)
    s = sum(p[k, l] * (w[k, l] - 2 * (1 - ac) * tw * (1 - (pi[k] + pi[l]) / 2) / (q * (q - 1))) ** 2
            for k in range(q) for l in range(q))
    out["gwet"] = (ac, np.sqrt((s - (pa - 2 * (1 - ac) * pe) ** 2) / (n * (1 - pe) ** 2)))
    pe = tw / q ** 2
    out["bp"] = ((pa - pe) / (1 - pe), np.sqrt((np.sum(p * w ** 2) - pa ** 2) / (n * (1 - pe) ** 2)))
    out["pa"] = (pa, np.sqrt((np.sum(p * w ** 2) - pa ** 2) / n))
    return out


def _oriented(function, table, weights, **extra):
    return function(table, layout="table", weights=weights, categories=list(table.columns),
                    asymmetric_weights="oriented", ci=0.95, variance="irrcac_table", **extra)


def test_irrcac_documented_custom_weights():
    result = _oriented(a.brennan_prediger, irrcac_cont3x3(), W, inference="irrcac")
    assert round(result["value"], 5) == 0.808
    assert round(result["se"], 4) == 0.0617
    assert (round(result["ci_low"], 5), round(result["ci_high"], 5)) == (0.68557, 0.93043)
    assert round(result["z"], 5) == 13.09482
    assert (round(result["observed_agreement"], 5), round(result["chance_agreement"], 5)) == \
        (0.92, 0.58333)
    assert "kept in its orientation" in result["conventions"]["weights"]


@pytest.mark.parametrize("name,function", [("gwet", a.gwet_ac1), ("bp", a.brennan_prediger),
                                           ("pa", a.percent_agreement)])
def test_table_formulas(name, function):
    table = irrcac_cont3x3()
    value, se = _table_oracle(table.to_numpy(dtype=float), np.array(W))[name]
    result = _oriented(function, table, W)
    assert result["value"] == pytest.approx(value, abs=1e-12)
    assert result["se"] == pytest.approx(se, rel=1e-10)


def test_orientation_matters_and_the_transpose_swaps_it():
    # the same matrix on the transposed table (raters swapped) is another number; the
    # transposed matrix on the transposed table is the same one
    table = irrcac_cont3x3()
    flipped = table.T
    flipped.index.name = "category"
    plain = _oriented(a.brennan_prediger, table, W)
    swapped = _oriented(a.brennan_prediger, flipped, W)
    both = _oriented(a.brennan_prediger, flipped, np.array(W).T.tolist())
    assert abs(plain["value"] - swapped["value"]) > 0.01
    assert both["value"] == pytest.approx(plain["value"], abs=1e-12)
    assert both["se"] == pytest.approx(plain["se"], rel=1e-12)


@pytest.mark.slow
def test_a_symmetric_matrix_gives_the_units_based_numbers():
    # on complete two-rater data a symmetric matrix gives the same numbers either way
    table = irrcac_cont3x3()
    quadratic = [[1.0, 0.75, 0.0], [0.75, 1.0, 0.75], [0.0, 0.75, 1.0]]
    for function in (a.gwet_ac1, a.brennan_prediger, a.percent_agreement):
        oriented = _oriented(function, table, quadratic)
        plain = function(table, layout="table", weights=quadratic, categories=list(table.columns),
                         ci=0.95, variance="irrcac_table")
        for key in ("value", "se", "observed_agreement", "chance_agreement"):
            assert oriented[key] == pytest.approx(plain[key], abs=1e-12), (function, key)


def test_refusals():
    table = irrcac_cont3x3()
    with pytest.raises(a.OptionError, match="fleiss_kappa takes no asymmetric_weights='oriented'"):
        a.fleiss_kappa(table, layout="table", weights=W, categories=list(table.columns),
                       asymmetric_weights="oriented")
    with pytest.raises(a.OptionError, match="applies to a weight matrix"):
        a.gwet_ac1(table, layout="table", weights="linear", asymmetric_weights="oriented")
    three = pd.DataFrame({"item": [1, 1, 1, 2, 2, 2], "rater": list("abcabc"),
                          "value": [1, 2, 1, 2, 2, 1]})
    with pytest.raises(a.OptionError, match="two raters' contingency table"):
        a.gwet_ac1(three, weights=[[1, 0.5], [0, 1]], categories=[1, 2],
                   asymmetric_weights="oriented")
    with pytest.raises(a.OptionError, match="pass which="):
        a.coefficients(table, layout="table", weights=W, categories=list(table.columns),
                       asymmetric_weights="oriented")
    both = a.coefficients(table, layout="table", weights=W, categories=list(table.columns),
                          asymmetric_weights="oriented", which=["bp", "cohen"])
    assert round(both["brennan_prediger"]["value"], 5) == 0.808
