"""Incremental batches (issue #28 point 6; docs/batches.md, docs/decisions/0029).

A real dataset is split into 7 "daily" batches (its rows shuffled, so most units span several
days); each day is summarized into a state, the 7 states are merged, and every coefficient
computed from the merged state must equal the one computed on all the ratings at once: the
expected values are the package's own answers on the whole file (the oracle here is the
one-pass computation, whose values the peer and published-value suites pin down), integers
and text exactly, floats within 1e-12.

Data: tests/batches/data/newsroom2018_humaneval.csv (Grusky et al., NAACL 2018, human
evaluation of summaries: 420 items, raters r1..r3, 4 Likert metrics 1..5) and
tests/batches/data/qags2020_xsum.csv (Wang, Cho & Lewis, ACL 2020: 239 items, 84 crowd
raters, yes/no), copied from the project's shared real-data folder.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import agreement_sql as ag
from coefficients._forms import close
from conftest import without_route

HERE = Path(__file__).resolve().parent
NEWSROOM = HERE / "data" / "newsroom2018_humaneval.csv"
QAGS = HERE / "data" / "qags2020_xsum.csv"
DAYS = 7
RATER_FREE = ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
              "krippendorff_alpha"]


def _read(path: Path) -> pa.Table:
    options = pacsv.ConvertOptions(column_types={"item": pa.string(), "rater": pa.string(),
                                                 "value": pa.string()})
    return pacsv.read_csv(path, convert_options=options)


def _with_gaps(table: pa.Table) -> pa.Table:
    """The newsroom ratings with a site column (a group_by slice), some values missing (NULL)
    and some the placeholder -1, each chosen by a fixed rule (every 13th and 17th row)."""
    values = table.column("value").to_pylist()
    values = [None if i % 13 == 5 else "-1" if i % 17 == 3 else v for i, v in enumerate(values)]
    sites = [str(int(item) % 2) for item in table.column("item").to_pylist()]
    return (table.set_column(table.schema.get_field_index("value"), "value", pa.array(values))
            .append_column("site", pa.array(sites)))


def _days(table: pa.Table, folder: Path, days: int = DAYS, seed: int = 28) -> list[Path]:
    """The rows shuffled and cut into ``days`` Parquet files (a unit's ratings land on
    several days)."""
    order = list(range(table.num_rows))
    random.Random(seed).shuffle(order)
    paths = []
    for day in range(days):
        rows = order[day::days]
        path = folder / f"day{day}.parquet"
        pq.write_table(table.take(pa.array(rows)), path)
        paths.append(path)
    return paths


def _spanning(paths: list[Path]) -> int:
    """Units (metric, item) rated on more than one day."""
    days: dict[tuple[Any, ...], set[int]] = {}
    for day, path in enumerate(paths):
        t = pq.read_table(path)
        metrics = t.column("metric").to_pylist() if "metric" in t.column_names else [None] * t.num_rows
        for m, item in zip(metrics, t.column("item").to_pylist()):
            days.setdefault((m, item), set()).add(day)
    return sum(1 for d in days.values() if len(d) > 1)


def _states(paths: list[Path], folder: Path, **options: Any) -> list[Path]:
    out = []
    for path in paths:
        state = folder / f"state_{path.stem}.parquet"
        ag.summarize(str(path), to=str(state), **options)
        out.append(state)
    return out


def _strip(result: Any, drop: tuple[str, ...] = ()) -> Any:
    """A result without its route and the state's own convention (the only differences a
    state may make), and without the fields in ``drop``."""
    if isinstance(result, dict):
        out = {}
        for key, value in result.items():
            if key == "route" or key in drop:
                continue
            if key == "conventions":
                value = {k: v for k, v in value.items() if k != "state"}
                if not value:
                    continue
            out[key] = _strip(value, drop)
        return out
    if isinstance(result, list):
        return [_strip(v, drop) for v in result]
    return result


NEWSROOM_OPTIONS = {"metric": "metric", "group_by": "site", "missing": [-1]}


@pytest.fixture(scope="module")
def newsroom_days(tmp_path_factory: Any) -> tuple[pa.Table, list[Path], Path]:
    folder = tmp_path_factory.mktemp("newsroom")
    table = _with_gaps(_read(NEWSROOM))
    return table, _days(table, folder), folder


@pytest.mark.slow
def test_seven_days_with_raters_give_every_coefficient_of_all_ratings(newsroom_days):
    table, paths, folder = newsroom_days
    assert _spanning(paths) > 1000          # most (metric, item) units span several days
    states = _states(paths, folder / "..", with_raters=True, **NEWSROOM_OPTIONS)
    merged = folder / "merged_raters.parquet"
    summary = ag.merge_states([str(s) for s in states], to=str(merged))
    # nothing leaves uncounted: the merged state carries every row, missing ones included
    assert summary["n_rows"] == table.num_rows == 5040
    assert summary["section"] == "unit_ratings" and summary["state_version"] == 1
    assert summary["n_excluded"]["missing"] > 0 and summary["n_excluded"]["placeholder"] > 0
    expected = ag.coefficients(table, **NEWSROOM_OPTIONS)
    got = ag.coefficients(str(merged))
    # every coefficient coefficients() returns on all ratings, Cohen/Light, Conger and the
    # ICC included
    names = set(expected[0]["coefficients"])
    assert {"light_kappa", "conger_kappa", "icc", "fleiss_kappa", "krippendorff_alpha"} <= names
    close(_strip(got), _strip(expected))
    assert got[0]["coefficients"]["fleiss_kappa"]["conventions"]["state"].startswith(
        "computed from a batch state's ratings")


@pytest.mark.slow
def test_seven_days_of_counts_give_every_rater_free_coefficient(newsroom_days):
    table, paths, folder = newsroom_days
    states = _states(paths, folder, **NEWSROOM_OPTIONS)
    merged = folder / "merged_counts.parquet"
    summary = ag.merge_states([str(s) for s in states], to=str(merged))
    assert summary["section"] == "unit_values"
    # sufficient statistics: smaller than the ratings (a row per unit and value)
    assert summary["n_state_rows"] < table.num_rows
    assert summary["n_rows"] == table.num_rows
    for options in ({}, {"level": "ordinal"}, {"level": "interval"}, {"weights": "quadratic"},
                    {"categories": [1, 2, 3, 4, 5]},
                    {"weights": "linear", "categories": [1, 2, 3, 4, 5]}):
        which = ([n for n in RATER_FREE if n != "krippendorff_alpha"]
                 if "weights" in options else RATER_FREE)
        expected = ag.coefficients(table, which=which, **NEWSROOM_OPTIONS, **options)
        got = ag.coefficients(str(merged), which=which, **options)
        # raters are anonymous in unit_values: n_raters is the most ratings of a unit
        # (the convention says so); every other field as on the ratings
        close(_strip(got, ("n_raters",)), _strip(expected, ("n_raters",)), str(options))
    # by default a unit_values state gives every rater-free coefficient (as layout='counts')
    default = ag.coefficients(str(merged))
    assert set(default[0]["coefficients"]) == set(RATER_FREE)
    assert "most ratings a unit has" in default[0]["coefficients"]["fleiss_kappa"]["conventions"]["state"]
    # read at its own size: each state row once with its count (no rating rebuilt)
    route = default[0]["coefficients"]["fleiss_kappa"]["route"]
    assert {"statement": "state_ratings", "state_rows": "counts"} in route


@pytest.mark.slow
def test_intervals_from_a_state_of_counts(newsroom_days):
    # analytic intervals from the counts; the bootstrap (alpha's default) resamples the units
    # of the state expanded into ratings (route state_rows=ratings), the same replicates
    table, paths, folder = newsroom_days
    (folder / "ci").mkdir()
    merged = folder / "merged_for_ci.parquet"
    ag.merge_states([str(s) for s in _states(paths, folder / "ci", **NEWSROOM_OPTIONS)],
                    to=str(merged))
    for which, more in ((["fleiss_kappa", "gwet_ac1"], {}),
                        (["krippendorff_alpha"], {"n_boot": 50})):
        got = ag.coefficients(str(merged), which=which, ci=0.95, **more)
        expected = ag.coefficients(table, which=which, ci=0.95, **more, **NEWSROOM_OPTIONS)
        close(_strip(got, ("n_raters",)), _strip(expected, ("n_raters",)), str(which))
        taken = {e.get("state_rows") for e in got[0]["coefficients"][which[0]]["route"]}
        assert taken == {None, "ratings"}


def test_the_single_functions_read_a_state_too(newsroom_days):
    table, paths, folder = newsroom_days
    states = _states(paths[:3], folder, **NEWSROOM_OPTIONS)
    merged = folder / "three_days.parquet"
    ag.merge_states([str(s) for s in states], to=str(merged))
    three = pa.concat_tables([pq.read_table(p) for p in paths[:3]])
    close(_strip(ag.krippendorff_alpha(str(merged), level="interval"), ("n_raters",)),
          _strip(ag.krippendorff_alpha(three, level="interval", **NEWSROOM_OPTIONS), ("n_raters",)))


@pytest.mark.slow
def test_many_raters_and_labels_unit_values(tmp_path):
    # qags xsum: 84 crowd raters, labels yes/no; the units' raters differ from unit to unit
    table = _read(QAGS)
    paths = _days(table, tmp_path)
    assert _spanning(paths) > 100
    states = _states(paths, tmp_path)
    merged = tmp_path / "merged.parquet"
    ag.merge_states([str(s) for s in states], to=str(merged))
    expected = ag.coefficients(table, which=RATER_FREE)
    got = ag.coefficients(str(merged), which=RATER_FREE)
    close(_strip(got, ("n_raters",)), _strip(expected, ("n_raters",)))
    raters_states = _states(paths, tmp_path, with_raters=True)
    merged_raters = tmp_path / "merged_raters.parquet"
    ag.merge_states([str(s) for s in raters_states], to=str(merged_raters))
    close(_strip(ag.coefficients(str(merged_raters))), _strip(ag.coefficients(table)))


@pytest.mark.slow
def test_merging_is_associative_and_order_free(newsroom_days, tmp_path):
    _, paths, _ = newsroom_days
    states = [str(s) for s in _states(paths, tmp_path, with_raters=True, **NEWSROOM_OPTIONS)]
    at_once = tmp_path / "at_once.parquet"
    ag.merge_states(states, to=str(at_once))
    first = tmp_path / "first.parquet"
    ag.merge_states(states[4:][::-1], to=str(first))
    second = tmp_path / "second.parquet"
    ag.merge_states([states[2], str(first), states[0], states[3], states[1]], to=str(second))
    # the same file, byte for byte (the rows ordered by their keys), and the same answers
    assert at_once.read_bytes() == second.read_bytes()
    one = json.dumps(without_route(ag.coefficients(str(at_once))), sort_keys=True)
    other = json.dumps(without_route(ag.coefficients(str(second))), sort_keys=True)
    assert one == other


def test_a_rater_rating_a_unit_in_two_batches_is_refused(tmp_path):
    day1 = pa.table({"item": ["u1", "u1", "u2"], "rater": ["ann", "bob", "ann"],
                     "value": ["1", "2", "1"]})
    day2 = pa.table({"item": ["u1", "u2"], "rater": ["ann", "bob"], "value": ["2", "1"]})
    ag.summarize(day1, to=str(tmp_path / "s1.parquet"), with_raters=True)
    ag.summarize(day2, to=str(tmp_path / "s2.parquet"), with_raters=True)
    with pytest.raises(ag.DuplicateRatingError, match=r"item='u1', rater='ann'\) rated 2 times"):
        ag.merge_states([str(tmp_path / "s1.parquet"), str(tmp_path / "s2.parquet")],
                        to=str(tmp_path / "merged.parquet"))
    assert not (tmp_path / "merged.parquet").exists()
    # as on all the ratings at once
    with pytest.raises(ag.DuplicateRatingError):
        ag.fleiss_kappa(pa.concat_tables([day1, day2]))
    # and within one batch, summarize refuses it
    with pytest.raises(ag.DuplicateRatingError, match="rated 2 times"):
        ag.summarize(pa.concat_tables([day1, day2]), to=str(tmp_path / "s3.parquet"))
    assert not (tmp_path / "s3.parquet").exists()


def test_another_state_version_is_refused(tmp_path):
    state = tmp_path / "state.parquet"
    ag.summarize(pa.table({"item": ["1", "1"], "rater": ["a", "b"], "value": ["x", "y"]}),
                 to=str(state))
    future = tmp_path / "future.parquet"
    con = duckdb.connect()
    con.execute(f"COPY (SELECT * REPLACE (2 AS state_version) FROM read_parquet('{state}')) "
                f"TO '{future}' (FORMAT parquet)")
    with pytest.raises(ag.SourceError, match="version 2"):
        ag.merge_states([str(state), str(future)], to=str(tmp_path / "m.parquet"))
    with pytest.raises(ag.SourceError, match="version 2"):
        ag.fleiss_kappa(str(future))


def test_states_summarized_differently_are_not_merged(newsroom_days, tmp_path):
    _, paths, _ = newsroom_days
    a = tmp_path / "a.parquet"
    b = tmp_path / "b.parquet"
    ag.summarize(str(paths[0]), to=str(a), **NEWSROOM_OPTIONS)
    ag.summarize(str(paths[1]), to=str(b), with_raters=True, **NEWSROOM_OPTIONS)
    with pytest.raises(ag.SourceError, match="section unit_ratings"):
        ag.merge_states([str(a), str(b)], to=str(tmp_path / "m.parquet"))
    c = tmp_path / "c.parquet"
    ag.summarize(str(paths[1]), to=str(c), metric="metric")
    with pytest.raises(ag.SourceError, match="summarized alike"):
        ag.merge_states([str(a), str(c)], to=str(tmp_path / "m.parquet"))


def test_a_rater_identified_coefficient_needs_the_unit_ratings_section(tmp_path):
    state = tmp_path / "state.parquet"
    ag.summarize(pa.table({"item": ["1", "1", "2", "2"], "rater": ["a", "b", "a", "b"],
                           "value": ["x", "y", "x", "x"]}), to=str(state))
    for call in (lambda: ag.cohen_kappa(str(state)), lambda: ag.conger_kappa(str(state)),
                 lambda: ag.coefficients(str(state), which=["cohen_kappa"]),
                 lambda: ag.icc(str(state))):
        with pytest.raises(ag.OptionError, match="unit_ratings"):
            call()


def test_an_oriented_weight_matrix_needs_the_raters(tmp_path):
    state = tmp_path / "state.parquet"
    ag.summarize(pa.table({"item": ["1", "1", "2", "2"], "rater": ["a", "b", "a", "b"],
                           "value": ["x", "y", "x", "x"]}), to=str(state))
    matrix = {"x": {"x": 1, "y": 0.5}, "y": {"x": 0, "y": 1}}
    with pytest.raises(ag.OptionError, match="with_raters=True"):
        ag.gwet_ac1(str(state), weights=matrix, asymmetric_weights="oriented")


def test_a_state_fixes_its_keys(tmp_path):
    state = tmp_path / "state.parquet"
    ag.summarize(pa.table({"item": ["1", "1"], "rater": ["a", "b"], "value": ["x", "y"]}),
                 to=str(state))
    with pytest.raises(ag.OptionError, match="metric= does not apply to a batch state"):
        ag.fleiss_kappa(str(state), metric="metric")
    with pytest.raises(ag.OptionError, match="missing= does not apply"):
        ag.fleiss_kappa(str(state), missing=[-1])
    with pytest.raises(ag.OptionError, match="summarize\\(\\) reads ratings"):
        ag.summarize(str(state), to=str(tmp_path / "again.parquet"))


def test_where_a_state_may_be_written(tmp_path):
    ratings = pa.table({"item": ["1", "1"], "rater": ["a", "b"], "value": ["x", "y"]})
    with pytest.raises(ag.OptionError, match="to="):
        ag.summarize(ratings, to=str(tmp_path / "state.csv"))
    state = tmp_path / "state.parquet"
    ag.summarize(ratings, to=str(state))
    # never onto an input: the nightly job writes the new running state beside the old one
    with pytest.raises(ag.OptionError, match="input"):
        ag.merge_states([str(state)], to=str(state))
    with pytest.raises(ag.SourceError, match="not a batch state"):
        csv = tmp_path / "ratings.csv"
        pacsv.write_csv(ratings, csv)
        ag.merge_states([str(csv)], to=str(tmp_path / "m.parquet"))
    # a table on the caller's connection, read back as a source there
    con = duckdb.connect()
    summary = ag.summarize(ratings, to=("table", "day_state"), con=con)
    assert summary["to"] == "day_state"
    assert con.execute("SELECT SUM(n) FROM day_state").fetchall() == [(2,)]
    with pytest.raises(ag.OptionError, match="exists"):
        ag.summarize(ratings, to=("table", "day_state"), con=con)
    close(_strip(ag.percent_agreement("day_state", con=con)),
          _strip(ag.percent_agreement(ratings)))


def test_a_glob_of_states_is_one_source(newsroom_days, tmp_path):
    _, paths, _ = newsroom_days
    folder = tmp_path / "states"
    folder.mkdir()
    _states(paths, folder, **NEWSROOM_OPTIONS)
    merged = tmp_path / "merged.parquet"
    summary = ag.merge_states(str(folder / "*.parquet"), to=str(merged))
    assert summary["n_states"] == 1 and summary["n_rows"] == 5040
    # a folder of states read as one source is already their sum
    close(_strip(ag.fleiss_kappa(str(merged))), _strip(ag.fleiss_kappa(str(folder / "*.parquet"))))
