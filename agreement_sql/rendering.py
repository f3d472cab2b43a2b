"""``agreement_sql.render``: the exact SQL a metric runs, for an analyst to run by hand.

A coefficient's name (``fleiss_kappa``, ``krippendorff_alpha``, any registry alias) renders
``sql/coefficients.sql.j2`` for it; any other name renders that template. The options are the
ones a call would build: the ratings options of :class:`agreement_sql.ratings.RatingsSpec` for a
relation of your own (default: a table ``ratings`` with columns item, rater, value), the form of
:class:`agreement_sql.plan.Plan` (the counts form, which needs no profile; ``form="wide"`` with
``categories=[1, 2, 3, 4, 5]`` renders the wide form for those categories), and the
coefficient options of :func:`agreement_sql.parameters.validate`. The header names the
relations and every bound parameter with the value the Python API would bind, and shows the
DuckDB ``PREPARE``/``EXECUTE`` lines that run it.
"""
from __future__ import annotations

from typing import Any, Sequence

from .constants import MAX_WIDE_CATEGORIES
from .engine import TEXT, Column, Relation
from .errors import OptionError
from .parameters import validate
from .plan import Plan
from .ratings import RatingsSpec
from .templates import Rendered, render as render_template, template_options

# what render() binds and shows for parameters a call computes from its data
SAMPLE_PARAMS: dict[str, Any] = {
    "max_categories": MAX_WIDE_CATEGORIES, "max_examples": 5, "adjacent_tolerance": 1.0,
    "threshold": 75.0, "extreme_range": 4.0, "mean_gap": 2.0, "max_patterns": 20,
    "priority_sd": 1.5, "max_traces": 100, "max_items": 10, "sigma_threshold": 0.3,
    "n_boot": 1000, "seed": 1, "ci_low_p": 0.025, "ci_high_p": 0.975, "z": 1.959963984540054,
    "pair_max_raters": 10, "rating_min": 0.0, "rating_max": 5.0,
}
# relations a template joins that a call registers itself (shown under these names)
SAMPLE_RELATIONS = {"scales": "scales", "domain": None, "weight_matrix": None}


def _coerce(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if lowered.isdigit():
        return int(lowered)
    return text


def statement(name: str, *, dialect: str = "duckdb", relation: str = "ratings",
              item: str = "item", rater: str = "rater", value: str = "value",
              metric: str | None = None, group_by: Sequence[str] = (),
              **choices: Any) -> tuple[Rendered, dict[str, Any]]:
    """The rendered statement for ``name`` and the parameter values a call would bind."""
    from .registry import REGISTRY, lookup

    choices = {k: _coerce(v) for k, v in choices.items()}
    columns = tuple(Column(c, TEXT, "VARCHAR") for c in
                    [item, rater, value, *([metric] if metric else []), *group_by])
    spec = RatingsSpec(session=None, relation=Relation(relation, columns, relation, True),  # type: ignore[arg-type]
                       item=item, rater=rater, value=value, metric=metric,
                       group_by=tuple(group_by), default_metric=value)
    categories = choices.pop("categories", None)
    if isinstance(categories, str):
        categories = [c.strip() for c in categories.split(",")]
    form = choices.pop("form", "wide" if categories else "counts")
    cats = tuple(("number", float(c)) if _number(c) else ("label", str(c)) for c in categories or ())
    if form == "wide" and not cats:
        raise OptionError("form=wide renders for given categories, e.g. categories=1,2,3,4,5")
    plan = Plan(form=form, categories=cats, rater_blocks=int(choices.pop("rater_blocks", 1)),
                rater_patterns=bool(choices.pop("rater_patterns", False)))
    template = name
    options: dict[str, Any] = {**spec.options(bootstrap=bool(choices.get("bootstrap"))),
                               **plan.options()}
    params: dict[str, Any] = {**SAMPLE_PARAMS, **spec.params(), **plan.params()}
    try:
        entry = lookup(name)
    except OptionError:
        entry = None
    if entry is not None or name == "coefficients":
        which = [entry] if entry is not None else list(REGISTRY.values())
        opts = validate(weights=choices.pop("weights", None),
                        weight_basis=choices.pop("weight_basis", "value"),
                        level=choices.pop("level", which[0].default_level if entry else "nominal"))
        template = "coefficients"
        options.update({"which": [e.name for e in which], "partials": [e.partial for e in which],
                        "families": [e.family for e in which], "level": opts.level,
                        "weights": {"unweighted": None, "custom": "matrix"}.get(opts.weights, opts.weights),
                        "weight_basis": opts.weight_basis, "weight_matrix": None,
                        "ci": bool(choices.pop("ci", False)), "category_kinds": "number",
                        "named_raters": 0, "pair_max_raters": False})
    wanted = template_options(template)
    for key, sample in SAMPLE_RELATIONS.items():
        if key in wanted and key not in options:
            options[key] = sample
    defaults = {"level": "interval", "category_kinds": "number", "with_usage": True,
                "with_points": True, "problem": "duplicate", "part": None}
    for key, value_ in choices.items():
        options[key] = value_
    for key in wanted - set(options):
        if key in defaults:
            options[key] = defaults[key]
    unknown = sorted(set(options) - wanted)
    for key in unknown:
        if key in choices:
            raise OptionError(f"{template} takes no option {key!r}; it takes: "
                              f"{', '.join(sorted(wanted))}")
        options.pop(key)
    return render_template(template, options, dialect=dialect), params


def _number(value: Any) -> bool:
    try:
        float(value)
        return True
    except (TypeError, ValueError):
        return False


def render(name: str, *, dialect: str = "duckdb", relation: str = "ratings", item: str = "item",
           rater: str = "rater", value: str = "value", metric: str | None = None,
           group_by: Sequence[str] = (), **choices: Any) -> str:
    """The SQL of a metric (or ``sql/<name>.sql.j2``) with a header, ready to run by hand.

    >>> sql = render("krippendorff_alpha", level="ordinal")
    >>> sql.splitlines()[0]
    '-- agreement-sql: coefficients (duckdb)'
    """
    rendered, params = statement(name, dialect=dialect, relation=relation, item=item,
                                 rater=rater, value=value, metric=metric, group_by=group_by,
                                 **choices)
    return script(rendered, params)


def script(rendered: Rendered, params: dict[str, Any]) -> str:
    values = {p: params[p] for p in rendered.params if p in params}
    text = rendered.script(values)
    if rendered.dialect == "duckdb" and rendered.params:
        args = ", ".join(f"{p} := {values[p]!r}" if p in values else f"{p} := ?" for p in rendered.params)
        head, body = text.split("\n", 1)
        parts = body.split("\n")
        n = sum(1 for line in parts if line.startswith("-- reads relation:") or line.startswith("-- parameter:"))
        hint = [f"-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement({args});"]
        text = "\n".join([head] + parts[:n] + hint + parts[n:])
    return text
