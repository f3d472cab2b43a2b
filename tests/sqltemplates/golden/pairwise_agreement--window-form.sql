-- agreement-sql: pairwise_agreement (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $likert_lo = 1.0
-- parameter: $likert_hi = 5.0
-- parameter: $adjacent_tolerance = 1.0
-- pairwise_agreement: exact and adjacent percent agreement, pooled over rater pairs.
-- Source: seed 001 (Human Evaluation Workshop, pairwise agreement IRR); counts formulation
--   from DESIGN_NOTES §1 (pairs from n_uc, not from a rater self-join).
-- Reads: the ratings relation (item, rater, value[, metric]).
-- Returns: one row per metric: n_items_paired, n_pairs, exact/adjacent pairs and percentages,
--   whether the metric is binary (declared, or every rating 0 or 1).
-- Undefined: percentages are NULL when no unit has two ratings.
-- window_form (continuous scores, more distinct values than the wide cap of
--   agreement_sql/profile.py): pair counts from windows over each item's sorted ratings
--   (sql/_value_windows.sql.j2) instead of pairs of distinct values; same numbers.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', likert_lo := 1.0, likert_hi := 5.0, adjacent_tolerance := 1.0);
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
observed_scale AS (
  SELECT metric,
         MIN(CASE WHEN x = 0 OR x = 1 THEN 1 ELSE 0 END) AS all_zero_one
  FROM ratings
  GROUP BY metric
),
scale AS (
  SELECT o.metric,
         CASE WHEN o.all_zero_one = 1 THEN 'binary' ELSE 'likert' END AS kind,
         CASE WHEN o.all_zero_one = 1 THEN 0.0 ELSE $likert_lo END AS lo,
         CASE WHEN o.all_zero_one = 1 THEN 1.0 ELSE $likert_hi END AS hi
  FROM observed_scale AS o
)
,
value_window_rows AS (
  SELECT r.metric,
         RANK() OVER (PARTITION BY r.metric, r.item ORDER BY r.x) AS rank_k,
         COUNT(*) OVER (PARTITION BY r.metric, r.item ORDER BY r.x
                        RANGE BETWEEN UNBOUNDED PRECEDING AND $adjacent_tolerance FOLLOWING) AS near_k,
         r.item
  FROM ratings AS r
),
value_windows AS (
  SELECT metric, item,
         CAST(COUNT(*) * (COUNT(*) + 1) / 2 - SUM(rank_k) AS BIGINT) AS exact_u,
         CAST(SUM(near_k) - COUNT(*) * (COUNT(*) + 1) / 2 AS BIGINT) AS adjacent_u,
         COUNT(*) AS m_u
  FROM value_window_rows
  GROUP BY metric, item
)
,
pw_totals AS (
  -- per metric from the per-unit window counts (equal values; values within the tolerance)
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items_paired,
         CAST(SUM(m_u * (m_u - 1)) / 2 AS BIGINT) AS n_pairs,
         CAST(SUM(exact_u) AS BIGINT) AS exact_pairs,
         CAST(SUM(adjacent_u) AS BIGINT) AS adjacent_pairs
  FROM value_windows
  GROUP BY metric
),
pairwise AS (
  SELECT metric,
         n_items_paired,
         n_pairs,
         exact_pairs,
         adjacent_pairs,
         100.0 * CAST(exact_pairs AS DOUBLE) / NULLIF(n_pairs, 0) AS exact_agreement,
         100.0 * CAST(adjacent_pairs AS DOUBLE) / NULLIF(n_pairs, 0) AS adjacent_agreement
  FROM pw_totals
)

SELECT p.*, s.kind = 'binary' AS is_binary, s.kind AS scale_kind, s.lo AS scale_lo, s.hi AS scale_hi
FROM pairwise AS p
JOIN scale AS s ON p.metric = s.metric
ORDER BY 1
