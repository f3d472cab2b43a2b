"""Fuzzing: hostile column names and label strings through every public function and render.

Nothing from a caller is pasted into SQL (docs/decisions/0001): names go through the one
quoting filter, values are bound. So (a) the SQL a template renders has the same shape whatever
the names: with the fuzzed names' quoted forms swapped for safe ones it is the same text, and
DuckDB's parser finds the same statements; (b) every public function gives the result it gives
under safe names, with labels mapped back. The oracle is the same call under safe names.
"""
from __future__ import annotations

import re

import duckdb
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.constants import MISSING_MARKERS

# names: any text without NUL (a DuckDB identifier cannot hold one; the filter refuses it),
# biased towards the characters that break naive SQL
HOSTILE = st.sampled_from(['"', "'", ";", "--", "/*", "*/", "\n", "\\", "`", " ", "$", ":", "?",
                           "%", "{{", "}}", "{%", "é", "🧪", "\u202e", "DROP TABLE x;"])
# (no lone surrogates: they are not text, and cannot reach a database as UTF-8)
NAME = st.lists(st.one_of(HOSTILE, st.text(st.characters(blacklist_characters="\x00",
                                                         blacklist_categories=("Cs",)),
                                           min_size=1, max_size=4)),
                min_size=1, max_size=4).map("".join)
NAMES = st.lists(NAME, min_size=4, max_size=4, unique_by=lambda s: s.casefold()).filter(
    # DuckDB resolves column names case-insensitively: four names distinct under casefold
    lambda names: len({n.casefold() for n in names}) == 4)
# labels: the rules trim surrounding spaces (U+0020 only, as SQL's TRIM does; decision 0002)
LABELS = st.lists(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1,
                          max_size=6).filter(lambda s: s.strip(" ") and "\x00" not in s),
                  min_size=3, max_size=3, unique_by=lambda s: s.strip(" ")).filter(
    # not numeric text (that would read as a number) and distinct after trimming
    lambda labels: all(_not_numeric(x) for x in labels))

# shrinking a failure costs minutes (each example runs a dozen calls): report it as found
NO_SHRINK = [Phase.explicit, Phase.reuse, Phase.generate]

BASE = [  # (item, rater, metric, value index): 6 items, 3 raters, 2 metrics
    (i, r, m, (i * 7 + r * 3 + m) % 3 if (i + r) % 4 else i % 3)
    for m in range(2) for i in range(6) for r in range(3) if (i + r + m) % 5
]


def _not_numeric(text: str) -> bool:
    try:
        float(text.strip(" ").replace("_", "x"))
    except ValueError:
        return True
    return False


def _table(names, labels):
    item, rater, metric, value = names
    return pa.table({item: [f"t{i}" for i, _, _, _ in BASE],
                     rater: [f"r{r}" for _, r, _, _ in BASE],
                     metric: [f"q{m}" for _, _, m, _ in BASE],
                     value: [labels[v] for _, _, _, v in BASE]})


SAFE_NAMES = ["item", "rater", "metric", "value"]

CALLS = {
    "krippendorff_alpha": lambda t, k: ag.krippendorff_alpha(t, level="nominal", **k),
    "cohen_kappa": lambda t, k: ag.cohen_kappa(t, raters=["r0", "r1"], **k),
    "fleiss_kappa": lambda t, k: ag.fleiss_kappa(t, **k),
    "category_agreement": lambda t, k: ag.category_agreement(t, **k),
    "coefficients": lambda t, k: ag.coefficients(t, **k),
    "rater_diagnostics": lambda t, k: ag.rater_diagnostics(t, level="nominal", **k),
    "judge_agreement": lambda t, k: ag.judge_agreement(
        t, item=k["item"], rater=k["rater"], value=k["value"], group_by=k["metric"], level="nominal"),
}
NUMBER_CALLS = {   # numeric ratings (1..3) under the fuzzed names
    "pairwise_agreement": lambda t, k: ag.pairwise_agreement(t, **k),
    "human_agreement": lambda t, k: ag.human_agreement(t, **k),
    "irr": lambda t, k: ag.irr(t, **k),
    "krippendorff_alpha": lambda t, k: ag.krippendorff_alpha(t, level="interval", **k),
}


def _kw(names):
    return dict(zip(("item", "rater", "metric", "value"), names))


def _safe_labels(labels):
    """Safe labels in the same sort order as the fuzzed ones (results list categories sorted;
    DuckDB sorts text by code point, as Python does)."""
    order = sorted(range(len(labels)), key=lambda i: labels[i].strip(" "))
    safe = [""] * len(labels)
    for rank, i in enumerate(order):
        safe[i] = f"label{rank}"
    return safe


def _relabel(result, mapping):
    """The result with every fuzzed label (a value or a key) written as its safe counterpart."""
    if isinstance(result, dict):
        return {mapping.get(k, k): _relabel(v, mapping) for k, v in result.items()}
    if isinstance(result, list):
        return [_relabel(v, mapping) for v in result]
    if isinstance(result, str):
        return mapping.get(result, result)
    return result


def _keys(result) -> set:
    """Every dict key of a result (a label equal to one could not be told from it)."""
    if isinstance(result, dict):
        return set(result).union(*(_keys(v) for v in result.values()))
    if isinstance(result, list):
        return set().union(*(_keys(v) for v in result))
    return set()


def _check(names, labels):
    fuzzed = _table(names, labels)
    safe_labels = _safe_labels(labels)
    safe = _table(SAFE_NAMES, safe_labels)
    # a result may echo a column name (judge_agreement's `across`, a default metric label)
    data_strings = {f"{p}{i}" for p in "trq" for i in range(6)} | {x.strip(" ") for x in labels}
    assume(not data_strings & set(names))
    # labels the typing rule reads otherwise than as their text (docs/decisions/0014; their own
    # tests: test_typing_cases.py): a boolean's spellings are one label, a missing marker's
    # spelling adds a conventions line
    assume(not any(x.strip(" ").lower() in ("true", "false") + MISSING_MARKERS for x in labels))
    mapping = {f.strip(" "): s for f, s in zip(labels, safe_labels)}
    mapping.update(zip(names, SAFE_NAMES))
    for name, call in CALLS.items():
        got = call(fuzzed, _kw(names))
        want = call(safe, _kw(SAFE_NAMES))
        # (a label spelled like one of the result's keys, 'level', cannot be told from it)
        assume(not _keys(want) & {x.strip(" ") for x in labels})
        # a result names its metric column's values (q0, q1), never the caller's column names
        assert _relabel(got, mapping) == want, name
    numbers = _table(names, [1, 2, 3])
    names_only = dict(zip(names, SAFE_NAMES))
    for name, call in NUMBER_CALLS.items():
        got = _relabel(call(numbers, _kw(names)), names_only)
        assert got == call(_table(SAFE_NAMES, [1, 2, 3]), _kw(SAFE_NAMES)), name


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=NO_SHRINK)
@given(names=NAMES, labels=LABELS)
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_hostile_names_and_labels_give_the_safe_result(names, labels):
    _check(names, labels)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=NO_SHRINK)
@given(names=NAMES, labels=LABELS)
def test_hostile_names_and_labels_give_the_safe_result_many(names, labels):
    _check(names, labels)


def _body(script: str) -> str:
    """The script without its header: the comment lines before the first statement line."""
    lines = script.split("\n")
    first = next(i for i, line in enumerate(lines) if not line.startswith("--"))
    return "\n".join(lines[first:])


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@settings(max_examples=20, deadline=None, phases=NO_SHRINK)
@given(names=NAMES, relation=NAME)
@pytest.mark.parametrize("metric", ["krippendorff_alpha", "fleiss_kappa", "cohen_kappa",
                                    "coefficients", "irr_report"])
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_render_keeps_the_shape_of_the_sql(metric, names, relation):
    item, rater, metric_col, value = names
    got = ag.render(metric, relation=relation, item=item, rater=rater, value=value,
                    metric=metric_col)
    want = ag.render(metric, relation="rel", item="item", rater="rater", value="value",
                     metric="metric")
    # the header (the leading comment lines) shows names escaped; the statement holds them quoted
    swapped = _body(got)
    assume(relation not in names)
    swap = {_quoted(f): _quoted(s) for f, s in [(relation, "rel"), *zip(names, SAFE_NAMES)]}
    # every quoted identifier, left to right, mapped if it is a caller's name
    swapped = re.sub(r'"(?:[^"]|"")*"', lambda m: swap.get(m.group(0), m.group(0)), swapped)
    assert swapped == _body(want)
    assert len(duckdb.extract_statements(got)) == len(duckdb.extract_statements(want))
