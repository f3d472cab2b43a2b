"""The workshop IRR report (sql/irr_report.sql.j2) in every form the route can choose, and the
window form of pairwise % and A^HH for continuous scores, against each other and an oracle.

irr() reads its ratings in one of two forms (docs/decisions/0003): wide (a count column per
rating value, at most 16 distinct values; pairs and A^HH from unit patterns) and counts (a
counts table; pairs and A^HH from windows over each trace's sorted ratings, the form continuous
scores take), with rater bits when the raters are at most 496 (else the duplicate check and the
rater counts take their separate routes). The routes are forced here (agreement_sql.routes
forcing: units "counts", rater_bits "none"); every report, error dict and typed
error must be the same.
"""
from __future__ import annotations

import itertools
import json
import random

import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql import routes as routing
from agreement_sql.errors import DuplicateRatingError, InvalidRatingError
from conftest import DATA, LONG, without_route


def _table(seed: int, *, items: int = 60, raters: int = 7, values=(1, 2, 3, 4, 5),
           missing: float = 0.3, metrics: int = 3, binary_first: bool = True) -> pa.Table:
    """Long workshop ratings; question q0 binary (when binary_first), missing ratings dropped."""
    rng = random.Random(seed)
    rows = []
    for m in range(metrics):
        scale = (0, 1) if (m == 0 and binary_first) else values
        for i in range(items):
            truth = rng.choice(scale)
            for r in range(raters):
                if rng.random() < missing:
                    continue
                rows.append({"trace_id": f"t{i:03d}", "user_id": f"u{r:02d}",
                             "question_id": f"q{m}",
                             "rating": truth if rng.random() < 0.5 else rng.choice(scale)})
    return pa.Table.from_pylist(rows)


def _routes(monkeypatch, call):
    """The call's outcome in the wide form, the counts form and without rater bits."""
    def outcome():
        try:
            return call()
        except Exception as exc:        # the typed errors must match too
            return (type(exc).__name__, str(exc))
    out = {"one_pass": outcome()}
    for name, forced in (("counts", {"units": "counts"}), ("no_bits", {"rater_bits": "none"})):
        with routing.forcing(**forced):
            out[name] = outcome()
    return out


def _same(routes):
    first = json.dumps(without_route(routes["one_pass"]), sort_keys=True, default=str)
    for name in ("counts", "no_bits"):
        assert json.dumps(without_route(routes[name]), sort_keys=True, default=str) == first, name


def _executed(monkeypatch, call) -> list[str]:
    """The templates a call runs over its ratings, in order (sql/lookup_rows.sql.j2, a few
    bound rows of declared or detected scales that reads nothing, is left out)."""
    from agreement_sql import runner
    seen = []
    original = runner.render

    def recording(template, options, **kw):
        if template != "lookup_rows":
            seen.append(template)
        return original(template, options, **kw)
    monkeypatch.setattr(runner, "render", recording)
    call()
    return seen


# --- the three routes give the same report -----------------------------------------------------

@pytest.mark.parametrize("name", ["workshop_annotations.jsonl", "workshop_annotations.csv"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_bundled_examples_same_report_on_every_route(monkeypatch, name):
    kw = {} if name.endswith(".jsonl") else LONG
    routes = _routes(monkeypatch, lambda: ag.irr(DATA / name, **kw))
    _same(routes)
    assert routes["one_pass"]["score"] == 73.7


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_random_ratings_with_gaps_same_report_on_every_route(monkeypatch, seed):
    table = _table(seed, missing=0.2 + 0.1 * seed)
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG, max_patterns=3))
    _same(routes)
    report = routes["one_pass"]
    assert report["missing_data"] is True and report["trace_disagreements"]


def test_many_raters_several_bit_blocks_same_report(monkeypatch):
    # 90 raters: three blocks of 40 rater bits; annotations are (trace, rater) pairs over questions
    table = _table(6, items=25, raters=90, missing=0.6)
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG, max_traces=None))
    _same(routes)
    rows = table.to_pylist()
    assert routes["one_pass"]["num_annotations"] == len({(r["trace_id"], r["user_id"]) for r in rows})


def test_declared_scales_and_zero_to_five_ratings_same_report(monkeypatch):
    table = _table(9, values=(0, 1, 2, 3, 4, 5))
    routes = _routes(monkeypatch, lambda: ag.irr(
        table, **LONG, scales={"q1": (0, 5), "q2": "0..7", "q0": "binary"}))
    _same(routes)
    assert routes["one_pass"]["per_metric_scores"]["q2"]["scale"]["max"] == 7.0


@pytest.mark.parametrize("policy", ["first", "last", "mean"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_duplicate_policies_same_report(monkeypatch, policy):
    rows = _table(5, metrics=2).to_pylist()
    rows += [{**r, "rating": 5 - r["rating"] if r["question_id"] != "q0" else 1 - r["rating"]}
             for r in rows[::7]]
    table = pa.Table.from_pylist(rows)
    _same(_routes(monkeypatch, lambda: ag.irr(table, **LONG, on_duplicate=policy)))


def test_integer_trace_ids_keep_their_type_on_every_route(monkeypatch):
    table = pa.table({"item": [10**18, 10**18, 2, 2, 3, 3], "rater": ["a", "b"] * 3,
                      "value": [1, 5, 3, 3, 2, 4]})
    routes = _routes(monkeypatch, lambda: ag.irr(table))
    _same(routes)
    assert routes["one_pass"]["trace_disagreements"][0]["trace_id"] == str(10**18)


# --- validation and errors: the same dict or the same typed error ------------------------------

@pytest.mark.parametrize("traces", [
    {"t1": {"q": [3, 7]}, "t2": {"q": [1, 2]}},                       # outside 0..5
    {"t1": {"q": [3]}, "t2": {"q": [4]}},                             # one rater
    {"t1": {"q": [3, 4]}, "t2": {"q": [4, None]}},                    # one trace rated twice
])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_seed_validation_same_error_dict(monkeypatch, traces):
    from conftest import long_table
    table = long_table(traces)
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG))
    _same(routes)
    assert "error" in routes["one_pass"]


def test_declared_scale_violation_same_typed_error(monkeypatch):
    table = _table(9, values=(0, 1, 2, 3, 4, 5))
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG, scales={"q2": "1..7"}))
    _same(routes)
    assert routes["one_pass"][0] == InvalidRatingError.__name__


def test_duplicate_and_text_ratings_same_typed_errors(monkeypatch):
    rows = _table(2, metrics=1).to_pylist()
    dup = pa.Table.from_pylist(rows + [rows[3]])
    routes = _routes(monkeypatch, lambda: ag.irr(dup, **LONG))
    _same(routes)
    assert routes["one_pass"][0] == DuplicateRatingError.__name__
    text = pa.Table.from_pylist([{**r, "rating": str(r["rating"])} for r in rows]
                                + [{**rows[0], "user_id": "zz", "rating": "n/a"}])
    routes = _routes(monkeypatch, lambda: ag.irr(text, **LONG))
    _same(routes)
    assert routes["one_pass"][0] == InvalidRatingError.__name__ and "'n/a'" in routes["one_pass"][1]


# --- what runs -----------------------------------------------------------------------------------

def test_the_report_is_a_profile_and_one_statement(monkeypatch, tmp_path):
    # a Parquet source is read where it lies: the ratings profile, then one statement (whole
    # ratings on 1..5: the categories are read off the profile, no listing query)
    path = tmp_path / "ratings.parquet"
    import pyarrow.parquet as pq
    pq.write_table(_table(3), path)
    assert _executed(monkeypatch, lambda: ag.irr(path, **LONG)) == ["ratings_profile", "irr_report"]


def test_continuous_scores_take_the_counts_form(monkeypatch):
    table = _continuous(4, metrics=1)
    ran = _executed(monkeypatch, lambda: ag.irr(table, **LONG, scales={"q0": (0, 5)}))
    assert ran == ["ratings_profile", "ratings_categories", "irr_report"]
    assert ag.irr(table, **LONG, scales={"q0": (0, 5)})["route"][0]["units"] == "counts"


def test_report_leaves_the_connection_as_found(tmp_path):
    con = ag.connect()
    before = set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall())
    ag.irr(_table(1), **LONG, con=con)
    assert set(con.execute("SELECT table_name FROM duckdb_tables()").fetchall()) == before


# --- the window form for continuous scores -------------------------------------------------------

def _continuous(seed: int, *, items: int = 40, raters: int = 9, metrics: int = 2,
                missing: float = 0.3, ties: float = 0.2, grid: float | None = None) -> pa.Table:
    """Scores on 0..5: random reals (or a decimal grid), some ties copied from another rater."""
    rng = random.Random(seed)
    rows = []
    for m in range(metrics):
        for i in range(items):
            given = []
            for r in range(raters):
                if rng.random() < missing:
                    continue
                if given and rng.random() < ties:
                    x = rng.choice(given)
                else:
                    x = rng.uniform(0, 5) if grid is None else round(rng.randrange(0, 51) * grid, 1)
                given.append(x)
                rows.append({"trace_id": f"t{i:03d}", "user_id": f"u{r}", "question_id": f"q{m}",
                             "rating": x})
    return pa.Table.from_pylist(rows)


def _oracle(table: pa.Table, tolerance: float, lo: float, hi: float):
    """Pairs counted one by one: exact, adjacent (b <= a + t for a <= b) and A^HH per question."""
    by_unit: dict = {}
    for r in table.to_pylist():
        by_unit.setdefault((r["question_id"], r["trace_id"]), []).append(r["rating"])
    out: dict = {}
    for (q, _), xs in sorted(by_unit.items()):
        o = out.setdefault(q, {"pairs": 0, "exact": 0, "adjacent": 0, "a": []})
        pairs = list(itertools.combinations(sorted(xs), 2))
        o["pairs"] += len(pairs)
        o["exact"] += sum(a == b for a, b in pairs)
        o["adjacent"] += sum(b <= a + tolerance for a, b in pairs)
        if pairs:
            h = lambda x: min(max((x - lo) / (hi - lo), 0.0), 1.0)      # noqa: E731
            o["a"].append(1 - sum(abs(h(a) - h(b)) for a, b in pairs) / len(pairs))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("grid", [None, 0.1])
def test_window_form_equals_pair_oracle(seed, grid):
    # random reals, ties copied between raters, missing ratings; on the 0.1 grid many pairs lie
    # exactly one apart in decimal (7.3 and 8.3) where b - a rounds above 1. Continuous scores
    # take the counts form (more than 16 values), whose pairs come from windows.
    table = _continuous(seed, grid=grid)
    scales = {"q0": (0, 5)}          # q1 is Likert 1..5 by default: ratings below 1 clamp to 0
    window_pw = ag.pairwise_agreement(table, **LONG, scales=scales)
    window_ahh = ag.human_agreement(table, **LONG, scales=scales)
    for q, (lo, hi) in {"q0": (0.0, 5.0), "q1": (1.0, 5.0)}.items():
        expected = _oracle(table, 1.0, lo, hi)[q]
        got = window_pw[q]
        assert (got["n_pairs"], got["exact_pairs"], got["adjacent_pairs"]) == (
            expected["pairs"], expected["exact"], expected["adjacent"])
        assert window_ahh[q]["n_samples"] == len(expected["a"])
        mean_a = sum(expected["a"]) / len(expected["a"])
        assert window_ahh[q]["human_agreement"] == pytest.approx(mean_a, abs=1e-12)


def test_window_form_equals_pattern_form_on_few_values(monkeypatch):
    # the same pairs from unit patterns (wide form, 11 values on the 0.5 grid) and from windows
    table = _continuous(4)
    table = table.set_column(3, "rating", pa.array([round(x * 2) / 2 for x in
                                                   table.column("rating").to_pylist()]))
    scales = {"q0": (0, 5), "q1": (0, 5)}
    wide = (ag.pairwise_agreement(table, **LONG, scales=scales),
            ag.human_agreement(table, **LONG, scales=scales))
    with routing.forcing(units="counts"):
        counts = (ag.pairwise_agreement(table, **LONG, scales=scales),
                  ag.human_agreement(table, **LONG, scales=scales))
    assert json.dumps(without_route(wide), sort_keys=True) == json.dumps(without_route(counts), sort_keys=True)
    expected = _oracle(table, 1.0, 0.0, 5.0)["q0"]
    assert wide[0]["q0"]["adjacent_pairs"] == expected["adjacent"]


def test_window_form_many_raters_and_tolerances():
    # 40 raters per trace (780 pairs a trace), tolerance 0 and 2.5
    table = _continuous(8, items=12, raters=40, metrics=1, missing=0.1, ties=0.3, grid=0.1)
    for tolerance in (0.0, 2.5):
        window = ag.pairwise_agreement(table, **LONG, tolerance=tolerance)["q0"]
        expected = _oracle(table, tolerance, 1.0, 5.0)["q0"]
        assert (window["n_pairs"], window["exact_pairs"], window["adjacent_pairs"]) == (
            expected["pairs"], expected["exact"], expected["adjacent"])


def test_window_form_single_ratings_and_no_pairs():
    # traces rated once drop out; a question with no trace rated twice has None
    rows = [{"trace_id": f"t{i}", "user_id": "u1", "question_id": "q", "rating": i / 7}
            for i in range(30)]
    table = pa.Table.from_pylist(rows)
    got = ag.pairwise_agreement(table, **LONG)["q"]
    assert (got["n_pairs"], got["exact_agreement"]) == (0, None)
    ahh = ag.human_agreement(table, **LONG)["q"]
    assert (ahh["human_agreement"], ahh["n_samples"]) == (None, 0)


def test_continuous_irr_same_report_with_and_without_rater_bits(monkeypatch):
    table = _continuous(5, grid=0.1)
    scales = {"q0": (0, 5), "q1": (0, 5)}
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG, scales=scales, max_traces=None))
    _same(routes)


def test_negative_tolerance_is_refused():
    with pytest.raises(ag.OptionError, match="tolerance"):
        ag.pairwise_agreement(_continuous(1), **LONG, tolerance=-1)


def test_decimal_ratings_a_tolerance_apart_are_adjacent(monkeypatch):
    # 8.3 - 7.3 rounds to 1.0000000000000009 in binary; the rule is b <= a + t, in every form
    from conftest import long_table
    table = long_table({"t1": {"q": [2.3, 3.3]}, "t2": {"q": [0.1, 1.1]}, "t3": {"q": [1.2, 2.3]}})
    assert ag.pairwise_agreement(table, **LONG)["q"]["adjacent_pairs"] == 2
    with routing.forcing(units="counts"):
        assert ag.pairwise_agreement(table, **LONG)["q"]["adjacent_pairs"] == 2
    routes = _routes(monkeypatch, lambda: ag.irr(table, **LONG))
    _same(routes)
    assert routes["one_pass"]["per_metric_scores"]["q"]["adjacent_agreement"] == 66.7


def test_a_rater_without_a_rating_is_not_counted_on_any_route(monkeypatch):
    # the profile names every rater on a row (u99's values are all missing); the raters the
    # report counts are those with a rating: 7 of the table's 8, on every route
    table = _table(11, raters=7)
    rows = table.to_pylist() + [{"trace_id": f"t{i:03d}", "user_id": "u99", "question_id": "q1",
                                 "rating": None} for i in range(5)]
    routes = _routes(monkeypatch, lambda: ag.irr(pa.Table.from_pylist(rows), **LONG))
    _same(routes)
    assert routes["one_pass"]["num_raters"] == 7
