-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- parameters: set on the lines below (DuckDB variables, read with getvariable())
SET VARIABLE default_metric = 'value';
SET VARIABLE z = 1.959963984540054;
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
confusion_ratings AS (
  -- the ratings of the chosen raters
  SELECT r.metric, r.item, r.rater, r.x, r.label
  FROM ratings AS r
),
confusion AS (
  -- n_ab: units rater_a rated (x_a, label_a) and rater_b rated (x_b, label_b)
  SELECT a.metric, a.rater AS rater_a, b.rater AS rater_b,
         a.x AS x_a, a.label AS label_a, b.x AS x_b, b.label AS label_b, COUNT(*) AS n_ab
  FROM confusion_ratings AS a
  JOIN confusion_ratings AS b
    ON a.metric = b.metric AND a.item = b.item
   AND a.rater < b.rater
  GROUP BY a.metric, a.rater, b.rater, a.x, a.label, b.x, b.label
),
pair_used AS (
  -- the categories either rater of the pair used on the shared units
  SELECT DISTINCT metric, rater_a, rater_b, x, label
  FROM (
    SELECT metric, rater_a, rater_b, x_a AS x, label_a AS label FROM confusion
    UNION ALL
    SELECT metric, rater_a, rater_b, x_b, label_b FROM confusion
  ) AS u
),
pair_domain AS (
  SELECT metric, rater_a, rater_b, x, label,
         ROW_NUMBER() OVER (PARTITION BY metric, rater_a, rater_b
                            ORDER BY CASE WHEN label IS NULL THEN 0 ELSE 1 END, x, label) - 1 AS position
  FROM pair_used
),
pair_span AS (
  -- q, the domain's size, and s_max - s_min
  SELECT d.metric, d.rater_a, d.rater_b, COUNT(*) AS q,
         MAX(d.x) - MIN(d.x) AS span
  FROM pair_domain AS d
  GROUP BY d.metric, d.rater_a, d.rater_b
),
pair_weights AS (
  -- w_ij for every pair of domain positions
  SELECT a.metric, a.rater_a, a.rater_b, a.position AS pos_a, b.position AS pos_b,
         COALESCE(1.0 - POWER(a.x - b.x, 2) / NULLIF(s.span * s.span, 0.0), 1.0)
 AS w
  FROM pair_domain AS a
  JOIN pair_domain AS b ON a.metric = b.metric AND a.rater_a = b.rater_a AND a.rater_b = b.rater_b
  JOIN pair_span AS s ON a.metric = s.metric AND a.rater_a = s.rater_a AND a.rater_b = s.rater_b
),
pair_counts AS (
  -- n_ij by domain positions
  SELECT c.metric, c.rater_a, c.rater_b, da.position AS pos_a, db.position AS pos_b, c.n_ab
  FROM confusion AS c
  JOIN pair_domain AS da
    ON c.metric = da.metric AND da.rater_a = c.rater_a AND da.rater_b = c.rater_b
   AND COALESCE(da.x, CAST('NaN' AS DOUBLE)) = COALESCE(c.x_a, CAST('NaN' AS DOUBLE)) AND COALESCE(da.label, '') = COALESCE(c.label_a, '')
  JOIN pair_domain AS db
    ON c.metric = db.metric AND db.rater_a = c.rater_a AND db.rater_b = c.rater_b
   AND COALESCE(db.x, CAST('NaN' AS DOUBLE)) = COALESCE(c.x_b, CAST('NaN' AS DOUBLE)) AND COALESCE(db.label, '') = COALESCE(c.label_b, '')
),
pair_totals AS (
  -- N: units both raters of the pair rated
  SELECT metric, rater_a, rater_b, SUM(n_ab) AS n_shared
  FROM pair_counts
  GROUP BY metric, rater_a, rater_b
),
pair_margins AS (
  -- p_i. and p_.j for every domain category (0 when unused)
  -- (each margin summed apart and joined by position: linear in the cells and categories)
  SELECT d.metric, d.rater_a, d.rater_b, d.position,
         COALESCE(r.n_row, 0) / NULLIF(CAST(t.n_shared AS DOUBLE), 0.0) AS p_row,
         COALESCE(c.n_col, 0) / NULLIF(CAST(t.n_shared AS DOUBLE), 0.0) AS p_col
  FROM pair_domain AS d
  JOIN pair_totals AS t ON d.metric = t.metric AND d.rater_a = t.rater_a AND d.rater_b = t.rater_b
  LEFT JOIN (
    SELECT metric, rater_a, rater_b, pos_a AS position, SUM(n_ab) AS n_row
    FROM pair_counts
    GROUP BY metric, rater_a, rater_b, pos_a
  ) AS r ON d.metric = r.metric AND d.rater_a = r.rater_a AND d.rater_b = r.rater_b AND r.position = d.position
  LEFT JOIN (
    SELECT metric, rater_a, rater_b, pos_b AS position, SUM(n_ab) AS n_col
    FROM pair_counts
    GROUP BY metric, rater_a, rater_b, pos_b
  ) AS c ON d.metric = c.metric AND d.rater_a = c.rater_a AND d.rater_b = c.rater_b AND c.position = d.position
),
pair_rows AS (
  -- p_i. and w_i. = sum_j p_.j w_ij
  SELECT w.metric, w.rater_a, w.rater_b, w.pos_a AS position, MIN(r.p_row) AS p_row,
         agreement_fsum(w.w * c.p_col) AS w_row
  FROM pair_weights AS w
  JOIN pair_margins AS r ON w.metric = r.metric AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.position = w.pos_a
  JOIN pair_margins AS c ON w.metric = c.metric AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.position = w.pos_b
  GROUP BY w.metric, w.rater_a, w.rater_b, w.pos_a
),
pair_cols AS (
  -- p_.j and w_.j = sum_i p_i. w_ij
  SELECT w.metric, w.rater_a, w.rater_b, w.pos_b AS position, MIN(c.p_col) AS p_col,
         agreement_fsum(w.w * r.p_row) AS w_col
  FROM pair_weights AS w
  JOIN pair_margins AS r ON w.metric = r.metric AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.position = w.pos_a
  JOIN pair_margins AS c ON w.metric = c.metric AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.position = w.pos_b
  GROUP BY w.metric, w.rater_a, w.rater_b, w.pos_b
),
pair_cells AS (
  -- every non-empty cell: p_ij = n_ij / N with w_ij
  SELECT c.metric, c.rater_a, c.rater_b, c.pos_a, c.pos_b,
         CAST(c.n_ab AS DOUBLE) / NULLIF(t.n_shared, 0) AS p_ij, w.w
  FROM pair_counts AS c
  JOIN pair_totals AS t ON c.metric = t.metric AND c.rater_a = t.rater_a AND c.rater_b = t.rater_b
  JOIN pair_weights AS w ON c.metric = w.metric AND c.rater_a = w.rater_a AND c.rater_b = w.rater_b AND w.pos_a = c.pos_a AND w.pos_b = c.pos_b
),
pair_observed AS (
  -- p_o = sum_ij w_ij p_ij; n_used = categories the pair used; q = the domain's size
  SELECT t.metric, t.rater_a, t.rater_b, t.n_shared, s.q, o.p_o, u.n_used
  FROM pair_totals AS t
  JOIN pair_span AS s ON t.metric = s.metric AND t.rater_a = s.rater_a AND t.rater_b = s.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, agreement_fsum(p_ij * w) AS p_o
    FROM pair_cells
    GROUP BY metric, rater_a, rater_b
  ) AS o ON t.metric = o.metric AND t.rater_a = o.rater_a AND t.rater_b = o.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, COUNT(*) AS n_used
    FROM pair_used
    GROUP BY metric, rater_a, rater_b
  ) AS u ON t.metric = u.metric AND t.rater_a = u.rater_a AND t.rater_b = u.rater_b
),
pair_keys AS (
  -- every metric (and slice): the chosen raters who rated, the units two or more of them rated,
  -- the categories of the pairs' domains
  SELECT r.metric, r.n_raters, COALESCE(i.n_items, 0) AS n_items,
         COALESCE(c.n_categories, 0) AS n_categories, COALESCE(i.n_paired_ratings, 0) AS n_paired_ratings
  FROM (
    SELECT metric, COUNT(DISTINCT rater) AS n_raters FROM confusion_ratings GROUP BY metric
  ) AS r
  LEFT JOIN (
    SELECT metric, COUNT(*) AS n_items, SUM(n) AS n_paired_ratings
    FROM (
      SELECT metric, item, COUNT(*) AS n FROM confusion_ratings
      GROUP BY metric, item
      HAVING COUNT(*) >= 2
    ) AS paired
    GROUP BY metric
  ) AS i ON r.metric = i.metric
  LEFT JOIN (
    SELECT metric, COUNT(*) AS n_categories
    FROM (SELECT DISTINCT metric, x, label FROM pair_domain) AS d
    GROUP BY metric
  ) AS c ON r.metric = c.metric
),
cohen_expected AS (
  -- p_e = sum_ij w_ij p_i. p_.j = sum_i p_i. w_i.
  SELECT r.metric, r.rater_a, r.rater_b, agreement_fsum(r.p_row * r.w_row) AS p_e
  FROM pair_rows AS r
  GROUP BY r.metric, r.rater_a, r.rater_b
),
cohen_pair_kappa AS (
  -- kappa = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS kappa
  FROM pair_observed AS o
  JOIN cohen_expected AS e ON o.metric = e.metric AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
cohen_pair_variance AS (
  -- var = [sum_ij p_ij (w_ij - (w_i. + w_.j)(1 - kappa))^2 - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.rater_a, c.rater_b,
CASE WHEN ABS(((agreement_fsum(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))) - (MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2))))) <= 1e-12 * (ABS(agreement_fsum(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))) + ABS(MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))) THEN 0.0 ELSE ((agreement_fsum(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))) - (MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))) END
         / NULLIF(MIN(POWER(1.0 - k.p_e, 2) * k.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN pair_rows AS rw ON c.metric = rw.metric AND c.rater_a = rw.rater_a AND c.rater_b = rw.rater_b AND rw.position = c.pos_a
  JOIN pair_cols AS cw ON c.metric = cw.metric AND c.rater_a = cw.rater_a AND c.rater_b = cw.rater_b AND cw.position = c.pos_b
  JOIN cohen_pair_kappa AS k ON c.metric = k.metric AND c.rater_a = k.rater_a AND c.rater_b = k.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b
),
cohen_pair_null_sum AS (
  -- sum_ij p_i. p_.j (w_ij - (w_i. + w_.j))^2
  SELECT r.metric, r.rater_a, r.rater_b,
         agreement_fsum(r.p_row * c.p_col * POWER(w.w - (r.w_row + c.w_col), 2)) AS null_sum
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b
  JOIN pair_weights AS w ON r.metric = w.metric AND r.rater_a = w.rater_a AND r.rater_b = w.rater_b AND w.pos_a = r.position AND w.pos_b = c.position
  GROUP BY r.metric, r.rater_a, r.rater_b
),
cohen_pair_null_variance AS (
  -- var0 = [sum_ij p_i. p_.j (w_ij - (w_i. + w_.j))^2 - p_e^2] / ((1 - p_e)^2 N); zero where the
  -- two terms cancel to their rounding (two constant raters; m.difference)
  SELECT s.metric, s.rater_a, s.rater_b,
CASE WHEN ABS(((s.null_sum) - (POWER(pk.p_e, 2)))) <= 1e-12 * (ABS(s.null_sum) + ABS(POWER(pk.p_e, 2))) THEN 0.0 ELSE ((s.null_sum) - (POWER(pk.p_e, 2))) END
           / NULLIF(POWER(1.0 - pk.p_e, 2) * pk.n_shared, 0.0) AS null_variance
  FROM cohen_pair_null_sum AS s
  JOIN cohen_pair_kappa AS pk ON s.metric = pk.metric AND s.rater_a = pk.rater_a AND s.rater_b = pk.rater_b
),
cohen_kappa AS (
  -- two raters: the pair's kappa with its variance; more: Light's kappa, the mean over pairs
  SELECT r.metric,
         CASE WHEN r.n_raters > 2 THEN 'light_kappa' ELSE 'cohen_kappa' END AS coefficient,
         agreement_fsum(pk.kappa) / NULLIF(COUNT(pk.kappa), 0) AS value,
         agreement_fsum(pk.p_o) / NULLIF(COUNT(pk.p_o), 0) AS observed_agreement,
         agreement_fsum(pk.p_e) / NULLIF(COUNT(pk.p_e), 0) AS chance_agreement,
         r.n_items,
         r.n_raters,
         r.n_categories,
         r.n_paired_ratings,
         COUNT(pk.kappa) AS n_pairs,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.rater_a) END AS rater_a,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.rater_b) END AS rater_b,
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS variance,
         CASE WHEN r.n_raters = 2 THEN MIN(t.null_variance) END AS null_variance,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.n_shared) END AS n_se
  FROM pair_keys AS r
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  LEFT JOIN cohen_pair_null_variance AS t ON pk.metric = t.metric AND pk.rater_a = t.rater_a AND pk.rater_b = t.rater_b
  GROUP BY r.metric, r.n_raters, r.n_items, r.n_categories, r.n_paired_ratings
)
,
coefficient_rows AS (
  SELECT c.metric, 0 AS position, 'cohen_kappa' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         c.null_variance, c.n_se,
         c.n_raters, c.n_paired_ratings, c.rater_a, c.rater_b,
c.n_pairs AS n_pairs,
         SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS se,
         c.value - getvariable('z') * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_low,
         c.value + getvariable('z') * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_high,
         CAST(NULL AS BIGINT) AS n_boot_valid
  FROM cohen_kappa AS c
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
LEFT JOIN coefficient_tests AS r ON r.metric = u.metric
ORDER BY u.metric, r.position;
