"""Property: however the ratings are cut into batches, the merged state gives the coefficients
of all the ratings at once (docs/decisions/0029). Generated ratings: up to 12 units, 5 raters,
values from a small scale with some missing; a random day for each rating. The oracle is the
one-pass computation on the whole table (its values are pinned by the peer suites)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agreement_sql as ag
from coefficients._forms import close

from .test_batches import RATER_FREE, _strip
from _budget import examples

cell = st.one_of(st.none(), st.sampled_from(["1", "2", "3", "4"]))
ratings = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 4), cell, st.integers(0, 4)),
                   min_size=2, max_size=60, unique_by=lambda r: (r[0], r[1]))


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rows=ratings, with_raters=st.booleans(), level=st.sampled_from(["nominal", "interval"]))
def test_any_split_into_batches_merges_to_the_whole(rows, with_raters, level):
    table = pa.table({"item": [f"u{r[0]}" for r in rows], "rater": [f"r{r[1]}" for r in rows],
                      "value": [r[2] for r in rows]})
    which = None if with_raters else RATER_FREE
    try:
        expected = ag.coefficients(table, which=which, level=level)
    except ag.AgreementError as exc:      # no rating at all: the state is refused alike
        expected = type(exc)
    with tempfile.TemporaryDirectory() as folder:
        states = []
        for day in sorted({r[3] for r in rows}):
            kept = [i for i, r in enumerate(rows) if r[3] == day]
            path = str(Path(folder) / f"s{day}.parquet")
            ag.summarize(table.take(pa.array(kept)), to=path, with_raters=with_raters)
            states.append(path)
        merged = str(Path(folder) / "merged.parquet")
        summary = ag.merge_states(states, to=merged)
        assert summary["n_rows"] == len(rows)
        try:
            got = ag.coefficients(merged, which=which, level=level)
        except ag.AgreementError as exc:
            got = type(exc)
    if isinstance(expected, type) or isinstance(got, type):
        assert got is expected
        return
    drop = () if with_raters else ("n_raters",)
    close(_strip(got, drop), _strip(expected, drop))
