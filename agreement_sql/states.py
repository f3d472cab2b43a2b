"""Batch states as sources: what a state holds, and the canonical ratings it stands for.

A *state* (docs/batches.md, docs/decisions/0029) is a long, typed table written by
``summarize()`` or ``merge_states()``: a row per (keys, unit[, rater], state, value) with a
count ``n``, besides ``state_version``, ``section`` and ``metric_column``. Any public function
reads one as its source: :func:`is_state` recognises it by its ``state_version`` and ``section``
columns, and :func:`state_spec` turns it into the canonical ratings relation the statements
read (sql/state_ratings.sql.j2), so every coefficient is computed by the templates it is
computed by on the ratings themselves, with no formula of its own. Python here checks and
orchestrates; the rows are the SQL's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .engine import Relation, Session
from .errors import OptionError, SourceError

STATE_VERSION = 1
SECTIONS = ("unit_values", "unit_ratings")
GROUP_PREFIX = "group_"
# the columns of every state, in file order (the group columns come after metric)
HEAD_COLUMNS = ("state_version", "section", "metric_column", "metric")
TAIL_COLUMNS = ("item", "rater", "state", "x", "label", "n")
KINDS = {"state_version": "bigint", "section": "text", "metric_column": "text", "metric": "text",
         "item": "text", "rater": "text", "state": "bigint", "x": "double", "label": "text",
         "n": "bigint"}

# what stands for the placeholders of a state's summarize() call (their rows keep state 2)
PLACEHOLDER_ROWS = "the state's placeholder rows"

# how a result computed from a state says so (its conventions' "state")
CONVENTIONS = {
    "unit_values": ("computed from a batch state's counts per (unit, value) (section "
                    "unit_values, docs/batches.md): raters are anonymous, so n_raters is the "
                    "most ratings a unit has"),
    "unit_ratings": ("computed from a batch state's ratings per (unit, rater) (section "
                     "unit_ratings, docs/batches.md)"),
}


def is_state(relation: Relation) -> bool:
    """The relation is a batch state: it has the ``state_version`` and ``section`` columns."""
    names = {c.name for c in relation.columns}
    return "state_version" in names and "section" in names


def state_columns(relation: Relation) -> list[str]:
    """A state's columns, checked: the fixed ones and its group columns (``group_<column>``)."""
    names = [c.name for c in relation.columns]
    missing = [c for c in HEAD_COLUMNS + TAIL_COLUMNS if c not in names]
    if missing:
        raise SourceError(f"{relation.description} has a state_version column but is not a "
                          f"batch state: it lacks {', '.join(missing)} (write states with "
                          "summarize() or merge_states())")
    return [*HEAD_COLUMNS, *group_columns(relation), *TAIL_COLUMNS]


def group_columns(relation: Relation) -> list[str]:
    """The state's slice columns, in file order (``group_<the caller's group_by column>``)."""
    return [c.name for c in relation.columns if c.name.startswith(GROUP_PREFIX)]


@dataclass(frozen=True)
class StateMeta:
    """What one state holds (sql/state_meta.sql.j2), checked."""

    section: str
    metric_column: str | None
    groups: tuple[str, ...]
    n_state_rows: int
    n_ratings: int
    n_missing: int
    n_placeholder: int
    max_n: int


def read_meta(session: Session, relation: Relation) -> StateMeta:
    """Check ``relation`` is a state of this version with one section and one metric column,
    and say what it holds."""
    from .runner import query

    groups = tuple(group_columns(relation))
    rows = query(session, "state_meta", {"source": relation.name}, {})
    shown = relation.description
    versions = sorted({r["state_version"] for r in rows}, key=str)
    if any(v != STATE_VERSION for v in versions):
        raise SourceError(f"{shown} is a state of version {', '.join(map(str, versions))}; this "
                          f"agreement-sql reads state_version {STATE_VERSION} (summarize the "
                          "batches again with this version)")
    sections = sorted({r["section"] for r in rows}, key=str)
    if len(sections) > 1 or any(s not in SECTIONS for s in sections):
        raise SourceError(f"{shown}: a state has one section, unit_values or unit_ratings; this "
                          f"one has {', '.join(map(repr, sections))}")
    metric_columns = sorted({r["metric_column"] for r in rows}, key=str)
    if len(metric_columns) > 1:
        raise SourceError(f"{shown}: its rows come from different metric columns "
                          f"{metric_columns!r}; merge only states summarized alike")
    total = {k: sum(int(r[k] or 0) for r in rows)
             for k in ("n_state_rows", "n_ratings", "n_missing", "n_placeholder")}
    return StateMeta(section=sections[0] if sections else "unit_values",
                     metric_column=metric_columns[0] if metric_columns else None,
                     groups=groups, max_n=max([int(r["max_n"] or 0) for r in rows] or [0]),
                     **total)


def numbers(session: Session, top: int) -> str:
    """A registered relation of k = 0 .. top - 1 (the expansion's join)."""
    import pyarrow as pa

    return session.register_arrow(pa.table({"k": pa.array(range(top), type=pa.int64())}),
                                  "numbers")


# the arguments a state fixed when it was summarized: passing another value is refused
FIXED_BY_STATE = {"item": "item", "rater": "rater", "value": "value", "metric": None,
                  "group_by": None, "on_duplicate": None, "missing": None}


def check_names(names: Mapping[str, Any], layout_kind: str, explicit: bool) -> None:
    """Refuse an argument a state fixed when it was summarized (its keys, its missing values)."""
    for name, default in FIXED_BY_STATE.items():
        if names.get(name, default) != default:
            raise OptionError(f"{name}= does not apply to a batch state: its keys and missing "
                              "values were fixed by summarize() (pass them there)")
    if explicit and layout_kind != "long":
        raise OptionError(f"layout={layout_kind!r} does not apply to a batch state: it is read "
                          "as it was written by summarize()")


def state_spec(session: Session, relation: Relation) -> Any:
    """The RatingsSpec of ``relation``, a state: read by sql/_state_ratings.sql.j2 (through
    sql/_ratings.sql.j2, source_form "state"), expanded into ratings, or weighted when a
    statement sums counts (:func:`weighted`)."""
    from .ratings import RatingsSpec

    meta = read_meta(session, relation)
    metric = meta.metric_column
    return RatingsSpec(session=session, relation=relation, metric=metric,
                       group_by=tuple(g[len(GROUP_PREFIX):] for g in meta.groups),
                       metric_label=metric, state=meta.section, state_groups=meta.groups,
                       numbers=numbers(session, max(meta.max_n, 1)),
                       # the rows summarize() found to be declared placeholders keep their
                       # state 2, and the profile counts them as such when the call has any
                       placeholders=(PLACEHOLDER_ROWS,) if meta.n_placeholder else ())


def weighted(spec: Any) -> Any:
    """``spec`` (a state of counts per unit and value, not yet expanded) read as weighted rows:
    each state row once with its count, for the statements that sum counts (the ratings profile
    and the coefficients statement's counts form; agreement_sql.routes.state_reader)."""
    from dataclasses import replace

    return replace(spec, state_weighted=True)


def expanded(spec: Any) -> Any:
    """``spec`` (a state) expanded into canonical ratings, materialised once: what every
    statement reads that does not sum counts (agreement_sql.ratings.materialize)."""
    from .ratings import materialize

    if spec.state is None or spec.canonical:
        return spec
    return materialize(spec)


def file_columns(groups: Sequence[str]) -> list[tuple[str, str, str | None]]:
    """A state file's columns for agreement_sql.sinks.ParquetSink: (statement column, file
    column, kind), the statement's slice_i written as the state's group columns."""
    head: list[tuple[str, str, str | None]] = [(c, c, KINDS[c]) for c in HEAD_COLUMNS]
    middle: list[tuple[str, str, str | None]] = [(f"slice_{i}", g, "text")
                                                 for i, g in enumerate(groups)]
    tail: list[tuple[str, str, str | None]] = [(c, c, KINDS[c]) for c in TAIL_COLUMNS]
    return head + middle + tail
