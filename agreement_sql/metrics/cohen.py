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
                n_boot: int | None = None, seed: int | None = None,
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
    declares the domain and its order.

    ``ci=0.95`` adds an interval. ``ci_method="analytic"``: the asymptotic standard error and
    normal interval of SAS PROC FREQ / statsmodels (two raters only; Light's kappa has none and
    gets ``ci_method`` "none"). ``ci_method="bootstrap"``: a unit-resampling bootstrap run in
    the database (``n_boot`` replicates, default 1000; ``seed``, default 1; the same seed gives
    the same interval), for Cohen's and Light's kappa alike. The default is analytic for
    Cohen's kappa and bootstrap for Light's kappa (a second statement runs the bootstrap when
    some metric or slice turns out to have more than two raters).

    With ``ci`` (either method), Cohen's kappa also gets the test of kappa = 0 as SAS prints it:
    ``se0`` (the SE under the null, Fleiss, Cohen & Everitt 1969), ``z = kappa / se0``,
    ``p_one_sided`` (Pr > Z) and the two-sided ``p_value`` (``None`` for Light's kappa).

    ``None`` when no item is rated by both raters; 1.0 when both used one and the same category.
    Artstein & Poesio (2008) Table 1: 0.348. SAS PROC FREQ 3x3 example: 0.4842, se 0.1380,
    se0 0.1484, z 3.2626, p 0.0006 (one-sided) / 0.0011.
    """
    rows, s = _kappa.run("cohen_kappa", source, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, con=con, weights=weights,
                         categories=categories, weight_basis=weight_basis, ci=ci,
                         ci_method=ci_method, n_boot=n_boot, seed=seed, raters=raters,
                         bootstrap_too=_light_needs_bootstrap)
    boot = {_kappa.row_key(r, s): r for r in s.boot_rows or []}
    out = []
    for row in rows:
        result = _kappa.shape(row, s)
        if row["coefficient"] == "cohen_kappa" and row["rater_a"] is not None:
            result["raters"] = [row["rater_a"], row["rater_b"]]
        result["n_pairs"] = int(row["n_pairs"])
        result.update(_kappa.null_test_fields(row, s))
        if row["coefficient"] == "light_kappa" and s.interval.analytic:
            # no analytic variance for Light's kappa: the bootstrap's interval when the method
            # was left to its default, else none
            extra = boot.get(_kappa.row_key(row, s))
            if extra is not None and s.boot_interval is not None:
                result.update(_kappa.interval_fields(extra, s, interval=s.boot_interval))
            else:
                result.update(_kappa.no_interval(s))
        out.append(CohenKappaResult(**result))
    return out[0] if _kappa.single(metric, group_by, s) else out


def _light_needs_bootstrap(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Light's kappa has no analytic SE: with the default method, bootstrap it (same options)."""
    return {} if any(r["coefficient"] == "light_kappa" for r in rows) else None
