"""docs/migrating.md, krippendorff (PyPI) and grrrr/krippendorff-alpha: the same data in the
peer's own shape gives the peer's number."""
from __future__ import annotations

import numpy as np
import pytest

import agreement_sql as a

from ._data import grrrr_rows, krippendorff2011

krippendorff = pytest.importorskip("krippendorff")

LEVELS = ("nominal", "ordinal", "interval", "ratio")


@pytest.mark.parametrize("level", LEVELS)
def test_alpha_from_reliability_data(level):
    # krippendorff.alpha(reliability_data=X) with X raters x units, NaN for no rating
    data = krippendorff2011()
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    ours = a.krippendorff_alpha(data, layout="wide", orientation="raters_x_units", level=level)
    assert ours["value"] == pytest.approx(expected, abs=1e-12)
    # 4 raters x 12 units = 48 cells, 41 ratings, the 7 NaN cells missing, 1 lone rating unpairable
    assert (ours["n_rows"], ours["n_ratings"]) == (48, 40)
    assert ours["n_excluded"] == {"missing": 7, "placeholder": 0, "duplicate": 0, "single_rated": 1}


@pytest.mark.parametrize("level", ("nominal", "interval"))
def test_alpha_from_value_counts(level):
    # krippendorff.alpha(value_counts=V): units x values, a cell the coders who chose the value;
    # here (V, values) as statsmodels' aggregate_raters returns a counts table
    data = krippendorff2011()
    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    counts = np.stack([(data == v).sum(axis=0) for v in values], axis=1)
    expected = krippendorff.alpha(value_counts=counts, value_domain=values,
                                  level_of_measurement=level)
    ours = a.krippendorff_alpha((counts, values), layout="counts", level=level)
    assert ours["value"] == pytest.approx(expected, abs=1e-12)


def test_grrrr_placeholder_is_missing_only_when_declared():
    # grrrr/krippendorff-alpha's example (Wikipedia's): its README prints "nominal metric:
    # 0.691" and "interval metric: 0.811" with missing_items='*'
    rows = grrrr_rows()
    nominal = a.krippendorff_alpha(rows, layout="wide", orientation="raters_x_units",
                                   level="nominal", missing="*")
    interval = a.krippendorff_alpha(rows, layout="wide", orientation="raters_x_units",
                                    level="interval", missing="*")
    assert round(nominal["value"], 3) == 0.691
    assert round(interval["value"], 3) == 0.811
    # 3 coders x 15 units = 45 cells, 18 of them "*": placeholders, not ratings
    assert (nominal["n_rows"], nominal["n_excluded"]["placeholder"]) == (45, 18)
    # not missing-aware, "*" is one more category: 0.235; krippendorff gives the same
    # number when "*" is coded as a value of its own
    unaware = a.krippendorff_alpha(rows, layout="wide", orientation="raters_x_units",
                                   level="nominal")
    coded = np.array([[99.0 if v == "*" else float(v) for v in row] for row in rows])
    assert round(unaware["value"], 3) == 0.235
    assert unaware["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=coded, level_of_measurement="nominal"), abs=1e-12)
    # and with NaN for no rating, as krippendorff wants it, the declared placeholder's number
    nan = np.where(coded == 99.0, np.nan, coded)
    assert nominal["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=nan, level_of_measurement="nominal"), abs=1e-12)
