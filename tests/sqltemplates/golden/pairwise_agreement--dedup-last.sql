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
    TRY_CAST(src."value" AS DOUBLE) AS x,
    ROW_NUMBER() OVER () AS row_no
  FROM "ratings" AS src
  WHERE src."value" IS NOT NULL
),
ratings AS (
  -- a rater's repeated ratings of one item: keep the last in input order
  SELECT metric, item, rater, value_text, x
  FROM (
    SELECT r.*, ROW_NUMBER() OVER (
      PARTITION BY r.metric, r.item, r.rater
      ORDER BY r.row_no DESC) AS keep_rank
    FROM ratings_in AS r
  ) ranked
  WHERE keep_rank = 1
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
value_pairs AS (
  SELECT lo.metric, lo.item,
         lo.cat AS cat_lo, hi.cat AS cat_hi,
         lo.x AS x_lo, hi.x AS x_hi,
         lo.n_uc AS n_lo, hi.n_uc AS n_hi
  FROM counts AS lo
  JOIN counts AS hi
    ON lo.metric = hi.metric AND lo.item = hi.item AND lo.cat < hi.cat
)
,
observed_scale AS (
  SELECT metric,
         MIN(CASE WHEN x = 0 OR x = 1 THEN 1 ELSE 0 END) AS all_zero_one
  FROM counts
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
pw_near AS (
  SELECT metric, SUM(n_lo * n_hi) AS near_pairs
  FROM value_pairs
  WHERE x_hi <= x_lo + $adjacent_tolerance
  GROUP BY metric
),
pw_units AS (
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items_paired,
         CAST(SUM(m_u * (m_u - 1)) / 2 AS BIGINT) AS n_pairs,
         CAST(SUM(q_u - m_u) / 2 AS BIGINT) AS exact_pairs
  FROM units
  GROUP BY metric
),
pw_totals AS (
  SELECT t.metric, t.n_items_paired, t.n_pairs, t.exact_pairs,
         t.exact_pairs + COALESCE(n.near_pairs, 0) AS adjacent_pairs
  FROM pw_units AS t
  LEFT JOIN pw_near AS n ON t.metric = n.metric
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
