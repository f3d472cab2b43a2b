-- agreement-sql: trace_disagreement (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $priority_sd = 1.5
-- parameter: $max_traces = 100
-- trace_disagreement: per-trace disagreement ranking of the workshop results page: the
--   population standard deviation of a trace's ratings for each metric, largest first.
-- Source: seed 000/001 results page (SEED_BEHAVIOUR §1); sigma = sqrt(S2/m - (S1/m)^2).
-- Reads: the ratings relation. Returns: rows (metric, item, n_ratings, mean, spread, std_dev,
--   priority = std_dev > $priority_sd) for traces rated twice or more; the top $max_traces.
-- The one-pass report (sql/irr_report.sql.j2) computes the same rows from its unit profile.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', priority_sd := 1.5, max_traces := 100);
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
trace_sums AS (
  SELECT metric, item, COUNT(*) AS n_ratings, SUM(x) AS s1, SUM(x * x) AS s2,
         MIN(x) AS x_min, MAX(x) AS x_max
  FROM ratings
  GROUP BY metric, item
  HAVING COUNT(*) >= 2
),
trace_sd AS (
  SELECT metric, item, n_ratings, s1 / n_ratings AS mean, x_max - x_min AS spread,
         CASE WHEN x_max = x_min THEN 0.0
              ELSE SQRT(GREATEST(s2 / n_ratings - (s1 / n_ratings) * (s1 / n_ratings), 0.0)) END AS std_dev
  FROM trace_sums
),
trace_top AS (
  SELECT metric, item, n_ratings, mean, spread, std_dev, std_dev > $priority_sd AS priority
  FROM trace_sd
  ORDER BY std_dev DESC, metric, item
  LIMIT $max_traces
)

SELECT metric, item, n_ratings, mean, spread, std_dev, priority
FROM trace_top
ORDER BY std_dev DESC, metric, item
