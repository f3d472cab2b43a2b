"""Cohen's kappa for two raters; Light's kappa (the mean over rater pairs) for more."""
from __future__ import annotations

from typing import Any, Sequence

from ..results import CohenKappaResult
from . import _kappa


def cohen_kappa(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                metric: str | None = None, group_by: Sequence[str] | str | None = None,
                raters: Sequence[Any] | None = None, weights: Any = None,
                categories: Sequence[Any] | dict | None = None, weight_basis: str = "value",
                ci: float | None = None, ci_method: str | None = None,
                on_duplicate: str | None = None, con: Any = None,
                ) -> CohenKappaResult | list[CohenKappaResult]:
    """Cohen's kappa ``(p_o - p_e) / (1 - p_e)`` between two raters over the items both rated.

    ``raters=["A", "B"]`` picks the pair (A in the rows of the confusion table); without it,
    two raters give Cohen's kappa and more give Light's kappa, the mean of Cohen's kappa over
    every rater pair (``coefficient`` says which). Labels may be text: categories are compared
    by label. ``weights`` is ``"linear"``, ``"quadratic"`` (Cohen 1968; scaled by the range of
    category values, or of positions in ``categories`` for text labels; ``weight_basis="position"``
    gives scikit-learn's position-based weights) or an agreement-weight matrix (a dict
    ``{(row, col): w}``, or a list of rows in the order of ``categories``). ``categories``
    declares the domain and its order. ``ci=0.95`` adds the asymptotic standard error and
    interval of SAS PROC FREQ / statsmodels (two raters only).

    ``None`` when no item is rated by both raters; 1.0 when both used one and the same category.
    Artstein & Poesio (2008) Table 1: 0.348. SAS PROC FREQ 3x3 example: 0.4842, se 0.1380.
    """
    rows, s = _kappa.run("cohen_kappa", source, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, con=con, weights=weights,
                         categories=categories, weight_basis=weight_basis, ci=ci,
                         ci_method=ci_method, raters=raters)
    out = []
    for row in rows:
        result = _kappa.shape(row, s)
        if row["coefficient"] == "cohen_kappa" and row["rater_a"] is not None:
            result["raters"] = [row["rater_a"], row["rater_b"]]
        result["n_pairs"] = int(row["n_pairs"])
        if row["coefficient"] == "light_kappa" and s.ci is not None:
            result["ci_method"] = "none"   # no analytic variance for Light's kappa
        out.append(CohenKappaResult(**result))
    return out[0] if _kappa.single(metric, group_by, s) else out
