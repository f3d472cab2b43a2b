"""A rendering sees no data, so it must match categories whatever they are: numbers, labels or
both. Each registry coefficient's DuckDB rendering, run by hand as printed, gives the API's value
on generated tables of labels, of numbers and of both (the API profiles the data first and is
the oracle here; the rendering once matched categories on their number only, so every label was
one category: Fleiss' kappa 0.358 for the API's 0.027 on a yes/no/maybe table)."""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.registry import REGISTRY
from _budget import examples

from .by_hand import run_by_hand

LABELS = ["yes", "no", "maybe", "1", "2", "3"]      # "1" read as the number 1, "yes" as a label


@st.composite
def tables(draw):
    values = draw(st.sampled_from([LABELS[:3], LABELS[3:], LABELS]))
    n_items, n_raters = draw(st.integers(4, 12)), draw(st.integers(2, 4))
    rows = [(f"i{i}", f"r{r}", draw(st.sampled_from(values)))
            for i in range(n_items) for r in range(n_raters)]
    return pa.table({"item": [a for a, _, _ in rows], "rater": [b for _, b, _ in rows],
                     "value": [c for *_, c in rows]})


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(REGISTRY))
@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(table=tables())
def test_a_rendering_matches_categories_as_the_api_does(name, table):
    kwargs = {"level": "nominal"} if name == "krippendorff_alpha" else {}
    if name in ("cohen_kappa", "bangdiwala_b") and len(set(table["rater"].to_pylist())) != 2:
        table = table.filter(pa.compute.is_in(table["rater"], pa.array(["r0", "r1"])))
    try:
        expected = getattr(ag, name)(table, **kwargs)["value"]
    except ag.errors.AgreementError:
        return                                  # the API refuses it; nothing to compare
    con = duckdb.connect()
    con.register("source", table)
    con.execute("CREATE TABLE ratings AS SELECT * FROM source")
    rows = run_by_hand(con, ag.render(name, **kwargs))
    got = next(r["value"] for r in rows if r.get("coefficient", name) == name)
    if expected is None:
        assert got is None
    else:
        assert got == pytest.approx(expected, abs=1e-12)
