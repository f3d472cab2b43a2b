-- agreement-sql: irr_patterns (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $likert_lo = 1.0
-- parameter: $likert_hi = 5.0
-- parameter: $extreme_range = 4.0
-- parameter: $max_patterns = 20
-- parameter: $mean_gap = 2.0
-- irr_patterns: the workshop report's problematic patterns, per metric (SEED_BEHAVIOUR §1):
--   constant_rater  a rater with two or more ratings of a metric that never vary
--   split_trace     binary: a trace with both 0 and 1
--   extreme_trace   Likert: a trace whose ratings span >= $extreme_range
--   rater_means     Likert: rater mean ratings that differ by >= $mean_gap
-- Reads: the ratings relation and optionally a declared scales relation.
-- Returns: rows (metric, pattern, rater, item, x, spread, n_more); at most $max_patterns
--   traces per metric and pattern, with n_more counting the rest.
-- The one-pass report (sql/irr_report.sql.j2) computes the same rows from its unit profile.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', likert_lo := 1.0, likert_hi := 5.0, extreme_range := 4.0, max_patterns := 20, mean_gap := 2.0);
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
trace_spread AS (
  SELECT metric, item, MAX(x) - MIN(x) AS spread
  FROM ratings
  GROUP BY metric, item
  HAVING COUNT(*) >= 2 AND MAX(x) > MIN(x)
),
rater_stats AS (
  SELECT metric, rater, COUNT(*) AS n, MIN(x) AS x_min, MAX(x) AS x_max, AVG(x) AS x_mean
  FROM ratings
  GROUP BY metric, rater
),
trace_stats AS (
  SELECT t.metric, t.item, t.spread, s.kind
  FROM trace_spread AS t
  JOIN scale AS s ON s.metric = t.metric
),
trace_flags AS (
  SELECT metric, item, spread,
         CASE WHEN kind = 'binary' THEN 'split_trace' ELSE 'extreme_trace' END AS pattern,
         ROW_NUMBER() OVER (PARTITION BY metric ORDER BY item) AS k,
         COUNT(*) OVER (PARTITION BY metric) AS n_flagged
  FROM trace_stats
  WHERE (kind = 'binary' AND spread > 0)
     OR (kind <> 'binary' AND spread >= $extreme_range)
),
patterns AS (
  SELECT rs.metric, 1 AS pattern_order, 'constant_rater' AS pattern, rs.rater,
         CAST(NULL AS VARCHAR) AS item, rs.x_min AS x, CAST(NULL AS DOUBLE) AS spread,
         0 AS n_more
  FROM rater_stats AS rs
  WHERE rs.n >= 2 AND rs.x_min = rs.x_max
  UNION ALL
  SELECT metric, 2, pattern, CAST(NULL AS VARCHAR), item, CAST(NULL AS DOUBLE), spread,
         CASE WHEN k = $max_patterns THEN n_flagged - k ELSE 0 END
  FROM trace_flags
  WHERE k <= $max_patterns
  UNION ALL
  SELECT rs.metric, 3, 'rater_means', CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR),
         CAST(NULL AS DOUBLE), MAX(rs.x_mean) - MIN(rs.x_mean), 0
  FROM rater_stats AS rs
  JOIN scale AS s ON s.metric = rs.metric
  WHERE s.kind <> 'binary'
  GROUP BY rs.metric
  HAVING MAX(rs.x_mean) - MIN(rs.x_mean) >= $mean_gap
)

SELECT metric, pattern, rater, item, x, spread, n_more
FROM patterns
ORDER BY metric, pattern_order, rater, item
