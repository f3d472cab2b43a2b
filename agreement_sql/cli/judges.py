"""``agreement-sql judges``: inter-judge agreement, Weval-shaped (mirrors :func:`agreement_sql.judge_agreement`)."""
from __future__ import annotations

import argparse
import io

from ..formatting import table
from ..workflows.judges import POINT_FILE_NAMES, SIGMA_THRESHOLD, judge_agreement
from ._common import add_engine_arguments, add_output_arguments, connection, emit, mark


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("judges", help="LLM-judge agreement (Krippendorff's alpha), Weval-shaped",
                       description="Krippendorff's alpha between LLM judges per group (Weval: prompt "
                                   "x model), per rubric point across responses and platform-wide, "
                                   "with the sigma > 0.3 criterion flags and rater diagnostics. "
                                   "Reads a Weval result JSON as it is, or a long table.")
    mark(p, p.add_argument("source", metavar="SOURCE", help="Weval result JSON, or a long table file"),
         "input")
    p.add_argument("--item", default=None, help="rubric point column [Weval: keyPointText]")
    p.add_argument("--rater", default=None, help="judge column [Weval: judgeId]")
    p.add_argument("--value", default=None, help="score column [Weval: coverageExtent]")
    p.add_argument("--group-by", action="append", default=None, metavar="COLUMN",
                   help="one alpha per slice of these columns (repeatable) [Weval: promptId, modelId]")
    p.add_argument("--across", default=None, metavar="COLUMN",
                   help="group_by column a per-point alpha pools over [the last group_by column]")
    p.add_argument("--no-per-point", action="store_true", help="skip the per-point alphas")
    mark(p, p.add_argument("--points-to", default=None, metavar="DIR",
                           help="write the per-point rows to DIR/points.parquet and "
                                "DIR/point_alphas.parquet instead of the report (platform-scale "
                                "inputs; an existing file is not overwritten)"),
         "output_dir", POINT_FILE_NAMES)
    p.add_argument("--level", choices=["interval", "ordinal", "ratio", "nominal"], default="interval",
                   help="level of measurement [interval]")
    p.add_argument("--sigma", type=float, default=SIGMA_THRESHOLD,
                   help=f"flag a point whose judge scores have sigma above this [{SIGMA_THRESHOLD}]")
    p.add_argument("--no-diagnostics", action="store_true", help="skip the rater diagnostics")
    p.add_argument("--max-items", type=int, default=10,
                   help="points listed as driving disagreement in the diagnostics [10]")
    p.add_argument("--on-duplicate", choices=["first", "last", "mean"], default=None,
                   help="how to treat a judge who scored the same point twice [error]")
    add_engine_arguments(p)
    add_output_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    con = connection(args)
    try:
        report = judge_agreement(args.source, item=args.item, rater=args.rater, value=args.value,
                                 group_by=args.group_by, level=args.level,
                                 across=False if args.no_per_point else args.across,
                                 sigma_threshold=args.sigma, diagnostics=not args.no_diagnostics,
                                 max_items=args.max_items, on_duplicate=args.on_duplicate, con=con,
                                 points_to=args.points_to)
    finally:
        con.close()
    emit(args, report, table_text=judges_text)
    return 0


def _fmt(x, spec=".3f"):
    return "—" if x is None else format(x, spec)


def judges_text(report) -> str:
    out = io.StringIO()
    p = report["platform"]
    pooled = p["pooled"]
    out.write(f"Judge agreement ({report['level']} alpha): mean {_fmt(p['meanAlpha'])}, "
              f"min {_fmt(p['minAlpha'])} over {p['numGroupsWithAlpha']} of {p['numGroups']} groups")
    if pooled:
        out.write(f"; pooled {_fmt(pooled['krippendorffsAlpha'])} ({pooled['interpretation']}, "
                  f"{pooled['numItems']} points, {pooled['numJudges']} judges, "
                  f"fingerprint {pooled['judgeSetFingerprint']})")
    out.write("\n\n")
    rows = []
    for g in report["groups"]:
        m = g["judgeAgreement"]
        rows.append({**g["group"], "alpha": m and m["krippendorffsAlpha"],
                     "interpretation": m["interpretation"] if m else "no multi-judge point",
                     "points": m and m["numItems"], "judges": m and m["numJudges"],
                     **({"flagged": len(g["highDisagreementPoints"])}
                        if g["highDisagreementPoints"] is not None else {})})
    out.write(table(rows))
    flagged = [(g["group"], f) for g in report["groups"] for f in g["highDisagreementPoints"] or []]
    if flagged:
        out.write(f"\nPoints with judge sigma > {report['sigmaThreshold']:g}:\n")
        for group, f in flagged:
            where = " / ".join(str(v) for v in group.values())
            out.write(f"  - {where}: {f['pointText']} (sigma {_fmt(f['stdDev'])})\n")
    for name, file in report.get("pointFiles", {}).items():
        out.write(f"\nPer-point rows ({name}): {file['rows']} in {file['path']}\n")
    low = [pt for pt in report["perPoint"] or [] if pt["interpretation"] in ("unreliable", "unstable")]
    if low:
        out.write(f"\nRubric points with low agreement across responses ({len(low)}):\n")
        for pt in low:
            where = " / ".join(str(v) for v in pt["group"].values())
            out.write(f"  - {where}: {pt['pointText']} (alpha {_fmt(pt['alpha'])}, {pt['interpretation']})\n")
    if report["diagnostics"]:
        out.write("\n" + diagnostics_text(report["diagnostics"]))
    return out.getvalue()


def diagnostics_text(d) -> str:
    out = io.StringIO()
    group = d.get("group")
    title = f"Rater diagnostics ({d['metric']}{'; ' + ', '.join(f'{k}={v}' for k, v in group.items()) if group else ''}; "
    out.write(title + f"alpha {_fmt(d['alpha'])})\n")
    bias = {b["rater"]: b["offset"] for b in d["bias"] if b["category"] is None}
    rows = [{"rater": r["rater"], "ratings": r["n_ratings"], "agree %": r["agreement_with_others"],
             "mean |diff|": r["mean_abs_difference"], "alpha without": r["alpha_without"],
             **({"bias": bias.get(r["rater"])} if bias else {})} for r in d["raters"]]
    out.write(table(rows))
    cats = [b for b in d["bias"] if b["category"] is not None]
    if cats:
        out.write("\n" + table([{"rater": b["rater"], "category": b["category"], "share": b["rater_value"],
                                 "others": b["others_value"], "offset": b["offset"]} for b in cats]))
    if d["pairs"]:
        out.write("\n" + table([{"pair": f"{p['rater_a']} ~ {p['rater_b']}", "shared": p["n_items"],
                                 "exact %": p["exact_agreement"], "alpha": p["alpha"]} for p in d["pairs"]]))
    if d["items"]:
        out.write("\nItems driving disagreement:\n")
        for it in d["items"]:
            ratings = ", ".join(f"{k}={v}" for k, v in it["ratings"].items())
            out.write(f"  {it['rank']}. {it['item']} ({_fmt(it['disagreement_share'] * 100, '.1f')}% of "
                      f"disagreement): {ratings}\n")
    for note in d["notes"]:
        out.write(f"note: {note}\n")
    return out.getvalue()
