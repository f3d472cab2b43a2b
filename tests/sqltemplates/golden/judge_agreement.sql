-- agreement-sql: judge_agreement (duckdb)
-- reads relation: "ratings"
-- judge_agreement: Krippendorff's alpha between LLM judges per group, with the counts of seed
--   004's JudgeAgreementMetrics and the score variance its "unstable" label reads.
-- Source: Krippendorff (2011) through sql/_alpha.sql.j2 (not re-derived); seed 004 (Weval).
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2
--   (per group, per point across responses, or pooled into one group).
-- Returns: one row per metric and group (in input order): alpha, num_items (units with two or more scores),
--   num_values, num_comparisons (within-unit judge pairs), num_judges (distinct), score_variance
--   (population variance of those scores), and mean_alpha, min_alpha, num_groups_alpha, num_groups across groups.
-- Undefined: alpha NULL and counts 0 when no unit of the group has two scores.
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
judge_values AS (
  -- the values alpha pairs: scores on units that have two or more of them
  SELECT r.metric, r.rater, r.x
  FROM ratings AS r
  JOIN alpha_units AS u ON r.metric = u.metric AND r.item = u.item
),
judge_spread AS (
  -- numJudges = distinct judges; variance = S2/n - (S1/n)^2 over the group's paired scores
  SELECT metric,
         COUNT(DISTINCT rater) AS num_judges,
         SUM(x * x) / NULLIF(COUNT(x), 0)
           - (SUM(x) / NULLIF(COUNT(x), 0)) * (SUM(x) / NULLIF(COUNT(x), 0)) AS score_variance
  FROM judge_values
  GROUP BY metric
),
judge_order AS (
  -- groups in input order
  SELECT metric, MIN(row_no) AS first_seen
  FROM regrouped
  GROUP BY metric
),
judge_comparisons AS (
  -- numComparisons = sum_u m_u (m_u - 1) / 2, the within-unit judge pairs
  SELECT metric, CAST(SUM(m_u * (m_u - 1)) / 2 AS BIGINT) AS num_comparisons
  FROM alpha_units
  GROUP BY metric
)
SELECT a.metric,
       a.value AS alpha,
       a.n_items AS num_items,
       a.n_values AS num_values,
       COALESCE(c.num_comparisons, 0) AS num_comparisons,
       COALESCE(s.num_judges, 0) AS num_judges,
       CASE WHEN s.score_variance < 0.0 THEN 0.0 ELSE s.score_variance END AS score_variance,
       AVG(a.value) OVER (PARTITION BY a.metric) AS mean_alpha,
       MIN(a.value) OVER (PARTITION BY a.metric) AS min_alpha,
       COUNT(a.value) OVER (PARTITION BY a.metric) AS num_groups_alpha,
       COUNT(*) OVER (PARTITION BY a.metric) AS num_groups
FROM alpha AS a
LEFT JOIN judge_spread AS s ON a.metric = s.metric
LEFT JOIN judge_comparisons AS c ON a.metric = c.metric
LEFT JOIN judge_order AS o ON a.metric = o.metric
ORDER BY o.first_seen, a.metric
