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
kappa_used AS (
  -- the categories each metric used
  SELECT DISTINCT metric, CAST(NULL AS BIGINT) AS g, x, label
  FROM counts
),
kappa_domain AS (
  SELECT metric, x, label,
         ROW_NUMBER() OVER (PARTITION BY metric
                            ORDER BY CASE WHEN label IS NULL THEN 0 ELSE 1 END, x, label) - 1 AS position
  FROM kappa_used
),
kappa_positions AS (
  -- each used category's position in its metric's domain
  SELECT u.metric, u.g, u.x, u.label, d.position
  FROM kappa_used AS u
  JOIN kappa_domain AS d ON u.metric = d.metric AND COALESCE(u.x, CAST('NaN' AS DOUBLE)) = COALESCE(d.x, CAST('NaN' AS DOUBLE)) AND COALESCE(u.label, '') = COALESCE(d.label, '')
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of the category scores
  SELECT d.metric, COUNT(*) AS q,
         MAX(d.x) - MIN(d.x) AS span
  FROM kappa_domain AS d
  GROUP BY d.metric
),
kappa_weights AS (
  -- w_kl for every pair of domain positions
  SELECT a.metric, a.position AS pos_k, b.position AS pos_l,
         CASE WHEN a.position = b.position THEN 1.0 ELSE 0.0 END
 AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric
  JOIN kappa_span AS s ON a.metric = s.metric
),
kappa_counts AS (
  -- r_ik with the category's position
  SELECT c.metric, c.item, p.position, c.n_uc
  FROM counts AS c
  JOIN kappa_positions AS p ON c.metric = p.metric AND COALESCE(c.x, CAST('NaN' AS DOUBLE)) = COALESCE(p.x, CAST('NaN' AS DOUBLE)) AND COALESCE(c.label, '') = COALESCE(p.label, '')
),
kappa_units AS (
  -- per unit: r_i and pa_i
  SELECT metric, item AS unit, 1 AS w_u, m_u AS r_i,
         CASE WHEN m_u >= 2
              THEN CAST(q_u - m_u AS DOUBLE) / NULLIF(CAST(m_u AS DOUBLE) * (m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units
),
kappa_shares_used AS (
  -- sum_i r_ik / r_i per used category
  SELECT c.metric, c.position, agreement_fsum(CAST(c.n_uc AS DOUBLE) / NULLIF(u.m_u, 0)) AS share_sum
  FROM kappa_counts AS c
  JOIN units AS u ON c.metric = u.metric AND u.item = c.item
  GROUP BY c.metric, c.position
),
kappa_totals AS (
  -- n units rated at least once, n2 rated twice or more, p_a = sum_i pa_i / n2
  SELECT metric,
         SUM(w_u) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS n_items,
         agreement_fsum(w_u * pa_i) / NULLIF(CAST(SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS DOUBLE), 0.0) AS p_a
  FROM kappa_units
  GROUP BY metric
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.position, COALESCE(s.share_sum / NULLIF(t.n_rated, 0), 0.0) AS pi_k
  FROM kappa_domain AS d
  JOIN kappa_totals AS t ON d.metric = t.metric
  LEFT JOIN kappa_shares_used AS s ON d.metric = s.metric AND s.position = d.position
),
kappa_summary AS (
  SELECT t.metric, t.n_rated, t.n_items, t.p_a, s.q, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN kappa_span AS s ON t.metric = s.metric
  JOIN (SELECT metric, COUNT(*) AS n_used FROM kappa_used GROUP BY metric) AS u
    ON t.metric = u.metric
  JOIN (SELECT metric, agreement_fsum(w) AS t_w FROM kappa_weights GROUP BY metric) AS w
    ON t.metric = w.metric
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
         agreement_fsum(CAST(m_u * m_u - q_u AS DOUBLE) / NULLIF(m_u - 1, 0)) AS do_sum
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
         CAST(t.n_values * t.n_values - t.sum_nc2 AS DOUBLE) AS de_sum,
         t.n_values, t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
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
         CASE WHEN a.position = b.position THEN 1.0 ELSE 0.0 END
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
         CAST(NULL AS DOUBLE) AS null_variance,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.n_shared) END AS n_se
  FROM pair_keys AS r
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  GROUP BY r.metric, r.n_raters, r.n_items, r.n_categories, r.n_paired_ratings
)
,
scott_shares AS (
  -- pi_k = (p_k. + p_.k) / 2 and pbar_k = (w_k. + w_.k) / 2 for every domain category
  SELECT r.metric, r.rater_a, r.rater_b, r.position,
         (r.p_row + c.p_col) / 2.0 AS pi_k,
         (r.w_row + c.w_col) / 2.0 AS pbar_k
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b AND c.position = r.position
),
scott_expected_sum AS (
  -- sum_kl w_kl x_k x_l
  SELECT w.metric, w.rater_a, w.rater_b, agreement_fsum(w.w * a.pi_k * b.pi_k) AS qf
  FROM pair_weights AS w
  JOIN scott_shares AS a ON w.metric = a.metric AND w.rater_a = a.rater_a AND w.rater_b = a.rater_b AND a.position = w.pos_a
  JOIN scott_shares AS b ON w.metric = b.metric AND w.rater_a = b.rater_a AND w.rater_b = b.rater_b AND b.position = w.pos_b
  GROUP BY w.metric, w.rater_a, w.rater_b
),
scott_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT metric, rater_a, rater_b, qf AS p_e
  FROM scott_expected_sum
),
scott_pair_pi AS (
  -- pi = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS pi
  FROM pair_observed AS o
  JOIN scott_expected AS e ON o.metric = e.metric AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
scott_pair_variance AS (
  -- var = [sum_kl p_kl (w_kl - (1 - pi)(pbar_k + pbar_l))^2 - (p_o - 2 (1 - pi) p_e)^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.rater_a, c.rater_b,
CASE WHEN ABS(((agreement_fsum(c.p_ij * POWER(c.w - (1.0 - s.pi) * (a.pbar_k + b.pbar_k), 2))) - (MIN(POWER(s.p_o - 2.0 * (1.0 - s.pi) * s.p_e, 2))))) <= 1e-12 * (ABS(agreement_fsum(c.p_ij * POWER(c.w - (1.0 - s.pi) * (a.pbar_k + b.pbar_k), 2))) + ABS(MIN(POWER(s.p_o - 2.0 * (1.0 - s.pi) * s.p_e, 2)))) THEN 0.0 ELSE ((agreement_fsum(c.p_ij * POWER(c.w - (1.0 - s.pi) * (a.pbar_k + b.pbar_k), 2))) - (MIN(POWER(s.p_o - 2.0 * (1.0 - s.pi) * s.p_e, 2)))) END
         / NULLIF(MIN(POWER(1.0 - s.p_e, 2) * s.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN scott_shares AS a ON c.metric = a.metric AND c.rater_a = a.rater_a AND c.rater_b = a.rater_b AND a.position = c.pos_a
  JOIN scott_shares AS b ON c.metric = b.metric AND c.rater_a = b.rater_a AND c.rater_b = b.rater_b AND b.position = c.pos_b
  JOIN scott_pair_pi AS s ON c.metric = s.metric AND c.rater_a = s.rater_a AND c.rater_b = s.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b
),
scott_pi AS (
  -- the pair's pi when the metric (or slice) has exactly two raters
  SELECT r.metric,
         'scott_pi' AS coefficient,
         CASE WHEN r.n_raters = 2 THEN MIN(s.pi) END AS value,
         CASE WHEN r.n_raters = 2 THEN MIN(s.p_o) END AS observed_agreement,
         CASE WHEN r.n_raters = 2 THEN MIN(s.p_e) END AS chance_agreement,
         r.n_items,
         r.n_raters,
         r.n_categories,
         r.n_paired_ratings,
         CASE WHEN r.n_raters = 2 THEN MIN(s.rater_a) END AS rater_a,
         CASE WHEN r.n_raters = 2 THEN MIN(s.rater_b) END AS rater_b,
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS variance,
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS null_variance,
         CASE WHEN r.n_raters = 2 THEN MIN(s.n_shared) END AS n_se
  FROM pair_keys AS r
  LEFT JOIN scott_pair_pi AS s ON r.metric = s.metric
  LEFT JOIN scott_pair_variance AS v ON s.metric = v.metric AND s.rater_a = v.rater_a AND s.rater_b = v.rater_b
  GROUP BY r.metric, r.n_raters, r.n_items, r.n_categories, r.n_paired_ratings
)
,
fleiss_kappa_row_sums AS (
  -- wx_k = sum_l w_kl x_l over the table of weights
  SELECT w.metric, w.pos_k AS position,
         agreement_fsum(w.w * s.pi_k) AS wx
  FROM kappa_weights AS w
  JOIN kappa_shares AS s ON w.metric = s.metric AND s.position = w.pos_l
  GROUP BY w.metric, w.pos_k
),
fleiss_kappa_column_sums AS (
  -- wx_k = sum_l w_lk x_l over the table of weights
  SELECT w.metric, w.pos_l AS position,
         agreement_fsum(w.w * s.pi_k) AS wx
  FROM kappa_weights AS w
  JOIN kappa_shares AS s ON w.metric = s.metric AND s.position = w.pos_k
  GROUP BY w.metric, w.pos_l
),
fleiss_kappa_item_weights AS (
  -- c_k = pibar_k = (sum_l w_kl pi_l + sum_l w_lk pi_l) / 2
  SELECT a.metric, a.position, (a.wx + b.wx) / 2.0 AS c_k
  FROM fleiss_kappa_row_sums AS a
  JOIN fleiss_kappa_column_sums AS b ON a.metric = b.metric AND b.position = a.position
),
fleiss_kappa_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l = sum_k pi_k pibar_k
  SELECT s.metric, agreement_fsum(s.pi_k * c.c_k) AS p_e
  FROM kappa_shares AS s
  JOIN fleiss_kappa_item_weights AS c ON s.metric = c.metric AND c.position = s.position
  GROUP BY s.metric
),
fleiss_kappa_value AS (
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN fleiss_kappa_expected AS e ON s.metric = e.metric
),
fleiss_kappa AS (
  SELECT s.metric,
         'fleiss_kappa' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM kappa_summary AS s
  JOIN fleiss_kappa_value AS v ON s.metric = v.metric
)
,
conger_kappa_rater_counts AS (
  -- n_gk: units rater g rated k
  SELECT c.metric, c.rater, p.position AS cat, c.n_gk
  FROM (
    SELECT metric, rater, x, label, COUNT(*) AS n_gk
    FROM ratings
    GROUP BY metric, rater, x, label
  ) AS c
  JOIN kappa_positions AS p ON c.metric = p.metric AND COALESCE(c.x, CAST('NaN' AS DOUBLE)) = COALESCE(p.x, CAST('NaN' AS DOUBLE)) AND COALESCE(c.label, '') = COALESCE(p.label, '')
),
conger_kappa_raters AS (
  -- n_g: units rater g rated
  SELECT metric, rater, SUM(n_gk) AS n_g
  FROM conger_kappa_rater_counts
  GROUP BY metric, rater
),
conger_kappa_r AS (
  -- r: the raters of the metric (and slice)
  SELECT metric, COUNT(*) AS n_raters
  FROM conger_kappa_raters
  GROUP BY metric
),
conger_kappa_shares AS (
  -- p_gk = n_gk / n_g for every rater and domain category (0 when unused)
  SELECT g.metric, g.rater, d.position AS cat, g.n_g,
         CAST(COALESCE(c.n_gk, 0) AS DOUBLE) / NULLIF(g.n_g, 0) AS p_gk
  FROM conger_kappa_raters AS g
  JOIN kappa_domain AS d ON g.metric = d.metric
  LEFT JOIN conger_kappa_rater_counts AS c
    ON g.metric = c.metric AND c.rater = g.rater AND c.cat = d.position
),
conger_kappa_mean_shares AS (
  -- pbar_k = sum_g p_gk / r
  SELECT s.metric, s.cat, agreement_fsum(s.p_gk) / NULLIF(MIN(t.n_raters), 0) AS pbar_k
  FROM conger_kappa_shares AS s
  JOIN conger_kappa_r AS t ON s.metric = t.metric
  GROUP BY s.metric, s.cat
),
conger_kappa_rater_sums AS (
  -- wx_k = sum_l w_kl x_l over the table of weights
  SELECT w.metric, s.rater, w.pos_k AS position,
         agreement_fsum(w.w * s.p_gk) AS wx
  FROM kappa_weights AS w
  JOIN conger_kappa_shares AS s ON w.metric = s.metric AND s.cat = w.pos_l
  GROUP BY w.metric, s.rater, w.pos_k
),
conger_kappa_rater_terms AS (
  -- per rater g and category k: p_gk, A_gk = sum_l w_kl p_gl and c_gk = r pbar_k - p_gk
  SELECT s.metric, s.rater, s.cat, s.n_g, s.p_gk, a.wx AS a_gk,
         t.n_raters * b.pbar_k - s.p_gk AS c_gk
  FROM conger_kappa_shares AS s
  JOIN conger_kappa_rater_sums AS a ON s.metric = a.metric AND a.rater = s.rater AND a.position = s.cat
  JOIN conger_kappa_mean_shares AS b ON s.metric = b.metric AND b.cat = s.cat
  JOIN conger_kappa_r AS t ON s.metric = t.metric
),
conger_kappa_mean_sums AS (
  -- wx_k = sum_l w_kl x_l over the table of weights
  SELECT w.metric, w.pos_k AS position,
         agreement_fsum(w.w * s.pbar_k) AS wx
  FROM kappa_weights AS w
  JOIN conger_kappa_mean_shares AS s ON w.metric = s.metric AND s.cat = w.pos_l
  GROUP BY w.metric, w.pos_k
),
conger_kappa_between AS (
  -- B = sum_kl w_kl pbar_k pbar_l = sum_k pbar_k (sum_l w_kl pbar_l)
  SELECT b.metric, agreement_fsum(b.pbar_k * w.wx) AS b_sum
  FROM conger_kappa_mean_shares AS b
  JOIN conger_kappa_mean_sums AS w ON b.metric = w.metric AND w.position = b.cat
  GROUP BY b.metric
),
conger_kappa_expected AS (
  -- p_e = B - (G - r B) / (r (r - 1)); T0 = sum_g sum_k c_gk A_gk
  SELECT b.metric,
         MIN(b.b_sum) - (agreement_fsum(g.p_gk * g.a_gk) - MIN(t.n_raters * b.b_sum))
           / NULLIF(MIN(t.n_raters * (t.n_raters - 1.0)), 0.0) AS p_e,
         agreement_fsum(g.c_gk * g.a_gk) AS t0
  FROM conger_kappa_between AS b
  JOIN conger_kappa_rater_terms AS g ON b.metric = g.metric
  JOIN conger_kappa_r AS t ON b.metric = t.metric
  GROUP BY b.metric
),
conger_kappa_value AS (
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN conger_kappa_expected AS e ON s.metric = e.metric
),
conger_kappa AS (
  SELECT s.metric,
         'conger_kappa' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM kappa_summary AS s
  JOIN conger_kappa_value AS v ON s.metric = v.metric
)
,
gwet_ac1_expected AS (
  -- p_e = T_w sum_k pi_k (1 - pi_k) / (q (q - 1))
  SELECT s.metric,
         MIN(t.t_w) * agreement_fsum(s.pi_k * (1.0 - s.pi_k)) / NULLIF(MIN(t.q) * (MIN(t.q) - 1.0), 0.0) AS p_e
  FROM kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric
  GROUP BY s.metric
),
gwet_ac1_item_weights AS (
  -- c_k = T_w (1 - pi_k) / (q (q - 1))
  SELECT s.metric, s.position,
         t.t_w * (1.0 - s.pi_k) / NULLIF(t.q * (t.q - 1.0), 0.0) AS c_k
  FROM kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric
),
gwet_ac1_value AS (
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN gwet_ac1_expected AS e ON s.metric = e.metric
),
gwet_ac1 AS (
  SELECT s.metric,
         'gwet_ac1' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM kappa_summary AS s
  JOIN gwet_ac1_value AS v ON s.metric = v.metric
)
,
brennan_prediger_expected AS (
  -- p_e = T_w / q^2
  SELECT metric, t_w / NULLIF(CAST(q AS DOUBLE) * q, 0.0) AS p_e
  FROM kappa_summary
),
brennan_prediger_value AS (
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN brennan_prediger_expected AS e ON s.metric = e.metric
),
brennan_prediger AS (
  SELECT s.metric,
         'brennan_prediger' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM kappa_summary AS s
  JOIN brennan_prediger_value AS v ON s.metric = v.metric
)
,
percent_agreement_expected AS (
  -- no chance correction: p_e = 0
  SELECT metric, CAST(0.0 AS DOUBLE) AS p_e
  FROM kappa_summary
),
percent_agreement_value AS (
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN percent_agreement_expected AS e ON s.metric = e.metric
),
percent_agreement AS (
  SELECT s.metric,
         'percent_agreement' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.q AS n_categories,
         s.n_rated,
         CAST(NULL AS DOUBLE) AS variance, CAST(NULL AS DOUBLE) AS null_variance,
         CAST(NULL AS BIGINT) AS n_se
  FROM kappa_summary AS s
  JOIN percent_agreement_value AS v ON s.metric = v.metric
)
,
bangdiwala_b_diagonal AS (
  -- sum_i p_ii^2 and p_o = sum_i p_ii over the diagonal cells
  SELECT c.metric, c.rater_a, c.rater_b,
         agreement_fsum(CASE WHEN c.pos_a = c.pos_b THEN c.p_ij * c.p_ij ELSE 0.0 END) AS squares,
         agreement_fsum(CASE WHEN c.pos_a = c.pos_b THEN c.p_ij ELSE 0.0 END) AS p_o
  FROM pair_cells AS c
  GROUP BY c.metric, c.rater_a, c.rater_b
),
bangdiwala_b_rectangles AS (
  -- sum_i p_i. p_.i over every category of the pair's domain
  SELECT r.metric, r.rater_a, r.rater_b, agreement_fsum(r.p_row * c.p_col) AS rectangles
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b AND c.position = r.position
  GROUP BY r.metric, r.rater_a, r.rater_b
),
bangdiwala_b AS (
  -- the pair's B when the metric (or slice) has exactly two raters
  SELECT r.metric,
         'bangdiwala_b' AS coefficient,
         CASE WHEN r.n_raters = 2 THEN MIN(d.squares / NULLIF(g.rectangles, 0.0)) END AS value,
         CASE WHEN r.n_raters = 2 THEN MIN(d.p_o) END AS observed_agreement,
         CAST(NULL AS DOUBLE) AS chance_agreement,
         r.n_items,
         r.n_raters,
         r.n_categories,
         r.n_paired_ratings,
         CASE WHEN r.n_raters = 2 THEN MIN(d.rater_a) END AS rater_a,
         CASE WHEN r.n_raters = 2 THEN MIN(d.rater_b) END AS rater_b,
         CAST(NULL AS DOUBLE) AS variance
  FROM pair_keys AS r
  LEFT JOIN bangdiwala_b_diagonal AS d ON r.metric = d.metric
  LEFT JOIN bangdiwala_b_rectangles AS g ON d.metric = g.metric AND d.rater_a = g.rater_a AND d.rater_b = g.rater_b
  GROUP BY r.metric, r.n_raters, r.n_items, r.n_categories, r.n_paired_ratings
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
  SELECT c.metric, 0 AS position, 'cohen_kappa' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         c.n_raters, c.n_paired_ratings, c.rater_a, c.rater_b,
c.n_pairs AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM cohen_kappa AS c
  UNION ALL
  SELECT c.metric, 1 AS position, 'scott_pi' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         c.n_raters, c.n_paired_ratings, c.rater_a, c.rater_b,
CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM scott_pi AS c
  UNION ALL
  SELECT c.metric, 2 AS position, 'fleiss_kappa' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM fleiss_kappa AS c
  UNION ALL
  SELECT c.metric, 3 AS position, 'conger_kappa' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM conger_kappa AS c
  UNION ALL
  SELECT c.metric, 4 AS position, 'gwet_ac1' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM gwet_ac1 AS c
  UNION ALL
  SELECT c.metric, 5 AS position, 'brennan_prediger' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM brennan_prediger AS c
  UNION ALL
  SELECT c.metric, 6 AS position, 'percent_agreement' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         CAST(NULL AS BIGINT) AS n_raters, CAST(NULL AS BIGINT) AS n_paired_ratings,
         CAST(NULL AS VARCHAR) AS rater_a, CAST(NULL AS VARCHAR) AS rater_b,
         CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM percent_agreement AS c
  UNION ALL
  SELECT c.metric, 7 AS position, 'bangdiwala_b' AS name,
         c.coefficient, c.value,
         c.observed_agreement, c.chance_agreement,
         CAST(NULL AS DOUBLE) AS observed_disagreement, CAST(NULL AS DOUBLE) AS expected_disagreement,
         c.n_items, CAST(NULL AS BIGINT) AS n_values, c.n_categories,
         c.variance,
         CAST(NULL AS DOUBLE) AS null_variance, CAST(NULL AS BIGINT) AS n_se,
         c.n_raters, c.n_paired_ratings, c.rater_a, c.rater_b,
CAST(NULL AS BIGINT) AS n_pairs,
         CAST(NULL AS DOUBLE) AS se, CAST(NULL AS DOUBLE) AS ci_low,
         CAST(NULL AS DOUBLE) AS ci_high, CAST(NULL AS BIGINT) AS n_boot_valid
  FROM bangdiwala_b AS c
  UNION ALL
  SELECT c.metric, 8 AS position, 'krippendorff_alpha' AS name,
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
