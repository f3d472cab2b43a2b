-- agreement-sql: sheet_checks (duckdb)
-- reads relation: "ratings"
-- sheet_checks: what makes an evaluation sheet (seed 003) unusable, counted in one scan, and
--   what it holds: rows, Train rows left out, labels per labelling column.
-- Source: seed 003; labels are PASS or FAIL in any case, an empty cell is a missing label.
-- Reads: the sheet (the caller's columns through |ident).
-- Returns: one row: n_rows, n_train, n_missing_id, n_duplicate_id (ids on two or more rows),
--   n_invalid (label cells that are neither empty nor PASS/FAIL), and per labelling column i
--   n_labels_<i> (labels on the rows kept) and n_invalid_<i>.
WITH
sheet_rows AS (
  SELECT CAST(src."Sample_ID" AS VARCHAR) AS item,
         UPPER(TRIM(COALESCE(CAST(src."Dataset_Split" AS VARCHAR), ''))) AS split_key,
         UPPER(TRIM(CAST(src."Annotator_1_Label" AS VARCHAR))) AS label_0,
         UPPER(TRIM(CAST(src."Annotator_2_Label" AS VARCHAR))) AS label_1
  FROM "ratings" AS src
),
sheet_ids AS (
  SELECT COUNT(*) AS n_duplicate_id
  FROM (SELECT item FROM sheet_rows WHERE item IS NOT NULL GROUP BY item HAVING COUNT(*) > 1) AS d
)
SELECT COUNT(*) AS n_rows,
       SUM(CASE WHEN r.split_key = 'TRAIN' THEN 1 ELSE 0 END) AS n_train,
       SUM(CASE WHEN r.item IS NULL OR TRIM(r.item) = '' THEN 1 ELSE 0 END) AS n_missing_id,
       MIN(d.n_duplicate_id) AS n_duplicate_id,
       SUM(CASE WHEN r.label_0 NOT IN ('PASS', 'FAIL') AND r.label_0 <> '' THEN 1 ELSE 0 END) AS n_invalid_0,
       SUM(CASE WHEN r.label_0 IN ('PASS', 'FAIL')
AND r.split_key <> 'TRAIN' THEN 1 ELSE 0 END) AS n_labels_0,
       SUM(CASE WHEN r.label_1 NOT IN ('PASS', 'FAIL') AND r.label_1 <> '' THEN 1 ELSE 0 END) AS n_invalid_1,
       SUM(CASE WHEN r.label_1 IN ('PASS', 'FAIL')
AND r.split_key <> 'TRAIN' THEN 1 ELSE 0 END) AS n_labels_1,
       SUM(CASE WHEN r.label_0 NOT IN ('PASS', 'FAIL') AND r.label_0 <> '' THEN 1 ELSE 0 END
           + CASE WHEN r.label_1 NOT IN ('PASS', 'FAIL') AND r.label_1 <> '' THEN 1 ELSE 0 END) AS n_invalid
FROM sheet_rows AS r
CROSS JOIN sheet_ids AS d
