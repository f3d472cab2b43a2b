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
-- The one-pass report (sql/irr_report.sql.j2, sql/_irr_validation.sql.j2) counts the same from
--   its unit profile and runs this statement only to name a rating outside the range.
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
rater_codes AS (
  SELECT rater, ROW_NUMBER() OVER (ORDER BY rater) - 1 AS code
  FROM (SELECT DISTINCT rater FROM ratings WHERE rater IS NOT NULL) AS d
),
coded AS (
  SELECT r.*, c.code, FLOOR(c.code / 40) AS block, CAST(POWER(2, c.code % 40) AS BIGINT) AS bit
  FROM ratings AS r
  LEFT JOIN rater_codes AS c ON c.rater = r.rater
)
,
item_blocks AS (
  -- per trace and block of rater codes: the set of raters who rated it (any question)
  SELECT item, block, BIT_OR(bit) AS raters_mask FROM coded GROUP BY item, block
),
trace_raters AS (
  -- distinct raters per trace; an annotation is one (trace, rater) pair
  SELECT item, SUM(BIT_COUNT(raters_mask)) AS n_raters FROM item_blocks GROUP BY item
),
invalid AS (
  SELECT r.item, r.rater, r.metric, r.value_text, r.x
  FROM ratings AS r
  WHERE r.x < $rating_min OR r.x > $rating_max
  ORDER BY r.item, r.rater, r.metric
  LIMIT 1
)
SELECT
  (SELECT SUM(n_raters) FROM trace_raters) AS num_annotations,
  (SELECT COUNT(*) FROM rater_codes) AS num_raters,
  (SELECT COUNT(*) FROM trace_raters) AS num_traces,
  (SELECT COUNT(*) FROM trace_raters WHERE n_raters >= 2) AS traces_multi,
  CAST((SELECT SUM(n_raters) FROM trace_raters) AS DOUBLE)
    / NULLIF((SELECT COUNT(*) FROM rater_codes) * (SELECT COUNT(*) FROM trace_raters), 0)
    AS completeness,
  (SELECT x FROM invalid) AS invalid_x,
  (SELECT item FROM invalid) AS invalid_item,
  (SELECT rater FROM invalid) AS invalid_rater,
  (SELECT metric FROM invalid) AS invalid_metric
