-- agreement-sql: judge_points (duckdb)
-- reads relation: "ratings"
-- parameter: $sigma_threshold = 0.3
-- judge_points: the spread of the judges' scores on each rubric point: population sigma,
--   range, and whether sigma exceeds $sigma_threshold (seed 004 flags sigma > 0.3 as high
--   judge disagreement on a criterion).
-- Source: seed 004 (Weval MacroCoverageTable); sigma = sqrt(S2/m - (S1/m)^2).
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2.
-- Returns: one row per metric, group and point with two or more scores, in input order.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(sigma_threshold := 0.3);
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
point_order AS (
  SELECT metric, item, MIN(row_no) AS first_seen, COUNT(DISTINCT rater) AS num_judges
  FROM regrouped
  GROUP BY metric, item
),
point_moments AS (
  SELECT metric, item, m_u AS num_scores, s1_u / m_u AS mean, s2_u / m_u AS mean_sq,
         x_max - x_min AS spread
  FROM units
  WHERE m_u >= 2
),
point_spread AS (
  SELECT metric, item, num_scores, mean, spread,
         CASE WHEN spread = 0 OR mean_sq - mean * mean <= 0.0 THEN 0.0
              ELSE SQRT(mean_sq - mean * mean) END AS std_dev
  FROM point_moments
)
SELECT p.metric, p.item, o.num_judges, p.num_scores, p.mean, p.spread, p.std_dev,
       p.std_dev > $sigma_threshold AS flagged
FROM point_spread AS p
JOIN point_order AS o ON p.metric = o.metric AND o.item = p.item
ORDER BY p.metric, o.first_seen, p.item
