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

from .ratings import RatingsSpec, materialize, prepare


@contextmanager
def ratings_session(source: Any, *, con: Any = None, item: Any = "item", rater: Any = "rater",
                    value: Any = "value", metric: Any = None, group_by: Any = None,
                    on_duplicate: Any = None, missing: Any = None,
                    copy: bool | None = None, ordered: bool = False) -> Iterator[RatingsSpec]:
    """Yield the :class:`RatingsSpec` of ``source``; drop every generated relation on exit.

    ``copy``: read the source once into a temporary canonical table first (None: when reading
    it again would cost more than a columnar scan: a workshop export's ratings objects, a
    duplicate policy that keeps the first or last rating in input order). ``ordered``: number
    the rows in input order (a workflow that reports things in the order first seen); the
    source is then copied.
    """
    with open_session(con) as session:
        relation = session.read_source(source)
        spec = prepare(session, relation, item=item, rater=rater, value=value, metric=metric,
                       group_by=group_by, on_duplicate=on_duplicate, missing=missing)
        if ordered:
            spec = replace(spec, with_row_number=True)
        if copy or ordered or (copy is None and (spec.struct_fields or not relation.cheap_scan
                                      or spec.on_duplicate in ("first", "last"))):
            spec = materialize(spec)
        yield spec
