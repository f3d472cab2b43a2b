"""The calls the cross-engine suite runs on DuckDB and on another engine.

Each case is ``(id, call)`` with ``call(con)`` running one public function on a source both
engines read the same way (a path, or an Arrow table). The expected result is DuckDB's
(tests/engines/_compare.py); DuckDB's own numbers are checked against publications where the
data come from (tests/reference/published.json, cited in tests/coefficients).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pyarrow as pa

import agreement_sql as a

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "tests" / "reference"
DATA = ROOT / "data"
REAL = DATA / "real"

Case = tuple[str, Callable[[Any], Any]]


def ref(name: str) -> str:
    return str(REF / name)


def random_ratings(seed: int = 12, n_items: int = 40, n_raters: int = 5, *, labels: bool = False,
                   duplicates: int = 0) -> pa.Table:
    """Ratings 1..5 (or labels a..d) of two metrics and two batches, about 20% absent, a few
    NULL and blank values, and ``duplicates`` repeated (item, rater, metric) rows with other
    values; rows in a fixed shuffled order (input order matters for first/last)."""
    rng = np.random.default_rng(seed)
    rows: list[tuple[Any, ...]] = []
    for metric in ("tone", "facts"):
        for i in range(n_items):
            truth = int(rng.integers(1, 6))
            for r in range(n_raters):
                if rng.random() < 0.2:
                    continue
                v = int(np.clip(truth + rng.integers(-1, 2), 1, 5))
                value: Any = "abcd"[v % 4] if labels else str(v)
                if rng.random() < 0.03:
                    value = None if rng.random() < 0.5 else " "
                rows.append((f"i{i:03d}", f"r{r}", metric, f"b{i % 2}", value))
    for k in range(duplicates):
        item, rater, metric, batch, _ = rows[int(rng.integers(0, len(rows)))]
        v = int(rng.integers(1, 6))
        rows.append((item, rater, metric, batch, "abcd"[v % 4] if labels else str(v)))
    order = rng.permutation(len(rows))
    rows = [rows[i] for i in order]
    return pa.table({name: pa.array([row[j] for row in rows], pa.string())
                     for j, name in enumerate(["item", "rater", "metric", "batch", "value"])})


RANDOM = random_ratings()
RANDOM_LABELS = random_ratings(13, labels=True)
RANDOM_DUPS = random_ratings(14, duplicates=12)
# integer item ids (as in a warehouse table): text and numeric orders of ids differ
RANDOM_INT_ITEMS = RANDOM.set_column(0, "item", pa.array([int(i[1:]) * 7 for i in
                                                          RANDOM.column("item").to_pylist()], pa.int64()))
BOOT = {"ci": 0.9, "ci_method": "bootstrap", "n_boot": 60, "seed": 20240611}
RANDOM_ALT = random_ratings(15, n_items=52)


# set-valued ratings in several spellings (docs/decisions/0028), a "|" with no element missing
SETS = pa.table({"rater": ["c1", "c2", "c3", "c1", "c2", "c3", "c1", "c2", "c1", "c2", "c3", "c1"],
                 "item": ["1", "1", "1", "2", "2", "2", "3", "3", "4", "4", "4", "5"],
                 "value": ["a|b", "b | a", "a", "c", "c|d", "d", "a", "|", "a|b|c", "c|b|a|a",
                           "b", "d"]})
K2011_INTERVAL = {(c, k): float((c - k) ** 2) for c in range(1, 6) for k in range(1, 6)}


# a contingency table (rows rater A's categories, named by a column) and a counts table: read
# by their cells, each once with its count (docs/decisions/0022), on every engine
TABLE_3X3 = pa.table({"category": ["1", "2", "3"], "1": [22, 4, 2], "2": [5, 30, 7],
                      "3": [1, 6, 23]})
COUNTS = pa.table({"unit": ["u1", "u2", "u3", "u4"], "low": [3, 0, 2, 1], "mid": [1, 4, 2, 0],
                   "high": [0, 0, 1, 3]})


def alt_form(form: str, call: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``call`` with alt_test's form forced (routes.forcing(alt_test=...)), on both engines."""
    def run(con: Any) -> Any:
        from agreement_sql import routes

        with routes.forcing(alt_test=form):
            return call(con)
    return run


def reference_cases() -> list[Case]:
    k2011, wiki_alpha = ref("krippendorff2011_4x12.csv"), ref("wikipedia_alpha_3x15.csv")
    fleiss, wiki_fleiss = ref("fleiss1971_diagnoses_30x6.csv"), ref("wikipedia_fleiss_10x14.csv")
    sas, skl = ref("sas_kappa_3x3.csv"), ref("sklearn_weighted_kappa_3cat.csv")
    ap = ref("artstein_poesio2008_table1_2x2.csv")
    cases: list[Case] = []
    for level in ("nominal", "ordinal", "interval", "ratio"):
        cases.append((f"alpha-{level}-k2011", lambda con, l=level: a.krippendorff_alpha(k2011, level=l, con=con)))
    cases += [
        ("fleiss-1971", lambda con: a.fleiss_kappa(fleiss, con=con)),
        ("alpha-interval-wiki", lambda con: a.krippendorff_alpha(wiki_alpha, level="interval", con=con)),
        ("fleiss-wiki-ordinal-domain", lambda con: a.fleiss_kappa(wiki_fleiss, categories=[1, 2, 3, 4, 5],
                                                                  con=con)),
        ("cohen-sas", lambda con: a.cohen_kappa(sas, con=con)),
        ("cohen-quadratic", lambda con: a.cohen_kappa(skl, weights="quadratic", con=con)),
        ("scott-ap", lambda con: a.scott_pi(ap, con=con)),
        ("conger-1971", lambda con: a.conger_kappa(fleiss, con=con)),
        ("gwet-1971", lambda con: a.gwet_ac1(fleiss, con=con)),
        ("bp-1971", lambda con: a.brennan_prediger(fleiss, con=con)),
        ("percent-1971", lambda con: a.percent_agreement(fleiss, con=con)),
        ("coefficients-1971", lambda con: a.coefficients(fleiss, con=con)),
        ("alpha-bootstrap", lambda con: a.krippendorff_alpha(k2011, level="interval", **BOOT, con=con)),
        ("alpha-distance-masi-sets", lambda con: a.krippendorff_alpha(SETS, distance="masi",
                                                                       set_separator="|", con=con)),
        ("alpha-distance-jaccard-sets-bootstrap", lambda con: a.krippendorff_alpha(
            SETS, distance="jaccard", set_separator="|", **BOOT, con=con)),
        ("alpha-distance-matrix", lambda con: a.krippendorff_alpha(k2011, distance=K2011_INTERVAL,
                                                                    con=con)),
        ("fleiss-sets", lambda con: a.fleiss_kappa(SETS, set_separator="|", con=con)),
        ("fleiss-bootstrap", lambda con: a.fleiss_kappa(fleiss, **BOOT, con=con)),
        ("fleiss-ci", lambda con: a.fleiss_kappa(fleiss, ci=True, con=con)),
        ("categories-1971", lambda con: a.category_agreement(fleiss, con=con)),
        ("categories-2011-declared", lambda con: a.category_agreement(k2011, categories=[1, 2, 3, 4, 5, 6],
                                                                       con=con)),
        ("icc-anxiety", lambda con: a.icc(str(DATA / "irr" / "irr_anxiety_20x3.csv"), con=con)),
    ]
    return cases


def workflow_cases() -> list[Case]:
    workshop = str(DATA / "workshop_annotations.jsonl")
    return [
        ("pairwise-workshop", lambda con: a.pairwise_agreement(workshop, con=con)),
        ("human-workshop", lambda con: a.human_agreement(workshop, con=con)),
        ("irr-workshop", lambda con: a.irr(workshop, con=con)),
        ("irr-workshop-csv", lambda con: a.irr(str(DATA / "workshop_annotations.csv"), item="trace_id",
                                                 rater="user_id", metric="question_id", value="rating", con=con)),
        ("diagnostics-anxiety", lambda con: a.rater_diagnostics(str(DATA / "irr" / "irr_anxiety_20x3.csv"), con=con)),
        ("judges-weval", lambda con: a.judge_agreement(str(DATA / "weval_results.json"), con=con)),
        ("consistency-pairs", lambda con: a.consistency(str(DATA / "consistency_pairs.jsonl"), con=con)),
        ("consistency-sides", lambda con: a.consistency(scholar=str(DATA / "consistency_scholar.jsonl"),
                                                        auditor=str(DATA / "consistency_auditor.jsonl"), con=con)),
        ("sheet", lambda con: a.evaluation_sheet(str(DATA / "evaluation_sheet.csv"), con=con)),
        # the alternative annotator test: rater patterns (lesion), instances (wax, 17 labels);
        # Student's t in a recursive CTE on both engines
        ("alt-test-lesion", lambda con: a.alt_test(str(DATA / "alttest" / "lesion.csv"), epsilon=0.15,
                                                   judges=["gemini_flash", "gemini_pro", "gpt-4o", "gpt-4o-mini"],
                                                   scoring="neg_rmse", con=con)),
        ("alt-test-wax", lambda con: a.alt_test(str(DATA / "alttest" / "wax.csv"), epsilon=0.1,
                                                judges=["gemini_flash", "gpt-4o", "mistral-v03"], con=con)),
    ]


def real_cases() -> list[Case]:
    real = {p.stem: str(p) for p in REAL.glob("*.csv")}
    return [
        ("real-rte-coefficients", lambda con: a.coefficients(real["snow2008_rte"], con=con)),
        ("real-bluebirds-alpha", lambda con: a.krippendorff_alpha(real["welinder2010_bluebirds"], level="nominal",
                                                                       con=con)),
        ("real-qags-xsum-fleiss", lambda con: a.fleiss_kappa(real["qags2020_xsum"], con=con)),
        ("real-dogs-alpha-ordinal", lambda con: a.krippendorff_alpha(real["zhou2012_dogs"], level="ordinal", con=con)),
        ("real-newsroom-alpha", lambda con: a.krippendorff_alpha(real["newsroom2018_humaneval"], metric="metric",
                                                                 level="interval", con=con)),
        ("real-affect-alpha", lambda con: a.krippendorff_alpha(real["snow2008_affect"], metric="metric",
                                                               level="interval", con=con)),
        ("real-squality-irr", lambda con: a.irr(real["squality2022_humaneval"], metric="metric", con=con)),
        ("real-newsroom-diagnostics", lambda con: a.rater_diagnostics(real["newsroom2018_humaneval"],
                                                                      metric="metric", con=con)),
    ]


def random_cases() -> list[Case]:
    cases: list[Case] = []
    for level in ("nominal", "ordinal", "interval", "ratio"):
        cases.append((f"random-alpha-{level}-sliced", lambda con, l=level: a.krippendorff_alpha(
            RANDOM, metric="metric", group_by="batch", level=l, con=con)))
    cases += [
        ("random-coefficients-sliced", lambda con: a.coefficients(RANDOM, metric="metric", group_by="batch", con=con)),
        ("random-labels-coefficients", lambda con: a.coefficients(RANDOM_LABELS, metric="metric", con=con)),
        ("random-cohen-pair", lambda con: a.cohen_kappa(RANDOM, metric="metric", raters=["r0", "r1"], con=con)),
        ("random-pairwise", lambda con: a.pairwise_agreement(RANDOM, metric="metric", con=con)),
        ("random-irr", lambda con: a.irr(RANDOM, metric="metric", con=con)),
        ("random-irr-integer-items", lambda con: a.irr(RANDOM_INT_ITEMS, metric="metric", con=con)),
        ("random-diagnostics-sliced", lambda con: a.rater_diagnostics(RANDOM, metric="metric", group_by="batch", con=con)),
        ("random-icc", lambda con: a.icc(RANDOM, metric="metric", con=con)),
        ("random-gwet-bootstrap", lambda con: a.gwet_ac1(RANDOM, metric="metric", **BOOT, con=con)),
        ("random-missing-placeholder", lambda con: a.fleiss_kappa(RANDOM, metric="metric", missing=["5"], con=con)),
        # one judge per metric: humans tested, and humans below 30 items excluded; each form of
        # sql/alt_test.sql.j2 (rater patterns here; a column per rater; per instance and category)
        ("random-alt-test", lambda con: a.alt_test(RANDOM_ALT, metric="metric", judges=["r4"], scoring="neg_rmse",
                                                   epsilon=0.15, con=con)),
        ("random-alt-test-pivot", alt_form("pivot", lambda con: a.alt_test(
            RANDOM_ALT, metric="metric", judges=["r3", "r4"], con=con))),
        ("random-alt-test-cells", alt_form("cells", lambda con: a.alt_test(
            RANDOM_ALT, metric="metric", judges=["r4"], scoring="neg_rmse", con=con))),
    ]
    cases += [
        ("layout-table-cohen-cells", lambda con: a.cohen_kappa(
            TABLE_3X3, layout="table", item="category", ci=0.95, ci_method="analytic", con=con)),
        ("layout-table-coefficients-cells", lambda con: a.coefficients(
            TABLE_3X3, layout="table", item="category", con=con)),
        ("layout-counts-coefficients-cells", lambda con: a.coefficients(
            COUNTS, layout="counts", item="unit", ci=0.95, ci_method="analytic", con=con)),
    ]
    cases.append(("random-duplicates-mean", lambda con: a.coefficients(
        RANDOM_DUPS, metric="metric", group_by="batch", level="interval", on_duplicate="mean", con=con)))
    for policy in ("first", "last", "mean"):
        cases.append((f"random-duplicates-{policy}-alpha", lambda con, p=policy: a.krippendorff_alpha(
            RANDOM_DUPS, metric="metric", level="interval", on_duplicate=p, con=con)))
    return cases


def all_cases() -> list[Case]:
    return reference_cases() + workflow_cases() + real_cases() + random_cases()
