"""The many-rater chance-corrected coefficients: Fleiss, Conger, Gwet's AC1/AC2, Brennan-Prediger,
percent agreement, and Scott's pi for two raters. Each is a thin wrapper over its template
(``sql/<name>.sql.j2``); see docs/coefficients.md for formulas and conventions."""
from __future__ import annotations

from typing import Any, Sequence

from ..errors import OptionError
from ..results import (BrennanPredigerResult, CongerKappaResult, FleissKappaResult, GwetAC1Result,
                       PercentAgreementResult, ScottPiResult)
from . import _kappa

_COMMON_DOC = """
    Ratings are long rows (item, rater, value); a missing rating has no row. ``weights`` is
    ``"linear"``, ``"quadratic"`` or an agreement-weight matrix (see :func:`cohen_kappa`);
    ``categories`` declares the category domain and its order. ``ci=0.95`` adds an interval:
    by default (``ci_method="analytic"``) Gwet's analytic standard error and a normal interval;
    ``ci_method="bootstrap"`` a unit-resampling bootstrap run in the database (``n_boot``
    replicates, default 1000; ``seed``, default 1; the same seed gives the same interval).
    One result without ``metric``/``group_by``, a list otherwise. ``None`` when no item is
    rated twice.
"""


# the templates with a one-pass wide form (sql/_kappa_wide.sql.j2; _kappa.setup says when it is used)
ONE_PASS = ("fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement")


def _run(template: str, source: Any, result_type: Any, *, interpret: bool = True,
         raters: Sequence[Any] | None = None, **kw: Any) -> Any:
    metric, group_by = kw.get("metric"), kw.get("group_by")
    rows, s = _kappa.run(template, source, raters=raters, one_pass=template in ONE_PASS, **kw)
    out = [result_type(**_kappa.shape(r, s, interpret=interpret)) for r in rows]
    return out, s, (out[0] if _kappa.single(metric, group_by, s) else out)


def fleiss_kappa(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Sequence[str] | str | None = None,
                 weights: Any = None, categories: Any = None, weight_basis: str = "value",
                 ci: float | None = None, ci_method: str | None = None,
                 n_boot: int | None = None, seed: int | None = None,
                 on_duplicate: str | None = None, con: Any = None,
                 ) -> FleissKappaResult | list[FleissKappaResult]:
    """Fleiss' kappa, generalised by Gwet to items rated by different numbers of raters.

    ``p_a`` averages per-item pair agreement over items rated two or more times; category
    shares ``pi_k`` average ``r_ik / r_i`` over every rated item. On complete data this is
    Fleiss (1971): 0.430 on his 30 x 6 psychiatric diagnoses, 0.210 on Wikipedia's example.
    """
    return _run("fleiss_kappa", source, FleissKappaResult, item=item, rater=rater, value=value,
                metric=metric, group_by=group_by, weights=weights, categories=categories,
                weight_basis=weight_basis, ci=ci, ci_method=ci_method, n_boot=n_boot, seed=seed,
                on_duplicate=on_duplicate, con=con)[2]


def conger_kappa(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Sequence[str] | str | None = None,
                 weights: Any = None, categories: Any = None, weight_basis: str = "value",
                 ci: float | None = None, ci_method: str | None = None,
                 n_boot: int | None = None, seed: int | None = None,
                 on_duplicate: str | None = None, con: Any = None,
                 ) -> CongerKappaResult | list[CongerKappaResult]:
    """Conger's (1980) kappa: Cohen's kappa generalised to many raters (rater-specific margins).

    Equals Cohen's kappa for two raters on complete data.
    """
    return _run("conger_kappa", source, CongerKappaResult, item=item, rater=rater, value=value,
                metric=metric, group_by=group_by, weights=weights, categories=categories,
                weight_basis=weight_basis, ci=ci, ci_method=ci_method, n_boot=n_boot, seed=seed,
                on_duplicate=on_duplicate, con=con)[2]


def scott_pi(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
             metric: str | None = None, group_by: Sequence[str] | str | None = None,
             raters: Sequence[Any] | None = None, weights: Any = None, categories: Any = None,
             weight_basis: str = "value", ci: float | None = None, ci_method: str | None = None,
             n_boot: int | None = None, seed: int | None = None,
             on_duplicate: str | None = None, con: Any = None,
             ) -> ScottPiResult | list[ScottPiResult]:
    """Scott's (1955) pi between two raters over the items both rated (pooled margins).

    A two-rater coefficient: pick the pair with ``raters=[a, b]``; a metric or slice with more
    than two raters gets ``None`` (its many-rater generalisation is :func:`fleiss_kappa`).
    """
    out, s, result = _run("scott_pi", source, ScottPiResult, item=item, rater=rater, value=value,
                          metric=metric, group_by=group_by, raters=raters, weights=weights,
                          categories=categories, weight_basis=weight_basis, ci=ci,
                          ci_method=ci_method, n_boot=n_boot, seed=seed,
                          on_duplicate=on_duplicate, con=con)
    if out and all(r["n_raters"] > 2 for r in out):
        raise OptionError(f"scott_pi compares two raters, but the data has {out[0]['n_raters']} "
                          "raters; pass raters=[a, b], or use fleiss_kappa (Scott's pi for many raters)")
    return result


def gwet_ac1(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
             metric: str | None = None, group_by: Sequence[str] | str | None = None,
             weights: Any = None, categories: Any = None, weight_basis: str = "value",
             ci: float | None = None, ci_method: str | None = None,
             n_boot: int | None = None, seed: int | None = None,
             on_duplicate: str | None = None, con: Any = None,
             ) -> GwetAC1Result | list[GwetAC1Result]:
    """Gwet's AC1 (``coefficient`` "gwet_ac2" when weighted): chance agreement from prevalence.

    ``q`` (the number of categories) is the declared domain's size when ``categories`` is
    given, else the number of categories used.
    """
    return _run("gwet_ac1", source, GwetAC1Result, item=item, rater=rater, value=value,
                metric=metric, group_by=group_by, weights=weights, categories=categories,
                weight_basis=weight_basis, ci=ci, ci_method=ci_method, n_boot=n_boot, seed=seed,
                on_duplicate=on_duplicate, con=con)[2]


def brennan_prediger(source: Any, *, item: str = "item", rater: str = "rater",
                     value: str = "value", metric: str | None = None,
                     group_by: Sequence[str] | str | None = None, weights: Any = None,
                     categories: Any = None, weight_basis: str = "value",
                     ci: float | None = None, ci_method: str | None = None,
                     n_boot: int | None = None, seed: int | None = None,
                     on_duplicate: str | None = None, con: Any = None,
                     ) -> BrennanPredigerResult | list[BrennanPredigerResult]:
    """Brennan & Prediger's (1981) coefficient: chance agreement ``T_w / q^2`` (``1/q`` unweighted).

    ``q`` is the declared domain's size when ``categories`` is given (declare it: categories
    nobody used still count), else the number of categories used.
    """
    return _run("brennan_prediger", source, BrennanPredigerResult, item=item, rater=rater,
                value=value, metric=metric, group_by=group_by, weights=weights,
                categories=categories, weight_basis=weight_basis, ci=ci, ci_method=ci_method,
                n_boot=n_boot, seed=seed,
                on_duplicate=on_duplicate, con=con)[2]


def percent_agreement(source: Any, *, item: str = "item", rater: str = "rater",
                      value: str = "value", metric: str | None = None,
                      group_by: Sequence[str] | str | None = None, weights: Any = None,
                      categories: Any = None, weight_basis: str = "value",
                      ci: float | None = None, ci_method: str | None = None,
                      n_boot: int | None = None, seed: int | None = None,
                      on_duplicate: str | None = None, con: Any = None,
                      ) -> PercentAgreementResult | list[PercentAgreementResult]:
    """Percent agreement as a proportion: agreeing rater pairs per item, averaged over items
    rated two or more times (weighted when ``weights`` is given). Not chance-corrected, so
    ``chance_agreement`` is 0 and ``interpretation`` is None."""
    return _run("percent_agreement", source, PercentAgreementResult, interpret=False, item=item,
                rater=rater, value=value, metric=metric, group_by=group_by, weights=weights,
                categories=categories, weight_basis=weight_basis, ci=ci, ci_method=ci_method,
                n_boot=n_boot, seed=seed,
                on_duplicate=on_duplicate, con=con)[2]


for _f in (fleiss_kappa, conger_kappa, scott_pi, gwet_ac1, brennan_prediger, percent_agreement):
    _f.__doc__ = (_f.__doc__ or "") + _COMMON_DOC
