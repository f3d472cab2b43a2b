"""Nothing the input holds vanishes from a result (issue #24 point 4, docs/decisions/0005).

A metric (or slice) whose every rating is missing, or in which no unit is rated twice, is in
the output of every call that reports per metric (or slice), its statistics null and its rows
counted in ``n_excluded``; the other metrics' results are the ones they have without it. The
tables are generated (hypothesis): the property is checked over random inputs, not a list.
"""
from __future__ import annotations

import json

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.metrics.functions import FUNCTIONS
from agreement_sql.registry import REGISTRY
from _budget import examples

SETTINGS = settings(max_examples=examples(5), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

# every public call that reports per metric: (call, where a metric's result is)
PER_METRIC = {
    **{name: (lambda t, f=f, **kw: f(t, metric="metric", **kw)) for name, f in FUNCTIONS.items()
       if not REGISTRY[name].two_raters},        # two raters only: the last test
    "coefficients": lambda t, **kw: ag.coefficients(t, metric="metric", **kw),
    "icc": lambda t, **kw: ag.icc(t, metric="metric", form="ICC2", **kw),
    "category_agreement": lambda t, **kw: ag.category_agreement(t, metric="metric", **kw),
    "pairwise_agreement": lambda t, **kw: ag.pairwise_agreement(t, metric="metric", **kw),
    "human_agreement": lambda t, **kw: ag.human_agreement(t, metric="metric", **kw),
    "irr": lambda t, **kw: ag.irr(t, metric="metric", **kw)["per_metric_scores"],
    "rater_diagnostics": lambda t, **kw: ag.rater_diagnostics(t, metric="metric", **kw),
    "concordance": lambda t, **kw: ag.concordance(t, metric="metric", raters=["a", "b"], **kw),
    "bland_altman": lambda t, **kw: ag.bland_altman(t, metric="metric", raters=["a", "b"], **kw),
    # rater c as the judge (min_items=30 is more than the tables hold: no human is tested, the
    # property is that every metric is present with its accounting)
    "alt_test": lambda t, **kw: ag.alt_test(t, metric="metric", judges="c", **kw),
}


@st.composite
def tables(draw):
    """Rated metrics m0..m(k-1) (2-3 raters, values 1-4) and one metric 'empty' whose rows are
    all missing (NULL or the placeholder -1) or rated once per item."""
    n_items = draw(st.integers(3, 8))
    rows = []
    for m in range(draw(st.integers(1, 2))):
        for i in range(n_items):
            for r in ("a", "b", "c"):
                rows.append((i, r, f"m{m}", draw(st.integers(1, 4))))
    single = draw(st.booleans())
    for i in range(draw(st.integers(1, 4))):
        if single:
            rows.append((i, "a", "empty", draw(st.integers(1, 4))))
        else:
            for r in ("a", "b"):
                rows.append((i, r, "empty", draw(st.sampled_from([None, -1]))))
    order = draw(st.permutations(range(len(rows))))
    rows = [rows[k] for k in order]
    return pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                     "metric": [r[2] for r in rows], "value": [r[3] for r in rows]}), rows


def _text(result):
    """A result as JSON without its ``route`` entries."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "route"}
        return [strip(v) for v in x] if isinstance(x, list) else x
    return json.dumps(strip(result), sort_keys=True, default=str)


def _results(out, name):
    """``{metric: result}`` of one call's output."""
    if isinstance(out, dict):
        return out
    if name == "coefficients":
        return {e["metric"]: e["coefficients"] for e in out}
    return {e["metric"]: e for e in out}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PER_METRIC))
@SETTINGS
@given(data=tables())
def test_a_metric_with_nothing_to_compute_is_in_the_result(name, data):
    table, rows = data
    out = _results(PER_METRIC[name](table, missing=[-1]), name)
    rated = sorted({r[2] for r in rows})
    assert sorted(out) == rated, (name, sorted(out))
    empty = out["empty"]
    results = list(empty.values()) if name == "coefficients" else [empty]
    for result in results:
        if "categories" in result:          # category_agreement: the statistics per category
            assert all(c["kappa"] is None and c["specific_agreement"] is None
                       for c in result["categories"]), (name, result)
        else:
            value = next((result[k] for k in ("value", "score", "primary", "human_agreement",
                                              "alpha", "bias", "human_alpha") if k in result),
                         "no statistic")
            assert value is None, (name, result)
        if "n_excluded" in result:
            n = sum(1 for r in rows if r[2] == "empty")
            assert result["n_rows"] == n
            assert result["n_ratings"] + sum(result["n_excluded"].values()) == n
    # the other metrics' results are theirs without the empty metric (byte for byte)
    without = table.filter(pa.compute.not_equal(table["metric"], "empty"))
    alone = _results(PER_METRIC[name](without, missing=[-1]), name)
    # (the route may differ: whether every unit is rated by every rater is the input's)
    for metric, result in alone.items():
        assert _text(out[metric]) == _text(result), (name, metric)


@SETTINGS
@given(data=tables())
def test_a_slice_with_nothing_to_compute_is_in_the_result(data):
    table, rows = data
    # the metrics as slices of one metric: group_by
    got = ag.fleiss_kappa(table.rename_columns(["item", "rater", "day", "value"]),
                          group_by="day", missing=[-1])
    days = [e["group"] if "group" in e else e.get("day") for e in got]
    assert len(got) == len({r[2] for r in rows}), days
    empty = [e for e in got if e["value"] is None and e["n_items"] == 0]
    assert empty, got


def test_the_two_rater_coefficients_keep_an_empty_metric():
    # the coefficients of two raters (Scott's pi, Bangdiwala's B): the property on two raters
    table = pa.table({"item": [1, 1, 2, 2, 3, 3, 1, 1], "rater": ["a", "b"] * 4,
                      "metric": ["m"] * 6 + ["empty"] * 2, "value": [1, 1, 2, 1, 2, 2, None, None]})
    for name in (n for n, e in REGISTRY.items() if e.two_raters):
        out = {e["metric"]: e for e in FUNCTIONS[name](table, metric="metric")}
        assert set(out) == {"m", "empty"} and out["empty"]["value"] is None
        assert out["empty"]["n_excluded"]["missing"] == 2 and out["empty"]["n_rows"] == 2


@pytest.mark.slow
@SETTINGS
@given(data=tables())
def test_a_judge_group_with_nothing_to_compute_is_in_the_report(data):
    # judge_agreement's groups (Weval: a prompt and model) are slices: the metrics as a group
    # column, rater a, b, c as judges, the items as rubric points
    table, rows = data
    # judge_agreement reads no placeholders (it has no missing=): a missing score is NULL
    values = [None if v == -1 else v for v in table["value"].to_pylist()]
    groups = table.rename_columns(["item", "rater", "group", "value"]).set_column(
        3, "value", pa.array(values, pa.int64()))
    report = ag.judge_agreement(groups, item="item", rater="rater", value="value",
                                group_by="group", diagnostics=False)
    listed = {g["group"]["group"]: g for g in report["groups"]}
    assert sorted(listed) == sorted({r[2] for r in rows})
    empty = listed["empty"]
    assert empty["judgeAgreement"] is None
    assert empty["numRows"] == sum(1 for r in rows if r[2] == "empty")
    n_missing = sum(1 for r in rows if r[2] == "empty" and r[3] in (None, -1))
    assert empty["excluded"] == {"missing": n_missing, "placeholder": 0}
    without = groups.filter(pa.compute.not_equal(groups["group"], "empty"))
    alone = ag.judge_agreement(without, item="item", rater="rater", value="value",
                               group_by="group", diagnostics=False)
    assert [_text(g) for g in report["groups"] if g["group"]["group"] != "empty"] == \
        [_text(g) for g in alone["groups"]]
