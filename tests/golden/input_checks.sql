-- agreement-sql: input_checks (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- input_checks: counts of everything that makes the input unusable, in one scan, so the
--   Python layer can raise a typed error naming the column, value or row (principle 6).
-- Reads: the ratings relation. Returns: one row of counts (0 everywhere = usable input).
--   n_not_numeric   ratings whose text is not a number (matters for numeric scales)
--   n_duplicate     (item, rater[, metric, slices]) keys rated more than once
--   n_out_of_scale  ratings outside a declared scale's [lo, hi]
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value');
WITH
ratings_in AS (
  SELECT
    $default_metric AS metric,
    CAST(src."item" AS VARCHAR) AS item,
    CAST(src."rater" AS VARCHAR) AS rater,
    CAST(src."value" AS VARCHAR) AS value_text,
    TRY_CAST(src."value" AS DOUBLE) AS x
  FROM "ratings" AS src
  WHERE src."value" IS NOT NULL
),
ratings AS (
  SELECT metric, item, rater, value_text, x
  FROM ratings_in
)
,
duplicate_keys AS (
  SELECT COUNT(*) AS n_duplicate
  FROM (
    SELECT metric, item, rater
    FROM ratings
    GROUP BY metric, item, rater
    HAVING COUNT(*) > 1
  ) AS d
)
SELECT
  COUNT(*) AS n_ratings,
  SUM(CASE WHEN r.item IS NULL THEN 1 ELSE 0 END) AS n_null_item,
  SUM(CASE WHEN r.rater IS NULL THEN 1 ELSE 0 END) AS n_null_rater,
  SUM(CASE WHEN r.metric IS NULL THEN 1 ELSE 0 END) AS n_null_metric,
  SUM(CASE WHEN 1 = 0 THEN 1 ELSE 0 END) AS n_null_slice,
  SUM(CASE WHEN r.x IS NULL THEN 1 ELSE 0 END) AS n_not_numeric,
  0 AS n_out_of_scale,
  MIN(k.n_duplicate) AS n_duplicate
FROM ratings AS r
CROSS JOIN duplicate_keys AS k
