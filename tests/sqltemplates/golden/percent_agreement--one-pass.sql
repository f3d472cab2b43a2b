-- agreement-sql: percent_agreement (duckdb)
-- reads relation: "ratings"
-- reads relation: "rater_bits"
-- parameter: $default_metric = 'value'
-- parameter: $category_0
-- parameter: $category_1
-- percent_agreement: the proportion of agreeing rater pairs per item, averaged over items.
-- Source: Gwet (2014) ch. 2 (irrCAC pa.coeff.raw), weighted when weights are given; formulas in
--   sql/_kappa_items.sql.j2 and sql/_percent_agreement.sql.j2.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e = 0, counts[, se, CI].
-- One pass (unweighted, no bootstrap, a small domain; agreement_sql/profile.py): one per-unit
--   aggregation counts each category in its own column and the input problems (check_*
--   columns), and sql/_kappa_wide.sql.j2 computes the coefficient from the unit rows.
-- Undefined: NULL when no item has two ratings.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', category_0 := ?, category_1 := ?);
WITH
ratings_in AS NOT MATERIALIZED (
  SELECT
    $default_metric AS metric,
    src."item" AS item,
    CAST(src."rater" AS VARCHAR) AS rater,
    CAST(src."value" AS VARCHAR) AS value_text,
    TRY_CAST(src."value" AS DOUBLE) AS x
  FROM "ratings" AS src
  WHERE src."value" IS NOT NULL
),
ratings AS NOT MATERIALIZED (
  SELECT metric, item, rater, value_text, x
  FROM ratings_in
)
,
unit_packed AS (
  -- the category counts of a unit as base-512 digits, five categories per DOUBLE: one SUM
  -- instead of one COUNT per category (a unit has at most 320 raters here, so a digit never
  -- carries; 512^5 < 2^53, so the sums are exact)
  SELECT r.metric, r.item,
         BIT_OR(c.bit_0) AS or_bit_0, 
         SUM(CASE WHEN r.x = CAST($category_0 AS DOUBLE) THEN 1.0 WHEN r.x = CAST($category_1 AS DOUBLE) THEN 512.0 END) AS pack_0,
         COUNT(*) AS m_u
  FROM ratings AS r
  LEFT JOIN "rater_bits" AS c ON c.rater = r.rater
  GROUP BY r.metric, r.item
),
unit_profile AS (
  SELECT metric, item,
or_bit_0, 
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 1.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 512.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 262144.0) AS BIGINT) AS n_1,
         m_u
  FROM unit_packed
)
,
units AS (
  SELECT metric, item, m_u,
or_bit_0, 
n_0 * CAST($category_0 AS DOUBLE) + n_1 * CAST($category_1 AS DOUBLE) + 0.0 AS s1_u,
n_0 * CAST($category_0 AS DOUBLE) * CAST($category_0 AS DOUBLE) + n_1 * CAST($category_1 AS DOUBLE) * CAST($category_1 AS DOUBLE) + 0.0 AS s2_u,
n_0 * n_0 + n_1 * n_1 + 0 AS q_u,
         n_0,
         n_1,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) END AS cat_min
         ,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) END AS x_min,
         CASE WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) END AS x_max
  FROM unit_profile
)
,
kappa_wide AS (
  -- per metric, one pass over the unit rows: n, n2, sum_i pa_i and, per category k,
  -- sum_i r_ik / r_i and sum_i r_ik; and the input checks and raters
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(CASE WHEN units.m_u >= 2 THEN CAST(units.q_u - units.m_u AS DOUBLE) / NULLIF(CAST(units.m_u AS DOUBLE) * (units.m_u - 1), 0.0) ELSE 0.0 END) AS sum_pa,
         SUM(CAST(n_0 AS DOUBLE) / NULLIF(m_u, 0)) AS share_0,
         SUM(n_0) AS count_0,
         SUM(CAST(n_1 AS DOUBLE) / NULLIF(m_u, 0)) AS share_1,
         SUM(n_1) AS count_1,
         SUM(m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN 1 = 0 THEN m_u ELSE 0 END) AS check_n_null_slice,
         SUM((m_u - n_0 - n_1)) AS check_n_not_numeric,
         SUM(CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         COUNT(*) AS n_rated
  FROM units
  GROUP BY metric
),
profile_checks AS (
  -- the statement's input problems, summed over metrics (and slices)
  SELECT SUM(check_n_ratings) AS check_n_ratings,
         SUM(check_n_null_item) AS check_n_null_item,
         SUM(CASE WHEN metric IS NULL THEN check_n_ratings ELSE 0 END) AS check_n_null_metric,
         SUM(check_n_null_slice) AS check_n_null_slice,
         SUM(check_n_not_numeric) AS check_n_not_numeric,
         SUM(check_n_duplicate) AS check_n_duplicate
  FROM kappa_wide
),
kappa_wide_summary AS (
  -- p_a = sum_i pa_i / n2, pi_k = (1/n) sum_i r_ik / r_i, the categories used, q, raters
  SELECT w.metric, w.n_rated, w.n_items,
         w.sum_pa / NULLIF(CAST(w.n_items AS DOUBLE), 0.0) AS p_a,
         w.share_0 / NULLIF(w.n_rated, 0) AS pi_0,
         w.share_1 / NULLIF(w.n_rated, 0) AS pi_1,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_used,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_categories,
         w.check_n_raters AS n_raters
  FROM kappa_wide AS w
),
kappa_wide_expected AS (
  -- p_e of each coefficient
  SELECT s.*,
         CAST(0.0 AS DOUBLE) AS percent_agreement_p_e
  FROM kappa_wide_summary AS s
),
kappa_wide_values AS (
  -- kappa = (p_a - p_e) / (1 - p_e); NULL when no item has two ratings, 1.0 with one category used
  SELECT e.*,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.percent_agreement_p_e) / NULLIF(1.0 - e.percent_agreement_p_e, 0.0) END AS percent_agreement_value
  FROM kappa_wide_expected AS e
),
percent_agreement AS (
  SELECT v.metric,
         'percent_agreement' AS coefficient,
         v.percent_agreement_value AS value,
         v.p_a AS observed_agreement,
         v.percent_agreement_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         CAST(NULL AS DOUBLE) AS variance
  FROM kappa_wide_values AS v
)
SELECT c.*,
       p.*
FROM percent_agreement AS c
CROSS JOIN profile_checks AS p
ORDER BY c.metric
