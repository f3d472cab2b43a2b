"""The coefficient commands, one per registry entry (``fleiss-kappa``, ``krippendorff-alpha``,
...), and ``coefficients`` (several in one statement). Each mirrors the Python function of the
same name; the arguments a command takes follow what its registry entry supports."""
from __future__ import annotations

import argparse
import csv
import json
import math
from typing import Any

from ..errors import OptionError
from ..formatting import flatten, table
from ..metrics.coefficients import coefficients
from ..parameters import DEFAULT_LEVEL, DISTANCES, LEVELS
from ..metrics.functions import FUNCTIONS
from ..registry import REGISTRY, Coefficient
from ._common import (add_output_arguments, add_source_arguments, connection, emit, long_table,
                      mark, source_keywords)

TABLE_COLUMNS = ["metric", "group", "coefficient", "level", "distance", "value", "se", "ci_low", "ci_high",
                 "ci_method", "observed_agreement", "chance_agreement", "observed_disagreement",
                 "expected_disagreement", "n_items", "n_raters", "n_values", "n_categories",
                 "weights", "interpretation"]


def register(sub: argparse._SubParsersAction) -> None:
    for entry in REGISTRY.values():
        command = entry.name.replace("_", "-")
        p = sub.add_parser(command, help=entry.title,
                           description=f"{entry.title} per metric and slice. Source: {entry.source}.")
        _arguments(p, entry)
        p.set_defaults(run=_runner(entry))
    p = sub.add_parser("coefficients", help="several coefficients in one statement",
                       description="Every requested agreement coefficient per metric and slice, "
                                   "computed by one SQL statement over one pass of the ratings.")
    _arguments(p, None)
    p.add_argument("--which", action="append", default=None, metavar="NAME",
                   help=f"a coefficient to compute (repeatable): {', '.join(REGISTRY)} [all that apply]")
    p.set_defaults(run=_run_coefficients)


def _arguments(p: argparse.ArgumentParser, entry: Coefficient | None) -> None:
    add_source_arguments(p, group_by=True)
    if entry is None or entry.levels:
        p.add_argument("--level", choices=list(LEVELS), default=None,
                       help=f"Krippendorff's level of measurement [{DEFAULT_LEVEL}]")
        p.add_argument("--distance", choices=list(DISTANCES), default=None,
                       help="alpha's distance in place of the level's, between set-valued "
                            "labels (with --set-separator): MASI (Passonneau 2006) or Jaccard, "
                            "as nltk's masi_distance and jaccard_distance (masi_rounded: nltk's "
                            "former MASI, M = 0.67 and 0.33)")
        mark(p, p.add_argument("--distance-matrix", default=None, metavar="FILE",
                               help="alpha's distance in place of the level's: a CSV with "
                                    "columns a, b, d, a row per pair of labels (every pair, "
                                    "symmetric, 0 on the diagonal)"), "input")
    p.add_argument("--set-separator", default=None, metavar="TEXT",
                   help="every rating is a set of labels joined by TEXT (e.g. '|'), read as its "
                        "canonical form (trimmed, de-duplicated, sorted)")
    if entry is None or entry.weighted:
        p.add_argument("--weights", default=None,
                       help="linear, quadratic, or a JSON weight matrix: a list of rows in "
                            "--categories order, or {row: {column: weight}} [unweighted]")
        p.add_argument("--weight-basis", choices=["value", "position"], default="value",
                       help="weights from category values (or declared order) or from sorted "
                            "positions, as scikit-learn [value]")
    p.add_argument("--categories", "--domain", dest="categories", default=None, metavar="C1,C2,...",
                   help="the declared categories in order, e.g. 1,2,3,4,5 or low,mid,high")
    if entry is None or entry.named_raters:
        p.add_argument("--raters", default=None, metavar="A,B",
                       help="the raters to compare (the first in the rows), comma-separated")
    if entry is None or entry.marginals:
        p.add_argument("--marginals", choices=["pairwise", "gwet"], default=None,
                       help="Cohen's/Light's kappa and Scott's pi with missing ratings: marginals "
                            "over the units both raters rated, or over every unit each rater "
                            "rated (Gwet 2014, irrCAC) [pairwise]")
    if entry is None or entry.weighted:
        p.add_argument("--asymmetric-weights", choices=["error", "symmetrize", "oriented"],
                       default=None,
                       help="an asymmetric --weights matrix in a coefficient whose raters are "
                            "interchangeable: an error, (W + W^T) / 2, or kept in two raters' "
                            "table, rows the first rater (irrCAC's *.table; Gwet, "
                            "Brennan-Prediger, percent agreement) [error]")
    if entry is None or entry.analytic_se:
        p.add_argument("--variance", choices=["irrcac_raw", "irrcac_table"], default=None,
                       help="the analytic variance's divisor as irrCAC's *.raw (n - 1) or "
                            "*.table (n) functions [each coefficient's own]")
        p.add_argument("--inference", choices=["normal", "irrcac"], default=None,
                       help="analytic intervals and tests: normal quantiles with each "
                            "coefficient's null variance, or irrCAC's Student's t on n - 1 df, "
                            "the upper end at most 1 [normal]")
    if entry is not None and entry.sklearn_options:
        p.add_argument("--labels", default=None, metavar="C1,C2,...",
                       help="scikit-learn's labels=: the categories counted, in order; ratings "
                            "outside them are left out with their pairs (and counted)")
        p.add_argument("--sample-weight", default=None, metavar="JSON",
                       help="scikit-learn's sample_weight=: a JSON object {unit: weight}, or a "
                            "JSON list of weights in row order (--layout wide without --item)")
    p.add_argument("--ci", type=float, default=None, metavar="LEVEL",
                   help="add a standard error and interval at this level, e.g. 0.95")
    p.add_argument("--ci-method", choices=["analytic", "bootstrap"], default=None,
                   help="interval method: the analytic standard error, or a unit-resampling "
                        "bootstrap run in the database [analytic where one exists, else bootstrap]")
    p.add_argument("--n-boot", type=int, default=None, metavar="N", help="bootstrap replicates [1000]")
    p.add_argument("--seed", type=int, default=None, help="bootstrap seed [1]")
    add_output_arguments(p, formats=("json", "table", "csv"))


def parse_weights(text: str | None) -> Any:
    if text is None:
        return None
    if text.strip().lower() in ("linear", "quadratic", "unweighted", "none"):
        return text.strip().lower()
    try:
        return json.loads(text)
    except ValueError:
        raise OptionError(f"--weights must be linear, quadratic or a JSON matrix, got {text!r}") from None


def parse_categories(text: str | None) -> list[Any] | None:
    """``"1,2,3"`` -> ``[1, 2, 3]``; ``"low,mid,high"`` -> labels. Numbers only if every entry is one."""
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if not parts or any(p == "" for p in parts):
        raise OptionError(f"--categories must be a comma-separated list of values, got {text!r}")
    numbers: list[Any] = []
    for part in parts:
        try:
            number = float(part)
        except ValueError:
            return parts
        if not math.isfinite(number):
            return parts
        numbers.append(int(number) if number.is_integer() and "." not in part
                       and "e" not in part.lower() else number)
    return numbers


def _keywords(args: argparse.Namespace) -> dict[str, Any]:
    keywords = dict(source_keywords(args), categories=parse_categories(args.categories),
                    ci=args.ci, ci_method=args.ci_method, n_boot=args.n_boot, seed=args.seed)
    if hasattr(args, "weights"):
        keywords.update(weights=parse_weights(args.weights), weight_basis=args.weight_basis)
    if hasattr(args, "level"):
        keywords["level"] = args.level
        if args.distance is not None and args.distance_matrix is not None:
            raise OptionError("give --distance or --distance-matrix, not both")
        if args.distance is not None or args.distance_matrix is not None:
            keywords["distance"] = (args.distance if args.distance is not None
                                    else read_distance_matrix(args.distance_matrix))
    if args.set_separator is not None:
        keywords["set_separator"] = args.set_separator
    if getattr(args, "raters", None):
        keywords["raters"] = [r.strip() for r in args.raters.split(",")]
    for name in ("marginals", "asymmetric_weights", "variance", "inference"):
        if getattr(args, name, None) is not None:
            keywords[name] = getattr(args, name)
    if getattr(args, "labels", None) is not None:
        keywords["labels"] = parse_categories(args.labels)
    if getattr(args, "sample_weight", None) is not None:
        keywords["sample_weight"] = parse_sample_weight(args.sample_weight)
    return keywords


def read_distance_matrix(path: str) -> dict[tuple[str, str], str]:
    """A --distance-matrix CSV (columns a, b, d) as the {(a, b): d} it holds: labels as text,
    matched like ratings, d checked by the Python API (agreement_sql.metrics.weights)."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
            names = rows[0].keys() if rows else []
    except OSError as exc:
        raise OptionError(f"--distance-matrix: cannot read {path!r}: {exc.strerror}") from None
    missing = [c for c in ("a", "b", "d") if c not in names]
    if missing:
        raise OptionError(f"--distance-matrix {path!r} needs the columns a, b and d (a row per "
                          f"pair of labels); it has no column {missing[0]!r}")
    cells: dict[tuple[str, str], str] = {}
    for row in rows:
        pair = (row["a"], row["b"])
        if pair in cells:
            raise OptionError(f"--distance-matrix {path!r} gives the pair {pair!r} more than once")
        cells[pair] = row["d"]
    return cells
def parse_sample_weight(text: str) -> Any:
    """``--sample-weight``'s JSON: an object {unit: weight} or a list of weights."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, (dict, list)):
        raise OptionError(f"--sample-weight must be a JSON object {{unit: weight}} or a JSON list "
                          f"of weights, got {text!r}")
    return value


def _runner(entry: Coefficient) -> Any:
    function = FUNCTIONS[entry.name]

    def run(args: argparse.Namespace) -> int:
        engine = connection(args)
        try:
            result = function(args.source, con=engine, **_keywords(args))
        finally:
            engine.close()
        emit(args, result, table_text=_table)
        return 0
    return run


def _run_coefficients(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = coefficients(args.source, which=args.which, con=engine, **_keywords(args))
    finally:
        engine.close()
    if args.format == "json" or long_table(args):
        emit(args, result)
    else:
        emit(args, rows_of(result), table_text=_table)
    return 0


def rows_of(result: Any) -> list[dict[str, Any]]:
    """``coefficients()`` output as one row per (metric, slice, coefficient)."""
    if isinstance(result, dict):
        return [dict(r) for r in result.values()]
    rows = []
    for entry in result:
        for r in entry["coefficients"].values():
            row = {"metric": entry["metric"]}
            if "group" in entry:
                row["group"] = entry["group"]
            row.update({k: v for k, v in r.items() if k not in row})
            rows.append(row)
    return rows


def _table(result: Any) -> str:
    rows = flatten(result if isinstance(result, list) else [result])
    columns = [c for c in TABLE_COLUMNS if any(c in r for r in rows)]
    columns += [c for c in rows[0] if c.startswith("group.") and c not in columns]
    columns.sort(key=lambda c: TABLE_COLUMNS.index(c.split(".")[0]))
    text = table(rows, columns)
    # a coefficient left out by default says so under the table (the JSON has `skipped`)
    for r in rows:
        if r.get("skipped"):
            where = f" for metric {r['metric']!r}" if r.get("metric") is not None else ""
            where += "".join(f", {k[len('group.'):]}={v!r}" for k, v in r.items()
                             if k.startswith("group."))
            text += (f"note: {r['coefficient']}{where} {r['skipped']} "
                     f"(command line: --which {r['coefficient']})\n")
    return text
