"""Every public function of agreement_sql called once on small data (tests/inputs/test_silence.py).

Run as a script (``python -m tests.inputs._public_calls OUTDIR``) it makes every call in a
plain interpreter, with Python's default warning filters, so a test can check that nothing
reaches stdout or stderr there too.
"""
from __future__ import annotations

import inspect
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

import duckdb
import pyarrow as pa

import agreement_sql as ag

DATA = Path(__file__).resolve().parents[2] / "data"
# two raters on six items, numbers 1..3 (every coefficient applies; hand check: 4 of 6 agree)
TABLE = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
                  "rater": ["a", "b"] * 6,
                  "value": [1, 1, 2, 2, 3, 1, 2, 2, 3, 3, 1, 2]})
# the judges' table: one group whose judges disagree, so judge_agreement warns
JUDGES = pa.table({"point": [f"p{k}" for k in range(6) for _ in (0, 1)],
                   "judge": ["j1", "j2"] * 6,
                   "score": [0.0, 1.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.5, 0.0, 1.0, 0.5, 1.0]})


def calls(folder: Path) -> dict[str, Callable[[], Any]]:
    """A call of each public function (``folder`` receives the files the writers write)."""
    sheet = folder / "sheet.csv"
    shutil.copy(DATA / "evaluation_sheet.csv", sheet)
    return {
        "available_templates": ag.available_templates,
        "connect": lambda: ag.connect().close(),
        "human_agreement": lambda: ag.human_agreement(TABLE),
        "irr": lambda: ag.irr(TABLE),
        "pairwise_agreement": lambda: ag.pairwise_agreement(TABLE),
        "agree": lambda: ag.agree(TABLE),
        "render": lambda: ag.render("fleiss_kappa"),
        "install_macros": lambda: ag.install_macros(duckdb.connect()),
        "coefficients": lambda: ag.coefficients(TABLE, ci=0.95),
        **{name: (lambda name=name: getattr(ag, name)(TABLE)) for name in ag.registry.REGISTRY},
        "calibration_sample": lambda: ag.calibration_sample(str(sheet), output=str(folder / "s.csv")),
        "alt_test": lambda: ag.alt_test(TABLE, judges=["b"]),
        "consistency": lambda: ag.consistency(str(DATA / "consistency_pairs.jsonl"),
                                              disagreements_tsv=str(folder / "d.tsv")),
        "evaluation_sheet": lambda: ag.evaluation_sheet(str(sheet)),
        "judge_agreement": lambda: ag.judge_agreement(JUDGES, item="point", rater="judge",
                                                      value="score", points_to=folder / "points"),
        "judge_set_fingerprint": lambda: ag.judge_set_fingerprint(["a", "b"]),
        "rater_diagnostics": lambda: ag.rater_diagnostics(TABLE),
        "achieved_precision": lambda: ag.achieved_precision(TABLE, target_width=0.2),
        "bland_altman": lambda: ag.bland_altman(TABLE),
        "concordance": lambda: ag.concordance(TABLE),
        "icc": lambda: ag.icc(TABLE),
        "category_agreement": lambda: ag.category_agreement(TABLE),
        "report": lambda: ag.report(TABLE),
        "sample_size": lambda: ag.sample_size("cohen_kappa", expected=0.8, ci_width=0.3, n_raters=2),
        "summarize": lambda: ag.summarize(TABLE, to=str(folder / "state.parquet")),
        "merge_states": lambda: ag.merge_states([str(folder / "state.parquet")],
                                                to=str(folder / "merged.parquet")),
    }


def public_functions() -> set[str]:
    return {n for n in ag.__all__ if not inspect.isclass(getattr(ag, n))}


def run_all(folder: Path) -> dict[str, Any]:
    return {name: call() for name, call in calls(folder).items()}


if __name__ == "__main__":
    results = run_all(Path(sys.argv[1]))
    assert results["judge_agreement"]["warnings"], "the judges' table should warn"
