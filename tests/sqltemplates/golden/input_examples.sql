-- agreement-sql: input_examples (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $max_examples = 5
-- input_examples: up to $max_examples rows showing one input problem (see input_checks),
--   ordered so the same input always names the same rows.
-- Reads: the ratings relation. Returns: metric, slices, item, rater, value_text, n_times.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', max_examples := 5);
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

SELECT metric, item, rater, MIN(value_text) AS value_text, COUNT(*) AS n_times,
       COUNT(*) OVER () AS n_found
FROM ratings
GROUP BY metric, item, rater
HAVING COUNT(*) > 1
ORDER BY 1, 2, 3, 4
LIMIT $max_examples
