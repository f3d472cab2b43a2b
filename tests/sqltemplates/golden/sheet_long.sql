-- agreement-sql: sheet_long (duckdb)
-- reads relation: "ratings"
-- parameter: $blank_level = '(blank)'
-- parameter: $rater_0 = 'Annotator_1'
-- parameter: $rater_1 = 'Annotator_2'
-- parameter: $dimension_0 = 'Module'
-- parameter: $default_metric = 'value'
-- sheet_long: the evaluation sheet (seed 003) read once into a temporary table of canonical
--   ratings: one row per (breakdown, sample, labelling column) with the label upper-cased and
--   trimmed; an empty cell is a missing label and has no row.
-- Source: seed 003 (Cohen's kappa human evaluation sheet): labels PASS/FAIL compared
--   case-insensitively; Train rows never enter the kappa set unless include_train.
-- Reads: the sheet (the caller's columns through |ident: id, split, labelling columns, breakdowns).
-- Writes: a TEMP table (metric, slice_0 = breakdown column or 'overall', slice_1 = its value or
--   'all', item = sample id, rater = $rater_<i>, value_text, x NULL, row_no = sheet row).
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(blank_level := '(blank)', rater_0 := 'Annotator_1', rater_1 := 'Annotator_2', dimension_0 := 'Module', default_metric := 'value');
CREATE TEMP TABLE "sheet_canonical" AS
WITH
sheet_rows AS (
  SELECT ROW_NUMBER() OVER () AS row_no,
         CAST(src."Sample_ID" AS VARCHAR) AS item,
         COALESCE(NULLIF(TRIM(CAST(src."Module" AS VARCHAR)), ''), $blank_level) AS dim_0,
         UPPER(TRIM(CAST(src."Annotator_1_Label" AS VARCHAR))) AS label_0,
         UPPER(TRIM(CAST(src."Annotator_2_Label" AS VARCHAR))) AS label_1,
         UPPER(TRIM(COALESCE(CAST(src."Dataset_Split" AS VARCHAR), ''))) AS split_key
  FROM "ratings" AS src
),
sheet_kept AS (
  -- Train rows (few-shot examples) never enter the kappa set
  SELECT * FROM sheet_rows WHERE split_key <> 'TRAIN'
),
sheet_labels AS (
  SELECT row_no, item, $rater_0 AS rater, label_0 AS value_text
  FROM sheet_kept
  WHERE label_0 IS NOT NULL AND label_0 <> ''
  UNION ALL
  SELECT row_no, item, $rater_1 AS rater, label_1 AS value_text
  FROM sheet_kept
  WHERE label_1 IS NOT NULL AND label_1 <> ''
),
sheet_breakdowns AS (
  SELECT row_no, 'overall' AS dimension, 'all' AS level FROM sheet_kept
  UNION ALL
  SELECT row_no, $dimension_0 AS dimension, dim_0 AS level
  FROM sheet_kept
)
SELECT $default_metric AS metric, b.dimension AS slice_0, b.level AS slice_1,
       l.item, l.rater, l.value_text, CAST(NULL AS DOUBLE) AS x, l.row_no
FROM sheet_labels AS l
JOIN sheet_breakdowns AS b ON b.row_no = l.row_no
