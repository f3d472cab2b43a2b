-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- parameters: set on the lines below (DuckDB variables, read with getvariable())
SET VARIABLE n_boot = 1000;
SET VARIABLE seed = 1;
SET VARIABLE ci_low_p = 0.025;
SET VARIABLE ci_high_p = 0.975;
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
  SELECT (NULLIF(CASE WHEN STRLEN((CAST(src."question" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."question" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."question" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS metric,
             (NULLIF(CASE WHEN STRLEN((CAST(src."Module" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."Module" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."Module" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."Module" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."Module" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS slice_0,
    (NULLIF(CASE WHEN STRLEN((CAST(src."item" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."item" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."item" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS item,
    (NULLIF(CASE WHEN STRLEN((CAST(src."rater" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."rater" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."rater" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS rater,

         src."item" AS item_src, src."question" AS metric_src,
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
  SELECT metric, slice_0, item, rater,
         CASE WHEN is_null = 1 OR t = '' OR agreement_isnan(x_raw) THEN 1
              ELSE 0 END AS state,
         x_raw, t, item_src, metric_src
  FROM ratings_read
),
ratings_in AS NOT MATERIALIZED (
  -- x and label only for a rating (state 0): a missing value or a placeholder is neither
  SELECT metric, slice_0, item, rater, state, item_src, metric_src,
         CASE WHEN state = 0 THEN x_raw + 0.0 END AS x,
         CASE WHEN state = 0 AND x_raw IS NULL THEN t END AS label
  FROM ratings_states
),
ratings_base AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater, x, label, 1 AS n_rows
  FROM ratings_in
  WHERE CASE
    WHEN (item_src IS NULL OR CAST(item_src AS VARCHAR) = '') OR rater IS NULL OR (metric_src IS NULL OR CAST(metric_src AS VARCHAR) = '') OR slice_0 IS NULL
    THEN error(CONCAT('agreement-sql: MissingKeyError: a key (item, rater, metric or slice) is empty (NULL)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', slice_0=', COALESCE(CAST(slice_0 AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND ABS(x) >= 9007199254740992.0
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', CAST(x AS VARCHAR), ' is not a usable number (infinite, or 2^53 or more in magnitude)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', slice_0=', COALESCE(CAST(slice_0 AS VARCHAR), 'NULL'), ')'))
    ELSE state = 0 END
)
,
boot_units AS (
  -- the resampling units: every item of a metric (and slice), numbered 1..N in item order
  SELECT metric, slice_0, item,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0 ORDER BY item) AS unit_no,
         COUNT(*) OVER (PARTITION BY metric, slice_0) AS n_units
  FROM (
    SELECT metric, slice_0, item FROM ratings_base
    GROUP BY metric, slice_0, item
  ) AS u
),
boot_digits AS (
  SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
  UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9
),
boot_replicates AS (
  -- b = 1..$n_boot from five decimal digits
  SELECT r.replicate
  FROM (
    SELECT 1 + d0.d + 10 * d1.d + 100 * d2.d + 1000 * d3.d + 10000 * d4.d AS replicate
    FROM boot_digits AS d0
    CROSS JOIN boot_digits AS d1
    CROSS JOIN boot_digits AS d2
    CROSS JOIN boot_digits AS d3
    CROSS JOIN boot_digits AS d4
  ) AS r
  WHERE r.replicate <= getvariable('n_boot')
),
boot_minstd AS (
  -- x0 = the seeded state; tI = 2^I; pI = 48271^(2^I) mod (2^31 - 1)
  SELECT CASE WHEN (CAST(getvariable('seed') AS BIGINT)) % 2147483647 = 0 THEN CAST(1 AS BIGINT)
              ELSE (CAST(getvariable('seed') AS BIGINT)) % 2147483647 END AS x0,
         CAST(1 AS BIGINT) AS t0, CAST(48271 AS BIGINT) AS p0,
         CAST(2 AS BIGINT) AS t1, CAST(182605794 AS BIGINT) AS p1,
         CAST(4 AS BIGINT) AS t2, CAST(1914720637 AS BIGINT) AS p2,
         CAST(8 AS BIGINT) AS t3, CAST(854716505 AS BIGINT) AS p3,
         CAST(16 AS BIGINT) AS t4, CAST(1098894339 AS BIGINT) AS p4,
         CAST(32 AS BIGINT) AS t5, CAST(890442452 AS BIGINT) AS p5,
         CAST(64 AS BIGINT) AS t6, CAST(719080959 AS BIGINT) AS p6,
         CAST(128 AS BIGINT) AS t7, CAST(1617261148 AS BIGINT) AS p7,
         CAST(256 AS BIGINT) AS t8, CAST(944147713 AS BIGINT) AS p8,
         CAST(512 AS BIGINT) AS t9, CAST(1928592452 AS BIGINT) AS p9,
         CAST(1024 AS BIGINT) AS t10, CAST(1491754107 AS BIGINT) AS p10,
         CAST(2048 AS BIGINT) AS t11, CAST(560989 AS BIGINT) AS p11,
         CAST(4096 AS BIGINT) AS t12, CAST(1176045659 AS BIGINT) AS p12,
         CAST(8192 AS BIGINT) AS t13, CAST(208615010 AS BIGINT) AS p13,
         CAST(16384 AS BIGINT) AS t14, CAST(1706997846 AS BIGINT) AS p14,
         CAST(32768 AS BIGINT) AS t15, CAST(1363399672 AS BIGINT) AS p15,
         CAST(65536 AS BIGINT) AS t16, CAST(1189788791 AS BIGINT) AS p16,
         CAST(131072 AS BIGINT) AS t17, CAST(1335192557 AS BIGINT) AS p17,
         CAST(262144 AS BIGINT) AS t18, CAST(1188894991 AS BIGINT) AS p18,
         CAST(524288 AS BIGINT) AS t19, CAST(563429426 AS BIGINT) AS p19,
         CAST(1048576 AS BIGINT) AS t20, CAST(924626149 AS BIGINT) AS p20,
         CAST(2097152 AS BIGINT) AS t21, CAST(1150758874 AS BIGINT) AS p21,
         CAST(4194304 AS BIGINT) AS t22, CAST(1893669646 AS BIGINT) AS p22,
         CAST(8388608 AS BIGINT) AS t23, CAST(1221060861 AS BIGINT) AS p23,
         CAST(16777216 AS BIGINT) AS t24, CAST(113485918 AS BIGINT) AS p24,
         CAST(33554432 AS BIGINT) AS t25, CAST(1447757152 AS BIGINT) AS p25,
         CAST(67108864 AS BIGINT) AS t26, CAST(1619648305 AS BIGINT) AS p26,
         CAST(134217728 AS BIGINT) AS t27, CAST(769116844 AS BIGINT) AS p27,
         CAST(268435456 AS BIGINT) AS t28, CAST(365365725 AS BIGINT) AS p28,
         CAST(536870912 AS BIGINT) AS t29, CAST(464244102 AS BIGINT) AS p29,
         CAST(1073741824 AS BIGINT) AS t30, CAST(2147435376 AS BIGINT) AS p30,
         CAST(2147483648 AS BIGINT) AS t31
),
boot_block_offsets AS (
  -- replicate b starts after output (b - 1) N of the stream
  SELECT s.metric, s.slice_0, r.replicate, s.n_units,
         (CAST(r.replicate - 1 AS BIGINT) * s.n_units) % 2147483646 AS e
  FROM (
    SELECT metric, slice_0, MIN(n_units) AS n_units FROM boot_units
    GROUP BY metric, slice_0
  ) AS s
  CROSS JOIN boot_replicates AS r
),
boot_blocks AS (
  -- x_((b - 1) N) = x_0 48271^((b - 1) N) mod (2^31 - 1)
  SELECT o.metric, o.slice_0, o.replicate, o.n_units,
         (w.x0 * (((((((((((((((((((((((((((((((CAST(1 AS BIGINT)
           * CASE WHEN o.e % w.t1 >= w.t0 THEN w.p0 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t2 >= w.t1 THEN w.p1 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t3 >= w.t2 THEN w.p2 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t4 >= w.t3 THEN w.p3 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t5 >= w.t4 THEN w.p4 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t6 >= w.t5 THEN w.p5 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t7 >= w.t6 THEN w.p6 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t8 >= w.t7 THEN w.p7 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t9 >= w.t8 THEN w.p8 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t10 >= w.t9 THEN w.p9 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t11 >= w.t10 THEN w.p10 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t12 >= w.t11 THEN w.p11 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t13 >= w.t12 THEN w.p12 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t14 >= w.t13 THEN w.p13 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t15 >= w.t14 THEN w.p14 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t16 >= w.t15 THEN w.p15 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t17 >= w.t16 THEN w.p16 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t18 >= w.t17 THEN w.p17 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t19 >= w.t18 THEN w.p18 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t20 >= w.t19 THEN w.p19 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t21 >= w.t20 THEN w.p20 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t22 >= w.t21 THEN w.p21 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t23 >= w.t22 THEN w.p22 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t24 >= w.t23 THEN w.p23 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t25 >= w.t24 THEN w.p24 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t26 >= w.t25 THEN w.p25 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t27 >= w.t26 THEN w.p26 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t28 >= w.t27 THEN w.p27 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t29 >= w.t28 THEN w.p28 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t30 >= w.t29 THEN w.p29 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t31 >= w.t30 THEN w.p30 ELSE 1 END) % 2147483647
) % 2147483647 AS state
  FROM boot_block_offsets AS o
  CROSS JOIN boot_minstd AS w
),
boot_steps AS (
  -- 48271^j mod (2^31 - 1) for draw j = 1..N (the draws reuse the unit numbers as counters)
  SELECT u.metric, u.slice_0, u.unit_no AS draw_no,
         (((((((((((((((((((((((((((((((CAST(1 AS BIGINT)
           * CASE WHEN u.unit_no % w.t1 >= w.t0 THEN w.p0 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t2 >= w.t1 THEN w.p1 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t3 >= w.t2 THEN w.p2 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t4 >= w.t3 THEN w.p3 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t5 >= w.t4 THEN w.p4 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t6 >= w.t5 THEN w.p5 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t7 >= w.t6 THEN w.p6 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t8 >= w.t7 THEN w.p7 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t9 >= w.t8 THEN w.p8 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t10 >= w.t9 THEN w.p9 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t11 >= w.t10 THEN w.p10 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t12 >= w.t11 THEN w.p11 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t13 >= w.t12 THEN w.p12 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t14 >= w.t13 THEN w.p13 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t15 >= w.t14 THEN w.p14 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t16 >= w.t15 THEN w.p15 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t17 >= w.t16 THEN w.p16 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t18 >= w.t17 THEN w.p17 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t19 >= w.t18 THEN w.p18 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t20 >= w.t19 THEN w.p19 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t21 >= w.t20 THEN w.p20 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t22 >= w.t21 THEN w.p21 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t23 >= w.t22 THEN w.p22 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t24 >= w.t23 THEN w.p23 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t25 >= w.t24 THEN w.p24 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t26 >= w.t25 THEN w.p25 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t27 >= w.t26 THEN w.p26 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t28 >= w.t27 THEN w.p27 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t29 >= w.t28 THEN w.p28 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t30 >= w.t29 THEN w.p29 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t31 >= w.t30 THEN w.p30 ELSE 1 END) % 2147483647
 AS a_j
  FROM boot_units AS u
  CROSS JOIN boot_minstd AS w
),
boot_draws AS (
  -- draw j of replicate b: x_((b - 1) N + j) = x_((b - 1) N) 48271^j; it picks unit 1 + x mod N
  SELECT b.metric, b.slice_0, b.replicate, j.draw_no,
         1 + ((b.state * j.a_j) % 2147483647) % b.n_units AS unit_no
  FROM boot_blocks AS b
  JOIN boot_steps AS j ON b.metric = j.metric AND b.slice_0 = j.slice_0
),
ratings_observed AS (
  -- the observed ratings, for what is counted once rather than per replicate
  SELECT metric, slice_0, item, rater, x, label, n_rows FROM ratings_base
),
ratings AS (
  -- replicate 0: the observed ratings; replicate b: each draw's ratings under the draw's number
  SELECT metric, slice_0, 0 AS replicate, CAST(item AS VARCHAR) AS item, rater, x, label, n_rows
  FROM ratings_base
  UNION ALL
  SELECT d.metric, d.slice_0, d.replicate, CAST(d.draw_no AS VARCHAR) AS item,         r.rater, r.x, r.label, r.n_rows
  FROM boot_draws AS d
  JOIN boot_units AS u ON d.metric = u.metric AND d.slice_0 = u.slice_0 AND u.unit_no = d.unit_no
  JOIN ratings_base AS r ON u.metric = r.metric AND u.slice_0 = r.slice_0 AND r.item = u.item
)
,
rater_codes AS (
  SELECT rater, code,
         CAST(FLOOR(code / 62) AS BIGINT) AS block,
         CAST(POWER(2, code % 62) AS BIGINT) AS bit
  FROM (
    SELECT rater, ROW_NUMBER() OVER (ORDER BY rater) - 1 AS code
    FROM (SELECT DISTINCT rater FROM ratings_observed) AS d
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
  SELECT r.metric, r.slice_0, r.replicate, r.item AS item, r.x, r.label,
                  BIT_OR(CASE WHEN c.block = 0 THEN c.bit ELSE 0 END) AS or_0,

COUNT(*) AS n_rows_uc,
         COUNT(*) AS n_uc
  FROM ratings AS r
    LEFT JOIN rater_codes AS c ON c.rater = r.rater

  GROUP BY r.metric, r.slice_0, r.replicate, r.item, r.x, r.label
),
unit_sums AS (
  SELECT c.metric, c.slice_0, c.replicate, c.item AS item,
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
  GROUP BY c.metric, c.slice_0, c.replicate, c.item
),
units AS (
  SELECT u.*, CASE WHEN m_u > CAST(BIT_COUNT(or_0) AS BIGINT) + 0 THEN CASE WHEN error(CONCAT('agreement-sql: DuplicateRatingError: a rater rated (item=', COALESCE(CAST(item AS VARCHAR), 'NULL'), ', metric=', COALESCE(metric, 'NULL'), ') more than once; keep one rating per (item, rater) or pass on_duplicate= to the Python API')) THEN 1 END ELSE 0 END AS dup_u
  FROM unit_sums AS u
),

unit_counts AS (
  SELECT u.metric, u.slice_0, u.replicate, COUNT(*) AS n_units, SUM(u.m_u) AS n_ratings,
         SUM(CASE WHEN u.m_u = 1 THEN 1 ELSE 0 END) AS n_single,
         SUM(u.n_rows_u - u.m_u) AS n_merged,
         SUM(u.dup_u) AS n_duplicate_units,
         CAST(BIT_COUNT(BIT_OR(u.or_0)) AS BIGINT) + 0 AS n_raters
  FROM units AS u
  
  GROUP BY u.metric, u.slice_0, u.replicate
)
,
kappa_used AS (
  -- the categories each metric used
  SELECT DISTINCT metric, slice_0, replicate, CAST(NULL AS BIGINT) AS g, x, label
  FROM counts
),
kappa_domain AS (
  SELECT metric, slice_0, replicate, x, label,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0, replicate
                            ORDER BY CASE WHEN label IS NULL THEN 0 ELSE 1 END, x, label) - 1 AS position
  FROM kappa_used
),
kappa_positions AS (
  -- each used category's position in its metric's domain
  SELECT u.metric, u.slice_0, u.replicate, u.g, u.x, u.label, d.position
  FROM kappa_used AS u
  JOIN kappa_domain AS d ON u.metric = d.metric AND u.slice_0 = d.slice_0 AND u.replicate = d.replicate AND COALESCE(u.x, CAST('NaN' AS DOUBLE)) = COALESCE(d.x, CAST('NaN' AS DOUBLE)) AND COALESCE(u.label, '') = COALESCE(d.label, '')
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of the category scores
  SELECT d.metric, d.slice_0, d.replicate, COUNT(*) AS q,
         MAX(d.x) - MIN(d.x) AS span
  FROM kappa_domain AS d
  GROUP BY d.metric, d.slice_0, d.replicate
),
kappa_weights AS (
  -- w_kl for every pair of domain positions
  SELECT a.metric, a.slice_0, a.replicate, a.position AS pos_k, b.position AS pos_l,
         CASE WHEN a.position = b.position THEN 1.0 ELSE 0.0 END
 AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate
  JOIN kappa_span AS s ON a.metric = s.metric AND a.slice_0 = s.slice_0 AND a.replicate = s.replicate
),
kappa_counts AS (
  -- r_ik with the category's position
  SELECT c.metric, c.slice_0, c.replicate, c.item, p.position, c.n_uc
  FROM counts AS c
  JOIN kappa_positions AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND c.replicate = p.replicate AND COALESCE(c.x, CAST('NaN' AS DOUBLE)) = COALESCE(p.x, CAST('NaN' AS DOUBLE)) AND COALESCE(c.label, '') = COALESCE(p.label, '')
),
kappa_units AS (
  -- per unit: r_i and pa_i
  SELECT metric, slice_0, replicate, item AS unit, 1 AS w_u, m_u AS r_i,
         CASE WHEN m_u >= 2
              THEN CAST(q_u - m_u AS DOUBLE) / NULLIF(CAST(m_u AS DOUBLE) * (m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units
),
kappa_shares_used AS (
  -- sum_i r_ik / r_i per used category
  SELECT c.metric, c.slice_0, c.replicate, c.position, agreement_fsum(CAST(c.n_uc AS DOUBLE) / NULLIF(u.m_u, 0)) AS share_sum
  FROM kappa_counts AS c
  JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND c.replicate = u.replicate AND u.item = c.item
  GROUP BY c.metric, c.slice_0, c.replicate, c.position
),
kappa_totals AS (
  -- n units rated at least once, n2 rated twice or more, p_a = sum_i pa_i / n2
  SELECT metric, slice_0, replicate,
         SUM(w_u) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS n_items,
         agreement_fsum(w_u * pa_i) / NULLIF(CAST(SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS DOUBLE), 0.0) AS p_a
  FROM kappa_units
  GROUP BY metric, slice_0, replicate
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.slice_0, d.replicate, d.position, COALESCE(s.share_sum / NULLIF(t.n_rated, 0), 0.0) AS pi_k
  FROM kappa_domain AS d
  JOIN kappa_totals AS t ON d.metric = t.metric AND d.slice_0 = t.slice_0 AND d.replicate = t.replicate
  LEFT JOIN kappa_shares_used AS s ON d.metric = s.metric AND d.slice_0 = s.slice_0 AND d.replicate = s.replicate AND s.position = d.position
),
kappa_summary AS (
  SELECT t.metric, t.slice_0, t.replicate, t.n_rated, t.n_items, t.p_a, s.q, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN kappa_span AS s ON t.metric = s.metric AND t.slice_0 = s.slice_0 AND t.replicate = s.replicate
  JOIN (SELECT metric, slice_0, replicate, COUNT(*) AS n_used FROM kappa_used GROUP BY metric, slice_0, replicate) AS u
    ON t.metric = u.metric AND t.slice_0 = u.slice_0 AND t.replicate = u.replicate
  JOIN (SELECT metric, slice_0, replicate, agreement_fsum(w) AS t_w FROM kappa_weights GROUP BY metric, slice_0, replicate) AS w
    ON t.metric = w.metric AND t.slice_0 = w.slice_0 AND t.replicate = w.replicate
)
,
fleiss_kappa_row_sums AS (
  -- wx_k = sum_l w_kl x_l over the table of weights
  SELECT w.metric, w.slice_0, w.replicate, w.pos_k AS position,
         agreement_fsum(w.w * s.pi_k) AS wx
  FROM kappa_weights AS w
  JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND w.replicate = s.replicate AND s.position = w.pos_l
  GROUP BY w.metric, w.slice_0, w.replicate, w.pos_k
),
fleiss_kappa_column_sums AS (
  -- wx_k = sum_l w_lk x_l over the table of weights
  SELECT w.metric, w.slice_0, w.replicate, w.pos_l AS position,
         agreement_fsum(w.w * s.pi_k) AS wx
  FROM kappa_weights AS w
  JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND w.replicate = s.replicate AND s.position = w.pos_k
  GROUP BY w.metric, w.slice_0, w.replicate, w.pos_l
),
fleiss_kappa_item_weights AS (
  -- c_k = pibar_k = (sum_l w_kl pi_l + sum_l w_lk pi_l) / 2
  SELECT a.metric, a.slice_0, a.replicate, a.position, (a.wx + b.wx) / 2.0 AS c_k
  FROM fleiss_kappa_row_sums AS a
  JOIN fleiss_kappa_column_sums AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate AND b.position = a.position
),
fleiss_kappa_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l = sum_k pi_k pibar_k
  SELECT s.metric, s.slice_0, s.replicate, agreement_fsum(s.pi_k * c.c_k) AS p_e
  FROM kappa_shares AS s
  JOIN fleiss_kappa_item_weights AS c ON s.metric = c.metric AND s.slice_0 = c.slice_0 AND s.replicate = c.replicate AND c.position = s.position
  GROUP BY s.metric, s.slice_0, s.replicate
),
fleiss_kappa_null AS (
  -- var0 = 2 [(sum p q)^2 - sum p q (q - p)] / ((sum p q)^2 n m (m - 1)), one m for every unit
  SELECT s.metric, s.slice_0, s.replicate,
         CASE WHEN MIN(u.m_min) = MIN(u.m_max) AND MIN(u.m_min) >= 2
              THEN 2.0 * (POWER(agreement_fsum(s.pi_k * (1.0 - s.pi_k)), 2)
                          - agreement_fsum(s.pi_k * (1.0 - s.pi_k) * (1.0 - 2.0 * s.pi_k)))
                   / NULLIF(POWER(agreement_fsum(s.pi_k * (1.0 - s.pi_k)), 2)
                            * MIN(u.n) * MIN(u.m_min) * (MIN(u.m_min) - 1.0), 0.0)
         END AS null_variance
  FROM kappa_shares AS s
  JOIN (
    SELECT metric, slice_0, replicate, MIN(r_i) AS m_min, MAX(r_i) AS m_max, SUM(w_u) AS n
    FROM kappa_units
    GROUP BY metric, slice_0, replicate
  ) AS u ON s.metric = u.metric AND s.slice_0 = u.slice_0 AND s.replicate = u.replicate
  GROUP BY s.metric, s.slice_0, s.replicate
),
fleiss_kappa_value AS (
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN fleiss_kappa_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
fleiss_kappa_item_pe AS (
  -- pe_i = sum_k r_ik c_k / r_i
  SELECT c.metric, c.slice_0, c.replicate, c.item AS unit, 1 AS w_u, MIN(u.m_u) AS r_i,
         agreement_fsum(c.n_uc * w.c_k) / NULLIF(MIN(u.m_u), 0) AS pe_i
  FROM kappa_counts AS c
  JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND c.replicate = u.replicate AND u.item = c.item
  JOIN fleiss_kappa_item_weights AS w ON c.metric = w.metric AND c.slice_0 = w.slice_0 AND c.replicate = w.replicate AND w.position = c.position
  GROUP BY c.metric, c.slice_0, c.replicate, c.item
),
fleiss_kappa_variance AS (
  -- sum_i (kappa_i - value)^2 over the units (w_u alike units per pattern); a deviation within
  -- 1e-12 of the terms it is the difference of is their rounding, and 0 (m.rounded)
  SELECT u.metric, u.slice_0, u.replicate,
         agreement_fsum(u.w_u * POWER(CASE WHEN ABS((CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
             * (u.pa_i - CASE WHEN u.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
             - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
             - v.value)) <= 1e-12 * (CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
             * (ABS(u.pa_i) + ABS(v.p_e)) / NULLIF(ABS(1.0 - v.p_e), 0.0)
             + 2.0 * ABS(1.0 - v.value) * (ABS(p.pe_i) + ABS(v.p_e)) / NULLIF(ABS(1.0 - v.p_e), 0.0)
             + ABS(v.value)) THEN 0.0 ELSE (CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
             * (u.pa_i - CASE WHEN u.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
             - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
             - v.value) END, 2)) AS ss
  FROM kappa_units AS u
  JOIN kappa_summary AS s ON u.metric = s.metric AND u.slice_0 = s.slice_0 AND u.replicate = s.replicate
  JOIN fleiss_kappa_value AS v ON u.metric = v.metric AND u.slice_0 = v.slice_0 AND u.replicate = v.replicate
  JOIN fleiss_kappa_item_pe AS p ON u.metric = p.metric AND u.slice_0 = p.slice_0 AND u.replicate = p.replicate AND p.unit = u.unit
  WHERE u.replicate = 0    -- the observed data only: the test's variance
  GROUP BY u.metric, u.slice_0, u.replicate
),
fleiss_kappa AS (
  SELECT s.metric, s.slice_0, s.replicate,
         'fleiss_kappa' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         t.ss / NULLIF(CAST(s.n_rated AS DOUBLE) * (s.n_rated - 1), 0.0) AS variance,
o.null_variance AS null_variance,
         s.n_rated AS n_se
  FROM kappa_summary AS s
  JOIN fleiss_kappa_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN fleiss_kappa_variance AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  LEFT JOIN fleiss_kappa_null AS o ON s.metric = o.metric AND s.slice_0 = o.slice_0 AND s.replicate = o.replicate
)
,
fleiss_kappa_boot_means AS (
  SELECT metric, slice_0, agreement_fsum(value) / COUNT(value) AS mean_v, COUNT(*) AS n_valid
  FROM fleiss_kappa
  WHERE replicate > 0 AND value IS NOT NULL
  GROUP BY metric, slice_0
),
fleiss_kappa_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value, b.mean_v, b.n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM fleiss_kappa AS e
  JOIN fleiss_kappa_boot_means AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
fleiss_kappa_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(agreement_fsum((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * getvariable('ci_low_p') - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * getvariable('ci_low_p') - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * getvariable('ci_high_p') - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * getvariable('ci_high_p') - 1e-9) END THEN value END) AS ci_high
  FROM fleiss_kappa_boot_values
  GROUP BY metric, slice_0
),
fleiss_kappa_interval AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM fleiss_kappa AS e
  LEFT JOIN fleiss_kappa_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
coefficient_rows AS (
  SELECT c.metric, c.slice_0, 0 AS position, 'fleiss_kappa' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         c.null_variance, c.n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         c.se, c.ci_low, c.ci_high, c.n_boot_valid
  FROM fleiss_kappa_interval AS c
),
coefficient_z AS (
  -- the test of H0: no agreement beyond chance. se0 = sqrt(null_variance) (inference "normal":
  -- each coefficient's null variance) or sqrt(variance) (inference "irrcac": the estimate's own,
  -- as irrCAC tests); z = value / se0 (NULL when se0 = 0) and |z|
  SELECT r.*,
         SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END) AS se0,
         r.value / NULLIF(SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END), 0.0) AS z,
         ABS(r.value) / NULLIF(SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END), 0.0) AS abs_z
  FROM coefficient_rows AS r
),
coefficient_tests AS (
  -- p_one_sided = 1 - Phi(z) = erfc(y) / 2, p_value = 2 (1 - Phi(|z|)) = erfc(|y|), y = z / sqrt 2
  -- (sql/_normal.sql.j2)
  SELECT y.*, 0.5e0 * CASE WHEN y.y IS NULL THEN NULL
     WHEN y.y >= 0.0e0 THEN (CASE WHEN y.y <= 0.46875e0
      THEN 1.0e0 - y.y * (3.20937758913846947e03 + (y.y * y.y) * (3.77485237685302021e02 + (y.y * y.y) * (1.13864154151050156e02 + (y.y * y.y) * (3.16112374387056560e00 + (y.y * y.y) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + (y.y * y.y) * (1.28261652607737228e03 + (y.y * y.y) * (2.44024637934444173e02 + (y.y * y.y) * (2.36012909523441209e01 + (y.y * y.y) * 1.0e0))))
      WHEN y.y <= 4.0e0
      THEN (EXP(-(FLOOR(y.y * 16.0e0) / 16.0e0) * (FLOOR(y.y * 16.0e0) / 16.0e0)) * EXP(-(y.y - (FLOOR(y.y * 16.0e0) / 16.0e0)) * (y.y + (FLOOR(y.y * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + y.y * (2.05107837782607147e03 + y.y * (1.71204761263407058e03 + y.y * (8.81952221241769090e02 + y.y * (2.98635138197400131e02 + y.y * (6.61191906371416295e01 + y.y * (8.88314979438837594e00 + y.y * (5.64188496988670089e-1 + y.y * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + y.y * (3.43936767414372164e03 + y.y * (4.36261909014324716e03 + y.y * (3.29079923573345963e03 + y.y * (1.62138957456669019e03 + y.y * (5.37181101862009858e02 + y.y * (1.17693950891312499e02 + y.y * (1.57449261107098347e01 + y.y * 1.0e0))))))))
      WHEN y.y < 26.0e0
      THEN (EXP(-(FLOOR(y.y * 16.0e0) / 16.0e0) * (FLOOR(y.y * 16.0e0) / 16.0e0)) * EXP(-(y.y - (FLOOR(y.y * 16.0e0) / 16.0e0)) * (y.y + (FLOOR(y.y * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / (y.y * y.y)) * (6.58749161529837803e-4 + (1.0e0 / (y.y * y.y)) * (1.60837851487422766e-2 + (1.0e0 / (y.y * y.y)) * (1.25781726111229246e-1 + (1.0e0 / (y.y * y.y)) * (3.60344899949804439e-1 + (1.0e0 / (y.y * y.y)) * (3.05326634961232344e-1 + (1.0e0 / (y.y * y.y)) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / (y.y * y.y)) * (6.05183413124413191e-2 + (1.0e0 / (y.y * y.y)) * (5.27905102951428412e-1 + (1.0e0 / (y.y * y.y)) * (1.87295284992346047e00 + (1.0e0 / (y.y * y.y)) * (2.56852019228982242e00 + (1.0e0 / (y.y * y.y)) * 1.0e0)))))) / y.y
      ELSE 0.0e0 END)
     ELSE 2.0e0 - (CASE WHEN (-y.y) <= 0.46875e0
      THEN 1.0e0 - (-y.y) * (3.20937758913846947e03 + ((-y.y) * (-y.y)) * (3.77485237685302021e02 + ((-y.y) * (-y.y)) * (1.13864154151050156e02 + ((-y.y) * (-y.y)) * (3.16112374387056560e00 + ((-y.y) * (-y.y)) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + ((-y.y) * (-y.y)) * (1.28261652607737228e03 + ((-y.y) * (-y.y)) * (2.44024637934444173e02 + ((-y.y) * (-y.y)) * (2.36012909523441209e01 + ((-y.y) * (-y.y)) * 1.0e0))))
      WHEN (-y.y) <= 4.0e0
      THEN (EXP(-(FLOOR((-y.y) * 16.0e0) / 16.0e0) * (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * EXP(-((-y.y) - (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * ((-y.y) + (FLOOR((-y.y) * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + (-y.y) * (2.05107837782607147e03 + (-y.y) * (1.71204761263407058e03 + (-y.y) * (8.81952221241769090e02 + (-y.y) * (2.98635138197400131e02 + (-y.y) * (6.61191906371416295e01 + (-y.y) * (8.88314979438837594e00 + (-y.y) * (5.64188496988670089e-1 + (-y.y) * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + (-y.y) * (3.43936767414372164e03 + (-y.y) * (4.36261909014324716e03 + (-y.y) * (3.29079923573345963e03 + (-y.y) * (1.62138957456669019e03 + (-y.y) * (5.37181101862009858e02 + (-y.y) * (1.17693950891312499e02 + (-y.y) * (1.57449261107098347e01 + (-y.y) * 1.0e0))))))))
      WHEN (-y.y) < 26.0e0
      THEN (EXP(-(FLOOR((-y.y) * 16.0e0) / 16.0e0) * (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * EXP(-((-y.y) - (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * ((-y.y) + (FLOOR((-y.y) * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / ((-y.y) * (-y.y))) * (6.58749161529837803e-4 + (1.0e0 / ((-y.y) * (-y.y))) * (1.60837851487422766e-2 + (1.0e0 / ((-y.y) * (-y.y))) * (1.25781726111229246e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (3.60344899949804439e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (3.05326634961232344e-1 + (1.0e0 / ((-y.y) * (-y.y))) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / ((-y.y) * (-y.y))) * (6.05183413124413191e-2 + (1.0e0 / ((-y.y) * (-y.y))) * (5.27905102951428412e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (1.87295284992346047e00 + (1.0e0 / ((-y.y) * (-y.y))) * (2.56852019228982242e00 + (1.0e0 / ((-y.y) * (-y.y))) * 1.0e0)))))) / (-y.y)
      ELSE 0.0e0 END) END AS p_one_sided, CASE WHEN y.abs_y IS NULL THEN NULL
     WHEN y.abs_y >= 0.0e0 THEN (CASE WHEN y.abs_y <= 0.46875e0
      THEN 1.0e0 - y.abs_y * (3.20937758913846947e03 + (y.abs_y * y.abs_y) * (3.77485237685302021e02 + (y.abs_y * y.abs_y) * (1.13864154151050156e02 + (y.abs_y * y.abs_y) * (3.16112374387056560e00 + (y.abs_y * y.abs_y) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + (y.abs_y * y.abs_y) * (1.28261652607737228e03 + (y.abs_y * y.abs_y) * (2.44024637934444173e02 + (y.abs_y * y.abs_y) * (2.36012909523441209e01 + (y.abs_y * y.abs_y) * 1.0e0))))
      WHEN y.abs_y <= 4.0e0
      THEN (EXP(-(FLOOR(y.abs_y * 16.0e0) / 16.0e0) * (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * EXP(-(y.abs_y - (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * (y.abs_y + (FLOOR(y.abs_y * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + y.abs_y * (2.05107837782607147e03 + y.abs_y * (1.71204761263407058e03 + y.abs_y * (8.81952221241769090e02 + y.abs_y * (2.98635138197400131e02 + y.abs_y * (6.61191906371416295e01 + y.abs_y * (8.88314979438837594e00 + y.abs_y * (5.64188496988670089e-1 + y.abs_y * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + y.abs_y * (3.43936767414372164e03 + y.abs_y * (4.36261909014324716e03 + y.abs_y * (3.29079923573345963e03 + y.abs_y * (1.62138957456669019e03 + y.abs_y * (5.37181101862009858e02 + y.abs_y * (1.17693950891312499e02 + y.abs_y * (1.57449261107098347e01 + y.abs_y * 1.0e0))))))))
      WHEN y.abs_y < 26.0e0
      THEN (EXP(-(FLOOR(y.abs_y * 16.0e0) / 16.0e0) * (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * EXP(-(y.abs_y - (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * (y.abs_y + (FLOOR(y.abs_y * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / (y.abs_y * y.abs_y)) * (6.58749161529837803e-4 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.60837851487422766e-2 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.25781726111229246e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (3.60344899949804439e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (3.05326634961232344e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / (y.abs_y * y.abs_y)) * (6.05183413124413191e-2 + (1.0e0 / (y.abs_y * y.abs_y)) * (5.27905102951428412e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.87295284992346047e00 + (1.0e0 / (y.abs_y * y.abs_y)) * (2.56852019228982242e00 + (1.0e0 / (y.abs_y * y.abs_y)) * 1.0e0)))))) / y.abs_y
      ELSE 0.0e0 END)
     ELSE 2.0e0 - (CASE WHEN (-y.abs_y) <= 0.46875e0
      THEN 1.0e0 - (-y.abs_y) * (3.20937758913846947e03 + ((-y.abs_y) * (-y.abs_y)) * (3.77485237685302021e02 + ((-y.abs_y) * (-y.abs_y)) * (1.13864154151050156e02 + ((-y.abs_y) * (-y.abs_y)) * (3.16112374387056560e00 + ((-y.abs_y) * (-y.abs_y)) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + ((-y.abs_y) * (-y.abs_y)) * (1.28261652607737228e03 + ((-y.abs_y) * (-y.abs_y)) * (2.44024637934444173e02 + ((-y.abs_y) * (-y.abs_y)) * (2.36012909523441209e01 + ((-y.abs_y) * (-y.abs_y)) * 1.0e0))))
      WHEN (-y.abs_y) <= 4.0e0
      THEN (EXP(-(FLOOR((-y.abs_y) * 16.0e0) / 16.0e0) * (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * EXP(-((-y.abs_y) - (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * ((-y.abs_y) + (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + (-y.abs_y) * (2.05107837782607147e03 + (-y.abs_y) * (1.71204761263407058e03 + (-y.abs_y) * (8.81952221241769090e02 + (-y.abs_y) * (2.98635138197400131e02 + (-y.abs_y) * (6.61191906371416295e01 + (-y.abs_y) * (8.88314979438837594e00 + (-y.abs_y) * (5.64188496988670089e-1 + (-y.abs_y) * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + (-y.abs_y) * (3.43936767414372164e03 + (-y.abs_y) * (4.36261909014324716e03 + (-y.abs_y) * (3.29079923573345963e03 + (-y.abs_y) * (1.62138957456669019e03 + (-y.abs_y) * (5.37181101862009858e02 + (-y.abs_y) * (1.17693950891312499e02 + (-y.abs_y) * (1.57449261107098347e01 + (-y.abs_y) * 1.0e0))))))))
      WHEN (-y.abs_y) < 26.0e0
      THEN (EXP(-(FLOOR((-y.abs_y) * 16.0e0) / 16.0e0) * (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * EXP(-((-y.abs_y) - (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * ((-y.abs_y) + (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (6.58749161529837803e-4 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.60837851487422766e-2 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.25781726111229246e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (3.60344899949804439e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (3.05326634961232344e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (6.05183413124413191e-2 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (5.27905102951428412e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.87295284992346047e00 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (2.56852019228982242e00 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * 1.0e0)))))) / (-y.abs_y)
      ELSE 0.0e0 END) END AS p_value
  FROM (
    SELECT z.*, z.z * 7.0710678118654752440e-1 AS y, z.abs_z * 7.0710678118654752440e-1 AS abs_y
    FROM coefficient_z AS z
  ) AS y
)
SELECT r.*, u.n_units, u.n_ratings, u.n_single, u.n_merged, u.n_duplicate_units,
       u.n_raters AS key_raters
FROM unit_counts AS u
LEFT JOIN coefficient_tests AS r ON r.metric = u.metric AND r.slice_0 = u.slice_0
WHERE u.replicate = 0
ORDER BY u.metric, u.slice_0, r.position;
