-- agreement-sql: ratings_profile (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $max_categories = 16
-- ratings_profile: what a one-pass metric statement needs to know before it is rendered
--   (agreement_sql/profile.py): how many raters there are (so their bits fit a few columns,
--   sql/rater_bits.sql.j2), whether some rating has no rater, and the distinct categories (so a
--   small domain gets one count column per category per unit, sql/_unit_profile.sql.j2). Two
--   DISTINCT scans, cheap next to a GROUP BY item.
-- Reads: the ratings relation (and, with raters_from, the distinct raters already listed by
--   sql/rater_bits.sql.j2 instead of a scan). Returns: one 'raters' row (position = the number of distinct
--   raters, x = 1 when some rating has no rater) and at most $max_categories + 1 'category'
--   rows in value order (one more than the cap tells the caller the cap is exceeded), or,
--   when a HyperLogLog sketch already counts more than four times the cap, one
--   'many_categories' row instead (x = the estimate).
--   Categories are the label text with by_label, else the numbers x (ratings that are not
--   numbers are left out here and counted by the statement's checks).
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', max_categories := 16);
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
profile_raters AS (
  SELECT COUNT(rater) AS n_raters, COUNT(*) - COUNT(rater) AS n_null
  FROM (SELECT DISTINCT rater FROM ratings) AS d
),
profile_size AS (
  -- a sketch first: continuous scores have millions of distinct values, and listing them
  -- would cost more than the metric; HyperLogLog is exact enough at a few dozen
  SELECT APPROX_COUNT_DISTINCT(x) AS approx_categories
  FROM ratings
),
profile_categories AS (
  SELECT CAST(NULL AS VARCHAR) AS value_text, x,
         ROW_NUMBER() OVER (ORDER BY x) AS position
  FROM (SELECT DISTINCT x FROM ratings
        WHERE x IS NOT NULL
          AND (SELECT approx_categories FROM profile_size) <= 4 * $max_categories) AS d
)
SELECT 'raters' AS kind, n_raters AS position, CAST(NULL AS VARCHAR) AS value_text,
       CAST(n_null AS DOUBLE) AS x
FROM profile_raters
UNION ALL
SELECT 'many_categories' AS kind, 1 AS position, CAST(NULL AS VARCHAR) AS value_text,
       CAST(approx_categories AS DOUBLE) AS x
FROM profile_size
WHERE approx_categories > 4 * $max_categories
UNION ALL
SELECT 'category' AS kind, position, value_text, x
FROM profile_categories
WHERE position <= $max_categories + 1
ORDER BY 1, 2
