"""Identifiers quoted by each dialect's own rule (agreement_sql/dialects.py, decision 0016).

Every dialect's rendering of a statement with hostile names (quotes, backticks, backslashes,
line breaks, comment markers, semicolons, parameter markers, unicode, bidi controls) for the
relation and every column is parsed back with sqlglot in that dialect: exactly one
statement, structurally the statement rendered with plain names, each hostile name intact as
one identifier. A name a dialect cannot quote exactly is an OptionError (control characters
in BigQuery, a name PostgreSQL would truncate, one Snowflake refuses, NUL anywhere). On
DuckDB the hostile names are also a real table's: the call reads them and gives the plain
table's numbers.

The rules (each dialect's documentation): DuckDB "Keywords and Identifiers" (double quotes,
"" for "); Spark "Identifiers" (backticks, `` for `); PostgreSQL "Lexical Structure" (double
quotes, "" for ", NAMEDATALEN - 1 = 63 bytes, longer names truncated); GoogleSQL "Lexical
structure and syntax" (backticks, the escape sequences of string literals: \\` and \\\\);
Snowflake "Identifier requirements" (double quotes, "" for ", at most 255 characters).
"""
from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.dialects import DIALECTS
from agreement_sql.errors import OptionError
from agreement_sql.rendering import statement
from engines.test_warehouse_sql import pg  # noqa: F401  (the PostgreSQL fixture)
from _budget import examples

sqlglot = pytest.importorskip("sqlglot")
exp = sqlglot.exp

DIALECT_NAMES = ["duckdb", "spark", "postgres", "bigquery", "snowflake"]
# the profile reads every caller name (the canonical ratings relation, sql/_ratings.sql.j2) and
# parses fast; the coefficient statements are the slow run's
TEMPLATES = ["ratings_profile", *(pytest.param(t, marks=pytest.mark.slow)
                                  for t in ("krippendorff_alpha", "fleiss_kappa", "cohen_kappa"))]
ROLES = ("relation", "item", "rater", "value", "metric", "group")
PLAIN = {role: f"plain_{role}" for role in ROLES}

HOSTILE = [
    'a"b', 'a`b', 'a\\b', 'a\\`b', 'a\\"b', '\\', '`', '"', '``', '""', '\\\\`',
    'x"; DROP TABLE t; --', 'x`; DROP TABLE t; --', "x`) UNION ALL SELECT 1 --",
    "it's", "'; SELECT 1; --", "/* c */", "*/ SELECT 1 /*", "-- c", "sem;colon",
    "$1", "@p", ":p", "{{ x }}", "${v}", "é🦆 ünï", "\u202eevil\u202c", "\u0661\u0662",
    "line\nbreak", "tab\there", "cr\rhere", "esc\x1b[31m", "del\x7f", "\u2028sep",
]
# names a dialect cannot quote exactly: refused, never rendered approximately
REFUSED = {"bigquery": lambda n: any(ord(c) < 0x20 or ord(c) == 0x7F for c in n),
           "postgres": lambda n: len(n.encode("utf-8")) > 63,
           "snowflake": lambda n: len(n) > 255}


def _names(hostile: str) -> dict[str, str]:
    """The six names of a rendering, each different (the roles must not collide)."""
    return {role: f"{hostile}{i}" if i else hostile for i, role in enumerate(ROLES)}


def _render(template: str, dialect: str, names: dict[str, str]):
    rendered, _ = statement(template, dialect=dialect, relation=names["relation"],
                            item=names["item"], rater=names["rater"], value=names["value"],
                            metric=names["metric"], group_by=[names["group"]])
    return rendered


_PLAIN: dict[tuple[str, str], tuple[int, str, set[str]]] = {}


def _canonical(sql: str, dialect: str, rename: dict[str, str]) -> tuple[int, str, set[str]]:
    """(statement count, the statement with its quoted identifiers renamed, the quoted names)."""
    statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    quoted = {i.this for s in statements for i in s.find_all(exp.Identifier) if i.quoted}

    def swap(node):
        if isinstance(node, exp.Identifier) and node.quoted and node.this in rename:
            return exp.Identifier(this=rename[node.this], quoted=True)
        return node

    text = ";\n".join(s.transform(swap).sql(dialect=dialect) for s in statements)
    return len(statements), text, quoted


def _check(template: str, dialect: str, hostile: str) -> None:
    names = _names(hostile)
    if dialect in REFUSED and any(REFUSED[dialect](n) for n in names.values()):
        with pytest.raises(OptionError, match=dialect):
            _render(template, dialect, names)
        return
    if (template, dialect) not in _PLAIN:
        _PLAIN[template, dialect] = _canonical(_render(template, dialect, PLAIN).sql, dialect, {})
    plain_count, plain_sql, _ = _PLAIN[template, dialect]
    count, sql, quoted = _canonical(_render(template, dialect, names).sql, dialect,
                                    {names[r]: PLAIN[r] for r in ROLES})
    assert count == plain_count == 1, (dialect, hostile)
    assert all(names[r] in quoted for r in ROLES), (dialect, hostile, quoted)
    assert sql == plain_sql, (dialect, hostile)


# DuckDB's parse-back in the default run, every other dialect's in the full run (1-3 s each)
@pytest.mark.parametrize("dialect", [d if d == "duckdb" else pytest.param(d, marks=pytest.mark.slow)
                                     for d in DIALECT_NAMES])
@pytest.mark.parametrize("template", TEMPLATES)
def test_hostile_names_parse_back_as_one_statement_with_each_name_intact(template, dialect):
    for hostile in HOSTILE:
        _check(template, dialect, hostile)


@pytest.mark.slow
@settings(max_examples=examples(50), deadline=None)
@given(name=st.text(alphabet=st.sampled_from(list('ab"`\\\'; -/*\n\r\t$@:{}\x1b\u202e\u00e9🦆')),
                    min_size=1, max_size=12),
       dialect=st.sampled_from(DIALECT_NAMES))
def test_any_name_is_quoted_exactly_or_refused(name, dialect):
    _check("ratings_profile", dialect, name)


@pytest.mark.parametrize("dialect", DIALECT_NAMES)
def test_what_a_dialect_cannot_quote_is_refused(dialect):
    d = DIALECTS[dialect]
    with pytest.raises(OptionError, match="NUL"):
        d.quote_identifier("a\x00b")
    long = "é" * 40                                      # 40 characters, 80 UTF-8 bytes
    if dialect == "postgres":
        with pytest.raises(OptionError, match="63 bytes"):
            d.quote_identifier(long)
        assert d.quote_identifier("é" * 31) == '"' + "é" * 31 + '"'     # 62 bytes: kept
    else:
        d.quote_identifier(long)
    if dialect == "snowflake":
        with pytest.raises(OptionError, match="255 characters"):
            d.quote_identifier("x" * 256)
    if dialect == "bigquery":
        for bad in ("a\nb", "a\x1bb", "a\x7fb", "a\tb"):
            with pytest.raises(OptionError, match="control character"):
                d.quote_identifier(bad)
        # GoogleSQL's escapes, not doubling: a doubled backtick would end the identifier
        assert d.quote_identifier("a`b\\c") == "`a\\`b\\\\c`"


def test_the_header_keeps_every_name_inside_its_comment():
    # the script's header lines are comments whatever the relation's name holds
    for hostile in HOSTILE:
        script = ag.render("fleiss_kappa", relation=hostile)
        header = script.split("SET VARIABLE", 1)[0].rstrip("\n").split("\n")
        assert all(line.startswith("-- ") for line in header), (hostile, header)


@pytest.mark.slow
def test_duckdb_reads_a_table_of_hostile_names_as_the_plain_one():
    # the same ratings under plain and hostile names: the same numbers (DuckDB runs the SQL)
    rows = {"item": [1, 1, 2, 2, 3, 3], "rater": ["a", "b", "a", "b", "a", "b"],
            "value": [1, 1, 2, 1, 3, 3]}
    expected = ag.fleiss_kappa(pa.table(rows))
    # (a name with a glob character or a path separator is read as a file: sources.py)
    for hostile in ['x"; DROP TABLE t; --', "a`b\\c", "line\nbreak", "é🦆", "-- c", "a;b'c"]:
        con = duckdb.connect()
        names = {"item": hostile + "i", "rater": hostile + "r", "value": hostile + "v"}
        con.register("t_view", pa.table({names[k]: v for k, v in rows.items()}))
        con.execute("CREATE TABLE " + DIALECTS["duckdb"].quote_identifier(hostile)
                    + " AS SELECT * FROM t_view")
        got = ag.fleiss_kappa(hostile, con=con, **names)
        assert {k: v for k, v in got.items() if k != "metric"} == \
            {k: v for k, v in expected.items() if k != "metric"}, hostile
        assert con.execute("SELECT COUNT(*) FROM duckdb_tables()").fetchone()[0] == 1


@pytest.mark.postgres
def test_postgres_runs_a_table_of_hostile_names(pg):
    """The PostgreSQL rendering over a table whose name and columns are hostile gives the
    numbers of the same rows under plain names, on a real server (tests/engines)."""
    from engines.test_warehouse_sql import _run_psql_style

    quote = DIALECTS["postgres"].quote_identifier
    rows = [("1", "a", "1"), ("1", "b", "1"), ("2", "a", "2"), ("2", "b", "1"), ("3", "a", "3"),
            ("3", "b", "3")]
    results = []
    # (the test substitutes :name parameters in the text as psql would: no ':' in these names)
    for hostile in ["plain", 'x"; DROP TABLE t; --', "a`b\\c", "line\nbreak", "é🦆", "-- c",
                    "a;b'c", "/* c */"]:
        names = {"item": hostile + "i", "rater": hostile + "r", "value": hostile + "v"}
        pg.execute("DROP TABLE IF EXISTS pg_temp." + quote(hostile))
        pg.execute(f"CREATE TEMP TABLE {quote(hostile)} ({quote(names['item'])} TEXT, "
                   f"{quote(names['rater'])} TEXT, {quote(names['value'])} TEXT)")
        with pg.cursor() as cur:
            cur.executemany(f"INSERT INTO {quote(hostile)} VALUES (%s, %s, %s)", rows)
        rendered, params = statement("krippendorff_alpha", dialect="postgres", relation=hostile,
                                     **names)
        # (the metric is named after the value column: the one field that differs)
        results.append([{k: v for k, v in row.items() if k != "metric"}
                        for row in _run_psql_style(pg, rendered, params)])
        assert pg.execute("SELECT COUNT(*) FROM pg_tables WHERE tablename = 't'").fetchone()[0] == 0
    assert results[0] and all(r == results[0] for r in results), results
