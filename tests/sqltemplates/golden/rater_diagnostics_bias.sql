-- agreement-sql: rater_diagnostics_bias (duckdb)
-- reads relation: "ratings"
-- rater_diagnostics_bias: systematic bias: how each rater's ratings sit against the other
--   raters' ratings of the same units. Numeric ratings: the mean over shared units of
--   x_r - mean of the others (S1_u - x_r) / (m_u - 1). Labels (by_label): per category, the
--   rater's share of it minus the others' share on the same units.
-- Source: per-rater mean offset (seed 000's "very different average ratings" pattern, made
--   per rater and relative to the same units).
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2.
-- Returns: one row per metric, group and rater (numeric; category NULL) or per rater and
--   category (labels): n_items, rater_value, others_value, offset = rater_value - others_value.
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
bias_own AS (
  -- a rater's rating of a unit that at least one other rater also rated
  SELECT r.metric, r.item, r.rater, r.value_text, r.x, u.m_u, u.s1_u
  FROM ratings AS r
  JOIN units AS u ON r.metric = u.metric AND r.item = u.item
  WHERE u.m_u >= 2
),
bias AS (
  -- mean of the other raters on the unit: (S1_u - x_r) / (m_u - 1)
  SELECT metric, rater, CAST(NULL AS VARCHAR) AS category, COUNT(*) AS n_items,
         AVG(x) AS rater_value,
         AVG((s1_u - x) / (m_u - 1)) AS others_value
  FROM bias_own
  GROUP BY metric, rater
)
SELECT metric, rater, category, n_items, rater_value, others_value,
       rater_value - others_value AS offset
FROM bias
ORDER BY metric, category, rater
