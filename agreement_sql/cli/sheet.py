"""``agreement-sql sheet``: the Cohen's kappa evaluation sheet (mirrors :func:`agreement_sql.evaluation_sheet`)."""
from __future__ import annotations

import argparse
import io

from ..formatting import table
from ..workflows.sheet import TARGET, evaluation_sheet
from ._common import add_engine_arguments, add_output_arguments, connection, emit, mark
from .judges import diagnostics_text


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sheet", help="evaluation sheet: annotator kappas, LLM judge vs humans",
                       description="Cohen's kappa and percent agreement between the annotators of a "
                                   "seed-003 evaluation sheet (Fleiss' kappa for more than two), the LLM "
                                   "judge against each annotator and the consensus, per Dataset_Split, "
                                   "Module and Scenario; Train rows are left out unless --include-train.")
    mark(p, p.add_argument("source", metavar="SOURCE", help="the evaluation sheet CSV"), "input")
    p.add_argument("--include-train", action="store_true", help="count Train rows too (inflates kappa)")
    p.add_argument("--target", type=float, default=TARGET, help=f"kappa target [{TARGET}]")
    p.add_argument("--breakdown", action="append", default=None, metavar="COLUMN",
                   help="break down by this column (repeatable) [Dataset_Split, Module, Scenario]")
    p.add_argument("--no-diagnostics", action="store_true", help="skip the rater diagnostics")
    p.add_argument("--max-items", type=int, default=10, help="samples listed in the diagnostics [10]")
    add_engine_arguments(p)
    add_output_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        report = evaluation_sheet(args.source, include_train=args.include_train, target=args.target,
                                  breakdowns=args.breakdown, diagnostics=not args.no_diagnostics,
                                  max_items=args.max_items, con=con)
    finally:
        con.close()
    emit(args, report, table_text=sheet_text)
    return 0


def _fmt(x, spec=".4f"):
    return "—" if x is None else format(x, spec)


def sheet_text(r) -> str:
    out = io.StringIO()
    a = r["annotator_agreement"]
    name = "Cohen's kappa" if a["coefficient"] == "cohen_kappa" else "Fleiss' kappa"
    out.write(f"{r['source']}: {len(r['annotators'])} annotators, {a['n']} samples labelled by two or more\n")
    for note in r["notes"]:
        out.write(f"note: {note}\n")
    out.write(f"Simple Agreement: {_fmt(a['percent_agreement'], '.1f')}%\n")
    out.write(f"{name}: {_fmt(a['kappa'])} ({a['interpretation']}) - target >= {r['target']:g} "
              f"{'met' if a['target_met'] else 'NOT met'}\n")
    if len(a["pairs"]) > 1:
        out.write("\n" + table([{"pair": " ~ ".join(p["raters"]), "n": p["n"], "kappa": p["kappa"],
                                 "agree %": p["percent_agreement"], "label": p["interpretation"]}
                                for p in a["pairs"]]))
    j = r["llm_judge"]
    if j:
        rows = [{"LLM judge vs": p["annotator"], "n": p["n"], "kappa": p["kappa"],
                 "agree %": p["percent_agreement"], "label": p["interpretation"]} for p in j["vs_annotators"]]
        if j.get("vs_consensus"):
            c = j["vs_consensus"]
            rows.append({"LLM judge vs": "consensus", "n": c["n"], "kappa": c["kappa"],
                         "agree %": c["percent_agreement"], "label": c["interpretation"]})
        out.write("\n" + table(rows))
    for column, levels in r["breakdowns"].items():
        rows = [{column: lv["level"], "n": lv["n"], "kappa": lv["kappa"], "agree %": lv["percent_agreement"],
                 "label": lv["interpretation"], "target": lv["target_met"],
                 **({"LLM~consensus": lv["llm_vs_consensus"]["kappa"]} if "llm_vs_consensus" in lv else {})}
                for lv in levels]
        out.write("\n" + table(rows))
    if r["disagreements"]:
        out.write(f"\nFor the consensus round ({len(r['disagreements'])} samples):\n")
        out.write(table(r["disagreements"]))
    if r["diagnostics"]:
        out.write("\n" + diagnostics_text(r["diagnostics"]))
    return out.getvalue()
