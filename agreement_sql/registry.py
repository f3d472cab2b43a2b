"""The coefficient registry: one declaration per coefficient, from which everything else follows.

An entry names the coefficient, its SQL partial (the one place its statistic is written), its
family (which inputs it reads: docs/decisions/0003), its result type, how its values are
worded, and what it supports. The public functions below, ``coefficients()``, the CLI commands,
``render``'s names and the docs table are all derived from :data:`REGISTRY`
(docs/adding-a-coefficient.md shows the whole change for a new one).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import OptionError
from .results import (BrennanPredigerResult, CohenKappaResult, CongerKappaResult,
                      FleissKappaResult, GwetAC1Result, KappaResult, KrippendorffAlphaResult,
                      PercentAgreementResult, ScottPiResult)


@dataclass(frozen=True)
class Family:
    """What the coefficients of a family read and report (docs/decisions/0003, 0013): the
    partial that gathers their inputs, whether they need to know which rater gave each rating
    (a counts table's anonymous raters will not do; the route may read rater patterns), what
    their statistic measures (``agreement``: observed and chance agreement and an analytic
    variance; ``disagreement``: Krippendorff's observed and expected disagreement), and whether
    their rows carry rater-pair columns (n_raters, n_paired_ratings, rater_a, rater_b)."""

    name: str
    inputs: str
    rater_identity: bool
    measures: str
    pairs: bool = False


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("kappa", "sql/_kappa_inputs.sql.j2", False, "agreement"),
    Family("alpha", "sql/_alpha_sums.sql.j2", False, "disagreement"),
    Family("pair", "sql/_pair_tables.sql.j2", True, "agreement", pairs=True),
    Family("conger", "sql/_kappa_inputs.sql.j2 and per-rater counts", True, "agreement"),
)}

# the result fields a coefficient may report beyond its family's (Coefficient.reports)
REPORTS = {
    "n_pairs": "the rater pairs a mean over pairs averages (Light's kappa)",
    "null_test": "se0, z, p_one_sided and p_value of H0: no agreement beyond chance, with ci=: "
                 "the partial gives null_variance (the variance the test uses) and n_se (the "
                 "units its variance is over); sql/coefficients.sql.j2 computes the test",
}

# the variance each coefficient's test of H0 uses (Coefficient.null_variance), as its peers
# test it; stated in a result's conventions["test"]
GWET_TEST = ("the linearised variance of the estimate (Gwet 2014, ch. 5), as irrCAC tests it "
             "(gwet.ac1.raw, bp.coeff.raw, pa.coeff.raw, conger.kappa.raw)")


@dataclass(frozen=True)
class Coefficient:
    name: str                     # function name, result "coefficient", CLI command (with -)
    title: str
    partial: str                  # sql/<partial>: its statistic, written once
    family: str                   # "kappa" (rater-free shares), "alpha", "pair", "conger"
    result: Any                   # the result TypedDict
    source: str                   # the formula's source
    interpretation: str | None    # "landis_koch", "krippendorff" or None (not chance-corrected)
    weighted: bool = True         # takes weights=, weight_basis=
    analytic_se: bool = True      # has an analytic standard error (else the bootstrap)
    two_raters: bool = False      # defined for exactly two raters only
    named_raters: bool = False    # takes raters=[...]
    levels: bool = False          # takes level= (Krippendorff's levels of measurement)
    marginals: bool = False       # takes marginals= ("gwet": Gwet 2014's convention, missing ratings)
    aliases: tuple[str, ...] = ()
    weighted_name: str | None = None   # the result's coefficient name when weighted
    example: str = ""             # a doctest on published data, appended to the docstring
    reports: tuple[str, ...] = ()      # result fields beyond the family's (REPORTS)
    variance_form: str | None = None   # the units form its analytic variance reads, if only one
    ordered_raters: bool = False  # its two raters are not interchangeable (an asymmetric weight
                                  # matrix is kept: rows rater A's categories, columns rater B's)
    gwet_marginals: str = ""      # what marginals="gwet" means for it (the result's conventions)
    null_variance: str = GWET_TEST     # the variance its test of H0 uses (conventions["test"])
    oriented: bool = False        # takes asymmetric_weights="oriented" (two raters' table, rows
                                  # the first rater's categories: irrCAC's *.table functions)
    analytic_levels: tuple[str, ...] = ()  # the levels with an analytic SE (empty: every one)
    default_bootstrap: bool = False  # ci_method defaults to the bootstrap though an analytic SE
                                     # exists (alpha: the interval users expect of it)
    sklearn_options: bool = False    # takes scikit-learn cohen_kappa_score's labels= (the
                                     # categories counted) and sample_weight= (a weight per unit)

    @property
    def family_of(self) -> Family:
        return FAMILIES[self.family]


REGISTRY: dict[str, Coefficient] = {c.name: c for c in (
    Coefficient("cohen_kappa", "Cohen's kappa (Light's kappa for more raters)", "_cohen.sql.j2",
                "pair", CohenKappaResult, "Cohen (1960, 1968); Light (1971); Fleiss, Cohen & "
                "Everitt (1969) for the standard error", "landis_koch", named_raters=True,
                marginals=True, aliases=("cohen", "light_kappa"), reports=("n_pairs", "null_test"),
                ordered_raters=True, sklearn_options=True,
                gwet_marginals="each rater's marginals over every unit it rated",
                null_variance="the null variance of Fleiss, Cohen & Everitt (1969), as SAS PROC "
                              "FREQ, statsmodels cohens_kappa and R irr kappa2 test it (two raters;"
                              " Light's kappa has none)"),
    Coefficient("scott_pi", "Scott's pi", "_scott.sql.j2", "pair", ScottPiResult,
                "Scott (1955); Gwet (2014) ch. 2 for the weighted form and variance",
                "landis_koch", two_raters=True, named_raters=True, marginals=True,
                aliases=("scott",), reports=("null_test",),
                gwet_marginals="category shares over every unit either rater rated",
                null_variance="the linearised variance of the estimate (Gwet 2014, ch. 2), as "
                              "irrCAC scott2.table tests it"),
    Coefficient("fleiss_kappa", "Fleiss' kappa", "_fleiss.sql.j2", "kappa", FleissKappaResult,
                "Fleiss (1971); Gwet (2014) ch. 5 for missing ratings, weights and variance",
                "landis_koch", aliases=("fleiss",), reports=("null_test",),
                null_variance="the null variance of Fleiss, Levin & Paik (2003), as R irr "
                              "kappam.fleiss tests it: unweighted, every unit rated by the same "
                              "number of raters (None otherwise)",
                example=(
                    "Fleiss (1971), 30 patients x 6 psychiatrists, 5 diagnoses (kappa = .430):\n\n"
                    '    >>> data = "tests/reference/fleiss1971_diagnoses_30x6.csv"\n'
                    '    >>> round(fleiss_kappa(data)["value"], 3)\n'
                    "    0.43\n")),
    Coefficient("conger_kappa", "Conger's kappa", "_conger.sql.j2", "conger", CongerKappaResult,
                "Conger (1980); Gwet (2014) ch. 5", "landis_koch", aliases=("conger",),
                variance_form="counts", reports=("null_test",)),
    Coefficient("gwet_ac1", "Gwet's AC1 (AC2 when weighted)", "_gwet_ac1.sql.j2", "kappa",
                GwetAC1Result, "Gwet (2008); Gwet (2014) ch. 5", "landis_koch",
                aliases=("gwet_ac2", "ac1", "ac2"), weighted_name="gwet_ac2",
                reports=("null_test",), oriented=True),
    Coefficient("brennan_prediger", "Brennan-Prediger coefficient", "_brennan_prediger.sql.j2",
                "kappa", BrennanPredigerResult, "Brennan & Prediger (1981); Gwet (2014) ch. 5",
                "landis_koch", aliases=("bp",), reports=("null_test",), oriented=True),
    Coefficient("percent_agreement", "percent agreement (a proportion)",
                "_percent_agreement.sql.j2", "kappa", PercentAgreementResult,
                "Gwet (2014) ch. 2", None, reports=("null_test",), oriented=True,
                null_variance="the linearised variance of the estimate (Gwet 2014, ch. 2): a "
                              "test of H0: p_a = 0, as irrCAC pa.coeff.raw and pa2.table test it"),
    Coefficient("bangdiwala_b", "Bangdiwala's B (agreement chart)", "_bangdiwala_b.sql.j2",
                "pair", KappaResult, "Bangdiwala (1985); Friendly & Meyer (2016) sec. 4.5",
                None, weighted=False, analytic_se=False, two_raters=True, named_raters=True,
                aliases=("bangdiwala",)),
    Coefficient("krippendorff_alpha", "Krippendorff's alpha", "_krippendorff_alpha.sql.j2", "alpha",
                KrippendorffAlphaResult, "Krippendorff (2011), Computing Krippendorff's "
                "Alpha-Reliability; Gwet (2014) ch. 5 and irrCAC krippen.alpha.raw for the standard "
                "error", "krippendorff", weighted=False, levels=True, aliases=("alpha",),
                reports=("null_test",), analytic_levels=("nominal", "interval"),
                default_bootstrap=True,
                null_variance="the linearised variance of the estimate (Gwet 2014, ch. 5), as "
                              "irrCAC krippen.alpha.raw tests it (levels nominal and interval; "
                              "None at ordinal and ratio)",
                example=(
                    "Krippendorff (2011) sec. C, 4 observers x 12 units:\n\n"
                    '    >>> data = "tests/reference/krippendorff2011_4x12.csv"\n'
                    '    >>> [round(krippendorff_alpha(data, level=lv)["value"], 3)\n'
                    '    ...  for lv in ("nominal", "ordinal", "interval", "ratio")]\n'
                    "    [0.743, 0.815, 0.849, 0.797]\n")),
)}

def lookup(name: str) -> Coefficient:
    """The entry for ``name`` or one of its aliases (``-`` and ``_`` alike, any case)."""
    wanted = str(name).lower().replace("-", "_")
    for entry in REGISTRY.values():
        if wanted == entry.name or wanted in entry.aliases:
            return entry
    raise OptionError(f"unknown coefficient {name!r}; choose from {', '.join(REGISTRY)}")


def partials() -> tuple[str, ...]:
    """Every coefficient partial (sql/coefficients.sql.j2 includes them by name)."""
    return tuple(c.partial for c in REGISTRY.values())
