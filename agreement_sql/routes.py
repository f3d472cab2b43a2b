"""Routes: how a call gathers each statistic's inputs, decided in one place (docs/decisions/0013).

A statistic is written once (docs/decisions/0003); its inputs can be gathered in several ways,
each a named *producer* (a template or a named macro of one, whose header says what it
gathers, why it exists and the benchmark figure that justifies it). Which producers a statement
uses is a *route*, and this module is the only code that chooses one: from the ratings profile
and what the statement computes (:class:`Needs`), :func:`decide` returns the :class:`Route`
whose template options select the producers; :func:`icc_producer`, :func:`judges_producer` and
:func:`consistency_reader` choose the producers of the
statements that have their own. Every choice is one of :data:`DECISIONS`' declared
alternatives, recorded for the call (:func:`collecting`; the public functions put it in each
result's ``route``), printed with ``AGREEMENT_SQL_TRACE=1``, and shown by
``render(..., explain=True)``.

Tests force any declared alternative with :func:`forcing` (``routes.forcing(units="counts")``):
the one way to force a route, replacing the module switches earlier code had. An alternative
that cannot serve the data at hand (the wide form for continuous scores) is not taken, and the
record says what was.

Running a statement through its route (:meth:`Route.query`, :meth:`Route.query_parts`,
:meth:`Route.materialize`) records it and refuses its numbers when its units found a rater
rating a unit twice: the one place every route passes through (decision 0005's duplicate rule).
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Sequence

from . import checks
from .constants import BITS_PER_BLOCK, MAX_BIT_RATERS, SMALL_INPUT_RATINGS, pattern_capacity
from .errors import OptionError
from .profile import Profile
from .runner import query, query_parts, run_template


@dataclass(frozen=True)
class Producer:
    """One way of gathering a statistic's inputs."""

    name: str
    where: tuple[str, ...]   # the templates ("sql/x.sql.j2") or named macros ("sql/x.sql.j2#name")
    gathers: str
    why: str            # what justifies it, with the benchmark figure (bench/README.md)


@dataclass(frozen=True)
class Decision:
    """A choice a route makes: its alternatives, the default first."""

    name: str
    question: str
    alternatives: tuple[Producer, ...]
    # the engine alone may settle it (one engine has a reader another lacks): the same input
    # then takes another alternative on another engine, with the same numbers
    by_engine: bool = False
    # the input's size may pass the first alternative over (units: the counts form on at most
    # SMALL_INPUT_RATINGS ratings), so it is forced and compared like the others
    by_size: bool = False
    # the source's column types settle it (unit_keys: a Parquet item column of whole numbers,
    # the same items as text in a CSV): the same ratings in another format take another
    # alternative, with the same answer; only the route record differs
    by_source_types: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.alternatives)


DECISIONS: dict[str, Decision] = {d.name: d for d in (
    Decision("units", "how the ratings are aggregated per unit (sql/_units.sql.j2)", (
        Producer("wide", ("sql/_units.sql.j2#units__wide", "sql/_alpha_sums.sql.j2#alpha_sums__wide",
                          "sql/_kappa_inputs.sql.j2#kappa_used__wide",
                          "sql/_kappa_inputs.sql.j2#kappa_units__wide",
                          "sql/_pairwise_sums.sql.j2#pairwise_sums__wide"),
                 "a count column per category (at most 16), units alike in their counts one "
                 "row of unit_patterns; with rater bits five counts packed per DOUBLE",
                 "few categories: every rater-free statistic is a sum over a few hundred "
                 "patterns (10M ratings: alpha 0.52 s against 0.88 s from a counts table, "
                 "bench/README.md '10M ratings at commit dc0847a')"),
        Producer("counts", ("sql/_units.sql.j2#units__counts",
                            "sql/_alpha_sums.sql.j2#alpha_sums__counts",
                            "sql/_kappa_inputs.sql.j2#kappa_used__counts",
                            "sql/_kappa_inputs.sql.j2#kappa_units__counts",
                            "sql/_pairwise_sums.sql.j2#pairwise_sums__counts"),
                 "a counts-per-(unit, value) table and per-unit sums",
                 "any number of categories (continuous scores, a mean of duplicates), "
                 "Conger's variance, which reads per-unit counts, and the statements of "
                 "FEW_RATINGS_COUNTS on at most SMALL_INPUT_RATINGS ratings, where DuckDB plans "
                 "its fewer columns faster than the wide form's (warm calls on 41 and on 994 "
                 "ratings: 0.75x-0.99x the wide form's CPU for alpha, the kappas, irr and "
                 "coefficients(); on 4,976 ratings nominal alpha 1.14x, bench/README.md "
                 "'2026-12-07, the counts form on few ratings')"),
        Producer("sums", ("sql/_units.sql.j2#units__sums",
                          "sql/_alpha_sums.sql.j2#alpha_sums__counts"),
                 "per-unit moments (m_u, sum x, sum x^2) straight from the ratings, no counts "
                 "table; the value marginals from the ratings grouped by value",
                 "a statement whose statistics read per-unit moments only (interval alpha) on "
                 "more categories than the wide form holds: on continuous scores the counts "
                 "table is as large as the ratings (1M ratings, 100k values, a quiet run: "
                 "interval alpha 0.34 s against 0.47 s, 226 against 314 MB, bench/README.md "
                 "'2026-11-29, continuous scores')"),
    ), by_size=True),
    Decision("alpha_distances", "how ordinal alpha sums its distances in the counts form "
             "(sql/_alpha_sums.sql.j2)", (
        Producer("midranks", ("sql/_alpha_sums.sql.j2#alpha_sums__counts",),
                 "each category's midrank F_c - n_c/2 by a window sum over the sorted distinct "
                 "values; the interval form's moments of the midranks (docs/decisions/0019)",
                 "linear in the distinct values: 1M ratings with 100k distinct values in "
                 "seconds, where the pairs of distinct values (5e9) do not fit 3 GB "
                 "(bench/README.md, continuous scores)"),
        Producer("value_pairs", ("sql/_alpha_sums.sql.j2#alpha_sums__counts",),
                 "the distances of every pair of distinct values (the definition's sum)",
                 "ratio alpha, whose distance has no moment form; few distinct values"),
    )),
    Decision("kappa_weights", "how the kappa family's sums over pairs of categories are gathered "
             "with quadratic weights in the counts form (sql/_kappa_inputs.sql.j2)", (
        Producer("moments", ("sql/_kappa_inputs.sql.j2#weighted_sums__moments",
                             "sql/_pair_tables.sql.j2#pair_quadratic_form__moments",
                             "sql/_pair_tables.sql.j2#pair_null_sum__moments"),
                 "per-unit, per-category and per-margin moments of the scores rescaled to "
                 "[0, 1]: with w_kl = 1 - (t_k - t_l)^2 every sum over pairs of categories "
                 "(pa_i, T_w, Fleiss', Conger's and Scott's chance terms, a pair's w_i. and "
                 "w_.j, Cohen's null variance) splits into moments (docs/decisions/0019)",
                 "linear in the distinct values: Fleiss' quadratic kappa on 1M ratings with "
                 "100k distinct values in 2.7 s, 617 MB, where the table of weights (10^10 "
                 "rows) does not fit 3 GB (bench/scores.py fleiss_quadratic, "
                 "docs/decisions/0019)"),
        Producer("value_pairs", ("sql/_kappa_inputs.sql.j2#weighted_sums__value_pairs",
                                 "sql/_pair_tables.sql.j2#pair_quadratic_form__value_pairs",
                                 "sql/_pair_tables.sql.j2#pair_null_sum__value_pairs"),
                 "a row of kappa_weights (pair_weights) per pair of domain positions (the "
                 "definition's sum)",
                 "any weights (identity, linear, a matrix), the wide form, an oriented "
                 "matrix's pair tables"),
    )),
    Decision("unit_keys", "what the per-unit passes group a long table's ratings by, when its "
             "item column holds whole numbers (sql/_ratings.sql.j2, sql/_units.sql.j2)", (
        Producer("native", ("sql/_ratings.sql.j2", "sql/_units.sql.j2#unit_item"),
                 "the item column as it is (item_key), its id text (the digits) written once "
                 "a unit after the grouping: the same units, since two whole numbers have the "
                 "same digits only when they are equal",
                 "10M ratings from Parquet with a BIGINT item column: interval alpha 1.15 s "
                 "against 1.57 s grouping the text made for every rating, irr 1.74 against "
                 "2.13 s (bench/README.md '2026-12-07, whole-number items grouped as they are')"),
        Producer("text", ("sql/_ratings.sql.j2",),
                 "the item's id text made for every rating, and grouped",
                 "any other item column (text, floats, booleans, dates: their id text is what "
                 "tells units apart, docs/decisions/0014)"),
    ), by_source_types=True),
    Decision("rater_bits", "how duplicates are found and raters counted (sql/_rater_codes.sql.j2)", (
        Producer("bits", ("sql/_rater_codes.sql.j2",),
                 "each rater a bit; a unit's raters the BIT_OR of its ratings' bits",
                 "the duplicate check and the rater counts inside the statement's own per-unit "
                 "pass: no GROUP BY (item, rater) over the ratings (9M ratings: 0.3 s saved, "
                 "bench/README.md '10M ratings at commit dc0847a')"),
        Producer("none", ("sql/duplicate_check.sql.j2",),
                 "the duplicate check as a statement of its own, raters counted by COUNT "
                 "DISTINCT", f"more than {MAX_BIT_RATERS} raters (the bit columns' capacity)"),
    )),
    Decision("rater_list", "where the rater bits' numbering finds the raters "
             "(sql/_rater_codes.sql.j2)", (
        Producer("listed", ("sql/ratings_profile.sql.j2", "sql/_rater_codes.sql.j2"),
                 "the raters with a rating that the ratings profile listed (it reads every "
                 "row anyway), bound as parameters",
                 "10M ratings: the coefficients statement of interval alpha 0.66 s against "
                 "0.75 s with the DISTINCT over its ratings, a second reading of the source "
                 "under the typing rule (bench/README.md '2026-12-07, the raters listed')"),
        Producer("scan", ("sql/_rater_codes.sql.j2",),
                 "a DISTINCT over the statement's own ratings",
                 f"more than {MAX_BIT_RATERS} raters (the profile lists no more), statements "
                 "other than the coefficients and the workshop report's (their ratings may be "
                 "re-keyed or filtered), and renderings made ahead of the data"),
    )),
    Decision("rater_patterns", "where the statistics that need rater identity read it", (
        Producer("patterns", ("sql/_rater_patterns.sql.j2", "sql/_pair_patterns.sql.j2",
                              "sql/_conger.sql.j2#conger_counts__patterns"),
                 "each unit's rater pattern kept by the per-unit pass; pairs, Conger's "
                 "per-rater counts, leave-one-out and the ICC count from a few thousand "
                 "patterns", "10M ratings: Cohen, Light and Scott 0.6 s against 2.3 s from the "
                 "ratings' self-join (bench/README.md, 'commit 5526e71')"),
        Producer("ratings", ("sql/_pairs.sql.j2", "sql/_conger.sql.j2#conger_counts__ratings",
                             "sql/rater_diagnostics.sql.j2"),
                 "a rater-pair self-join of the ratings (pairs), the ratings grouped by rater "
                 "(Conger), the diagnostics' statement on ratings expanded per left-out rater "
                 "and per pair (at most max_pair_raters raters)",
                 "many raters or categories: the patterns would not be exact below 2^53 "
                 "(constants.pattern_capacity), or the counts form, or a weight per unit "
                 "(sample_weight=: patterns count units alike, not their weights)"),
    )),
    Decision("icc", "where the intraclass correlation's ANOVA reads its ratings (sql/_icc.sql.j2)", (
        Producer("from_patterns", ("sql/_icc.sql.j2#icc_digits__patterns",
                                   "sql/_icc.sql.j2#icc_anova__digits"),
                 "the coefficients statement's own rater patterns",
                 "coefficients() reads the ratings once instead of twice (10M ratings: 1.9 s "
                 "against 2.6 s, bench/README.md 'ICC in the coefficients statement')"),
        Producer("packed", ("sql/_icc.sql.j2#icc_digits__packed", "sql/_icc.sql.j2#icc_anova__digits"),
                 "each item's ratings packed as digits of one DOUBLE, grouped into patterns",
                 "few categories and raters: 10M ratings 0.9 s against 2.4 s joined "
                 "(bench/README.md 'ICC on 10M ratings')"),
        Producer("joined", ("sql/_icc.sql.j2#icc_anova__joined",),
                 "the ratings joined with their item and rater means",
                 "any ratings (continuous scores, many raters)"),
    )),
    Decision("judges", "how judge_agreement gathers its three granularities", (
        Producer("one_aggregation", ("sql/judge_units.sql.j2", "sql/judge_agreement.sql.j2"),
                 "the units materialised once, the groups, points and point alphas each a "
                 "statement over them", "10M ratings: 7.5 s and 1.7 GB against 21.9 s and "
                 "2.8 GB (bench/README.md, fourth session of 2026-11-27)"),
        Producer("rekeyed", ("sql/judge_agreement.sql.j2", "sql/_ratings.sql.j2"),
                 "each granularity its own statement over the ratings re-keyed",
                 "the counts form, or more judges than rater bits"),
    )),
    Decision("alt_test", "how alt_test gathers each instance's labels (sql/alt_test.sql.j2)", (
        Producer("pattern", ("sql/alt_test.sql.j2",),
                 "a row per instance holding one rater pattern (few raters, at most 16 "
                 "categories)", "1M instances x 5 humans x 3 judges: 1.01 s, 2.4x the per-item "
                 "floor, 227 MB (bench/README.md, alt-test section)"),
        Producer("pivot", ("sql/alt_test.sql.j2",),
                 "a row per instance with a column per rater", "continuous scores (neg_rmse on "
                 "any numbers) or too many raters for a pattern: 3.0-3.3x the floor, ~320 MB "
                 "on the same file"),
        Producer("cells", ("sql/alt_test.sql.j2",),
                 "a row per instance and category", "any raters and categories (raters the "
                 "profile could not list, more than 120 human-judge pairs): 17-19x the floor"),
    )),
    Decision("state_rows", "how a batch state of counts per unit and value is read "
             "(sql/_state_ratings.sql.j2, docs/decisions/0029)", (
        Producer("counts", ("sql/_state_ratings.sql.j2", "sql/_units.sql.j2#units__counts"),
                 "each state row once with its count w: the profile and the counts form sum w "
                 "where they count rows, no rating is rebuilt",
                 "the merged state read at its own size: cheaper than the ratings it stands "
                 "for (bench/batches.py, bench/README.md 'Incremental batches')"),
        Producer("ratings", ("sql/_state_ratings.sql.j2", "sql/materialize_ratings.sql.j2"),
                 "the state expanded into ratings by anonymous raters, materialised once",
                 "statements that count rows rather than sum counts: the bootstrap's "
                 "replicates resample rows, and every statement but the coefficients'"),
    )),
    Decision("layout_cells", "how a counts or contingency table (layout='counts' | 'table') "
             "is read (sql/_ratings.sql.j2, docs/decisions/0022)", (
        Producer("cells", ("sql/_ratings.sql.j2#layout_cells__cells",
                           "sql/_units.sql.j2#units__wide"),
                 "each nonzero cell once with its multiplicity w: a counts cell as w ratings of "
                 "its category (the weighted rows of a batch state), a table cell as one unit "
                 "of raters A and B standing for w units, whose rater patterns the per-unit "
                 "pass weighs by w; nothing registered, nothing expanded",
                 "the cost follows the cells: a 2 x 2 table of 1e9 units and a counts table of "
                 "1e8 ratings a cell within 2x the same tables of 10 units, where the "
                 "expansion took 10x at 1e6 units (bench/cells.py, bench/README.md 'Counts and "
                 "contingency tables')"),
        Producer("expanded", ("sql/_ratings.sql.j2#layout_cells__expanded",
                              "sql/materialize_ratings.sql.j2"),
                 "every count joined with the registered numbers 0 .. the largest cell - 1 into "
                 "that many long ratings, materialised once",
                 "the statements the cells cannot feed: the bootstrap (its replicates resample "
                 "units one by one), a table's counts form (Conger's variance, more than 16 "
                 "categories, distance=), a duplicate policy, and every statement but the "
                 "coefficients' (the workflows, the ICC, the reports)"),
    )),
    Decision("consistency_input", "how consistency() reads a merged pairs JSONL", (
        Producer("engine_lines", ("sql/consistency.sql.j2",),
                 "DuckDB's JSON Lines reader, flattened once into a temporary table",
                 "1M lines: within 3x a scan (bench/workflows.py consistency)"),
        Producer("python", ("sql/consistency.sql.j2",),
                 "the file read by Python's json module into Arrow tables",
                 "an engine without a JSON Lines reader, a glob, or a line the reader refuses "
                 "(the Python reader names it)"),
    ), by_engine=True),
)}

_FORCED: ContextVar[Mapping[str, str]] = ContextVar("agreement_sql_forced_routes", default={})
_LOG: ContextVar["list[dict[str, str]] | None"] = ContextVar("agreement_sql_route_log",
                                                            default=None)
_TRACE = bool(os.environ.get("AGREEMENT_SQL_TRACE"))


def alternatives() -> list[tuple[str, str]]:
    """Every (decision, alternative) that is not its decision's default on every input (the
    first alternative too when the input's size may pass it over, ``Decision.by_size``): what
    the route-equality tests force one at a time (tests/routes), so a new alternative is tested
    by construction."""
    return [(d.name, p.name) for d in DECISIONS.values()
            for p in (d.alternatives if d.by_size else d.alternatives[1:])]


@contextmanager
def forcing(**choices: str) -> Iterator[None]:
    """Force alternatives for the calls made inside (``forcing(units="counts")``): each is taken
    wherever it can serve the data (the record says what was taken)."""
    for name, choice in choices.items():
        if name not in DECISIONS:
            raise OptionError(f"no route decision {name!r}; decisions: {', '.join(DECISIONS)}")
        if choice not in DECISIONS[name].names:
            raise OptionError(f"{name} has no alternative {choice!r}; it has "
                              f"{', '.join(DECISIONS[name].names)}")
    token = _FORCED.set({**_FORCED.get(), **choices})
    try:
        yield
    finally:
        _FORCED.reset(token)


def _chosen(name: str, decided: str, possible: Sequence[str] | None = None) -> str:
    """``decided``, unless a test forces another alternative that is ``possible`` (every one by
    default)."""
    forced = _FORCED.get().get(name)
    if forced is None or forced == decided:
        return decided
    if possible is None or forced in possible:
        return forced
    return decided


@contextmanager
def collecting() -> Iterator[list[dict[str, str]]]:
    """Collect the routes of the statements run inside (a public call's record). A call made
    inside another (achieved_precision calling a coefficient) collects its own, then adds them
    to the outer call's."""
    outer = _LOG.get()
    log: list[dict[str, str]] = []
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)
        if outer is not None:
            outer.extend(log)


def record(statement: str, taken: Mapping[str, str]) -> None:
    """Note that ``statement`` ran by the producers ``taken`` (decision -> alternative)."""
    entry = {"statement": statement, **taken}
    log = _LOG.get()
    if log is not None and entry not in log:
        log.append(entry)
    if _TRACE:
        shown = " ".join(f"{k}={v}" for k, v in taken.items())
        print(f"agreement-sql trace: route {statement}: {shown}", file=sys.stderr)


def describe(taken: Mapping[str, str]) -> list[str]:
    """Each decision of a route with its producer: what it gathers and why (render's explain)."""
    out = []
    for name, choice in taken.items():
        if name == "statement":
            continue
        producer = next(p for p in DECISIONS[name].alternatives if p.name == choice)
        out.append(f"{name} = {choice}: {producer.gathers} [{', '.join(producer.where)}]; "
                   f"why: {producer.why}")
    return out


# -- the per-unit route of a statement ---------------------------------------------------------

@dataclass(frozen=True)
class Needs:
    """What a statement computes, as far as its route depends on it.

    ``rater_identity``: it has statistics that need to know who gave what (pairs, Conger's
    per-rater counts, leave-one-out, per-rater terms), which may read rater patterns.
    ``counts_form``: why it needs the counts form whatever the categories (Conger's analytic
    variance reads per-unit counts), or None. ``rater_sets``: it reads each unit's rater set
    even under a duplicate policy (the workshop report's per-trace raters). ``wide``: the
    statement has a wide form (icc.sql.j2 has none)."""

    rater_identity: bool = False
    counts_form: str | None = None
    rater_sets: bool = False
    wide: bool = True
    level: str | None = None     # Krippendorff's alpha level the statement computes, if any
    moments: bool = False        # every statistic reads per-unit moments only (m_u, sum x,
                                 # sum x^2: interval alpha), which the sums form gathers
    quadratic: bool = False      # quadratic-weighted kappa-family coefficients reading the
                                 # units' inputs (sql/_kappa_inputs.sql.j2), which moments serve
    unit_weights: bool = False   # a weight per unit (scikit-learn's sample_weight=): the pair
                                 # counts sum the units' weights, which the rater patterns (units
                                 # alike, counted) do not keep, so the ratings' self-join counts


# the statements that include sql/_alpha_sums.sql.j2 (they take the alpha_distances option;
# tests/sqltemplates render each with its options, so a statement missing here fails there)
ALPHA_SUMS_STATEMENTS = ("coefficients", "rater_diagnostics", "irr_report", "judge_agreement")

# the statements that take the counts form on at most SMALL_INPUT_RATINGS ratings, where it was
# measured to plan faster (bench/forms_small.py): the coefficients statement (every coefficient
# function and coefficients()) and the workshop report. Not rater_diagnostics: without the wide
# form's rater patterns its leave-one-out terms take more statements (slower on K2011); the
# others (pairwise_agreement, judge_agreement, category_agreement, alt_test) keep the wide form
# until measured
FEW_RATINGS_COUNTS = ("coefficients", "irr_report")

# the statements that number their raters from the profile's list (decision rater_list): they
# read the profile's own ratings, never re-keyed per rater or filtered (rater_diagnostics'
# leave-one-out, a workflow's kept raters), so its raters with a rating are theirs
LISTED_RATERS_STATEMENTS = ("coefficients", "irr_report")

# the statements that include sql/_kappa_inputs.sql.j2 through a route (they take the
# kappa_weights option; the evaluation sheet's statement gives its own, always value_pairs)
KAPPA_INPUTS_STATEMENTS = ("coefficients", "category_agreement")

# the coefficient families whose sums over pairs of categories the moments serve (decision
# kappa_weights): the rater-free kappas (Fleiss, AC2, Brennan-Prediger, percent agreement),
# Conger's kappa, and the pair family's tables (Cohen, Scott, Light; sql/_pair_tables.sql.j2)
MOMENTS_FAMILIES = ("kappa", "conger", "pair")


def by_moments(family: str, weights: str | None, oriented: bool = False) -> bool:
    """A coefficient of ``family`` with these weights has its sums over pairs of categories
    gathered by moments in the counts form (decision ``kappa_weights``, :func:`decide`'s rule),
    so it is not bound to a table of pairs of distinct values (agreement_sql.value_tables)."""
    return weights == "quadratic" and not oriented and family in MOMENTS_FAMILIES


# statements whose needs do not depend on the call's options (render's explain reads them)
STATEMENT_NEEDS: dict[str, Needs] = {
    "rater_diagnostics": Needs(rater_identity=True),
    "icc": Needs(wide=False),
}


@dataclass(frozen=True)
class Route:
    """The producers a statement uses, as the template options that select them."""

    statement: str
    units: str                                        # DECISIONS["units"]
    categories: tuple[tuple[str, Any], ...] = ()      # (kind, value) of the wide form
    rater_blocks: int = 0                             # rater bits, 0: none
    rater_patterns: bool = False
    raters: tuple[str, ...] = ()                      # DECISIONS["rater_list"] listed: bound
    alpha_distances: str = "value_pairs"              # DECISIONS["alpha_distances"]
    kappa_weights: str = "value_pairs"                # DECISIONS["kappa_weights"]
    taken: tuple[tuple[str, str], ...] = ()           # (decision, alternative) for the record
    profile: Profile | None = field(default=None, compare=False, repr=False)

    @property
    def form(self) -> str:
        return self.units

    def options(self, template: str | None = None) -> dict[str, Any]:
        """The template options that select this route's producers (``template``: the
        statement they are for; those that sum alpha over a counts table also get
        ``alpha_distances``)."""
        out = {"form": self.units, "categories": [kind for kind, _ in self.categories],
               "rater_blocks": self.rater_blocks, "rater_patterns": self.rater_patterns,
               "rater_list": len(self.raters)}
        if template in ALPHA_SUMS_STATEMENTS:
            # alpha's distance is the level's unless a call gives one (docs/decisions/0028:
            # coefficients' statement_options; the workflows keep the level's)
            out.update(alpha_distances=self.alpha_distances, distance=None, distance_matrix=None)
        if template in KAPPA_INPUTS_STATEMENTS:
            out["kappa_weights"] = self.kappa_weights
        return out

    def params(self) -> dict[str, Any]:
        return {**{f"category_{i}": value for i, (_, value) in enumerate(self.categories)},
                **{f"listed_rater_{i}": rater for i, rater in enumerate(self.raters)}}

    def record(self, statement: str | None = None, **more: str) -> None:
        record(statement or self.statement, {**dict(self.taken), **more})

    # -- running a statement by this route: recorded, and refused when a rater rated twice ---
    def query(self, spec: Any, template: str, options: Mapping[str, Any],
              params: Mapping[str, Any], **more: str) -> list[dict[str, Any]]:
        self.record(template, **more)
        rows = query(spec.session, template, options, params)
        self.refuse_duplicates(sum(int(r.get("n_duplicate_units") or 0) for r in rows))
        return rows

    def query_parts(self, spec: Any, template: str, options: Mapping[str, Any],
                    params: Mapping[str, Any], parts: Mapping[str, Sequence[str]],
                    sinks: Mapping[str, Any] | None = None,
                    **more: str) -> dict[str, dict[str, list[Any]]]:
        self.record(template, **more)
        found = query_parts(spec.session, template, options, params, parts, sinks=sinks)
        self.refuse_duplicates(sum(int(v or 0) for part in found.values()
                                   for v in part.get("n_duplicate_units", [])))
        return found

    def materialize(self, spec: Any, template: str, options: Mapping[str, Any],
                    params: Mapping[str, Any], *, into: str, **more: str) -> Any:
        self.record(template, **more)
        return run_template(spec.session, template, options, params, into=into)

    def refuse_duplicates(self, found: int) -> None:
        """Refuse a statement's numbers when its units found a rater rating a unit twice (and
        no duplicate policy merged them): the typed error names the rows."""
        profile = self.profile
        if found and profile is not None and profile.spec.on_duplicate in (None, "error"):
            checks.raise_duplicates(profile, found)


def decide(profile: Profile, statement: str, needs: Needs = Needs(), *,
           effects: bool = True) -> Route:
    """The route of ``statement`` over ``profile``'s ratings (and, with more raters than rater
    bits and no duplicate policy, the separate duplicate check, run here). ``effects=False``:
    the route only, for a caller that plans ahead of the statement (no check run, no rater list
    registered: :func:`predict`)."""
    spec = profile.spec
    taken: dict[str, str] = {}
    # the mean of a rater's repeated ratings may be a value the profile never saw (3.5 between
    # 3 and 4), so that policy reads its ratings in the counts form, which needs no category list
    averaging = spec.on_duplicate == "mean"
    wide_possible = needs.wide and bool(profile.categories) and not averaging
    # a contingency table read by its cells (layout_reader) weighs units that only the wide
    # form's packed patterns carry: no other per-unit alternative is taken, not even forced
    by_cells = spec.cells
    # few ratings: DuckDB plans the wide form's category columns and patterns more slowly than
    # it reads a counts table's few rows (SMALL_INPUT_RATINGS; the counts producer's figures)
    few = (statement in FEW_RATINGS_COUNTS and not by_cells
           and profile.totals["n_ratings"] <= SMALL_INPUT_RATINGS)
    units = "wide" if wide_possible and needs.counts_form is None and not few else "counts"
    if spec.layout in ("counts", "table"):
        taken["layout_cells"] = "cells" if spec.cells or spec.state_weighted else "expanded"
    if spec.whole_number_items:
        taken["unit_keys"] = "native" if spec.native_item else "text"
    # per-unit moments alone (interval alpha) need no counts table: the sums form, where the
    # counts form would be taken (the wide form's patterns are cheaper on few categories)
    sums_possible = needs.moments and needs.wide and needs.counts_form is None and not by_cells
    if units == "counts" and sums_possible:
        units = "sums"
    # a statement that needs the counts form (needs.counts_form says why) never takes the wide
    # one, not even forced: its statistic would read inputs the wide form does not hold
    possible = (("wide",) if wide_possible and needs.counts_form is None else ()) + ("counts",) \
        + (("sums",) if sums_possible else ())
    units = _chosen("units", units, (units,) if by_cells else possible)
    if needs.wide:
        taken["units"] = units
    categories: tuple[tuple[str, Any], ...] = ()
    if units == "wide":
        categories = tuple(("label", label) if label is not None else ("number", x)
                           for x, label in profile.categories)
    distances = "value_pairs"
    if units == "counts" and needs.level == "ordinal":
        # ordinal alpha from midranks: linear in the distinct values (decision 0019)
        distances = _chosen("alpha_distances", "midranks")
        taken["alpha_distances"] = distances
    kappa_weights = "value_pairs"
    if units == "counts" and needs.quadratic:
        # quadratic weights from moments: linear in the distinct values (decision 0019)
        kappa_weights = _chosen("kappa_weights", "moments")
        taken["kappa_weights"] = kappa_weights
    checking = spec.on_duplicate in (None, "error")
    bits_fit = 0 < profile.n_raters <= MAX_BIT_RATERS
    bits = _chosen("rater_bits", "bits" if bits_fit else "none",
                   ("bits",) if bits_fit and by_cells else
                   ("bits", "none") if bits_fit else ("none",))
    blocks = 0
    if bits == "bits":
        # the statement finds duplicates and counts each metric's raters with these bits
        blocks = (profile.n_raters + BITS_PER_BLOCK - 1) // BITS_PER_BLOCK
    elif checking and profile.n_raters > 0 and effects:
        check_duplicates_apart(profile)
    taken["rater_bits"] = bits
    raters: tuple[str, ...] = ()
    if bits == "bits" and statement in LISTED_RATERS_STATEMENTS:
        # the profile's list is complete up to MAX_BIT_RATERS raters, so whenever bits are
        # taken; its raters with a rating are those the statement's DISTINCT would number
        listed = bool(profile.rated)
        chosen = _chosen("rater_list", "listed" if listed else "scan",
                         ("listed", "scan") if listed else ("scan",))
        taken["rater_list"] = chosen
        raters = profile.rated if chosen == "listed" else ()
    patterns = (needs.rater_identity and units == "wide" and blocks > 0
                and not needs.unit_weights
                and 0 < profile.n_raters <= pattern_capacity(len(categories)))
    if needs.rater_identity:
        choice = _chosen("rater_patterns", "patterns" if patterns else "ratings",
                         ("patterns",) if patterns and by_cells else
                         ("patterns", "ratings") if patterns else ("ratings",))
        patterns = choice == "patterns"
        taken["rater_patterns"] = choice
    return Route(statement=statement, units=units, categories=categories, rater_blocks=blocks,
                 rater_patterns=patterns, raters=raters,
                 alpha_distances=distances, kappa_weights=kappa_weights,
                 taken=tuple(taken.items()), profile=profile)


def predict(profile: Profile, statement: str, needs: Needs = Needs()) -> Route:
    """The route :func:`decide` will choose, without running or registering anything."""
    return decide(profile, statement, needs, effects=False)


def narrowed(route: Route, needs: Needs) -> Route:
    """``route`` for a second statement of the same call that needs less (no rater identity:
    the bootstrap's second statement for alpha): its rater patterns dropped."""
    if needs.rater_identity or not route.rater_patterns:
        return route
    return replace(route, rater_patterns=False,
                   taken=tuple((k, v) for k, v in route.taken if k != "rater_patterns"))


def fixed(statement: str, **taken: str) -> None:
    """Record a statement that has one producer for its inputs (the evaluation sheet's counts
    of two labels, consistency's label grid): nothing to choose, but the record says which."""
    record(statement, taken)


def check_duplicates_apart(profile: Profile) -> None:
    """The duplicate check as a statement of its own (more raters than rater bits)."""
    spec = profile.spec
    record("duplicate_check", {"rater_bits": "none"})
    rows = query(spec.session, "duplicate_check",
                 {**spec.options(domain=profile.domain), "categories": [], "rater_patterns": False,
                  "rater_blocks": 0, "rater_list": 0},
                 spec.params())
    if rows and rows[0]["n_duplicate_units"]:
        checks.raise_duplicates(profile, int(rows[0]["n_duplicate_units"]))


# -- the statements with producers of their own ------------------------------------------------

# the ICC's packed form reads an item's R ratings as base-B digits of one DOUBLE, B = c R + 1 for
# c categories: exact while B^R <= 2^53 (5 categories: up to 9 raters; 2 categories: 11)
MAX_PACKED = 2.0 ** 53


def packed_digits(profile: Profile) -> int:
    """The raters the ICC's packed form holds per item, or 0 where it cannot (labels, many
    categories or raters)."""
    raters, categories = profile.n_raters, len(profile.categories)
    packable = (categories > 0 and all(label is None for _, label in profile.categories)
                and 0 < raters <= 62 and float(categories * raters + 1) ** raters <= MAX_PACKED)
    return raters if packable else 0


def icc_producer(profile: Profile, route: Route | None = None, *, bootstrap: bool = False) -> str:
    """Where the ICC's ANOVA reads its ratings: ``from_patterns`` (inside the coefficients
    statement ``route``, from its rater patterns, only where its own statement would take the
    packed form: the rater patterns are then the packed form's item patterns with the same w and
    values, so the ICC is the same to the last bit; not with the bootstrap, whose patterns carry
    the replicates), ``packed`` or ``joined`` (sql/icc.sql.j2)."""
    digits = packed_digits(profile)
    standalone = "packed" if digits else "joined"
    if route is not None:
        can = (route.rater_patterns and not bootstrap and not profile.has_labels and digits > 0)
        possible = ("from_patterns", "packed", "joined") if can else (
            ("packed", "joined") if digits else ("joined",))
        return _chosen("icc", "from_patterns" if can else standalone, possible)
    return _chosen("icc", standalone, ("packed", "joined") if digits else ("joined",))


def judges_producer(route: Route | None) -> str:
    """judge_agreement: the three granularities from units materialised once (the wide form
    with rater bits), or each from the ratings re-keyed."""
    can = route is not None and route.units == "wide" and route.rater_blocks > 0
    return _chosen("judges", "one_aggregation" if can else "rekeyed",
                   ("one_aggregation", "rekeyed") if can else ("rekeyed",))


# alt_test's row-per-instance forms (pattern, pivot) up to this many (human, judge) pairs
ALT_TEST_MAX_PAIRS = 120


def alt_test_producer(profile: Profile, route: Route, judges: Sequence[str], scoring: str) -> str:
    """sql/alt_test.sql.j2's form: a row per instance (every rater known from the profile and at
    most ALT_TEST_MAX_PAIRS human-judge pairs) holding one rater pattern (the wide form's
    categories and few enough raters for (K + 1)^R below 2^53) or a column per rater (neg_rmse
    on any numbers, accuracy on at most 16 categories); else a row per instance and category."""
    humans = [r for r in profile.raters if r not in judges]
    listed = bool(humans) and len(profile.raters) == profile.n_raters
    if not listed or len(humans) * len(judges) > ALT_TEST_MAX_PAIRS:
        return _chosen("alt_test", "cells", ("cells",))
    pivot_ok = scoring == "neg_rmse" or route.units == "wide"
    pattern_ok = route.units == "wide" and len(profile.raters) <= pattern_capacity(
        len(route.categories))
    decided = "pattern" if pattern_ok else "pivot" if pivot_ok else "cells"
    possible = tuple(p for p, ok in (("pattern", pattern_ok), ("pivot", pivot_ok),
                                     ("cells", True)) if ok)
    return _chosen("alt_test", decided, possible)


def state_reader(bootstrap: bool, rater_identity: bool = False) -> str:
    """How the coefficients statement reads a batch state of counts per unit and value: its
    counts as weighted rows, unless an interval may take the bootstrap, whose replicates
    resample rows, or a statistic reads rater identity (then the state expanded into ratings
    by anonymous raters)."""
    can = not bootstrap and not rater_identity
    return _chosen("state_rows", "counts" if can else "ratings",
                   ("counts", "ratings") if can else ("ratings",))


def unit_keys() -> str:
    """What the per-unit passes group a long table's ratings by when its item column holds
    whole numbers (agreement_sql.ratings.RatingsSpec.whole_number_items; the call's session
    asks, agreement_sql.session): ``native``, the column as it is, its id text written once a
    unit; ``text``, the id text of every rating, as for any other column."""
    return _chosen("unit_keys", "native")


def layout_reader(profile: Profile, needs: Needs, *, bootstrap: bool) -> str:
    """How the coefficients statement reads a counts or contingency table (``profile``: the
    ratings profile read by its cells, agreement_sql.ratings.read_by_cells): ``cells``, each
    nonzero cell once with its multiplicity, where every input of the statement is a sum over
    unit or rater patterns, else ``expanded`` into ratings (docs/decisions/0022). A counts
    table's cells are a batch state's weighted rows (either per-unit form serves them); a
    contingency table's weigh units, which only the wide form's packed patterns carry, so it
    needs the wide form (at most 16 categories, no reason for the counts form), its two raters
    as rater bits, and rater patterns where a statistic needs rater identity. Neither serves
    the bootstrap (its replicates resample units one by one), a duplicate policy or weights
    per unit."""
    spec = profile.spec
    can = (not bootstrap and spec.on_duplicate in (None, "error") and not needs.unit_weights
           and needs.wide)
    if spec.layout == "counts":
        can = can and not needs.rater_identity
    else:
        wide = bool(profile.categories) and needs.counts_form is None
        bits = 0 < profile.n_raters <= MAX_BIT_RATERS
        patterns = wide and (not needs.rater_identity
                             or 0 < profile.n_raters <= pattern_capacity(len(profile.categories)))
        can = can and wide and bits and patterns
    return _chosen("layout_cells", "cells" if can else "expanded",
                   ("cells", "expanded") if can else ("expanded",))


def consistency_reader(engine_reads: bool) -> str:
    """consistency(): a merged pairs file read by the engine's JSON Lines reader (when it has
    one and the source is one plain file), else by Python."""
    return _chosen("consistency_input", "engine_lines" if engine_reads else "python",
                   ("engine_lines", "python") if engine_reads else ("python",))


def consistency_fallback() -> None:
    """The engine's reader refused a line: the Python reader reads the file and names it."""
    record("consistency", {"consistency_input": "python"})
