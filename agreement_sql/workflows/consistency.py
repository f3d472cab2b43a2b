"""Cross-agent consistency (seed 002, WFGY): scholar vs auditor, Cohen's kappa, CI gates, arbitration.

Input: the merged pairs JSONL (``{qid, scholar{label, reason}, auditor{label, reason},
answer_json?, retrieved_ids?, flags?}`` per line), or a scholar and an auditor JSONL joined on
``qid`` (intersection; a qid given twice keeps its last line).

A merged pairs file is read by the database. On DuckDB its JSON reader reads the declared
fields of every line (:data:`PAIRS_COLUMNS`, the engine's ``read_json_lines``), and
``sql/consistency.sql.j2`` flattens them in one statement (input form "jsonl", part "lines":
qid, the two labels, the hard flag, whether a cited id is not among the retrieved ids),
materialised in input order; a second statement lists the qids given more than once (part
"repeats"), and every part reads those two relations (input form "lines"). The flattening also
marks the lines it cannot read exactly as the Python reader below does (irregular: a qid that
is not a string or an integer, no scholar or auditor object, a flag other than true, false or
null, an id that is not a string where it matters). The file is read again, line by line in
Python, when a line is irregular, when DuckDB's reader refuses a line (malformed JSON, a value
of the wrong shape), when the file has no line, or when unknown labels stop the call: that
reader names the file and the line of every error, and reads every file the way this function
always has. DuckDB's reader is more lenient than Python's json module in a few ways (a trailing
comma before ``}`` or ``]``, ``inf``/``nan`` in any case, U+2028, U+2029, U+0085 or a lone
carriage return inside a line, which Python's ``str.splitlines`` splits): such a file is read
rather than refused. Lists of dicts, two separate files, and engines without a JSON Lines
reader (Spark) go through the Python reader, into flat Arrow relations (one row per line;
citations and retrieved ids as child relations) read by the same statement (input forms
"pairs" and "split").

Everything else is ``sql/consistency.sql.j2``: the join and de-duplication, percent agreement,
Cohen's kappa (on the 4 x 4 grid, with the terms and sums of the kappa family's ``_pairs`` and
``_cohen`` partials), the scholar-side abstain rate, the confusion matrix, the arbitration
policy and the rows with unknown labels; the gates are decided here, on unrounded values.
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, Iterator, Mapping

from ..public import public
from ..engine import Session, open_session
from ..errors import AgreementError, ColumnError, InvalidRatingError, OptionError, SourceError
from ..interpret import at_least, settled
from ..outputs import Inputs, Output, write_text
from ..results import ConsistencyReport
from .. import routes
from ..runner import query, run_template

LABELS = ("VALID", "NOT_IN_CONTEXT", "REJECT", "ABSTAIN")
GATES = {"pa": 0.90, "kappa": 0.75, "abstain": 0.02}
UNKNOWN = ("error", "exclude")
TSV_COLUMNS = ("qid", "scholar", "auditor", "final", "why")
RATERS = ("scholar", "auditor")
# what the database's JSON reader reads of a merged pairs line (DuckDB types; other keys are
# not read): values whose type matters stay JSON, so the statement can tell a string from a
# number, true from "true"
PAIRS_COLUMNS = {
    "qid": "JSON",
    "scholar": "STRUCT(label VARCHAR)",
    "auditor": "STRUCT(label VARCHAR)",
    "answer_json": "STRUCT(citations JSON[])",
    "retrieved_ids": "JSON[]",
    "flags": "STRUCT(provenance_violation JSON, constraints_mismatch JSON)",
}
# the input relations of sql/consistency.sql.j2: each call names the ones of its input form;
# and the options of the kappa partials it includes (sql/_pairs.sql.j2, sql/_cohen.sql.j2): the
# plain Cohen's kappa of one pair, from the label grid the statement counts (confusion_given)
NO_RELATIONS: dict[str, Any] = {"jsonl_rel": None, "lines_rel": None, "repeats_rel": None,
                                "pairs_rel": None, "citations_rel": None, "retrieved_rel": None,
                                "scholar_rel": None, "auditor_rel": None,
                                "slices": [], "bootstrap": False, "confusion_given": True,
                                "weights": None, "weight_basis": "value", "weight_matrix": None,
                                "domain": None, "marginals": "pairwise", "named_raters": 0,
                                "pair_max_raters": False, "ci": False, "variance": None,
                                "unit_weights": None, "kappa_weights": "value_pairs"}


class _ReadInPython(Exception):
    """The database's reading of a pairs file cannot be vouched for: read it line by line."""


@public()
def consistency(pairs: Any = None, *, scholar: Any = None, auditor: Any = None,
                gates: Mapping[str, float] | None = None, unknown_labels: str = "error",
                disagreements_tsv: str | os.PathLike | None = None,
                con: Any = None) -> ConsistencyReport:
    """Seed 002's consistency report between the scholar (rows) and the auditor (columns).

    Give ``pairs`` (merged JSONL) or both ``scholar`` and ``auditor`` (JSONL paths or lists of
    dicts). ``gates`` overrides ``{"pa": 0.90, "kappa": 0.75, "abstain": 0.02}``; ``pass`` is
    decided on unrounded values. A label outside VALID, NOT_IN_CONTEXT, REJECT, ABSTAIN raises
    :class:`InvalidRatingError` naming the qids, unless ``unknown_labels="exclude"``: then those
    rows are left out of every figure and listed under ``unknown_labels``. With
    ``disagreements_tsv`` the disagreements and their arbitration are written as a TSV
    (``qid scholar auditor final why``): never onto an input file, replacing a file already
    there only when complete (agreement_sql.outputs). Kappa is 1.0 when both agents use one same label.
    """
    if unknown_labels not in UNKNOWN:
        raise OptionError(f"unknown_labels must be 'error' or 'exclude', got {unknown_labels!r}")
    gate_values = _gates(gates)
    if pairs is not None and (scholar is not None or auditor is not None):
        raise OptionError("give either pairs or scholar and auditor, not both")
    if pairs is None and (scholar is None or auditor is None):
        raise OptionError("give the merged pairs file, or both the scholar and the auditor files")
    tsv = (Output(disagreements_tsv, "disagreements_tsv", inputs=Inputs.of(pairs, scholar, auditor))
           if disagreements_tsv is not None else None)

    with open_session(con) as session:
        if pairs is not None:
            inputs: dict[str, Any] = {"form": "pairs", "pairs": _describe(pairs)}
            try:
                if routes.consistency_reader(_engine_reads(session, pairs)) != "engine_lines":
                    raise _ReadInPython
                scored = _score(session, _read_by_engine(session, pairs), inputs, unknown_labels,
                                read_by_engine=True)
                routes.fixed("consistency", consistency_input="engine_lines")
            except _ReadInPython:
                routes.consistency_fallback()
                tables = _pairs_tables(pairs)
                options = {**NO_RELATIONS, "input_form": "pairs",
                           "pairs_rel": session.register_arrow(tables["pairs"], "pairs"),
                           "citations_rel": session.register_arrow(tables["citations"], "citations"),
                           "retrieved_rel": session.register_arrow(tables["retrieved"], "retrieved")}
                scored = _score(session, options, inputs, unknown_labels, read_by_engine=False)
        else:
            options = {**NO_RELATIONS, "input_form": "split",
                       "scholar_rel": session.register_arrow(_side_table(scholar, "scholar"), "scholar"),
                       "auditor_rel": session.register_arrow(_side_table(auditor, "auditor"), "auditor")}
            inputs = {"form": "split", "scholar": _describe(scholar), "auditor": _describe(auditor)}
            scored = _score(session, options, inputs, unknown_labels, read_by_engine=False)
    summary, unknown, confusion, arbitration, kappa = scored

    if tsv is not None:
        write_tsv(tsv, arbitration)
    matrix: dict[str, dict[str, int]] = {}
    for cell in confusion:
        matrix.setdefault(cell["scholar"], {})[cell["auditor"]] = int(cell["n"])
    inputs.update(rows_scholar=int(summary["n_rows_scholar"]), rows_auditor=int(summary["n_rows_auditor"]),
                  qids_scholar=int(summary["n_qids_scholar"]), qids_auditor=int(summary["n_qids_auditor"]),
                  joined=int(summary["n_joined"]))
    if pairs is not None:
        for key in ("rows_auditor", "qids_auditor"):
            inputs.pop(key)
        inputs["rows"] = inputs.pop("rows_scholar")
        inputs["qids"] = inputs.pop("qids_scholar")
    pa, abstain = summary["percent_agreement"], summary["abstain_rate"]
    results = {"pa": at_least(pa, gate_values["pa"]), "kappa": at_least(kappa, gate_values["kappa"]),
               "abstain": abstain is not None and settled(abstain) <= gate_values["abstain"]}
    report: ConsistencyReport = {
        "n": int(summary["n"] or 0),
        "percent_agreement": _round4(pa),
        "kappa": _round4(kappa),
        "abstain_rate": _round4(abstain),
        "disagreements": int(summary["disagreements"] or 0),
        "gates": dict(gate_values),
        "pass": all(results.values()),
        "gate_results": results,
        "confusion_matrix": matrix,
        "arbitration": [{k: r[k] for k in TSV_COLUMNS} for r in arbitration],
        "unknown_labels": {"count": int(summary["n_unknown"] or 0),
                        "qids": [r["qid"] for r in unknown]},
        "input": inputs,
        "conventions": {
            "n": "rows where both agents gave a known label (unknown labels are listed, not counted)",
            "abstain_rate": "scholar-side ABSTAIN / n",
            "kappa": "Cohen's kappa on the nominal labels; 1.0 when both agents use one same label",
            "pass": "every gate on unrounded values: pa >= gate, kappa >= gate, abstain_rate <= gate",
            "arbitration": "hard flag -> REJECT/hard_flag; citations not within retrieved_ids -> "
                           "REJECT/citation_out_of_scope; auditor != VALID -> REJECT/auditor_veto; "
                           "scholar in {VALID, NOT_IN_CONTEXT} -> VALID/auditor_ok; else "
                           "REJECT/incoherent_pair (first match wins)",
            "duplicates": "a qid given twice in one file keeps its last line",
            "rounding": "percent_agreement, kappa and abstain_rate to 4 decimals",
        },
    }
    return report


def _engine_reads(session: Session, source: Any) -> bool:
    """The engine has a JSON Lines reader and the source is one plain file it can read (the
    reader would expand a glob; a missing or empty file is the Python reader's to name)."""
    if getattr(session, "read_json_lines", None) is None or not isinstance(source, (str, os.PathLike)):
        return False
    path = os.fspath(source)
    return (isinstance(path, str) and not any(ch in path for ch in "*?[{")
            and os.path.isfile(path) and os.path.getsize(path) > 0)


def _read_by_engine(session: Session, source: Any) -> dict[str, Any]:
    """The options of input form "lines": the pairs file read by the engine's JSON Lines reader
    and flattened (part "lines"), and its repeated qids (part "repeats"), both materialised;
    :class:`_ReadInPython` when the reader refuses a line."""
    read = getattr(session, "read_json_lines")
    path = os.fspath(source)
    try:
        jsonl = read(os.path.abspath(path), PAIRS_COLUMNS)
        lines = run_template(session, "consistency",
                             {**NO_RELATIONS, "input_form": "jsonl", "jsonl_rel": jsonl.name,
                              "part": "lines"}, {}, into="consistency")
    except AgreementError:
        raise _ReadInPython from None
    options = {**NO_RELATIONS, "input_form": "lines", "lines_rel": lines.name}
    repeats = run_template(session, "consistency", {**options, "part": "repeats"}, {},
                           into="consistency")
    return {**options, "repeats_rel": repeats.name}


def _score(session: Session, options: dict[str, Any], inputs: dict[str, Any], unknown_labels: str,
           *, read_by_engine: bool) -> tuple[dict[str, Any], list[dict[str, Any]],
                                             list[dict[str, Any]], list[dict[str, Any]], float | None]:
    """The summary, unknown rows, confusion cells, arbitration and kappa of the prepared input;
    :class:`_ReadInPython` where the engine's reading cannot answer as the Python reader would."""
    def part(name: str) -> list[dict[str, Any]]:
        return query(session, "consistency", {**options, "part": name}, {})

    summary = part("summary")[0]
    if read_by_engine and (summary["n_irregular"] or not summary["n_joined"]):
        raise _ReadInPython
    unknown = part("unknown") if summary["n_unknown"] else []
    if unknown and unknown_labels == "error":
        if read_by_engine:      # the message names lines as the Python reader numbers them
            raise _ReadInPython
        raise InvalidRatingError(_unknown_message(unknown, int(summary["n_unknown"]), inputs))
    if not summary["n_joined"]:
        where = "the two files share no qid" if inputs["form"] == "split" else "the file holds no pair"
        raise SourceError(f"nothing to score: {where}")
    confusion = part("confusion")
    arbitration = part("disagreements")
    kappa = summary["kappa"] if summary["n"] else None
    return summary, unknown, confusion, arbitration, kappa


def write_tsv(path: str | os.PathLike | Output, rows: list[dict[str, Any]]) -> None:
    """The disagreements TSV of seed 002 (header ``qid scholar auditor final why``), written by
    agreement_sql.outputs (``path``: a path, or the Output checked when the call started)."""
    text = io.StringIO()
    writer = csv.writer(text, delimiter="\t", lineterminator="\n")
    writer.writerow(TSV_COLUMNS)
    for r in rows:
        writer.writerow([r[c] for c in TSV_COLUMNS])
    if isinstance(path, Output):
        write_text(path.path, text.getvalue(), path.what, output=path)
    else:
        write_text(path, text.getvalue(), "disagreements_tsv")


def _gates(gates: Mapping[str, float] | None) -> dict[str, float]:
    values = dict(GATES)
    for key, value in (gates or {}).items():
        if key not in GATES:
            raise OptionError(f"unknown gate {key!r}; the gates are pa, kappa and abstain")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise OptionError(f"gate {key} must be a number, got {value!r}") from None
        if number != number:
            raise OptionError(f"gate {key} must be a number, got {value!r}")
        values[key] = number
    return values


def _round4(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _describe(source: Any) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else "records"


def _unknown_message(rows: list[dict[str, Any]], count: int, inputs: dict[str, Any]) -> str:
    shown = []
    for r in rows[:5]:
        bad = [f"{side} {r[side]!r}" for side in RATERS if r[side] not in LABELS]
        line = r["scholar_line"] if r["scholar"] not in LABELS else r["auditor_line"]
        shown.append(f"qid {r['qid']} (line {line}: {', '.join(bad)})")
    more = f" and {count - len(shown)} more" if count > len(shown) else ""
    return (f"{count} row(s) carry a label outside {', '.join(LABELS)}: {'; '.join(shown)}{more}; "
            "fix the labels or pass unknown_labels='exclude' (--unknown-labels exclude) to score "
            "without them")


# --- the Python reader: JSONL lines into flat Arrow relations, errors naming file and line ---

def _records(source: Any, role: str) -> Iterator[tuple[int, str, Mapping[str, Any]]]:
    """(line number, where, record) for every non-blank line; typed errors name file and line."""
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not os.path.exists(path):
            raise SourceError(f"{role} file not found: {path!r}")
        if os.path.isdir(path):
            raise SourceError(f"{role} {path!r} is a folder; give a JSONL file")
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
        found = False
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise SourceError(f"{path!r} line {number}: not valid JSON ({exc.msg} at column "
                                  f"{exc.colno})") from None
            if not isinstance(record, Mapping):
                raise SourceError(f"{path!r} line {number}: expected a JSON object, got "
                                  f"{type(record).__name__}")
            found = True
            yield number, f"{path!r} line {number}", record
        if not found:
            raise SourceError(f"{path!r} is empty (no JSON lines)")
        return
    if isinstance(source, (list, tuple)):
        if not source:
            raise SourceError(f"the {role} records are empty")
        for number, record in enumerate(source, start=1):
            if not isinstance(record, Mapping):
                raise SourceError(f"{role} record {number}: expected a dict, got {type(record).__name__}")
            yield number, f"{role} record {number}", record
        return
    raise SourceError(f"cannot read {role} from a {type(source).__name__}; give a JSONL path or a "
                      "list of dicts")


def _qid(record: Mapping[str, Any], where: str) -> str:
    qid = record.get("qid")
    if qid is None or qid == "" or isinstance(qid, (dict, list, bool)):
        raise ColumnError(f"{where}: no 'qid' (every line needs a qid; keys present: "
                          f"{', '.join(map(repr, record)) or 'none'})")
    return str(qid)


def _label(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value)


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "no")
    return bool(value)


def _ids(value: Any, where: str, key: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise SourceError(f"{where}: {key} must be a list, got {type(value).__name__}")
    return [str(v) for v in value]


def _pairs_tables(source: Any) -> dict[str, Any]:
    import pyarrow as pa

    rows: dict[str, list[Any]] = {k: [] for k in ("line_no", "qid", "scholar_label", "auditor_label",
                                                  "provenance_violation", "constraints_mismatch")}
    cites: dict[str, list[Any]] = {"line_no": [], "citation": []}
    retrieved: dict[str, list[Any]] = {"line_no": [], "retrieved_id": []}
    for number, where, record in _records(source, "pairs"):
        qid = _qid(record, where)
        labels = []
        for side in RATERS:
            judgement = record.get(side)
            if not isinstance(judgement, Mapping):
                raise ColumnError(f"{where}: no {side!r} object (qid {qid}); a merged pairs line "
                                  "needs scholar{label, reason} and auditor{label, reason}")
            labels.append(_label(judgement.get("label")))
        flags = record.get("flags") or {}
        if not isinstance(flags, Mapping):
            raise SourceError(f"{where}: flags must be an object, got {type(flags).__name__}")
        answer = record.get("answer_json") or {}
        if not isinstance(answer, Mapping):
            raise SourceError(f"{where}: answer_json must be an object, got {type(answer).__name__}")
        rows["line_no"].append(number)
        rows["qid"].append(qid)
        rows["scholar_label"].append(labels[0])
        rows["auditor_label"].append(labels[1])
        rows["provenance_violation"].append(_truthy(flags.get("provenance_violation")))
        rows["constraints_mismatch"].append(_truthy(flags.get("constraints_mismatch")))
        for c in dict.fromkeys(_ids(answer.get("citations"), where, "answer_json.citations")):
            cites["line_no"].append(number)
            cites["citation"].append(c)
        for r in dict.fromkeys(_ids(record.get("retrieved_ids"), where, "retrieved_ids")):
            retrieved["line_no"].append(number)
            retrieved["retrieved_id"].append(r)
    return {
        "pairs": pa.table({"line_no": pa.array(rows["line_no"], pa.int64()),
                           "qid": pa.array(rows["qid"], pa.string()),
                           "scholar_label": pa.array(rows["scholar_label"], pa.string()),
                           "auditor_label": pa.array(rows["auditor_label"], pa.string()),
                           "provenance_violation": pa.array(rows["provenance_violation"], pa.bool_()),
                           "constraints_mismatch": pa.array(rows["constraints_mismatch"], pa.bool_())}),
        "citations": pa.table({"line_no": pa.array(cites["line_no"], pa.int64()),
                               "citation": pa.array(cites["citation"], pa.string())}),
        "retrieved": pa.table({"line_no": pa.array(retrieved["line_no"], pa.int64()),
                               "retrieved_id": pa.array(retrieved["retrieved_id"], pa.string())}),
    }


def _side_table(source: Any, role: str) -> Any:
    import pyarrow as pa

    line_no, qids, labels = [], [], []
    for number, where, record in _records(source, role):
        if "label" not in record:
            raise ColumnError(f"{where}: no 'label' (a {role} line needs qid, label, reason; keys "
                              f"present: {', '.join(map(repr, record))})")
        line_no.append(number)
        qids.append(_qid(record, where))
        labels.append(_label(record.get("label")))
    return pa.table({"line_no": pa.array(line_no, pa.int64()), "qid": pa.array(qids, pa.string()),
                     "label": pa.array(labels, pa.string())})
