"""The unit-resampling bootstrap run inside the database (sql/_replicates.sql.j2,
sql/_bootstrap.sql.j2): reproducible by seed, the documented draws exactly, agreement with
analytic standard errors on large samples, and the degenerate cases.
"""
from __future__ import annotations

import json
import math

import duckdb
import krippendorff
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from agreement_sql import OptionError, cohen_kappa, krippendorff_alpha, render
from agreement_sql.bootstrap import interval_spec
from conftest import REFERENCE

K2011 = str(REFERENCE / "krippendorff2011_4x12.csv")
M, A = 2147483647, 48271


def minstd(seed: int):
    """C++ std::minstd_rand: x0 = seed mod (2^31 - 1) (0 -> 1), x_k = 48271 x_(k-1) mod (2^31 - 1)."""
    x = seed % M or 1
    while True:
        x = A * x % M
        yield x


def reference_draws(seed: int, n_units: int, n_boot: int) -> list[list[int]]:
    """The documented draws: draw j of replicate b is unit 1 + x_((b-1)N + j) mod N (1-based)."""
    stream = minstd(seed)
    return [[1 + next(stream) % n_units for _ in range(n_units)] for _ in range(n_boot)]


def reference_alpha(wide: np.ndarray, level: str, domain) -> float | None:
    """krippendorff.alpha with the package's conventions for the cases the library leaves open."""
    counts = (~np.isnan(wide)).sum(axis=0)
    pairable = wide[:, counts >= 2]
    values = set(pairable[~np.isnan(pairable)])
    if not values:
        return None
    if len(values) == 1:
        return 1.0
    return krippendorff.alpha(reliability_data=wide, level_of_measurement=level, value_domain=domain)


def reference_interval(values: list[float], ci: float) -> tuple[float, float, float]:
    v = sorted(x for x in values if x is not None)
    n = len(v)
    lo = max(1, math.ceil(n * (1 - ci) / 2 - 1e-9))
    hi = max(1, math.ceil(n * (1 + ci) / 2 - 1e-9))
    return float(np.std(v, ddof=1)), v[lo - 1], v[hi - 1]


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_bootstrap_is_the_documented_algorithm_exactly(level):
    # Resample Krippendorff (2011)'s 12 units in Python with the same MINSTD draws, compute each
    # replicate's alpha with the reference library, and take the same percentile interval.
    frame = pd.read_csv(K2011, dtype={"item": str, "rater": str})
    wide = frame.pivot(index="rater", columns="item", values="value")
    units = sorted(wide.columns)                      # units numbered 1..N in item order
    matrix = wide[units].to_numpy(dtype=float)
    n_boot, seed, ci = 150, 20240611, 0.9
    replicate_values = [reference_alpha(matrix[:, [u - 1 for u in draw]], level, [1, 2, 3, 4, 5])
                        for draw in reference_draws(seed, len(units), n_boot)]
    se, low, high = reference_interval(replicate_values, ci)
    ours = krippendorff_alpha(K2011, level=level, ci=ci, n_boot=n_boot, seed=seed)
    assert ours["n_boot_valid"] == sum(v is not None for v in replicate_values)
    assert ours["se"] == pytest.approx(se, abs=1e-9)
    assert ours["ci_low"] == pytest.approx(low, abs=1e-9)
    assert ours["ci_high"] == pytest.approx(high, abs=1e-9)
    assert (ours["ci_method"], ours["ci_level"], ours["n_boot"], ours["seed"]) == ("bootstrap", ci, n_boot, seed)


def _by_hand(script: str) -> tuple[list[str], str]:
    """A rendered script as an analyst runs it: its setup statements (the dialect's macros),
    and the statement itself (from WITH), comments left out."""
    code = [line for line in script.splitlines() if not line.lstrip().startswith("--")]
    setup = [line for line in code if line.startswith(("CREATE ", "SET VARIABLE "))]
    start = next(i for i, line in enumerate(code) if line.strip() == "WITH")
    return setup, "\n".join(code[start:])


def test_the_draws_in_sql_are_the_minstd_stream():
    # run the replicate partial of the rendered statement alone and read back which unit each
    # draw picked: the documented MINSTD stream (reference_draws) for any seed
    setup, statement = _by_hand(render("krippendorff_alpha", bootstrap=True, level="nominal"))
    query = statement.split("ratings_observed AS (")[0].rstrip().rstrip(",") + (
        "\nSELECT replicate, draw_no, unit_no FROM boot_draws ORDER BY replicate, draw_no")
    con = duckdb.connect()
    for line in setup:
        con.execute(line)
    n = 37
    con.register("ratings", pa.table({"item": [f"i{k:03d}" for k in range(n) for _ in (0, 1)],
                                      "rater": ["a", "b"] * n, "value": [1.0, 2.0] * n}))
    for seed in (0, 1, 987654321, 2**40 + 5):
        # the script's parameters are DuckDB variables its header sets: set them as a user would
        con.execute(f"SET VARIABLE n_boot = 25; SET VARIABLE seed = {seed}")
        rows = con.execute(query).fetchall()
        expected = reference_draws(seed, n, 25)
        got = [[r[2] for r in rows if r[0] == b] for b in range(1, 26)]
        assert got == expected, seed


def test_the_rendered_script_run_by_hand_gives_the_interval():
    # the script render() prints, run by hand with the values its header names, gives the
    # same alpha and interval as the call (Krippendorff 2011: interval alpha 0.849)
    script = render("krippendorff_alpha", bootstrap=True, level="interval")
    setup, statement = _by_hand(script)
    assert "SET VARIABLE n_boot = 1000;" in script and "SET VARIABLE seed = 1;" in script
    con = duckdb.connect()
    for line in setup:
        con.execute(line)
    con.execute("CREATE TEMP TABLE ratings AS SELECT * FROM read_csv(?, "
                "types={'item': 'VARCHAR', 'rater': 'VARCHAR'})", [K2011])
    # the header's values changed on their lines, as the header says
    cursor = con.execute(script.replace("SET VARIABLE n_boot = 1000;", "SET VARIABLE n_boot = 200;")
                         .replace("SET VARIABLE seed = 1;", "SET VARIABLE seed = 9;"))
    columns = [d[0] for d in cursor.description]
    row = dict(zip(columns, cursor.fetchall()[0]))
    ours = krippendorff_alpha(K2011, level="interval", ci=0.95, n_boot=200, seed=9)
    assert round(row["value"], 3) == 0.849
    for key in ("value", "se", "ci_low", "ci_high", "n_boot_valid"):
        assert row[key] == pytest.approx(ours[key], abs=1e-12), key


def test_same_seed_same_interval_other_seed_other_interval():
    first = krippendorff_alpha(K2011, level="interval", ci=0.95, n_boot=300, seed=42)
    again = krippendorff_alpha(K2011, level="interval", ci=0.95, n_boot=300, seed=42)
    other = krippendorff_alpha(K2011, level="interval", ci=0.95, n_boot=300, seed=43)
    # the same seed gives the same bytes (docs/decisions/0008: order-free sums, ranked ties)
    assert json.dumps(again) == json.dumps(first)
    assert (first["se"], first["ci_low"], first["ci_high"]) != (other["se"], other["ci_low"], other["ci_high"])
    assert first["value"] == other["value"] == krippendorff_alpha(K2011, level="interval")["value"]


def test_default_seed_and_replicates():
    r = krippendorff_alpha(K2011, level="nominal", ci=0.95)
    assert (r["n_boot"], r["seed"], r["ci_method"]) == (1000, 1, "bootstrap")
    assert r["ci_low"] <= r["value"] <= r["ci_high"]


def _two_raters(n_units: int, seed: int, flip: float = 0.3, n_categories: int = 3) -> pa.Table:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_categories, n_units)

    def rate():
        noisy = rng.random(n_units) < flip
        return np.where(noisy, rng.integers(0, n_categories, n_units), truth)

    a, b = rate(), rate()
    return pa.table({"item": np.repeat(np.arange(n_units), 2).astype(str),
                     "rater": np.tile(["A", "B"], n_units),
                     "value": np.column_stack([a, b]).ravel().astype(float)})


@pytest.mark.slow
def test_large_sample_alpha_bootstrap_se_matches_the_sampling_sd():
    # 2000 units, 2 raters, 3 categories. The bootstrap SD of one sample should estimate the
    # SD of alpha over fresh samples. Monte Carlo: 200 samples -> the SD is known to about
    # 1/sqrt(2 * 199) = 5%; B = 1000 replicates add about 1/sqrt(2000) = 2%; the bootstrap SD
    # of a single n = 2000 sample varies by a few % more. 15% is about three combined sigmas.
    # The percentile interval should match the normal one (alpha is close to normal here)
    # to within a quarter of an SE at each end.
    con = duckdb.connect()
    sample = krippendorff_alpha(_two_raters(2000, 1), level="nominal", ci=0.95, seed=7, con=con)
    fresh = [krippendorff_alpha(_two_raters(2000, s), level="nominal", con=con)["value"]
             for s in range(100, 300)]
    sd = float(np.std(fresh, ddof=1))
    assert sample["se"] == pytest.approx(sd, rel=0.15)
    assert sample["ci_low"] == pytest.approx(sample["value"] - 1.959964 * sd, abs=0.25 * sd)
    assert sample["ci_high"] == pytest.approx(sample["value"] + 1.959964 * sd, abs=0.25 * sd)


@pytest.mark.slow
def test_large_sample_cohen_bootstrap_matches_the_analytic_interval():
    # Cohen's kappa has the Fleiss-Cohen-Everitt (1969) asymptotic SE (sql/_cohen.sql.j2). On
    # 2000 units the bootstrap SD should agree with it to within 10% (B = 1000: ~2% Monte Carlo
    # error, plus the asymptotic SE's own O(1/n) approximation), and each percentile end with
    # kappa -/+ 1.96 se to within 0.3 se.
    table = _two_raters(2000, 5)
    analytic = cohen_kappa(table, ci=0.95)
    boot = cohen_kappa(table, ci=0.95, ci_method="bootstrap", n_boot=1000, seed=11)
    assert (analytic["ci_method"], boot["ci_method"]) == ("analytic", "bootstrap")
    assert boot["value"] == pytest.approx(analytic["value"], abs=1e-12)
    assert boot["se"] == pytest.approx(analytic["se"], rel=0.10)
    assert boot["ci_low"] == pytest.approx(analytic["ci_low"], abs=0.3 * analytic["se"])
    assert boot["ci_high"] == pytest.approx(analytic["ci_high"], abs=0.3 * analytic["se"])


def test_undefined_replicates_are_left_out_and_counted():
    # 3 units, only one of them pairable: replicates that miss it have no alpha
    table = pa.table({"item": ["a", "a", "b", "c"], "rater": ["x", "y", "x", "y"],
                      "value": [1.0, 2.0, 1.0, 2.0]})
    r = krippendorff_alpha(table, level="interval", ci=0.95, n_boot=200, seed=5)
    draws = reference_draws(5, 3, 200)
    assert r["n_boot_valid"] == sum(1 in d for d in draws)   # unit 1 = "a"


def test_degenerate_bootstrap_results():
    one_rater = pa.table({"item": ["a", "b"], "rater": ["x", "x"], "value": [1.0, 2.0]})
    r = krippendorff_alpha(one_rater, level="interval", ci=0.95, n_boot=50)
    assert r["value"] is None and r["se"] is None and r["ci_low"] is None and r["ci_high"] is None
    assert r["n_boot_valid"] == 0
    agree = pa.table({"item": ["a", "a", "b", "b"], "rater": ["x", "y"] * 2, "value": [1.0, 1.0, 2.0, 2.0]})
    r = krippendorff_alpha(agree, level="nominal", ci=0.95, n_boot=50)
    assert (r["value"], r["se"], r["ci_low"], r["ci_high"], r["n_boot_valid"]) == (1.0, 0.0, 1.0, 1.0, 50)


@pytest.mark.parametrize("kwargs,message", [
    ({"ci": 1.5}, "between 0 and 1"),
    # alpha's analytic standard error is irrCAC krippen.alpha.raw's: nominal and interval only
    ({"ci": 0.95, "ci_method": "analytic", "level": "ordinal"}, "no analytic standard error"),
    ({"ci": 0.95, "ci_method": "analytic", "level": "ratio"}, "no analytic standard error"),
    ({"ci": 0.95, "ci_method": "jackknife"}, "'analytic' or 'bootstrap'"),
    ({"ci_method": "bootstrap"}, "needs a confidence level"),
    ({"ci": 0.95, "n_boot": 1}, "n_boot must be"),
    ({"ci": 0.95, "n_boot": 100001}, "n_boot must be"),
    ({"ci": 0.95, "seed": -1}, "seed must be"),
    ({"ci": 0.95, "seed": 1.5}, "seed must be"),
])
def test_bad_interval_options(kwargs, message):
    with pytest.raises(OptionError, match=message):
        krippendorff_alpha(K2011, **kwargs)


def test_interval_spec_binds_quantile_probabilities():
    spec = interval_spec(0.9, None, 500, 3, analytic=False)
    assert spec.options() == {"bootstrap": True}
    assert spec.params() == pytest.approx({"n_boot": 500, "seed": 3, "ci_low_p": 0.05, "ci_high_p": 0.95})
    assert interval_spec(0.9, None, None, None, analytic=True).method == "analytic"
    assert interval_spec(None, analytic=True).options() == {"bootstrap": False}


def test_bootstrap_sql_is_portable():
    sql = render("krippendorff_alpha", dialect="spark", level="ordinal", bootstrap=True)
    code = "\n".join(line.split("--")[0] for line in sql.splitlines())     # no comments
    upper = code.upper()
    for construct in ("RANGE(", "GENERATE_SERIES", "RANDOM(", "HASH(", "QUALIFY", "FILTER (",
                      "::", "//", "QUANTILE", "MEDIAN", "PERCENTILE", "GROUP BY ALL", "LIST_"):
        assert construct not in upper, construct
    assert "${agreement_sql.n_boot}" in code and "${agreement_sql.seed}" in code
    assert "boot_draws AS (" in code and "boot_replicates AS (" in code


@pytest.mark.parametrize("policy", ["first", "last"])
def test_a_duplicate_policy_that_keeps_one_row_resamples_the_kept_ratings(policy):
    # on_duplicate='first'/'last' numbers the input rows (the rating kept is the first or the
    # last in input order); the bootstrap's replicates carried no row numbers, so the per-unit
    # pass that reads a unit's first row was refused by the database. Oracle: the same call on
    # the table with the repeated ratings removed by hand, keeping the first (last) row.
    import random

    import agreement_sql as ag

    rng = random.Random(11)
    rows = [{"item": i, "rater": r, "value": rng.randint(1, 4)}
            for i in range(12) for r in ("a", "b", "c") for _ in range(rng.choice([1, 1, 2]))]
    kept: dict[tuple, dict] = {}
    for row in rows:
        key = (row["item"], row["rater"])
        if policy == "last" or key not in kept:
            kept[key] = row
    assert len(kept) < len(rows)
    for function, extra in ((ag.krippendorff_alpha, {"level": "ordinal"}),
                            (ag.fleiss_kappa, {}),
                            (ag.krippendorff_alpha, {"domain": [1, 2, 3, 4]})):
        got = function(pa.Table.from_pylist(rows), on_duplicate=policy, ci=0.9,
                       ci_method="bootstrap", n_boot=40, **extra)
        expected = function(pa.Table.from_pylist(list(kept.values())), ci=0.9,
                            ci_method="bootstrap", n_boot=40, **extra)
        assert (got["value"], got["ci_low"], got["ci_high"]) == \
            (expected["value"], expected["ci_low"], expected["ci_high"]), (function, extra)
        assert got["ci_low"] is not None
