"""Output formats for the CLI: JSON (default), a readable terminal table, CSV; and the one
escape every text output applies to what it shows (:func:`shown`)."""
from __future__ import annotations

import csv
import io
import json
import math
from typing import Any, Iterable, Sequence

# Characters a text output never writes as they are (docs/decisions/0016): C0 controls
# (U+0000-U+001F: escape sequences, carriage return, newline, tab), DEL (U+007F), C1 controls
# (U+0080-U+009F, CSI U+009B among them), the bidirectional formatting characters (U+061C,
# U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: they reorder what a terminal or browser shows,
# "Trojan Source") and the line and paragraph separators (U+2028, U+2029). Each is written
# as Python writes it in a string literal: \t, \n, \r, else \xHH below U+0100 and \uHHHH
# above; a backslash is doubled, so the escaped text reads back to exactly the original.
ESCAPED = frozenset([*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F,
                     *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029])
_NAMED = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}
_CONTROLS = {c: _NAMED.get(c) or (f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}") for c in ESCAPED}
_TABLE = {0x5C: "\\\\", **_CONTROLS}


def shown(text: str) -> str:
    """``text`` safe to show: every character of :data:`ESCAPED` and the backslash escaped.

    >>> shown("a\\x1b[31mb\\nc\\u202e")
    'a\\\\x1b[31mb\\\\nc\\\\u202e'
    """
    return text.translate(_TABLE)


def shown_message(text: str) -> str:
    """A message (an error or warning line) safe to show: every character of :data:`ESCAPED`
    escaped, its own backslashes kept (messages write names with ``repr``, which already
    escapes a backslash, so doubling would show each twice)."""
    return text.translate(_CONTROLS)


def shown_all(value: Any) -> Any:
    """``value`` with every text in it (dict keys too) passed through :func:`shown`."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {shown_all(k): shown_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shown_all(v) for v in value]
    if isinstance(value, tuple):
        return tuple(shown_all(v) for v in value)
    return value


def to_json(result: Any) -> str:
    return json.dumps(result, indent=2, allow_nan=False, default=str) + "\n"


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}" if abs(value) < 1e4 else f"{value:.6g}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, default=str)
    return str(value)


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None,
          title: str | None = None) -> str:
    """Rows as an aligned plain-text table."""
    if not rows:
        return (title + "\n" if title else "") + "(no rows)\n"
    columns = list(columns or rows[0].keys())
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    out = io.StringIO()
    if title:
        out.write(title + "\n")
    out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() + "\n")
    return out.getvalue()


def flatten(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nested dicts become dotted columns (``group.Module``), for table and CSV output."""
    flat = []
    for row in rows:
        item: dict[str, Any] = {}
        for key, value in row.items():
            if isinstance(value, dict):
                for sub, v in value.items():
                    item[f"{key}.{sub}"] = v
            else:
                item[key] = value
        flat.append(item)
    return flat


def to_csv(rows: Sequence[dict[str, Any]]) -> str:
    rows = flatten(rows)
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("" if v is None else json.dumps(v) if isinstance(v, (list, dict)) else v)
                         for k, v in r.items()})
    return out.getvalue()


def irr_table(report: dict[str, Any]) -> str:
    """The workshop IRR report as a terminal summary."""
    if "error" in report:
        return f"IRR not computed: {report['error']}\n"
    out = io.StringIO()
    ready = "READY to proceed" if report["ready_to_proceed"] else "NOT ready to proceed"
    out.write(f"Inter-rater reliability: {report['score']:.1f}% pairwise agreement "
              f"({report['interpretation']}) - {ready} (threshold {report['threshold']:g}%)\n")
    if "human_agreement" in report:
        out.write(f"GDPval A^HH: {report['human_agreement']:.3f}\n")
    out.write(f"{report['num_raters']} raters, {report['num_traces']} traces, "
              f"{report['num_annotations']} annotations, completeness {report['completeness']:.3f}\n\n")
    rows = [{"question": q, "scale": "binary" if m["is_binary"] else "likert",
             "score": m["score"], "exact %": m["exact_agreement"], "adjacent %": m["adjacent_agreement"],
             "A^HH": m["human_agreement"], "alpha": m["krippendorff_alpha"],
             "ok": m["acceptable"], "interpretation": m["interpretation"]}
            for q, m in report["per_metric_scores"].items()]
    out.write(table(rows))
    for q, m in report["per_metric_scores"].items():
        if m["suggestions"]:
            out.write(f"\n{q}:\n" + "".join(f"  - {s}\n" for s in m["suggestions"]))
    if report["problematic_patterns"]:
        out.write("\nProblematic patterns:\n" + "".join(f"  - {p}\n" for p in report["problematic_patterns"]))
    top = [t for t in report["trace_disagreements"] if t["priority"]]
    if top:
        out.write("\nPriority discussion needed:\n")
        out.write(table([{"trace": t["trace_id"], "question": t["metric"], "sigma": t["std_dev"],
                          "label": t["label"]} for t in top]))
    return out.getvalue()
