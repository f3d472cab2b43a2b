"""Simulated rating studies for sample-size planning, drawn in the database.

sql/plan_simulation.sql.j2 draws ``n_studies`` studies of ``n_items`` items and ``raters``
raters from the common-correlation model (Donner & Eliasziw 1992; Donner & Rotondi 2010): an
item is, with probability kappa, rated the same by every rater, else rated independently, the
categories drawn with the prevalences. The draws come from one seeded MINSTD stream
(sql/_minstd.sql.j2), so a seed gives the same studies on any engine. Each study is then scored
by the package's own coefficient function (one statement, ``metric="study"``).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, Sequence


from .engine import open_session
from .errors import OptionError
from .runner import query

MAX_STUDIES = 10_000
MAX_ITEMS = 100_000
MAX_RATERS = 99


@dataclass(frozen=True)
class Studies:
    """The estimates of one simulation round."""

    n_items: int
    values: list[float]                   # one estimate per study with a defined value
    ci_low: list[float | None]
    ci_high: list[float | None]
    n_studies: int

    @property
    def sd(self) -> float:
        return statistics.stdev(self.values) if len(self.values) > 1 else float("nan")


def _p_o_percent(expected: float, prevalence: Sequence[float]) -> float:
    return expected


def _p_o_gwet(expected: float, prevalence: Sequence[float]) -> float:
    p_e = sum(p * (1.0 - p) for p in prevalence) / (len(prevalence) - 1)
    return expected * (1.0 - p_e) + p_e


def _p_o_bp(expected: float, prevalence: Sequence[float]) -> float:
    return expected * (1.0 - 1.0 / len(prevalence)) + 1.0 / len(prevalence)


# the observed agreement p_o giving ``expected`` for the coefficients whose chance agreement is
# not the kappas' (Gwet 2014, ch. 2 and 4); every other coefficient's model kappa is ``expected``
OBSERVED_AGREEMENT = {"percent_agreement": _p_o_percent, "gwet_ac1": _p_o_gwet,
                      "brennan_prediger": _p_o_bp}


def model_kappa(coefficient: str, expected: float, prevalence: Sequence[float]) -> float:
    """The common-correlation model's kappa giving ``expected`` for ``coefficient`` in the
    population: kappa itself for the kappas, Scott's pi and nominal alpha; for the others from
    their observed agreement p_o = kappa + (1 - kappa) sum(pi^2) (Gwet 2014, ch. 2 and 4)."""
    observed = OBSERVED_AGREEMENT.get(coefficient)
    if observed is None:
        return expected
    shares = sum(p * p for p in prevalence)
    return (observed(expected, prevalence) - shares) / (1.0 - shares)


def simulate(coefficient: str, *, kappa: float, n_items: int, raters: int,
             prevalence: Sequence[float], n_studies: int, seed: int, ci: float | None = None,
             con: Any = None) -> Studies:
    """Draw ``n_studies`` studies in SQL and score each with ``coefficient`` (a registry name)."""
    from .registry import lookup

    if not 0.0 <= kappa <= 1.0:
        raise OptionError(f"the expected value corresponds to a model kappa of {kappa:.4g}, outside "
                          "[0, 1]; the simulation's model cannot produce it with these prevalences")
    if not (2 <= n_items <= MAX_ITEMS and 2 <= raters <= MAX_RATERS and 2 <= n_studies <= MAX_STUDIES):
        raise OptionError(f"a simulation takes 2..{MAX_ITEMS} items, 2..{MAX_RATERS} raters and "
                          f"2..{MAX_STUDIES} studies, got {n_items}, {raters} and {n_studies}")
    cumulative, total = [], 0.0
    for share in prevalence[:-1]:
        total += share
        cumulative.append(total)
    params: dict[str, Any] = {"seed": int(seed), "n_studies": n_studies, "n_items": n_items,
                              "n_raters": raters, "kappa": float(kappa)}
    params.update({f"cum_{i}": c for i, c in enumerate(cumulative)})
    with open_session(con) as session:
        rows = query(session, "plan_simulation", {"n_categories": len(prevalence)}, params)
    import pyarrow as pa              # imported here: a CLI start does not pay for it

    table = pa.table({"study": [f"s{r['study']:05d}" for r in rows],
                      "item": [r["item"] for r in rows],
                      "rater": [r["rater"] for r in rows],
                      "value": [r["value"] for r in rows]})
    entry = lookup(coefficient)
    from .metrics.functions import FUNCTIONS
    function = FUNCTIONS[entry.name]
    options: dict[str, Any] = {"metric": "study", "con": con}
    if ci is not None and entry.analytic_se:
        options.update(ci=ci, ci_method="analytic")
    if entry.levels:
        options["level"] = "nominal"          # the categories are labels of the model
    results = function(table, **options)
    values = [r["value"] for r in results if r["value"] is not None]
    return Studies(n_items=n_items, values=values,
                   ci_low=[r.get("ci_low") for r in results if r["value"] is not None],
                   ci_high=[r.get("ci_high") for r in results if r["value"] is not None],
                   n_studies=n_studies)
