"""Incremental batches: per-unit sufficient statistics that merge by addition (docs/batches.md).

:func:`summarize` writes one batch's *state* (sql/batch_state.sql.j2): its ratings counted per
(keys, unit, value), section ``unit_values``, or per (keys, unit, rater, value) with
``with_raters=True``, section ``unit_ratings``; rows that are not ratings are kept with their
state (missing, placeholder) so nothing leaves uncounted. :func:`merge_states` adds states
(sql/merge_st.sql.j2: UNION ALL, then GROUP BY the keys with SUM(n)): a unit rated in
several batches gets its counts added before any coefficient is formed. Every public function
reads a state as its source (agreement_sql.states), so a coefficient computed from the merged
state of disjoint batches is the one computed on all their ratings at once. The design and what
each section can and cannot carry: docs/decisions/0029.

Python orchestrates here: it checks the arguments and the states, runs the templates and places
the file (atomically, never onto an input: agreement_sql.outputs); every row is the SQL's.
"""
from __future__ import annotations

import os
import tempfile
from typing import Any, Sequence, TypedDict

from . import routes
from . import states as st
from .errors import DuplicateRatingError, OptionError, SourceError
from .public import public


class StateSummary(TypedDict):
    """What summarize() or merge_states() wrote: the state's version and section, its rows, the
    ratings and the rows that are not ratings it carries (counted, never dropped), and where."""

    state_version: int
    section: str
    n_state_rows: int
    n_rows: int
    n_ratings: int
    n_excluded: dict[str, int]
    metric_column: str | None
    group_by: list[str]
    n_states: int
    to: str


def _check_to(to: Any) -> None:
    """A state is a Parquet file or a table on the caller's DuckDB connection (typed columns:
    a CSV would lose them)."""
    if isinstance(to, tuple):
        return
    if not os.fspath(to).lower().endswith(".parquet"):
        raise OptionError(f"to= of a batch state must be a .parquet path or ('table', name), got "
                          f"{os.fspath(to)!r} (a CSV would lose the state's column types)")


def _duplicates(found: dict[str, list[Any]], groups: Sequence[str], metric_column: str | None,
                where: str) -> None:
    """Refuse the batch (or merge) when a rater rated a unit more than once, naming them as the
    duplicate check of the ratings names them (agreement_sql.checks.raise_duplicates)."""
    if not found.get("item"):
        return
    shown = []
    for i, item in enumerate(found["item"]):
        parts = [f"item={item!r}", f"rater={found['rater'][i]!r}"]
        if metric_column is not None:
            parts.append(f"{metric_column}={found['metric'][i]!r}")
        parts += [f"{g[len(st.GROUP_PREFIX):]}={found[f'slice_{j}'][i]!r}"
                  for j, g in enumerate(groups)]
        shown.append(f"({', '.join(parts)}) rated {found['n'][i]} times")
    keys = "item, rater" + (", " + metric_column if metric_column else "")
    raise DuplicateRatingError(
        f"{found['n_found'][0]} ({keys}) key(s) occur more than once {where}: "
        f"{'; '.join(shown)}; a rater rates a unit once (deduplicate the batches before "
        "summarizing)")


def _write_state(session: Any, template: str, options: dict[str, Any], params: dict[str, Any],
                 groups: Sequence[str], metric_column: str | None, to: Any, inputs: Any,
                 con: Any, where: str) -> dict[str, Any]:
    """Run ``template`` (rows tagged duplicates / state) and place its state rows at ``to``;
    refuse them (nothing placed) if it found duplicates. Returns what the written state holds,
    as the statement counted it (its summary part), and where it was placed."""
    from .outputs import Output
    from .runner import query_parts
    from .sinks import ParquetSink
    from .tables import _refuse_table

    keys = ["metric", *[f"slice_{i}" for i in range(len(groups))]]
    parts = {"duplicates": [*keys, "item", "rater", "n", "n_found"],
             "summary": ["state", "n", "n_found"]}
    folder = None
    if isinstance(to, tuple):
        _refuse_table(to[1], con)
        folder = tempfile.mkdtemp(prefix="agreement_sql_state_")
        temp = os.path.join(folder, "state.parquet")
        output = None
    else:
        output = Output(to, "to", inputs=inputs)
        temp = output.open_temp()
    sink = ParquetSink(temp, st.file_columns(groups))
    try:
        found = query_parts(session, template, options, params, parts, sinks={"state": sink})
        _duplicates(found["duplicates"], groups, metric_column, where)
        if output is not None:
            output.commit()
        else:
            # one statement, CREATE TABLE ... AS: the whole state or none (decision 0024)
            con.read_parquet(temp).create(to[1])
    except BaseException:
        sink.discard()
        if output is not None:
            output.discard()
        raise
    finally:
        if folder is not None:
            if os.path.exists(temp):
                os.remove(temp)
            os.rmdir(folder)
    # the statement's own count of what the state holds, per state (0 rating, 1 missing,
    # 2 placeholder): n the input rows, n_found the state's rows
    summary = found["summary"]
    by_state = {int(k): (int(n), int(rows)) for k, n, rows in
                zip(summary["state"], summary["n"], summary["n_found"])}
    placed = to[1] if output is None else output.path
    return {"by_state": by_state, "to": placed}


def _summary(written: dict[str, Any], section: str, metric_column: str | None,
             groups: Sequence[str], n_states: int) -> StateSummary:
    by_state = written["by_state"]

    def rows_of(state: int) -> int:
        return by_state.get(state, (0, 0))[0]

    return StateSummary(state_version=st.STATE_VERSION, section=section,
                        n_state_rows=sum(rows for _, rows in by_state.values()),
                        n_rows=sum(n for n, _ in by_state.values()),
                        n_ratings=rows_of(0),
                        n_excluded={"missing": rows_of(1), "placeholder": rows_of(2)},
                        metric_column=metric_column,
                        group_by=[g[len(st.GROUP_PREFIX):] for g in groups],
                        n_states=n_states, to=written["to"])


@public("state")
def summarize(source: Any, to: Any, *, item: str = "item", rater: str = "rater",
              value: str = "value", metric: str | None = None, group_by: Any = None,
              missing: Any = None, with_raters: bool = False, con: Any = None,
              layout: str | None = None, rater_columns: Sequence[str] | None = None,
              orientation: str | None = None) -> StateSummary:
    """Write the batch state of ``source``'s ratings to ``to`` (a ``.parquet`` path, or
    ``("table", name)`` on the caller's DuckDB connection ``con``) and return a summary.

    The state (docs/batches.md) holds, per ``metric`` and ``group_by`` slice, each unit's counts
    per value (section ``unit_values``: enough for every rater-free coefficient: Fleiss, Gwet's
    AC1/AC2, Brennan-Prediger, percent agreement, Krippendorff's alpha at every level, weighted
    or not), or with ``with_raters=True`` each unit's ratings by rater (section
    ``unit_ratings``: also Cohen's, Light's, Conger's kappa, Scott's pi, Bangdiwala's B, the
    ICC). Missing values and ``missing=`` placeholders are counted in the state, so a
    coefficient computed from it reports them as on the ratings. A rater rating a unit twice
    is refused (DuplicateRatingError), as on the ratings. States of disjoint batches add with
    :func:`merge_states`; any coefficient function reads a state as its source."""
    from .session import ratings_session
    from .sources import check_layout

    _check_to(to)
    shape = check_layout(layout, rater_columns, orientation)
    if with_raters and shape.kind in ("counts", "table"):
        raise OptionError(f"with_raters=True keeps each rating's rater, and layout="
                          f"{shape.kind!r} has anonymous raters or none per rating")
    from .outputs import Inputs

    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, missing=missing, layout=shape) as spec:
        if spec.state is not None:
            raise OptionError("summarize() reads ratings, and this source is a batch state: "
                              "add states with merge_states()")
        groups = [st.GROUP_PREFIX + g for g in spec.group_by]
        section = "unit_ratings" if with_raters else "unit_values"
        metric_column = spec.metric_label
        options = {**spec.options(), "with_raters": bool(with_raters)}
        params = {**spec.params(), "state_version": st.STATE_VERSION, "section": section,
                  "metric_column": metric_column}
        routes.fixed("batch_state", state=section)
        written = _write_state(spec.session, "batch_state", options, params, groups,
                               metric_column, to, Inputs.of(source), con, "in the batch")
    return _summary(written, section, metric_column, groups, 1)


@public("state")
def merge_states(states: Any, to: Any, *, con: Any = None) -> StateSummary:
    """Add the batch states ``states`` (a list of ``.parquet`` paths, globs, folders or tables
    on ``con``; one such source alone) into one state written to ``to`` (a ``.parquet`` path,
    never one of the inputs, or ``("table", name)`` on ``con``), and return its summary.

    The states must be of this version (``state_version`` 1), of one section (all
    ``unit_values`` or all ``unit_ratings``) and summarized with the same ``metric`` and
    ``group_by`` columns; a unit rated in several batches has its counts added, and a rater who
    rated one unit in two batches (section ``unit_ratings``) is refused as a duplicate
    (DuplicateRatingError naming the unit and rater). Adding is associative and order-free:
    the same states in any order or grouping give the same file."""
    from .engine import open_session
    from .outputs import Inputs

    _check_to(to)
    given = list(states) if isinstance(states, (list, tuple)) else [states]
    if not given:
        raise OptionError("states= lists no state to merge")
    with open_session(con) as session:
        relations, metas = [], []
        for source in given:
            relation = session.read_source(source)
            if not st.is_state(relation):
                raise SourceError(f"{relation.description} is not a batch state (it has no "
                                  "state_version and section columns): write states with "
                                  "summarize()")
            st.state_columns(relation)
            relations.append(relation)
            metas.append(st.read_meta(session, relation))
        first = metas[0]
        for relation, meta in zip(relations[1:], metas[1:]):
            if meta.section != first.section:
                raise SourceError(f"{relation.description} has section {meta.section}, "
                                  f"{relations[0].description} {first.section}: merge states "
                                  "summarized alike (with_raters= the same)")
            if meta.metric_column != first.metric_column or meta.groups != first.groups:
                raise SourceError(
                    f"{relation.description} was summarized with metric={meta.metric_column!r} "
                    f"and group columns {list(meta.groups)}, {relations[0].description} with "
                    f"metric={first.metric_column!r} and {list(first.groups)}: merge states "
                    "summarized alike")
        groups = list(first.groups)
        options = {"state_sources": [r.name for r in relations], "state_groups": groups,
                   "slices": [f"slice_{i}" for i in range(len(groups))]}
        params = {"state_version": st.STATE_VERSION, "section": first.section,
                  "metric_column": first.metric_column}
        routes.fixed("merge_states", state=first.section)
        written = _write_state(session, "merge_states", options, params, groups,
                               first.metric_column, to, Inputs.of(given), con,
                               "across the merged states")
    return _summary(written, first.section, first.metric_column, groups, len(given))
