"""What the parameter walk (test_every_parameter.py) calls: one base call per public function,
valid values for required parameters, and valid non-default alternatives per parameter.

These tables are the test's input, not its proof: the walk itself iterates every public
function (agreement_sql.public.PUBLIC) and every parameter of its signature, so a function or
parameter missing here fails the walk rather than escaping it.
"""
from __future__ import annotations

import random

import pyarrow as pa

from agreement_sql.registry import REGISTRY


def rich_table(duplicate: bool = False, metrics: tuple[str, ...] = ("m0",)) -> pa.Table:
    """3 raters (a, b, c) x 12 items x ``metrics``, values 1-5 (rater c often off by one), a
    placeholder -1 and a NULL, a slice column ``day``, and spare columns ``item_b`` (another
    unit numbering), ``rater_b`` (another rater naming), ``score`` (other values)."""
    rng = random.Random(24)
    cols: dict[str, list] = {k: [] for k in ("item", "rater", "metric", "value", "day",
                                             "item_b", "rater_b", "score")}
    for m in metrics:
        for i in range(12):
            truth = rng.randint(1, 5)
            for r in ("a", "b", "c"):
                v = truth if r != "c" or rng.random() < 0.5 else min(5, truth + 1)
                if rng.random() < 0.2:
                    v = rng.randint(1, 5)
                if (m, i, r) == ("m0", 3, "b"):
                    v = -1
                if (m, i, r) == ("m0", 4, "c"):
                    v = None
                for k, x in (("item", i), ("rater", r), ("metric", m), ("value", v),
                             ("day", f"d{i % 2}"), ("item_b", i % 7),
                             ("rater_b", "a" if i == 0 and r == "b" else r),
                             ("score", None if v is None else (v * 7) % 5 + 1)):
                    cols[k].append(x)
    if duplicate:
        for k, x in (("item", 0), ("rater", "a"), ("metric", "m0"), ("value", 2), ("day", "d0"),
                     ("item_b", 0), ("rater_b", "a"), ("score", 3)):
            cols[k].append(x)
    return pa.table(cols)


TABLES = {"rich": rich_table, "duplicate": lambda: rich_table(duplicate=True),
          "two_metrics": lambda: rich_table(metrics=("m0", "m1")),
          "noisy": lambda: noisy_table()}


def noisy_table() -> pa.Table:
    """4 raters x 10 items, ratings 1-5 at random (low agreement, constant rater d): the
    workshop report's threshold, its listed traces and its problematic patterns all show."""
    rng = random.Random(5)
    rows = [(i, r, 3 if r == "d" else rng.randint(1, 5)) for i in range(10) for r in "abcd"]
    return pa.table({"item": [x[0] for x in rows], "rater": [x[1] for x in rows],
                     "value": [x[2] for x in rows]})

# valid values for required parameters (a refusal test binds them)
REQUIRED = {"source": "never-read.csv", "coefficient": "cohen_kappa", "expected": 0.6,
            "n_raters": 2, "pairs": "never-read.jsonl", "judges": ["c"], "name": "fleiss_kappa",
            # summarize() and merge_states() write a batch state (tests/batches)
            "to": "never-written.parquet", "states": ["never-read.parquet"]}

TWO = ("scott_pi", "bangdiwala_b", "concordance", "bland_altman")

# base calls: function -> keyword arguments beyond source (the rich table)
BASE: dict[str, dict] = {
    **{name: ({"raters": ["a", "b"]} if entry.two_raters else {})
       for name, entry in REGISTRY.items()},
    "coefficients": {},
    "icc": {},
    "concordance": {"raters": ["a", "c"]},
    "bland_altman": {"raters": ["a", "c"]},
    "pairwise_agreement": {},
    "agree": {},
    "human_agreement": {},
    "rater_diagnostics": {},
    "irr": {"missing": [-1]},          # the workshop report refuses a rating off its scale
    "achieved_precision": {},
    "category_agreement": {},
}

# parameters not walked, and why (each is proven elsewhere)
NOT_WALKED = {
    "source": "the input itself (tests/inputs: every format, one answer)",
    "con": "the connection (tests/inputs/test_connections.py: the caller's session)",
}

# valid non-default alternatives: parameter -> [(value, table)], each tried on every function
# that has the parameter; the outcome must change from the base call on that table, or the
# call must be refused with an error naming the parameter
ALTERNATIVES: dict[str, list] = {
    "item": [("item_b", "rich")],
    "rater": [("rater_b", "rich")],
    "value": [("score", "rich")],
    "metric": [("metric", "two_metrics")],
    "group_by": [("day", "rich")],
    "on_duplicate": [("first", "duplicate"), ("mean", "duplicate")],
    "missing": [([-1, 5], "rich")],
    "layout": [("wide", "rich")],
    "rater_columns": [(["value", "score"], "rich")],
    "orientation": [("raters_x_units", "rich")],
    "which": [(["fleiss_kappa"], "rich")],
    "level": [("interval", "rich"), ("nominal", "rich")],
    # on the rich table's numbers every label is a set of one: jaccard is the nominal distance,
    # and the result says which distance it used (its value is the nominal one)
    "distance": [("jaccard", "rich"), ({(a, b): abs(a - b) for a in range(-1, 6)
                                        for b in range(-1, 6)}, "rich")],
    "set_separator": [("|", "rich")],
    "raters": [(["b", "c"], "rich")],
    "weights": [("quadratic", "rich")],
    "categories": [([5, 4, 3, 2, 1, -1], "rich")],
    "domain": [([5, 4, 3, 2, 1, -1], "rich")],
    "labels": [([1, 2, 3], "rich")],
    "sample_weight": [({i: 1 + i % 3 for i in range(12)}, "rich")],
    "weight_basis": [("position", "rich")],
    "ci": [(0.9, "rich")],
    "ci_method": [("bootstrap", "rich")],
    "n_boot": [(50, "rich")],
    "seed": [(7, "rich")],
    "marginals": [("gwet", "rich")],
    "asymmetric_weights": [("symmetrize", "rich"), ("oriented", "rich")],
    "variance": [("irrcac_raw", "rich")],
    "inference": [("irrcac", "rich")],
    "incomplete_units": [("drop", "rich")],
    "limits": [(0.8, "rich")],
    "scales": [({"value": (0, 10), "m0": (0, 10), "m1": (0, 10)}, "rich")],
    "tolerance": [(0.0, "rich"), (1.0, "rich")],
    "units": [("complete", "rich")],
    "threshold": [(99.9, "noisy")],
    "max_traces": [(1, "noisy")],
    "max_patterns": [(0, "noisy")],
    "max_items": [(1, "rich")],
    "max_pair_raters": [(2, "rich")],
    "form": [("ICC1", "rich")],
    "coefficient": [("fleiss_kappa", "rich")],
    "target_width": [(0.1, "rich")],
    "lower_bound": [(0.5, "rich")],
    "confidence": [(0.8, "rich")],
}
