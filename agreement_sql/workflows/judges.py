"""Judge agreement (seed 004, Weval): Krippendorff's alpha between LLM judges, in Weval's shape.

Input: a Weval result JSON as it is (``evaluationResults.llmCoverageScores[promptId][modelId]
.pointAssessments[].individualJudgements[]``), or any long table (one row per item, judge and
score). The Weval nesting (prompt -> model -> points -> judgements, with prompt and model ids as
object keys) is flattened here, in Python, into an Arrow table: that is input preparation only
(judge id = the text of ``judgeModelId`` before the first ``(``; scores stay as given). Every
number then comes from ``sql/judge_*.sql.j2`` (alpha through ``sql/_alpha.sql.j2``).

Granularities (seed 004): per group (Weval: prompt x model, the ``judgeAgreement`` of one
result), per point (one rubric point across every model's response: ``perPointAlphas``), and
platform-wide (mean and min of the group alphas, and alpha pooled over every judged point).
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import warnings as _warnings
from itertools import repeat
from typing import Any, Mapping, Sequence

from ..public import public
from ..errors import AgreementWarning, OptionError, SourceError
from ..interpret import krippendorff_label, settled_near
from ..parameters import LEVELS
from .. import routes
from ..profile import Profile, read_profile, rekeyed
from ..ratings import RatingsSpec
from ..results import (FlaggedPoint, JudgeAgreementMetrics, JudgeAgreementReport, JudgeGroup,
                       JudgePlatform, JudgeUsed, PointAlpha, PointAgreement, PointFile)
from ..session import ratings_session
from ..outputs import Inputs, OutputSet, new_files
from ..sinks import ParquetSink
from ..sources import check_layout
from ..metrics._common import every_key
from ._common import collector_paused, regrouped, rounded, slice_values
from .diagnostics import diagnose

SIGMA_THRESHOLD = 0.3          # seed 004: a criterion with judge sigma > 0.3 is flagged
UNSTABLE_ALPHA = 0.1           # seed 004: |alpha| < 0.1 with score variance < 0.02 is "unstable"
UNSTABLE_VARIANCE = 0.02
WEVAL_ITEM, WEVAL_RATER, WEVAL_VALUE = "keyPointText", "judgeId", "coverageExtent"
WEVAL_GROUP_BY = ("promptId", "modelId")
APPROACHES = ("standard", "prompt-aware", "holistic", "backup")
# the files of points_to= (--points-to): the per-point rows, and the point alphas with `across`
POINT_FILE_NAMES = ("points.parquet", "point_alphas.parquet")

CONVENTIONS = {
    "alpha": "standard Krippendorff's alpha (coincidence matrix) over the points of a group; "
             "points with fewer than 2 valid scores drop out",
    "numJudges": "distinct judges among the paired scores (upstream took the first point's count)",
    "numComparisons": "within-point judge pairs, sum of m(m-1)/2",
    "groups": "every group of the input is listed, with numRows (its input rows) and excluded "
              "(missing or placeholder scores); one whose scores are all missing has "
              "judgeAgreement null; platform numGroups counts the groups with a score",
    "interpretation": "reliable >= 0.800, tentative >= 0.667, unstable when |alpha| < 0.1 and the "
                      "population variance of the scores < 0.02, else unreliable; decided on "
                      "unrounded alpha; D_e = 0 gives 1.0 reliable",
    "perPointAlphas": "one rubric point across every response (the units are the values of the "
                      "'across' column, modelId for Weval)",
    "flags": "a point is flagged when the population sigma of its judge scores exceeds the threshold",
    "rounding": "alphas to 3 decimals, sigma to 3; diagnostics unrounded",
    "judge_id": "Weval: the text of judgeModelId before the first '('; model = the text in the "
                "parentheses; approach = the id without '-<model>' (else a known prefix, else 'unknown')",
}


@public()
def judge_agreement(source: Any, *, item: str | None = None, rater: str | None = None,
                    value: str | None = None, group_by: Sequence[str] | str | None = None,
                    level: str = "interval", across: str | None | bool = None,
                    sigma_threshold: float = SIGMA_THRESHOLD, judges: Mapping[str, Any] | None = None,
                    diagnostics: bool = True, max_items: int = 10, on_duplicate: str | None = None,
                    con: Any = None, layout: str | None = None, rater_columns: Sequence[str] | None = None,
                    orientation: str | None = None,
                    points_to: str | os.PathLike[str] | None = None) -> JudgeAgreementReport:
    """Inter-judge agreement per group, per point and platform-wide, shaped like Weval's metrics.

    ``source`` is a Weval result JSON (path or the parsed dict) or a long table with columns
    ``item`` (the rubric point), ``rater`` (the judge id), ``value`` (the score) and the
    ``group_by`` columns (Weval: ``promptId``, ``modelId``). ``across`` names the group_by column
    whose values a per-point alpha pools over (default: the last one; ``False`` for none).
    ``judges`` maps a judge id to ``{"model": ..., "approach": ...}`` for ``judgesUsed``.
    Unreliable groups are listed in ``warnings`` and issued as :class:`AgreementWarning`
    (Python's warnings, silent unless the caller enables the category; nothing is printed). A group without any point scored by two judges has ``judgeAgreement`` None.
    ``layout="wide"`` reads a table with a column per judge (docs/migrating.md).
    ``points_to``: a directory (created when absent) that receives the per-point results as
    Parquet files instead of the report (for platform-scale inputs, docs/workflows.md):
    ``points.parquet``, a row per judged point of each group (its judge scores' mean, spread,
    sigma and flag), and ``point_alphas.parquet``, a row per rubric point across responses
    (its alpha), both unrounded; the report's ``perPoint`` and ``highDisagreementPoints`` are
    then None, ``perPointAlphas`` absent and ``pointFiles`` says where the rows went. A file
    that exists is not overwritten, and nothing is written onto an input (OptionError); each
    file is written under a temporary name and both are placed only when the call succeeds
    (agreement_sql.outputs, docs/decisions/0016).
    """
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    if isinstance(sigma_threshold, bool) or not isinstance(sigma_threshold, (int, float)):
        raise OptionError(f"sigma_threshold must be a number, got {sigma_threshold!r}")
    shape = check_layout(layout, rater_columns, orientation)
    inputs = Inputs.of(source)
    weval = _weval_input(source) if shape.kind == "long" else None
    meta: dict[str, dict[str, str]] = {}
    if weval is not None:
        source, meta, description = weval
        item = item or WEVAL_ITEM
        rater = rater or WEVAL_RATER
        value = value or WEVAL_VALUE
        group_by = list(WEVAL_GROUP_BY) if group_by is None else group_by
    else:
        description = None
    if isinstance(group_by, str):
        group_by = [group_by]
    group_by = list(group_by or [])
    for name, spec_meta in (judges or {}).items():
        meta[str(name)] = {**meta.get(str(name), {}), **dict(spec_meta)}
    if across is None:
        across_col = group_by[-1] if group_by else None
    elif across is False:
        across_col = None
    else:
        if across not in group_by:
            raise OptionError(f"across must be one of the group_by columns {group_by}, got {across!r}")
        across_col = str(across)

    with ratings_session(source, con=con, item=item or "item", rater=rater or "rater",
                         value=value or "value", group_by=group_by or None,
                         on_duplicate=on_duplicate, ordered=True, layout=shape,
                         needs_raters="judge_agreement") as spec:
        if description:
            from dataclasses import replace
            spec = replace(spec, relation=replace(spec.relation, description=description))
        names = list(spec.group_by)
        slices = spec.slices
        across_slice = None
        if across_col:
            folded = [n for n in names if n == across_col] or [n for n in names if n.lower() == across_col.lower()]
            across_slice = slices[names.index(folded[0])]
        outputs = (_point_files(points_to, names, across_slice, inputs)
                    if points_to is not None else None)
        profile = read_profile(spec)
        sinks: dict[str, ParquetSink] = {}
        try:
            groups, pooled, per_point, diag = _granularities(
                spec, profile, level, sigma_threshold, weval is not None, across_slice,
                diagnostics, max_items, outputs, sinks)
            if outputs is not None:
                outputs.commit()        # both files placed, or neither (OptionError)
        except BaseException:
            for sink in sinks.values():
                sink.discard()
            if outputs is not None:
                outputs.discard()
            raise
    files: dict[str, PointFile] | None = None
    if outputs is not None:
        placed = {os.path.basename(o.path): o.path for o in outputs}
        files = {report_key: {"path": placed[f"{part}.parquet"], "rows": sinks[part].rows}
                 for part, report_key in (("points", "points"), ("point_alphas", "pointAlphas"))
                 if part in sinks}
    with collector_paused():
        return _report(groups, pooled, per_point, diag, names, slices, across_slice, meta, level,
                       float(sigma_threshold), weval is not None, profile, files)


def _granularities(spec: RatingsSpec, profile: Profile, level: str, sigma_threshold: float,
                   is_weval: bool, across_slice: str | None, diagnostics: bool, max_items: int,
                   outputs: OutputSet | None,
                   sinks: dict[str, ParquetSink]) -> tuple[Parts, Parts, Parts, list[Any]]:
    """The three granularities and the diagnostics. In the wide form with rater bits all three
    come from one per-unit aggregation, materialised once (sql/judge_units.sql.j2) and read by
    a statement for the groups, one for the points and one for the point alphas; otherwise
    the pooled and per-point granularities re-key the same ratings, each in a statement of its
    own. With ``outputs`` (``points_to``) the per-point rows go to Parquet files, written under
    their temporary names: their sinks are added to ``sinks`` (the caller places the files, or
    discards them if the call fails)."""
    profile.check(numbers=level != "nominal", allow_empty=is_weval,
                  what=f"judge agreement at level {level!r}")
    # the other granularities re-key the same ratings: their checks, raters, categories and
    # plan are the profile's (agreement_sql.profile.rekeyed), read once
    plan = routes.decide(profile, "judge_agreement") if profile.totals["n_ratings"] else None
    together = routes.judges_producer(plan) == "one_aggregation"
    if outputs is not None:
        sinks.update(_point_sinks([o.open_temp() for o in outputs], list(spec.group_by),
                                  spec.slices, across_slice, "point_" if together else "slice_"))
    pooled_spec = regrouped(spec, pool=True)
    per_point: Parts = {}
    if together:
        assert plan is not None
        # the units once, then a statement for the groups (with usage and the pooled alpha),
        # one for the points and one for the point alphas: each result ordered on its own
        units = plan.materialize(spec, "judge_units", {**spec.options(), **plan.options()},
                                 {**spec.params(), **plan.params()}, into="judge_units",
                                 judges="one_aggregation")

        def on_units(*, groups: bool, usage: bool, points: bool, point_alphas: bool,
                  sink: str | None = None) -> Parts:
            return _judge_rows(spec, profile, plan, level, sigma_threshold, groups=groups,
                               usage=usage, points=points, point_alphas=point_alphas,
                               granularities=True, point_across=across_slice,
                               units_given=units.name,
                               sinks={sink: sinks[sink]} if sink and sinks else None)

        parts = on_units(groups=True, usage=True, points=False, point_alphas=False)
        parts.update(on_units(groups=False, usage=False, points=True, point_alphas=False,
                              sink="points"))
        groups = {"groups": parts["groups"], "usage": parts["usage"], "points": parts.get("points", {})}
        pooled = {"groups": parts["pooled_groups"], "usage": parts["pooled_usage"]}
        if across_slice is not None:
            alphas = on_units(groups=False, usage=False, points=False, point_alphas=True,
                              sink="point_alphas").get("point_alphas")
            if alphas is not None:
                per_point = {"groups": {(f"slice_{name[6:]}" if name.startswith("point_") else name): values
                                        for name, values in alphas.items()}}
    else:
        groups = _judge_rows(spec, profile, plan, level, sigma_threshold, usage=True, points=True,
                             sinks={"points": sinks["points"]} if sinks else None)
        pooled = _judge_rows(pooled_spec, rekeyed(profile, pooled_spec), plan, level,
                             sigma_threshold, usage=True, points=False)
        if across_slice is not None:
            across_spec = regrouped(spec, across=across_slice)
            per_point = _judge_rows(across_spec, rekeyed(profile, across_spec), plan, level,
                                    sigma_threshold, usage=False, points=False,
                                    group_columns=POINT_ALPHA_COLUMNS,
                                    sinks={"groups": sinks["point_alphas"]} if sinks else None)
    diag = (diagnose(pooled_spec, level=level, max_items=max_items,
                     profile=rekeyed(profile, pooled_spec))
            if diagnostics and groups["groups"]["alpha"] else [])
    return groups, pooled, per_point, diag


# a statement's rows by part, each part column by column: {part: {column: [value per row]}}
Parts = dict[str, dict[str, list[Any]]]
# the columns of sql/judge_agreement.sql.j2 the report reads, by part (with the keys)
GROUP_COLUMNS = ["alpha", "num_items", "num_comparisons", "num_judges", "score_variance",
                 "mean_alpha", "min_alpha", "num_groups_alpha", "num_groups", "n_duplicate_units"]
USAGE_COLUMNS = ["rater", "assessment_count", "first_seen"]
POINT_COLUMNS = ["item", "std_dev", "mean", "spread", "num_judges", "flagged"]
# the per-point granularity's groups (a row per rubric point): what perPoint reads
POINT_ALPHA_COLUMNS = ["alpha", "score_variance", "num_judges", "num_items", "num_comparisons",
                       "n_duplicate_units"]


# the point files' columns after the group columns: (statement column, file column, kind);
# the point text comes first, from the column that holds it
POINT_FILE_COLUMNS = [("num_judges", "numJudges", "bigint"), ("mean", "mean", "double"),
                      ("spread", "spread", "double"), ("std_dev", "stdDev", "double"),
                      ("flagged", "flagged", "boolean")]
POINT_ALPHA_FILE_COLUMNS = [("alpha", "alpha", "double"),
                            ("score_variance", "scoreVariance", "double"),
                            ("num_judges", "numJudges", "bigint"),
                            ("num_items", "numResponses", "bigint"),
                            ("num_comparisons", "numComparisons", "bigint")]


def _point_files(directory: Any, names: list[str], across_slice: str | None,
                 inputs: Inputs) -> OutputSet:
    """``points_to``'s files (points.parquet, and point_alphas.parquet with an ``across``
    column), checked before any statement runs: none exists, none is an input."""
    fixed = {"pointText", *(out for _, out, _ in POINT_FILE_COLUMNS + POINT_ALPHA_FILE_COLUMNS)}
    taken = sorted(fixed & set(names))
    if taken:
        raise OptionError(f"points_to: the group_by column {taken[0]!r} has the name of a column "
                          "of the point files; rename it")
    return new_files(directory, POINT_FILE_NAMES[:2 if across_slice else 1], "points_to",
                     inputs=inputs)


def _point_sinks(files: list[str], names: list[str], slices: list[str],
                 across_slice: str | None, point_key: str) -> dict[str, ParquetSink]:
    """The sinks of ``files`` (their temporary paths): the group points (sql/judge_agreement.sql.j2's "points" part)
    and, with an ``across`` column, the point alphas (its "point_alphas" part, keys
    ``point_<i>``, or the per-point granularity's "groups" part, keys ``slice_<i>``), with the
    report's names for their columns."""
    sinks = {"points": ParquetSink(files[0], [
        *((s, n, None) for n, s in zip(names, slices)), ("item", "pointText", "text"),
        *POINT_FILE_COLUMNS])}
    if across_slice is not None:
        kept = [n for n, s in zip(names, slices) if s != across_slice]
        sinks["point_alphas"] = ParquetSink(files[1], [
            *((f"{point_key}{i}", n, None) for i, n in enumerate(kept)),
            (f"{point_key}{len(kept)}", "pointText", "text"), *POINT_ALPHA_FILE_COLUMNS])
    return sinks


def _judge_rows(spec: RatingsSpec, profile: Profile, plan: routes.Route | None, level: str,
                sigma_threshold: float, *, usage: bool, points: bool, groups: bool = True,
                group_columns: Sequence[str] = GROUP_COLUMNS, granularities: bool = False,
                point_across: str | None = None, point_alphas: bool = True,
                units_given: str | None = None,
                sinks: dict[str, ParquetSink] | None = None) -> Parts:
    """sql/judge_agreement.sql.j2 on ``spec``: the columns each part of the report reads,
    column by column (the per-point granularity has a row per rubric point); with
    ``granularities`` also the pooled and per-point parts, from the units materialised as
    ``units_given`` when named. ``groups``, ``usage``, ``points``, ``point_alphas``: the parts
    to return. The parts in ``sinks`` go to their files instead (a per-point granularity's
    duplicate check is then the group granularity's, whose units are the same). ``plan``
    None: no rating (every part empty)."""
    keys = ["metric", *spec.slices]
    wanted: dict[str, list[str]] = {}
    if groups:
        wanted["groups"] = keys + list(group_columns)
        wanted["usage"] = keys + USAGE_COLUMNS if usage else []
    if points:
        wanted["points"] = spec.slices + POINT_COLUMNS
    if granularities and groups:
        wanted["pooled_groups"] = ["metric", *group_columns]
        wanted["pooled_usage"] = ["metric", *USAGE_COLUMNS] if usage else []
    if granularities and point_across is not None and point_alphas:
        wanted["point_alphas"] = ([f"point_{i}" for i in range(len(spec.slices))]
                                  + POINT_ALPHA_COLUMNS)
    sinks = sinks or {}
    if plan is None:
        for sink in sinks.values():
            sink.close()
        return {part: dict.fromkeys(columns, []) for part, columns in wanted.items()}
    wanted = {part: columns for part, columns in wanted.items() if part not in sinks}
    return plan.query_parts(
        spec, "judge_agreement",
        {**spec.options(), **plan.options("judge_agreement"), "level": level, "with_usage": usage,
         "with_points": points, "with_groups": groups, "granularities": granularities,
         "point_across": point_across, "with_point_alphas": point_alphas,
         "units_given": units_given},
        {**spec.params(), **plan.params(), "sigma_threshold": float(sigma_threshold)},
        wanted, sinks, judges="one_aggregation" if units_given else "rekeyed")


def _rows(columns: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """A (small) part's rows as dicts."""
    return [dict(zip(columns, values)) for values in zip(*columns.values())]


# --- input: the Weval result JSON -------------------------------------------------------------

def _weval_input(source: Any) -> tuple[Any, dict[str, dict[str, str]], str] | None:
    """(Arrow table, judge metadata, description) for a Weval result; None for any other source."""
    if isinstance(source, Mapping):
        return _flatten_weval(source, "the Weval result")
    if not isinstance(source, (str, os.PathLike)):
        return None
    path = os.fspath(source)
    if not path.lower().endswith(".json") or not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if not text.strip():
        raise SourceError(f"{path!r} is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path!r} is not valid JSON: {exc.msg} at line {exc.lineno} column "
                          f"{exc.colno}") from None
    if isinstance(data, Mapping) and ("evaluationResults" in data or "llmCoverageScores" in data):
        return _flatten_weval(data, repr(path))
    return None   # a JSON array of rows: a long table, read by DuckDB


def _flatten_weval(data: Mapping[str, Any], where: str):
    import pyarrow as pa

    results = data.get("evaluationResults", data)
    scores = results.get("llmCoverageScores") if isinstance(results, Mapping) else None
    if not isinstance(scores, Mapping):
        raise SourceError(f"{where} has no evaluationResults.llmCoverageScores object "
                          "(promptId -> modelId -> {pointAssessments: [...]})")
    cols: dict[str, list[Any]] = {k: [] for k in ("promptId", "modelId", "keyPointText",
                                                  "judgeModelId", "judgeId", "coverageExtent")}
    meta: dict[str, dict[str, str]] = {}
    for prompt_id, by_model in scores.items():
        if not isinstance(by_model, Mapping):
            raise SourceError(f"{where}: llmCoverageScores[{prompt_id!r}] is not an object of models")
        for model_id, result in by_model.items():
            if not isinstance(result, Mapping) or "error" in result and "pointAssessments" not in result:
                continue   # an errored (prompt, model) result carries no judgements
            for k, point in enumerate(result.get("pointAssessments") or []):
                at = f"{where}: llmCoverageScores[{prompt_id!r}][{model_id!r}].pointAssessments[{k}]"
                if not isinstance(point, Mapping):
                    raise SourceError(f"{at} is not an object")
                text = point.get("keyPointText")
                for j, judgement in enumerate(point.get("individualJudgements") or []):
                    if not isinstance(judgement, Mapping):
                        raise SourceError(f"{at}.individualJudgements[{j}] is not an object")
                    model_judge = judgement.get("judgeModelId")
                    if not isinstance(model_judge, str) or not model_judge:
                        raise SourceError(f"{at}.individualJudgements[{j}] has no judgeModelId")
                    if not isinstance(text, str):
                        raise SourceError(f"{at} has no keyPointText")
                    score = judgement.get("coverageExtent")
                    if isinstance(score, bool) or (score is not None and not isinstance(score, (int, float))):
                        raise SourceError(f"{at}.individualJudgements[{j}].coverageExtent is "
                                          f"{score!r}, not a number")
                    if isinstance(score, float) and math.isnan(score):
                        score = None   # upstream drops NaN scores: a missing score
                    judge_id = model_judge.split("(", 1)[0]
                    meta.setdefault(judge_id, _judge_meta(judge_id, model_judge))
                    cols["promptId"].append(str(prompt_id))
                    cols["modelId"].append(str(model_id))
                    cols["keyPointText"].append(text)
                    cols["judgeModelId"].append(model_judge)
                    cols["judgeId"].append(judge_id)
                    cols["coverageExtent"].append(None if score is None else float(score))
    table = pa.table({k: pa.array(v, type=pa.float64() if k == "coverageExtent" else pa.string())
                      for k, v in cols.items()})
    return table, meta, where


def _judge_meta(judge_id: str, judge_model_id: str) -> dict[str, str]:
    """model = the text in the parentheses; approach = the id without '-<model>' (Weval ids)."""
    model = "unknown"
    if "(" in judge_model_id and judge_model_id.endswith(")"):
        model = judge_model_id[judge_model_id.index("(") + 1:-1] or "unknown"
    approach = "unknown"
    if model != "unknown" and judge_id.endswith("-" + model):
        approach = judge_id[: -len(model) - 1]
    else:
        approach = next((a for a in APPROACHES if judge_id.startswith(a + "-")), "unknown")
    return {"model": model, "approach": approach}


def judge_set_fingerprint(judge_ids: Sequence[str]) -> str:
    """First 12 hex characters of SHA-256 of the sorted distinct judge ids joined by ','.

    >>> judge_set_fingerprint(["judge-b", "judge-a", "judge-a"])
    'f24547d5af25'
    """
    return hashlib.sha256(",".join(sorted(set(judge_ids))).encode("utf-8")).hexdigest()[:12]


def judge_label(alpha: float | None, score_variance: float | None) -> str | None:
    """Seed 004's words for alpha: reliable, tentative, unstable (alpha near 0 because the
    scores barely vary), unreliable; on the unrounded alpha."""
    label = krippendorff_label(alpha)
    if (label == "unreliable" and alpha is not None
            and settled_near(abs(alpha), UNSTABLE_ALPHA) < UNSTABLE_ALPHA
            and score_variance is not None
            and settled_near(score_variance, UNSTABLE_VARIANCE) < UNSTABLE_VARIANCE):
        return "unstable"
    return label


# --- shaping ------------------------------------------------------------------------------------

def _key(row: dict[str, Any], slices: Sequence[str]) -> tuple:
    return tuple(row[s] for s in slices)


def _metrics(row: dict[str, Any], used: list[dict[str, Any]],
             meta: Mapping[str, Mapping[str, str]]) -> JudgeAgreementMetrics | None:
    if not row["num_items"]:
        return None
    used = sorted(used, key=lambda u: (-int(u["assessment_count"]), u["first_seen"], u["rater"]))
    judges_used = [JudgeUsed(judgeId=u["rater"],
                             model=str(meta.get(u["rater"], {}).get("model", "unknown")),
                             approach=str(meta.get(u["rater"], {}).get("approach", "unknown")),
                             assessmentCount=int(u["assessment_count"])) for u in used]
    return JudgeAgreementMetrics(
        krippendorffsAlpha=rounded(row["alpha"], 3),
        numItems=int(row["num_items"]),
        numJudges=int(row["num_judges"]),
        numComparisons=int(row["num_comparisons"]),
        interpretation=judge_label(row["alpha"], row["score_variance"]),
        judgeSetFingerprint=judge_set_fingerprint([u["judgeId"] for u in judges_used]),
        judgesUsed=judges_used,
    )


def _report(main: Parts, pooled_parts: Parts, per_point: Parts, diag: list[Any],
            names: list[str], slices: list[str], across_slice: str | None,
            meta: Mapping[str, Mapping[str, str]], level: str, sigma_threshold: float,
            is_weval: bool, profile: Profile,
            files: dict[str, PointFile] | None = None) -> JudgeAgreementReport:
    scored = _rows(main["groups"])
    # every group of the input, in the profile's order: one the statement did not reach (every
    # score missing) is listed with judgeAgreement None (docs/decisions/0005)
    groups = list(every_key(profile, {profile.key_of(g): g for g in scored},
                            lambda key: {**key, **dict.fromkeys(GROUP_COLUMNS)}).values())
    usage_by: dict[tuple, list[dict[str, Any]]] = {}
    for u in _rows(main["usage"]):
        usage_by.setdefault(_key(u, slices), []).append(u)

    # each group's points in statement order (for perPointAlphas), and its flagged points
    points = main.get("points") or dict.fromkeys([*slices, *POINT_COLUMNS], [])
    point_keys = zip(*(points[s] for s in slices)) if slices else repeat((), len(points["item"]))
    items_by: dict[tuple, list[str]] = {}
    flagged_by: dict[tuple, list[FlaggedPoint]] = {}
    shown_spreads: dict[tuple[Any, Any], tuple[float | None, float | None]] = {}
    for key, item, sd, mean, spread, n_judges, flag in zip(
            point_keys, points["item"], points["std_dev"], points["mean"], points["spread"],
            points["num_judges"], points["flagged"]):
        items_by.setdefault(key, []).append(item)
        if flag:    # the statement's std_dev and mean are DOUBLE, num_judges BIGINT
            pair = shown_spreads.get((sd, mean))
            if pair is None:     # few distinct (sigma, mean) on a rating scale
                pair = shown_spreads[(sd, mean)] = (None if sd is None else round(sd, 3),
                                                    None if mean is None else round(mean, 3))
            flagged_by.setdefault(key, []).append({
                "pointText": item, "stdDev": pair[0], "mean": pair[1], "spread": spread,
                "numJudges": n_judges})

    # per point: the slices without `across`, then the point
    kept = [s for s in slices if s != across_slice]
    kept_names = [n for n, s in zip(names, slices) if s != across_slice]
    point_rows: list[PointAgreement] = []
    point_alpha: dict[tuple, dict[str, tuple[float | None, int]]] = {}   # group, point: alpha
    shown_labels: dict[tuple[Any, Any], tuple[float | None, str | None]] = {}
    pp = per_point["groups"] if per_point.get("groups") else dict.fromkeys(
        [*(f"slice_{i}" for i in range(len(kept) + 1)), *POINT_ALPHA_COLUMNS], [])
    group_vals = (zip(*(pp[f"slice_{i}"] for i in range(len(kept)))) if kept
                  else repeat((), len(pp["alpha"])))
    for gvals, text, alpha, variance, n_judges, n_items, n_comparisons in zip(
            group_vals, pp[f"slice_{len(kept)}"], pp["alpha"], pp["score_variance"],
            pp["num_judges"], pp["num_items"], pp["num_comparisons"]):
        # alpha is a DOUBLE, the counts BIGINT; few distinct (alpha, variance) among many points
        shown_label = shown_labels.get((alpha, variance))
        if shown_label is None:
            shown_label = shown_labels[(alpha, variance)] = (
                None if alpha is None else round(alpha, 3), judge_label(alpha, variance))
        shown, label = shown_label
        point_alpha.setdefault(gvals, {})[text] = (shown, n_judges)
        point_rows.append({
            "group": dict(zip(kept_names, gvals)), "pointText": text, "alpha": shown,
            "interpretation": label, "numJudges": n_judges,
            "numResponses": n_items, "numComparisons": n_comparisons})

    out_groups: list[JudgeGroup] = []
    warnings: list[str] = []
    for g in groups:
        k = _key(g, slices)
        group = slice_values(g, names, slices)
        metrics = _metrics(g, usage_by.get(k, []), meta)
        if metrics is not None and across_slice is not None and files is None:
            of_point = point_alpha.get(tuple(g[s] for s in kept), {})
            alphas: list[PointAlpha] = [
                {"pointText": item, "alpha": found[0], "numJudges": found[1]}
                for item in items_by.get(k, ()) if (found := of_point.get(item)) is not None]
            metrics["perPointAlphas"] = alphas
        if metrics is not None and metrics["interpretation"] == "unreliable":
            where = ", ".join(f"{n}={v}" for n, v in group.items()) or "all ratings"
            message = (f"Low judge agreement (alpha={metrics['krippendorffsAlpha']:.3f}, "
                       f"unreliable) for {where}")
            _warnings.warn(message, AgreementWarning, stacklevel=3)   # the caller's line
            warnings.append(message)
        kp = profile.of(g)
        out_groups.append(JudgeGroup(group=group, judgeAgreement=metrics,
                                     highDisagreementPoints=(flagged_by.get(k, []) if files is None
                                                             else None),
                                     numRows=kp.n_rows if kp else 0,
                                     excluded={"missing": kp.n_missing if kp else 0,
                                               "placeholder": kp.n_placeholder if kp else 0}))

    first = scored[0] if scored else None
    pooled = _rows(pooled_parts["groups"])
    pooled_row = pooled[0] if pooled else None
    platform = JudgePlatform(
        meanAlpha=rounded(first["mean_alpha"], 3) if first else None,
        minAlpha=rounded(first["min_alpha"], 3) if first else None,
        numGroupsWithAlpha=int(first["num_groups_alpha"]) if first else 0,
        numGroups=int(first["num_groups"]) if first else 0,
        pooled=(_metrics(pooled_row, _rows(pooled_parts["usage"]), meta)
                if pooled_row else None),
    )
    report = JudgeAgreementReport(
        level=level, groupBy=list(names), across=names[slices.index(across_slice)] if across_slice else None,
        sigmaThreshold=sigma_threshold, groups=out_groups,
        perPoint=point_rows if files is None else None, platform=platform,
        warnings=warnings, diagnostics=diag[0] if diag else None, conventions=dict(CONVENTIONS),
        input="weval" if is_weval else "long table")
    if files is not None:
        report["pointFiles"] = files
    return report
