"""One call's lifetime: register the source, describe its ratings, clean up afterwards."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import duckdb

from .ratings import RatingsSpec, prepare
from .sources import open_source


@contextmanager
def ratings_session(source: Any, *, con: duckdb.DuckDBPyConnection | None = None,
                    item: str = "item", rater: str = "rater", value: str = "value",
                    metric: str | None = None, group_by: Sequence[str] | str | None = None,
                    on_duplicate: str | None = None) -> Iterator[RatingsSpec]:
    """Yield a :class:`RatingsSpec` for ``source``; drop every generated relation on exit.

    With ``con=None`` a private in-memory connection is opened and closed; a caller's
    connection is left as it was found.
    """
    own = con is None
    connection = con if con is not None else duckdb.connect()
    src = open_source(source, connection)
    try:
        yield prepare(src, item=item, rater=rater, value=value, metric=metric,
                      group_by=group_by, on_duplicate=on_duplicate)
    finally:
        src.close()
        if own:
            connection.close()
