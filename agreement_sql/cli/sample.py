"""``agreement-sql sample``: draw the calibration sample of seed 003 (mirrors
:func:`agreement_sql.calibration_sample`)."""
from __future__ import annotations

import argparse
import io

from ..formatting import table
from ..workflows.sample import calibration_sample
from ._common import emit, mark


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sample", help="draw a seeded calibration sample from an evaluation sheet",
                       description="Dev and Test rows only (never Train), stratified per Scenario, "
                                   "balanced PASS/FAIL by the LLM verdict, drawn by a seeded portable "
                                   "hash; written as a CSV with the annotator columns empty.")
    mark(p, p.add_argument("source", metavar="SOURCE", help="the full evaluation sheet CSV"), "input")
    p.add_argument("--n-per-stratum", type=int, default=4, help="rows per scenario [4]")
    p.add_argument("--seed", type=int, default=0, help="the draw's seed [0]")
    mark(p, p.add_argument("--output", "-o", default=None, metavar="PATH",
                           help="write the sample CSV here (annotator columns empty; never onto "
                                "the sheet it is drawn from); the summary goes to stdout"),
         "output")
    p.add_argument("--stratum", default="Scenario", help="stratum column [Scenario]")
    p.add_argument("--hide-judge", action="store_true",
                   help="also empty the LLM judge columns (annotators blind to the judge)")
    p.add_argument("--format", choices=["json", "table"], default="json", help="summary format [json]")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    summary = calibration_sample(args.source, args.n_per_stratum, args.seed, output=args.output,
                                 stratum_column=args.stratum, hide_judge=args.hide_judge)
    emit(argparse.Namespace(format=args.format, output=None), summary, table_text=sample_text)
    return 0


def sample_text(s) -> str:
    out = io.StringIO()
    out.write(f"Drew {s['drawn']} rows (PASS {s['by_verdict']['PASS']}, FAIL {s['by_verdict']['FAIL']}; "
              f"Dev {s['by_split']['Dev']}, Test {s['by_split']['Test']}) with seed {s['seed']}, "
              f"{s['n_per_stratum']} per stratum; Train rows left out: {s['excluded']['train_rows']}\n")
    if s["output"]:
        out.write(f"written to {s['output']} (empty: {', '.join(s['blanked_columns'])})\n")
    out.write("\n" + table([{"stratum": t["stratum"], "PASS": t["drawn"]["PASS"], "FAIL": t["drawn"]["FAIL"],
                             "Dev": t["drawn_by_split"]["Dev"], "Test": t["drawn_by_split"]["Test"],
                             "available P/F": f"{t['available']['PASS']}/{t['available']['FAIL']}",
                             "short": t["shortfall"]} for t in s["strata"]]))
    return out.getvalue()
