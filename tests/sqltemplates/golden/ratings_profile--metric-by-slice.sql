-- agreement-sql: ratings_profile (duckdb)
-- reads relation: "ratings"
CREATE OR REPLACE TEMP MACRO agreement_isnan(x) AS (NOT ISFINITE(x) AND NOT ISINF(x));
-- ratings_profile: what a call must know of its ratings before the statistic's statement is
--   rendered, and every row-level input problem, counted (docs/decisions/0002, 0005).
-- Reads: the ratings relation (sql/_ratings.sql.j2) in one aggregation per metric (and slice)
--   and one DISTINCT over the raters; optionally a declared domain and declared scales.
-- Returns rows tagged by `part`:
--   key     one per metric (and slice): n_rows input rows, n_numbers and n_labels (usable
--           ratings that are numbers or labels), n_placeholder, all_zero_one (1 when every
--           rating is 0 or 1: a question of them only is binary), n_null_item, n_null_rater,
--           x_min, x_max, frac_max (the largest fractional part of a number: 0 when every
--           number is whole),
--           n_outside_domain (with a declared domain), n_out_of_scale (with declared scales);
--           n_ratings = n_numbers + n_labels, n_missing = the rest less the placeholders (NULL,
--           NaN, blank), n_nonfinite = 1 when some number is +-inf or 2^53 or more in magnitude,
--           n_marker_labels the labels spelled like a common missing-value marker (NA, N/A,
--           null, ... in any case: const.missing_markers; rated as categories, and a result
--           says so, docs/decisions/0014) and marker_label the first of them by its bytes
--   raters  the distinct raters named on the input rows (a rating or not), in name order, one
--           row each (rater) with n_raters, their number, and n_ratings, the rater's usable
--           ratings (0 when every value it gave is missing); at most MAX_BIT_RATERS + 1 rows:
--           beyond that only their number is of use. The raters with a rating are the ones
--           the statement's DISTINCT over its ratings would find, so a statement may number
--           them from this list instead of reading the ratings again (routes decision
--           rater_list, sql/_rater_codes.sql.j2). n_raters, counting raters without a rating
--           too, sizes the rater bits; the raters a result reports are counted from the
--           units' bits.
-- The categories are listed by sql/ratings_categories.sql.j2 when they cannot be read off
-- here (labels, or numbers that are not a short run of whole numbers).
-- A metric whose key is NULL is a row with a NULL metric (n_rows counts its rows).
WITH
ratings_read AS NOT MATERIALIZED (
  SELECT (NULLIF(CASE WHEN STRLEN((CAST(src."question" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."question" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."question" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS metric,
             (NULLIF(CASE WHEN STRLEN((CAST(src."Module" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."Module" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."Module" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."Module" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."Module" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS slice_0,
    (NULLIF(CASE WHEN STRLEN((CAST(src."item" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."item" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."item" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS item,
    (NULLIF(CASE WHEN STRLEN((CAST(src."rater" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."rater" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."rater" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS rater,

         src."item" AS item_src, src."question" AS metric_src,
             (CASE WHEN STRLEN(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) NOT IN (4, 5) THEN TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'true' THEN 'true' WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'false' THEN 'false' ELSE TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) END COLLATE "binary") AS t,
    CASE WHEN NOT POSITION('_' IN (CAST(src."value" AS VARCHAR) COLLATE "binary")) = 0 THEN NULL
     WHEN ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) >= 9007199254740992.0
          AND ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) <= 1.7976931348623157e+308
          AND TRANSLATE(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")), '0123456789', '') IN ('', '-', '+') THEN NULL
     ELSE TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE) END AS x_raw,
    CASE WHEN src."value" IS NULL THEN 1 ELSE 0 END AS is_null
  FROM "ratings" AS src
),
ratings_states AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater,
         CASE WHEN is_null = 1 OR t = '' OR agreement_isnan(x_raw) THEN 1
              ELSE 0 END AS state,
         x_raw, t, item_src, metric_src
  FROM ratings_read
),
ratings_in AS NOT MATERIALIZED (
  -- x and label only for a rating (state 0): a missing value or a placeholder is neither
  SELECT metric, slice_0, item, rater, state, item_src, metric_src,
         CASE WHEN state = 0 THEN x_raw + 0.0 END AS x,
         CASE WHEN state = 0 AND x_raw IS NULL THEN t END AS label
  FROM ratings_states
),
ratings AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater, x, label, 1 AS n_rows
  FROM ratings_in
  WHERE CASE
    WHEN (item_src IS NULL OR CAST(item_src AS VARCHAR) = '') OR rater IS NULL OR (metric_src IS NULL OR CAST(metric_src AS VARCHAR) = '') OR slice_0 IS NULL
    THEN error(CONCAT('agreement-sql: MissingKeyError: a key (item, rater, metric or slice) is empty (NULL)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', slice_0=', COALESCE(CAST(slice_0 AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND ABS(x) >= 9007199254740992.0
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', CAST(x AS VARCHAR), ' is not a usable number (infinite, or 2^53 or more in magnitude)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', slice_0=', COALESCE(CAST(slice_0 AS VARCHAR), 'NULL'), ')'))
    ELSE state = 0 END
)
,
profile_rater_keys AS (
  -- one aggregation per metric (and slice) and rater, the input's only pass: its rows give the
  -- per-metric totals (profile_keys) and the distinct raters (profile_raters), so the raters
  -- cost no second reading of the rules (at 9M ratings 10% of the profile's time). The raters
  -- of each metric are counted by the statement that follows (its rater bits).
  SELECT r.metric, r.slice_0, r.rater,
         COUNT(*) AS n_rows,
         COUNT(r.x) AS n_numbers,
         COUNT(r.label) AS n_labels,
0 AS n_placeholder,
         COUNT(*) - COUNT(r.item) AS n_null_item,
         COUNT(*) - COUNT(r.rater) AS n_null_rater,
         MIN(r.x) AS x_min,
         MAX(r.x) AS x_max,
         -- FLOOR of a number beyond 2^53 (refused below, n_nonfinite) would overflow on Spark,
         -- whose FLOOR returns BIGINT: a CASE keeps it from being evaluated
         MAX(CASE WHEN ABS(r.x) < 9007199254740992.0 THEN r.x - FLOOR(r.x) END) AS frac_max,
         SUM(CASE WHEN LOWER(r.label) IN ('na', 'n/a', '#n/a', 'null', 'none', 'nil') THEN 1 ELSE 0 END) AS n_marker_labels,
         MIN(CASE WHEN LOWER(r.label) IN ('na', 'n/a', '#n/a', 'null', 'none', 'nil') THEN r.label END) AS marker_label,
         0 AS n_out_of_scale
  FROM ratings_in AS r
  GROUP BY r.metric, r.slice_0, r.rater
),
profile_keys AS (
  SELECT g.metric, g.slice_0,
         SUM(g.n_rows) AS n_rows, SUM(g.n_numbers) AS n_numbers, SUM(g.n_labels) AS n_labels,
         SUM(g.n_placeholder) AS n_placeholder, SUM(g.n_null_item) AS n_null_item,
         SUM(g.n_null_rater) AS n_null_rater, MIN(g.x_min) AS x_min, MAX(g.x_max) AS x_max,
         MAX(g.frac_max) AS frac_max, SUM(g.n_marker_labels) AS n_marker_labels,
         MIN(g.marker_label) AS marker_label, SUM(g.n_out_of_scale) AS n_out_of_scale
  FROM profile_rater_keys AS g
  GROUP BY g.metric, g.slice_0
),
profile_raters AS (
  SELECT rater, n_ratings, COUNT(*) OVER () AS n_raters
  FROM (SELECT rater, SUM(n_numbers + n_labels) AS n_ratings
        FROM profile_rater_keys WHERE rater IS NOT NULL GROUP BY rater) AS d
)
SELECT 'key' AS part, k.metric, k.slice_0, k.n_rows, k.n_numbers, k.n_labels,
       k.n_numbers + k.n_labels AS n_ratings,
       k.n_rows - k.n_numbers - k.n_labels - k.n_placeholder AS n_missing,
       k.n_placeholder,
       CASE WHEN k.n_labels = 0 AND k.x_min >= 0.0 AND k.x_max <= 1.0 AND k.frac_max = 0.0
            THEN 1 ELSE 0 END AS all_zero_one,
       k.n_null_item, k.n_null_rater, CAST(NULL AS BIGINT) AS n_raters, k.x_min, k.x_max, k.frac_max,
       CASE WHEN k.x_min <= -9007199254740992.0 OR k.x_max >= 9007199254740992.0 THEN 1 ELSE 0 END AS n_nonfinite,
0 AS n_outside_domain,
       k.n_out_of_scale, COALESCE(k.n_marker_labels, 0) AS n_marker_labels, k.marker_label,
       CAST(NULL AS VARCHAR) AS rater
FROM profile_keys AS k
UNION ALL
SELECT 'raters', CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR), NULL, NULL, NULL,
       n_ratings, NULL, NULL, NULL, NULL, NULL,
       n_raters, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, rater
FROM (SELECT rater, n_ratings, n_raters FROM profile_raters
      ORDER BY rater LIMIT 497) AS listed
ORDER BY 1, metric, slice_0, rater;
