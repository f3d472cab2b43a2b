"""Whole-number items grouped as they are give the answers of their id text (routes decision
``unit_keys``, docs/decisions/0014): a differential property test.

A long table whose item column holds whole numbers (Arrow int64: negative, zero, beyond 2^53,
the int64 extremes) takes the ``native`` alternative by default: the per-unit passes group the
column as it is and write each unit's id text once (sql/_units.sql.j2 ``unit_item``), where the
``text`` alternative makes the text of every rating and groups that. The two must agree on
every call, byte for byte but for the ``route`` record: the statistics (the same units), the
items a result names (irr's traces, the judges' points, a duplicate's error message) and every
join between per-unit rows and per-rating rows (rater_diagnostics, the pair coefficients), which
would drop units if the two texts differed. The oracle is the same table with its items given
as text, which never takes the native alternative.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import pyarrow as pa
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql import routes
from _budget import examples
from conftest import without_route

ITEMS = st.sampled_from([0, 1, 2, 7, 9, 10, 11, -1, -10, 2**53, 2**53 + 1, -(2**53) - 3,
                         2**63 - 1, -(2**63), 123456789012])


@st.composite
def tables(draw: Any) -> list[dict[str, Any]]:
    """Rows (item, rater, metric, value): a few items of whole numbers, three raters, Likert
    values; sometimes a rater rating an item twice (a duplicate the call refuses by name)."""
    items = draw(st.lists(ITEMS, min_size=2, max_size=6, unique=True))
    rows = []
    for item in items:
        for rater in ("a", "b", "c"):
            if draw(st.integers(0, 4)) == 0:
                continue
            rows.append({"item": item, "rater": rater, "metric": draw(st.sampled_from(["m1", "m2"])),
                         "value": draw(st.integers(1, 4))})
    if draw(st.integers(0, 5)) == 0 and rows:
        rows.append(dict(rows[0]))
    return rows


CALLS: dict[str, Callable[[Any], Any]] = {
    "coefficients": lambda t: ag.coefficients(t, metric="metric"),
    # the traces counted across questions (their units grouped by item_key), the flagged ones
    "irr": lambda t: ag.irr(t, item="item", rater="rater", metric="metric", value="value"),
    "alpha_interval": lambda t: ag.krippendorff_alpha(t, metric="metric", level="interval"),
    "cohen_ci": lambda t: ag.cohen_kappa(t, metric="metric", ci=0.95, ci_method="analytic"),
    "pairwise": lambda t: ag.pairwise_agreement(t, metric="metric"),
    "categories": lambda t: ag.category_agreement(t, metric="metric"),
    "diagnostics": lambda t: ag.rater_diagnostics(t, metric="metric"),
    "bootstrap": lambda t: ag.fleiss_kappa(t, metric="metric", ci=0.9, ci_method="bootstrap",
                                           n_boot=20),
}


def answer(call: Callable[[Any], Any], table: pa.Table) -> tuple[str, list[dict[str, str]]]:
    with routes.collecting() as log:
        try:
            result: Any = call(table)
        except Exception as exc:                    # a typed error is an answer too
            result = (type(exc).__name__, str(exc))
    return json.dumps(without_route(result), sort_keys=True, default=str), list(log)


@settings(max_examples=examples(15), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_whole_number_items_grouped_as_they_are_give_their_texts_answers(rows):
    assume(rows)
    numbers = pa.Table.from_pylist(rows)
    assert pa.types.is_int64(numbers.schema.field("item").type)
    texts = numbers.set_column(0, "item", pa.array([str(r["item"]) for r in rows]))
    for name, call in CALLS.items():
        native, log = answer(call, numbers)
        assert any(e.get("unit_keys") == "native" for e in log), (name, log)
        oracle, oracle_log = answer(call, texts)
        assert not any("unit_keys" in e for e in oracle_log), (name, oracle_log)
        with routes.forcing(unit_keys="text"):
            forced, forced_log = answer(call, numbers)
        assert any(e.get("unit_keys") == "text" for e in forced_log), (name, forced_log)
        assert native == oracle, f"{name}: native\n{native[:800]}\ntext items\n{oracle[:800]}"
        assert forced == oracle, f"{name}: forced text\n{forced[:800]}\ntext items\n{oracle[:800]}"
