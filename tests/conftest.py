"""Shared test helpers: small annotation tables in every source form the package accepts."""
from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from agreement_sql import routes

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path(__file__).resolve().parent / "reference"
DATA = ROOT / "data"


def workshop_rows(traces: dict[str, dict[str, list]], *, rater_prefix: str = "u") -> list[dict]:
    """``{"t1": {"q1": [3, 4]}}`` -> workshop annotations (one row per trace and rater).

    The i-th rating of a list belongs to rater ``u{i+1}``; ``None`` means that rater skipped
    the question.
    """
    rows: dict[tuple[str, str], dict] = {}
    for trace, questions in traces.items():
        for question, ratings in questions.items():
            for i, r in enumerate(ratings):
                if r is None:
                    continue
                key = (trace, f"{rater_prefix}{i + 1}")
                rows.setdefault(key, {"trace_id": trace, "user_id": key[1], "ratings": {}})
                rows[key]["ratings"][question] = r
    return list(rows.values())


def long_table(traces: dict[str, dict[str, list]]) -> pa.Table:
    """The same annotations as a long Arrow table (trace_id, user_id, question_id, rating)."""
    out = {"trace_id": [], "user_id": [], "question_id": [], "rating": []}
    for row in workshop_rows(traces):
        for question, rating in row["ratings"].items():
            out["trace_id"].append(row["trace_id"])
            out["user_id"].append(row["user_id"])
            out["question_id"].append(question)
            out["rating"].append(rating)
    return pa.table(out)


LONG = {"item": "trace_id", "rater": "user_id", "metric": "question_id", "value": "rating"}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def workshop_file(tmp_path):
    """A function writing workshop-shaped JSONL from the ``traces`` mapping."""
    def make(traces, name="annotations.jsonl"):
        return write_jsonl(tmp_path / name, workshop_rows(traces))
    return make


@pytest.fixture
def force_route():
    """Force route alternatives (agreement_sql.routes.DECISIONS) for the rest of the test:
    ``force_route(units="counts")``. The one way tests choose a producer."""
    with contextlib.ExitStack() as stack:
        yield lambda **choices: stack.enter_context(routes.forcing(**choices))


def without_route(result: Any) -> Any:
    """``result`` without its ``route`` fields, for comparing calls that take other routes."""
    if isinstance(result, dict):
        return {k: without_route(v) for k, v in result.items() if k != "route"}
    if isinstance(result, (list, tuple)):
        return [without_route(v) for v in result]
    return result


def pytest_configure(config: pytest.Config) -> None:
    """The full run (a marker expression that selects ``slow`` tests: .ci/run's
    ``-m "slow or not slow"``) draws every property test's declared examples; the default run
    (addopts' ``-m 'not slow ...'``) a third of them (tests/_budget.py)."""
    from _pytest.mark.expression import Expression

    import _budget
    markexpr = config.getoption("markexpr") or ""
    _budget.THOROUGH = (not markexpr
                        or Expression.compile(markexpr).evaluate(lambda name: name == "slow"))


ENGINES = ("spark", "postgres")
# the fixtures that reach the shared JVM or server: a test using one must carry a marker above
ENGINE_FIXTURES = {"spark", "spark_engine", "pg", "pg_macros"}
# the files holding those tests. The controller of a run on both cores sees test ids, not
# markers, so the group is made by file; each worker checks the markers against this list.
ENGINE_FILES = frozenset({
    "tests/dbt/test_dbt_package.py", "tests/dbt/test_dbt_warehouses.py",
    "tests/docs/test_readme_sql_native.py",
    "tests/engines/test_readme_spark.py", "tests/engines/test_spark_connect.py",
    "tests/engines/test_spark_cross_engine.py", "tests/engines/test_spark_sources.py",
    "tests/engines/test_spark_typing_rule.py", "tests/engines/test_warehouse_sql.py",
    "tests/inputs/test_bad_input_spark.py", "tests/inputs/test_hive.py",
    "tests/sqltemplates/test_hostile_identifiers.py",
})


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """A run on both cores (``-n 2``, the project's options): the tests of :data:`ENGINE_FILES`
    are one unit of work, which one worker runs one after the other (one JVM for the Spark
    fixture; the PostgreSQL tables the tests create, ``public.ratings`` and the dbt schemas,
    never written by two processes at once); every other test is a unit of its own, handed to
    whichever worker is free. pytest-xdist's scheduler hands out the largest unit first. (Its
    own ``--dist loadgroup`` is not used: with pytest 9 it no longer renames the grouped tests.)"""
    from xdist.scheduler import LoadScopeScheduling

    class EnginesInOneWorker(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "engines" if _file(nodeid) in ENGINE_FILES else nodeid

    return EnginesInOneWorker(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that reaches the other engines is in :data:`ENGINE_FILES` and carries the
    ``spark`` or ``postgres`` marker: the run is refused at collection otherwise."""
    outside, unmarked = [], []
    for item in items:
        if any(item.get_closest_marker(name) for name in ENGINES):
            if _file(item.nodeid) not in ENGINE_FILES:
                outside.append(item.nodeid)
        elif ENGINE_FIXTURES & set(getattr(item, "fixturenames", ())):
            unmarked.append(item.nodeid)
    if outside:
        raise pytest.UsageError(f"{len(outside)} Spark or PostgreSQL test(s) outside the files of "
                                f"tests/conftest.py's ENGINE_FILES: {outside[:5]}")
    if unmarked:
        raise pytest.UsageError(f"{len(unmarked)} test(s) use a Spark or PostgreSQL fixture "
                                f"without the spark or postgres marker: {unmarked[:5]}")
