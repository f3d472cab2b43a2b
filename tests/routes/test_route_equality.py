"""Every declared route gives the same answers (docs/decisions/0013).

agreement_sql.routes declares, per decision, the alternatives that gather a statement's inputs
(``routes.DECISIONS``). This test forces each non-default alternative in turn
(``routes.alternatives()``: the units decision's first, the wide form, too, since inputs of
few ratings take the counts form) and runs a set of calls that together take every decision: each
result (or typed error) must equal the default route's: the same keys, integers and text
exactly, floats to 1e-12 (a statistic summed over other terms in another form may differ in its
last bits, docs/decisions/0008), but for the ``route`` field, which says which producers ran. It also checks that each forced alternative was taken by
at least one call, so a new alternative added to the module is tested here by construction, and
a call list that no longer reaches it fails rather than comparing the default with itself.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql import routes
from coefficients._forms import close
from conftest import DATA, REFERENCE, without_route

K2011 = REFERENCE / "krippendorff2011_4x12.csv"


def _likert(seed: int = 3) -> pa.Table:
    import random

    rng = random.Random(seed)
    rows = []
    for m in ("tone", "facts"):
        for i in range(30):
            truth = rng.randint(1, 5)
            for r in range(5):
                if rng.random() < 0.2:
                    continue
                rows.append({"item": i, "rater": f"r{r}", "metric": m,
                             "value": truth if rng.random() < 0.6 else rng.randint(1, 5)})
    return pa.Table.from_pylist(rows)


LIKERT = _likert()


def _scores(seed: int = 5) -> pa.Table:
    # continuous scores: more distinct values than the wide form's 16 (the counts form)
    import random

    rng = random.Random(seed)
    rows = [{"item": i, "rater": f"r{r}", "value": round(truth + rng.gauss(0, 1.5), 2)}
            for i, truth in enumerate(rng.uniform(0, 10) for _ in range(25)) for r in range(4)
            if rng.random() > 0.15]
    return pa.Table.from_pylist(rows)


SCORES = _scores()


def _state() -> str:
    # a batch state of LIKERT's counts per unit and value (docs/batches.md), written once
    import tempfile

    path = str(Path(tempfile.mkdtemp(prefix="routes_state_")) / "state.parquet")
    ag.summarize(LIKERT, to=path, metric="metric")
    return path


STATE = _state()

# peers' counts and contingency tables (docs/decisions/0022): read by their cells by default,
# expanded into ratings when layout_cells="expanded" is forced
from peers._data import irrcac_cont3x3, irrcac_distrib6  # noqa: E402

TABLE, COUNTS = irrcac_cont3x3(), irrcac_distrib6()

# name -> call: together they take every decision of routes.DECISIONS
CALLS: dict[str, Callable[[], Any]] = {
    "coefficients": lambda: ag.coefficients(LIKERT, metric="metric", ci=0.9, n_boot=30),
    "alpha_ordinal": lambda: ag.krippendorff_alpha(K2011, level="ordinal"),
    "alpha_ordinal_scores": lambda: ag.krippendorff_alpha(SCORES, level="ordinal"),
    # interval alpha alone: the sums form on scores (default) and where the wide form is the
    # default (K2011, with units rated once), and on a batch state's weighted rows
    "alpha_interval": lambda: [ag.krippendorff_alpha(SCORES, level="interval", ci=0.95,
                                                     ci_method="analytic"),
                               ag.krippendorff_alpha(K2011, level="interval"),
                               ag.krippendorff_alpha(STATE, level="interval", metric="metric")],
    "cohen_named": lambda: ag.cohen_kappa(LIKERT, metric="metric", raters=["r1", "r3"],
                                          weights="linear", ci=0.95),
    "icc": lambda: ag.icc(LIKERT, metric="metric"),
    "irr": lambda: ag.irr(DATA / "workshop_annotations.jsonl"),
    "diagnostics": lambda: ag.rater_diagnostics(LIKERT, metric="metric"),
    "judges": lambda: ag.judge_agreement(DATA / "weval_results.json"),
    "consistency": lambda: ag.consistency(DATA / "consistency_pairs.jsonl"),
    "alt_test": lambda: ag.alt_test(DATA / "alttest" / "lesion.csv", judges=["gpt-4o"],
                                    scoring="neg_rmse", epsilon=0.15),
    # alpha's analytic standard error (sql/_alpha_units.sql.j2, a producer per form) and the
    # irrCAC inference's t tests, every coefficient's test with it
    "alpha_se": lambda: [ag.krippendorff_alpha(LIKERT, metric="metric", level=level, ci=0.95,
                                               ci_method="analytic", inference=inference)
                         for level in ("nominal", "interval") for inference in ("normal", "irrcac")],
    "tests": lambda: ag.coefficients(LIKERT, metric="metric", ci=0.95, inference="irrcac",
                                     which=["fleiss_kappa", "gwet_ac1", "brennan_prediger",
                                                    "percent_agreement", "conger_kappa"]),
    # a batch state of counts: summed as weighted rows, or expanded into ratings
    "state": lambda: ag.coefficients(STATE, level="interval"),
    # quadratic weights on scores (the counts form): the kappas' sums over pairs of categories
    # from moments, or from the table of weights (decision kappa_weights, docs/decisions/0019)
    "kappa_moments": lambda: ag.coefficients(SCORES, weights="quadratic", ci=0.95,
                                             ci_method="analytic",
                                             which=["fleiss_kappa", "gwet_ac1", "brennan_prediger",
                                                    "percent_agreement", "conger_kappa"]),
    # a contingency table and a counts table, each read by its cells or expanded
    "layouts": lambda: [ag.cohen_kappa(TABLE, layout="table", ci=0.95, ci_method="analytic"),
                        ag.fleiss_kappa(COUNTS, layout="counts", ci=0.95, ci_method="analytic")],
}
CHEAP = ("alpha_ordinal", "alpha_ordinal_scores", "alpha_interval", "cohen_named", "icc",
         "consistency", "alt_test", "state", "kappa_moments", "layouts")


def _run(call: Callable[[], Any]) -> tuple[Any, list[dict[str, str]]]:
    with routes.collecting() as log:
        try:
            result: Any = call()
        except Exception as exc:                    # a typed error is an answer too
            result = (type(exc).__name__, str(exc))
    return json.loads(json.dumps(without_route(result), default=str)), list(log)


def _check(decision: str, alternative: str, names: tuple[str, ...]) -> None:
    taken = False
    for name in names:
        expected, _ = _run(CALLS[name])
        with routes.forcing(**{decision: alternative}):
            got, log = _run(CALLS[name])
        close(got, expected, f"{decision}={alternative} {name}")
        taken = taken or any(entry.get(decision) == alternative for entry in log)
    assert taken, f"no call of {names} took {decision}={alternative}: add one to CALLS"


@pytest.mark.parametrize("decision,alternative", routes.alternatives())
@pytest.mark.slow  # every call under every alternative: a minute on 2 cores; CI runs it
def test_every_alternative_gives_the_default_routes_answers(decision, alternative):
    _check(decision, alternative, tuple(CALLS))


def test_each_alternative_on_the_first_cheap_call_that_takes_it():
    # the default run's share: per alternative, the first of the cheap calls that takes it,
    # under the forced and the default route (the slow test runs every call)
    reached = []
    defaults: dict[str, Any] = {}            # each call's default answer, computed once
    for decision, alternative in routes.alternatives():
        for name in CHEAP:
            if name not in defaults:
                defaults[name], _ = _run(CALLS[name])
            expected = defaults[name]
            with routes.forcing(**{decision: alternative}):
                got, log = _run(CALLS[name])
            if any(entry.get(decision) == alternative for entry in log):
                close(got, expected, f"{decision}={alternative} {name}")
                reached.append((decision, alternative))
                break
    # every alternative but the judges' is within the cheap calls' reach
    assert set(routes.alternatives()) - set(reached) <= {("judges", "rekeyed")}, reached


def test_every_decision_is_declared_with_a_producer_and_a_reason():
    for decision in routes.DECISIONS.values():
        assert len(decision.alternatives) >= 2, decision.name
        for producer in decision.alternatives:
            assert producer.gathers and producer.why and producer.where, producer


def test_forcing_refuses_an_unknown_alternative():
    with pytest.raises(ag.OptionError, match="no alternative 'sideways'"):
        with routes.forcing(units="sideways"):
            pass
    with pytest.raises(ag.OptionError, match="no route decision 'speed'"):
        with routes.forcing(speed="fast"):
            pass


def test_every_result_says_its_route():
    # the route is part of every result: one entry per statement, its producers by decision
    # (K2011's 41 ratings take the counts form, at most constants.SMALL_INPUT_RATINGS)
    result = ag.fleiss_kappa(K2011)
    assert result["route"] == [{"statement": "coefficients", "units": "counts",
                                "rater_bits": "bits", "rater_list": "listed"}]
    with routes.forcing(units="wide"):
        assert ag.fleiss_kappa(K2011)["route"][0]["units"] == "wide"


@pytest.mark.parametrize("extra,units", [(0, "counts"), (1, "wide")])
def test_few_ratings_take_the_counts_form(extra, units):
    # at most SMALL_INPUT_RATINGS ratings (missing values and placeholders not counted): the
    # counts form; one more: the wide form; the same numbers either way (to the last bits,
    # docs/decisions/0008), and the wide one when forced below the threshold
    from agreement_sql.constants import SMALL_INPUT_RATINGS

    n = SMALL_INPUT_RATINGS + extra
    rows = [{"item": k // 4, "rater": f"r{k % 4}", "value": (k * 7 + k // 4) % 5} for k in range(n)]
    rows += [{"item": 0, "rater": "r9", "value": None}] * 3       # missing: not ratings
    table = pa.Table.from_pylist(rows)
    for call in (ag.fleiss_kappa, ag.krippendorff_alpha):
        got = call(table)
        assert got["route"][0]["units"] == units and got["n_rows"] == n + 3
        other = "wide" if units == "counts" else "counts"
        with routes.forcing(units=other):
            forced = call(table)
        assert forced["route"][0]["units"] == other
        close(without_route(forced), without_route(got), f"{call.__name__} {units}")


def test_every_producer_is_a_named_template_or_macro_with_a_header():
    # a producer is "sql/<file>" or "sql/<file>#<macro>": the file exists, the macro is defined
    # in it, and a comment before the macro names the producer it is (dbt-utils' dispatch)
    from agreement_sql.templates import template_dir

    folder = template_dir()
    for decision in routes.DECISIONS.values():
        for producer in decision.alternatives:
            for where in producer.where:
                file, _, macro = where.partition("#")
                text = (folder / file.removeprefix("sql/")).read_text()
                if macro:
                    at = text.find("{% macro " + macro + "(")
                    assert at > 0, (decision.name, producer.name, where)
                    header = text[text.rfind("{#", 0, at):at]
                    assert "producer" in header or "ANOVA" in header, (where, header)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(__import__("agreement_sql").registry.REGISTRY))
def test_every_coefficient_on_every_per_unit_alternative(name):
    # every registry entry, on two raters' ratings with missing values and slices, under each
    # alternative of the per-unit decisions: the default route's answer (so a coefficient added
    # to the registry is compared across the routes by construction)
    import random

    rng = random.Random(5)
    rows = [{"item": i, "rater": r, "g": f"g{i % 2}",
             "value": rng.choice([1, 2, 3]) if rng.random() > 0.1 else None}
            for i in range(40) for r in ("a", "b")]
    table = pa.Table.from_pylist(rows)
    function = getattr(ag, name)
    expected, _ = _run(lambda: function(table, group_by="g", missing=[9]))
    # every decision the routes module declares (one that does not apply to the call is a
    # no-op), but the engine's own (by_engine: the engines' tests compare those)
    for decision in (d for d, declared in routes.DECISIONS.items() if not declared.by_engine):
        for producer in routes.DECISIONS[decision].names:
            with routes.forcing(**{decision: producer}):
                got, _ = _run(lambda: function(table, group_by="g", missing=[9]))
            close(got, expected, f"{name} {decision}={producer}")


def test_a_statement_that_needs_the_counts_form_keeps_it_when_the_wide_form_is_forced():
    # alpha with a distance over set labels reads pairs of category labels, which only the counts
    # form holds (docs/decisions/0028): forcing the wide form must not reach its statement (it
    # would weigh the coincidences by the level's distance instead); the value is the nltk-checked
    # one of tests/coefficients/test_alpha_distance.py's route, whatever is forced
    table = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4], "rater": ["a", "b"] * 4,
                      "value": ["x|y", "x", "y", "y", "x", "x|y", "y", "x"]})
    expected = ag.krippendorff_alpha(table, distance="masi", set_separator="|")
    with routes.forcing(units="wide"):
        got = ag.krippendorff_alpha(table, distance="masi", set_separator="|")
    assert got["route"][0]["units"] == "counts"
    assert got["value"] == expected["value"] and got["value"] is not None
