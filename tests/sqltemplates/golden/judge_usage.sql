-- agreement-sql: judge_usage (duckdb)
-- reads relation: "ratings"
-- judge_usage: seed 004's judgesUsed: how many scores each judge contributed to a group's
--   alpha (assessmentCount), largest first; ties keep the order in which judges first appear.
-- Source: seed 004 (Weval extractJudgesUsed); the scores counted are those alpha pairs.
-- Reads: the canonical ratings table (materialize_ratings output, with row_no), re-keyed by
--   _regroup.sql.j2. Returns: one row per metric, group and judge.
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
judge_first AS (
  -- input order: the first row at which each judge appears in the group
  SELECT metric, rater, MIN(row_no) AS first_seen
  FROM regrouped
  GROUP BY metric, rater
),
judge_counts AS (
  SELECT r.metric, r.rater, COUNT(*) AS assessment_count
  FROM ratings AS r
  JOIN units AS u ON r.metric = u.metric AND r.item = u.item
  WHERE u.m_u >= 2
  GROUP BY r.metric, r.rater
)
SELECT c.metric, c.rater, c.assessment_count, f.first_seen
FROM judge_counts AS c
LEFT JOIN judge_first AS f ON c.metric = f.metric AND f.rater = c.rater
ORDER BY c.metric, c.assessment_count DESC, f.first_seen, c.rater
