"""Every template under sql/ renders, declares what it reads, and takes no silent default.

* Every name ``agreement-sql metrics`` lists (each coefficient and alias, each public
  template) renders with the options and sample parameters of :mod:`agreement_sql.rendering`
  (what ``agreement-sql render NAME`` prints) in both dialects, with a value for every
  parameter it binds, and every partial is part of some public template; the DuckDB
  renderings run as their header says on sample relations under the header's names, and
  where those are a call's own input they return the call's numbers.
* No template uses Jinja's ``default`` filter (nor ``{% with %}``): a missing option is an
  error, never a fallback (docs/decisions/0001).
* Every variable a template reads (partials included) is an option declared in
  agreement_sql/options.py, and ``templates.template_options`` (which ``render()`` enforces)
  is exactly the free variables of the template and of every partial it reaches.
"""
from __future__ import annotations

import duckdb
import jinja2
import pyarrow as pa
import pytest
from jinja2 import meta, nodes

import agreement_sql as ag
from agreement_sql import templates
from agreement_sql.options import OPTIONS
from agreement_sql.registry import REGISTRY, partials
from agreement_sql.rendering import render, statement
from conftest import DATA, REFERENCE

from .by_hand import run_by_hand

PUBLIC = templates.available_templates()
FILES = sorted(p.name for p in templates.template_dir().glob("*.sql.j2"))
# what `agreement-sql metrics` lists: every coefficient of the registry (rendered through
# sql/coefficients.sql.j2), its aliases, and every public template
COEFFICIENTS = list(REGISTRY) + [a for e in REGISTRY.values() for a in e.aliases]
NAMES = COEFFICIENTS + PUBLIC
# templates whose input is the caller's evaluation sheet (rendering.TEMPLATE_OPTIONS: the seed
# 003 columns), not a ratings relation
SHEET_INPUT = {"calibration_sample", "sheet_checks", "sheet_examples", "sheet_long"}
# statements that list examples of input problems: these inputs have none
FIND_NOTHING = {"input_examples", "sheet_examples"}


def _source(env: jinja2.Environment, name: str) -> str:
    return env.loader.get_source(env, name)[0]  # type: ignore[union-attr]


def _reached(env: jinja2.Environment, name: str, seen: set[str] | None = None) -> set[str]:
    """The file and every partial it includes or imports (a dynamic include: any coefficient
    partial of the registry)."""
    seen = set() if seen is None else seen
    if name not in seen:
        seen.add(name)
        for child in meta.find_referenced_templates(env.parse(_source(env, name))):
            for c in [child] if child is not None else partials():
                _reached(env, c, seen)
    return seen


def _free_variables(env: jinja2.Environment, name: str) -> set[str]:
    return set(meta.find_undeclared_variables(env.parse(_source(env, name)))) - templates.GLOBALS


# -- (a) every template renders ----------------------------------------------------------

@pytest.mark.parametrize("dialect", ["duckdb", "spark"])
@pytest.mark.parametrize("template", NAMES)
def test_every_template_renders_with_sample_parameters(template, dialect):
    rendered, params = statement(template, dialect=dialect)
    assert rendered.dialect == dialect and rendered.sql.strip()
    unbound = [p for p in rendered.params if p not in params]
    assert not unbound, f"no sample value for parameter(s) {unbound}"
    prefix = {"duckdb": "$", "spark": ":"}[dialect]
    assert all(prefix + p in rendered.sql for p in rendered.params)
    # the text a user gets: header first, then the statement
    text = render(template, dialect=dialect)
    assert text.startswith(f"-- agreement-sql: {rendered.template} ({dialect})\n")
    printed = statement(template, dialect=dialect, checks=True, script=True)[0]
    assert printed.sql.strip() in text and text.endswith(";\n")


def test_the_names_rendered_are_every_name_metrics_lists(capsys):
    from agreement_sql.cli import main

    assert main(["metrics"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert set(listed) <= set(NAMES) and set(PUBLIC) <= set(listed)


@pytest.mark.slow
def test_every_partial_is_part_of_a_public_template():
    env = templates.environment()
    reached = set().union(*(_reached(env, f"{t}.sql.j2") for t in PUBLIC))
    assert reached == set(FILES), f"never rendered: {sorted(set(FILES) - reached)}"


@pytest.fixture(scope="module")
def con():
    """The relations the renderings' headers name: Krippendorff's (2011) 4 x 12 ratings as
    ``ratings`` (text columns, as a CSV is read) and a ``scales`` table; seed 003's evaluation
    sheet as ``sheet`` (the caller's input of SHEET_INPUT), Student t inputs as ``t_values``, normal tail inputs as ``z_values``, sample weights as ``unit_weights``, and the canonical ``sheet_long``
    table its statement writes; seed 002's merged pairs as ``pairs``, ``citations`` and
    ``retrieved`` (what consistency() registers from the JSONL lines)."""
    con = duckdb.connect()
    con.execute(f"CREATE TABLE ratings AS SELECT * FROM "
                f"read_csv('{REFERENCE / 'krippendorff2011_4x12.csv'}', all_varchar = true)")
    con.execute("CREATE TABLE scales AS SELECT 'value' AS metric, 'likert' AS kind, "
                "1.0 AS lo, 5.0 AS hi")
    # sql/student_t.sql.j2's input: rows of (row_id, t, v)
    con.execute("CREATE TABLE t_values AS SELECT * FROM (VALUES (1, -2.0, 10.0), (2, 0.5, 29.0)) "
                "AS t(row_id, t, v)")
    # sql/normal_tail.sql.j2's input: rows of (row_id, x)
    con.execute("CREATE TABLE z_values AS SELECT * FROM (VALUES (1, -2.0), (2, 0.5)) AS t(row_id, x)")
    # sql/unit_weights_check.sql.j2's input: scikit-learn's sample_weight= as rows (item, w)
    con.execute("CREATE TABLE unit_weights AS SELECT * FROM (VALUES ('1', 2.0), ('2', 1.0)) AS t(item, w)")
    con.execute(f"CREATE TABLE sheet AS SELECT * FROM "
                f"read_csv('{DATA / 'evaluation_sheet.csv'}', all_varchar = true)")
    sheet_long = pa.Table.from_pylist(run_by_hand(con, render("sheet_long", relation="sheet")))
    con.execute("CREATE TABLE sheet_long AS SELECT * FROM sheet_long")
    con.execute("CREATE TABLE pairs AS SELECT * FROM (VALUES "
                "(1, 'q1', 'VALID', 'VALID', false, false), (2, 'q2', 'VALID', 'REJECT', false, false), "
                "(3, 'q3', 'ABSTAIN', 'ABSTAIN', false, true), (4, 'q4', 'NOT_IN_CONTEXT', 'VALID', false, false)"
                ") AS t(line_no, qid, scholar_label, auditor_label, provenance_violation, constraints_mismatch)")
    con.execute("CREATE TABLE citations AS SELECT * FROM (VALUES (1, 'p1'), (4, 'p9')) AS t(line_no, citation)")
    con.execute("CREATE TABLE retrieved AS SELECT * FROM (VALUES (1, 'p1'), (4, 'p2')) AS t(line_no, retrieved_id)")
    # a batch state of the ratings (sql/batch_state.sql.j2 run by hand: its state rows) as
    # ``state``, ``state_a`` and ``state_b`` (merge_states' two)
    state = pa.Table.from_pylist([r for r in run_by_hand(con, render("batch_state"))
                                  if r["part"] == "state"])
    con.execute("CREATE TABLE state AS SELECT state_version, section, metric_column, metric, "
                "item, rater, state, x, label, n FROM state")
    con.execute("CREATE TABLE state_a AS SELECT * FROM state")
    con.execute("CREATE TABLE state_b AS SELECT * FROM state")
    return con


@pytest.mark.parametrize("template", NAMES)
def test_every_duckdb_rendering_runs_by_hand(con, template):
    relation = "sheet" if template in SHEET_INPUT else "ratings"
    rows = run_by_hand(con, render(template, relation=relation))
    if template not in FIND_NOTHING:
        assert rows, "no rows"


@pytest.mark.slow
def test_by_hand_renderings_are_what_the_calls_compute(con):
    """Where a call's input is the sample relations themselves, the rendering's options and
    sample parameters are the call's: its SQL run by hand returns the call's numbers."""
    sheet = str(DATA / "evaluation_sheet.csv")
    drawn = run_by_hand(con, render("calibration_sample", relation="sheet"))
    assert [r["draw_id"] for r in drawn] == ag.calibration_sample(sheet)["sample_ids"]
    checks = run_by_hand(con, render("sheet_checks", relation="sheet"))[0]
    report = ag.evaluation_sheet(sheet, diagnostics=False)
    assert checks["n_rows"] == report["rows"] and checks["n_train"] == report["train_rows"]
    assert [checks[f"n_labels_{i}"] for i in range(4)] == list(report["labels"].values())
    disagreeing = {r["item"] for r in run_by_hand(con, render("sheet_disagreements"))}
    assert disagreeing == {d["Sample_ID"] for d in report["disagreements"]}
    pairs = {(r["slice_0"], r["slice_1"], r["rater_a"], r["rater_b"]): r
             for r in run_by_hand(con, render("sheet_pairs"))}
    assert round(pairs["overall", "all", "Annotator_1", "Annotator_2"]["kappa"], 4) == \
        report["annotator_agreement"]["kappa"]
    for level in report["breakdowns"]["Scenario"]:
        judged = pairs["Scenario", level["level"], "Consensus", "LLM_Judge"]
        assert round(judged["kappa"], 4) == level["llm_vs_consensus"]["kappa"]
    ratings = str(REFERENCE / "krippendorff2011_4x12.csv")
    icc = run_by_hand(con, render("icc"))
    assert [r["value"] for r in icc] == [r["value"] for r in ag.icc(ratings)]
    judged = [r for r in run_by_hand(con, render("judge_agreement")) if r["part"] == "groups"]
    group = ag.judge_agreement(ratings, diagnostics=False)["groups"][0]["judgeAgreement"]
    assert round(judged[0]["alpha"], 3) == group["krippendorffsAlpha"] == 0.849


# -- (b) no silent defaults ----------------------------------------------------------------

def _defaults(env: jinja2.Environment, source: str) -> list[str]:
    ast = env.parse(source)
    found = [f"|{f.name}" for f in ast.find_all(nodes.Filter) if f.name in ("default", "d")]
    found += ["{% with %}" for _ in ast.find_all(nodes.With)]
    return found


def test_the_default_detector_finds_defaults():
    env = templates.environment()
    assert _defaults(env, "{{ a | default(1) }}{{ b|d('x') }}") == ["|default", "|d"]
    assert _defaults(env, "{% with x = 1 %}{{ x }}{% endwith %}") == ["{% with %}"]
    assert _defaults(env, "{{ a | ident }}") == []


@pytest.mark.parametrize("name", FILES)
def test_no_template_uses_a_default(name):
    env = templates.environment()
    assert _defaults(env, _source(env, name)) == []


# -- (c) every option is declared --------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_every_variable_a_template_reads_is_a_declared_option(name):
    env = templates.environment()
    undeclared = _free_variables(env, name) - set(OPTIONS)
    assert not undeclared, f"{name} reads {sorted(undeclared)}, not declared in agreement_sql/options.py"


@pytest.mark.slow
@pytest.mark.parametrize("template", PUBLIC)
def test_template_options_are_the_free_variables_of_what_it_reaches(template):
    env = templates.environment()
    expected = set().union(*(_free_variables(env, f) for f in _reached(env, f"{template}.sql.j2")))
    assert set(templates.template_options(template)) == expected


@pytest.mark.slow
def test_every_declared_option_is_read_by_some_template():
    env = templates.environment()
    read = set().union(*(_free_variables(env, f) for f in FILES))
    assert set(OPTIONS) - read == set(), "declared options no template reads"
