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


def without_choices(result: Any, flag: str) -> Any:
    """``result`` without the route entries of the decisions flagged ``flag``
    (routes.Decision.by_engine, by_source_types): what the engine or the source's column types
    settle, so the same ratings may take another alternative with the same answer."""
    if isinstance(result, dict):
        return {k: ([{n: c for n, c in step.items()
                      if not (n in routes.DECISIONS and getattr(routes.DECISIONS[n], flag))}
                     if isinstance(step, dict) else step for step in v]
                    if k == "route" and isinstance(v, list) else without_choices(v, flag))
                for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return [without_choices(v, flag) for v in result]
    return result


def as_any_format(result: Any) -> Any:
    """``result`` for comparing one input read from several formats: the answer must be the
    same, byte for byte, the route record may not be (a Parquet item column of whole numbers is
    grouped as it is, the same items as a CSV's text are not: by_source_types)."""
    return without_choices(result, "by_source_types")


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
