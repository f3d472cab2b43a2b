"""The HTML report without a browser: its numbers, its parts, its safety and its size.

Expected numbers come from irr(), rater_diagnostics(), judge_agreement() and evaluation_sheet()
(the statements that compute them; the page computes none of their statistics again) or from hand
calculations written next to them.
"""
from __future__ import annotations

import argparse
import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.cli import report as report_cli
from agreement_sql.errors import OptionError
from agreement_sql.rendering import statement
from agreement_sql.reports.html import collect, render_page, report
from agreement_sql.templates import template_dir
from conftest import without_route

ROOT = Path(__file__).resolve().parents[2]
WORKSHOP = ROOT / "data" / "workshop_annotations.jsonl"
WEVAL = ROOT / "data" / "weval_results.json"
SHEET = ROOT / "data" / "evaluation_sheet.csv"
LONG = {"item": "trace_id", "rater": "user_id", "metric": "question_id", "value": "rating"}


class Text(HTMLParser):
    """The visible text of each element carrying a data-question attribute, and every tag seen."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks: dict[str, list[str]] = {}
        self.stack: list[str | None] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("meta", "br", "rect", "line", "input"):
            return
        self.stack.append(attrs.get("data-question"))

    def handle_endtag(self, tag):
        if tag not in ("meta", "br", "rect", "line", "input") and self.stack:
            self.stack.pop()

    def handle_data(self, text):
        for q in self.stack:
            if q is not None:
                self.blocks.setdefault(q, []).append(text)

    def block(self, name: str) -> str:
        return " ".join(" ".join(self.blocks[name]).split())


def parse(html: str) -> Text:
    t = Text()
    t.feed(html)
    return t


def long_workshop() -> pa.Table:
    """data/workshop_annotations.jsonl as a long table (trace_id, user_id, question_id, rating)."""
    rows = [json.loads(line) for line in WORKSHOP.read_text().splitlines() if line.strip()]
    out: dict[str, list] = {k: [] for k in LONG.values()}
    for r in rows:
        for q, v in r["ratings"].items():
            if v is not None:
                out["trace_id"].append(r["trace_id"]); out["user_id"].append(r["user_id"])
                out["question_id"].append(q); out["rating"].append(float(v))
    return pa.table(out)


@pytest.fixture(scope="module")
def example():
    d = collect(WORKSHOP)
    return d, render_page(d)


def test_example_numbers_are_irrs(example):
    """The verdict and every card show irr()'s numbers for the bundled example."""
    d, html = example
    expected = ag.irr(WORKSHOP, max_traces=20)
    assert d["irr"] == {k: v for k, v in expected.items() if k != "route"}
    assert "NOT ready to proceed" in html and "73.7% pairwise agreement against a 75.0% threshold" in html
    text = parse(html)
    for name, s in expected["per_metric_scores"].items():
        card = text.block(name)
        assert f"{s['human_agreement']:.3f}" in card           # the primary number: A^HH
        assert f"Exact agreement {s['exact_agreement']:.1f}%" in card
        assert f"Adjacent agreement {s['adjacent_agreement']:.1f}%" in card
        assert f"{s['krippendorff_alpha']:.3f}" in card
        for suggestion in s["suggestions"]:
            assert suggestion in card


def test_one_card_per_question_and_heatmap_for_the_binary_one(example):
    """Four questions, four cards; follows_policy (binary, five raters) gets the coincidence map,
    every question its two rater-pair maps (exact % and alpha of each pair)."""
    d, html = example
    cards = [a for tag, a in parse(html).tags if tag == "article" and "card" in (a.get("class") or "")]
    assert [c["data-question"] for c in cards] == list(d["irr"]["per_metric_scores"])
    assert html.count('<figure class="heatmap"') == 9           # 1 coincidence + 2 x 4 rater-pair maps
    assert "Coincidence matrix: follows_policy" in html and "Confusion matrix" not in html
    for name in d["irr"]["per_metric_scores"]:
        assert f"Rater pairs, exact agreement: {name}" in html and f"Rater pairs, alpha: {name}" in html


def test_rater_figures_are_the_diagnostics(example):
    """Every rater and pair figure is rater_diagnostics()'s (interval level, the same ratings as a
    long table): each rater's exact agreement with the others, mean |difference|, alpha without
    them, mean and bias; each pair's exact % and alpha; the question's alpha is irr()'s. The page
    writes them as the table shows them."""
    d, html = example
    diag = {r["metric"]: r for r in ag.rater_diagnostics(long_workshop(), **LONG, level="interval")}
    text = parse(html)
    for q in d["questions"]:
        theirs = diag[q["name"]]
        assert q["alpha"] == pytest.approx(theirs["alpha"], abs=1e-12)
        assert round(q["alpha"], 3) == q["scores"]["krippendorff_alpha"]
        assert [r["rater"] for r in q["raters"]] == [r["rater"] for r in theirs["raters"]]
        bias = {b["rater"]: b["offset"] for b in theirs["bias"]}
        block = text.block(q["name"])
        for mine, ref in zip(q["raters"], theirs["raters"]):
            for key in ("n_ratings", "n_items_shared", "agreement_with_others", "mean_abs_difference",
                        "alpha_without", "mean_rating"):
                assert mine[key] == pytest.approx(ref[key], abs=1e-12), key
            assert mine["bias"] == pytest.approx(bias[ref["rater"]], abs=1e-12)
            shown = (f"{mine['rater']} {mine['n_ratings']} {mine['mean_rating']:.2f} {mine['bias']:+.2f} "
                     f"{mine['agreement_with_others']:.1f}% {mine['mean_abs_difference']:.2f} "
                     f"{mine['alpha_without']:.3f}")
            assert shown in block
        pairs = {(p["rater_a"], p["rater_b"]): p for p in theirs["pairs"]}
        names = q["pairs"]["rows"]
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if a < b:
                    assert q["pairs"]["cells"][i][j] == pytest.approx(pairs[a, b]["exact_agreement"])
                    assert q["pair_alpha"]["cells"][j][i] == pytest.approx(pairs[a, b]["alpha"])
                elif a == b:
                    assert q["pairs"]["cells"][i][j] is None


def test_wide_and_counts_forms_agree(force_route):
    """The report's own statement in the counts form (a counts table per unit, joined with itself)
    gives the coincidences and unit counts of the wide form (sums over unit patterns); the rater
    figures then come from diagnostics' expansions instead of rater patterns, with equal numbers."""
    wide = collect(WORKSHOP)
    force_route(units="counts")
    counts = collect(WORKSHOP)
    for a, b in zip(wide["questions"], counts["questions"]):
        assert (a["n_units"], a["n_single"]) == (b["n_units"], b["n_single"])
        assert a["distribution"] == b["distribution"] and a["bins"] == b["bins"]
        assert (a["coincidence"] is None) == (b["coincidence"] is None)
        if a["coincidence"]:
            assert np.allclose(a["coincidence"]["cells"], b["coincidence"]["cells"])
        assert [r["rater"] for r in a["raters"]] == [r["rater"] for r in b["raters"]]
        for ra, rb in zip(a["raters"], b["raters"]):
            for k in ("n_ratings", "agreement_with_others", "mean_abs_difference", "alpha_without", "bias"):
                assert ra[k] == pytest.approx(rb[k], abs=1e-9), k
        for grid in ("pairs", "pair_alpha"):
            assert np.allclose(np.array(a[grid]["cells"], dtype=float),
                               np.array(b[grid]["cells"], dtype=float), equal_nan=True)


def test_coincidence_and_confusion_by_hand():
    """Three raters on binary ratings: t1 (1,1,0) t2 (0,0,0) t3 (1,1,-) give
    o_00 = 0 + 3*2/2 = 3, o_01 = 1*2/2 = 1, o_11 = 2*1/2 + 2*1/1 = 3 (Krippendorff 2011).
    Two raters: the confusion counts of their rating pairs."""
    three = pa.table({"item": ["t1"] * 3 + ["t2"] * 3 + ["t3"] * 2,
                      "rater": ["a", "b", "c", "a", "b", "c", "a", "b"],
                      "value": [1.0, 1, 0, 0, 0, 0, 1, 1]})
    q = collect(three)["questions"][0]
    assert q["coincidence"]["cells"] == [[3.0, 1.0], [1.0, 3.0]] and q["confusion"] is None
    two = pa.table({"item": ["t1", "t1", "t2", "t2", "t3", "t3", "t4", "t4"],
                    "rater": ["a", "b"] * 4, "value": [1.0, 1, 0, 1, 0, 0, 1, 1]})
    q = collect(two)["questions"][0]
    assert q["confusion"]["cells"] == [[1, 1], [0, 2]]        # (a=0,b=0) t3; (0,1) t2; (1,1) t1, t4
    assert (q["confusion"]["row_title"], q["confusion"]["col_title"]) == ("a", "b")


def test_distribution_and_excluded_counts():
    """Ratings per value per rater, and n_excluded: ratings on a trace nobody else rated."""
    t = pa.table({"item": ["t1", "t1", "t2", "t2", "t3"], "rater": ["a", "b", "a", "b", "a"],
                  "value": [2.0, 3, 3, 3, 5]})
    q = collect(t)["questions"][0]
    assert q["categories"] == [2.0, 3.0, 5.0]
    assert q["distribution"][0] == {"rater": None, "label": "all raters", "n_rater": 5, "counts": [1, 3, 1]}
    assert {r["rater"]: r["counts"] for r in q["distribution"][1:]} == {"a": [1, 1, 1], "b": [0, 2, 0]}
    assert q["n_single"] == 1 and q["n_units"] == 3


def text_rows(html: str, question: str) -> int:
    """Rows of the rater table of one question's block."""
    block = html[html.index(f'<div class="block" data-question="{question}">'):]
    block = block[:block.index("</table>")]
    return block.count("<tr>") - 1


def _assert_self_contained(page: str) -> None:
    """No URL anywhere; no element that loads anything (script, link, img, iframe, object, embed,
    any src/href other than a same-page #anchor); one <style> without @import or url()."""
    lowered = page.lower()
    assert "http://" not in lowered and "https://" not in lowered
    tags = parse(page).tags
    assert not [t for t, _ in tags if t in ("script", "link", "img", "iframe", "object", "embed", "image", "use")]
    for _, attrs in tags:
        assert "src" not in attrs and "srcset" not in attrs and "xlink:href" not in attrs
        assert attrs.get("href") is None or attrs["href"].startswith("#")
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.S)
    assert len(styles) == 1 and "@import" not in styles[0] and "url(" not in styles[0]
    assert "content-security-policy" in lowered and "default-src 'none'" in lowered


@pytest.mark.parametrize("source", [WORKSHOP, WEVAL, SHEET], ids=["workshop", "weval", "sheet"])
def test_pages_are_self_contained(source):
    """No resource of any kind is referenced: no URL, stylesheet link, script, import or url()."""
    _assert_self_contained(report(source))


def test_hostile_names_are_escaped():
    """Rater, question and trace names reach the page as text, never as markup."""
    evil = "<script>alert(1)</script>"
    q = '"><img src=x onerror=alert(1)>'
    t = pa.table({"item": ["<b>t1</b>", "<b>t1</b>", "t2", "t2", "t3", "t3"],
                  "rater": [evil, "b", evil, "b", evil, "b"],
                  "metric": [q] * 6, "value": [1.0, 5, 2, 2, 4, 1]})
    html = report(t, metric="metric", title=evil)
    _assert_self_contained(html)
    assert "<img" not in html and "<b>t1</b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;b&gt;t1&lt;/b&gt;" in html


@pytest.mark.slow
def test_large_input_stays_small():
    """60,000 traces, 30 raters (3 per trace), 3 questions: under 2 MB, top lists only; with more
    than 12 raters the rater table lists the 12 least agreeing and the pair matrices and alphas
    without a rater are skipped, with a note."""
    rng = np.random.default_rng(7)
    n, per = 60_000, 3
    raters = np.array([f"r{i:02d}" for i in range(30)])
    pick = np.argsort(rng.random((n, 30)), axis=1)[:, :per]
    items = np.repeat(np.arange(n), per)
    cols = {"item": [], "rater": [], "metric": [], "value": []}
    for m in ("q1", "q2", "q3"):
        cols["item"].append(items); cols["rater"].append(raters[pick].ravel())
        cols["metric"].append(np.full(n * per, m)); cols["value"].append(rng.integers(1, 6, n * per).astype(float))
    table = pa.table({k: np.concatenate(v) for k, v in cols.items()})
    d = collect(table, metric="metric", max_traces=25)
    html = render_page(d)
    assert len(html.encode()) < 2_000_000
    assert "More than 12 raters (30)" in html
    for q in d["questions"]:
        assert q["pairs"] is None and q["pair_alpha"] is None and q["n_raters"] == 30
        assert all(r["agreement_with_others"] is not None and r["alpha_without"] is None for r in q["raters"])
        assert text_rows(html, q["name"]) == 12
    assert len(d["traces"]) == 25 and all(t["ratings"] for t in d["traces"])   # numeric items matched
    assert all(len(q["distribution"]) == 13 for q in d["questions"])         # everyone + top 12


@pytest.mark.slow
def test_judge_page():
    """Weval input: the judge verdict on the pooled alpha, a card per prompt x model, judges used."""
    j = ag.judge_agreement(WEVAL)
    html = report(WEVAL)
    pooled = j["platform"]["pooled"]
    assert f"judges' pooled alpha {pooled['krippendorffsAlpha']:.3f} against 0.800" in unescape(html)
    assert ("NOT ready to proceed" in html) == (pooled["interpretation"] != "reliable")
    assert html.count('<article class="card"') == len(j["groups"])
    for u in pooled["judgesUsed"]:
        assert u["judgeId"] in html


def test_sheet_page():
    """Evaluation sheet: kappa against the target, per split/module/scenario, the LLM judge against
    the consensus, the confusion heatmaps, Train rows counted as excluded."""
    s = ag.evaluation_sheet(SHEET)
    html = report(SHEET)
    aa = s["annotator_agreement"]
    assert f"Cohen's kappa {aa['kappa']:.4f} against a 0.60 target" in unescape(html)
    assert "Ready to proceed" in html and aa["target_met"]
    assert f"{s['llm_judge']['vs_consensus']['kappa']:.4f}" in html
    for b in ("Dataset_Split", "Module", "Scenario"):
        assert f"By {b}" in html
    assert html.count('<figure class="heatmap"') == len(s["confusion_matrices"])
    assert re.search(r"n_excluded</th><td class=\"num\">36</td>", html)


def test_error_shaped_input():
    """irr()'s error-shaped result becomes the verdict: no figures are invented."""
    t = pa.table({"item": ["t1", "t2"], "rater": ["a", "a"], "value": [1.0, 2.0]})
    html = report(t)
    assert "Cannot compute agreement: Need at least 2 raters to calculate IRR, got 1" in html


def _cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    report_cli.register(parser.add_subparsers())
    return parser.parse_args(["report", *argv])


def test_cli_writes_the_page_and_refuses_the_source(tmp_path):
    """`agreement-sql report SOURCE -o PATH` writes the page; -o naming the source is refused."""
    out = tmp_path / "report.html"
    assert report_cli.run(_cli(str(WORKSHOP), "-o", str(out), "--quiet")) == 0
    assert "NOT ready to proceed" in out.read_text(encoding="utf-8")
    with pytest.raises(OptionError, match="is the input"):
        report_cli.run(_cli(str(WORKSHOP), "-o", str(WORKSHOP), "--quiet"))


@pytest.mark.parametrize("name, choices", [
    ("report_traces", {"n_traces": 2, "numeric_items": True}),
    ("report_traces", {"n_traces": 1, "numeric_items": False}),
])
@pytest.mark.parametrize("dialect", ["duckdb", "spark"])
def test_templates_follow_the_house_style(name, choices, dialect):
    """A 3-6 line header, no |default, options declared (rendering checks each), and portable SQL
    when rendered (no ::, FILTER, QUALIFY, GROUP BY ALL, PIVOT)."""
    text = (template_dir() / f"{name}.sql.j2").read_text()
    header = [line for line in text.splitlines()[:8] if line.startswith("--")]
    assert 3 <= len(header) <= 6 and "|default" not in text and "| default" not in text
    assert "{% with" not in text
    sql = statement(name, dialect=dialect, **choices)[0].sql.upper()
    for banned in ("::", " FILTER (", "QUALIFY", "GROUP BY ALL", "PIVOT"):
        assert banned not in sql, banned


def test_report_options_are_checked():
    """The report's template options are declared with their values: a trace list needs a trace."""
    from agreement_sql.errors import TemplateError
    with pytest.raises(TemplateError, match="n_traces"):
        statement("report_traces", n_traces=0, numeric_items=True)
    with pytest.raises(TemplateError, match="numeric_items"):
        statement("report_traces", n_traces=1, numeric_items="yes")


def test_numeric_items_and_a_two_rater_binary_question():
    """Numeric trace ids are matched as numbers for the ratings side by side; a binary question
    rated by two raters (of three in the input) shows their confusion counts from
    sql/cohen_pairs.sql.j2, the other question its pairs."""
    t = pa.table({"item": [1, 1, 1, 2, 2, 2, 3, 3, 3, 1, 1, 2, 2, 3, 3],
                  "rater": ["a", "b", "c"] * 3 + ["a", "b"] * 3,
                  "metric": ["q"] * 9 + ["p"] * 6,
                  "value": [1.0, 5, 3, 2, 2, 2, 4, 1, 5, 1, 0, 0, 0, 1, 1]})
    d = collect(t, metric="metric")
    assert d["traces"] and all(tr["ratings"] for tr in d["traces"])
    first = d["traces"][0]
    rows = t.to_pylist()
    assert first["ratings"] == {r["rater"]: r["value"] for r in rows
                                if str(r["item"]) == first["trace_id"] and r["metric"] == first["metric"]}
    p = next(q for q in d["questions"] if q["name"] == "p")
    assert p["scores"]["is_binary"] and p["coincidence"] is None
    assert p["confusion"]["cells"] == [[1, 0], [1, 1]]        # (a=0,b=0) trace 2; (1,0) trace 1; (1,1) trace 3
    assert (p["confusion"]["row_title"], p["confusion"]["col_title"]) == ("a", "b")


@pytest.mark.slow
def test_alt_test_section():
    """judges=: the alternative annotator test per question, from alt_test() on the same ratings
    (the page rounds its numbers); the Weval and sheet inputs refuse it."""
    lesion = str(ROOT / "data" / "alttest" / "lesion.csv")
    options = {"epsilon": 0.15, "scoring": "neg_rmse"}
    judges = ["gemini_pro", "gpt-4o"]
    data = collect(lesion, scales={"value": (0, 6)}, judges=judges, alt_test_options=options)
    html = render_page(data)
    direct = ag.alt_test(lesion, judges=judges, **options)
    assert '<section id="alt-test">' in html and '<a href="#alt-test">' in html
    section = unescape(html[html.index('<section id="alt-test">'):html.index('<section id="shape">')])
    text = " ".join(re.sub(r"<[^>]+>", " ", section).split())
    for j in direct["judges"]:
        row = text[text.index(f"{j['judge']} {j['winning_rate']:.2f}"):]
        assert row.startswith(f"{j['judge']} {j['winning_rate']:.2f} {j['advantage_probability']:.2f} "
                              + ("✓ PASSED" if j["passed"] else "✗ FAILED"))
        assert f"{j['n_humans_won']} / {j['n_humans_tested']}" in row
        for h in j["humans"]:
            assert f"{h['human']} {'✓' if h['judge_wins'] else '✗'}" in row
    assert f"Krippendorff’s α (interval) {direct['human_alpha']:.3f}" in text
    assert data["alt_test"] == [without_route(direct)]
    assert "alt_test_zero_variance" in data["conventions"]
    # without judges= there is no section; the options are checked as alt_test() checks them
    assert 'id="alt-test"' not in report(WORKSHOP)
    with pytest.raises(OptionError, match="min_items must be at least 30"):
        report(lesion, judges=judges, alt_test_options={"min_items": 5})
    with pytest.raises(OptionError, match="alt_test_options= takes"):
        report(lesion, judges=judges, alt_test_options={"eps": 0.1})
    with pytest.raises(OptionError, match="needs judges="):
        report(lesion, alt_test_options=options)
    with pytest.raises(OptionError, match="a Weval result"):
        report(WEVAL, judges=judges)


@pytest.mark.slow
def test_cli_report_with_judges(tmp_path):
    """`agreement-sql report FILE --judges a,b --epsilon .. --scoring ..` adds the section."""
    lesion = str(ROOT / "data" / "alttest" / "lesion.csv")
    out = tmp_path / "report.html"
    assert report_cli.run(_cli(lesion, "--scale", "value=0..6", "--judges", "gemini_pro,gpt-4o",
                               "--epsilon", "0.15", "--scoring", "neg_rmse", "-o", str(out),
                               "--quiet")) == 0
    page = unescape(out.read_text(encoding="utf-8"))
    assert '<section id="alt-test">' in page and 'data-judge="gpt-4o"' in page
    assert "scoring neg_rmse, ε 0.15" in page
