"""SQL dialects: the one named switch behind which every engine difference lives.

DESIGN_NOTES §2 measured that three differences are enough for the templates to run on DuckDB
and Spark SQL: identifier quoting, type names, and how a bound parameter is written. A fourth,
optional one is the CTE materialisation hint DuckDB accepts and Spark does not (empty there). The
input order that on_duplicate="first"/"last" keeps is a window without ORDER BY in DuckDB,
which Spark refuses; Spark numbers rows with monotonically_increasing_id() instead.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    name: str
    quote: str          # identifier quote character; an embedded quote is doubled
    text: str           # the string type's name
    double: str         # the double type's name
    param_prefix: str   # how a named bound parameter is written
    inline: str         # CTE hint: compute where used (a cheap projection read by several CTEs)
    materialize: str    # CTE hint: compute once (an aggregate read by several CTEs)
    input_order: str    # a number increasing in input order (on_duplicate="first"/"last")

    def quote_identifier(self, name: str) -> str:
        return self.quote + name.replace(self.quote, self.quote * 2) + self.quote


DUCKDB = Dialect(name="duckdb", quote='"', text="VARCHAR", double="DOUBLE", param_prefix="$",
                 inline="NOT MATERIALIZED", materialize="MATERIALIZED",
                 input_order="ROW_NUMBER() OVER ()")
SPARK = Dialect(name="spark", quote="`", text="STRING", double="DOUBLE", param_prefix=":",
                inline="", materialize="", input_order="monotonically_increasing_id()")

DIALECTS = {d.name: d for d in (DUCKDB, SPARK)}
