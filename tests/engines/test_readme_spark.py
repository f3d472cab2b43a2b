"""The README's "Warehouses and Spark" example runs as printed: its Python block is executed on
the suite's shared SparkSession (its getOrCreate returns that one) and must print the line the
README shows under it. The expected line is the README's own (Fleiss 1971, Table 1: kappa
0.430 from the 30 x 6 diagnoses)."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def _spark_example() -> tuple[str, str]:
    section = README.read_text(encoding="utf-8").split("## Warehouses and Spark", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    printed = re.search(r"^#\s+(\S.*?)\s{2,}\(", block, re.M).group(1)
    return block, printed


@pytest.mark.spark
def test_the_readme_spark_example_prints_what_it_shows(spark, tmp_path, monkeypatch):
    code, printed = _spark_example()
    assert printed.startswith("0.43024452006014")
    code = code.replace("/tmp/fleiss1971.parquet", str(tmp_path / "fleiss1971.parquet"))
    monkeypatch.chdir(README.parent)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().strip() == printed
