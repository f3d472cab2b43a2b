"""docs/migrating.md, scikit-learn's cohen_kappa_score(y1, y2): two label arrays as they are."""
from __future__ import annotations

import numpy as np
import pytest

import agreement_sql as a

metrics = pytest.importorskip("sklearn.metrics")


def labels(seed: int = 5, n: int = 60):
    rng = np.random.default_rng(seed)
    y1 = rng.choice(["low", "mid", "high"], size=n)
    y2 = np.where(rng.random(n) < 0.6, y1, rng.choice(["low", "mid", "high"], size=n))
    return y1, y2


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_score(weights):
    # cohen_kappa_score weights labels by their position in sorted order: weight_basis="position"
    y1, y2 = labels()
    expected = metrics.cohen_kappa_score(y1, y2, weights=weights)
    extra = {"weights": weights, "weight_basis": "position"} if weights else {}
    assert a.cohen_kappa([y1, y2], **extra)["value"] == pytest.approx(expected, abs=1e-12)
    assert a.cohen_kappa((list(y1), list(y2)), **extra)["value"] == pytest.approx(expected, abs=1e-12)


def test_label_arrays_name_raters_by_position():
    y1, y2 = labels()
    result = a.cohen_kappa([y1, y2])
    assert result["raters"] == ["0", "1"]
    assert result["n_items"] == len(y1) and result["n_rows"] == 2 * len(y1)


def test_more_label_arrays_give_light_kappa():
    # three arrays: Light's kappa, the mean of the three pairs' cohen_kappa_score
    rng = np.random.default_rng(9)
    ys = [rng.integers(0, 3, size=40) for _ in range(3)]
    pairs = [metrics.cohen_kappa_score(ys[i], ys[j]) for i, j in ((0, 1), (0, 2), (1, 2))]
    result = a.cohen_kappa(ys)
    assert result["coefficient"] == "light_kappa"
    assert result["value"] == pytest.approx(sum(pairs) / 3, abs=1e-12)


def test_label_arrays_of_different_lengths_are_refused():
    with pytest.raises(a.SourceError, match="different lengths"):
        a.cohen_kappa([[1, 2, 3], [1, 2]])


# -- labels= and sample_weight= (issue #29 point 5; docs/decisions/0027) -----------------------

def test_spurious_labels_are_left_out_as_sklearns_own_test():
    # scikit-learn's test_cohen_kappa (sklearn/metrics/tests/test_classification.py): Artstein &
    # Poesio (2008) Table 1, [[20, 20], [10, 50]], kappa 0.348; four units both label 2 added,
    # and labels=[0, 1] gives the same kappa
    y1 = np.array([0] * 40 + [1] * 60)
    y2 = np.array([0] * 20 + [1] * 20 + [0] * 10 + [1] * 50)
    kappa = a.cohen_kappa([y1, y2])["value"]
    assert round(kappa, 3) == 0.348
    y1, y2 = np.append(y1, [2] * 4), np.append(y2, [2] * 4)
    got = a.cohen_kappa([y1, y2], labels=[0, 1])
    assert got["value"] == pytest.approx(kappa, abs=1e-14)
    assert got["value"] == pytest.approx(metrics.cohen_kappa_score(y1, y2, labels=[0, 1]), abs=1e-14)
    # nothing leaves silently: the eight ratings of label 2 are counted
    assert got["n_excluded"]["outside_labels"] == 8
    assert got["n_rows"] == got["n_ratings"] + sum(got["n_excluded"].values())
    assert got["n_items"] == 100 and "labels" in got["conventions"]


def test_the_docstring_example_with_labels_in_any_order():
    # cohen_kappa_score's docstring: 0.6875
    y1 = ["negative", "positive", "negative", "neutral", "positive"]
    y2 = ["negative", "positive", "negative", "neutral", "negative"]
    assert a.cohen_kappa([y1, y2])["value"] == pytest.approx(0.6875, abs=1e-14)
    order = ["positive", "neutral", "negative"]
    assert a.cohen_kappa([y1, y2], labels=order)["value"] == pytest.approx(0.6875, abs=1e-14)
    # with weights, the labels' order is the positions' (scikit-learn's weight matrix)
    for weights in ("linear", "quadratic"):
        expected = metrics.cohen_kappa_score(y1, y2, labels=order, weights=weights)
        got = a.cohen_kappa([y1, y2], labels=order, weights=weights, weight_basis="position")
        assert got["value"] == pytest.approx(expected, abs=1e-12)


def test_sample_weight_sequence_and_mapping():
    y1, y2 = labels(seed=11, n=30)
    w = np.random.default_rng(3).uniform(0.1, 4.0, size=30)
    expected = metrics.cohen_kappa_score(y1, y2, sample_weight=w)
    got = a.cohen_kappa([y1, y2], sample_weight=w)
    assert got["value"] == pytest.approx(expected, abs=1e-12)
    assert "sample_weight" in got["conventions"] and got["n_items"] == 30
    assert got["route"][0]["rater_patterns"] == "ratings"
    # long rows named by an item column: a mapping unit -> weight
    import pyarrow as pa
    long = pa.table({"item": [f"u{i}" for i in range(30)] * 2, "rater": ["a"] * 30 + ["b"] * 30,
                     "value": list(y1) + list(y2)})
    mapped = a.cohen_kappa(long, sample_weight={f"u{i}": float(w[i]) for i in range(30)})
    assert mapped["value"] == pytest.approx(expected, abs=1e-12)


def test_integer_weights_are_repeated_units():
    # an independent oracle: a unit of weight k counts as k copies of it (scikit-learn's
    # common test of sample_weight, test_common.py)
    rng = np.random.default_rng(8)
    y1 = rng.integers(0, 4, size=25)
    y2 = np.where(rng.random(25) < 0.5, y1, rng.integers(0, 4, size=25))
    k = rng.integers(1, 4, size=25)
    for weights in (None, "quadratic"):
        extra = {"weights": weights, "weight_basis": "position"} if weights else {}
        weighted = a.cohen_kappa([y1, y2], sample_weight=k, **extra)["value"]
        repeated = a.cohen_kappa([np.repeat(y1, k), np.repeat(y2, k)], **extra)["value"]
        assert weighted == pytest.approx(repeated, abs=1e-12)


def test_where_the_conventions_differ_the_packages_stays():
    # scikit-learn's test_cohen_kappa_undefined: one label in common gives NaN there; the
    # package's convention (sql/_cohen.sql.j2) is 1.0 when the raters used one and the same
    # category, and None when no pair is left
    y1, y2 = [1] * 5 + [2] * 5, [1] * 5 + [3] * 5
    assert a.cohen_kappa([y1, y2], labels=[1, 2])["value"] == 1.0
    none_left = a.cohen_kappa([[1] * 5 + [2] * 5, [3] * 10], labels=[1, 2])
    assert none_left["value"] is None and none_left["n_excluded"]["outside_labels"] == 10


@pytest.mark.parametrize("kwargs,match", [
    ({"labels": [0, 1], "categories": [0, 1, 2]}, "not both"),
    ({"sample_weight": [1.0] * 20, "ci": 0.95}, "standard error"),
    ({"sample_weight": [1.0] * 20, "marginals": "gwet"}, "gwet"),
    ({"labels": [0, 1], "marginals": "gwet"}, "gwet"),
    ({"sample_weight": [1.0] * 19}, "19 weights"),
    ({"sample_weight": [-1.0] + [1.0] * 19}, "finite number >= 0"),
    ({"sample_weight": {0: 1.0}}, "no weight for unit '1'"),
])
def test_refusals_name_the_option(kwargs, match):
    rng = np.random.default_rng(2)
    ys = [rng.integers(0, 3, size=20) for _ in range(2)]
    with pytest.raises(a.OptionError, match=match):
        a.cohen_kappa(ys, **kwargs)


def test_labels_take_every_route_and_name_themselves_when_wrong():
    from agreement_sql import routes

    rng = np.random.default_rng(4)
    ys = [rng.integers(0, 4, size=50) for _ in range(2)]
    expected = metrics.cohen_kappa_score(ys[0], ys[1], labels=[3, 0, 1], weights="linear")
    for choice in ("patterns", "ratings"):
        with routes.forcing(units="wide", rater_patterns=choice):   # patterns: the wide form
            got = a.cohen_kappa(ys, labels=[3, 0, 1], weights="linear", weight_basis="position")
        assert got["route"][0]["rater_patterns"] == choice
        assert got["value"] == pytest.approx(expected, abs=1e-12)
    with pytest.raises(a.OptionError, match="labels="):
        a.cohen_kappa(ys, labels=[1, 1])


def test_other_coefficients_and_unit_columns_refuse_them():
    ys = [[0, 1, 1, 2], [0, 1, 2, 2]]
    with pytest.raises(a.OptionError, match="labels="):
        a.fleiss_kappa(ys, labels=[0, 1])
    with pytest.raises(a.OptionError, match="sample_weight="):
        a.scott_pi(ys, sample_weight=[1, 1, 1, 1])
    import pyarrow as pa
    long = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b"] * 2, "value": [0, 0, 1, 0]})
    with pytest.raises(a.OptionError, match="mapping"):
        a.cohen_kappa(long, sample_weight=[1.0, 2.0])


from hypothesis import assume, given, settings, strategies as st  # noqa: E402


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(4, 30), weights=st.sampled_from([None, "linear", "quadratic"]),
       use_labels=st.booleans(), use_weights=st.booleans())
def test_property_labels_and_sample_weight_are_sklearns(data, n, weights, use_labels, use_weights):
    y1 = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    y2 = np.array(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))
    chosen = data.draw(st.permutations(list(range(6)))) if use_labels else None
    if chosen is not None:
        chosen = chosen[:data.draw(st.integers(1, 6))]       # a subset, in any order
    w = (np.array(data.draw(st.lists(st.floats(0.05, 5.0), min_size=n, max_size=n)))
         if use_weights else None)
    try:
        expected = metrics.cohen_kappa_score(y1, y2, labels=chosen, weights=weights,
                                             sample_weight=w)
    except ValueError:                       # no label of labels in y1: scikit-learn refuses
        return
    extra = {"weights": weights, "weight_basis": "position"} if weights else {}
    given_ = {k: v for k, v in (("labels", chosen), ("sample_weight", w)) if v is not None}
    got = a.cohen_kappa([y1, y2], **extra, **given_)
    assert got["n_rows"] == got["n_ratings"] + sum(got["n_excluded"].values())
    if np.isnan(expected):
        # undefined there: None here, or 1.0 where one category is all the pairs used
        assert got["value"] is None or got["value"] == 1.0
        return
    assert got["value"] == pytest.approx(expected, abs=1e-9)
