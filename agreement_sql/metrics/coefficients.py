"""Several agreement coefficients at once, from one statement and one pass over the data."""
from __future__ import annotations

from typing import Any, Sequence

from ..errors import OptionError
from ..interpret import krippendorff_label
from ..results import CoefficientsResult
from . import _kappa

# template name of every coefficient, in the order results list them
ALL = ("cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "gwet_ac1", "brennan_prediger",
       "percent_agreement", "krippendorff_alpha")
ALIASES = {"light_kappa": "cohen_kappa", "gwet_ac2": "gwet_ac1", "alpha": "krippendorff_alpha",
           "fleiss": "fleiss_kappa", "conger": "conger_kappa", "cohen": "cohen_kappa",
           "scott": "scott_pi", "bp": "brennan_prediger"}
LEVELS = ("nominal", "ordinal", "interval", "ratio")
TWO_RATER = ("scott_pi",)
# Light's kappa (and Scott's pi) by default only where at most this many raters rate a metric
# (or slice): it averages Cohen's kappa over every rater pair, r (r - 1) / 2 of them (45 at 10
# raters, 1,225 at 50), and costs that many times the rater-pair self-join of each item. Beyond
# it the result says so (`skipped`); which=["light_kappa", ...] computes it at any size.
LIGHT_MAX_RATERS = 10

# coefficients with a one-pass form in sql/coefficients.sql.j2 (the others read the ratings)
ONE_PASS = ("fleiss_kappa", "conger_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
            "krippendorff_alpha")


def _which(which: Sequence[str] | str | None) -> tuple[list[str], bool]:
    if which is None:
        return list(ALL), True
    names = [which] if isinstance(which, str) else list(which)
    chosen = []
    for name in names:
        canonical = ALIASES.get(str(name).lower().replace("-", "_"), str(name).lower().replace("-", "_"))
        if canonical not in ALL:
            raise OptionError(f"unknown coefficient {name!r}; choose from {', '.join(ALL)}")
        if canonical not in chosen:
            chosen.append(canonical)
    if not chosen:
        raise OptionError("which= names no coefficient")
    return [n for n in ALL if n in chosen], False


def coefficients(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
                 metric: str | None = None, group_by: Sequence[str] | str | None = None,
                 which: Sequence[str] | str | None = None, level: str = "nominal",
                 raters: Sequence[Any] | None = None, weights: Any = None,
                 categories: Sequence[Any] | None = None, weight_basis: str = "value",
                 ci: float | None = None, ci_method: str | None = None,
                 n_boot: int | None = None, seed: int | None = None,
                 on_duplicate: str | None = None, con: Any = None,
                 ) -> dict[str, dict[str, Any]] | list[CoefficientsResult]:
    """Every requested coefficient, computed by one SQL statement over one scan of the ratings.

    ``which`` lists coefficients by name (default: all that apply: Cohen's kappa with exactly
    two raters and Light's kappa otherwise, Scott's pi only with two raters, Fleiss, Conger,
    Gwet's AC1/AC2, Brennan-Prediger, percent agreement and Krippendorff's alpha at ``level``).
    ``weights``, ``categories``, ``weight_basis`` and ``ci`` apply to every kappa-family
    coefficient as in the single functions; ``raters`` picks the pair for Cohen and Scott.

    ``ci=0.95`` adds intervals, each as the single function gives it with the same arguments.
    ``ci_method="bootstrap"`` (``n_boot``, ``seed``): every coefficient, alpha included, gets
    its unit-resampling bootstrap interval from the same statement, over the same replicates
    (point estimates are replicate 0 of that pass). ``"analytic"``: the analytic standard
    errors; alpha and Light's kappa have none (``ci_method`` "none"). Left to its default,
    ``ci_method`` is analytic where a standard error exists and bootstrap for alpha and Light's
    kappa: a second statement, with the bootstrap, runs for those two only.

    Light's kappa by default: only for a metric (or slice) with at most :data:`LIGHT_MAX_RATERS`
    (10) raters, since it is the mean of Cohen's kappa over every rater pair (1,225 pairs at 50
    raters) and would cost more than every other coefficient together. Beyond that it is
    listed with ``value`` None, ``n_raters`` the metric's raters, and ``skipped`` saying why and
    how to ask for it: ``which=["light_kappa", ...]`` (or passing ``raters=``) computes it at
    any size.

    Without ``metric``/``group_by``: ``{name: result}``. Otherwise a list with, per metric (and
    slice), ``{"metric": ..., "group": ..., "coefficients": {name: result}}``.
    """
    names, default = _which(which)
    if level not in LEVELS:
        raise OptionError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    cap = default and raters is None and any(n in ("cohen_kappa", "scott_pi") for n in names)
    rows, s = _kappa.run("coefficients", source, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, con=con, weights=weights,
                         categories=categories, weight_basis=weight_basis, ci=ci,
                         ci_method=ci_method, n_boot=n_boot, seed=seed, raters=raters,
                         analytic=names != ["krippendorff_alpha"],
                         options={"which": names, "level": level, "pair_max_raters": cap},
                         params={"pair_max_raters": LIGHT_MAX_RATERS} if cap else None,
                         one_pass=any(n in ONE_PASS for n in names),
                         check=lambda setup: _check_level(setup, names, level),
                         bootstrap_too=lambda found: _without_analytic(found, names))
    boot = {_kappa.row_key(r, s): r for r in s.boot_rows or []}
    out: list[CoefficientsResult] = []
    for row in rows:
        found: dict[str, dict[str, Any]] = {}
        for name in names:
            prefix = f"{name}__"
            if name == "krippendorff_alpha":
                result = _alpha(row, prefix, level, s)
                if s.interval.analytic:
                    result.update(_default_interval(boot.get(_kappa.row_key(row, s)), prefix, s))
            else:
                result = _kappa.shape(row, s, prefix=prefix,
                                      interpret=name != "percent_agreement")
                result.pop("metric", None)
                result.pop("group", None)
                result["coefficient"] = result["coefficient"] or name   # no row: no rater of the pair
                if name in ("cohen_kappa", "scott_pi") and row[prefix + "rater_a"] is not None:
                    result["raters"] = [row[prefix + "rater_a"], row[prefix + "rater_b"]]
                if name == "cohen_kappa":
                    result["n_pairs"] = int(row[prefix + "n_pairs"] or 0)
                    result.update(_kappa.null_test_fields(row, s, prefix=prefix))
                    if result["coefficient"] == "light_kappa" and s.interval.analytic:
                        result.update(_default_interval(boot.get(_kappa.row_key(row, s)),
                                                        prefix, s))
            skipped = cap and name in ("cohen_kappa", "scott_pi") and row[prefix + "skipped"]
            if default and name in TWO_RATER and (result["n_raters"] > 2 or skipped):
                continue
            if skipped:
                result = _skipped_light(result, row[prefix + "metric_raters"], s)
            found[result["coefficient"]] = result
        entry = CoefficientsResult(metric=row["metric"], coefficients=found)
        if s.spec.group_by:
            entry["group"] = s.spec.describe_slice(row)
        out.append(entry)
    if _kappa.single(metric, group_by, s):
        return out[0]["coefficients"]
    return out


def _skipped_light(result: dict[str, Any], metric_raters: Any,
                   s: _kappa.KappaSetup) -> dict[str, Any]:
    """Light's kappa left out by default (more than LIGHT_MAX_RATERS raters): said, not dropped."""
    result.update(coefficient="light_kappa", n_raters=int(metric_raters or 0), n_pairs=0,
                  skipped=(f"not computed by default with more than {LIGHT_MAX_RATERS} raters "
                           "(Light's kappa is the mean of Cohen's kappa over every rater pair); "
                           "ask for it with which=['light_kappa', ...]"))
    if "ci_method" in result:
        for key in ("n_boot", "n_boot_valid", "seed"):
            result.pop(key, None)
        result.update(_kappa.no_interval(s))
    return result


def _without_analytic(rows: list[dict[str, Any]], names: list[str]) -> dict[str, Any] | None:
    """With the default method: which coefficients to bootstrap in a second statement (alpha,
    and Cohen's when some metric or slice gave Light's kappa), or None."""
    light = "cohen_kappa" in names and any(r.get("cohen_kappa__coefficient") == "light_kappa"
                                           for r in rows)
    again = [n for n in names if n == "krippendorff_alpha" or (n == "cohen_kappa" and light)]
    return {"which": again} if again else None


def _default_interval(boot_row: dict[str, Any] | None, prefix: str,
                      s: _kappa.KappaSetup) -> dict[str, Any]:
    """The bootstrap interval of a coefficient without an analytic SE, from the second
    statement (``ci_method`` left to its default), else ``ci_method`` "none"."""
    if boot_row is None or s.boot_interval is None:
        return _kappa.no_interval(s)
    return _kappa.interval_fields(boot_row, s, prefix=prefix, interval=s.boot_interval)


def _check_level(s: _kappa.KappaSetup, names: list[str], level: str) -> None:
    if "krippendorff_alpha" in names and level != "nominal" and s.options["by_label"]:
        raise OptionError(f"krippendorff_alpha at level {level!r} needs numeric ratings or a declared "
                          "order: the ratings include text labels, so pass categories=[...] in their "
                          "order, or level='nominal'")


def _alpha(row: dict[str, Any], prefix: str, level: str, s: _kappa.KappaSetup) -> dict[str, Any]:
    value = row[prefix + "value"]
    result: dict[str, Any] = {
        "coefficient": "krippendorff_alpha",
        "level": level,
        "value": value,
        "observed_disagreement": row[prefix + "observed_disagreement"],
        "expected_disagreement": row[prefix + "expected_disagreement"],
        "n_items": int(row[prefix + "n_items"] or 0),
        "n_raters": int(row[prefix + "n_raters"] or 0),
        "n_values": int(row[prefix + "n_values"] or 0),
        "n_categories": int(row[prefix + "n_categories"] or 0),
        "interpretation": krippendorff_label(value),
    }
    if s.interval.bootstrap:
        result.update(_kappa.interval_fields(row, s, prefix=prefix))
    elif s.interval.analytic:
        result.update(_kappa.no_interval(s))
    return result
