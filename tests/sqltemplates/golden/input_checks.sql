-- agreement-sql: input_checks (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- input_checks: counts of everything that makes the input unusable, in one aggregation, so the
--   Python layer can raise a typed error naming the column, value or row (principle 6).
-- Duplicates without a GROUP BY over (item, rater): per unit and block of rater codes the SUM
--   and the bitwise OR of the rater bits differ exactly when a rater occurs twice
--   (sql/_rater_bits.sql.j2). Cost: one per-unit aggregation.
-- Reads: the ratings relation. Returns: one row of counts (0 everywhere = usable input).
--   n_not_numeric    ratings whose value is not a number (matters for numeric scales)
--   n_duplicate      units in which some rater occurs more than once
--   n_out_of_scale   ratings outside a declared scale's [lo, hi]
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value');
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
row_checks AS (
  -- per rating: missing keys, values that are not numbers, values outside a declared scale
  SELECT COUNT(*) AS n_ratings,
         SUM(CASE WHEN r.item IS NULL THEN 1 ELSE 0 END) AS n_null_item,
         SUM(CASE WHEN r.rater IS NULL THEN 1 ELSE 0 END) AS n_null_rater,
         SUM(CASE WHEN r.metric IS NULL THEN 1 ELSE 0 END) AS n_null_metric,
         SUM(CASE WHEN 1 = 0 THEN 1 ELSE 0 END) AS n_null_slice,
         SUM(CASE WHEN r.x IS NULL THEN 1 ELSE 0 END) AS n_not_numeric,
         0 AS n_out_of_scale
  FROM ratings AS r
),
unit_blocks AS (
  -- per unit and block of rater codes: does some rater occur twice?
  SELECT CASE WHEN SUM(bit) <> BIT_OR(bit) THEN 1 ELSE 0 END AS has_duplicate
  FROM coded
  GROUP BY metric, item, block
)
SELECT
  c.n_ratings,
  COALESCE(c.n_null_item, 0) AS n_null_item,
  COALESCE(c.n_null_rater, 0) AS n_null_rater,
  COALESCE(c.n_null_metric, 0) AS n_null_metric,
  COALESCE(c.n_null_slice, 0) AS n_null_slice,
  COALESCE(c.n_not_numeric, 0) AS n_not_numeric,
  COALESCE(c.n_out_of_scale, 0) AS n_out_of_scale,
  (SELECT COALESCE(SUM(has_duplicate), 0) FROM unit_blocks) AS n_duplicate
FROM row_checks AS c
