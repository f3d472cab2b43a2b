"""Lin's concordance correlation against a numpy implementation of Lin (1989), and the
Bland-Altman bias and limits by hand."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from scipy import stats

from agreement_sql.errors import OptionError
from agreement_sql.metrics.concordance import bland_altman, concordance

from ._data import long_table


def lin(a: np.ndarray, b: np.ndarray, level: float = 0.95) -> dict:
    """Lin (1989) with the 2000 correction, as DescTools::CCC(ci = "z-transform") writes it."""
    n = len(a)
    sa2, sb2 = a.var(), b.var()                       # 1/n
    sab = ((a - a.mean()) * (b - b.mean())).mean()
    r = sab / math.sqrt(sa2 * sb2)
    rho = 2 * sab / (sa2 + sb2 + (a.mean() - b.mean()) ** 2)
    u = (a.mean() - b.mean()) / (sa2 * sb2) ** 0.25
    var_z = ((1 - r * r) * rho ** 2 / ((1 - rho ** 2) * r * r)
             + 2 * rho ** 3 * (1 - rho) * u * u / (r * (1 - rho ** 2) ** 2)
             - rho ** 4 * u ** 4 / (2 * r * r * (1 - rho ** 2) ** 2)) / (n - 2)
    z = math.atanh(rho)
    q = stats.norm.ppf(0.5 + level / 2)
    return {"value": rho, "pearson_r": r, "bias_correction": rho / r, "z": z,
            "se_z": math.sqrt(var_z), "ci_low": math.tanh(z - q * math.sqrt(var_z)),
            "ci_high": math.tanh(z + q * math.sqrt(var_z))}


def _pair_table(a, b) -> pa.Table:
    """Rater "ann" gave a, rater "bob" gave b, item by item."""
    n = len(a)
    return pa.table({"item": list(range(n)) * 2, "rater": ["ann"] * n + ["bob"] * n,
                     "value": [float(x) for x in a] + [float(x) for x in b]})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ccc_matches_lin_formula(seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(50, 10, 40).round(1)
    b = (a * 0.9 + rng.normal(3, 4, 40)).round(1)
    ours = concordance(_pair_table(a, b))
    expected = lin(a, b)
    for key, value in expected.items():
        assert ours[key] == pytest.approx(value, rel=1e-9), key
    assert ours["raters"] == ["ann", "bob"] and ours["n_items"] == 40
    assert ours["mean_a"] == pytest.approx(a.mean()) and ours["ci_level"] == 0.95


def test_ccc_on_irr_anxiety_pair():
    from conftest import DATA
    frame = pd.read_csv(DATA / "irr" / "irr_anxiety_20x3.csv")
    wide = frame.pivot(index="item", columns="rater", values="value")
    ours = concordance(DATA / "irr" / "irr_anxiety_20x3.csv", raters=["rater1", "rater3"], ci=0.9)
    expected = lin(wide["rater1"].to_numpy(float), wide["rater3"].to_numpy(float), 0.9)
    assert ours["value"] == pytest.approx(expected["value"], rel=1e-12)
    assert ours["ci_low"] == pytest.approx(expected["ci_low"], rel=1e-9)
    assert ours["n_excluded"]["outside_pair"] == 20 and ours["n_ratings"] == 40


def test_unpaired_items_and_other_raters_are_counted():
    table = long_table([[1, 2, 9], [2, 3, None], [3, 3, 1], [4, None, 2], [5, 6, 1]])
    r = concordance(table, raters=["j1", "j2"])
    assert r["n_items"] == 4
    assert r["n_excluded"]["unpaired"] == 1 and r["n_excluded"]["outside_pair"] == 4
    assert r["n_rows"] == r["n_ratings"] + sum(r["n_excluded"].values())
    with pytest.raises(OptionError, match="name the two"):
        concordance(table)
    with pytest.raises(OptionError, match="rated nothing"):
        concordance(table, raters=["j1", "zed"])


def test_bland_altman_by_hand():
    a = np.array([10.0, 12.0, 9.0, 15.0, 11.0, 13.0])
    b = np.array([9.0, 12.5, 10.0, 13.0, 10.0, 12.0])
    d = a - b                                        # 1, -0.5, -1, 2, 1, 1
    bias, sd, n = d.mean(), d.std(ddof=1), len(d)
    z = stats.norm.ppf(0.975)
    t = stats.t.ppf(0.975, n - 1)
    r = bland_altman(_pair_table(a, b))
    assert r["bias"] == pytest.approx(bias) and r["sd_diff"] == pytest.approx(sd)
    assert (r["loa_low"], r["loa_high"]) == pytest.approx((bias - z * sd, bias + z * sd))
    assert r["bias_ci_low"] == pytest.approx(bias - t * sd / math.sqrt(n))
    se_limit = sd * math.sqrt(1 / n + z * z / (2 * (n - 1)))     # Bland & Altman 1999, 5.2
    assert r["loa_high_ci"] == pytest.approx([bias + z * sd - t * se_limit, bias + z * sd + t * se_limit])
    assert r["z"] == pytest.approx(1.959964, abs=1e-6) and r["raters"] == ["ann", "bob"]
    wider = bland_altman(_pair_table(a, b), limits=0.99)
    assert wider["loa_high"] > r["loa_high"]
    swapped = bland_altman(_pair_table(a, b), raters=["bob", "ann"])
    assert swapped["bias"] == pytest.approx(-bias)


def test_undefined_cases_are_none():
    constant = concordance(long_table([[3, 3], [3, 3], [3, 3]]))
    assert constant["value"] is None and constant["ci_low"] is None and constant["pearson_r"] is None
    perfect = concordance(long_table([[1, 1], [2, 2], [4, 4]]))
    assert perfect["value"] == pytest.approx(1.0) and perfect["ci_low"] is None
    two = concordance(long_table([[1, 2], [2, 4]]))
    assert two["value"] is not None and two["se_z"] is None
    one = bland_altman(long_table([[1, 2]]))
    assert one["bias"] == -1 and one["sd_diff"] is None and one["bias_ci_low"] is None


def test_slices():
    x = long_table([[1, 2], [2, 2], [3, 5], [4, 4]], metric="m1")
    y = long_table([[1, 1], [2, 3], [3, 3], [5, 4]], metric="m2")
    results = concordance(pa.concat_tables([x, y]), metric="metric")
    assert [r["metric"] for r in results] == ["m1", "m2"]
    assert results[1]["value"] == pytest.approx(concordance(y)["value"])
