-- agreement-sql: irr_validation (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $rating_min = 0.0
-- parameter: $rating_max = 5.0
-- irr_validation: the workshop IRR report's counts and validation inputs, in one statement.
-- Source: seed 000/001 irr_utils validation order (SEED_BEHAVIOUR §1).
-- Reads: the ratings relation; an annotation is one (item, rater) pair.
-- Returns: one row: num_annotations, num_raters, num_traces, traces_multi (traces with two or
--   more distinct raters), completeness (annotations / (raters x traces), unrounded) and the
--   first rating outside $rating_min..$rating_max among metrics without a declared scale.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', rating_min := 0.0, rating_max := 5.0);
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
annotations AS (
  SELECT item, rater FROM ratings GROUP BY item, rater
),
trace_raters AS (
  SELECT item, COUNT(*) AS n_raters FROM annotations GROUP BY item
),
invalid AS (
  SELECT r.item, r.rater, r.metric, r.value_text, r.x
  FROM ratings AS r
  WHERE r.x < $rating_min OR r.x > $rating_max
  ORDER BY r.item, r.rater, r.metric
  LIMIT 1
)
SELECT
  (SELECT COUNT(*) FROM annotations) AS num_annotations,
  (SELECT COUNT(DISTINCT rater) FROM annotations) AS num_raters,
  (SELECT COUNT(*) FROM trace_raters) AS num_traces,
  (SELECT COUNT(*) FROM trace_raters WHERE n_raters >= 2) AS traces_multi,
  CAST((SELECT COUNT(*) FROM annotations) AS DOUBLE)
    / NULLIF((SELECT COUNT(DISTINCT rater) FROM annotations) * (SELECT COUNT(*) FROM trace_raters), 0)
    AS completeness,
  (SELECT x FROM invalid) AS invalid_x,
  (SELECT value_text FROM invalid) AS invalid_text,
  (SELECT item FROM invalid) AS invalid_item,
  (SELECT rater FROM invalid) AS invalid_rater,
  (SELECT metric FROM invalid) AS invalid_metric
