"""docs/migrating.md, pingouin.intraclass_corr -> agreement_sql.icc: long data as it is, and the
same ratings as a wide table."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import agreement_sql as a

pg = pytest.importorskip("pingouin")


def wine():
    # pingouin's documented example layout: targets x raters scores, long
    rng = np.random.default_rng(11)
    quality = rng.normal(5, 2, size=(12, 1))
    scores = np.round(quality + rng.normal(0, 1, size=(12, 4)) + np.array([0, 0.5, -0.3, 0.2]), 1)
    wide = pd.DataFrame(scores, columns=["J1", "J2", "J3", "J4"])
    wide.insert(0, "wine", [f"w{i}" for i in range(12)])
    long = wide.melt(id_vars="wine", var_name="judge", value_name="score")
    return wide, long


def test_intraclass_corr_all_forms():
    wide, long = wine()
    expected = pg.intraclass_corr(data=long, targets="wine", raters="judge", ratings="score")
    ours = a.icc(long, item="wine", rater="judge", value="score")
    from_wide = a.icc(wide, item="wine", layout="wide")
    # pingouin lists ICC(1,1), ICC(A,1), ICC(C,1), ICC(1,k), ICC(A,k), ICC(C,k): its ICC1 .. ICC3k
    assert [r["form"] for r in ours] == ["ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k"]
    assert [r["shrout_fleiss"] for r in ours][0] == expected["Type"][0] == "ICC(1,1)"
    for row, mine, other in zip(expected.to_dict("records"), ours, from_wide):
        assert mine["value"] == pytest.approx(row["ICC"], abs=1e-10)
        assert other["value"] == pytest.approx(row["ICC"], abs=1e-10)
        assert mine["f"] == pytest.approx(row["F"], rel=1e-10)
        assert mine["p_value"] == pytest.approx(row["pval"], rel=1e-6)
        # pingouin rounds its CI95 to 2 decimals
        assert [mine["ci_low"], mine["ci_high"]] == pytest.approx(list(row["CI95"]), abs=5e-3)
