-- agreement-sql: sheet_disagreements (duckdb)
-- reads relation: "ratings"
-- parameter: $rater_0 = 'Annotator_1'
-- parameter: $rater_1 = 'Annotator_2'
-- parameter: $dimension_0 = 'Module'
-- sheet_disagreements: the samples for the consensus round: those on which the annotators'
--   labels differ, with every labelling column and each sample's breakdown values.
-- Source: seed 003 ("Compare Annotator_1_Label vs Annotator_2_Label; for disagreements, discuss").
-- Reads: the canonical sheet table written by sheet_long.sql.j2 (the 'overall' rows to find the
--   disagreements, the breakdown rows for each sample's split, module, scenario).
-- Returns: one row per (sample, labelling column) of the disagreeing samples, in sheet order,
--   with level_<i> = the sample's value of breakdown $dimension_<i>.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(rater_0 := 'Annotator_1', rater_1 := 'Annotator_2', dimension_0 := 'Module');
WITH
overall AS (
  SELECT item, rater, value_text, row_no
  FROM "ratings"
  WHERE slice_0 = 'overall'
),
disagreeing AS (
  SELECT item, MIN(row_no) AS row_no
  FROM overall
  WHERE rater IN ($rater_0, $rater_1)
  GROUP BY item
  HAVING COUNT(DISTINCT value_text) > 1
),
levels AS (
  SELECT item
,
         MIN(CASE WHEN slice_0 = $dimension_0 THEN slice_1 END) AS level_0

  FROM "ratings"
  GROUP BY item
)
SELECT d.row_no, d.item, o.rater, o.value_text, l.level_0
FROM disagreeing AS d
JOIN overall AS o ON o.item = d.item
JOIN levels AS l ON l.item = d.item
ORDER BY d.row_no, o.rater
