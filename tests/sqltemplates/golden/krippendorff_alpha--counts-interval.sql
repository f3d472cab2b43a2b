-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- parameters: set on the lines below (DuckDB variables, read with getvariable())
SET VARIABLE default_metric = 'value';
CREATE OR REPLACE TEMP MACRO agreement_fsum(t) AS CAST(SUM(CASE WHEN ABS(t) < 1e18 THEN CAST(ROUND(t * 1073741824.0) AS HUGEINT) WHEN t IS NOT NULL THEN 0 END) AS DOUBLE) / 1073741824.0 + FSUM(CASE WHEN ABS(t) < 1e18 THEN t - ROUND(t * 1073741824.0) / 1073741824.0 ELSE t END);
CREATE OR REPLACE TEMP MACRO agreement_isnan(x) AS (NOT ISFINITE(x) AND NOT ISINF(x));
-- coefficients: agreement coefficients per metric (and slice), any number of them in one
--   statement over one per-unit aggregation of the ratings (docs/decisions/0003, 0006).
-- Source: each coefficient's partial, named by the registry (agreement_sql/registry.py):
--   sql/_fleiss, _gwet_ac1, _brennan_prediger, _percent_agreement (through sql/_kappa.sql.j2),
--   _alpha, _cohen, _scott, _conger .sql.j2; their inputs from sql/_kappa_inputs.sql.j2,
--   sql/_alpha_sums.sql.j2 and sql/_pairs.sql.j2, whichever form (wide or counts) the plan chose.
--   With option oriented (asymmetric_weights "oriented") the rater-free coefficients read their
--   inputs from the pair tables of the metric's two raters (sql/_kappa_pair_inputs.sql.j2).
--   With option rater_patterns (the plan's, for the pair coefficients and Conger's kappa) the
--   pair inputs come from sql/_pair_patterns.sql.j2 and Conger's per-rater counts from
--   pattern_ratings (sql/_rater_patterns.sql.j2): the same per-unit pass, the ratings read once.
-- Reads: the ratings relation; option `which` lists the coefficients, `partials` their
--   partials, `families` their families (kappa, alpha, pair, conger) and `reports` the fields
--   each reports beyond its family's (n_pairs, null_test: agreement_sql/registry.py), in the
--   same order: one row contract, shaped by family and declared fields, never by name.
-- Returns: one row per metric (and slice) and coefficient, in `which` order: the coefficient
--   contract (name, coefficient, value, observed/chance agreement, observed/expected
--   disagreement, n_items, n_values, n_categories, variance, null_variance, n_se, se, ci_low,
--   ci_high, n_boot_valid, pair columns, and the test se0, z, abs_z, p_one_sided, p_value) and
--   the unit counts the caller checks and reports.
--   With option ci the analytic se = sqrt(variance) and value -/+ $z se; with option bootstrap
--   every coefficient's percentile interval over the same replicates (sql/_bootstrap.sql.j2).
--   With ci or bootstrap, every coefficient that reports null_test (its partial gives
--   null_variance, the variance under H0: no agreement beyond chance, and n_se, the units its
--   variance is over) gets its test, in one place for all (coefficient_tests): option
--   inference "normal" (the default) se0 = sqrt(null_variance), z = value / se0,
--   p_one_sided = 1 - Phi(z), p_value = 2 (1 - Phi(|z|)) (sql/_normal.sql.j2); "irrcac" (irrCAC's
--   convention) se0 = se, the same z, and Student's t on n_se - 1 degrees of freedom
--   (sql/_student_t.sql.j2) for both p-values, the interval's ends left NULL for the caller to
--   take value -/+ t quantile x se (agreement_sql.distributions: DuckDB has no t quantile).
--   With option icc_from_patterns (numeric ratings, rater patterns, rater_digits = the raters)
--   every row also carries its metric's (and slice's) intraclass correlation, the row of form
--   $icc_form (ICC2) of sql/_icc.sql.j2 computed from the same rater patterns (pattern_ratings),
--   as columns icc_<column> (icc_form, icc_value, icc_f, icc_df1, icc_df2, icc_ci_df2, the
--   counts icc_n_items .. icc_n_merged, and the mean squares icc_ms_rows .. icc_ms_error): the
--   ICC without a second statement over the ratings (agreement_sql/metrics/icc.py reads them).
-- Undefined: each coefficient's own rule (NULL when no unit is rated twice).
WITH
ratings_read AS NOT MATERIALIZED (
  SELECT getvariable('default_metric') AS metric,
             (NULLIF(CASE WHEN STRLEN((CAST(src."item" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."item" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."item" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS item,
    (NULLIF(CASE WHEN STRLEN((CAST(src."rater" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."rater" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."rater" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS rater,

         src."item" AS item_src,
             (CASE WHEN STRLEN(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) NOT IN (4, 5) THEN TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'true' THEN 'true' WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'false' THEN 'false' ELSE TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) END COLLATE "binary") AS t,
    CASE WHEN NOT POSITION('_' IN (CAST(src."value" AS VARCHAR) COLLATE "binary")) = 0 THEN NULL
     WHEN ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) >= 9007199254740992.0
          AND ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) <= 1.7976931348623157e+308
          AND TRANSLATE(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")), '0123456789', '') IN ('', '-', '+') THEN NULL
     ELSE TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE) END AS x_raw,
    CASE WHEN src."value" IS NULL THEN 1 ELSE 0 END AS is_null
  FROM "ratings" AS src
),
ratings_states AS NOT MATERIALIZED (
  SELECT metric, item, rater,
         CASE WHEN is_null = 1 OR t = '' OR agreement_isnan(x_raw) THEN 1
              ELSE 0 END AS state,
         x_raw, t, item_src
  FROM ratings_read
),
ratings_in AS NOT MATERIALIZED (
  -- x and label only for a rating (state 0): a missing value or a placeholder is neither
  SELECT metric, item, rater, state, item_src,
         CASE WHEN state = 0 THEN x_raw + 0.0 END AS x,
         CASE WHEN state = 0 AND x_raw IS NULL THEN t END AS label
  FROM ratings_states
),
ratings AS NOT MATERIALIZED (
  SELECT metric, item, rater, x, label, 1 AS n_rows
  FROM ratings_in
  WHERE CASE
    WHEN (item_src IS NULL OR CAST(item_src AS VARCHAR) = '') OR rater IS NULL OR getvariable('default_metric') IS NULL
    THEN error(CONCAT('agreement-sql: MissingKeyError: a key (item, rater, metric or slice) is empty (NULL)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND ABS(x) >= 9007199254740992.0
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', CAST(x AS VARCHAR), ' is not a usable number (infinite, or 2^53 or more in magnitude)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND label IS NOT NULL
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', label, ' is not a number, which this statement needs', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    ELSE state = 0 END
)
,
rater_codes AS (
  SELECT rater, code,
         CAST(FLOOR(code / 62) AS BIGINT) AS block,
         CAST(POWER(2, code % 62) AS BIGINT) AS bit
  FROM (
    SELECT rater, ROW_NUMBER() OVER (ORDER BY rater) - 1 AS code
    FROM (SELECT DISTINCT rater FROM ratings) AS d
  ) AS numbered
  -- the duplicate check counts the rater bits of rater_blocks blocks: a rater beyond them
  -- would look like a repeated rating
  WHERE CASE WHEN code >= 62
             THEN error(CONCAT('agreement-sql: OptionError: more than ', CAST(62 AS VARCHAR), ' raters (rater ', rater, ' is number ', CAST(code + 1 AS VARCHAR), '): render with more rater_blocks'))
             ELSE TRUE END
)
,
counts AS (
  -- n_uc: how many raters gave category c (x or label) to unit u
  SELECT r.metric, r.item AS item, r.x, r.label,
                  BIT_OR(CASE WHEN c.block = 0 THEN c.bit ELSE 0 END) AS or_0,

COUNT(*) AS n_rows_uc,
         COUNT(*) AS n_uc
  FROM ratings AS r
    LEFT JOIN rater_codes AS c ON c.rater = r.rater

  GROUP BY r.metric, r.item, r.x, r.label
),
unit_sums AS (
  SELECT c.metric, c.item AS item,
BIT_OR(or_0) AS or_0, 
         SUM(n_uc) AS m_u,
         SUM(n_rows_uc) AS n_rows_u,         agreement_fsum(n_uc * x) AS s1_u,
         agreement_fsum(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(x) AS lone_x,
         MIN(label) AS lone_label,
         COUNT(*) AS n_values_u
  FROM counts AS c
  GROUP BY c.metric, c.item
),
units AS (
  SELECT u.*, CASE WHEN m_u > CAST(BIT_COUNT(or_0) AS BIGINT) + 0 THEN CASE WHEN error(CONCAT('agreement-sql: DuplicateRatingError: a rater rated (item=', COALESCE(CAST(item AS VARCHAR), 'NULL'), ', metric=', COALESCE(metric, 'NULL'), ') more than once; keep one rating per (item, rater) or pass on_duplicate= to the Python API')) THEN 1 END ELSE 0 END AS dup_u
  FROM unit_sums AS u
),

unit_counts AS (
  SELECT u.metric, COUNT(*) AS n_units, SUM(u.m_u) AS n_ratings,
         SUM(CASE WHEN u.m_u = 1 THEN 1 ELSE 0 END) AS n_single,
         SUM(u.n_rows_u - u.m_u) AS n_merged,
         SUM(u.dup_u) AS n_duplicate_units,
         CAST(BIT_COUNT(BIT_OR(u.or_0)) AS BIGINT) + 0 AS n_raters
  FROM units AS u
  
  GROUP BY u.metric
)
,
alpha_marginals AS (
  -- n_c over pairable units = the counts' total less the lone values of units rated once
  SELECT metric, x, label, SUM(n) AS n_c
  FROM (
    SELECT metric, x, label, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, lone_x, lone_label, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, x, label
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  SELECT metric, COUNT(*) AS n_units,
         agreement_fsum(2.0 * (m_u * s2_u - s1_u * s1_u) / NULLIF(m_u - 1, 0)) AS do_sum
  FROM units
  WHERE m_u >= 2
  GROUP BY metric
),
alpha_totals AS (
  SELECT metric, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, agreement_fsum(n_c * x) AS s1, agreement_fsum(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric
),
alpha_sums AS (
  SELECT t.metric, p.n_units,
         p.do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values, t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
)
,
krippendorff_alpha_value AS (
  SELECT k.metric,
         'krippendorff_alpha' AS coefficient,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM unit_counts AS k
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric
),
krippendorff_alpha AS (
  SELECT v.*,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM krippendorff_alpha_value AS v
)
,
coefficient_rows AS (
  SELECT c.metric, 0 AS position, 'krippendorff_alpha' AS name,
         c.coefficient, c.value,
         CAST(NULL AS DOUBLE) AS observed_agreement, CAST(NULL AS DOUBLE) AS chance_agreement,
         c.observed_disagreement, c.expected_disagreement, c.n_items, c.n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM krippendorff_alpha AS c
),
coefficient_tests AS (
  -- no interval asked for: no test
  SELECT r.*, CAST(NULL AS DOUBLE) AS se0, CAST(NULL AS DOUBLE) AS z,
         CAST(NULL AS DOUBLE) AS abs_z, CAST(NULL AS DOUBLE) AS p_one_sided,
         CAST(NULL AS DOUBLE) AS p_value
  FROM coefficient_rows AS r
)
SELECT r.*, u.n_units, u.n_ratings, u.n_single, u.n_merged, u.n_duplicate_units,
       u.n_raters AS key_raters
FROM unit_counts AS u
LEFT JOIN coefficient_tests AS r ON r.metric = u.metric
ORDER BY u.metric, r.position;
