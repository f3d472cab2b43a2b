"""Every public parameter, declared once: its meaning, its type and range, its default.

After scikit-learn's ``validate_params``: a parameter of any public function is declared here
once, by name, with the check that refuses what it cannot take (an :class:`OptionError` that
names it) and its default. A function whose convention differs (``icc`` computes an interval
unless told otherwise, where the coefficient functions do not; the seed workflows default to
interval alpha) says so in ``defaults``, so every default is visible in one table and
``tests/parameters`` holds each function's signature to it. agreement_sql.public checks every
argument a caller passes against its declaration before the function runs; combinations (a
parameter that cannot apply to the layout, the coefficient or the interval asked for) are
refused where the function reads them, and the same tests show every parameter either changes
the answer or is refused, never silently ignored.
"""
from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .errors import OptionError

Check = Callable[[str, Any], None]


@dataclass(frozen=True)
class Parameter:
    name: str
    meaning: str
    check: Check
    default: Any = None
    defaults: Mapping[str, Any] = field(default_factory=dict)   # function -> its own default
    refuses: tuple[Any, ...] = ()                               # values the check refuses

    def default_of(self, function: str) -> Any:
        return self.defaults.get(function, self.default)


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python value it holds."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)) and \
            type(value).__module__.split(".")[0] == "numpy":
        return value.item()
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:56] + "..."


# -- check constructors ---------------------------------------------------------------------------

def anything(name: str, value: Any) -> None:
    """Checked where it is read (a source by agreement_sql.sources, a connection by the engine)."""


def text(optional: bool = False, column: bool = False) -> Check:
    def check(name: str, value: Any) -> None:
        if value is None and optional:
            return
        if not isinstance(value, str) or value == "":
            what = "name a column (a non-empty text)" if column else "be a non-empty text"
            raise OptionError(f"{name}= must {what}{' or None' if optional else ''}, "
                              f"got {_shown(value)}")
    return check


def names(optional: bool = True) -> Check:
    """A column or rater name, or a list of them."""
    def check(name: str, value: Any) -> None:
        if value is None and optional:
            return
        if isinstance(value, str):
            if value == "":
                raise OptionError(f"{name} must name something, got an empty text")
            return
        if isinstance(value, (bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise OptionError(f"{name}= must be a name or a list of names, got {_shown(value)}")
        listed = [_plain(v) for v in value]
        if not listed or not all(isinstance(v, str) and v != "" for v in listed):
            raise OptionError(f"{name}= must list one or more non-empty names, got {_shown(value)}")
    return check


def choice(*allowed: Any) -> Check:
    def check(name: str, value: Any) -> None:
        if isinstance(value, bool) or value not in allowed:
            named = [repr(a) for a in allowed if a is not None]
            shown = " or ".join(named) if len(named) == 2 else "one of " + ", ".join(named)
            none = " (or None)" if None in allowed else ""
            raise OptionError(f"{name} must be {shown}{none}, got {_shown(value)}")
    return check


def whole(low: int = 0, high: int | None = None, optional: bool = False) -> Check:
    def check(name: str, value: Any) -> None:
        value = _plain(value)
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < low or \
                (high is not None and value > high):
            span = f"from {low}" + (f" to {high}" if high is not None else "")
            raise OptionError(f"{name} must be a whole number {span}"
                              f"{' or None' if optional else ''}, got {_shown(value)}")
    return check


def number(low: float | None = None, high: float | None = None, *, open_low: bool = False,
           open_high: bool = False, optional: bool = False, hint: str = "") -> Check:
    def check(name: str, value: Any) -> None:
        value = _plain(value)
        if value is None and optional:
            return
        ok = (not isinstance(value, bool) and isinstance(value, numbers.Real)
              and math.isfinite(float(value)))
        if ok and low is not None:
            ok = value > low if open_low else value >= low
        if ok and high is not None:
            ok = value < high if open_high else value <= high
        if not ok:
            span = ("" if low is None else ("(" if open_low else "[") + f"{low}, ") + (
                "" if high is None else f"{high}" + (")" if open_high else "]"))
            where = f" in {span}" if low is not None and high is not None else (
                f" {'>' if open_low else '>='} {low}" if low is not None else "")
            raise OptionError(f"{name} must be a number{where}{' or None' if optional else ''}"
                              f"{hint}, got {_shown(value)}")
    return check


def level_of_confidence(optional: bool) -> Check:
    def check(name: str, value: Any) -> None:
        value = _plain(value)
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
                not math.isfinite(float(value)) or not 0.0 < float(value) < 1.0:
            raise OptionError(f"{name} must be a confidence level between 0 and 1 (e.g. 0.95)"
                              f"{' or None' if optional else ''}, got {_shown(value)}")
    return check


def boolean(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, got {_shown(value)}")


def mapping(optional: bool = True) -> Check:
    def check(name: str, value: Any) -> None:
        if value is None and optional:
            return
        if not isinstance(value, Mapping):
            raise OptionError(f"{name} must be a mapping (a dict), got {_shown(value)}")
    return check


def path(optional: bool = True) -> Check:
    def check(name: str, value: Any) -> None:
        if value is None and optional:
            return
        if not isinstance(value, (str, os.PathLike)) or os.fspath(value) == "":
            raise OptionError(f"{name} must be a file or folder path, got {_shown(value)}")
    return check


def destination(name: str, value: Any) -> None:
    """``to=``: a .parquet or .csv path, or ("table", name) (agreement_sql.tables)."""
    from .tables import check_to

    check_to(value)


def ci_or_bool(name: str, value: Any) -> None:
    """A coefficient's ``ci``: a confidence level, True (0.95) or None/False (no interval)."""
    if value is None or isinstance(value, bool):
        return
    level_of_confidence(False)(name, value)


def placeholders(name: str, value: Any) -> None:
    if value is None:
        return
    items = [value] if isinstance(value, (str, bytes)) or isinstance(_plain(value), numbers.Real) \
        else value
    try:
        listed = [_plain(v) for v in items]
    except TypeError:
        raise OptionError(f"{name} must list placeholder values, e.g. ['NA', '*', -1], "
                          f"got {_shown(value)}") from None
    for v in listed:
        if isinstance(v, str):
            continue
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(float(v)):
            raise OptionError(f"a {name}= placeholder must be text or a finite number, "
                              f"got {_shown(v)}")


def weights(name: str, value: Any) -> None:
    from .parameters import weights_kind

    weights_kind(value)


def distance(name: str, value: Any) -> None:
    from .parameters import distance_kind

    distance_kind(value)


def threshold(name: str, value: Any) -> None:
    """A percentage gate: 75 means 75%. A value in (0, 1] reads like a proportion, which the
    report would take as under 1%: refused with the way out."""
    number(0.0, 100.0, hint=" (a percentage such as 75)")(name, value)
    if 0.0 < float(_plain(value)) <= 1.0:
        raise OptionError(f"{name} is a percentage (75 means 75%), got {_shown(value)}, which "
                          f"reads like a proportion; pass {float(_plain(value)) * 100:g} for "
                          f"{float(_plain(value)) * 100:g}%")


def gates(name: str, value: Any) -> None:
    mapping()(name, value)
    for key, gate in (value or {}).items():
        if key not in ("pa", "kappa", "abstain"):
            raise OptionError(f"unknown gate {key!r} in {name}; the gates are pa, kappa and abstain")
        number(-1.0 if key == "kappa" else 0.0, 1.0,
               hint=" (a proportion, like the report's figures)")(f"{name}[{key!r}]", gate)


def judges(name: str, value: Any) -> None:
    """The judges: a list of names, or names with their metadata ({judge id: {...}})."""
    if value is None:
        return
    if isinstance(value, Mapping):
        for key in value:
            text()(f"a key of {name}", key)
        return
    names(optional=False)(name, value)


EPSILON_GUIDANCE = ("the paper's guidance: 0.2 when the humans are experts, 0.15 skilled "
                    "annotators, 0.1 crowd workers")
MIN_ITEMS = 30          # the alt-test's floor for the t-test (Calderon et al. 2025, section 3)


def epsilon(name: str, value: Any) -> None:
    value = _plain(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
            not math.isfinite(float(value)) or not 0.0 <= float(value) < 1.0:
        raise OptionError(f"{name} must lie in [0, 1): it is the advantage in mean(W_h - W_judge), "
                          f"a difference of two shares, granted to the judge ({EPSILON_GUIDANCE}); "
                          f"got {_shown(value)}")


def fdr(name: str, value: Any) -> None:
    value = _plain(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or \
            not math.isfinite(float(value)) or not 0.0 < float(value) < 1.0:
        raise OptionError(f"{name} must lie in (0, 1) (the false discovery rate of the Benjamini-"
                          f"Yekutieli procedure; the paper uses 0.05), got {_shown(value)}")


def min_humans(name: str, value: Any) -> None:
    whole()(name, value)
    if _plain(value) < 2:
        raise OptionError(f"{name} must be at least 2: a human is scored against the other "
                          f"humans of an instance, so an instance needs two, got {_shown(value)}")


def min_items(name: str, value: Any) -> None:
    whole()(name, value)
    if _plain(value) < MIN_ITEMS:
        raise OptionError(f"{name} must be at least {MIN_ITEMS}, got {_shown(value)}: the "
                          f"alt-test is a t-test per human, whose normal approximation the paper "
                          f"trusts from {MIN_ITEMS} instances a human on (below that it names the "
                          f"Wilcoxon signed-rank test, which this package does not implement); "
                          f"annotate more instances per human")


def values_list(name: str, value: Any) -> None:
    """A non-empty list of values (scikit-learn's ``labels=``); what each may be is checked
    where it is read (agreement_sql.domain)."""
    if value is None:
        return
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise OptionError(f"{name}= must list the categories, e.g. [0, 1, 2] or ['a', 'b'], "
                          f"got {_shown(value)}")
    if len(list(value)) == 0:
        raise OptionError(f"{name}= is empty; list the categories to count")


def unit_weights(name: str, value: Any) -> None:
    """scikit-learn's ``sample_weight=``: a mapping unit -> weight, or a sequence of weights in
    the units' row order; each weight is checked where it is read
    (agreement_sql.metrics.coefficient.register_unit_weights)."""
    if value is None or isinstance(value, Mapping):
        return
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise OptionError(f"{name}= must be a mapping {{unit: weight}} or a sequence of weights "
                          f"(one per unit, in row order), got {_shown(value)}")


def across(name: str, value: Any) -> None:
    if value is None or isinstance(value, bool):
        return
    text()(name, value)


# -- the table --------------------------------------------------------------------------------------

COEFFICIENTS = ("cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa", "gwet_ac1",
                "brennan_prediger", "percent_agreement", "krippendorff_alpha")
WORKFLOW_LEVEL = {"judge_agreement": "interval", "rater_diagnostics": "interval"}


def _declared(*parameters: Parameter) -> dict[str, Parameter]:
    return {p.name: p for p in parameters}


PARAMETERS: dict[str, Parameter] = _declared(
    # the input and its columns
    Parameter("source", "the ratings: a path or glob, an Arrow/pandas/polars table, a DuckDB "
              "relation, a table name with con=, label arrays", anything),
    Parameter("to", "write the result here as long typed rows, one per slice and coefficient: "
              "a .parquet or .csv path, or ('table', name) on the caller's DuckDB connection",
              destination, refuses=("out.json", ("table", ""), 5)),
    Parameter("con", "the connection or engine to run on (None: a private in-memory DuckDB)",
              anything),
    Parameter("item", "the column naming each rated unit", text(column=True), "item",
              {"judge_agreement": None}, refuses=("", 3)),
    Parameter("rater", "the column naming each rater", text(column=True), "rater",
              {"judge_agreement": None}, refuses=("", 3)),
    Parameter("value", "the column holding each rating", text(column=True), "value",
              {"judge_agreement": None}, refuses=("", 3)),
    Parameter("metric", "the column naming each rating's metric (rubric question); one result "
              "per metric", text(optional=True, column=True), refuses=("", 3)),
    Parameter("group_by", "column(s) to slice by; one result per slice", names(), refuses=("", 5)),
    Parameter("layout", "the source's shape: long rows, or a peer's wide, counts or contingency "
              "table (None: long, or label arrays read as wide)",
              choice(None, "long", "wide", "counts", "table"), refuses=("tall",)),
    Parameter("rater_columns", "layout='wide': the rater columns", names(), refuses=("", 4)),
    Parameter("orientation", "a 2-D array's orientation (layout='wide')",
              choice(None, "units_x_raters", "raters_x_units"), refuses=("rows",)),
    Parameter("on_duplicate", "a rater rating a unit twice: an error (None), or keep the first, "
              "the last, or the mean", choice(None, "error", "first", "last", "mean"),
              refuses=("max",)),
    Parameter("missing", "values that mean 'no rating' (text or numbers)", placeholders,
              refuses=(float("inf"), [object()])),
    # the coefficients
    Parameter("which", "the coefficients coefficients() computes (registry names and aliases, "
              "or 'icc')", names(), refuses=(5,)),
    Parameter("weights", "agreement weights: None, 'linear', 'quadratic' or a full matrix",
              weights, refuses=("cubic", 3)),
    Parameter("weight_basis", "weights from category values or sorted positions",
              choice("value", "position"), "value", refuses=("rank",)),
    Parameter("categories", "the declared categories, in order", anything),
    Parameter("domain", "the declared categories, in order (alpha's name for categories=)",
              anything),
    Parameter("labels", "Cohen's kappa: scikit-learn's labels=, the categories counted, in "
              "order; ratings outside them are left out with their pairs (and counted)",
              values_list, refuses=("", 5)),
    Parameter("sample_weight", "Cohen's kappa: scikit-learn's sample_weight=, a weight per unit "
              "(a mapping unit -> weight, or one weight per row-position unit)", unit_weights,
              refuses=("w", 5)),
    Parameter("level", "Krippendorff's level of measurement (None: nominal; the workflows below: "
              "interval)",
              choice(None, "nominal", "ordinal", "interval", "ratio"), None,
              dict(WORKFLOW_LEVEL), refuses=("metric", 0.95)),
    Parameter("distance", "Krippendorff's alpha's distance in place of the level's: 'masi' or "
              "'jaccard' over set-valued labels, or a matrix over the labels (a dict {(a, b): d} "
              "or a table with columns a, b, d); never SQL text", distance,
              refuses=("cosine", 3, "a <> b")),
    Parameter("set_separator", "every rating is a set of labels joined by this text ('|': "
              "'a|b'), read as its canonical form (trimmed, de-duplicated, sorted)",
              text(optional=True), refuses=("", 5)),
    Parameter("raters", "the raters to compare, by name", names(), refuses=("", 7)),
    Parameter("ci", "a confidence level (0.95) for an interval, or None for none",
              ci_or_bool, None, {"icc": 0.95, "concordance": 0.95, "bland_altman": 0.95},
              refuses=(1.5, 0.0, "high")),
    Parameter("ci_method", "'analytic' or 'bootstrap'", choice(None, "analytic", "bootstrap"),
              refuses=("jackknife",)),
    Parameter("n_boot", "bootstrap replicates", whole(2, 100_000, optional=True),
              refuses=(1, 2.5, True)),
    Parameter("seed", "the seed of a random draw (the bootstrap's, a sample's, a simulation's)",
              whole(0, 2 ** 62 - 1, optional=True), refuses=(-1, 1.5)),
    Parameter("incomplete_units", "category_agreement: units not rated by every rater of the "
              "metric (and slice): 'keep' (every rated unit, the general form) or 'drop' (R irr's "
              "kappam.fleiss, which omits them: na.omit)", choice("keep", "drop"), "keep",
              refuses=("omit", None)),
    Parameter("marginals", "Cohen/Scott with missing ratings: 'pairwise' or irrCAC's 'gwet'",
              choice(None, "pairwise", "gwet"), refuses=("all",)),
    Parameter("asymmetric_weights", "an asymmetric weight matrix: 'error', 'symmetrize', or "
              "'oriented' (kept in two raters' table, rows the first rater: irrCAC's *.table)",
              choice(None, "error", "symmetrize", "oriented"), refuses=("keep",)),
    Parameter("variance", "the analytic variance's divisor as irrCAC: 'irrcac_raw' or "
              "'irrcac_table'", choice(None, "irrcac_raw", "irrcac_table"), refuses=("raw",)),
    Parameter("inference", "analytic intervals and tests: 'normal' (normal quantiles, each "
              "coefficient's null variance) or 'irrcac' (Student's t on n - 1 df, the estimate's "
              "variance, the upper end at most 1)", choice(None, "normal", "irrcac"),
              refuses=("t",)),
    # ICC, concordance, Bland-Altman
    Parameter("form", "the ICC form (ICC1 ... ICC3k, or Shrout & Fleiss / McGraw & Wong names)",
              text(optional=True), None, refuses=("", 2)),
    Parameter("limits", "the share the limits of agreement cover (0.95: +-1.96 sd)",
              level_of_confidence(False), 0.95, refuses=(1.0, 95)),
    # the workshop report and pairwise agreement
    Parameter("scales", "declared scales per question: 'binary', (min, max) or 'min..max'",
              mapping(), refuses=(["binary"],)),
    Parameter("threshold", "the IRR score (a percentage) a report must reach", threshold, 75.0,
              refuses=(0.75, 150, -5, "75")),
    Parameter("max_traces", "traces listed in the report's disagreements (None: all)",
              whole(optional=True), 100, {"report": 20}, refuses=(-1, 2.5)),
    Parameter("max_patterns", "problematic traces listed per question", whole(), 20,
              refuses=(-1, None)),
    Parameter("tolerance", "pairwise agreement: ratings this far apart are adjacent; agree: "
              "a unit whose ratings lie this close agrees (R irr's tolerance)",
              number(0.0), 1.0, {"agree": 0.0}, refuses=(-1, "1")),
    Parameter("units", "agree: the units counted, 'rated_twice' (rated twice or more) or "
              "'complete' (rated by every rater: R irr's na.omit)",
              choice("rated_twice", "complete"), "rated_twice", refuses=("all", None)),
    Parameter("title", "the HTML report's title", text(optional=True), refuses=("",)),
    # judges
    Parameter("judges", "the judges: names, or names with their metadata", judges,
              refuses=(5, "")),
    # the alternative annotator test (Calderon, Reichart & Dror 2025)
    Parameter("epsilon", "the advantage granted to a judge in mean(W_h - W_judge), in [0, 1) "
              "(the paper: 0.2 experts, 0.15 skilled annotators, 0.1 crowd workers)", epsilon,
              0.2, refuses=(1.0, -0.1)),
    Parameter("scoring", "how a label is scored against the other humans: 'accuracy' (labels) "
              "or 'neg_rmse' (numbers)", choice("accuracy", "neg_rmse"), "accuracy",
              refuses=("rmse",)),
    Parameter("q", "the false discovery rate of the Benjamini-Yekutieli procedure", fdr, 0.05,
              refuses=(0, 1.5)),
    Parameter("min_humans", "the human labels an instance needs to enter (>= 2: a human is "
              "scored against the others)", min_humans, 2, refuses=(1,)),
    Parameter("min_items", "the instances a human needs to be tested (>= 30, the paper's floor "
              "for the t-test)", min_items, MIN_ITEMS, refuses=(10,)),
    Parameter("alt_test_options", "the report's alternative annotator test: epsilon, scoring, "
              "q, min_humans, min_items", mapping(), refuses=(5,)),
    Parameter("across", "judge_agreement: the slice a per-point alpha pools over", across,
              refuses=(5,)),
    Parameter("sigma_threshold", "a point is flagged when its judges' sigma exceeds this",
              number(0.0), 0.3, refuses=(-0.1,)),
    Parameter("diagnostics", "also the rater diagnostics", boolean, True, refuses=("yes",)),
    # incremental batches (agreement_sql.batches, docs/batches.md)
    Parameter("with_raters", "a batch state keeps each rating's rater (section unit_ratings: "
              "the rater-identified coefficients too), not only the counts per unit and value",
              boolean, False, refuses=("yes",)),
    Parameter("states", "the batch states to add: .parquet paths, globs, folders or tables",
              anything),
    Parameter("max_items", "units listed as driving disagreement", whole(), 10, refuses=(-1,)),
    Parameter("points_to", "write the per-point rows to Parquet files in this folder",
              path(), refuses=(5,)),
    Parameter("max_pair_raters", "the most raters for leave-one-out alphas and the pair matrix",
              whole(), 30, refuses=(-2,)),
    # consistency
    Parameter("pairs", "merged scholar/auditor pairs (JSONL path or records)", anything),
    Parameter("scholar", "the scholar's labels (JSONL path or records)", anything),
    Parameter("auditor", "the auditor's labels (JSONL path or records)", anything),
    Parameter("gates", "gates overriding pa 0.90, kappa 0.75, abstain 0.02", gates,
              refuses=({"speed": 1},)),
    Parameter("unknown_labels", "a label outside the four: 'error' or 'exclude'",
              choice("error", "exclude"), "error", refuses=("drop",)),
    Parameter("disagreements_tsv", "write the disagreements and their arbitration here", path(),
              refuses=(5,)),
    # the evaluation sheet and its sample
    Parameter("include_train", "keep the Train rows", boolean, False, refuses=("no",)),
    Parameter("target", "the kappa target", number(-1.0, 1.0), 0.6, refuses=(60,)),
    Parameter("id_column", "the sheet's sample id column", text(), "Sample_ID", refuses=("",)),
    Parameter("split_column", "the sheet's dataset split column", text(), "Dataset_Split",
              refuses=("",)),
    Parameter("judge_column", "the sheet's LLM judge column (None: none)", text(optional=True),
              "LLM_Judge_Verdict", refuses=("",)),
    Parameter("consensus_column", "the sheet's consensus column (None: none)",
              text(optional=True), "Final_Consensus_Label", refuses=("",)),
    Parameter("breakdowns", "the sheet's breakdown columns", names(), refuses=("",)),
    Parameter("n_per_stratum", "rows drawn per stratum (a positive integer)", whole(1), 4,
              refuses=(0,)),
    Parameter("output", "write the sample here (CSV)", path(), refuses=(5,)),
    Parameter("stratum_column", "the sample's stratum column", text(), "Scenario", refuses=("",)),
    Parameter("verdict_column", "the sample's LLM verdict column", text(), "LLM_Judge_Verdict",
              refuses=("",)),
    Parameter("hide_judge", "blank the judge's columns in the sample", boolean, False,
              refuses=(1,)),
    # planning
    Parameter("coefficient", "the coefficient planned for", text(), None,
              {"achieved_precision": "cohen_kappa"}, refuses=("",)),
    Parameter("expected", "the coefficient's expected value", number(-1.0, 1.0, open_low=True,
              open_high=True), refuses=(1.5,)),
    Parameter("ci_width", "the interval's full width", number(0.0, 2.0, open_low=True,
              optional=True), refuses=(0, 3)),
    Parameter("target_width", "the interval's full width to reach", number(
              0.0, 2.0, open_low=True, optional=True), refuses=(0,)),
    Parameter("lower_bound", "the one-sided bound to reach", number(-1.0, 1.0, optional=True),
              refuses=(2,)),
    Parameter("n_raters", "raters rating every item", whole(2), refuses=(1, 2.5)),
    Parameter("n_categories", "categories of the planned ratings (None: 2, or as prevalence)",
              whole(2, 16, optional=True), refuses=(1, 40)),
    Parameter("prevalence", "the positive share, or one share per category", anything),
    Parameter("confidence", "the confidence of the interval or bound", level_of_confidence(False),
              0.95, refuses=(1.0,)),
    Parameter("assurance", "the share of studies that must meet the target",
              number(0.0, 1.0, open_low=True, open_high=True, optional=True), refuses=(1.0,)),
    Parameter("n_sim", "simulated studies per round (None: 200)", whole(10, optional=True),
              refuses=(1,)),
    # rendering
    Parameter("name", "a coefficient or template name", text(), refuses=("",)),
    Parameter("dialect", "the SQL dialect", choice("duckdb", "spark", "postgres", "bigquery",
              "snowflake"), "duckdb", refuses=("oracle",)),
    Parameter("relation", "the relation a rendering reads", text(), "ratings", refuses=("",)),
    Parameter("explain", "the route instead of the SQL", boolean, False, refuses=("yes",)),
    Parameter("judge_ids", "judge ids", names(optional=False), refuses=(5,)),
)


def declared(name: str) -> Parameter:
    found = PARAMETERS.get(name)
    if found is None:
        raise KeyError(f"parameter {name!r} is not declared in agreement_sql/declared.py")
    return found


def check_arguments(function: str, arguments: Mapping[str, Any]) -> None:
    """Refuse (OptionError naming it) any argument its declaration refuses."""
    for name, value in arguments.items():
        parameter = PARAMETERS.get(name)
        if parameter is not None and value is not parameter.default_of(function):
            parameter.check(name, value)
