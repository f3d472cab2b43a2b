-- agreement-sql: value_kinds (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- value_kinds: whether some rating is not a number, the one thing the kappa family must know
--   before a one-pass statement is rendered (agreement_sql/metrics/_kappa.py): with such a
--   rating, categories are the label texts (by_label), else the numbers. The same rule as
--   input_checks' n_not_numeric > 0; it stops at the first rating that is not a number.
-- Reads: the ratings relation. Returns: one row, not_numeric = 1 when some rating's value is
--   not a number, else 0.
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

SELECT COUNT(*) AS not_numeric
FROM (SELECT 1 AS found FROM ratings WHERE x IS NULL LIMIT 1) AS d
