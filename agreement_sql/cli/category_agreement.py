"""``agreement-sql category-agreement``: each category's kappa against the rest, its test, and
its specific agreement (mirrors :func:`agreement_sql.category_agreement`)."""
from __future__ import annotations

import argparse
from typing import Any

from ..formatting import flatten, table
from ..metrics.categories import category_agreement
from ._common import (add_output_arguments, add_source_arguments, connection, emit, long_table,
                      source_keywords)
from .coefficients import parse_categories

COLUMNS = ["metric", "category", "n_ratings", "n_units", "share", "kappa", "se0", "z", "p_value",
           "specific_agreement"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("category-agreement",
                       help="per category: kappa against the rest, its test, specific agreement",
                       description="Per metric, slice and category: Fleiss' kappa of the category "
                                   "against the rest with its z test (R irr's kappam.fleiss("
                                   "detail=TRUE)), and the specific agreement on it (positive and "
                                   "negative agreement for binary labels), from one statement.")
    add_source_arguments(p, group_by=True)
    p.add_argument("--categories", "--domain", dest="categories", default=None,
                   metavar="C1,C2,...",
                   help="the declared categories in order (an unused one is listed too), e.g. "
                        "1,2,3,4,5 or no,yes")
    p.add_argument("--incomplete-units", choices=["keep", "drop"], default="keep",
                   help="units not rated by every rater: keep them (the general form) or drop "
                        "them, as R irr's kappam.fleiss does (na.omit) [keep]")
    add_output_arguments(p, formats=("json", "table", "csv"))
    p.set_defaults(run=run)


def category_rows(result: Any) -> list[dict[str, Any]]:
    """One row per slice and category: the slice's metric and group, the category's fields."""
    out: list[dict[str, Any]] = []
    for entry in result if isinstance(result, list) else [result]:
        for record in entry["categories"]:
            row: dict[str, Any] = {"metric": entry["metric"]}
            if "group" in entry:
                row["group"] = entry["group"]
            row.update(record)
            out.append(row)
    return out


def _table(result: Any) -> str:
    rows = flatten(category_rows(result))
    if not rows:
        return table(rows)
    chosen = [c for c in COLUMNS if c in rows[0]]
    chosen[1:1] = [c for c in rows[0] if c.startswith("group.")]
    return table(rows, chosen)


def run(args: argparse.Namespace) -> int:
    engine = connection(args)
    try:
        result = category_agreement(args.source, categories=parse_categories(args.categories),
                                    incomplete_units=args.incomplete_units, con=engine,
                                    **source_keywords(args))
    finally:
        engine.close()
    csv = args.format == "csv" and not long_table(args)
    emit(args, category_rows(result) if csv else result, table_text=_table)
    return 0
