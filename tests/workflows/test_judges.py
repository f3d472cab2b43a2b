"""Judge agreement (seed 004, Weval): docs/workflows.md, checked against independent oracles.

Oracles: the `krippendorff` package (Castro 2017) on reliability matrices built here from the
raw JSON with the json module; hand calculations where stated.
"""
from __future__ import annotations

import json
from pathlib import Path

import krippendorff
import numpy as np
import pyarrow as pa
import pytest

from agreement_sql import routes
from agreement_sql import judge_agreement, judge_set_fingerprint
from agreement_sql.cli import main
from agreement_sql.errors import SourceError

from conftest import DATA, without_route  # noqa: E402
WEVAL = DATA / "weval_results.json"


@pytest.fixture(scope="module")
def report():
    return judge_agreement(str(WEVAL))


def _judgements():
    """(prompt, model, point, judge id, score) from the raw file: the oracle's own reading."""
    data = json.loads(WEVAL.read_text(encoding="utf-8"))
    out = []
    for prompt, models in data["evaluationResults"]["llmCoverageScores"].items():
        for model, result in models.items():
            for point in result["pointAssessments"]:
                for j in point.get("individualJudgements") or []:
                    out.append((prompt, model, point["keyPointText"], j["judgeModelId"].split("(")[0],
                                j["coverageExtent"]))
    return out


def _oracle_alpha(rows, unit_key, level="interval"):
    units = sorted({unit_key(r) for r in rows})
    judges = sorted({r[3] for r in rows})
    m = np.full((len(judges), len(units)), np.nan)
    for r in rows:
        m[judges.index(r[3]), units.index(unit_key(r))] = r[4]
    keep = (~np.isnan(m)).sum(axis=0) >= 2          # points with fewer than 2 scores drop out
    return krippendorff.alpha(reliability_data=m[:, keep], level_of_measurement=level)


def _group(report, prompt, model):
    return next(g for g in report["groups"] if g["group"] == {"promptId": prompt, "modelId": model})


def test_fingerprint_of_the_seed_example():
    # seed 004: the fingerprint is sha256("judge-a,judge-b")[:12]
    assert judge_set_fingerprint(["judge-a", "judge-b"]) == "f24547d5af25"
    assert judge_set_fingerprint(["judge-b", "judge-a", "judge-a"]) == "f24547d5af25"


def test_group_alphas_match_the_krippendorff_package(report):
    rows = _judgements()
    assert len(report["groups"]) == 15
    for g in report["groups"]:
        prompt, model = g["group"]["promptId"], g["group"]["modelId"]
        mine = [r for r in rows if r[0] == prompt and r[1] == model]
        expected = _oracle_alpha(mine, lambda r: r[2])
        assert g["judgeAgreement"]["krippendorffsAlpha"] == round(expected, 3), (prompt, model)


def test_counts_of_a_group_with_a_backup_judge(report):
    # the file: deposit-protection x mistral has 4 judged points, the backup judge replaced the
    # holistic judge on one of them -> 3 distinct judges, 4 comparisons (one pair per point)
    m = _group(report, "deposit-protection", "openrouter:mistralai/mistral-medium-3")["judgeAgreement"]
    assert (m["numItems"], m["numJudges"], m["numComparisons"]) == (4, 3, 4)
    assert [(u["judgeId"], u["assessmentCount"]) for u in m["judgesUsed"]] == [
        ("prompt-aware-openai:gpt-4.1-mini", 4), ("holistic-anthropic:claude-3.5-haiku", 3),
        ("backup-gemini-2-5-flash", 1)]
    assert m["judgesUsed"][0]["model"] == "openai:gpt-4.1-mini"
    assert m["judgesUsed"][0]["approach"] == "prompt-aware"
    # sorted distinct ids joined by ',' (hashlib here is the oracle of the fingerprint rule)
    import hashlib
    ids = sorted({u["judgeId"] for u in m["judgesUsed"]})
    assert m["judgeSetFingerprint"] == hashlib.sha256(",".join(ids).encode()).hexdigest()[:12]


def test_points_with_one_score_are_dropped(report):
    # damp-and-mould x gpt-4.1-nano: 5 points, one judged by a single judge (partial consensus)
    m = _group(report, "damp-and-mould-repairs", "openai:gpt-4.1-nano")["judgeAgreement"]
    assert m["numItems"] == 4 and m["numComparisons"] == 4


def test_identical_judges_are_reliable_and_disagreeing_ones_flagged(report):
    same = _group(report, "rent-increase", "anthropic:claude-3-5-haiku-20241022")
    assert same["judgeAgreement"]["krippendorffsAlpha"] == 1.0
    assert same["judgeAgreement"]["interpretation"] == "reliable"
    bad = _group(report, "section-21-notice", "openrouter:mistralai/mistral-medium-3")
    assert bad["judgeAgreement"]["interpretation"] == "unreliable"
    # points 0, 2, 4 were scored (1.0, 0.25), (0.0, 0.75), (0.75, 0.0): sigma = |a - b| / 2 = 0.375
    assert [f["stdDev"] for f in bad["highDisagreementPoints"]] == [0.375, 0.375, 0.375]


def test_per_point_alphas_pool_every_response(report):
    rows = _judgements()
    point = "States that a section 21 notice must give at least two months' notice"
    mine = [r for r in rows if r[0] == "section-21-notice" and r[2] == point]
    expected = _oracle_alpha(mine, lambda r: r[1])        # units: the three models' responses
    found = next(p for p in report["perPoint"] if p["pointText"] == point)
    assert found["alpha"] == round(expected, 3) and found["numResponses"] == 3
    group = _group(report, "section-21-notice", "openai:gpt-4.1-nano")["judgeAgreement"]
    assert {p["pointText"]: p["alpha"] for p in group["perPointAlphas"]}[point] == round(expected, 3)


def test_platform_mean_min_and_pooled_alpha(report):
    rows = _judgements()
    alphas = [_oracle_alpha([r for r in rows if (r[0], r[1]) == key], lambda r: r[2])
              for key in {(r[0], r[1]) for r in rows}]
    p = report["platform"]
    assert p["meanAlpha"] == round(float(np.mean(alphas)), 3)
    assert p["minAlpha"] == round(min(alphas), 3)
    assert (p["numGroupsWithAlpha"], p["numGroups"]) == (15, 15)
    assert p["pooled"]["krippendorffsAlpha"] == round(_oracle_alpha(rows, lambda r: r[:3]), 3)


def test_unreliable_groups_are_warned_not_printed(capfd):
    from agreement_sql import AgreementWarning

    # silent by default (nothing on stdout or stderr), listed in the result ...
    r = judge_agreement(str(WEVAL), diagnostics=False)
    assert capfd.readouterr() == ("", "")
    assert len(r["warnings"]) == 3
    # ... and issued as the package's own category for a caller who asks
    with pytest.warns(AgreementWarning) as caught:
        judge_agreement(str(WEVAL), diagnostics=False)
    assert [str(w.message) for w in caught] == r["warnings"]
    assert any("section-21-notice" in m and "unreliable" in m for m in r["warnings"])


def _long(rows):
    return pa.table({"point": [r[0] for r in rows], "judge": [r[1] for r in rows],
                     "score": [r[2] for r in rows]})


def test_unstable_interpretation_and_zero_expected_disagreement():
    # krippendorff.alpha on [[0,0,0,.1,.25,0,.2],[0,0,0,.1,0,.25,.1]] = -0.0145, variance 0.0088
    a = [0, 0, 0, 0.1, 0.25, 0, 0.2]
    b = [0, 0, 0, 0.1, 0, 0.25, 0.1]
    rows = [(f"p{i}", "a", x) for i, x in enumerate(a)] + [(f"p{i}", "b", x) for i, x in enumerate(b)]
    m = judge_agreement(_long(rows), item="point", rater="judge", value="score")["groups"][0]["judgeAgreement"]
    assert m["krippendorffsAlpha"] == -0.014 and m["interpretation"] == "unstable"
    flat = [(f"p{i}", j, 0.5) for i in range(3) for j in ("a", "b")]     # D_e = 0 -> 1.0
    m = judge_agreement(_long(flat), item="point", rater="judge", value="score")["groups"][0]["judgeAgreement"]
    assert m["krippendorffsAlpha"] == 1.0 and m["interpretation"] == "reliable"


def test_no_multi_judge_point_means_no_metrics():
    rows = [("p1", "a", 0.5), ("p2", "b", 1.0)]
    r = judge_agreement(_long(rows), item="point", rater="judge", value="score")
    assert r["groups"][0]["judgeAgreement"] is None
    assert r["platform"]["meanAlpha"] is None


def test_ties_keep_the_order_judges_first_appear():
    rows = [("p1", "zeta", 1.0), ("p1", "alpha", 0.5), ("p2", "alpha", 0.0), ("p2", "zeta", 0.0)]
    m = judge_agreement(_long(rows), item="point", rater="judge", value="score")["groups"][0]["judgeAgreement"]
    assert [u["judgeId"] for u in m["judgesUsed"]] == ["zeta", "alpha"]


def test_a_long_table_gives_the_weval_figures(tmp_path, report):
    path = tmp_path / "long.csv"
    lines = ["prompt,model,point,judge,score"]
    lines += [",".join(json.dumps(v) if isinstance(v, str) else str(v) for v in r) for r in _judgements()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = judge_agreement(str(path), item="point", rater="judge", value="score",
                        group_by=["prompt", "model"], diagnostics=False)
    assert [g["judgeAgreement"]["krippendorffsAlpha"] for g in r["groups"]] == \
           [g["judgeAgreement"]["krippendorffsAlpha"] for g in report["groups"]]
    assert r["platform"]["pooled"]["krippendorffsAlpha"] == report["platform"]["pooled"]["krippendorffsAlpha"]


def test_ordinal_level_matches_the_package():
    rows = _judgements()
    key = ("hmo-licensing", "openai:gpt-4.1-nano")
    mine = [r for r in rows if (r[0], r[1]) == key]
    r = judge_agreement(str(WEVAL), level="ordinal", diagnostics=False)
    g = _group(r, *key)["judgeAgreement"]
    assert g["krippendorffsAlpha"] == round(_oracle_alpha(mine, lambda r: r[2], "ordinal"), 3)


def test_diagnostics_are_part_of_the_report(report):
    d = report["diagnostics"]
    assert d["alpha"] == pytest.approx(_oracle_alpha(_judgements(), lambda r: r[:3]))
    assert {r["rater"] for r in d["raters"]} == {"prompt-aware-openai:gpt-4.1-mini",
                                                  "holistic-anthropic:claude-3.5-haiku",
                                                  "backup-gemini-2-5-flash"}
    assert d["items"][0]["item"].startswith("section-21-notice | openrouter:mistralai/mistral-medium-3")


@pytest.mark.parametrize("text,needle", [
    ('{"evaluationResults": {"llmCoverageScores": ', "not valid JSON: Expecting value at line 1"),
    ('{"configId": "x", "evaluationResults": {}}', "no evaluationResults.llmCoverageScores"),
    ("", "is empty"),
    ('{"evaluationResults": {"llmCoverageScores": {"p": {"m": {"pointAssessments": [{"keyPointText": "k",'
     ' "individualJudgements": [{"judgeModelId": "j(x)", "coverageExtent": "high"}]}]}}}}}',
     "coverageExtent is 'high', not a number"),
])
def test_malformed_weval_files(tmp_path, text, needle):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SourceError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        judge_agreement(str(path))


@pytest.mark.slow
def test_cli_on_the_example(capsys):
    assert main(["judges", str(WEVAL), "--no-diagnostics"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["platform"]["meanAlpha"] == 0.778
    assert main(["judges", str(WEVAL), "--format", "table"]) == 0
    assert "Judge agreement (interval alpha): mean 0.778" in capsys.readouterr().out


def test_cli_malformed_input_is_one_line(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{\n  \"evaluationResults\": \n", encoding="utf-8")
    assert main(["judges", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid JSON" in err and "line 3" in err
    long = tmp_path / "long.csv"
    long.write_text("point,judge,score\np1,a,0.5\n", encoding="utf-8")
    assert main(["judges", str(long), "--item", "point", "--rater", "judge", "--value", "grade"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'grade' not found" in err


@pytest.mark.slow
def test_same_report_on_every_route(report):
    """numJudges from the paired units' rater bits (the default) and counted on the scores
    (rater_bits "none", as with more raters than bit columns), in the wide and the counts form:
    the same report, byte for byte, per group, per point and pooled."""
    expected = json.dumps(without_route(report))
    for forced in ({"rater_bits": "none"}, {"units": "counts"}):
        with routes.forcing(**forced):
            got = judge_agreement(str(WEVAL))
        assert json.dumps(without_route(got)) == expected
        assert got["route"] != report["route"], forced       # not vacuous: another route ran


@pytest.mark.parametrize("bit_raters", [None, 0])
def test_num_judges_counts_only_the_judges_of_paired_points(force_route, bit_raters):
    # hand count: "c" scored only p3, which no other judge scored, so alpha pairs none of its
    # scores: 2 judges (a, b), 2 paired points, 2 comparisons; with rater bits and without
    if bit_raters is not None:
        force_route(rater_bits="none")
    rows = [("p1", "a", 1.0), ("p1", "b", 1.0), ("p2", "a", 0.0), ("p2", "b", 0.5), ("p3", "c", 1.0)]
    m = judge_agreement(_long(rows), item="point", rater="judge",
                        value="score")["groups"][0]["judgeAgreement"]
    assert (m["numJudges"], m["numItems"], m["numComparisons"]) == (2, 2, 2)
    assert [u["judgeId"] for u in m["judgesUsed"]] == ["a", "b"]


def _slices_table(seed=5):
    """Scores 1-5 of 4 judges on 6 points x 4 responses x 3 prompts (integer prompt ids), 20%
    of the scores missing and 5% null, plus each score as a label."""
    import random

    rnd = random.Random(seed)
    cols = {"prompt": [], "model": [], "point": [], "judge": [], "score": [], "label": []}
    for prompt in range(3):
        for model in range(4):
            for point in range(6):
                for judge in "abcd":
                    if rnd.random() < 0.2:
                        continue
                    v = rnd.choice([1, 2, 3, 4, 5])
                    cols["prompt"].append(prompt)
                    cols["model"].append(f"m{model}")
                    cols["point"].append(f"p{point}")
                    cols["judge"].append(judge)
                    cols["score"].append(float(v) if rnd.random() > 0.05 else None)
                    cols["label"].append(["low", "mid", "high"][v % 3])
    return pa.table(cols)


@pytest.mark.parametrize("options", [
    {"group_by": ["prompt", "model"]},
    {"group_by": ["prompt", "model"], "across": "prompt"},
    {"group_by": ["prompt", "model"], "across": False},
    {"group_by": ["prompt", "model"], "value": "label", "level": "nominal"},
    {"group_by": ["prompt", "model"], "level": "ordinal"},
    {"group_by": None, "on_duplicate": "first"},
], ids=["across-last", "across-first", "no-across", "nominal-labels", "ordinal", "no-groups"])
@pytest.mark.slow
def test_one_aggregation_gives_the_re_keyed_statements_report(monkeypatch, options):
    """The wide form with rater bits computes the three granularities from one per-unit
    aggregation (sql/judge_units.sql.j2, then sql/judge_agreement.sql.j2 with options
    granularities and units_given); the re-keyed statements, one per granularity, are the
    oracle: the same report, byte for byte."""
    kwargs = {"item": "point", "rater": "judge", "value": "score", **options}
    one = judge_agreement(_slices_table(), **kwargs)
    with routes.forcing(judges="rekeyed"):
        rekeyed = judge_agreement(_slices_table(), **kwargs)
    assert json.dumps(without_route(rekeyed)) == json.dumps(without_route(one))
    assert [e.get("judges") for e in one["route"] if "judges" in e][0] == "one_aggregation"
    assert {e.get("judges") for e in rekeyed["route"] if "judges" in e} == {"rekeyed"}


def _read(path):
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pylist()


@pytest.mark.parametrize("one_aggregation", [True, False])
def test_point_files_hold_the_reports_per_point_rows(tmp_path, force_route, report, one_aggregation):
    """points_to: the per-point rows of the inline report (its perPoint, perPointAlphas and
    highDisagreementPoints, which round to 3 places) in two Parquet files, unrounded, in the
    report's order; the rest of the report unchanged."""
    if not one_aggregation:
        force_route(judges="rekeyed")
    filed = judge_agreement(str(WEVAL), points_to=tmp_path / "out")
    assert filed["pointFiles"] == {
        "points": {"path": str(tmp_path / "out" / "points.parquet"), "rows": 71},
        "pointAlphas": {"path": str(tmp_path / "out" / "point_alphas.parquet"), "rows": 24}}
    assert filed["perPoint"] is None
    assert all(g["highDisagreementPoints"] is None and "perPointAlphas" not in g["judgeAgreement"]
               for g in filed["groups"])
    assert [g["group"] for g in filed["groups"]] == [g["group"] for g in report["groups"]]
    assert filed["platform"] == report["platform"] and filed["diagnostics"] == report["diagnostics"]

    alphas = _read(tmp_path / "out" / "point_alphas.parquet")
    assert list(alphas[0]) == ["promptId", "pointText", "alpha", "scoreVariance", "numJudges",
                               "numResponses", "numComparisons"]
    assert [({"promptId": a["promptId"]}, a["pointText"], None if a["alpha"] is None else round(a["alpha"], 3),
             a["numJudges"], a["numResponses"], a["numComparisons"]) for a in alphas] == \
        [(p["group"], p["pointText"], p["alpha"], p["numJudges"], p["numResponses"],
          p["numComparisons"]) for p in report["perPoint"]]

    points = _read(tmp_path / "out" / "points.parquet")
    assert len(points) == sum(g["judgeAgreement"]["numItems"] for g in report["groups"]
                              if g["judgeAgreement"])
    flagged = [({"promptId": p["promptId"], "modelId": p["modelId"]}, p["pointText"],
                round(p["stdDev"], 3), round(p["mean"], 3), p["spread"], p["numJudges"])
               for p in points if p["flagged"]]
    assert flagged == [(g["group"], f["pointText"], f["stdDev"], f["mean"], f["spread"], f["numJudges"])
                       for g in report["groups"] for f in g["highDisagreementPoints"]]
    # each group's perPointAlphas: its points in order, with the alpha of the point across responses
    of_point = {(a["promptId"], a["pointText"]): a for a in alphas}
    for g in report["groups"]:
        if not g["judgeAgreement"]:
            continue
        mine = [p for p in points if (p["promptId"], p["modelId"]) == tuple(g["group"].values())]
        assert [(p["pointText"], round(of_point[(p["promptId"], p["pointText"])]["alpha"], 3))
                for p in mine if of_point[(p["promptId"], p["pointText"])]["alpha"] is not None] == \
            [(a["pointText"], a["alpha"]) for a in g["judgeAgreement"]["perPointAlphas"]
             if a["alpha"] is not None]


def test_point_files_are_not_overwritten_and_a_failed_call_leaves_none(tmp_path):
    from agreement_sql.errors import OptionError

    out = tmp_path / "out"
    out.mkdir()
    (out / "point_alphas.parquet").write_bytes(b"mine")
    with pytest.raises(OptionError, match="point_alphas.parquet' exists"):
        judge_agreement(str(WEVAL), points_to=out)
    assert (out / "point_alphas.parquet").read_bytes() == b"mine"
    assert not (out / "points.parquet").exists()
    table = _slices_table()
    with pytest.raises(OptionError, match="'pointText' has the name of a column"):
        judge_agreement(table.rename_columns(["pointText", *table.column_names[1:]]), item="point",
                        rater="judge", value="score", group_by=["pointText", "model"],
                        points_to=tmp_path / "other")
    # level nominal refuses nothing, but a score that is not a number refuses interval: no file
    with pytest.raises(Exception, match="number"):
        judge_agreement(_slices_table(), item="point", rater="judge", value="label",
                        group_by=["prompt", "model"], points_to=tmp_path / "third")
    assert list((tmp_path / "third").iterdir()) == []


def test_point_files_without_across_and_cli(tmp_path, capsys):
    filed = judge_agreement(str(WEVAL), across=False, diagnostics=False, points_to=tmp_path / "a")
    assert list(filed["pointFiles"]) == ["points"]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["points.parquet"]
    assert main(["judges", str(WEVAL), "--no-diagnostics", "--points-to", str(tmp_path / "b"),
                 "--format", "table"]) == 0
    out = capsys.readouterr().out
    assert f"Per-point rows (points): 71 in {tmp_path / 'b' / 'points.parquet'}" in out
    assert len(_read(tmp_path / "b" / "point_alphas.parquet")) == 24
