-- agreement-sql: brennan_prediger (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $category_0
-- parameter: $category_1
-- parameter: $z = 1.959963984540054
-- brennan_prediger: Brennan-Prediger coefficient, chance agreement T_w / q^2 (1/q unweighted).
-- Source: Brennan & Prediger (1981) Educ Psychol Meas 41; Gwet (2014) ch. 5 (irrCAC bp.coeff.raw);
--   formulas in sql/_kappa_items.sql.j2 and sql/_brennan_prediger.sql.j2; q from a declared domain.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e, counts[, se, CI].
-- One pass (unweighted, no bootstrap, a small domain; agreement_sql/profile.py): one per-unit
--   aggregation counts each category in its own column and the input problems (check_*
--   columns), and sql/_kappa_wide.sql.j2 computes the coefficient from the unit rows.
-- Undefined: NULL when no item has two ratings; 1.0 when q = 1.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', category_0 := ?, category_1 := ?, z := 1.959963984540054);
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
unit_profile AS (
  SELECT r.metric, r.item,
         COUNT(CASE WHEN r.value_text = CAST($category_0 AS VARCHAR) THEN 1 END) AS n_0,
         COUNT(CASE WHEN r.value_text = CAST($category_1 AS VARCHAR) THEN 1 END) AS n_1,
         COUNT(*) AS m_u
  FROM ratings AS r
  GROUP BY r.metric, r.item
)
,
units AS (
  SELECT metric, item, m_u,
         CAST(NULL AS DOUBLE) AS s1_u,
         CAST(NULL AS DOUBLE) AS s2_u,
n_0 * n_0 + n_1 * n_1 + 0 AS q_u,
         n_0,
         n_1,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS VARCHAR) WHEN n_1 > 0 THEN CAST($category_1 AS VARCHAR) END AS cat_min
         ,
         CAST(NULL AS DOUBLE) AS x_min,
         CAST(NULL AS DOUBLE) AS x_max
  FROM unit_profile
)
,
kappa_wide AS (
  -- per metric, one pass over the unit rows: n, n2, sum_i pa_i and, per category k,
  -- sum_i r_ik / r_i and sum_i r_ik
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(CASE WHEN units.m_u >= 2 THEN CAST(units.q_u - units.m_u AS DOUBLE) / NULLIF(CAST(units.m_u AS DOUBLE) * (units.m_u - 1), 0.0) ELSE 0.0 END) AS sum_pa,
         SUM(CAST(n_0 AS DOUBLE) / NULLIF(m_u, 0)) AS share_0,
         SUM(n_0) AS count_0,
         SUM(CAST(n_1 AS DOUBLE) / NULLIF(m_u, 0)) AS share_1,
         SUM(n_1) AS count_1,
         COUNT(*) AS n_rated
  FROM units
  GROUP BY metric
),
kappa_wide_summary AS (
  -- p_a = sum_i pa_i / n2, pi_k = (1/n) sum_i r_ik / r_i, the categories used, q, raters
  SELECT w.metric, w.n_rated, w.n_items,
         w.sum_pa / NULLIF(CAST(w.n_items AS DOUBLE), 0.0) AS p_a,
         w.share_0 / NULLIF(w.n_rated, 0) AS pi_0,
         w.share_1 / NULLIF(w.n_rated, 0) AS pi_1,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_used,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_categories,
         r.n_raters
  FROM kappa_wide AS w
  JOIN (
    SELECT metric, COUNT(DISTINCT rater) AS n_raters FROM ratings GROUP BY metric
  ) AS r ON w.metric = r.metric
),
kappa_wide_expected AS (
  -- p_e of each coefficient
  SELECT s.*,
         CAST(s.n_categories AS DOUBLE) / NULLIF(CAST(s.n_categories AS DOUBLE) * CAST(s.n_categories AS DOUBLE), 0.0) AS brennan_prediger_p_e
  FROM kappa_wide_summary AS s
),
kappa_wide_values AS (
  -- kappa = (p_a - p_e) / (1 - p_e); NULL when no item has two ratings, 1.0 with one category used
  SELECT e.*,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.brennan_prediger_p_e) / NULLIF(1.0 - e.brennan_prediger_p_e, 0.0) END AS brennan_prediger_value
  FROM kappa_wide_expected AS e
),
kappa_wide_variance AS (
  -- sum_i (kappa_i - kappa)^2 over the units, for each coefficient (one join of the unit rows
  -- with their metric's row)
  SELECT u.metric,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.brennan_prediger_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.brennan_prediger_p_e, 0.0)
           - v.brennan_prediger_value, 2)) AS brennan_prediger_ss
  FROM units AS u
  JOIN kappa_wide_values AS v ON u.metric = v.metric
  GROUP BY u.metric
),
brennan_prediger AS (
  SELECT v.metric,
         'brennan_prediger' AS coefficient,
         v.brennan_prediger_value AS value,
         v.p_a AS observed_agreement,
         v.brennan_prediger_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         t.brennan_prediger_ss / NULLIF(CAST(v.n_rated AS DOUBLE) * (v.n_rated - 1), 0.0) AS variance
  FROM kappa_wide_values AS v
  LEFT JOIN kappa_wide_variance AS t ON v.metric = t.metric
)
SELECT c.*,
       SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS se,
c.value - $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_low,
c.value + $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_high
FROM brennan_prediger AS c
ORDER BY c.metric
