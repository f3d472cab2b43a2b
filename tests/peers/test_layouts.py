"""The peers' layouts (docs/migrating.md): each is turned into the canonical long ratings by one adapter in
SQL (sql/_ratings.sql.j2), so a wide, counts or contingency table gives the numbers of the same
ratings as long rows, with the accounting n_rows = n_ratings + sum(n_excluded) (n_rows counts
cells for wide, ratings for counts and tables)."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import agreement_sql as a

from ._data import PEERS, REFERENCE, gwet_table3_5, irrcac_cont3x3, irrcac_distrib6
from conftest import as_any_format


def long_of(wide: pd.DataFrame) -> pd.DataFrame:
    out = wide.rename_axis("item").reset_index().melt(id_vars="item", var_name="rater",
                                                     value_name="value")
    return out.dropna(subset=["value"])


def balanced(result: dict) -> bool:
    return result["n_rows"] == result["n_ratings"] + sum(result["n_excluded"].values())


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_wide_equals_long_for_every_coefficient():
    wide = gwet_table3_5()
    long = long_of(wide)
    for name in ("cohen_kappa", "scott_pi", "fleiss_kappa", "gwet_ac1", "conger_kappa",
                 "brennan_prediger", "percent_agreement", "krippendorff_alpha"):
        function = getattr(a, name)
        extra = {"level": "nominal"} if name == "krippendorff_alpha" else {}
        w, l = function(wide, layout="wide", **extra), function(long, **extra)
        assert w["value"] == pytest.approx(l["value"], abs=1e-12), name
        assert w["n_ratings"] == l["n_ratings"], name
        # the wide table has 22 cells, 3 of them empty: 3 missing more than the long rows
        assert w["n_rows"] == 22 and w["n_excluded"]["missing"] == 3 and balanced(w), name


def test_wide_accounting_and_row_position_units():
    wide = gwet_table3_5().reset_index(drop=True)          # no unit column: rows are units 0..10
    result = a.cohen_kappa(wide, layout="wide")
    assert result["n_rows"] == 22 and result["n_ratings"] == 16
    assert result["n_excluded"] == {"missing": 3, "placeholder": 0, "duplicate": 0,
                                    "outside_pair": 3}
    assert "layout 'wide'" in result["conventions"]["layout"]


def test_wide_item_and_rater_columns():
    frame = pd.DataFrame({"unit": ["u1", "u2", "u3", "u4"], "note": ["x", "y", "z", "w"],
                          "ann": [1, 2, 3, 1], "bob": [1, 2, 2, 1], "cy": [2, 2, 3, 1]})
    chosen = a.cohen_kappa(frame, layout="wide", item="unit", rater_columns=["ann", "bob"])
    assert chosen["raters"] == ["ann", "bob"]
    long = pd.DataFrame({"item": ["u1", "u2", "u3", "u4"] * 2, "rater": ["ann"] * 4 + ["bob"] * 4,
                         "value": [1, 2, 3, 1, 1, 2, 2, 1]})
    assert chosen["value"] == pytest.approx(a.cohen_kappa(long)["value"], abs=1e-12)
    # every other column is a rater unless named: "note" would be a rater with text labels
    with pytest.raises(a.ColumnError, match="'nobody' not found"):
        a.cohen_kappa(frame, layout="wide", item="unit", rater_columns=["ann", "nobody"])


def test_wide_placeholders_from_a_file(tmp_path):
    # irrCAC reads "" as no rating; krippendorff's users write "*": missing= for every layout
    path = tmp_path / "wide.csv"
    path.write_text("unit,r1,r2,r3\n1,a,a,*\n2,b,*,b\n3,a,b,NA\n4,c,c,c\n", encoding="utf-8")
    result = a.fleiss_kappa(str(path), layout="wide", item="unit", missing=["*", "NA"])
    assert (result["n_rows"], result["n_ratings"]) == (12, 9)
    assert result["n_excluded"]["placeholder"] == 3 and balanced(result)


def test_counts_layout_accounting():
    table = irrcac_distrib6()
    result = a.fleiss_kappa(table, layout="counts")
    # 15 units x 6 raters: the cells add up to 90 ratings; anonymous raters, 6 per unit
    assert (result["n_rows"], result["n_ratings"], result["n_raters"]) == (90, 90, 6)
    assert balanced(result) and "layout 'counts'" in result["conventions"]["layout"]
    # the same as long rows with made-up rater names
    rows = [(unit, f"r{k}", category) for unit, row in table.iterrows()
            for category in table.columns for k in range(int(row[category]))]
    long = pd.DataFrame(rows, columns=["item", "rater", "value"])
    long["rater"] = long.groupby("item").cumcount().astype(str)
    assert result["value"] == pytest.approx(a.fleiss_kappa(long)["value"], abs=1e-12)


def test_counts_layout_refuses_rater_identity():
    table = irrcac_distrib6()
    for function in (a.cohen_kappa, a.scott_pi, a.conger_kappa, a.icc, a.rater_diagnostics):
        with pytest.raises(a.OptionError, match="anonymous raters"):
            function(table, layout="counts")
    with pytest.raises(a.OptionError, match="conger_kappa needs to know which rater"):
        a.coefficients(table, layout="counts", which=["fleiss", "conger"])
    # by default coefficients() gives the rater-free ones
    assert set(a.coefficients(table, layout="counts")) == {
        "fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement", "krippendorff_alpha"}


def test_counts_cells_must_be_counts():
    frame = pd.DataFrame({"yes": [2, 1, 0], "no": [0, 1.5, 2]})
    with pytest.raises(a.InvalidRatingError, match=r"row 1 \(from 0\) column 'no', is '1.5'"):
        a.fleiss_kappa(frame, layout="counts")
    # NULL and NaN count 0
    holes = pd.DataFrame({"yes": [2, 1, None], "no": [0, np.nan, 2]})
    assert a.fleiss_kappa(holes, layout="counts")["n_ratings"] == 5


def test_table_layout_from_index_column_and_position():
    table = irrcac_cont3x3()
    by_index = a.cohen_kappa(table, layout="table")              # pandas index: the row category
    by_column = a.cohen_kappa(table.reset_index(), layout="table", item="category")
    by_position = a.cohen_kappa(table.to_numpy(), layout="table")   # square: row i is column i
    assert by_index["value"] == pytest.approx(by_column["value"], abs=1e-15)
    assert by_index["value"] == pytest.approx(by_position["value"], abs=1e-15)
    assert (by_index["n_rows"], by_index["n_ratings"], by_index["n_items"]) == (200, 200, 100)
    assert by_index["raters"] == ["A", "B"]
    with pytest.raises(a.SourceError, match="must be square"):
        a.cohen_kappa(table.to_numpy()[:2], layout="table")


def test_arrays_need_an_orientation():
    data = np.array([[1, 2, 3], [1, 2, 2]])
    with pytest.raises(a.OptionError, match="orientation="):
        a.krippendorff_alpha(data, layout="wide")
    with pytest.raises(a.OptionError, match="NumPy array has no column names"):
        a.krippendorff_alpha(data)
    by_rows = a.krippendorff_alpha(data, layout="wide", orientation="raters_x_units", level="nominal")
    by_cols = a.krippendorff_alpha(data.T, layout="wide", orientation="units_x_raters", level="nominal")
    assert by_rows["value"] == by_cols["value"] and by_rows["n_items"] == 3


def test_layout_keyword_checks():
    frame = pd.DataFrame({"r1": [1, 2], "r2": [1, 2]})
    with pytest.raises(a.OptionError, match="layout must be one of"):
        a.fleiss_kappa(frame, layout="square")
    with pytest.raises(a.OptionError, match="rater_columns= names the rater columns"):
        a.fleiss_kappa(frame, layout="counts", rater_columns=["r1"])
    with pytest.raises(a.OptionError, match="rater= names the rater column of long rows"):
        a.fleiss_kappa(frame, layout="wide", rater="r1")


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_every_public_function_takes_a_layout():
    wide = pd.DataFrame({"unit": range(6), "ann": [1, 2, 3, 4, 5, 3], "bob": [1, 2, 4, 4, 5, 2],
                         "cy": [2, 2, 3, 5, 5, 3]})
    long = wide.melt(id_vars="unit", var_name="rater", value_name="value")
    same = [
        (a.pairwise_agreement, {}), (a.human_agreement, {}), (a.icc, {"form": "ICC2"}),
        (a.irr, {}), (a.concordance, {"raters": ["ann", "bob"]}),
        (a.bland_altman, {"raters": ["ann", "bob"]}), (a.judge_agreement, {}),
        (a.achieved_precision, {"coefficient": "fleiss_kappa", "target_width": 0.2}),
        (a.report, {}),
    ]
    for function, extra in same:
        from_wide = function(wide, layout="wide", item="unit", **extra)
        from_long = function(long, item="unit", **extra)
        # no cell is empty: the 18 cells are the 18 long rows, and every number is the same
        # (the long table's whole-number units may be grouped as they are: as_any_format)
        assert as_any_format(from_wide) == as_any_format(from_long), function
    assert as_any_format(a.rater_diagnostics(wide, layout="wide", item="unit")) \
        == as_any_format(a.rater_diagnostics(long, item="unit"))


@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_cli_layout_wide_and_counts(tmp_path):
    wide = PEERS / "gwet2014_table3_5.csv"
    out = subprocess.run([sys.executable, "-m", "agreement_sql", "cohen-kappa", str(wide),
                          "--layout", "wide", "--item", "Units", "--weights", "quadratic",
                          "--categories", "A,B,C", "--marginals", "gwet"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    # Gwet (2014) Example 3.2, Gwet's convention: 0.7772 (irrCAC conger.kappa.raw)
    assert round(result["value"], 4) == 0.7772 and result["n_rows"] == 22
    counts = PEERS / "irrcac_distrib6raters.csv"
    out = subprocess.run([sys.executable, "-m", "agreement_sql", "coefficients", str(counts),
                          "--layout", "counts", "--item", "Units"],
                         capture_output=True, text=True, check=True)
    found = json.loads(out.stdout)
    assert set(found) == {"fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
                          "krippendorff_alpha"}
    out = subprocess.run([sys.executable, "-m", "agreement_sql", "fleiss-kappa", str(wide),
                          "--layout", "wide", "--rater-column", "Rater1", "--rater-column",
                          "Rater2", "--item", "Units"], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["n_raters"] == 2
