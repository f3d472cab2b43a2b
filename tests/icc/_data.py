"""Shared data of the issue-14 tests (continuous scores and planning)."""
from __future__ import annotations

import pyarrow as pa

# Shrout & Fleiss (1979), Psychological Bulletin 86(2), Table 2: 6 targets rated by 4 judges
SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def long_table(matrix, *, rater_prefix: str = "j", **extra) -> pa.Table:
    """items x raters (None = missing) as a long Arrow table (item, rater, value[, extra])."""
    rows = {"item": [], "rater": [], "value": []}
    for i, row in enumerate(matrix):
        for j, x in enumerate(row):
            if x is not None:
                rows["item"].append(i + 1)
                rows["rater"].append(f"{rater_prefix}{j + 1}")
                rows["value"].append(float(x))
    table = pa.table(rows)
    for name, value in extra.items():
        table = table.append_column(name, pa.array([value] * table.num_rows))
    return table
