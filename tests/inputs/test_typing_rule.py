"""One typing rule, whatever the format (docs/decisions/0014): a differential property test.

Random annotation tables (numbers and text mixed in one column, placeholders, NULL and NaN,
unicode, numeric and text ids, the spellings of a boolean, a code of 2^53 + 1, two column names
that differ only in case of which the call names one; tests/inputs/_typing_tables.py) are
written as CSV, TSV, JSON, JSON Lines, Parquet, an Arrow table, a pandas and a polars DataFrame
and a DuckDB table read by name on the caller's connection. Every format must give the same
bytes: ``json.dumps(sort_keys=True)`` of coefficients(), pairwise_agreement() and irr() (each
where it applies, else the same typed error, class and message). The oracle is the CSV: the
format that holds nothing but text, read by the rule alone.

The default run draws a few tables (a few seconds); the slow run (CI) draws many more. The
Spark leg (the same tables as a Spark DataFrame and as files read by the Spark engine) is
tests/engines/test_spark_typing_rule.py.
"""
from __future__ import annotations

import tempfile

import pytest
from hypothesis import HealthCheck, given, settings

from ._typing_tables import CALLS, Table, formats, outcome, tables
from _budget import examples

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                print_blob=True)


def outcomes(table: Table) -> dict[str, dict[str, str]]:
    """{format: {call: outcome}} for every format of ``table``."""
    found: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, make in formats(table, folder).items():
            source, con, description = make()
            found[name] = {call: outcome(lambda: run(source, con, table.call), description)
                           for call, run in CALLS.items()}
    return found


def check(table: Table) -> None:
    found = outcomes(table)
    oracle = found.pop("csv")
    for name, got in found.items():
        for call, text in got.items():
            assert text == oracle[call], (f"{name} differs from csv in {call}:\n  csv: "
                                          f"{oracle[call][:600]}\n  {name}: {text[:600]}")


@pytest.mark.slow
@settings(max_examples=examples(3), derandomize=True, **SETTINGS)
@given(tables(max_rows=8))
def test_every_format_gives_the_same_bytes(table):
    check(table)


@pytest.mark.slow  # about four minutes on one core: many more tables; CI runs it
@settings(max_examples=examples(60), **SETTINGS)
@given(tables(max_rows=14))
def test_every_format_gives_the_same_bytes_many_tables(table):
    check(table)
