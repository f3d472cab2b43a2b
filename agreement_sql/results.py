"""Result types: TypedDicts, JSON-ready (floats, ints, strings, bools, None, lists, dicts).

Core functions return unrounded values; only the seed-shaped reports round, as the seeds did,
and they decide on unrounded values. Undefined is ``None`` (JSON ``null``), never 0.0 or NaN.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - Python 3.10
    from typing_extensions import NotRequired, TypedDict


class ScaleInfo(TypedDict):
    kind: str                      # "binary" or "likert"
    min: float
    max: float
    declared: bool                 # False when detected from the ratings


class PairwiseAgreementResult(TypedDict):
    metric: str
    n_items_paired: int            # units with two or more ratings
    n_pairs: int                   # unordered rater pairs on the same unit, pooled
    exact_pairs: int
    adjacent_pairs: int
    exact_agreement: Optional[float]     # percent, unrounded; None when n_pairs == 0
    adjacent_agreement: Optional[float]  # |a - b| <= tolerance
    primary: Optional[float]       # exact for binary, adjacent otherwise
    is_binary: bool
    scale: Optional[ScaleInfo]     # None: the metric has no rating (all missing)


class HumanAgreementResult(TypedDict):
    metric: str
    human_agreement: Optional[float]     # GDPval A^HH in [0, 1]; None when no unit has 2 ratings
    n_samples: int
    interpretation: Optional[str]
    scale: Optional[ScaleInfo]     # None: the metric has no rating (all missing)


class AgreeResult(TypedDict):
    """R irr's agree(): the share of units on which every rater agrees (agreement_sql.agree)."""
    coefficient: str               # "agree"
    value: Optional[float]         # n_agree / n_items, a proportion; None when no unit counted
    percent: Optional[float]       # irr's %-agree, 100 * value
    tolerance: float               # a unit agrees when max - min <= tolerance (numbers)
    units: str                     # "rated_twice" (default) or "complete" (irr's na.omit)
    n_items: int                   # units counted
    n_agree: int                   # of them, units on which every rater agrees
    n_raters: int                  # raters with a rating in the metric (and slice)
    metric: str
    group: NotRequired[Dict[str, Any]]
    n_rows: NotRequired[int]             # accounting (see Accounting)
    n_ratings: NotRequired[int]
    n_excluded: NotRequired[Dict[str, int]]
    conventions: NotRequired[Dict[str, str]]


class Accounting(TypedDict):
    """What a result counted of its input rows (docs/decisions/0005):
    n_rows = n_ratings + sum(n_excluded.values())."""
    n_rows: int                    # input rows of the metric (and slice)
    n_ratings: int                 # ratings that entered the statistic
    n_excluded: Dict[str, int]     # by reason: missing, placeholder, duplicate, single_rated, outside_pair


class KrippendorffAlphaResult(TypedDict):
    coefficient: str               # "krippendorff_alpha"
    level: Optional[str]           # None when a distance replaces the level's
    distance: NotRequired[str]     # "masi", "jaccard" or "matrix" (distance=; decision 0028)
    value: Optional[float]
    observed_disagreement: Optional[float]
    expected_disagreement: Optional[float]
    n_items: int                   # pairable units
    n_raters: int                  # raters with at least one rating
    n_values: int                  # pairable values
    n_categories: int              # distinct values among the pairable values
    interpretation: Optional[str]
    metric: NotRequired[str]
    group: NotRequired[Dict[str, Any]]
    domain: NotRequired[List[Any]]       # the declared value domain, when one was given
    se: NotRequired[Optional[float]]     # bootstrap standard deviation (ci= given)
    ci_low: NotRequired[Optional[float]]
    ci_high: NotRequired[Optional[float]]
    ci_method: NotRequired[str]          # "bootstrap"
    ci_level: NotRequired[float]
    n_boot: NotRequired[int]
    n_boot_valid: NotRequired[int]       # replicates with a defined alpha
    seed: NotRequired[int]
    n_rows: NotRequired[int]             # accounting (see Accounting)
    n_ratings: NotRequired[int]
    n_excluded: NotRequired[Dict[str, int]]


class PerMetricScore(TypedDict):
    score: Optional[float]
    exact_agreement: Optional[float]
    adjacent_agreement: Optional[float]
    interpretation: Optional[str]
    acceptable: bool
    suggestions: List[str]
    is_binary: bool
    krippendorff_alpha: Optional[float]
    human_agreement: Optional[float]
    problematic_patterns: List[str]
    scale: Optional[ScaleInfo]     # None: the metric has no rating (all missing)


class TraceDisagreement(TypedDict):
    trace_id: str
    metric: str
    std_dev: float                 # population sigma, unrounded
    label: str                     # Perfect / Good / Moderate / High / Very High
    priority: bool                 # "Priority Discussion Needed" when sigma > 1.5
    num_ratings: int
    mean: float
    range: float


class IRRReport(TypedDict):
    metric_used: str
    score: float
    interpretation: str
    ready_to_proceed: bool
    threshold: float
    suggestions: List[str]
    num_raters: int
    num_traces: int
    num_annotations: int
    completeness: float
    missing_data: bool
    per_metric_scores: Dict[str, PerMetricScore]
    problematic_patterns: List[str]
    human_agreement: NotRequired[float]
    trace_disagreements: List[TraceDisagreement]
    conventions: Dict[str, str]
    n_excluded: NotRequired[Dict[str, int]]   # always present: the input rows not counted, by reason


class IRRError(TypedDict):
    error: str
    metric_used: str               # "none"
    num_annotations: int
    score: float                   # 0.0
    ready_to_proceed: bool         # False
    invalid_rating: NotRequired[Dict[str, Any]]


class KappaResult(TypedDict):
    """A chance-corrected agreement coefficient of the kappa family (see docs/coefficients.md)."""
    coefficient: str               # e.g. "cohen_kappa", "light_kappa", "fleiss_kappa", "gwet_ac2"
    value: Optional[float]         # None when undefined (no item rated twice)
    observed_agreement: Optional[float]  # p_a (weighted when weights are given)
    chance_agreement: Optional[float]    # p_e
    n_items: int                   # items that enter the agreement (rated by two or more raters)
    n_raters: int
    n_categories: int              # the declared domain, else the categories observed
    interpretation: Optional[str]  # Landis & Koch (1977); None for percent_agreement
    weights: str                   # "unweighted", "linear", "quadratic" or "custom"
    weight_basis: NotRequired[str]       # "value" or "position" (weighted results)
    se: NotRequired[Optional[float]]     # analytic SE, or the bootstrap SD (ci= given)
    ci_low: NotRequired[Optional[float]]
    ci_high: NotRequired[Optional[float]]
    ci_method: NotRequired[str]          # "analytic", "bootstrap", or "none" (no analytic SE)
    ci_level: NotRequired[float]
    n_boot: NotRequired[int]             # bootstrap only: replicates drawn
    n_boot_valid: NotRequired[int]       # bootstrap only: replicates with a defined value
    seed: NotRequired[int]               # bootstrap only
    se0: NotRequired[Optional[float]]    # Cohen, with ci: SE under H0 kappa = 0 (None: Light)
    z: NotRequired[Optional[float]]      # Cohen, with ci: kappa / se0
    p_one_sided: NotRequired[Optional[float]]  # Cohen, with ci: 1 - Phi(z) (SAS Pr > Z)
    p_value: NotRequired[Optional[float]]      # Cohen, with ci: 2 (1 - Phi(|z|))
    raters: NotRequired[List[str]]       # Cohen's kappa: the two raters (rows, columns)
    n_pairs: NotRequired[int]            # Cohen/Light: rater pairs with a defined kappa
    skipped: NotRequired[str]            # coefficients(): Light's kappa not computed by default, and why
    metric: NotRequired[str]
    group: NotRequired[Dict[str, Any]]
    n_rows: NotRequired[int]             # accounting (see Accounting)
    n_ratings: NotRequired[int]
    n_excluded: NotRequired[Dict[str, int]]


class CohenKappaResult(KappaResult):
    pass


class FleissKappaResult(KappaResult):
    pass


class CongerKappaResult(KappaResult):
    pass


class ScottPiResult(KappaResult):
    pass


class GwetAC1Result(KappaResult):
    pass


class BrennanPredigerResult(KappaResult):
    pass


class PercentAgreementResult(KappaResult):
    pass


class CategoryAgreement(TypedDict):
    """One category's agreement against the rest (agreement_sql.category_agreement)."""
    category: Any                  # the label, number or declared value
    n_ratings: int                 # ratings giving the category
    n_units: int                   # units given the category by at least one rater
    share: Optional[float]         # n_ratings / the ratings that enter (of the metric and slice)
    kappa: Optional[float]         # Fleiss' kappa_j; None: no unit rated twice, or k never/always given
    observed_agreement: Optional[float]  # p_a of the ratings recoded k / not k
    chance_agreement: Optional[float]    # p_e = 1 - 2 pi_k (1 - pi_k)
    se0: Optional[float]           # sqrt(2 / (N m (m - 1))); None unless every unit has m >= 2 ratings
    z: Optional[float]             # kappa / se0
    p_one_sided: Optional[float]   # 1 - Phi(z)
    p_value: Optional[float]       # 2 (1 - Phi(|z|)), as irr's p.value
    specific_agreement: Optional[float]  # sum r_ik (r_ik - 1) / sum r_ik (r_i - 1)
    agreeing_pairs: int            # sum_i r_ik (r_ik - 1): ordered rater pairs both saying k
    possible_pairs: int            # sum_i r_ik (r_i - 1): ordered rater pairs one of which says k


class CategoryAgreementResult(TypedDict):
    """Category-wise agreement of one metric (and slice): docs/coefficients.md."""
    metric: str
    n_units: int                   # units that enter (rated; with incomplete_units="drop", by every rater)
    n_items: int                   # units rated twice or more (they enter the agreement)
    n_raters: int
    n_categories: int              # the declared domain, else the categories used
    categories: List[CategoryAgreement]  # in the domain's order
    conventions: Dict[str, str]
    n_rows: int                    # accounting (see Accounting)
    n_ratings: int
    n_excluded: Dict[str, int]
    group: NotRequired[Dict[str, Any]]
    domain: NotRequired[List[Any]]       # the declared categories, when given


# --- workflows: rater diagnostics, judge agreement, consistency, evaluation sheet ---

class RaterAgreement(TypedDict):
    rater: str
    n_ratings: int
    n_items_shared: int                  # units this rater shares with at least one other rater
    agreement_with_others: Optional[float]   # % of (rater, other) pairs that agree exactly
    mean_abs_difference: Optional[float]     # mean |x_rater - x_other| (numeric ratings)
    alpha_without: Optional[float]       # the group's alpha with this rater left out
    mean_rating: Optional[float]


class RaterPair(TypedDict):
    rater_a: str
    rater_b: str
    n_items: int                         # units both rated
    exact_agreement: Optional[float]     # percent
    mean_abs_difference: Optional[float]
    mean_offset: Optional[float]         # mean (a - b)
    alpha: Optional[float]               # Krippendorff's alpha of the two alone


class RaterBias(TypedDict):
    rater: str
    category: Optional[Any]              # nominal: one row per category (its label or number); else None
    n_items: int
    rater_value: Optional[float]         # the rater's mean (numeric) or share of the category
    others_value: Optional[float]        # the other raters' mean or share on the same units
    offset: Optional[float]              # rater_value - others_value


class DisagreementItem(TypedDict):
    rank: int
    item: str
    n_ratings: int
    n_values: int                        # distinct values given
    disagreeing_pairs: int
    std_dev: Optional[float]             # population sigma (numeric ratings)
    spread: Optional[float]              # max - min (numeric ratings)
    disagreement_share: Optional[float]  # the unit's share of the observed disagreement D_o
    ratings: Dict[str, Any]              # rater -> rating


class RaterDiagnostics(TypedDict):
    level: str
    metric: str
    alpha: Optional[float]
    raters: List[RaterAgreement]         # least agreeing first
    pairs: List[RaterPair]
    bias: List[RaterBias]
    items: List[DisagreementItem]        # the units that drive disagreement, largest share first
    notes: List[str]
    group: NotRequired[Dict[str, Any]]
    conventions: NotRequired[Dict[str, str]]   # labels spelled like a missing marker (markers.py)


class JudgeUsed(TypedDict):
    judgeId: str
    model: str
    approach: str
    assessmentCount: int                 # scores this judge gave on the points alpha pairs


class PointAlpha(TypedDict):
    pointText: str
    alpha: Optional[float]               # 3 dp; the point across every response
    numJudges: int


class JudgeAgreementMetrics(TypedDict):
    """Seed 004's ``JudgeAgreementMetrics``, field for field."""
    krippendorffsAlpha: Optional[float]  # 3 dp
    numItems: int                        # points with two or more valid scores
    numJudges: int                       # distinct judges
    numComparisons: int                  # within-point judge pairs
    interpretation: Optional[str]        # reliable | tentative | unstable | unreliable
    judgeSetFingerprint: str             # sha256 of the sorted distinct judge ids, 12 hex
    judgesUsed: List[JudgeUsed]          # by assessmentCount, descending, stable
    perPointAlphas: NotRequired[List[PointAlpha]]


class FlaggedPoint(TypedDict):
    pointText: str
    stdDev: Optional[float]              # population sigma of the judges' scores, 3 dp
    mean: Optional[float]
    spread: Optional[float]
    numJudges: int


class JudgeGroup(TypedDict):
    group: Dict[str, Any]                # e.g. {"promptId": ..., "modelId": ...}
    judgeAgreement: Optional[JudgeAgreementMetrics]   # None: no point scored by two judges
    highDisagreementPoints: Optional[List[FlaggedPoint]]   # sigma > sigmaThreshold; None: in
                                                           # pointFiles["points"] (flagged)
    numRows: int                         # the input rows of the group
    excluded: Dict[str, int]             # of them, left out: missing, placeholder (scores)


class PointAgreement(TypedDict):
    group: Dict[str, Any]                # the group keys without the `across` column
    pointText: str
    alpha: Optional[float]               # 3 dp
    interpretation: Optional[str]
    numJudges: int
    numResponses: int                    # responses (units) with two or more scores
    numComparisons: int


class PointFile(TypedDict):
    """A Parquet file of per-point rows a call wrote (judge_agreement's ``points_to``)."""
    path: str
    rows: int


class JudgePlatform(TypedDict):
    meanAlpha: Optional[float]           # mean of the group alphas, 3 dp
    minAlpha: Optional[float]
    numGroupsWithAlpha: int
    numGroups: int
    pooled: Optional[JudgeAgreementMetrics]   # every judged point of every group as one set


class JudgeAgreementReport(TypedDict):
    input: str                           # "weval" or "long table"
    level: str
    groupBy: List[str]
    across: Optional[str]
    sigmaThreshold: float
    groups: List[JudgeGroup]
    perPoint: Optional[List[PointAgreement]]   # None: in pointFiles["pointAlphas"]
    platform: JudgePlatform
    warnings: List[str]
    diagnostics: Optional[RaterDiagnostics]
    conventions: Dict[str, str]
    pointFiles: NotRequired[Dict[str, PointFile]]   # points_to: "points", "pointAlphas"


# "pass" is a Python keyword: the functional form keeps seed 002's key
ConsistencyReport = TypedDict("ConsistencyReport", {
    "n": int,                            # rows where both agents gave a known label
    "percent_agreement": Optional[float],     # 4 dp
    "kappa": Optional[float],                 # 4 dp; 1.0 when both use one same label
    "abstain_rate": Optional[float],          # scholar-side ABSTAIN / n, 4 dp
    "disagreements": int,
    "gates": Dict[str, float],                # pa, kappa, abstain
    "pass": bool,                             # every gate, on unrounded values
    "gate_results": Dict[str, bool],
    "confusion_matrix": Dict[str, Dict[str, int]],   # scholar label -> auditor label -> count
    "arbitration": List[Dict[str, Any]],      # qid, scholar, auditor, final, why
    "unknown_labels": Dict[str, Any],         # count, qids
    "input": Dict[str, Any],
    "conventions": Dict[str, str],
})


class CoefficientsResult(TypedDict):
    """Several coefficients of one metric (and slice), computed in one statement."""
    metric: str
    group: NotRequired[Dict[str, Any]]
    coefficients: Dict[str, Dict[str, Any]]   # coefficient name -> KappaResult / alpha result


class EvaluationSheetReport(TypedDict):
    source: str
    rows: int
    train_rows: int
    include_train: bool
    annotators: List[str]                # the Annotator_N_Label columns
    labels: Dict[str, int]               # labels present per labelling column (rows kept)
    target: float                        # kappa target (0.60)
    annotator_agreement: Dict[str, Any]  # coefficient, kappa, percent_agreement, n, interpretation,
                                         # target_met, fleiss_kappa, all_agree_percent, pairs, ...
    llm_judge: Dict[str, Any]            # vs_annotators, vs_consensus
    confusion_matrices: Dict[str, Dict[str, Dict[str, int]]]   # "A x B" -> label_a -> label_b -> n
    breakdowns: Dict[str, List[Dict[str, Any]]]                # column -> one summary per level
    disagreements: List[Dict[str, Any]]  # samples the annotators disagree on (consensus round)
    diagnostics: Optional[RaterDiagnostics]
    notes: List[str]
    conventions: Dict[str, str]


class CalibrationSample(TypedDict):
    source: str
    output: Optional[str]                # the CSV written, annotator columns empty
    seed: int
    n_per_stratum: int
    per_stratum_target: Dict[str, int]   # PASS, FAIL
    drawn: int
    by_verdict: Dict[str, int]           # by the LLM judge's verdict
    by_split: Dict[str, int]             # Dev, Test
    excluded: Dict[str, int]             # train_rows, other_split_rows, no_verdict_rows
    shortfall: int                       # rows missing to reach n_per_stratum in every stratum
    strata: List[Dict[str, Any]]         # per stratum: rows, available, drawn, shortfall
    sample_ids: List[str]                # in the order written
    blanked_columns: List[str]
    notes: List[str]


# --- continuous scores and study planning (ICC, Lin's CCC, Bland-Altman, planning) ---

class ICCResult(TypedDict):
    """One intraclass correlation form (agreement_sql.metrics.icc; docs/icc.md)."""
    form: str                      # "ICC1", "ICC2", "ICC3", "ICC1k", "ICC2k", "ICC3k" (pingouin)
    shrout_fleiss: str             # "ICC(2,1)" ...
    mcgraw_wong: str               # "ICC(A,1)" ...
    irr: str                       # R irr model / type / unit, e.g. "twoway / agreement / single"
    value: Optional[float]         # None: fewer than two complete items or raters, no variance
    f: Optional[float]             # F of H0 ICC = 0 (MS_R/MS_W one-way, MS_R/MS_E two-way)
    df1: Optional[int]             # n - 1
    df2: Optional[int]             # n (k - 1) one-way, (n - 1)(k - 1) two-way
    ci_df2: Optional[float]        # ICC2/ICC2k: Satterthwaite's v of the interval (irr's df2)
    p_value: Optional[float]       # one-sided P(F(df1, df2) > f)
    ci_low: Optional[float]
    ci_high: Optional[float]
    ci_level: float
    n_items: int                   # complete items (rated by every rater of the metric/slice)
    n_raters: int                  # k
    n_excluded_items: int          # items left out as incomplete (listwise)
    interpretation: Optional[str]  # Koo & Li (2016): poor, moderate, good, excellent
    metric: str
    n_rows: int                    # accounting (see Accounting); n_excluded has "incomplete_item"
    n_ratings: int                 # n_items * n_raters
    n_excluded: Dict[str, int]
    group: NotRequired[Dict[str, Any]]


class ConcordanceResult(TypedDict):
    """Lin's concordance correlation coefficient of two raters (agreement_sql.metrics.concordance)."""
    coefficient: str               # "lin_ccc"
    value: Optional[float]         # rho_c = 2 s_ab / (s_a^2 + s_b^2 + (mean_a - mean_b)^2), 1/n moments
    pearson_r: Optional[float]     # precision
    bias_correction: Optional[float]     # C_b = rho_c / r (accuracy)
    z: Optional[float]             # atanh(rho_c)
    se_z: Optional[float]          # Lin (1989/2000) asymptotic SE of z
    ci_low: Optional[float]        # tanh(z -/+ z_(1-a/2) se_z)
    ci_high: Optional[float]
    ci_level: float
    raters: List[str]              # [a, b]
    n_items: int                   # items both raters rated
    mean_a: Optional[float]
    mean_b: Optional[float]
    interpretation: Optional[str]  # McBride (2005)
    metric: str
    n_rows: int
    n_ratings: int                 # 2 n_items
    n_excluded: Dict[str, int]     # missing, placeholder, duplicate, unpaired, outside_pair
    group: NotRequired[Dict[str, Any]]


class BlandAltmanResult(TypedDict):
    """Bland & Altman (1986, 1999) bias and limits of agreement of two raters."""
    raters: List[str]              # [a, b]; differences are a - b
    n_items: int
    mean_a: Optional[float]
    mean_b: Optional[float]
    bias: Optional[float]          # mean difference
    sd_diff: Optional[float]       # sample SD of the differences (n - 1)
    loa_low: Optional[float]       # bias - z sd
    loa_high: Optional[float]      # bias + z sd
    limits: float                  # share of differences the limits should hold (z from it)
    z: float                       # e.g. 1.959964 for 0.95
    bias_ci_low: Optional[float]   # bias -/+ t_(n-1) sd / sqrt(n)
    bias_ci_high: Optional[float]
    loa_low_ci: List[Optional[float]]    # each limit -/+ t_(n-1) sd sqrt(1/n + z^2 / (2 (n - 1)))
    loa_high_ci: List[Optional[float]]
    ci_level: float
    metric: str
    n_rows: int
    n_ratings: int
    n_excluded: Dict[str, int]
    group: NotRequired[Dict[str, Any]]


class SampleSizeResult(TypedDict):
    """Items needed for a target precision (agreement_sql.planning)."""
    coefficient: str               # "cohen_kappa", "fleiss_kappa", "icc", or a simulated one
    method: str                    # "closed_form" or "simulation"
    source: str                    # the formula's or the simulation's source
    n_items: int                   # items needed
    expected: float                # the anticipated coefficient
    target: str                    # "ci_width" or "lower_bound"
    ci_width: Optional[float]      # full width asked for
    lower_bound: Optional[float]   # one-sided lower bound asked for
    confidence: float
    assurance: float               # share of studies meant to reach the target (0.5: on average)
    n_raters: int
    n_categories: Optional[int]
    prevalence: Optional[List[float]]
    anticipated_se: Optional[float]      # closed form: the SE at n_items
    achieved_share: Optional[float]      # simulation: share of runs meeting the target at n_items
    n_sim: NotRequired[int]
    seed: NotRequired[int]
    notes: List[str]


class PrecisionResult(TypedDict):
    """What interval the data supports and how many more items reach a target."""
    coefficient: str
    value: Optional[float]
    ci_low: Optional[float]
    ci_high: Optional[float]
    ci_level: float
    ci_width: Optional[float]
    se: Optional[float]
    n_items: int
    target: str                    # "ci_width", "lower_bound" or "none"
    target_width: Optional[float]
    lower_bound: Optional[float]
    target_met: Optional[bool]
    n_needed: Optional[int]        # by the same closed form, at the observed value and margins
    n_more: Optional[int]          # max(0, n_needed - n_items)
    source: str
    metric: str
    group: NotRequired[Dict[str, Any]]


# --- the alternative annotator test (agreement_sql.workflows.alt_test; docs/judges.md) ---

class AltTestHuman(TypedDict):
    """One human a judge was tested against (Calderon, Reichart & Dror 2025, section 3)."""
    human: str
    n_items: int                   # instances of the human with the judge's label and min_humans humans
    p_value: Optional[float]       # one-sided t-test of d = W_h - W_judge against epsilon (H1: mean < epsilon)
    judge_wins: bool               # H0 rejected under Benjamini-Yekutieli at q
    advantage: float               # mean of W_judge: the judge scores at least as well as the human
    mean_difference: float         # mean of d = W_h - W_judge
    t: Optional[float]             # None when every d is equal (zero variance; see conventions)
    df: int                        # n_items - 1


class AltTestExcludedHuman(TypedDict):
    human: str
    n_items: int                   # below min_items: not tested
    reason: str


class AltTestJudge(TypedDict):
    """One judge's alt-test: in the order the judges were given."""
    judge: str
    winning_rate: Optional[float]  # share of tested humans whose null is rejected; None: none tested
    advantage_probability: Optional[float]   # mean over the tested humans of their advantage
    passed: Optional[bool]         # winning_rate >= 0.5 (unrounded); None when no human was tested
    epsilon: float
    scoring: str
    n_items: int                   # instances with the judge's label and at least min_humans humans
    n_humans_tested: int
    n_humans_won: int              # humans the judge wins against (rejected nulls)
    humans: List[AltTestHuman]     # by human name
    excluded_instances: Dict[str, int]       # fewer_than_min_humans, no_judge_label
    excluded_humans: List[AltTestExcludedHuman]


class AltTestResult(TypedDict):
    """ag.alt_test(): can these LLM judges replace a human annotator? (docs/judges.md)"""
    judges: List[AltTestJudge]
    humans: List[str]              # the raters not named as judges, by name
    n_instances: int               # instances (items) with any rating
    human_alpha: Optional[float]   # Krippendorff's alpha among the humans (None: no unit two humans rated)
    human_alpha_level: str         # nominal (accuracy) or interval (neg_rmse)
    human_alpha_items: int         # instances two or more humans rated
    epsilon: float
    scoring: str
    q: float
    min_humans: int
    min_items: int
    metric: str
    n_rows: int                    # accounting (see Accounting): every rating of the metric/slice
    n_ratings: int
    n_excluded: Dict[str, int]     # missing, placeholder, duplicate
    conventions: Dict[str, str]
    group: NotRequired[Dict[str, Any]]
