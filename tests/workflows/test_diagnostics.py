"""Rater diagnostics: leave-one-out, the pairwise matrix, bias, the items that drive disagreement.

Oracles: the `krippendorff` package on reliability matrices built here; hand calculations on a
small table (stated beside each expectation).
"""
from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
import pyarrow as pa
import pytest

from agreement_sql import rater_diagnostics
from agreement_sql.cli import main

from conftest import DATA  # noqa: E402

# 4 items x 3 raters; c is one point above the others on every item, item i4 is split
RATINGS = {"a": [1, 2, 3, 1], "b": [1, 2, 3, 5], "c": [2, 3, 4, 2]}


def _table(ratings):
    rows = [(f"i{k + 1}", r, v) for r, vs in ratings.items() for k, v in enumerate(vs) if v is not None]
    return pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                     "value": [r[2] for r in rows]})


def _alpha(ratings, level="interval"):
    m = np.array([[np.nan if v is None else v for v in vs] for vs in ratings.values()], dtype=float)
    return krippendorff.alpha(reliability_data=m, level_of_measurement=level)


@pytest.fixture(scope="module")
def diag():
    return rater_diagnostics(_table(RATINGS))


def test_group_alpha_and_leave_one_out(diag):
    assert diag["alpha"] == pytest.approx(_alpha(RATINGS))
    for r in diag["raters"]:
        rest = {k: v for k, v in RATINGS.items() if k != r["rater"]}
        assert r["alpha_without"] == pytest.approx(_alpha(rest)), r["rater"]


def test_agreement_with_the_others(diag):
    by = {r["rater"]: r for r in diag["raters"]}
    # a vs b agree on i1..i3, a vs c never: 3 of 8 pairs; |diffs| a-b 0,0,0,4 and a-c 1,1,1,1
    assert by["a"]["agreement_with_others"] == pytest.approx(100 * 3 / 8)
    assert by["a"]["mean_abs_difference"] == pytest.approx((4 + 4) / 8)
    assert by["c"]["agreement_with_others"] == 0.0
    assert diag["raters"][0]["rater"] == "c"          # least agreeing first


def test_pairwise_matrix(diag):
    pairs = {(p["rater_a"], p["rater_b"]): p for p in diag["pairs"]}
    assert set(pairs) == {("a", "b"), ("a", "c"), ("b", "c")}
    ab = pairs[("a", "b")]
    assert (ab["n_items"], ab["exact_agreement"]) == (4, 75.0)
    assert ab["mean_offset"] == pytest.approx(-1.0)    # (0 + 0 + 0 - 4) / 4
    assert ab["alpha"] == pytest.approx(_alpha({"a": RATINGS["a"], "b": RATINGS["b"]}))
    assert pairs[("a", "c")]["mean_offset"] == pytest.approx(-1.0)


def test_bias_is_the_offset_from_the_others_mean(diag):
    bias = {b["rater"]: b for b in diag["bias"]}
    # c: mean over items of c - mean(a, b) = (1 + 1 + 1 + (2 - 3)) / 4 = 0.5
    assert bias["c"]["offset"] == pytest.approx(0.5)
    assert bias["c"]["category"] is None
    # b: (1 - 1.5) + (2 - 2.5) + (3 - 3.5) + (5 - 1.5) = 2.0 / 4
    assert bias["b"]["offset"] == pytest.approx(0.5)
    assert bias["a"]["offset"] == pytest.approx(-1.0)


def test_items_that_drive_disagreement(diag):
    top = diag["items"][0]
    assert top["item"] == "i4" and top["ratings"] == {"a": 1.0, "b": 5.0, "c": 2.0}
    # D_u = 2 (m S2 - S1^2)/(m - 1): i4 = 2 (3*30 - 64)/2 = 26; i1..i3 = 2 (3*6 - 16)/2 = 2 each
    assert top["disagreement_share"] == pytest.approx(26 / 32)
    assert top["std_dev"] == pytest.approx(np.std([1, 5, 2]))
    assert [i["rank"] for i in diag["items"]] == [1, 2, 3, 4]


def test_nominal_labels_give_category_offsets():
    labels = {"a": ["P", "P", "F", "P"], "b": ["P", "F", "F", "F"]}
    d = rater_diagnostics(_table(labels), level="nominal")
    assert d["alpha"] == pytest.approx(krippendorff.alpha(
        reliability_data=np.array([[1, 1, 0, 1], [1, 0, 0, 0]], dtype=float), level_of_measurement="nominal"))
    offsets = {(b["rater"], b["category"]): b["offset"] for b in d["bias"]}
    # a says P on 3 of 4 items, b on 1 of 4: offset +0.5 for a, -0.5 for b
    assert offsets[("a", "P")] == pytest.approx(0.5) and offsets[("b", "P")] == pytest.approx(-0.5)
    assert d["raters"][0]["mean_abs_difference"] is None


def test_missing_ratings_and_groups():
    ratings = {"a": [1, 2, None, 4], "b": [1, None, 3, 4], "c": [2, 2, 3, None]}
    d = rater_diagnostics(_table(ratings))
    assert d["alpha"] == pytest.approx(_alpha(ratings))
    rows = [("x", *r) for r in zip(*[_table(RATINGS).column(c).to_pylist() for c in ("item", "rater", "value")])]
    rows += [("y", *r) for r in zip(*[_table(ratings).column(c).to_pylist() for c in ("item", "rater", "value")])]
    t = pa.table({"g": [r[0] for r in rows], "item": [r[1] for r in rows], "rater": [r[2] for r in rows],
                  "value": [r[3] for r in rows]})
    both = rater_diagnostics(t, group_by="g")
    assert [x["group"] for x in both] == [{"g": "x"}, {"g": "y"}]
    assert both[1]["alpha"] == pytest.approx(_alpha(ratings))


def test_many_raters_skip_the_expansions(force_route):
    """Without rater patterns (too many raters or categories) the leave-one-out and pair
    figures need expansions that copy the ratings per rater: beyond max_pair_raters they are
    skipped with a note. With patterns they cost nothing and are always given."""
    with_patterns = rater_diagnostics(_table(RATINGS), max_pair_raters=2)
    assert with_patterns["pairs"] and all(r["alpha_without"] is not None for r in with_patterns["raters"])
    force_route(rater_patterns="ratings")
    d = rater_diagnostics(_table(RATINGS), max_pair_raters=2)
    assert d["pairs"] == [] and all(r["alpha_without"] is None for r in d["raters"])
    assert "more than 2 raters" in d["notes"][0]


def test_cli(capsys):
    path = DATA / "workshop_annotations.csv"
    assert main(["diagnostics", str(path), "--item", "trace_id", "--rater", "user_id",
                 "--value", "rating", "--metric", "question_id"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["metric"] for d in out] == ["accuracy", "follows_policy", "helpfulness", "tone"]
    helpfulness = next(d for d in out if d["metric"] == "helpfulness")
    bias = {b["rater"]: b["offset"] for b in helpfulness["bias"]}
    assert min(bias, key=bias.get) == "sme_dan" and max(bias, key=bias.get) == "sme_erin"  # harsh / lenient by design
    assert main(["diagnostics", str(path), "--item", "trace_id", "--rater", "user_id",
                 "--value", "score"]) == 1
    assert "'score' not found" in capsys.readouterr().err


def test_diagnose_on_a_callers_source_without_rater_patterns():
    # continuous scores take no rater patterns: the expansions (leave-one-out, pairs) re-key a
    # canonical copy, which diagnose() makes itself when handed the caller's source directly
    # (the HTML report does this); the numbers equal the public function's
    import random

    from agreement_sql.session import ratings_session
    from agreement_sql.workflows.diagnostics import diagnose

    rng = random.Random(1)
    table = pa.Table.from_pylist([{"item": i, "rater": f"r{r}", "value": rng.random() * 5}
                                  for i in range(30) for r in range(4)])
    with ratings_session(table) as spec:
        direct = diagnose(spec, level="interval")
    public = rater_diagnostics(table, level="interval")
    assert public.pop("route")[0]["statement"] == "rater_diagnostics"
    assert direct[0] == public
    assert len(direct[0]["pairs"]) == 6 and all(r["alpha_without"] is not None
                                               for r in direct[0]["raters"])


@pytest.mark.parametrize("max_items", [0, 1, 3, 7, 40, 1000])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_top_items_with_many_ties_match_a_full_ranking(max_items):
    """The statement sorts only the units at or above the max_items-th largest D_o term: the
    listed units must be exactly the first max_items of a full ranking done here (D_u = 2 (m S2 -
    S1^2) / (m - 1), Krippendorff 2011's unit term, larger first, then more disagreeing pairs,
    then the item id), ties at the cut included."""
    rng = np.random.default_rng(7)
    ratings = {r: [int(v) if rng.random() > 0.15 else None for v in rng.integers(1, 4, 60)]
               for r in "abcd"}
    d = rater_diagnostics(_table(ratings), max_items=max_items)
    expected = []
    for k in range(60):
        vs = [vs[k] for vs in ratings.values() if vs[k] is not None]
        m = len(vs)
        if m < 2:
            continue
        d_u = 2 * (m * sum(v * v for v in vs) - sum(vs) ** 2) / (m - 1)
        pairs = sum(1 for i in range(m) for j in range(i + 1, m) if vs[i] != vs[j])
        if d_u > 0:
            expected.append((-d_u, -pairs, f"i{k + 1}"))
    expected.sort()
    assert [i["item"] for i in d["items"]] == [e[2] for e in expected[:max_items]]
    assert [i["rank"] for i in d["items"]] == list(range(1, min(max_items, len(expected)) + 1))


@pytest.mark.parametrize("level", ["interval", "nominal"])
def test_listed_units_ratings_are_the_same_with_and_without_rater_patterns(force_route, level):
    """With rater patterns the listed units' ratings are decoded from each unit's pattern
    (no second scan of the ratings); without, they are joined from the ratings. Both must list
    the same units with the same ratings, per group, numbers and labels alike."""

    rng = np.random.default_rng(11)
    rows = {"g": [], "item": [], "rater": [], "value": []}
    for g in ("a", "b"):
        for k in range(40):
            for r in ("r1", "r2", "r3", "r4"):
                if rng.random() < 0.2:
                    continue
                v = int(rng.integers(1, 5))
                rows["g"].append(g)
                rows["item"].append(f"i{k}")
                rows["rater"].append(r)
                rows["value"].append(v if level == "interval" else f"c{v}")
    table = pa.table(rows)
    with_patterns = rater_diagnostics(table, group_by="g", level=level, max_items=15)
    force_route(rater_patterns="ratings")
    joined = rater_diagnostics(table, group_by="g", level=level, max_items=15)
    assert [d["items"] for d in with_patterns] == [d["items"] for d in joined]
    assert all(len(d["items"]) == 15 for d in joined)
    assert all(len(i["ratings"]) == i["n_ratings"] for d in joined for i in d["items"])


def test_a_rater_rating_a_unit_twice_is_refused():
    """Like every statistic (docs/decisions/0002): a duplicate (item, rater) raises unless a
    duplicate policy chooses one rating; rater_diagnostics used to count the rater twice."""
    from agreement_sql.errors import DuplicateRatingError

    t = pa.table({"item": [1, 1, 1, 2, 2, 3, 3], "rater": ["a", "a", "b", "a", "b", "a", "b"],
                  "value": [1, 2, 2, 3, 3, 1, 2]})
    with pytest.raises(DuplicateRatingError, match="item='1', rater='a'"):
        rater_diagnostics(t)
    first = rater_diagnostics(t, on_duplicate="first")
    # the oracle: the krippendorff package on the ratings the policy keeps (item 1: a's first, 1)
    assert first["alpha"] == pytest.approx(krippendorff.alpha(
        reliability_data=[[1, 3, 1], [2, 3, 2]], level_of_measurement="interval"))


def test_max_items_zero_lists_no_units_and_changes_nothing_else():
    """max_items=0 skips the ranking of the units (option with_items): no units are listed, and
    every other figure is the one max_items=10 gives."""
    t = _table(RATINGS)
    none, some = rater_diagnostics(t, max_items=0), rater_diagnostics(t, max_items=10)
    assert none["items"] == [] and some["items"]
    assert {k: v for k, v in none.items() if k != "items"} == {k: v for k, v in some.items() if k != "items"}


@pytest.mark.parametrize("route", ["patterns", "wide", "counts"])
def test_the_hand_checked_figures_on_every_route(force_route, route):
    """The per-rater figures of the small table, whichever form computes them: rater patterns,
    the wide form's cells (a rater's ratings in one category on units of one size, their units'
    counts summed) or the counts form's per-rating rows. Expectations by hand, as above."""
    if route != "patterns":
        force_route(rater_patterns="ratings")
    if route == "counts":
        force_route(units="counts")
    d = rater_diagnostics(_table(RATINGS))
    by = {r["rater"]: r for r in d["raters"]}
    assert by["a"]["agreement_with_others"] == pytest.approx(100 * 3 / 8)   # 3 of 8 pairs
    assert by["a"]["mean_abs_difference"] == pytest.approx((4 + 4) / 8)
    assert by["c"]["agreement_with_others"] == 0.0
    assert by["b"]["n_ratings"] == 4 and by["b"]["mean_rating"] == pytest.approx(11 / 4)
    bias = {b["rater"]: b["offset"] for b in d["bias"]}
    assert bias == pytest.approx({"a": -1.0, "b": 0.5, "c": 0.5})
    # labels: a says P on 3 of 4 items, b on 1 of 4; against the other's share of P
    labels = {"a": ["P", "P", "F", "P"], "b": ["P", "F", "F", "F"], "c": ["P", "P", "F", None]}
    d = rater_diagnostics(_table(labels), level="nominal")
    offsets = {(b["rater"], b["category"]): b["offset"] for b in d["bias"]}
    # a on P: own 3/4; the others on a's four items: i1 P,P; i2 F,P; i3 F,F; i4 F -> 3 of 7
    assert offsets[("a", "P")] == pytest.approx(3 / 4 - 3 / 7)
    # c on F: own 1/3 (i3); the others on c's items i1..i3: P,P; P,F; F,F -> 3 of 6
    assert offsets[("c", "F")] == pytest.approx(1 / 3 - 3 / 6)
