-- agreement-sql: sheet_examples (duckdb)
-- reads relation: "ratings"
-- parameter: $column_0 = 'Annotator_1_Label'
-- parameter: $column_1 = 'Annotator_2_Label'
-- parameter: $max_examples = 5
-- sheet_examples: a few rows that show an evaluation-sheet problem found by sheet_checks:
--   problem "invalid" (a label that is neither empty nor PASS/FAIL), "duplicate_id", "missing_id".
-- Source: seed 003. Reads: the sheet (the caller's columns through |ident).
-- Returns: up to $max_examples rows: row_no (1-based data row), item, column_index, value.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(column_0 := 'Annotator_1_Label', column_1 := 'Annotator_2_Label', max_examples := 5);
WITH
sheet_rows AS (
  SELECT ROW_NUMBER() OVER () AS row_no,
         CAST(src."Sample_ID" AS VARCHAR) AS item
,
         CAST(src."Annotator_1_Label" AS VARCHAR) AS label_0
,
         CAST(src."Annotator_2_Label" AS VARCHAR) AS label_1

  FROM "ratings" AS src
),
problems AS (
  SELECT row_no, item, $column_0 AS column_name, label_0 AS value
  FROM sheet_rows
  WHERE UPPER(TRIM(label_0)) NOT IN ('PASS', 'FAIL')
    AND TRIM(label_0) <> ''
  UNION ALL
  SELECT row_no, item, $column_1 AS column_name, label_1 AS value
  FROM sheet_rows
  WHERE UPPER(TRIM(label_1)) NOT IN ('PASS', 'FAIL')
    AND TRIM(label_1) <> ''
)
SELECT row_no, item, column_name, value
FROM problems
ORDER BY row_no, column_name
LIMIT $max_examples
