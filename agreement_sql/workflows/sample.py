"""The calibration sample of seed 003: what annotators label for the kappa experiment.

From a full evaluation sheet: Dev and Test rows only (never Train), stratified per Scenario with
``n_per_stratum`` rows each, balanced PASS/FAIL by the LLM judge's verdict, drawn by a seeded
portable hash (``sql/calibration_sample.sql.j2``: same sheet and seed, same sample). The drawn rows
are written as a CSV with the annotator columns (and the consensus) empty, in a shuffled order so
verdicts and scenarios are not grouped; ``hide_judge=True`` also empties the LLM judge columns
(annotators blind to the judge). Python only writes the file; the selection and every count is SQL.
"""
from __future__ import annotations

import csv
import io
import os
import re
from typing import Any

from ..public import public
from ..engine import open_session
from ..errors import OptionError, SourceError
from ..outputs import Inputs, Output, write_text
from ..ratings import _resolve
from ..results import CalibrationSample
from ..runner import query
from .sheet import BLANK_LEVEL, check_sheet

MAX_SEED = 2**31 - 2
ANNOTATOR_COLUMN = re.compile(r"^annotator_\d+_", re.IGNORECASE)
CONSENSUS_COLUMNS = ("final_consensus_label", "judge_reasoning")
JUDGE_COLUMN = re.compile(r"^llm_judge_", re.IGNORECASE)


@public()
def calibration_sample(source: Any, n_per_stratum: int = 4, seed: int | None = None, *,
                       output: str | os.PathLike | None = None, stratum_column: str = "Scenario",
                       verdict_column: str = "LLM_Judge_Verdict", id_column: str = "Sample_ID",
                       split_column: str = "Dataset_Split", hide_judge: bool = False,
                       con: Any = None) -> CalibrationSample:
    """Draw the calibration sample and (with ``output``) write it as a CSV; return what was drawn.

    Per stratum: ``n_per_stratum // 2`` PASS and the rest FAIL by the LLM verdict; a stratum
    short of one verdict takes more of the other, and a stratum short of both reports its
    ``shortfall``. ``seed`` is an integer in 0..2^31-2 (default 0). ``output`` is never one of the
    files the sheet is read from (OptionError), and a file already there is replaced only
    once the sample is complete (agreement_sql.outputs).
    """
    if isinstance(n_per_stratum, bool) or not isinstance(n_per_stratum, int) or n_per_stratum < 1:
        raise OptionError(f"n_per_stratum must be a positive integer, got {n_per_stratum!r}")
    seed = 0 if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"seed must be an integer between 0 and {MAX_SEED}, got {seed!r}")
    n_pass = n_per_stratum // 2
    n_fail = n_per_stratum - n_pass
    target = Output(output, "output", inputs=Inputs.of(source)) if output is not None else None
    with open_session(con) as session:
        src = session.read_source(source)
        cols = {"id": _resolve(src, id_column, "sample id"), "split": _resolve(src, split_column, "split"),
                "stratum": _resolve(src, stratum_column, "stratum"),
                "verdict": _resolve(src, verdict_column, "LLM verdict")}
        check_options = {"id_column": cols["id"], "split_column": cols["split"],
                         "label_columns": [cols["verdict"]], "include_train": False,
                         "source": src.name}
        checks = query(session, "sheet_checks", check_options, {})[0]
        check_sheet(session, src, checks, check_options,
                    {"id": cols["id"], "labels": [(cols["verdict"], "LLM_Judge")]})
        options = {"source": src.name, "id_column": cols["id"], "split_column": cols["split"],
                   "stratum_column": cols["stratum"], "verdict_column": cols["verdict"]}
        params = {"seed": seed, "n_pass": n_pass, "n_fail": n_fail, "blank_level": BLANK_LEVEL}
        rows = query(session, "calibration_sample", {**options, "part": "rows"}, params)
        strata = query(session, "calibration_sample", {**options, "part": "summary"}, params)
        columns = [c.name for c in src.columns]
    if not rows:
        raise SourceError(f"{_shown(source, src)} has no Dev or Test row with a PASS or FAIL "
                          f"{cols['verdict']!r}: nothing to draw")
    blanked = [c for c in columns if ANNOTATOR_COLUMN.match(c) or c.lower() in CONSENSUS_COLUMNS
               or (hide_judge and JUDGE_COLUMN.match(c))]
    if target is not None:
        _write(target, columns, rows, set(blanked))
    t = strata[0]
    return CalibrationSample(
        source=_shown(source, src),
        output=os.fspath(output) if output is not None else None,
        seed=seed,
        n_per_stratum=n_per_stratum,
        per_stratum_target={"PASS": n_pass, "FAIL": n_fail},
        drawn=int(t["total_drawn"]),
        by_verdict={"PASS": int(t["total_pass"]), "FAIL": int(t["total_fail"])},
        by_split={"Dev": int(t["total_dev"]), "Test": int(t["total_test"])},
        excluded={"train_rows": int(t["total_train"]), "other_split_rows": int(t["total_other_split"]),
                  "no_verdict_rows": int(t["total_no_verdict"])},
        shortfall=int(t["total_shortfall"]),
        strata=[{"stratum": s["stratum"], "rows": int(s["n_rows"]), "train_rows": int(s["n_train"]),
                 "available": {"PASS": int(s["available_pass"]), "FAIL": int(s["available_fail"])},
                 "drawn": {"PASS": int(s["drawn_pass"]), "FAIL": int(s["drawn_fail"])},
                 "drawn_by_split": {"Dev": int(s["drawn_dev"]), "Test": int(s["drawn_test"])},
                 "shortfall": int(s["shortfall"])} for s in strata],
        sample_ids=[r["draw_id"] for r in rows],
        blanked_columns=blanked,
        notes=["Train rows never enter the calibration sample (few-shot examples inflate agreement)",
               "rows are written in draw-key order (shuffled), not grouped by verdict or stratum",
               "the same sheet and seed give the same sample: the draw key hashes (seed, rank of "
               "the sample id), so adding rows to the sheet can change the draw"],
    )


def _shown(source: Any, src: Any) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else src.description


def _write(target: Output, columns: list[str], rows: list[dict[str, Any]],
           blanked: set[str]) -> None:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if c in blanked or row.get(c) is None else row[c] for c in columns])
    write_text(target.path, text.getvalue(), target.what, output=target)
