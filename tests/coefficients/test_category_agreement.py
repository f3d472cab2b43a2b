"""Category-wise agreement (agreement_sql.category_agreement, sql/category_agreement.sql.j2).

Per category k: Fleiss' (1971) kappa_j of k against the rest, its test under H0 (se0 = sqrt(2 /
(N m (m - 1))), Fleiss, Nee & Landis 1979), and the specific agreement sum_i r_ik (r_ik - 1) /
sum_i r_ik (r_i - 1) (positive and negative agreement for two raters and binary labels).

Expected numbers:
* Fleiss (1971), the diagnoses example (30 patients x 6 psychiatrists, 5 diagnoses): the
  per-category kappas .245, .245, .520, .471, .566, as R irr's documented example
  ``kappam.fleiss(diagnoses, detail=TRUE)`` prints them (its table rounds to 3 decimals), with
  z = kappa / sqrt(2 / (30 * 6 * 5)): 5.192, 5.192, 11.031, 9.994, 12.009 and p.value 0.000;
  the formulas are irr's (cran/irr R/kappam.fleiss.R: pjk, kappaK = (pjk - pj) / (1 - pj),
  varkappaK = 2 / (ns nr (nr - 1))), transcribed below as an independent oracle (_irr_detail).
* Fleiss' overall kappa of the same data, 0.4302445 (published.json: statsmodels'
  test_fleiss_kappa_irr, R irr's output), is the p_j q_j-weighted mean of the category kappas
  (Fleiss 1971, eq. 13): a check of all five at full precision against a published number.
* Artstein & Poesio (2008) Table 1 (100 items, two coders, yes/no): yes-yes 20, yes-no 20,
  no-yes 10, no-no 50 (counted from tests/reference/artstein_poesio2008_table1_2x2.csv), so by
  hand the positive agreement 2a / (2a + b + c) = 40 / 70 and the negative agreement
  2d / (2d + b + c) = 100 / 130 (Cicchetti & Feinstein 1990's p_pos and p_neg).
* A numpy implementation of the formulas on random count tables (hypothesis), with missing
  ratings, units rated once, unequal numbers of raters and unused declared categories, on
  every route of the per-unit counts.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from scipy.stats import norm

import agreement_sql as ag
from agreement_sql import routes
from agreement_sql.cli import main
from conftest import REFERENCE
from _budget import examples

DIAGNOSES = str(REFERENCE / "fleiss1971_diagnoses_30x6.csv")
ARTSTEIN = str(REFERENCE / "artstein_poesio2008_table1_2x2.csv")

# Fleiss (1971) / R irr kappam.fleiss(diagnoses, detail=TRUE), 3 decimals (module docstring)
PUBLISHED_KAPPA = [0.245, 0.245, 0.520, 0.471, 0.566]
PUBLISHED_Z = [5.192, 5.192, 11.031, 9.994, 12.009]
PUBLISHED_OVERALL = 0.4302445      # published.json, fleiss1971_diagnoses_30x6 (statsmodels / irr)


def _counts(path: str) -> np.ndarray:
    """The diagnoses as a units x categories count table (categories 1..5)."""
    import csv

    table = np.zeros((30, 5), dtype=int)
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            table[int(row["item"]) - 1, int(row["value"]) - 1] += 1
    return table


def _irr_detail(ttab: np.ndarray) -> tuple[np.ndarray, float]:
    """irr's kappam.fleiss(detail=TRUE) transcribed (cran/irr R/kappam.fleiss.R): complete data,
    ns subjects, nr raters each."""
    ns, nr = ttab.shape[0], int(ttab[0].sum())
    pj = ttab.sum(axis=0) / (ns * nr)
    pjk = ((ttab ** 2).sum(axis=0) - ns * nr * pj) / (ns * nr * (nr - 1) * pj)
    kappa_k = (pjk - pj) / (1 - pj)
    return kappa_k, math.sqrt(2 / (ns * nr * (nr - 1)))


def test_fleiss_1971_diagnoses_are_irrs_category_kappas():
    result = ag.category_agreement(DIAGNOSES)
    cats = result["categories"]
    assert [c["category"] for c in cats] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert [round(c["kappa"], 3) for c in cats] == PUBLISHED_KAPPA          # Fleiss (1971), irr
    assert [round(c["z"], 3) for c in cats] == PUBLISHED_Z                  # irr's z
    assert all(round(c["p_value"], 3) == 0.0 for c in cats)                 # irr's p.value 0.000
    kappa_k, se = _irr_detail(_counts(DIAGNOSES))
    for c, k in zip(cats, kappa_k):
        assert c["kappa"] == pytest.approx(k, rel=1e-12)
        assert c["se0"] == pytest.approx(se, rel=1e-14)
        assert c["z"] == pytest.approx(k / se, rel=1e-12)
        assert c["p_value"] == pytest.approx(2 * norm.sf(abs(k / se)), rel=1e-9)
    assert (result["n_units"], result["n_items"], result["n_raters"], result["n_categories"]) == \
        (30, 30, 6, 5)
    assert [c["n_ratings"] for c in cats] == [26, 26, 30, 55, 43]           # the column totals
    assert sum(c["share"] for c in cats) == pytest.approx(1.0)


def test_the_overall_kappa_is_the_pq_weighted_mean_of_the_category_kappas():
    # Fleiss (1971), eq. 13: kappa = sum_j p_j q_j kappa_j / sum_j p_j q_j (complete data)
    cats = ag.category_agreement(DIAGNOSES)["categories"]
    pq = [c["share"] * (1 - c["share"]) for c in cats]
    mean = sum(w * c["kappa"] for w, c in zip(pq, cats)) / sum(pq)
    assert round(mean, 7) == PUBLISHED_OVERALL
    assert mean == pytest.approx(ag.fleiss_kappa(DIAGNOSES)["value"], rel=1e-12)


def test_positive_and_negative_agreement_of_artstein_and_poesio():
    cats = {c["category"]: c for c in ag.category_agreement(ARTSTEIN)["categories"]}
    assert list(cats) == ["no", "yes"]
    assert cats["yes"]["specific_agreement"] == pytest.approx(40 / 70, rel=1e-14)   # 2a/(2a+b+c)
    assert cats["no"]["specific_agreement"] == pytest.approx(100 / 130, rel=1e-14)  # 2d/(2d+b+c)
    assert (cats["yes"]["agreeing_pairs"], cats["yes"]["possible_pairs"]) == (40, 70)
    # two categories: k against the rest is the whole table, so both kappas are Fleiss' (Scott's pi)
    fleiss = ag.fleiss_kappa(ARTSTEIN)["value"]
    assert cats["yes"]["kappa"] == pytest.approx(fleiss, rel=1e-12)
    assert cats["no"]["kappa"] == pytest.approx(fleiss, rel=1e-12)


def test_unequal_raters_take_fleiss_generalisation_and_no_test():
    # Krippendorff (2011)'s 4 x 12 data: units rated by 1 to 4 observers. Each category's kappa
    # is fleiss_kappa (its own statement, sql/_fleiss.sql.j2) of the ratings recoded k / not k.
    import csv

    rows = list(csv.DictReader(open(REFERENCE / "krippendorff2011_4x12.csv", newline="")))
    result = ag.category_agreement(str(REFERENCE / "krippendorff2011_4x12.csv"))
    for c in result["categories"]:
        recoded = pa.table({"item": [r["item"] for r in rows], "rater": [r["rater"] for r in rows],
                            "value": ["k" if float(r["value"]) == c["category"] else "rest"
                                      for r in rows]})
        assert c["kappa"] == pytest.approx(ag.fleiss_kappa(recoded)["value"], rel=1e-12)
        assert (c["se0"], c["z"], c["p_value"]) == (None, None, None)   # no one m: no test
    assert "every unit has the same m" in result["conventions"]["test"]


def test_incomplete_units_drop_is_irrs_listwise_deletion():
    # irr's kappam.fleiss(ratings, detail=TRUE) starts with na.omit(ratings): on Krippendorff
    # (2011)'s 4 observers x 12 units, the 8 units all four rated. _irr_detail (irr transcribed)
    # on those units' counts is the oracle; the 9 ratings of the other units are counted apart.
    import csv

    wide: dict[str, dict[str, float]] = {}
    for r in csv.DictReader(open(REFERENCE / "krippendorff2011_4x12.csv", newline="")):
        wide.setdefault(r["item"], {})[r["rater"]] = float(r["value"])
    raters = sorted({k for unit in wide.values() for k in unit})
    complete = [unit for unit in wide.values() if len(unit) == len(raters)]
    levels = sorted({v for unit in complete for v in unit.values()})
    ttab = np.array([[sum(1 for v in unit.values() if v == c) for c in levels]
                     for unit in complete])
    kappa_k, se = _irr_detail(ttab)
    result = ag.category_agreement(str(REFERENCE / "krippendorff2011_4x12.csv"),
                                   incomplete_units="drop")
    cats = {c["category"]: c for c in result["categories"]}
    for level, k in zip(levels, kappa_k):
        assert cats[level]["kappa"] == pytest.approx(k, rel=1e-12)
        assert cats[level]["z"] == pytest.approx(k / se, rel=1e-12)
    assert (result["n_units"], result["n_items"], result["n_ratings"]) == (8, 8, 32)
    assert result["n_excluded"]["incomplete_unit"] == 9
    assert result["n_rows"] == result["n_ratings"] + sum(result["n_excluded"].values())
    assert "na.omit" in result["conventions"]["incomplete_units"]
    # a category only the dropped units used: listed, no kappa (irr does not list it)
    unused = [c for v, c in cats.items() if v not in levels]
    assert unused and all(c["n_ratings"] == 0 and c["kappa"] is None for c in unused)
    # complete data: the same with either convention (Fleiss 1971's diagnoses)
    keep = ag.category_agreement(DIAGNOSES)
    drop = ag.category_agreement(DIAGNOSES, incomplete_units="drop")
    assert [c["kappa"] for c in keep["categories"]] == [c["kappa"] for c in drop["categories"]]
    assert drop["n_excluded"]["incomplete_unit"] == 0


def test_undefined_is_none():
    # a declared category nobody used, and one everybody used on a unit rated once only
    table = pa.table({"item": [1, 1, 2, 2, 3], "rater": ["a", "b", "a", "b", "a"],
                      "value": ["x", "x", "x", "y", "y"]})
    cats = {c["category"]: c for c in
            ag.category_agreement(table, categories=["x", "y", "z"])["categories"]}
    assert list(cats) == ["x", "y", "z"]
    z = cats["z"]
    assert (z["n_ratings"], z["n_units"], z["share"]) == (0, 0, 0.0)
    assert (z["kappa"], z["specific_agreement"], z["z"]) == (None, None, None)
    assert cats["x"]["kappa"] is not None
    # nobody rated a unit twice: every kappa and specific agreement is None
    once = pa.table({"item": [1, 2], "rater": ["a", "a"], "value": ["x", "y"]})
    result = ag.category_agreement(once)
    assert result["n_items"] == 0
    assert all(c["kappa"] is None and c["specific_agreement"] is None
               for c in result["categories"])
    # one category only: no variation to agree on
    same = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b"] * 2, "value": ["x"] * 4})
    only = ag.category_agreement(same)["categories"]
    assert only[0]["kappa"] is None and only[0]["specific_agreement"] == 1.0


def test_every_metric_and_slice_is_in_the_result():
    table = pa.table({
        "item": [1, 1, 2, 2, 1, 1, 2, 2, 1, 1],
        "rater": ["a", "b"] * 5,
        "question": ["q1"] * 4 + ["q2"] * 4 + ["q3"] * 2,
        "day": ["d1", "d1", "d2", "d2"] * 2 + ["d1", "d1"],
        "value": [1, 1, 2, 1, 3, 3, 3, 1, None, None],
    })
    results = ag.category_agreement(table, metric="question", group_by="day")
    keys = [(r["metric"], r["group"]["day"]) for r in results]
    assert keys == [("q1", "d1"), ("q1", "d2"), ("q2", "d1"), ("q2", "d2"), ("q3", "d1")]
    empty = results[-1]                              # every rating missing: present, counted
    assert empty["categories"] == [] and empty["n_units"] == 0
    assert empty["n_rows"] == 2 and empty["n_excluded"]["missing"] == 2
    q1d2 = {c["category"]: c for c in results[1]["categories"]}
    assert q1d2[1.0]["n_ratings"] == 1 and q1d2[2.0]["n_ratings"] == 1
    for r in results:
        assert r["n_rows"] == r["n_ratings"] + sum(r["n_excluded"].values())


# -- an independent implementation on random count tables ---------------------------------------

def _oracle(counts: np.ndarray, n_domain: int) -> list[dict[str, Any]]:
    """The formulas of sql/category_agreement.sql.j2 with numpy, from units x categories counts."""
    counts = counts[counts.sum(axis=1) > 0]
    r = counts.sum(axis=1)
    two = r >= 2
    n, n2 = len(r), int(two.sum())
    full = np.zeros((len(r), n_domain), dtype=int)
    full[:, :counts.shape[1]] = counts
    pi = (full / r[:, None]).mean(axis=0)
    same = r.min() == r.max() and r.min() >= 2
    se0 = math.sqrt(2 / (n * r[0] * (r[0] - 1))) if same else None
    out = []
    for k in range(n_domain):
        c = full[:, k]
        d = (c[two] * (r[two] - c[two]) / (r[two] * (r[two] - 1))).sum() / n2 if n2 else None
        pq = pi[k] * (1 - pi[k])
        kappa = 1 - d / pq if n2 and pq > 0 else None
        agree, possible = int((c * (c - 1)).sum()), int((c * (r - 1)).sum())
        z = kappa / se0 if kappa is not None and se0 is not None else None
        out.append({"n_ratings": int(c.sum()), "n_units": int((c > 0).sum()),
                    "share": c.sum() / r.sum(), "kappa": kappa, "se0": se0,
                    "z": z, "p_value": None if z is None else 2 * norm.sf(abs(z)),
                    "specific_agreement": agree / possible if possible else None,
                    "agreeing_pairs": agree, "possible_pairs": possible})
    return out


def _long(counts: np.ndarray, missing: int) -> pa.Table:
    items, raters, values = [], [], []
    for i, row in enumerate(counts):
        j = 0
        for k, c in enumerate(row):
            for _ in range(int(c)):
                items.append(i)
                raters.append(f"r{j}")
                values.append(k + 1)
                j += 1
        if i < missing:                      # a missing rating: counted, not a rating
            items.append(i)
            raters.append(f"r{j}")
            values.append(None)
    return pa.table({"item": items, "rater": raters, "value": pa.array(values, pa.int64())})


def _close(got: Any, want: Any) -> bool:
    if want is None or got is None:
        return got is want
    return got == pytest.approx(want, rel=1e-9, abs=1e-12)


count_tables = st.integers(2, 4).flatmap(lambda k: st.lists(
    st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=1, max_size=8))


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count_tables, st.booleans(), st.integers(0, 2), st.sampled_from([{}, {"units": "counts"},
                                                                          {"rater_bits": "none"}]),
       st.booleans())
def test_matches_numpy_on_random_count_tables(cells, declare, missing, route, drop):
    counts = np.array(cells, dtype=int)
    if counts.sum() == 0:
        counts[0, 0] = 1
    k = counts.shape[1]
    used = [j for j in range(k) if counts[:, j].sum() > 0]
    rated = counts[counts.sum(axis=1) > 0]
    # incomplete_units="drop": only the units every rater rated (raters r0.. r(max - 1))
    kept = rated[rated.sum(axis=1) == rated.sum(axis=1).max()] if drop else rated
    if declare:                                  # every category declared, and one more unused
        n_domain, kwargs = k + 1, {"categories": list(range(1, k + 2))}
        want = _oracle(kept, n_domain)
        names = list(range(1, k + 2))
    else:                                        # the categories used
        kwargs = {}
        want = _oracle(kept[:, used], len(used))
        names = [j + 1 for j in used]
    if drop:
        kwargs["incomplete_units"] = "drop"
    with routes.forcing(**route):
        result = ag.category_agreement(_long(counts, missing), **kwargs)
    got = result["categories"]
    assert [c["category"] for c in got] == names
    for g, w in zip(got, want):
        for field, value in w.items():
            assert _close(g[field], value), (field, g[field], value)
    assert result["n_excluded"]["missing"] == min(missing, len(counts))
    assert (result["n_units"], result["n_ratings"]) == (len(kept), int(kept.sum()))
    assert result["n_excluded"].get("incomplete_unit", 0) == int(rated.sum() - kept.sum())


def test_the_route_is_recorded_and_both_forms_agree():
    wide = ag.category_agreement(DIAGNOSES)
    with routes.forcing(units="counts"):
        counts = ag.category_agreement(DIAGNOSES)
    assert wide["route"][0]["units"] == "wide" and counts["route"][0]["units"] == "counts"
    assert [c["kappa"] for c in wide["categories"]] == pytest.approx(
        [c["kappa"] for c in counts["categories"]], rel=1e-14)


# -- the command line ----------------------------------------------------------------------------

def test_the_command_prints_a_row_per_category(capsys):
    assert main(["category-agreement", DIAGNOSES, "--format", "csv", "--quiet"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("metric,category,n_ratings,n_units,share,kappa")
    assert len(lines) == 6
    assert main(["category-agreement", ARTSTEIN, "--categories", "yes,no,maybe", "--format",
                 "table", "--quiet"]) == 0
    table = capsys.readouterr().out
    assert "maybe" in table and "0.5714" in table
