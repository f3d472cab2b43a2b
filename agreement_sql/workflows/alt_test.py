"""The alternative annotator test (alt-test): may an LLM judge replace a human annotator?

Calderon, Reichart & Dror, "The Alternative Annotator Test for LLM-as-a-Judge: How to
Statistically Justify Replacing Human Annotators with LLMs" (ACL 2025, arXiv 2501.10970),
section 3, as the authors' notebook runs it (github.com/nitaytech/AltTest,
``alt_test_example.ipynb``). For each judge and each human h, over the instances h rated that
also carry the judge's label and at least ``min_humans`` human labels: score the judge and h
against the *other* humans (accuracy: the share of their labels equal to the scored one;
neg_rmse: minus the root mean squared difference to their values); W_judge = [score_judge >=
score_h], W_h = [score_h >= score_judge]; test H0 mean(W_h - W_judge) >= epsilon against H1 <
epsilon with a one-sample t-test; reject over the humans by Benjamini-Yekutieli at ``q``. The
winning rate (share of humans rejected) decides (passed at 0.5); the advantage probability
(mean over humans of mean(W_judge)) ranks judges.

Every number comes from ``sql/alt_test.sql.j2`` (the p-values from Student's t distribution in
SQL, ``sql/_student_t.sql.j2``; docs/decisions/0017); this module checks the options, reads the
ratings by the package's rules (profile, plan, duplicate checks) and shapes the rows.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Mapping, Sequence

from ..declared import EPSILON_GUIDANCE, MIN_ITEMS
from ..errors import OptionError
from ..metrics._common import counted, every_key
from .. import routes
from ..public import public
from ..profile import Profile, read_profile
from ..ratings import RatingsSpec
from ..results import AltTestExcludedHuman, AltTestHuman, AltTestJudge, AltTestResult
from ..session import ratings_session

SCORINGS = ("accuracy", "neg_rmse")
LEVELS = {"accuracy": "nominal", "neg_rmse": "interval"}


@public()
def alt_test(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
             judges: Sequence[str] | str, epsilon: float = 0.2, scoring: str = "accuracy",
             q: float = 0.05, min_humans: int = 2, min_items: int = MIN_ITEMS,
             metric: str | None = None, group_by: Sequence[str] | str | None = None,
             con: Any = None, on_duplicate: str | None = None,
             missing: Any = None) -> AltTestResult | list[AltTestResult]:
    """The alternative annotator test of each of ``judges`` against the human raters.

    ``source`` is a long table (one row per item, rater and label); the raters named in
    ``judges`` are the LLM judges (one test each, in the order given), every other rater is a
    human. ``scoring``: "accuracy" (labels, or numbers compared as categories) or "neg_rmse"
    (numbers). ``epsilon`` in [0, 1): the advantage a judge is granted for being cheaper (the
    paper: 0.2 experts, 0.15 skilled annotators, 0.1 crowd workers). ``q``: the false discovery
    rate of the Benjamini-Yekutieli procedure over the humans. ``min_humans`` (>= 2): the human
    labels an instance needs to enter; ``min_items`` (>= 30, the paper's floor for the t-test):
    the instances a human needs to be tested. Returns one result (a list with ``metric=`` or
    ``group_by=``, one per metric and slice): per judge its winning rate, advantage
    probability, pass/fail and each human's test, what was excluded and why, the humans'
    Krippendorff alpha, and ``conventions``.
    """
    names = check_options(judges)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         needs_raters="alt_test") as spec:
        results = alt_test_on(spec, judges=names, epsilon=float(epsilon), scoring=scoring,
                              q=float(q), min_humans=min_humans, min_items=min_items)
    return results if spec.several else results[0]


def check_options(judges: Any) -> list[str]:
    """The judges as a list of names (their type is checked by agreement_sql.declared, with
    every other option, before the call runs); a name given twice is refused."""
    if isinstance(judges, str):
        judges = [judges]
    if isinstance(judges, Mapping):
        judges = list(judges)
    names: list[str] = []
    for j in judges:
        if j in names:
            raise OptionError(f"judges= names {j!r} twice")
        names.append(j)
    return names


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(repr(r) for r in names[:10])
    return shown + (", ..." if len(names) > 10 else "")


def _unknown_judges(spec: RatingsSpec, unknown: Sequence[str], rated: Sequence[str]) -> OptionError:
    return OptionError(f"judges= names {', '.join(map(repr, unknown))}, who rated nothing in "
                       f"{spec.relation.description}; raters who did include {_listed(rated)}")


def alt_test_on(spec: RatingsSpec, *, judges: Sequence[str], epsilon: float, scoring: str,
                q: float, min_humans: int, min_items: int,
                profile: Profile | None = None) -> list[AltTestResult]:
    """:func:`alt_test` on the ratings of an open call (options already checked), one result
    per metric (and slice); ``profile``: the ratings profile of ``spec`` if read already."""
    profile = profile if profile is not None else read_profile(spec)
    profile.check(numbers=scoring == "neg_rmse",
                  what="alt_test(scoring='neg_rmse') (it compares numbers; use scoring='accuracy' "
                       "for labels)")
    if profile.raters and len(profile.raters) == profile.n_raters:
        unknown = [j for j in judges if j not in profile.raters]
        if unknown:
            raise _unknown_judges(spec, unknown, list(profile.raters))
    plan = routes.decide(profile, "alt_test")
    kinds = "number" if not profile.has_labels else (
        "label" if profile.totals["n_labels"] == profile.totals["n_ratings"] else "mixed")
    form = routes.alt_test_producer(profile, plan, judges, scoring)
    humans = [r for r in profile.raters if r not in judges]
    pivot = form in ("pattern", "pivot")
    needs_categories = form == "pattern" or (form == "pivot" and scoring == "accuracy")
    options = {**spec.options(), "rater_blocks": plan.rater_blocks, "rater_patterns": False,
               "rater_list": 0, "categories": [kind for kind, _ in plan.categories] if needs_categories else [],
               "scoring": scoring, "n_judges": len(judges), "category_kinds": kinds,
               "alt_form": form, "n_humans": len(humans) if pivot else 0}
    params = {**spec.params(), **plan.params(), **{f"judge_{i}": j for i, j in enumerate(judges)},
              **({f"human_{i}": h for i, h in enumerate(humans)} if pivot else {}),
              "epsilon": epsilon, "q": q, "min_humans": min_humans, "min_items": min_items}
    rows = plan.query(spec, "alt_test", options, params, alt_test=form)
    key_rows = [r for r in rows if r["part"] == "key"]
    judge_rows = [r for r in rows if r["part"] == "judge"]
    rated = {r["judge"] for r in judge_rows if r["n_judge_ratings"]}
    unknown = [j for j in judges if j not in rated]
    if unknown:
        humans = sorted({r["rater"] for r in rows if r["part"] == "human"})
        raise _unknown_judges(spec, unknown, sorted(humans + sorted(rated)))
    return _shape(spec, profile, rows, key_rows, judges=judges, epsilon=epsilon, scoring=scoring,
                  q=q, min_humans=min_humans, min_items=min_items)


def _shape(spec: RatingsSpec, profile: Profile, rows: list[dict[str, Any]],
           key_rows: list[dict[str, Any]], *, judges: Sequence[str], epsilon: float,
           scoring: str, q: float, min_humans: int, min_items: int) -> list[AltTestResult]:
    slices = spec.slices

    def key(row: dict[str, Any]) -> tuple:
        return (row["metric"], *(row[s] for s in slices))

    by_judge: dict[tuple, AltTestJudge] = {}
    stated = conventions(scoring, epsilon, q, min_humans, min_items)

    def result_of(row: dict[str, Any]) -> AltTestResult:
        accounting = counted(profile, row, used=int(row.get("n_ratings") or 0), single_rated=False)
        result = AltTestResult(
            judges=[], humans=[], n_instances=int(row.get("n_units") or 0),
            human_alpha=row.get("alpha"), human_alpha_level=LEVELS[scoring],
            human_alpha_items=int(row.get("alpha_items") or 0), epsilon=epsilon, scoring=scoring,
            q=q, min_humans=min_humans, min_items=min_items, metric=row["metric"],
            n_rows=accounting["n_rows"], n_ratings=accounting["n_ratings"],
            n_excluded=accounting["n_excluded"], conventions=stated)
        if spec.group_by:
            result["group"] = spec.describe_slice(row)
        return result

    def untested(row: dict[str, Any]) -> AltTestResult:
        """A metric or slice the statement did not reach (every rating missing): present, each
        judge untested (None, nothing counted), its exclusions from the profile."""
        result = result_of(row)
        result["judges"] = [AltTestJudge(
            judge=j, winning_rate=None, advantage_probability=None, passed=None,
            epsilon=epsilon, scoring=scoring, n_items=0, n_humans_tested=0, n_humans_won=0,
            humans=[], excluded_instances={"fewer_than_min_humans": 0, "no_judge_label": 0},
            excluded_humans=[]) for j in judges]
        return result

    # every metric and slice of the input, in the profile's order (docs/decisions/0005)
    results: dict[tuple, AltTestResult] = every_key(
        profile, {key(row): result_of(row) for row in key_rows}, untested)
    for row in sorted((r for r in rows if r["part"] == "judge"), key=lambda r: int(r["judge_no"])):
        judge = AltTestJudge(
            judge=row["judge"], winning_rate=row["winning_rate"],
            advantage_probability=row["advantage_probability"],
            passed=None if row["passed"] is None else bool(row["passed"]),
            epsilon=epsilon, scoring=scoring, n_items=int(row["n_items"]),
            n_humans_tested=int(row["n_tested"]), n_humans_won=int(row["n_won"]), humans=[],
            excluded_instances={"fewer_than_min_humans": int(row["few_humans"]),
                                "no_judge_label": int(row["no_judge_label"])},
            excluded_humans=[])
        results[key(row)]["judges"].append(judge)
        by_judge[key(row) + (int(row["judge_no"]),)] = judge
    for row in (r for r in rows if r["part"] == "human"):
        result = results[key(row)]
        if int(row["judge_no"]) == 0:
            result["humans"].append(row["rater"])
        judge = by_judge[key(row) + (int(row["judge_no"]),)]
        if row["tested"]:
            judge["humans"].append(AltTestHuman(
                human=row["rater"], n_items=int(row["n_items"]), p_value=row["p_value"],
                judge_wins=bool(row["judge_wins"]), advantage=row["advantage"],
                mean_difference=row["mean_difference"], t=row["t"], df=int(row["df"])))
        else:
            judge["excluded_humans"].append(AltTestExcludedHuman(
                human=row["rater"], n_items=int(row["n_items"]),
                reason=f"fewer than min_items={min_items} instances with the judge's label and "
                       f"at least {min_humans} humans"))
    return list(results.values())


def conventions(scoring: str, epsilon: float, q: float, min_humans: int,
                min_items: int) -> dict[str, str]:
    """Every rule the numbers follow (docs/judges.md, docs/decisions/0017)."""
    score = ("accuracy: the share of the other humans' labels equal to the scored label "
             "(numbers compared as categories: 2 and 2.0 are one)" if scoring == "accuracy" else
             "neg_rmse: minus the root mean squared difference between the scored value and the "
             "other humans' values")
    return {
        "source": "Calderon, Reichart & Dror (ACL 2025, arXiv 2501.10970), section 3, as the "
                  "authors' notebook computes it (github.com/nitaytech/AltTest)",
        "humans": "every rater not named in judges= is a human; the judges are tested one by one",
        "instances": f"a judge is tested on the instances with its label and at least "
                     f"min_humans={min_humans} human labels; the others are excluded and counted "
                     f"per judge (excluded_instances: fewer_than_min_humans, no_judge_label)",
        "scoring": f"the judge and human h are each scored against the humans other than h on the "
                   f"instance; {score}; from per-instance sums less h's own rating (no human is "
                   f"compared with another one by one)",
        "ties": "W_judge = [score_judge >= score_h], W_h = [score_h >= score_judge]: a tie counts "
                "for both, so d = W_h - W_judge is 0 there, -1 where the judge scores higher, 1 "
                "where the human does" + (
                    "; neg_rmse compares the squared distances' difference (x_j - x_h)((m - 1)"
                    "(x_j + x_h) - 2 S1'), exact for scores on an integer grid" if scoring == "neg_rmse" else ""),
        "test": f"per human with at least min_items={min_items} instances: the one-sided one-sample "
                f"t-test of d against epsilon={epsilon:g} (H0 mean(d) >= epsilon, H1 < epsilon), as "
                f"scipy.stats.ttest_1samp(d, epsilon, alternative='less'); t = (mean(d) - epsilon) "
                f"/ (s / sqrt(n)), s the sample standard deviation, df = n - 1; p = P(T <= t) from "
                f"Student's t distribution computed in SQL (within 1e-12 of scipy)",
        "zero_variance": "when every d is equal the t statistic is undefined (t is None): p = 0 "
                         "when mean(d) < epsilon (scipy: t = -inf, p = 0), p = 1 otherwise (scipy: "
                         "p = 1 above epsilon, NaN at mean(d) = epsilon, which the notebook never "
                         "rejects)",
        "multiple_testing": f"Benjamini-Yekutieli at q={q:g} over the tested humans of a judge: "
                            f"with the m p-values sorted and c(m) = 1 + 1/2 + .. + 1/m, the k "
                            f"smallest are rejected, k the largest rank with p_(k) <= (k / m) (q / "
                            f"c(m)); judge_wins marks a rejected null (p ties ordered by name)",
        "winning_rate": "the share of the tested humans whose null is rejected; None when no human "
                        "was tested",
        "advantage_probability": "the mean over the tested humans of mean(W_judge) (each human's "
                                 "advantage): the probability that the judge is as good as or "
                                 "better than a random human; rank judges by it",
        "passed": "winning_rate >= 0.5, decided on the unrounded counts (2 won >= tested); None "
                  "when no human was tested",
        "epsilon": f"epsilon={epsilon:g} is the advantage granted to the judge for being cheaper; "
                   f"{EPSILON_GUIDANCE}",
        "min_items": f"humans with fewer than min_items={min_items} instances are not tested; they "
                     f"are listed per judge (excluded_humans) with their count. The paper warns "
                     f"against fewer than {MIN_ITEMS} instances per human, so min_items below "
                     f"{MIN_ITEMS} is refused (the Wilcoxon signed-rank variant it names is not "
                     f"implemented)",
        "human_alpha": f"Krippendorff's alpha ({LEVELS[scoring]}) among the humans over every "
                       f"instance two or more humans rated (whatever the judges did), the "
                       f"package's alpha formula: report it beside the alt-test, as the paper "
                       f"advises",
        "accounting": "n_rows = n_ratings + sum(n_excluded): missing values, placeholders and "
                      "ratings merged by on_duplicate; a rater rating an instance twice is an "
                      "error unless on_duplicate is given",
    }
