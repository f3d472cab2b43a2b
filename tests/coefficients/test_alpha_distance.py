"""Krippendorff's alpha with a distance in place of the level's (issue #29 point 6;
docs/decisions/0028): distance="masi" / "jaccard" over set-valued labels (set_separator=), and
a caller's matrix over the labels.

Oracles: nltk (``nltk.metrics.agreement.AnnotationTask(data, distance=...).alpha()`` and
``nltk.metrics.distance``'s documented values), hand calculations from Passonneau's (2006)
definition of MASI, and the krippendorff package at a level against the same level's distance
given as a matrix.
"""
from __future__ import annotations

import csv
import json
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as a
from agreement_sql.cli import main
from agreement_sql.constants import MAX_VALUE_TABLE
from agreement_sql.errors import OptionError
from _budget import examples

nltk_agreement = pytest.importorskip("nltk.metrics.agreement")
nltk_distance = pytest.importorskip("nltk.metrics.distance")
krippendorff = pytest.importorskip("krippendorff")

KRIPPENDORFF_2011 = "tests/reference/krippendorff2011_4x12.csv"


def rows_table(rows):
    """(rater, item, value) rows, nltk's AnnotationTask order, as a long table."""
    return pa.table({"rater": [r[0] for r in rows], "item": [r[1] for r in rows],
                     "value": [r[2] for r in rows]})


def nltk_alpha(rows, distance, sep="|"):
    data = [(c, i, frozenset(e.strip() for e in v.split(sep) if e.strip())) for c, i, v in rows]
    return nltk_agreement.AnnotationTask(data=data, distance=distance).alpha()


def one_pair(x, y, distance):
    """alpha's observed disagreement of one unit rated x and y: D_o = sum_ck o_ck d_ck / n =
    (d(x, y) + d(y, x)) / 2 = d(x, y), the distance the SQL computed."""
    result = a.krippendorff_alpha(rows_table([("r1", "u", x), ("r2", "u", y)]),
                                  distance=distance, set_separator="|")
    return result["observed_disagreement"]


# -- the distances ------------------------------------------------------------------------------

def test_the_distances_are_nltks_documented_values():
    # nltk/test/metrics.doctest ("Other distance measures"): s1 = {1, 2, 3, 4}, s2 = {3, 4, 5}:
    # jaccard_distance 0.6, masi_distance 0.8666666666666667
    assert one_pair("1|2|3|4", "3|4|5", "jaccard") == pytest.approx(0.6, abs=1e-15)
    assert one_pair("1|2|3|4", "3|4|5", "masi") == pytest.approx(0.8666666666666667, abs=1e-15)
    # nltk.metrics.distance.masi_distance's docstring: masi({1, 2}, {1, 2, 3, 4}) = 0.6666666666666667
    assert one_pair("1|2", "1|2|3|4", "masi") == pytest.approx(0.6666666666666667, abs=1e-15)


# Passonneau (2006), "Measuring agreement on set-valued items (MASI) for semantic and pragmatic
# annotation", LREC: MASI = 1 - J M, J = |A n B| / |A u B|, M = 1 (identical), 2/3 (subsumption),
# 1/3 (intersection), 0 (disjoint); the expected values below are that definition by hand
PASSONNEAU = [
    ("x|y", "y|x", Fraction(0)),                        # identical: J = 1, M = 1
    ("x", "x|y", 1 - Fraction(1, 2) * Fraction(2, 3)),  # subsumption: J = 1/2, M = 2/3: 2/3
    ("x|y", "x|y|z", 1 - Fraction(2, 3) * Fraction(2, 3)),  # J = 2/3, M = 2/3: 5/9
    ("x|y", "y|z", 1 - Fraction(1, 3) * Fraction(1, 3)),    # intersection: J = 1/3, M = 1/3: 8/9
    ("x|y|z", "w|x", 1 - Fraction(1, 4) * Fraction(1, 3)),  # J = 1/4, M = 1/3: 11/12
    ("x", "y", Fraction(1)),                            # disjoint: M = 0
]


@pytest.mark.parametrize("x,y,masi", PASSONNEAU)
def test_masi_is_passonneaus_definition(x, y, masi):
    assert one_pair(x, y, "masi") == pytest.approx(float(masi), abs=1e-15)
    # and nltk's masi_distance agrees with the hand value
    assert nltk_distance.masi_distance(set(x.split("|")), set(y.split("|"))) == \
        pytest.approx(float(masi), abs=1e-15)


# -- alpha against nltk ---------------------------------------------------------------------------

# set-valued annotations of 5 items by 3 coders (one rating missing, one lone rating), written
# in any order and with stray spaces: nltk reads each as the frozenset of its elements
SETS = [("c1", "1", "a|b"), ("c2", "1", "b | a"), ("c3", "1", "a"),
        ("c1", "2", "c"), ("c2", "2", "c|d"), ("c3", "2", "d"),
        ("c1", "3", "a"), ("c2", "3", "b"),
        ("c1", "4", "a|b|c"), ("c2", "4", "c|b|a|a"), ("c3", "4", "b"),
        ("c1", "5", "d")]


@pytest.mark.parametrize("name", ["masi", "jaccard"])
def test_alpha_is_nltks(name):
    distance = {"masi": nltk_distance.masi_distance, "jaccard": nltk_distance.jaccard_distance}[name]
    expected = nltk_alpha(SETS, distance)
    got = a.krippendorff_alpha(rows_table(SETS), distance=name, set_separator="|")
    assert got["value"] == pytest.approx(expected, abs=1e-12)
    # {a, b} written "a|b" and "b | a" is one category, {a, b, c} written "c|b|a|a" another:
    # 7 sets among the 11 pairable values; the lone rating of item 5 is unpairable
    assert got["n_categories"] == 7 and got["n_values"] == 11 and got["n_items"] == 4
    assert got["level"] is None and got["distance"] == name
    assert ("Passonneau" in got["conventions"]["distance"]) == (name == "masi")
    assert "set_separator" in got["conventions"]


def test_nltk_by_hand():
    # the same alpha by Krippendorff's formula, independently: 1 - (n - 1) sum o d / sum n_c n_k d
    got = a.krippendorff_alpha(rows_table(SETS), distance="masi", set_separator="|")
    units: dict[str, list[frozenset]] = {}
    for _, item, v in SETS:
        units.setdefault(item, []).append(frozenset(e.strip() for e in v.split("|")))
    units = {k: v for k, v in units.items() if len(v) >= 2}
    d = nltk_distance.masi_distance
    observed = sum(d(x, y) / (len(v) - 1) for v in units.values()
                   for i, x in enumerate(v) for j, y in enumerate(v) if i != j)
    values = [x for v in units.values() for x in v]
    expected = sum(d(x, y) for i, x in enumerate(values) for j, y in enumerate(values) if i != j)
    assert got["value"] == pytest.approx(1 - (len(values) - 1) * observed / expected, abs=1e-12)


ELEMENT = st.sampled_from(["a", "b", "c", "d"])


@st.composite
def set_ratings(draw):
    """Random set-valued ratings: 2-4 coders, 2-7 items, a rating missing at random, each set
    of 1-3 elements written in a random order with repeats and spaces."""
    n_coders = draw(st.integers(2, 4))
    n_items = draw(st.integers(2, 7))
    rows = []
    for i in range(n_items):
        for c in range(n_coders):
            if draw(st.booleans()) and draw(st.booleans()):
                continue                                    # missing
            elements = draw(st.lists(ELEMENT, min_size=1, max_size=3))
            rows.append((f"c{c}", f"i{i}", " | ".join(elements)))
    return rows


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=set_ratings(), name=st.sampled_from(["masi", "jaccard"]))
def test_alpha_is_nltks_on_random_sets(rows, name):
    items: dict[str, int] = {}
    for _, item, _ in rows:
        items[item] = items.get(item, 0) + 1
    pairable = [r for r in rows if items[r[1]] >= 2]
    got = a.krippendorff_alpha(rows_table(rows), distance=name, set_separator="|") if rows else None
    if not pairable:
        assert got is None or got["value"] is None
        return
    distance = {"masi": nltk_distance.masi_distance, "jaccard": nltk_distance.jaccard_distance}[name]
    expected = nltk_alpha(rows, distance)
    assert got["value"] == pytest.approx(expected, abs=1e-9)


def masi_before_nltk_3695(label1, label2):
    """nltk's masi_distance before nltk pull request #3695 (issue #3361: "The MASI distance
    implementation uses weights 0.67 and 0.33, but the referenced article uses 2/3 and 1/3"):
    the current function with the two rounded weights, as that issue quotes them."""
    i, u = len(label1 & label2), len(label1 | label2)
    if len(label1) == len(label2) == i:
        m = 1.0
    elif i == min(len(label1), len(label2)):
        m = 0.67
    elif i > 0:
        m = 0.33
    else:
        m = 0.0
    return 1 - i / u * m


def test_masi_rounded_is_nltks_former_masi():
    # the peer's former convention, offered by name (docs/decisions/0028): PR #3695's example,
    # {1, 2} vs {1, 2, 3, 4}, was 0.665 before it (1 - 1/2 * 0.67) and is 2/3 since
    assert one_pair("1|2", "1|2|3|4", "masi_rounded") == pytest.approx(0.665, abs=1e-15)
    expected = nltk_alpha(SETS, masi_before_nltk_3695)
    got = a.krippendorff_alpha(rows_table(SETS), distance="masi_rounded", set_separator="|")
    assert got["value"] == pytest.approx(expected, abs=1e-12)
    assert got["value"] != pytest.approx(
        a.krippendorff_alpha(rows_table(SETS), distance="masi", set_separator="|")["value"],
        abs=1e-6)


# -- a matrix over the labels ---------------------------------------------------------------------

VALUES = (1, 2, 3, 4, 5)
MATRICES = {
    "nominal": {(c, k): float(c != k) for c in VALUES for k in VALUES},
    "interval": {(c, k): float((c - k) ** 2) for c in VALUES for k in VALUES},
    "ratio": {(c, k): ((c - k) / (c + k)) ** 2 for c in VALUES for k in VALUES},
}


def krippendorff2011():
    with open(KRIPPENDORFF_2011, newline="") as handle:
        rows = list(csv.DictReader(handle))
    raters = sorted({r["rater"] for r in rows})
    items = sorted({r["item"] for r in rows}, key=int)
    data = np.full((len(raters), len(items)), np.nan)
    for r in rows:
        data[raters.index(r["rater"]), items.index(r["item"])] = float(r["value"])
    return data


@pytest.mark.parametrize("level", sorted(MATRICES))
def test_a_levels_matrix_is_the_level(level):
    # the krippendorff package at the level, and its distance given as a matrix: one alpha
    # (Krippendorff 2011's 4 x 12 example: nominal .743, interval .849, ratio .797)
    expected = krippendorff.alpha(reliability_data=krippendorff2011(), level_of_measurement=level)
    got = a.krippendorff_alpha(KRIPPENDORFF_2011, distance=MATRICES[level])
    assert got["value"] == pytest.approx(expected, abs=1e-12)
    assert got["distance"] == "matrix" and got["level"] is None
    assert got["route"][0]["units"] == "counts"


def test_the_matrix_forms_agree():
    matrix = MATRICES["interval"]
    nested = {c: {k: matrix[(c, k)] for k in VALUES} for c in VALUES}
    table = pa.table({"a": [c for c, _ in matrix], "b": [k for _, k in matrix],
                      "d": list(matrix.values())})
    rows = [[matrix[(c, k)] for k in VALUES] for c in VALUES]
    values = {a.krippendorff_alpha(KRIPPENDORFF_2011, distance=d, **kw)["value"]
              for d, kw in ((matrix, {}), (nested, {}), (table, {}), (table.to_pandas(), {}),
                            (rows, {"categories": list(VALUES)}))}
    assert len(values) == 1
    assert values.pop() == pytest.approx(0.849, abs=5e-4)      # Krippendorff (2011): .849


def test_a_matrix_over_labels():
    # three labels, "near" pairs at 0.25: by hand, one unit (x, y) has D_o = d(x, y)
    matrix = {("lo", "lo"): 0, ("mid", "mid"): 0, ("hi", "hi"): 0, ("lo", "mid"): 0.25,
              ("mid", "lo"): 0.25, ("mid", "hi"): 0.25, ("hi", "mid"): 0.25, ("lo", "hi"): 1,
              ("hi", "lo"): 1}
    got = a.krippendorff_alpha(rows_table([("r1", "u", "lo"), ("r2", "u", "mid")]),
                               distance=matrix)
    assert got["observed_disagreement"] == pytest.approx(0.25, abs=1e-15)


def bad(matrix, **kw):
    with pytest.raises(OptionError) as info:
        a.krippendorff_alpha(KRIPPENDORFF_2011, distance=matrix, **kw)
    return str(info.value)


def test_a_matrix_that_is_not_a_distance_is_refused_naming_the_cell():
    nominal = MATRICES["nominal"]
    assert "d('1', '2') = -1.0" in bad({**nominal, (1, 2): -1.0})
    assert "d('3', '3') = 0.5" in bad({**nominal, (3, 3): 0.5})
    assert "not symmetric: d('1', '2') = 0.5 but d('2', '1') = 1.0" in bad({**nominal, (1, 2): 0.5})
    assert "no distance for row '2', column '3'" in \
        bad({k: v for k, v in nominal.items() if k != (2, 3)})
    assert "the ratings hold the category 5, which the distance matrix does not name" in \
        bad({k: v for k, v in nominal.items() if 5 not in k})
    assert "not a number" in bad({**nominal, (1, 2): "far"})
    assert "no column 'd'" in bad(pa.table({"a": [1], "b": [1], "dist": [0.0]}))


def test_sql_text_is_never_a_distance():
    # principle 2: nothing from a caller is pasted into SQL (docs/decisions/0028)
    assert "distance must be 'masi', 'jaccard', 'masi_rounded' or a distance matrix" in \
        bad("CASE WHEN a = b THEN 0 ELSE 1 END")


def test_distance_is_alphas_and_replaces_the_level():
    with pytest.raises(OptionError, match="takes no distance="):
        a.fleiss_kappa(KRIPPENDORFF_2011, distance="masi")
    with pytest.raises(OptionError, match="level= or distance=, not both"):
        a.krippendorff_alpha(KRIPPENDORFF_2011, distance="masi", level="nominal")
    with pytest.raises(OptionError, match="distance= is Krippendorff's alpha's"):
        a.coefficients(KRIPPENDORFF_2011, which=["fleiss_kappa"], distance="jaccard")


def test_coefficients_computes_alpha_with_the_distance():
    got = a.coefficients(rows_table(SETS), which=["krippendorff_alpha", "fleiss_kappa"],
                         distance="masi", set_separator="|")
    single = a.krippendorff_alpha(rows_table(SETS), distance="masi", set_separator="|")
    assert got["krippendorff_alpha"]["value"] == single["value"]
    assert got["krippendorff_alpha"]["distance"] == "masi"


# -- intervals --------------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_bootstrap_uses_the_distance():
    # the nominal matrix's bootstrap is the nominal level's, replicate for replicate (same seed)
    by_matrix = a.krippendorff_alpha(KRIPPENDORFF_2011, distance=MATRICES["nominal"], ci=0.95,
                                     n_boot=200, seed=3)
    by_level = a.krippendorff_alpha(KRIPPENDORFF_2011, ci=0.95, ci_method="bootstrap",
                                    n_boot=200, seed=3)
    assert by_matrix["ci_method"] == "bootstrap"
    for key in ("se", "ci_low", "ci_high", "n_boot_valid"):
        assert by_matrix[key] == pytest.approx(by_level[key], abs=1e-12), key
    # and a different distance gives a different interval over the same replicates
    by_interval = a.krippendorff_alpha(KRIPPENDORFF_2011, distance=MATRICES["interval"],
                                       ci=0.95, n_boot=200, seed=3)
    assert by_interval["se"] != by_matrix["se"]


def test_no_analytic_standard_error_with_a_distance():
    # the linearised variance (irrCAC's) is written for the levels' d2: with a distance the
    # interval is the bootstrap's, and an analytic one is refused, as at the ordinal level
    got = a.krippendorff_alpha(rows_table(SETS), distance="masi", set_separator="|", ci=0.95,
                               n_boot=100)
    assert got["ci_method"] == "bootstrap" and got["se0"] is None
    assert "no analytic standard error" in got["conventions"]["distance"]
    with pytest.raises(OptionError, match="no analytic standard error"):
        a.krippendorff_alpha(rows_table(SETS), distance="masi", set_separator="|", ci=0.95,
                             ci_method="analytic")


# -- set-valued labels ---------------------------------------------------------------------------

def test_a_set_is_one_label_whatever_its_spelling():
    rows = [("r1", "1", "b|a"), ("r2", "1", " a | b |a"), ("r1", "2", "a"), ("r2", "2", "a||"),
            ("r1", "3", "|"), ("r2", "3", "a")]
    got = a.krippendorff_alpha(rows_table(rows), distance="masi", set_separator="|")
    # {a, b} twice, {a} twice: perfect agreement over 2 units; "|" holds no element: missing
    assert got["value"] == 1.0 and got["n_items"] == 2 and got["n_categories"] == 2
    assert got["n_excluded"]["missing"] == 1
    # the kappas read the same canonical labels: "b|a" and " a | b |a" agree
    kappa = a.percent_agreement(rows_table(rows), set_separator="|")
    assert kappa["value"] == 1.0


def test_without_a_separator_every_label_is_a_set_of_one():
    rows = [("r1", "1", "a|b"), ("r2", "1", "b|a"), ("r1", "2", "x"), ("r2", "2", "x"),
            ("r1", "3", "y"), ("r2", "3", "x")]
    nominal = a.krippendorff_alpha(rows_table(rows))
    for name in ("masi", "jaccard"):
        got = a.krippendorff_alpha(rows_table(rows), distance=name)
        assert got["value"] == pytest.approx(nominal["value"], abs=1e-15)
        assert "set of one" in got["conventions"]["distance"]


def test_numbers_are_sets_of_their_digits_text():
    # a numeric column with set_separator: 3 is the set {"3"} (not "3.0"), as the text "3"
    numbers = pa.table({"rater": ["r1", "r2", "r1", "r2"], "item": ["1", "1", "2", "2"],
                        "value": [3, 3, 4, 3]})
    texts = pa.table({"rater": ["r1", "r2", "r1", "r2"], "item": ["1", "1", "2", "2"],
                      "value": ["3", "3", "4", "3"]})
    got = a.krippendorff_alpha(numbers, distance="masi", set_separator="|")
    same = a.krippendorff_alpha(texts, distance="masi", set_separator="|")
    # by hand: n = 4 values, {3} x3, {4} x1; D_o = 2 d / 4 = 1/2, D_e = 2 * 3 d / 12 = 1/2: 0
    assert got["value"] == same["value"] == 0.0
    assert got["n_categories"] == same["n_categories"] == 2
    # the text "3.0" is an element of its own (sets hold texts, compared by their bytes)
    other = pa.table({"rater": ["r1", "r2", "r1", "r2"], "item": ["1", "1", "2", "2"],
                      "value": ["3", "3", "4", "3.0"]})
    assert a.krippendorff_alpha(other, distance="masi", set_separator="|")["n_categories"] == 3


def test_the_value_table_bound_applies():
    # a distance is measured over every pair of distinct labels: refused beyond
    # constants.MAX_VALUE_TABLE of them (agreement_sql.value_tables), naming the count
    n = MAX_VALUE_TABLE + 1
    table = pa.table({"rater": ["r1", "r2"] * n, "item": [str(i // 2) for i in range(2 * n)],
                      "value": [f"v{i // 2}" for i in range(2 * n)]})
    with pytest.raises(OptionError, match=f"{n} distinct values: more than {MAX_VALUE_TABLE}"):
        a.krippendorff_alpha(table, distance="jaccard", set_separator="|")


# -- the command line -----------------------------------------------------------------------------

def test_cli_distance_and_matrix(tmp_path, capsys):
    sets = tmp_path / "sets.csv"
    with open(sets, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["rater", "item", "value"])
        writer.writerows(SETS)
    assert main(["krippendorff-alpha", str(sets), "--distance", "masi",
                 "--set-separator", "|"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == pytest.approx(nltk_alpha(SETS, nltk_distance.masi_distance), abs=1e-12)
    matrix = tmp_path / "interval.csv"
    with open(matrix, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["a", "b", "d"])
        writer.writerows([(c, k, d) for (c, k), d in MATRICES["interval"].items()])
    assert main(["krippendorff-alpha", KRIPPENDORFF_2011, "--distance-matrix", str(matrix)]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = krippendorff.alpha(reliability_data=krippendorff2011(),
                                  level_of_measurement="interval")
    assert out["value"] == pytest.approx(expected, abs=1e-12)
