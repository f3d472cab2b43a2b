-- agreement-sql: materialize_ratings (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- materialize_ratings: the caller's source read once into a session-temporary table of
--   canonical ratings (metric, slices, item, rater, value_text, x), so a report that runs
--   several statements scans the source a single time. With numeric ratings (the default)
--   value_text is kept only where the rating is not a number.
-- Reads: the source relation. Writes: a TEMP table under a generated name (dropped after use).
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value');
CREATE TEMP TABLE "ratings_canonical" AS
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

SELECT metric, item, rater,
       -- numeric ratings: the text is kept only where it is not a number (for the error message)
       CASE WHEN x IS NULL THEN value_text END AS value_text,
       x,
CAST(NULL AS BIGINT) AS row_no
FROM ratings_in
