-- agreement-sql: rater_bits (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- rater_bits: each rater's bit, for statements that find duplicate ratings and count raters
--   inside their one per-unit aggregation (sql/_unit_profile.sql.j2). Raters are numbered
--   0..R-1 in name order (as sql/_rater_bits.sql.j2); rater k has 2^(k mod 40) in column
--   bit_<k div 40> and 0 in the others. Within a unit, the bitwise OR of a block's bits is the
--   set of its raters, so a rater occurs twice exactly when the unit's rating count exceeds
--   the raters in the ORs. Eight blocks: up to 320 raters (agreement_sql.profile); the table
--   lists every rater, but only the first 320 get a bit (with more, the statement does not use it).
-- Reads: the ratings relation. Writes: a TEMP table under a generated name (dropped after use).
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value');
CREATE TEMP TABLE "rater_bits" AS
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
  -- every distinct rater, and a row with a NULL rater (and code) when some rating has none,
  -- so the profile reads the rater count and the NULL from here (sql/ratings_profile.sql.j2)
  SELECT rater,
         CASE WHEN rater IS NOT NULL
              THEN ROW_NUMBER() OVER (ORDER BY CASE WHEN rater IS NULL THEN 1 ELSE 0 END, rater) - 1
         END AS code
  FROM (SELECT DISTINCT rater FROM ratings) AS d
)
SELECT rater,
       CASE WHEN code < 40 THEN CAST(POWER(2, code) AS BIGINT) ELSE 0 END AS bit_0,
       CASE WHEN code >= 40 AND code < 80 THEN CAST(POWER(2, code - 40) AS BIGINT) ELSE 0 END AS bit_1,
       CASE WHEN code >= 80 AND code < 120 THEN CAST(POWER(2, code - 80) AS BIGINT) ELSE 0 END AS bit_2,
       CASE WHEN code >= 120 AND code < 160 THEN CAST(POWER(2, code - 120) AS BIGINT) ELSE 0 END AS bit_3,
       CASE WHEN code >= 160 AND code < 200 THEN CAST(POWER(2, code - 160) AS BIGINT) ELSE 0 END AS bit_4,
       CASE WHEN code >= 200 AND code < 240 THEN CAST(POWER(2, code - 200) AS BIGINT) ELSE 0 END AS bit_5,
       CASE WHEN code >= 240 AND code < 280 THEN CAST(POWER(2, code - 240) AS BIGINT) ELSE 0 END AS bit_6,
       CASE WHEN code >= 280 AND code < 320 THEN CAST(POWER(2, code - 280) AS BIGINT) ELSE 0 END AS bit_7
FROM rater_codes
