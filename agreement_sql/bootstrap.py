"""Confidence intervals by unit-resampling bootstrap, run inside the database.

Every coefficient template can resample: with the structural option ``bootstrap`` the ratings
partial appends ``sql/_replicates.sql.j2`` (replicate 0 = the observed data, replicates
1..n_boot = resampled units, drawn by a MINSTD stream seeded with ``seed``), the coefficient's
own partial runs unchanged grouped by its keys plus ``replicate``, and ``sql/_bootstrap.sql.j2``
takes the percentile interval. This module only checks the options, binds them and copies the
template's columns into the result: it computes nothing (docs/alpha_and_bootstrap.md).

A metric wrapper uses it in three lines::

    interval = bootstrap.interval_spec(ci, ci_method, n_boot, seed, analytic=False)
    rows = execute(con, template, spec.options(**interval.options()), spec.params(**interval.params()))
    result.update(interval.fields(row))
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

CI_METHODS = ("analytic", "bootstrap")
DEFAULT_N_BOOT = 1000
MAX_N_BOOT = 100_000          # sql/_replicates.sql.j2 numbers replicates with five decimal digits
DEFAULT_SEED = 1              # the C++ std::minstd_rand default seed
MAX_SEED = 2**62              # the template casts the seed to BIGINT before reducing it


@dataclass(frozen=True)
class IntervalSpec:
    """What the caller asked for: no interval, an analytic one, or a bootstrap one."""

    ci: float | None = None
    method: str | None = None
    n_boot: int = DEFAULT_N_BOOT
    seed: int = DEFAULT_SEED

    @property
    def bootstrap(self) -> bool:
        return self.ci is not None and self.method == "bootstrap"

    @property
    def analytic(self) -> bool:
        return self.ci is not None and self.method == "analytic"

    def options(self) -> dict[str, Any]:
        """Structural template options: ``bootstrap`` switches the resampling partials on."""
        return {"bootstrap": self.bootstrap}

    def params(self) -> dict[str, Any]:
        """Bound values: replicate count, seed and the two quantile probabilities."""
        if not self.bootstrap:
            return {}
        assert self.ci is not None
        return {"n_boot": self.n_boot, "seed": self.seed,
                "ci_low_p": (1.0 - self.ci) / 2.0, "ci_high_p": (1.0 + self.ci) / 2.0}

    def fields(self, row: dict[str, Any]) -> dict[str, Any]:
        """The interval keys of a result, copied from the template's row."""
        if not self.bootstrap:
            return {}
        return {"se": row["se"], "ci_low": row["ci_low"], "ci_high": row["ci_high"],
                "ci_method": "bootstrap", "ci_level": self.ci, "n_boot": self.n_boot,
                "n_boot_valid": int(row["n_boot_valid"]), "seed": self.seed}


def interval_spec(ci: float | None = None, ci_method: str | None = None,
                  n_boot: int | None = None, seed: int | None = None, *,
                  analytic: bool) -> IntervalSpec:
    """Check the interval options of a metric call.

    ``ci`` is the confidence level (e.g. 0.95) or None for no interval. ``ci_method`` is
    ``"analytic"`` (only where the coefficient has a standard error in the literature,
    ``analytic=True``) or ``"bootstrap"``; None picks analytic where available, else bootstrap.
    ``n_boot`` (default 1000, at most 100000) and ``seed`` (default 1) apply to the bootstrap.
    """
    if ci is None:
        if ci_method is not None:
            raise OptionError(f"ci_method={ci_method!r} needs a confidence level, e.g. ci=0.95")
        return IntervalSpec()
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not math.isfinite(ci) \
            or not 0.0 < float(ci) < 1.0:
        raise OptionError(f"ci must be a confidence level between 0 and 1 (e.g. 0.95), got {ci!r}")
    method = ci_method if ci_method is not None else ("analytic" if analytic else "bootstrap")
    if method not in CI_METHODS:
        raise OptionError(f"ci_method must be 'analytic' or 'bootstrap', got {ci_method!r}")
    if method == "analytic" and not analytic:
        raise OptionError("this coefficient has no analytic standard error; use "
                          "ci_method='bootstrap'")
    n = DEFAULT_N_BOOT if n_boot is None else n_boot
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_N_BOOT:
        raise OptionError(f"n_boot must be a whole number from 2 to {MAX_N_BOOT}, got {n_boot!r}")
    s = DEFAULT_SEED if seed is None else seed
    if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < MAX_SEED:
        raise OptionError(f"seed must be a whole number from 0 to 2**62 - 1, got {seed!r}")
    return IntervalSpec(ci=float(ci), method=method, n_boot=n, seed=s)
