"""``agreement_sql.render``: the exact SQL a metric runs, for an analyst to run by hand.

Templates read a relation with the caller's column names; here the relation defaults to a view
called ``ratings`` with columns ``item``, ``rater``, ``value``. The header names the relations
and every bound parameter with the value the Python API would bind, and shows the DuckDB
``PREPARE``/``EXECUTE`` lines that run it.
"""
from __future__ import annotations

from typing import Any, Sequence

from .templates import Rendered, render as render_template

# structural defaults per template (Jinja choices) and the parameter values the API binds
BASE_OPTIONS: dict[str, Any] = {
    "canonical": False, "on_duplicate": None, "with_row_number": False, "by_label": False,
    "scales": None, "struct_fields": [], "level": "interval",
}
DEFAULT_PARAMS: dict[str, Any] = {
    "default_metric": "value", "adjacent_tolerance": 1.0, "likert_lo": 1.0, "likert_hi": 5.0,
    "threshold": 75.0, "rating_min": 0.0, "rating_max": 5.0, "extreme_range": 4.0,
    "mean_gap": 2.0, "max_patterns": 20, "priority_sd": 1.5, "max_traces": 100,
    "max_examples": 5,
}
TEMPLATE_OPTIONS: dict[str, dict[str, Any]] = {
    "materialize_ratings": {"into": "ratings_canonical"},
    "input_examples": {"problem": "duplicate"},
    "drop_relation": {"kind": "view", "name": "ratings"},
}


def _coerce(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    return text


def render_options(template: str, *, relation: str = "ratings", item: str = "item",
                   rater: str = "rater", value: str = "value", metric: str | None = None,
                   group_by: Sequence[str] = (), **options: Any) -> dict[str, Any]:
    groups = list(group_by)
    merged = {**BASE_OPTIONS, **TEMPLATE_OPTIONS.get(template, {}),
              "source": relation, "item": item, "rater": rater, "value": value, "metric": metric,
              "group_by": groups, "slices": [f"slice_{i}" for i in range(len(groups))]}
    merged.update({k: _coerce(v) for k, v in options.items()})
    return merged


def render(template: str, *, dialect: str = "duckdb", relation: str = "ratings",
           item: str = "item", rater: str = "rater", value: str = "value",
           metric: str | None = None, group_by: Sequence[str] = (), **options: Any) -> str:
    """The SQL of ``sql/<template>.sql.j2`` with a header, ready to paste into the DuckDB CLI.

    >>> sql = render("krippendorff_alpha", level="ordinal")
    >>> sql.splitlines()[0]
    '-- agreement-sql: krippendorff_alpha (duckdb)'
    """
    rendered = render_template(template, dialect=dialect,
                               **render_options(template, relation=relation, item=item, rater=rater,
                                                value=value, metric=metric, group_by=group_by,
                                                **options))
    return script(rendered)


def script(rendered: Rendered) -> str:
    values = {p: DEFAULT_PARAMS[p] for p in rendered.params if p in DEFAULT_PARAMS}
    text = rendered.script(values)
    if rendered.dialect == "duckdb" and rendered.params:
        args = ", ".join(f"{p} := {values[p]!r}" if p in values else f"{p} := ?" for p in rendered.params)
        head, body = text.split("\n", 1)
        lines = [l for l in body.split("\n") if l.startswith("-- ")]
        n = len(lines)
        parts = body.split("\n")
        hint = [f"-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement({args});"]
        text = "\n".join([head] + parts[:n] + hint + parts[n:])
    return text
