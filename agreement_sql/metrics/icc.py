"""The intraclass correlation: McGraw & Wong's (1996) six forms with their F tests and
intervals, from one statement (sql/icc.sql.j2, the ANOVA in sql/_icc.sql.j2).

Python reads the statement's rows and adds only what DuckDB cannot compute: the F quantiles of
the intervals and the F tail of the p-value (agreement_sql.distributions), plugged into the
interval endpoints of McGraw & Wong (1996, Table 7) / Shrout & Fleiss (1979) by
:func:`interval`. Every other number (the ICCs, F, the degrees of freedom, the mean squares,
the counts) comes from the statement or the ratings profile.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from .. import routes
from ..public import public
from ..distributions import f_ppf, f_sf
from ..errors import OptionError
from ..interpret import koo_li
from ..profile import Profile, read_profile
from ..results import ICCResult
from ..session import ratings_session
from ..sources import check_layout
from ._common import counted, every_key

# name -> (Shrout & Fleiss 1979, McGraw & Wong 1996, R irr model/type/unit)
FORMS: dict[str, tuple[str, str, str]] = {
    "ICC1": ("ICC(1,1)", "ICC(1)", "oneway / consistency / single"),
    "ICC2": ("ICC(2,1)", "ICC(A,1)", "twoway / agreement / single"),
    "ICC3": ("ICC(3,1)", "ICC(C,1)", "twoway / consistency / single"),
    "ICC1k": ("ICC(1,k)", "ICC(k)", "oneway / consistency / average"),
    "ICC2k": ("ICC(2,k)", "ICC(A,k)", "twoway / agreement / average"),
    "ICC3k": ("ICC(3,k)", "ICC(C,k)", "twoway / consistency / average"),
}
ALIASES = {"icc(1,1)": "ICC1", "icc(2,1)": "ICC2", "icc(3,1)": "ICC3", "icc(1,k)": "ICC1k",
           "icc(2,k)": "ICC2k", "icc(3,k)": "ICC3k", "icc(a,1)": "ICC2", "icc(c,1)": "ICC3",
           "icc(a,k)": "ICC2k", "icc(c,k)": "ICC3k"}
# the columns of sql/coefficients.sql.j2 that carry the ICC row (option icc_from_patterns)
STATEMENT_PREFIX = "icc_"


def form_name(form: str) -> str:
    """``"icc2"``, ``"ICC(2,1)"`` or ``"ICC(A,1)"`` -> ``"ICC2"``."""
    text = str(form).strip()
    for name in FORMS:
        if text.lower() == name.lower():
            return name
    found = ALIASES.get(text.lower().replace(" ", ""))
    if found is None:
        raise OptionError(f"unknown ICC form {form!r}; choose from {', '.join(FORMS)} "
                          "(or Shrout & Fleiss ICC(2,1), McGraw & Wong ICC(A,1), ...)")
    return found


def _level(ci: Any) -> float:
    if isinstance(ci, bool) or not isinstance(ci, (int, float)) or not 0.0 < float(ci) < 1.0:
        raise OptionError(f"ci must be a confidence level between 0 and 1 (e.g. 0.95), got {ci!r}")
    return float(ci)


def interval(row: Mapping[str, Any], level: float) -> tuple[float | None, float | None]:
    """The confidence interval of one form: McGraw & Wong (1996) Table 7, as Shrout & Fleiss
    (1979) and pingouin give it.

    ICC1/ICC3 (exact): F_L = F / F_(1-a/2)(df1, df2), F_U = F F_(1-a/2)(df2, df1); single
    (F_L - 1) / (F_L + k - 1), average 1 - 1/F_L (likewise F_U). ICC2 (approximate, v the
    Satterthwaite df of the statement): F* = F_(1-a/2)(n - 1, v), F** = F_(1-a/2)(v, n - 1),
    lower n (MS_R - F* MS_E) / (F* (k MS_C + (k n - k - n) MS_E) + n MS_R), upper
    n (F** MS_R - MS_E) / (k MS_C + (k n - k - n) MS_E + n F** MS_R); ICC2k is their
    Spearman-Brown step-up k L / (1 + (k - 1) L), which is McGraw & Wong's ICC(A,k) bound.
    """
    form, value = row["form"], row["value"]
    if value is None:
        return None, None
    n, k = row["n_items"], row["n_raters"]
    upper_q = 1.0 - (1.0 - level) / 2.0
    if form in ("ICC2", "ICC2k"):
        v, msr, msc, mse = row["ci_df2"], row["ms_rows"], row["ms_cols"], row["ms_error"]
        if v is None or not v > 0.0 or msr is None:
            return None, None
        f_star, f_star2 = f_ppf(upper_q, n - 1, v), f_ppf(upper_q, v, n - 1)
        spread = k * msc + (k * n - k - n) * mse
        low = _ratio(n * (msr - f_star * mse), f_star * spread + n * msr)
        high = _ratio(n * (f_star2 * msr - mse), spread + n * f_star2 * msr)
        if form == "ICC2k":
            low, high = _step_up(low, k), _step_up(high, k)
        return low, high
    f, df1, df2 = row["f"], row["df1"], row["df2"]
    if f is None or df1 is None or df2 is None:
        return None, None
    f_low, f_high = f / f_ppf(upper_q, df1, df2), f * f_ppf(upper_q, df2, df1)
    if form.endswith("k"):
        return _ratio(f_low - 1.0, f_low), _ratio(f_high - 1.0, f_high)
    return _ratio(f_low - 1.0, f_low + k - 1.0), _ratio(f_high - 1.0, f_high + k - 1.0)


def _ratio(a: float, b: float) -> float | None:
    if b == 0.0 or not math.isfinite(a) or not math.isfinite(b):
        return None
    return a / b


def _step_up(bound: float | None, k: int) -> float | None:
    """Spearman-Brown k L / (1 + (k - 1) L); None where the denominator vanishes (L <= -1/(k-1))."""
    if bound is None or 1.0 + (k - 1) * bound <= 1e-12:
        return None
    return _ratio(k * bound, 1.0 + (k - 1) * bound)


def p_value(row: Mapping[str, Any]) -> float | None:
    """One-sided p of H0 ICC = 0 against ICC > 0: P(F(df1, df2) > F) (McGraw & Wong 1996,
    Table 8 with rho_0 = 0; pingouin's pval)."""
    f, df1, df2 = row["f"], row["df1"], row["df2"]
    if f is None or df1 is None or df2 is None:
        return None
    return f_sf(f, df1, df2)


@public()
def icc(source: Any, *, item: str = "item", rater: str = "rater", value: str = "value",
        form: str | None = None, metric: str | None = None, group_by: Any = None,
        ci: float = 0.95, on_duplicate: str | None = None, missing: Any = None,
        con: Any = None, layout: str | None = None, rater_columns: Sequence[str] | None = None,
        orientation: str | None = None) -> Any:
    """Intraclass correlation coefficients with their F tests and confidence intervals.

    The six forms of McGraw & Wong (1996) under pingouin's names: ``ICC1`` (one-way random,
    single; Shrout & Fleiss ICC(1,1)), ``ICC2`` (two-way random, absolute agreement, single;
    ICC(2,1), McGraw & Wong ICC(A,1)), ``ICC3`` (two-way mixed, consistency, single; ICC(3,1),
    ICC(C,1)) and their average-measure forms ``ICC1k``, ``ICC2k``, ``ICC3k`` (the reliability
    of the mean of the k raters). ``form=`` picks one (also as ``"ICC(2,1)"`` or
    ``"ICC(A,1)"``); by default all six, a list in that order.

    Listwise, as pingouin (``nan_policy="omit"``) and R irr: only the items rated by every
    rater of the metric (and slice) enter; ``n_excluded_items`` counts the others and
    ``n_excluded["incomplete_item"]`` the ratings they held. ``ci`` is the interval's level
    (exact F intervals for ICC1/ICC3, Satterthwaite's approximation for ICC2; docs/icc.md);
    ``p_value`` tests ICC = 0 one-sided. Ratings must be numbers. With ``metric``/``group_by``
    one entry per metric and slice: a list of those lists (or of single results with
    ``form=``). Undefined values (fewer than two complete items or two raters, no variance)
    are None. Interpretation: Koo & Li (2016).
    """
    wanted = [form_name(form)] if form is not None else list(FORMS)
    level = _level(ci)
    with ratings_session(source, con=con, item=item, rater=rater, value=value, metric=metric,
                         group_by=group_by, on_duplicate=on_duplicate, missing=missing,
                         layout=check_layout(layout, rater_columns, orientation),
                         needs_raters="the intraclass correlation") as spec:
        profile = read_profile(spec)
        profile.check(numbers=True, what="the intraclass correlation")
        by_key = icc_on(spec, profile, wanted, level)
    out: list[Any] = [found[0] if form is not None else found for found in by_key.values()]
    return out if spec.several else (out[0] if out else None)


def icc_on(spec: Any, profile: Profile, wanted: Sequence[str],
           level: float) -> dict[tuple[Any, ...], list[ICCResult]]:
    """The ICC forms ``wanted`` per metric (and slice) key, on the ratings of an open call
    (numeric ratings, checked by the caller): sql/icc.sql.j2, one statement, its producer
    (packed or joined) the route's (agreement_sql.routes.icc_producer)."""
    route = routes.decide(profile, "icc", routes.Needs(wide=False))
    producer = routes.icc_producer(profile)
    digits = routes.packed_digits(profile) if producer == "packed" else 0
    kinds = ["number"] * len(profile.categories) if digits else []
    params = {f"category_{i}": x for i, (x, _) in enumerate(profile.categories)} if digits else {}
    rows = route.query(spec, "icc",
                       {**spec.options(), "rater_blocks": 0 if digits else route.rater_blocks,
                        "rater_digits": digits, "categories": kinds, "rater_patterns": False,
                        "rater_list": 0, "icc_from_patterns": False},
                       {**spec.params(), **params}, icc=producer)
    return icc_results(spec, profile, rows, wanted, level)


def statement_rows(rows: Sequence[dict[str, Any]], profile: Profile) -> list[dict[str, Any]]:
    """The ICC rows sql/coefficients.sql.j2 carries (option icc_from_patterns): per metric (and
    slice), its first row's ``icc_<column>`` columns as the row of sql/_icc.sql.j2 they are."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    slices = profile.spec.slices
    for row in rows:
        key = profile.key_of(row)
        if key in out or row.get(STATEMENT_PREFIX + "form") is None:
            continue
        out[key] = {"metric": row.get("metric"), **{s: row.get(s) for s in slices},
                    **{c[len(STATEMENT_PREFIX):]: v for c, v in row.items()
                       if c.startswith(STATEMENT_PREFIX)}}
    return list(out.values())


def icc_results(spec: Any, profile: Profile, rows: Sequence[Mapping[str, Any]],
                wanted: Sequence[str], level: float) -> dict[tuple[Any, ...], list[ICCResult]]:
    """The results of the forms ``wanted`` per metric (and slice) key from rows of
    sql/_icc.sql.j2's ``icc`` (:func:`icc_on`'s statement, or :func:`statement_rows`; the route
    that ran them refused a rater rating an item twice)."""
    def shaped(row: Mapping[str, Any]) -> ICCResult:
        result = _result(row, profile, level)
        if spec.group_by:
            result["group"] = spec.describe_slice(dict(row))
        return result

    by_key: dict[tuple[Any, ...], list[ICCResult]] = {}
    for row in rows:
        if row["form"] in wanted:
            by_key.setdefault(profile.key_of(dict(row)), []).append(shaped(row))
    blank = dict.fromkeys(("value", "f", "df1", "df2", "ci_df2", "n_items", "n_raters",
                           "n_excluded_items", "n_incomplete_ratings"))
    return every_key(profile, by_key, lambda key: [
        shaped({**blank, **key, "form": form}) for form in FORMS if form in wanted])


def _result(row: Mapping[str, Any], profile: Profile, level: float) -> ICCResult:
    low, high = interval(row, level)
    shrout_fleiss, mcgraw_wong, irr = FORMS[row["form"]]
    accounting = counted(profile, row, used=int(row["n_items"] or 0) * int(row["n_raters"] or 0),
                         single_rated=False)
    accounting["n_excluded"]["incomplete_item"] = int(row["n_incomplete_ratings"] or 0)
    return ICCResult(
        form=row["form"], shrout_fleiss=shrout_fleiss, mcgraw_wong=mcgraw_wong, irr=irr,
        value=row["value"], f=row["f"],
        df1=_whole(row["df1"]), df2=_whole(row["df2"]), ci_df2=row["ci_df2"],
        p_value=p_value(row), ci_low=low, ci_high=high, ci_level=level,
        n_items=int(row["n_items"] or 0), n_raters=int(row["n_raters"] or 0),
        n_excluded_items=int(row["n_excluded_items"] or 0),
        interpretation=koo_li(row["value"]), metric=row["metric"],
        **accounting,  # type: ignore[typeddict-item]
    )


def _whole(x: Any) -> int | None:
    return None if x is None else int(x)


def forms_table() -> list[dict[str, str]]:
    """The names of each form (docs/icc.md's table)."""
    return [{"form": name, "shrout_fleiss": sf, "mcgraw_wong": mw, "irr": irr}
            for name, (sf, mw, irr) in FORMS.items()]


__all__: Sequence[str] = ["icc", "FORMS", "form_name", "interval", "p_value"]
