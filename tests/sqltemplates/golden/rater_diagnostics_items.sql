-- agreement-sql: rater_diagnostics_items (duckdb)
-- reads relation: "ratings"
-- parameter: $max_items = 10
-- rater_diagnostics_items: the units that drive disagreement: each unit's share of the
--   observed disagreement sum_u D_u, with D_u = (m_u^2 - Q_u)/(m_u - 1) for labels (nominal)
--   and 2 (m_u S2_u - S1_u^2)/(m_u - 1) (squared differences) otherwise, the terms of
--   Krippendorff's D_o; the top $max_items units with every rating on them.
-- Source: Krippendorff (2011) D_o, split by unit (see sql/_alpha.sql.j2 for the closed forms).
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2.
-- Returns: one row per (unit, rater) of the top units: rank, ratings, distinct values,
--   disagreeing pairs, population sigma and range (numeric), share of disagreement.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(max_items := 10);
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
item_terms AS (
  SELECT u.metric, u.item, u.m_u AS n_ratings,
         CAST((u.m_u * u.m_u - u.q_u) / 2 AS BIGINT) AS disagreeing_pairs,
         2.0 * (u.m_u * u.s2_u - u.s1_u * u.s1_u) / (u.m_u - 1) AS d_u,
         u.s1_u / u.m_u AS mean, u.s2_u / u.m_u AS mean_sq, u.x_max - u.x_min AS spread
  FROM units AS u
  WHERE u.m_u >= 2
),
item_values AS (
  SELECT metric, item, COUNT(*) AS n_values FROM counts GROUP BY metric, item
),
item_ranked AS (
  SELECT t.metric, t.item, t.n_ratings, v.n_values, t.disagreeing_pairs, t.spread,
         CASE WHEN t.spread = 0 OR t.mean_sq - t.mean * t.mean <= 0.0 THEN 0.0
              ELSE SQRT(t.mean_sq - t.mean * t.mean) END AS std_dev,
         t.d_u / NULLIF(SUM(t.d_u) OVER (PARTITION BY t.metric), 0.0) AS disagreement_share,
         ROW_NUMBER() OVER (PARTITION BY t.metric
                            ORDER BY t.d_u DESC, t.disagreeing_pairs DESC, t.item) AS item_rank
  FROM item_terms AS t
  JOIN item_values AS v ON t.metric = v.metric AND v.item = t.item
  WHERE t.d_u > 0
)
SELECT i.metric, i.item_rank, i.item, i.n_ratings, i.n_values, i.disagreeing_pairs,
       i.std_dev, i.spread, i.disagreement_share, r.rater, r.value_text, r.x
FROM item_ranked AS i
JOIN ratings AS r ON i.metric = r.metric AND r.item = i.item
WHERE i.item_rank <= $max_items
ORDER BY i.metric, i.item_rank, r.rater
