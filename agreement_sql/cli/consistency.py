"""``agreement-sql consistency``: scholar vs auditor consistency with CI gates (mirrors
:func:`agreement_sql.consistency`). Exit 0 when every gate passes, 3 when one fails."""
from __future__ import annotations

import argparse
import io

from ..errors import OptionError
from ..formatting import table
from ..workflows.consistency import consistency
from ._common import add_output_arguments, emit, mark, parse_pairs

GATE_FAILED = 3


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("consistency", help="cross-agent consistency (scholar vs auditor) with CI gates",
                       description="Percent agreement, Cohen's kappa and the scholar-side abstain rate "
                                   "between two validator agents, gated for CI (exit 3 when a gate "
                                   "fails), with the arbitration of every disagreement.")
    mark(p, p.add_argument("pairs", nargs="?", default=None, metavar="PAIRS",
                           help="merged pairs JSONL (or give --scholar and --auditor)"), "input")
    mark(p, p.add_argument("--pairs", dest="pairs_option", default=None, metavar="PATH",
                           help="merged pairs JSONL (same as the positional argument)"), "input")
    mark(p, p.add_argument("--scholar", default=None, metavar="PATH",
                           help="scholar JSONL {qid, label, reason}"), "input")
    mark(p, p.add_argument("--auditor", default=None, metavar="PATH",
                           help="auditor JSONL {qid, label, reason}"), "input")
    p.add_argument("--gate", action="append", default=None, metavar="NAME=VALUE",
                   help="pa=0.90, kappa=0.75, abstain=0.02 (repeatable; the defaults shown)")
    mark(p, p.add_argument("--disagreements", default=None, metavar="PATH",
                           help="write the disagreements TSV (qid scholar auditor final why) "
                                "here (never onto an input)"), "output")
    p.add_argument("--unknown-labels", choices=["error", "exclude"], default="error",
                   help="a label outside the four: stop with an error, or leave the row out and list it [error]")
    add_output_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.pairs and args.pairs_option and args.pairs != args.pairs_option:
        raise OptionError("give the pairs file once (positional or --pairs)")
    gates = {}
    for name, text in parse_pairs(args.gate, "--gate").items():
        try:
            gates[name] = float(text)
        except ValueError:
            raise OptionError(f"--gate {name} must be a number, got {text!r}") from None
    report = consistency(args.pairs or args.pairs_option, scholar=args.scholar, auditor=args.auditor,
                         gates=gates, unknown_labels=args.unknown_labels,
                         disagreements_tsv=args.disagreements)
    emit(args, report, table_text=consistency_text)
    return 0 if report["pass"] else GATE_FAILED


def _fmt(x, spec=".4f"):
    return "—" if x is None else format(x, spec)


def consistency_text(r) -> str:
    out = io.StringIO()
    g, ok = r["gates"], r["gate_results"]
    out.write(f"{'PASS' if r['pass'] else 'FAIL'}: n {r['n']}, disagreements {r['disagreements']}\n")
    out.write(table([
        {"gate": "percent agreement", "value": _fmt(r["percent_agreement"]), "rule": f">= {g['pa']:g}", "ok": ok["pa"]},
        {"gate": "kappa", "value": _fmt(r["kappa"]), "rule": f">= {g['kappa']:g}", "ok": ok["kappa"]},
        {"gate": "abstain rate", "value": _fmt(r["abstain_rate"]), "rule": f"<= {g['abstain']:g}", "ok": ok["abstain"]},
    ]))
    out.write("\nConfusion (rows scholar, columns auditor):\n")
    labels = list(r["confusion_matrix"])
    out.write(table([{"scholar": s, **{a: r["confusion_matrix"][s][a] for a in labels}} for s in labels]))
    if r["arbitration"]:
        out.write("\nArbitration of the disagreements:\n")
        out.write(table(r["arbitration"]))
    if r["unknown_labels"]["count"]:
        out.write(f"\nLeft out, unknown label: {', '.join(r['unknown_labels']['qids'])}\n")
    return out.getvalue()
