"""Hostile column names work and cannot change the SQL that runs (principle 2), and the template
environment refuses anything that is neither a quoted identifier nor a bound parameter."""
from __future__ import annotations

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


def test_undefined_variable_is_loud():
    from agreement_sql.templates import render as raw
    with pytest.raises(ag.TemplateError):
        raw("krippendorff_alpha", source="r")      # slices, item, ... missing


def test_values_are_bound_not_pasted():
    r = render("irr_scores")
    assert "$threshold" in r and "75" not in r.split("-- run by hand")[1].split("\n", 1)[1]
