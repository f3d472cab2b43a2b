"""``agreement-sql alt-test``: may an LLM judge replace a human annotator? (mirrors
:func:`agreement_sql.alt_test`, the alternative annotator test of Calderon, Reichart & Dror 2025).

Exit 0 when every judge passed, 3 when one failed or could not be tested (the package's gates
exit 3, as ``consistency`` does when a gate fails), 1 on an error."""
from __future__ import annotations

import argparse

from ..errors import OptionError
from ..formatting import table
from ..results import AltTestResult
from ..workflows.alt_test import MIN_ITEMS, SCORINGS, alt_test
from ._common import add_output_arguments, add_source_arguments, connection, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("alt-test", help="the alternative annotator test: may an LLM judge replace a human?",
                       description="For each judge: against each human, a one-sided t-test of "
                                   "whether the judge represents the other humans at least as well "
                                   "(less epsilon), Benjamini-Yekutieli over the humans; the "
                                   "winning rate (passed at 0.5) and the advantage probability. "
                                   "Every rater not named in --judges is a human. Exit 3 when a "
                                   "judge fails.")
    add_source_arguments(p, group_by=True)
    add_alt_test_arguments(p, required=True)
    add_output_arguments(p)
    p.set_defaults(run=run)


def add_alt_test_arguments(p: argparse.ArgumentParser, *, required: bool) -> None:
    """--judges and the test's options (``agreement-sql report`` takes them too)."""
    p.add_argument("--judges", required=required, metavar="A,B",
                   help="the LLM judges' rater ids, comma-separated (every other rater is a human)"
                        + ("" if required else "; adds the alternative annotator test to the page"))
    p.add_argument("--epsilon", type=float, default=0.2,
                   help="the advantage granted to a judge: 0.2 expert humans, 0.15 skilled "
                        "annotators, 0.1 crowd workers (the paper's guidance) [0.2]")
    p.add_argument("--scoring", choices=list(SCORINGS), default="accuracy",
                   help="accuracy (labels) or neg_rmse (numbers) [accuracy]")
    p.add_argument("--q", type=float, default=0.05,
                   help="false discovery rate of the Benjamini-Yekutieli procedure [0.05]")
    p.add_argument("--min-humans", type=int, default=2,
                   help="human labels an instance needs to enter [2]")
    p.add_argument("--min-items", type=int, default=MIN_ITEMS,
                   help=f"instances a human needs to be tested (at least {MIN_ITEMS}) [{MIN_ITEMS}]")


def judge_names(text: str) -> list[str]:
    judges = [j.strip() for j in text.split(",") if j.strip()]
    if not judges:
        raise OptionError("--judges must name at least one rater id, e.g. --judges gpt-4o,claude")
    return judges


def alt_test_keywords(args: argparse.Namespace) -> dict[str, object]:
    """The test's options from the command line (for report()'s alt_test_options)."""
    return {"epsilon": args.epsilon, "scoring": args.scoring, "q": args.q,
            "min_humans": args.min_humans, "min_items": args.min_items}


def run(args: argparse.Namespace) -> int:
    judges = judge_names(args.judges)
    con = connection(args)
    try:
        result = alt_test(args.source, judges=judges, epsilon=args.epsilon, scoring=args.scoring,
                          q=args.q, min_humans=args.min_humans, min_items=args.min_items, con=con,
                          item=args.item, rater=args.rater, value=args.value, metric=args.metric,
                          group_by=args.group_by, on_duplicate=args.on_duplicate,
                          missing=args.missing)
    finally:
        con.close()
    results = result if isinstance(result, list) else [result]
    emit(args, result, table_text=lambda shown: "\n".join(
        alt_test_text(r) for r in (shown if isinstance(shown, list) else [shown])))
    return 0 if all(j["passed"] for r in results for j in r["judges"]) else 3


def _two(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def alt_test_text(r: AltTestResult) -> str:
    """One result as text: a line per judge, best advantage probability first."""
    where = f"{r['metric']}" + (f" {r['group']}" if "group" in r else "")
    alpha = "—" if r["human_alpha"] is None else f"{r['human_alpha']:.3f}"
    head = (f"Alternative annotator test on {where} ({r['scoring']}, epsilon {r['epsilon']:g}, "
            f"q {r['q']:g}): {len(r['judges'])} judge(s), {len(r['humans'])} human(s), "
            f"{r['n_instances']} instances; humans' alpha {alpha} ({r['human_alpha_level']})")
    ranked = sorted(r["judges"], key=lambda j: (j["advantage_probability"] is None,
                                                -(j["advantage_probability"] or 0.0), j["judge"]))
    rows = [{"judge": j["judge"], "winning_rate": _two(j["winning_rate"]),
             "advantage_probability": _two(j["advantage_probability"]),
             "result": "UNTESTED" if j["passed"] is None else "PASSED" if j["passed"] else "FAILED",
             "won/tested": f"{j['n_humans_won']}/{j['n_humans_tested']}",
             "instances": j["n_items"]} for j in ranked]
    notes = []
    for j in r["judges"]:
        if j["excluded_humans"]:
            shown = ", ".join(f"{h['human']} ({h['n_items']})" for h in j["excluded_humans"][:8])
            notes.append(f"note: {j['judge']}: humans not tested (fewer than {r['min_items']} "
                         f"instances): {shown}" + (", ..." if len(j["excluded_humans"]) > 8 else ""))
    return head + "\n" + table(rows) + "".join(n + "\n" for n in notes)
