"""Results as tables (agreement_sql/tables.py, docs/decisions/0024): every public call writes its
result with ``to=`` as long typed rows, one per slice and coefficient, that read back to the
result's own values; writes are atomic and never onto an input; ``("table", name)`` is the one
write to the caller's connection, and only when asked.

The expected row counts are counted from the *input* (the distinct (metric, group) slices of the
generated ratings, times the coefficients asked for), not from the result: a flattener that
dropped or duplicated a slice would fail here.
"""
from __future__ import annotations

import csv
import inspect
import json
import math
import os
from pathlib import Path
from typing import Any, Callable

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql import tables
from agreement_sql.cli import main
from agreement_sql.errors import OptionError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
TABLE = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
                  "rater": ["a", "b"] * 6,
                  "value": [1, 1, 2, 2, 3, 1, 2, 2, 3, 3, 1, 2]})
JUDGES = pa.table({"point": [f"p{k}" for k in range(6) for _ in (0, 1)],
                   "judge": ["j1", "j2"] * 6,
                   "score": [0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0]})


def _calls(folder: Path) -> dict[str, Callable[..., Any]]:
    """Every public function that returns a result, called with ``**kw`` (to=)."""
    import shutil

    sheet = folder / "sheet.csv"
    shutil.copy(DATA / "evaluation_sheet.csv", sheet)
    return {
        "human_agreement": lambda **kw: ag.human_agreement(TABLE, **kw),
        "irr": lambda **kw: ag.irr(TABLE, **kw),
        "pairwise_agreement": lambda **kw: ag.pairwise_agreement(TABLE, **kw),
        "agree": lambda **kw: ag.agree(TABLE, **kw),
        "coefficients": lambda **kw: ag.coefficients(TABLE, ci=0.95, **kw),
        **{name: (lambda name=name, **kw: getattr(ag, name)(TABLE, **kw))
           for name in ag.registry.REGISTRY},
        "calibration_sample": lambda **kw: ag.calibration_sample(
            str(sheet), output=str(folder / f"s{len(os.listdir(folder))}.csv"), **kw),
        "alt_test": lambda **kw: ag.alt_test(TABLE, judges=["b"], **kw),
        "consistency": lambda **kw: ag.consistency(str(DATA / "consistency_pairs.jsonl"), **kw),
        "evaluation_sheet": lambda **kw: ag.evaluation_sheet(str(sheet), **kw),
        "judge_agreement": lambda **kw: ag.judge_agreement(JUDGES, item="point", rater="judge",
                                                           value="score", **kw),
        "rater_diagnostics": lambda **kw: ag.rater_diagnostics(TABLE, **kw),
        "achieved_precision": lambda **kw: ag.achieved_precision(TABLE, target_width=0.2, **kw),
        "bland_altman": lambda **kw: ag.bland_altman(TABLE, **kw),
        "concordance": lambda **kw: ag.concordance(TABLE, **kw),
        "icc": lambda **kw: ag.icc(TABLE, **kw),
        "category_agreement": lambda **kw: ag.category_agreement(TABLE, **kw),
        "sample_size": lambda **kw: ag.sample_size("cohen_kappa", expected=0.8, ci_width=0.3,
                                                   n_raters=2, **kw),
    }


PUBLIC = sorted(n for n in ag.__all__ if hasattr(getattr(ag, n), "__wrapped__")
                and not inspect.isclass(getattr(ag, n)))
TEXT_ONLY = {"report"}             # returns an HTML page, not a result: to= refused
# to= is where they write a batch state, not their result's rows (tests/batches)
STATE_WRITERS = {"summarize", "merge_states"}


def test_every_public_function_is_called_here(tmp_path):
    assert set(_calls(tmp_path)) | TEXT_ONLY | STATE_WRITERS == set(PUBLIC)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


@pytest.mark.slow
@pytest.mark.parametrize("function", sorted(set(PUBLIC) - TEXT_ONLY - STATE_WRITERS))
def test_every_public_call_round_trips_through_parquet_and_csv(function, tmp_path):
    call = _calls(tmp_path)[function]
    result = call(to=tmp_path / "r.parquet")
    assert result is not None
    read = pq.read_table(tmp_path / "r.parquet").to_pylist()
    expected = tables.rows(result, function)
    assert len(read) == len(expected) >= 1
    # every row: the function, the slice, the coefficient, and the result's own values back
    for got, want in zip(read, expected):
        assert got["function"] == function
        for key, value in want.items():
            back = got[key]
            if isinstance(value, str) or value is None or isinstance(value, bool):
                assert back == value or (isinstance(back, str) and json.loads(back) == value), key
            else:
                assert _same(float(back), float(value)), (key, back, value)
    keys = [tuple(r[k] for k in r if k in tables.KEYS or k.startswith("group_")) for r in read]
    assert len(set(keys)) == len(keys), "one row per slice and coefficient"
    # the same rows as CSV (a second call: each file is the call's own)
    again = tables.arrow(tables.rows(call(to=tmp_path / "r.csv"), function)).to_pylist()
    with open(tmp_path / "r.csv", newline="", encoding="utf-8") as handle:
        csv_rows = list(csv.DictReader(handle))
    assert len(csv_rows) == len(again) == len(read)
    for got, want in zip(csv_rows, again):
        for key, value in want.items():
            if isinstance(value, float):
                assert float(got[key]) == value, key
            elif value is None:
                assert got[key] == ""
            elif isinstance(value, bool):
                assert got[key] == ("true" if value else "false")
            else:
                assert got[key] == str(value)


def test_report_refuses_to():
    with pytest.raises(OptionError, match="to= cannot apply"):
        ag.report(TABLE, to="x.parquet")


@pytest.mark.parametrize("to", ["out.json", ("table", ""), 5, ("view", "x")])
def test_a_destination_that_is_none_is_refused(to):
    with pytest.raises(OptionError, match="to="):
        ag.fleiss_kappa(TABLE, to=to)


# -- one row per slice and coefficient, counted from the input --------------------------------

ratings = st.lists(st.tuples(st.integers(0, 7), st.sampled_from("abc"), st.integers(1, 3),
                             st.sampled_from(["q1", "q2"]), st.sampled_from(["g1", "g2", "g3"])),
                   min_size=4, max_size=60, unique_by=lambda r: (r[0], r[1], r[3]))
WHICH = ["fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "percent_agreement"]


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(rows=ratings, function=st.sampled_from(["coefficients", "fleiss_kappa",
                                               "krippendorff_alpha", "pairwise_agreement", "irr"]))
def test_one_row_per_slice_and_coefficient(rows, function, tmp_path):
    # item 'g' depends on the group so a unit lies in one slice (group_by slices units)
    table = pa.table({"item": [f"{r[4]}-{r[0]}" for r in rows], "rater": [r[1] for r in rows],
                      "value": [r[2] for r in rows], "question": [r[3] for r in rows],
                      "day": [r[4] for r in rows]})
    slices = {(r[3], r[4]) for r in rows}
    metrics = {r[3] for r in rows}
    target = tmp_path / f"{function}.parquet"
    if target.exists():
        target.unlink()
    if function == "coefficients":
        result = ag.coefficients(table, which=WHICH, metric="question", group_by="day", to=target)
        expected = len(slices) * len(WHICH)
    elif function in ("pairwise_agreement", "irr"):
        result = getattr(ag, function)(table, metric="question", to=target)
        expected = len(metrics) + (1 if function == "irr" else 0)
        if function == "irr" and "error" in result:     # the seed's refusal: one row saying so
            expected = 1
    else:
        result = getattr(ag, function)(table, metric="question", group_by="day", to=target)
        expected = len(slices)
    read = pq.read_table(target).to_pylist()
    assert len(read) == expected
    keys = {(r["metric"], r.get("group_day"), r["coefficient"]) for r in read}
    assert len(keys) == expected
    if function == "coefficients":
        assert keys == {(m, d, c) for m, d in slices for c in WHICH}
        by_key = {(s["metric"], s["group"]["day"]): s["coefficients"] for s in result}
        for r in read:
            want = by_key[(r["metric"], r["group_day"])][r["coefficient"]]["value"]
            assert r["value"] == want or (r["value"] is None and want is None)
    elif function in ("fleiss_kappa", "krippendorff_alpha"):
        assert {(m, d) for m, d, _ in keys} == slices
        for r in read:
            [want] = [s for s in result if s["metric"] == r["metric"]
                      and s["group"]["day"] == r["group_day"]]
            assert r["value"] == want["value"]


# -- atomic, never onto an input ---------------------------------------------------------------

def test_a_failing_write_leaves_no_file_and_the_old_one_intact(tmp_path, monkeypatch):
    target = tmp_path / "out.parquet"

    def broken(table, where, **_):
        with open(where, "wb") as handle:
            handle.write(b"PAR1 partial")
        raise OSError("disk full")

    monkeypatch.setattr(pq, "write_table", broken)
    with pytest.raises(OSError, match="disk full"):
        ag.fleiss_kappa(TABLE, to=target)
    assert os.listdir(tmp_path) == []                 # neither the file nor a temporary one
    target.write_bytes(b"earlier")
    with pytest.raises(OSError, match="disk full"):
        ag.fleiss_kappa(TABLE, to=target)
    assert os.listdir(tmp_path) == ["out.parquet"] and target.read_bytes() == b"earlier"


def test_a_csv_write_is_atomic_too(tmp_path, monkeypatch):
    target = tmp_path / "out.csv"
    monkeypatch.setattr(tables, "csv_text", lambda rows: (_ for _ in ()).throw(OSError("boom")))
    with pytest.raises(OSError, match="boom"):
        ag.irr(TABLE, to=target)
    assert os.listdir(tmp_path) == []


def test_never_onto_an_input(tmp_path):
    source = tmp_path / "ratings.parquet"
    pq.write_table(TABLE, source)
    before = source.read_bytes()
    with pytest.raises(OptionError, match="is the input"):
        ag.fleiss_kappa(str(source), to=source)
    with pytest.raises(OptionError, match="matches the input glob"):
        ag.irr(str(tmp_path / "*.parquet"), to=tmp_path / "irr.parquet")
    os.link(source, tmp_path / "link.parquet")
    with pytest.raises(OptionError, match="link"):
        ag.fleiss_kappa(str(source), to=tmp_path / "link.parquet")
    assert source.read_bytes() == before
    assert not (tmp_path / "irr.parquet").exists()


# -- a table on the caller's connection --------------------------------------------------------

def test_a_table_on_the_callers_connection(tmp_path):
    con = duckdb.connect()
    con.from_arrow(TABLE).create("ratings")
    result = ag.coefficients("ratings", con=con, which=WHICH, to=("table", "agreement"))
    got = con.execute("SELECT coefficient, value FROM agreement ORDER BY coefficient").fetchall()
    assert got == sorted((name, result[name]["value"]) for name in WHICH)
    types = dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                             "WHERE table_name = 'agreement'").fetchall())
    assert types["value"] == "DOUBLE" and types["n_items"] == "BIGINT"
    # a name taken (the input itself, or the table just written) is refused, never replaced
    for taken in ("ratings", "agreement"):
        with pytest.raises(OptionError, match="does not replace it"):
            ag.fleiss_kappa("ratings", con=con, to=("table", taken))
    assert con.execute("SELECT count(*) FROM ratings").fetchone() == (12,)
    with pytest.raises(OptionError, match="con="):
        ag.fleiss_kappa(TABLE, to=("table", "x"))


# -- the CLI ---------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("command,function", [("irr", "irr"), ("coefficients", "coefficients"),
                                              ("icc", "icc"), ("fleiss-kappa", "fleiss_kappa")])
def test_the_cli_writes_the_apis_rows(command, function, tmp_path, capsys):
    source = tmp_path / "ratings.parquet"
    pq.write_table(TABLE, source)
    assert main([command, str(source), "--quiet", "-o", str(tmp_path / "cli.parquet")]) == 0
    getattr(ag, function)(str(source), to=tmp_path / "api.parquet")
    drop = {"route"}
    cli = [{k: v for k, v in r.items() if k not in drop}
           for r in pq.read_table(tmp_path / "cli.parquet").to_pylist()]
    api = [{k: v for k, v in r.items() if k not in drop}
           for r in pq.read_table(tmp_path / "api.parquet").to_pylist()]
    assert cli == api
    assert main([command, str(source), "--quiet", "-o", str(tmp_path / "cli.csv")]) == 0
    assert (tmp_path / "cli.csv").read_text().startswith("function,metric,coefficient")
    assert main([command, str(source), "--quiet", "-o", str(source)]) == 1
    assert "never writes onto a file it reads" in capsys.readouterr().err
