"""Golden SQL snapshots: every public template rendered with its default options (and listed
variants) is compared with tests/golden/<name>[--variant].sql, so a reviewer sees SQL diffs.

Refresh after an intended change:  UPDATE_GOLDEN=1 python -m pytest tests/test_golden_sql.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from agreement_sql.rendering import render
from agreement_sql.templates import available_templates

GOLDEN = Path(__file__).parent / "golden"

# extra renderings worth pinning: (template, variant name, options)
VARIANTS = [
    ("krippendorff_alpha", "nominal", {"level": "nominal", "by_label": True}),
    ("krippendorff_alpha", "ordinal", {"level": "ordinal"}),
    ("krippendorff_alpha", "ratio-by-slice", {"level": "ratio", "metric": "question",
                                              "group_by": ["Module"]}),
    ("pairwise_agreement", "workshop-struct", {"item": "trace_id", "rater": "user_id",
                                               "value": "ratings", "struct_fields": ["q1", "q 2"]}),
    ("pairwise_agreement", "dedup-last", {"on_duplicate": "last", "with_row_number": True}),
    ("irr_scores", "declared-scales", {"scales": "declared_scales", "metric": "question"}),
    ("krippendorff_alpha", "spark", {"dialect": "spark", "level": "interval"}),
    ("krippendorff_alpha", "bootstrap", {"bootstrap": True}),
    ("krippendorff_alpha", "bootstrap-nominal-by-slice", {"bootstrap": True, "level": "nominal",
                                                          "by_label": True, "metric": "question",
                                                          "group_by": ["Module"]}),
    ("krippendorff_alpha", "bootstrap-spark", {"dialect": "spark", "bootstrap": True,
                                               "level": "ordinal"}),
    ("krippendorff_alpha", "ordinal-domain", {"level": "ordinal", "domain": "value_domain",
                                              "domain_numeric": False}),
    ("krippendorff_alpha", "bootstrap-domain", {"level": "interval", "domain": "value_domain",
                                                "domain_numeric": True, "bootstrap": True}),
    # one-pass statements (agreement_sql/profile.py): fused input checks, wide category counts
    ("krippendorff_alpha", "one-pass-ordinal-wide", {"level": "ordinal", "rater_bits": "rater_bits",
                                                     "bit_columns": ["bit_0", "bit_1"],
                                                     "wide_categories": ["n_0", "n_1", "n_2"]}),
    ("krippendorff_alpha", "one-pass-nominal-labels", {"level": "nominal", "by_label": True,
                                                       "rater_bits": "rater_bits",
                                                       "bit_columns": ["bit_0"],
                                                       "wide_categories": ["n_0", "n_1"],
                                                       "wide_by_label": True, "metric": "question",
                                                       "group_by": ["Module"]}),
    ("krippendorff_alpha", "one-pass-interval-continuous", {"rater_bits": "rater_bits",
                                                            "bit_columns": ["bit_0"]}),
    ("krippendorff_alpha", "one-pass-ratio-wide-spark", {"dialect": "spark", "level": "ratio",
                                                         "wide_categories": ["n_0", "n_1", "n_2"]}),
    # the workshop report in one pass (sql/irr_report.sql.j2) and the window form for
    # continuous scores (sql/_value_windows.sql.j2)
    ("irr_report", "declared-scales-two-blocks", {"scales": "declared_scales", "metric": "question",
                                                  "bit_columns": ["bit_0", "bit_1"],
                                                  "wide_categories": ["n_0", "n_1", "n_2"]}),
    ("irr_report", "spark", {"dialect": "spark"}),
    ("irr_scores", "window-form", {"window_form": True}),
    ("pairwise_agreement", "window-form", {"window_form": True}),
    ("human_agreement", "window-form-spark", {"dialect": "spark", "window_form": True}),
    # the kappa family (sql/_confusion, _pairs, _cohen, _scott, _kappa_items, _fleiss, ...)
    ("cohen_kappa", "quadratic-ci", {"weights": "quadratic", "ci": True}),
    ("cohen_kappa", "named-pair-declared-linear", {"named_raters": 2, "weights": "linear",
                                                   "domain": "value_domain",
                                                   "domain_numeric": False}),
    ("cohen_kappa", "matrix-labels-by-slice", {"weights": "matrix", "weight_matrix": "weight_matrix",
                                               "by_label": True, "metric": "question",
                                               "group_by": ["Module"]}),
    ("scott_pi", "linear-ci", {"weights": "linear", "ci": True, "named_raters": 2}),
    ("fleiss_kappa", "quadratic-ci-by-slice", {"weights": "quadratic", "ci": True,
                                               "group_by": ["Module"]}),
    ("fleiss_kappa", "spark", {"dialect": "spark", "ci": True}),
    ("conger_kappa", "linear-ci", {"weights": "linear", "ci": True}),
    ("gwet_ac1", "ac2-position", {"weights": "quadratic", "weight_basis": "position",
                                  "ci": True}),
    ("brennan_prediger", "declared", {"domain": "value_domain", "domain_numeric": True,
                                      "ci": True}),
    ("coefficients", "ci-by-slice", {"ci": True, "metric": "question", "group_by": ["Module"]}),
    ("coefficients", "spark-ordinal", {"dialect": "spark", "level": "ordinal",
                                       "weights": "linear", "ci": True}),
    # the kappa family's one-pass form (sql/_kappa_wide.sql.j2; agreement_sql/metrics/_kappa.py)
    ("fleiss_kappa", "one-pass-ci", {"ci": True, "rater_bits": "rater_bits",
                                     "bit_columns": ["bit_0", "bit_1"],
                                     "wide_categories": ["n_0", "n_1", "n_2"]}),
    ("gwet_ac1", "one-pass-declared-by-slice", {"domain": "value_domain", "domain_numeric": False,
                                                "rater_bits": "rater_bits", "bit_columns": ["bit_0"],
                                                "wide_categories": ["n_0", "n_1", "n_2"],
                                                "metric": "question", "group_by": ["Module"]}),
    ("brennan_prediger", "one-pass-labels-unfused", {"by_label": True, "wide_by_label": True,
                                                     "wide_categories": ["n_0", "n_1"], "ci": True}),
    ("percent_agreement", "one-pass", {"rater_bits": "rater_bits", "bit_columns": ["bit_0"],
                                       "wide_categories": ["n_0", "n_1"]}),
    ("coefficients", "one-pass-default", {"rater_bits": "rater_bits", "bit_columns": ["bit_0"],
                                          "wide_categories": ["n_0", "n_1", "n_2"],
                                          "pair_max_raters": True, "ci": True}),
    ("coefficients", "one-pass-ordinal-unfused", {"level": "ordinal",
                                                  "which": ["fleiss_kappa", "conger_kappa",
                                                            "krippendorff_alpha"],
                                                  "wide_categories": ["n_0", "n_1", "n_2"]}),
    ("coefficients", "one-pass-kappas-spark", {"dialect": "spark", "rater_bits": "rater_bits",
                                               "bit_columns": ["bit_0"],
                                               "which": ["fleiss_kappa", "gwet_ac1", "cohen_kappa"],
                                               "wide_categories": ["n_0", "n_1"], "ci": True,
                                               "pair_max_raters": True}),
    # the kappa family's bootstrap (sql/_replicates.sql.j2, _bootstrap.sql.j2)
    ("cohen_kappa", "bootstrap", {"bootstrap": True}),
    ("fleiss_kappa", "bootstrap-quadratic-by-slice", {"bootstrap": True, "weights": "quadratic",
                                                      "group_by": ["Module"]}),
    ("coefficients", "bootstrap-by-slice", {"bootstrap": True, "metric": "question",
                                            "group_by": ["Module"]}),
    ("coefficients", "bootstrap-light-cap", {"bootstrap": True, "pair_max_raters": True,
                                             "which": ["cohen_kappa", "scott_pi"]}),
    ("coefficients", "bootstrap-spark-ordinal", {"dialect": "spark", "bootstrap": True,
                                                 "level": "ordinal", "weights": "linear"}),
]


def _cases():
    for name in available_templates():
        yield name, "", {}
    for name, variant, options in VARIANTS:
        yield name, variant, options


@pytest.mark.parametrize("name,variant,options", list(_cases()),
                         ids=[f"{n}{'--' + v if v else ''}" for n, v, _ in _cases()])
def test_template_matches_golden(name, variant, options):
    options = dict(options)
    dialect = options.pop("dialect", "duckdb")
    sql = render(name, dialect=dialect, **options)
    path = GOLDEN / f"{name}{'--' + variant if variant else ''}.sql"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(sql, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with UPDATE_GOLDEN=1"
    assert sql == path.read_text(encoding="utf-8"), f"{path.name} changed; review the diff and refresh"


def test_every_golden_file_has_a_template():
    names = {f"{n}{'--' + v if v else ''}.sql" for n, v, _ in _cases()}
    stale = sorted(p.name for p in GOLDEN.glob("*.sql") if p.name not in names)
    assert not stale, f"golden files without a template: {stale}"
