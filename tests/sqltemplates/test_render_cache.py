"""Rendered statements are kept per (template, dialect, options) (agreement_sql.templates.render):
a loop of calls on inputs of one shape renders each statement once, and a cached statement is
the text a fresh render gives."""
from __future__ import annotations

import pyarrow as pa
import pytest
from markupsafe import Markup

import agreement_sql as ag
from agreement_sql import templates
from agreement_sql.engine import duckdb as duck


def _table(shift: int) -> pa.Table:
    # 4 raters x 6 items, one rating changed by `shift`: the same shape, other values
    rows = [(i, r, (i + r + (shift if (i, r) == (0, 0) else 0)) % 3 + 1)
            for i in range(6) for r in range(4)]
    return pa.table({"item": [f"i{i}" for i, _, _ in rows], "rater": [f"r{r}" for _, r, _ in rows],
                     "value": [float(v) for _, _, v in rows]})


def test_a_loop_of_calls_renders_each_statement_once(monkeypatch):
    monkeypatch.setattr(templates, "_RENDERED", {})
    rendered: list[str] = []
    original = templates._render

    def counting(template, options, d):
        rendered.append(template)
        return original(template, options, d)

    monkeypatch.setattr(templates, "_render", counting)
    first = ag.krippendorff_alpha(_table(0), level="nominal")
    once = list(rendered)
    second = ag.krippendorff_alpha(_table(1), level="nominal")
    assert once and rendered == once                 # the second call rendered nothing
    assert first["value"] != second["value"]          # and computed on its own input
    # the cached text is what a fresh render gives: a third call with the cache emptied agrees
    monkeypatch.setattr(templates, "_RENDERED", {})
    assert ag.krippendorff_alpha(_table(1), level="nominal") == second


def test_options_that_render_differently_are_different_keys(monkeypatch):
    monkeypatch.setattr(templates, "_RENDERED", {})
    assert templates._frozen(True) != templates._frozen(1)
    assert templates._frozen(1) != templates._frozen(1.0)
    assert templates._frozen(0.0) != templates._frozen(-0.0)
    assert templates._frozen(["a"]) != templates._frozen(("a",))
    # a subclass of a plain scalar keeps its own type in the key (Markup is SQL text the package
    # wrote, a str is a caller's value the environment refuses to paste)
    assert templates._frozen(Markup("a")) != templates._frozen("a")
    assert templates._frozen([Markup("a")]) != templates._frozen(["a"])
    a = templates.render("lookup_rows", {"n_rows": 1, "row_names": ["x"], "row_types": ["text"]})
    b = templates.render("lookup_rows", {"n_rows": 1, "row_names": ["x"], "row_types": ["double"]})
    assert a.sql != b.sql
    assert templates.render("lookup_rows", {"n_rows": 1, "row_names": ["x"],
                                            "row_types": ["double"]}) is b


def test_a_refused_option_is_refused_every_time(monkeypatch):
    monkeypatch.setattr(templates, "_RENDERED", {})
    for _ in range(2):
        with pytest.raises(ag.TemplateError):
            templates.render("lookup_rows", {"n_rows": 1, "row_names": ["x"], "row_types": ["nope"]})


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(templates, "_RENDERED", {})
    monkeypatch.setattr(templates, "_RENDERED_MAX", 3)
    for n in range(1, 6):
        templates.render("lookup_rows", {"n_rows": n, "row_names": ["x"], "row_types": ["text"]})
    assert len(templates._RENDERED) == 3


def test_session_names_are_unique_in_a_session_and_private_to_its_cursor():
    import duckdb
    engine = duck.DuckDBEngine(duckdb.connect())
    one, two = engine.session(), engine.session()
    try:
        names = [one.generated_name("src") for _ in range(3)]
        assert len(set(names)) == 3
        # the second session repeats the first one's names, in its own cursor
        assert two.generated_name("src") == names[0]
        one.cursor.execute(f'CREATE TEMP TABLE "{names[0]}" AS SELECT 1 AS v')
        two.cursor.execute(f'CREATE TEMP TABLE "{names[0]}" AS SELECT 2 AS v')
        assert one.cursor.execute(f'SELECT v FROM "{names[0]}"').fetchall() == [(1,)]
        assert two.cursor.execute(f'SELECT v FROM "{names[0]}"').fetchall() == [(2,)]
    finally:
        one.close()
        two.close()
