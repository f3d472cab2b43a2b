"""One call's lifetime: open a session, register the source, describe its ratings, clean up.

Every public function runs inside :func:`ratings_session`: its own session of the engine
(a cursor of the caller's DuckDB connection, or of a private per-thread connection), the
source registered under a generated name, the caller's columns checked, and every temporary
object dropped when the call ends, whether it returns or raises.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from .engine import open_session
from dataclasses import replace

from .errors import OptionError
from .engine import Relation
from .ratings import RatingsSpec, _has, by_cells, expanded_layout, materialize, prepare
from .sources import Layout, check_layout, layout_source
from . import routes, states


def check_raters(layout: str, needs_raters: str) -> None:
    """Refuse a counts table (``layout`` "counts") for a call that needs to know which rater
    gave each rating (``needs_raters``: what the call computes)."""
    if layout == "counts":
        raise OptionError(f"{needs_raters} needs to know which rater gave each rating, and a "
                          "counts table (layout='counts') has anonymous raters: it holds how many "
                          "raters chose each category, not who. Give the ratings per rater "
                          "(layout='wide' or long rows), or use a rater-free coefficient (Fleiss' "
                          "kappa, Gwet's AC1, Brennan-Prediger, percent agreement, Krippendorff's "
                          "alpha, pairwise agreement)")


@contextmanager
def ratings_session(source: Any, *, con: Any = None, item: Any = "item", rater: Any = "rater",
                    value: Any = "value", metric: Any = None, group_by: Any = None,
                    on_duplicate: Any = None, missing: Any = None,
                    copy: bool | None = None, ordered: bool = False,
                    layout: Layout | str | None = None,
                    needs_raters: str | None = None,
                    set_separator: str | None = None,
                    state_counts: bool = False,
                    layout_cells: bool = False) -> Iterator[RatingsSpec]:
    """Yield the :class:`RatingsSpec` of ``source``; drop every generated relation on exit.

    ``copy``: read the source once into a temporary canonical table first (None: when reading
    it again would cost more than a columnar scan: a workshop export's ratings objects, a
    duplicate policy that keeps the first or last rating in input order, a peer's layout).
    ``ordered``: number the rows in input order (a workflow that reports things in the order
    first seen); the source is then copied. ``layout``: the source's shape (long rows, or a
    peer's wide, counts or contingency table: agreement_sql.sources.Layout).
    ``needs_raters``: what the call computes, when it needs to know which rater gave each
    rating (a counts table's raters are anonymous, so it is refused).
    ``set_separator``: every rating is a set of elements joined by it, read as its canonical
    text (sql/_ratings.sql.j2; docs/decisions/0028).
    ``state_counts``: the
    caller can read a batch state's counts as weighted rows (agreement_sql.states.weighted;
    the coefficient functions), so such a state is not expanded here.
    ``layout_cells``: the caller chooses how a counts or contingency table is read (its cells
    once each, or expanded: agreement_sql.routes.layout_reader; the coefficient functions), so
    such a table is neither expanded nor copied here; any other caller gets it expanded into
    ratings and materialised (agreement_sql.ratings.expanded_layout).
    """
    shape = layout if isinstance(layout, Layout) else check_layout(layout)
    source, shape, default_item = layout_source(source, shape)
    if needs_raters:
        check_raters(shape.kind, needs_raters)
    names = dict(item=item, rater=rater, value=value, metric=metric, group_by=group_by,
                 on_duplicate=on_duplicate, missing=missing, layout=shape)

    def read(relation: Relation) -> list[str]:
        if states.is_state(relation):
            # a batch state (agreement_sql.states): its own columns, whatever the call names
            return states.state_columns(relation)
        # the columns the call names, resolved on the source's description (an exact name
        # wins): the engine reads only these (docs/decisions/0014)
        return prepare(None, relation, default_item=row_item(relation),  # type: ignore[arg-type]
                       check_cells=False, **names).columns_read()

    def row_item(relation: Relation) -> str | None:
        # R's row names name the units of a wide, counts or contingency table without an
        # item column, as a pandas index does
        if default_item is None and relation.row_names and not _has(relation, "item"):
            return relation.row_names
        return default_item

    with open_session(con) as session:
        relation = session.read_source(source, columns=read)
        if states.is_state(relation):
            states.check_names(names, shape.kind, shape.explicit)
            spec = states.state_spec(session, relation)
            if not (state_counts and spec.state == "unit_values"):
                # a caller that does not read a state's counts as weighted rows reads its
                # ratings, expanded once (agreement_sql.states)
                routes.record("state_ratings", {"state_rows": "ratings"})
                spec = states.expanded(spec)
            if needs_raters and spec.state == "unit_values":
                raise OptionError(
                    f"{needs_raters} needs to know which rater gave each rating, and this batch "
                    "state has section unit_values (counts per unit and value, anonymous "
                    "raters) and no section unit_ratings: summarize the batches with "
                    "with_raters=True, or use a rater-free coefficient")
            yield spec
            return
        spec = prepare(session, relation, default_item=row_item(relation), **names)
        if spec.whole_number_items:
            # whole-number items grouped as they are, their id text written once a unit
            spec = replace(spec, unit_keys=routes.unit_keys())
        if set_separator is not None:
            spec = replace(spec, set_separator=set_separator)
        if ordered:
            spec = replace(spec, with_row_number=True)
        if by_cells(spec):
            if not (layout_cells and not copy and not ordered):
                spec = expanded_layout(spec)
            yield spec
            return
        if copy or ordered or (copy is None and (spec.struct_fields or not relation.cheap_scan
                                      or spec.on_duplicate in ("first", "last")
                                      or spec.layout != "long")):
            spec = materialize(spec)
        yield spec
