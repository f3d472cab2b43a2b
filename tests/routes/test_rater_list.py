"""Raters numbered from the profile's list give the answers of a DISTINCT over the ratings
(routes decision ``rater_list``): a differential property test.

The coefficients statement and the workshop report number their raters (the rater bits of
sql/_rater_codes.sql.j2) from the ratings profile's raters with a usable rating, bound as
parameters (``listed``, the default), where the ``scan`` alternative reads the statement's
ratings again for a DISTINCT. The two must agree byte for byte on every call but for the
``route`` record. The generated tables hold what could tell them apart: a rater whose every
value is missing (NULL, NaN, blank, a declared placeholder), rater names that sort or compare
in unusual ways (case, spaces, a boolean's spelling, non-ASCII), a rater rating an item twice
(refused by name, or merged by a duplicate policy), labels outside declared categories (left
out with ``labels=``), and more raters than one block of rater bits.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

import pyarrow as pa
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql import routes
from _budget import examples
from conftest import without_route

NAMES = st.sampled_from(["a", "B", "b", " b", "TRUE", "false", "é", "Ω", "z9", "10", "9", "A a"])
MISSING = st.sampled_from([None, math.nan, "", "  ", "-1"])


@st.composite
def tables(draw: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Rows (item, rater, metric, value) of text values, and the options of one call."""
    raters = draw(st.lists(NAMES, min_size=2, max_size=6, unique=True))
    if draw(st.integers(0, 6)) == 0:        # more raters than one block of bits (62)
        raters += [f"x{k:03d}" for k in range(62)]
    silent = draw(st.sampled_from(raters))  # sometimes every value of one rater is missing
    all_missing = draw(st.booleans())
    rows = []
    for item in range(draw(st.integers(2, 6))):
        for rater in raters:
            if draw(st.integers(0, 3)) == 0:
                continue
            value: Any = str(draw(st.integers(1, 3)))
            if (rater == silent and all_missing) or draw(st.integers(0, 6)) == 0:
                value = draw(MISSING)
            elif draw(st.integers(0, 15)) == 0:
                value = "n/a"               # a label: outside the declared categories
            rows.append({"item": str(item), "rater": rater,
                         "metric": draw(st.sampled_from(["m1", "m2"])),
                         "value": None if isinstance(value, float) else value})
    if draw(st.integers(0, 4)) == 0 and rows:
        rows.append(dict(rows[0]))
    options = draw(st.sampled_from([{}, {"missing": ["-1"]}, {"on_duplicate": "first"},
                                    {"on_duplicate": "mean"}]))
    return rows, options


CALLS: dict[str, Callable[..., Any]] = {
    "coefficients": lambda t, o: ag.coefficients(t, metric="metric", **o),
    "irr": lambda t, o: ag.irr(t, item="item", rater="rater", metric="metric", value="value", **o),
    "alpha_nominal": lambda t, o: ag.krippendorff_alpha(t, metric="metric", level="nominal", **o),
    "alpha_labels": lambda t, o: ag.krippendorff_alpha(t, metric="metric", level="ordinal",
                                                       categories=["1", "2", "3"], labels=True, **o),
    "cohen_ci": lambda t, o: ag.cohen_kappa(t, metric="metric", ci=0.95, ci_method="analytic", **o),
    "bootstrap": lambda t, o: ag.fleiss_kappa(t, metric="metric", ci=0.9, ci_method="bootstrap",
                                              n_boot=20, **o),
}


def answer(call: Callable[..., Any], table: pa.Table,
           options: dict[str, Any]) -> tuple[str, list[dict[str, str]]]:
    with routes.collecting() as log:
        try:
            result: Any = call(table, options)
        except Exception as exc:                    # a typed error is an answer too
            result = (type(exc).__name__, str(exc))
    return json.dumps(without_route(result), sort_keys=True, default=str), list(log)


def test_the_listed_raters_are_the_ones_with_a_rating():
    # the profile's list (sql/ratings_profile.sql.j2, part "raters"): every rater named, and
    # those with a usable rating; "c" gave only missing values (NULL, blank, a placeholder)
    table = pa.Table.from_pylist([
        {"item": "1", "rater": "a", "value": "2"}, {"item": "1", "rater": "c", "value": None},
        {"item": "2", "rater": "b", "value": "1"}, {"item": "2", "rater": "c", "value": " "},
        {"item": "2", "rater": "a", "value": "1"}, {"item": "3", "rater": "c", "value": "-1"},
    ])
    with routes.collecting() as log:
        result = ag.fleiss_kappa(table, missing=["-1"])
    assert log[0]["rater_list"] == "listed"
    assert result["n_raters"] == 2
    from agreement_sql.profile import read_profile
    from agreement_sql.session import ratings_session

    with ratings_session(table, item="item", rater="rater", value="value",
                         missing=["-1"]) as spec:
        profile = read_profile(spec)
    assert profile.raters == ("a", "b", "c") and profile.rated == ("a", "b")


@settings(max_examples=examples(20), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_raters_from_the_profiles_list_give_the_distincts_answers(drawn):
    rows, options = drawn
    assume(rows)
    table = pa.Table.from_pylist(rows)
    for name, call in CALLS.items():
        listed, log = answer(call, table, options)
        with routes.forcing(rater_list="scan"):
            scanned, scan_log = answer(call, table, options)
        if any(e.get("rater_list") == "listed" for e in log):
            assert any(e.get("rater_list") == "scan" for e in scan_log), (name, scan_log)
        assert listed == scanned, f"{name} {options}: listed\n{listed[:800]}\nscan\n{scanned[:800]}"


def test_render_explains_the_list_a_call_takes_and_a_rendering_lacks():
    # a rendering made ahead of the data has no profile: it scans; a call on a source (the
    # Krippendorff 2011 table, 4 raters) binds the profile's list
    from conftest import REFERENCE

    ahead = ag.render("coefficients", explain=True)
    assert "rater_list = scan" in ahead and "rater_list = listed" not in ahead
    on_source = ag.render("coefficients", explain=True,
                          source=str(REFERENCE / "krippendorff2011_4x12.csv"))
    assert "rater_list = listed" in on_source
    assert "listed_rater_0" not in ag.render("coefficients")
