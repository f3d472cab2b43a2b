"""Parquet sinks: a statement part's rows written to a file as they arrive.

A report at platform scale can hold millions of per-point rows (judge_agreement with a rubric
point per item); returned as Python objects they would cost more memory and time than every
statement of the call. A caller who names a directory gets those parts as Parquet files
instead, written batch by batch from the engine's Arrow result (docs/decisions/0012): Python
moves the rows, it computes nothing. Each file column has a declared type, so the same rows
give the same file whichever engine ran the statement. A sink writes the temporary file of an
:class:`agreement_sql.outputs.Output`; the call places the finished files (decision 0016).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Sequence


def _arrow_type(kind: str) -> Any:
    """A file column's declared type ("text", "double", "bigint", "boolean"); a column whose
    kind is None keeps the statement's type (a caller's group column)."""
    import pyarrow as pa

    return {"text": pa.string(), "double": pa.float64(), "bigint": pa.int64(),
            "boolean": pa.bool_()}[kind]


@dataclass
class ParquetSink:
    """Rows of one statement part, written to ``path`` (a temporary file the call created,
    agreement_sql.outputs): ``columns`` lists (statement column, file column, kind) in file
    order. ``rows`` counts what was written."""

    path: str
    columns: Sequence[tuple[str, str, str | None]]
    rows: int = 0
    _writer: Any = field(default=None, repr=False)

    def _schema(self, source_schema: Any) -> Any:
        import pyarrow as pa

        return pa.schema([(out, _arrow_type(kind) if kind else source_schema.field(col).type)
                          for col, out, kind in self.columns])

    def write(self, table: Any) -> None:
        """Append ``table`` (an Arrow table or record batch with the statement's columns)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._writer is None:
            schema = self._schema(table.schema)
            self._writer = pq.ParquetWriter(self.path, schema)
        schema = self._writer.schema
        arrays = [table.column(col).cast(schema.field(out).type) for col, out, _ in self.columns]
        self._writer.write_table(pa.Table.from_arrays(arrays, schema=schema))
        self.rows += table.num_rows

    def write_values(self, columns: dict[str, list[Any]]) -> None:
        """Append rows given column by column as Python values (an engine without Arrow)."""
        import pyarrow as pa

        self.write(pa.table({col: pa.array(columns[col], type=_arrow_type(kind) if kind else None)
                             for col, _, kind in self.columns}))

    def close(self, source_schema: Any = None) -> int:
        """Finish the file (an empty one with the columns when no row came) and return its rows."""
        import pyarrow.parquet as pq

        if self._writer is None:
            import pyarrow as pa

            if source_schema is None:
                source_schema = pa.schema([(col, pa.string()) for col, _, _ in self.columns])
            schema = self._schema(source_schema)
            self._writer = pq.ParquetWriter(self.path, schema)
        self._writer.close()
        return self.rows

    def discard(self) -> None:
        """Close and remove the partly written (temporary) file: the call failed."""
        if self._writer is not None:
            try:
                self._writer.close()
            except Exception:   # noqa: BLE001 - the file goes either way
                pass
        if os.path.exists(self.path):
            os.remove(self.path)
