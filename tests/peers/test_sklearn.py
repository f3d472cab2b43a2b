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
