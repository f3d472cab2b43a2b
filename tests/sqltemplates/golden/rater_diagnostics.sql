-- agreement-sql: rater_diagnostics (duckdb)
-- reads relation: "ratings"
-- rater_diagnostics: each rater's agreement with the other raters on the units they share,
--   pooled over (rater, other rater) pairs: exact agreement % and mean absolute difference,
--   beside the group's Krippendorff's alpha (sql/_alpha.sql.j2) for reference.
-- Source: pairwise agreement as in seed 001, per rater (a leave-one-out view of agreement).
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2.
-- Returns: one row per metric, group and rater, least agreeing first.
-- Undefined: agreement NULL for a rater who shares no unit with another rater.
WITH
regroup_base AS (
  SELECT t.metric,
         t.item,
         t.rater, t.value_text, t.x, t.row_no
  FROM "ratings" AS t
),
regrouped AS (
  SELECT * FROM regroup_base
)
,
ratings AS NOT MATERIALIZED (
  SELECT metric, item, rater, value_text, x
  FROM regrouped
)
,
counts AS (
  SELECT metric, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, item
)
,
alpha_units AS (
  -- pairable units: two or more ratings
  SELECT * FROM units WHERE m_u >= 2
),
alpha_marginals AS (
  -- n_c: how often category c occurs among pairable values = its count over all units less
  -- the lone values of single-rated units (no join of counts with units)
  SELECT metric, cat, MIN(x) AS x, SUM(n) AS n_c
  FROM (
    SELECT metric, cat, x, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, cat_min, x_min, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, cat
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  -- per unit terms of the closed forms, summed
  SELECT metric, COUNT(*) AS n_units,
         SUM(CAST(m_u * m_u - q_u AS DOUBLE) / (m_u - 1)) AS do_nominal,
         SUM(2.0 * (m_u * s2_u - s1_u * s1_u) / (m_u - 1)) AS do_interval
  FROM alpha_units
  GROUP BY metric
),
alpha_totals AS (
  SELECT metric, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, SUM(n_c * x) AS s1, SUM(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric
),
alpha_sums AS (
  SELECT t.metric,
         p.n_units,
         p.do_interval AS do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  SELECT metric, COUNT(DISTINCT rater) AS n_raters
  FROM ratings
  GROUP BY metric
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT DISTINCT metric FROM units
),
alpha AS (
  -- alpha = 1 - D_o / D_e,  D_o = sum o_ck d2 / n,  D_e = sum n_c n_k d2 / (n (n - 1))
  SELECT k.metric,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         r.n_raters,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM alpha_keys AS k
  JOIN alpha_raters AS r ON k.metric = r.metric
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric
)
,
rd_pairs AS (
  -- every ordered pair (rater, other rater) rating the same unit
  SELECT a.metric, a.rater, a.item,
         CASE WHEN a.x = b.x THEN 1 ELSE 0 END AS same,
         ABS(a.x - b.x) AS abs_diff
  FROM ratings AS a
  JOIN ratings AS b ON a.metric = b.metric AND a.item = b.item AND a.rater <> b.rater
),
rd_agreement AS (
  -- agreement with others = 100 * agreeing pairs / pairs; mean |x_rater - x_other|
  SELECT metric, rater,
         COUNT(DISTINCT item) AS n_items_shared,
         COUNT(*) AS n_pairs,
         100.0 * CAST(SUM(same) AS DOUBLE) / NULLIF(COUNT(*), 0) AS agreement_with_others,
         AVG(abs_diff) AS mean_abs_difference
  FROM rd_pairs
  GROUP BY metric, rater
),
rd_raters AS (
  SELECT metric, rater, COUNT(*) AS n_ratings, AVG(x) AS mean_rating
  FROM ratings
  GROUP BY metric, rater
)
SELECT r.metric, r.rater, r.n_ratings, r.mean_rating,
       COALESCE(g.n_items_shared, 0) AS n_items_shared,
       COALESCE(g.n_pairs, 0) AS n_pairs,
       g.agreement_with_others,
       g.mean_abs_difference,
       a.value AS group_alpha
FROM rd_raters AS r
LEFT JOIN rd_agreement AS g ON r.metric = g.metric AND g.rater = r.rater
JOIN alpha AS a ON r.metric = a.metric
ORDER BY r.metric,
         CASE WHEN g.agreement_with_others IS NULL THEN 1 ELSE 0 END,
         g.agreement_with_others, r.rater
