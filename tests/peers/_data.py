"""The peers' reference data in their own shapes (tests/reference/peers, tests/reference)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

REFERENCE = Path(__file__).resolve().parent.parent / "reference"
PEERS = REFERENCE / "peers"
# values computed with irrCAC 0.4.4 (Python) on these files (tests/reference/README.md)
IRRCAC = json.loads((PEERS / "irrcac_0.4.4.json").read_text(encoding="utf-8"))["cases"]


def krippendorff2011() -> np.ndarray:
    """Krippendorff (2011) sec. C, 4 observers x 12 units, as krippendorff's reliability_data:
    a row per observer, NaN for no rating (tests/reference/krippendorff2011_4x12.csv)."""
    long = pd.read_csv(REFERENCE / "krippendorff2011_4x12.csv")
    wide = long.pivot(index="rater", columns="item", values="value")
    return wide.to_numpy(dtype=float)


def grrrr_rows() -> list[list[str]]:
    """The data of grrrr/krippendorff-alpha's example, as its script builds it: three coders'
    lines split on spaces, "*" for no rating (Wikipedia's Krippendorff's alpha example)."""
    lines = (PEERS / "grrrr_alpha_3x15.txt").read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line.strip()]


def gwet_table3_5() -> pd.DataFrame:
    """Gwet (2014) Table 3.5 (Example 3.2): 11 units, 2 raters, categories A < B < C."""
    return pd.read_csv(PEERS / "gwet2014_table3_5.csv", index_col="Units", dtype=str,
                       keep_default_na=False).replace("", None)


def irrcac_raw4raters() -> pd.DataFrame:
    return pd.read_csv(PEERS / "irrcac_raw4raters.csv", index_col="Units")


def irrcac_cont3x3() -> pd.DataFrame:
    return pd.read_csv(PEERS / "irrcac_cont3x3abstractors.csv", index_col="category")


def irrcac_distrib6() -> pd.DataFrame:
    return pd.read_csv(PEERS / "irrcac_distrib6raters.csv", index_col="Units")
