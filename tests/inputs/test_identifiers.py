"""Hostile column names work and cannot change the SQL that runs (principle 2), and the template
environment refuses anything that is neither a quoted identifier nor a bound parameter."""
from __future__ import annotations

import re

import pyarrow as pa
import pytest

import agreement_sql as ag
from agreement_sql.rendering import render

HOSTILE = {
    "item": 'Trace "ID"; DROP TABLE x; --',
    "rater": "Rater Name",
    "metric": "Question`s) UNION SELECT 1 --",
    "value": "VaLuE'); DELETE FROM y; --",
}


def _table(names):
    return pa.table({
        names["item"]: ["t1", "t1", "t2", "t2", "t1", "t1", "t2", "t2"],
        names["rater"]: ["a", "b", "a", "b", "a", "b", "a", "b"],
        names["metric"]: ["q1"] * 4 + ["q2"] * 4,
        names["value"]: [3, 4, 2, 2, 1, 1, 0, 1],
    })


def test_hostile_names_give_the_same_report_as_plain_names():
    plain = {"item": "item", "rater": "rater", "metric": "metric", "value": "value"}
    assert ag.irr(_table(HOSTILE), **HOSTILE) == ag.irr(_table(plain), **plain)


def test_hostile_names_only_appear_quoted():
    sql = render("pairwise_agreement", **HOSTILE)
    # each name appears only as a double-quoted identifier with embedded quotes doubled
    assert '"Trace ""ID""; DROP TABLE x; --"' in sql
    assert "\"VaLuE'); DELETE FROM y; --\"" in sql
    stripped = sql.replace('"Trace ""ID""; DROP TABLE x; --"', "").replace(
        "\"VaLuE'); DELETE FROM y; --\"", "").replace('"Question`s) UNION SELECT 1 --"', "")
    assert "DROP TABLE" not in stripped and "DELETE FROM" not in stripped and "UNION SELECT 1" not in stripped


def test_spark_dialect_quotes_with_backticks():
    sql = render("krippendorff_alpha", dialect="spark", **HOSTILE)
    assert "`Question``s) UNION SELECT 1 --`" in sql and "$" not in sql.split("WITH", 1)[1]


def test_mixed_case_names_resolve_to_the_real_column():
    table = _table({"item": "Item", "rater": "RATER", "metric": "Metric", "value": "Value"})
    report = ag.irr(table, item="item", rater="rater", metric="metric", value="value")
    assert set(report["per_metric_scores"]) == {"q1", "q2"}


def test_nul_in_a_name_is_refused():
    with pytest.raises(ag.OptionError, match="NUL"):
        render("pairwise_agreement", item="a\x00b")


def test_same_column_for_two_roles_is_refused():
    with pytest.raises(ag.OptionError, match="both item and rater"):
        ag.irr(_table({"item": "i", "rater": "r", "metric": "m", "value": "v"}), item="i", rater="i",
               metric="m", value="v")


def test_template_cannot_paste_a_value(tmp_path):
    from agreement_sql import templates
    import jinja2
    env = jinja2.Environment(loader=jinja2.DictLoader({"bad.sql.j2": "SELECT {{ level }}"}),
                             undefined=jinja2.StrictUndefined, autoescape=True,
                             finalize=templates._finalize)
    with pytest.raises(ag.TemplateError, match="use '\\| ident'"):
        env.get_template("bad.sql.j2").render(level="1; DROP TABLE t")


def test_caller_markup_cannot_sneak_past_the_finalize_hook():
    from markupsafe import Markup
    sql = render("krippendorff_alpha", item=Markup("x; DROP TABLE t"))
    assert '"x; DROP TABLE t"' in sql


def _ratings_options():
    """The options of sql/materialize_ratings.sql.j2 (only the ratings options), built by the
    constructor every call uses (agreement_sql.ratings.RatingsSpec.options)."""
    from agreement_sql.engine import TEXT, Column, Relation
    from agreement_sql.ratings import RatingsSpec

    columns = tuple(Column(c, TEXT, "VARCHAR") for c in ("item", "rater", "value"))
    spec = RatingsSpec(session=None, relation=Relation("r", columns, "r", True))  # type: ignore[arg-type]
    return spec.options()


def test_missing_or_undeclared_option_is_loud():
    # an option is a free variable of the template (docs/decisions/0001): render() refuses a
    # missing one, one the template does not take, and a value its declaration does not allow
    from agreement_sql.templates import render as raw, template_options

    options = _ratings_options()
    assert set(options) == template_options("materialize_ratings")
    assert '"item"' in raw("materialize_ratings", options).sql        # the complete set renders
    with pytest.raises(ag.TemplateError, match=r"no value for option\(s\) slices"):
        raw("materialize_ratings", {k: v for k, v in options.items() if k != "slices"})
    with pytest.raises(ag.TemplateError, match=r"option\(s\) levle are not options of this template"):
        raw("materialize_ratings", {**options, "levle": "ordinal"})
    with pytest.raises(ag.TemplateError, match="on_duplicate='newest'"):
        raw("materialize_ratings", {**options, "on_duplicate": "newest"})
    # the public render() refuses an option the template does not take rather than ignoring it
    with pytest.raises(ag.OptionError, match="takes no option 'levle'"):
        render("materialize_ratings", levle="ordinal")


def test_undefined_variable_is_loud(monkeypatch):
    # the environment is strict: a variable the option analysis missed raises instead of
    # rendering as "" or false, and render() reports it as a TemplateError
    import jinja2
    from agreement_sql import templates

    env = templates.environment()
    assert env.undefined is jinja2.StrictUndefined
    with pytest.raises(jinja2.UndefinedError, match="levle"):
        env.from_string("{% if levle == 'ordinal' %}x{% endif %}").render()
    declared = templates.template_options
    monkeypatch.setattr(templates, "template_options",
                        lambda name: declared(name) - {"on_duplicate"})
    options = {k: v for k, v in _ratings_options().items() if k != "on_duplicate"}
    with pytest.raises(ag.TemplateError, match="materialize_ratings: .*on_duplicate"):
        templates.render("materialize_ratings", options)


class _Recorder:
    """An engine (``con=``) that runs on DuckDB and records every statement and its parameters."""

    def __init__(self):
        import duckdb
        from agreement_sql.engine.duckdb import DuckDBEngine

        self._engine = DuckDBEngine(duckdb.connect())
        self.dialect = self._engine.dialect
        self.statements: list[tuple[str, dict]] = []

    def session(self):
        inner = self._engine.session()
        recorder = self

        class Session:
            dialect = inner.dialect

            def __getattr__(self, name):
                return getattr(inner, name)

            def query(self, sql, params, *, what):
                recorder.statements.append((sql, dict(params)))
                return inner.query(sql, params, what=what)

            def materialize(self, sql, params, kind):
                recorder.statements.append((sql, dict(params)))
                return inner.materialize(sql, params, kind)

        return Session()


def test_values_are_bound_not_pasted():
    # a caller's values (placeholders, rater names, a cap) reach the database only as
    # bound parameters: each is among the parameters of some statement, never in any SQL text
    placeholder, rater_a = "NA'); DROP TABLE x; --", "ann'; DELETE FROM y; --"
    table = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": [rater_a, "bob"] * 3,
                      "value": ["1", "2", placeholder, "2", "2", "2"]})
    engine = _Recorder()
    result = ag.cohen_kappa(table, raters=[rater_a, "bob"], missing=[placeholder, -7.25], con=engine)
    assert result["n_excluded"]["placeholder"] == 1        # the placeholder did its job
    report = ag.irr(table, missing=[placeholder], max_traces=7919, con=engine)
    assert report["n_excluded"]["placeholder"] == 1
    # the session's own names (agreement_sql_<kind>_<16 hex>_<n>, DuckDBSession.generated_name)
    # hold a random token and a count, which may spell a value's digits ("7919" once)
    texts = [re.sub(r"agreement_sql_[a-z0-9_]+_[0-9a-f]{16}_[0-9]+", "<generated name>", sql)
             for sql, _ in engine.statements]
    bound = [v for _, params in engine.statements for v in params.values()]
    assert texts
    # (a placeholder is bound as its text, read by the rule a value is: docs/decisions/0014)
    for value in (placeholder, rater_a, "-7.25", 7919):
        assert value in bound, value
        assert not any(str(value) in sql for sql in texts), value
    # and the rendered text a user runs by hand shows values in the header only
    script = render("irr_report")
    header, statement = script.split("\nWITH\n", 1)
    assert "SET VARIABLE priority_sd = 1.5;" in header     # rendering.SAMPLE_PARAMS
    assert "getvariable('priority_sd')" in statement and "1.5" not in statement
