-- agreement-sql: calibration_sample (duckdb)
-- reads relation: "ratings"
-- parameter: $blank_level = '(blank)'
-- parameter: $seed = 1
-- parameter: $n_pass = 2
-- parameter: $n_fail = 2
-- calibration_sample: the set annotators label for a kappa experiment (seed 003): Dev and Test
--   rows only (never Train), stratified per the stratum column (Scenario), balanced PASS/FAIL by the LLM
--   judge's verdict ($n_pass + $n_fail per stratum; a stratum short of one verdict fills up
--   with the other), drawn by a seeded, portable hash so the same sheet and seed give the same
--   sample on any engine.
-- Source: seed 003 ("No Train data; 50/50 PASS/FAIL; 18 scenarios x 4 samples"). The draw key
--   is a MINSTD (Park & Miller 1988, multiplier 48271 mod 2^31 - 1) mix of ($seed, r), r = the
--   sample's rank by id over the whole sheet, in BIGINT arithmetic (no random(), no hash()).
-- Reads: the sheet (the caller's columns through |ident).
-- Returns, by option part: "rows" the drawn rows (every sheet column, then draw_stratum,
--   draw_verdict, draw_split, draw_key), in draw-key order (a shuffle: verdicts and strata are
--   not grouped); "summary" one row per stratum of the sheet: rows, Train rows, eligible PASS and
--   FAIL, drawn PASS and FAIL and Dev/Test, shortfall, with sheet-wide totals.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(blank_level := '(blank)', seed := 1, n_pass := 2, n_fail := 2);
WITH
sheet AS (
  SELECT src.*,
         CAST(src."Sample_ID" AS VARCHAR) AS draw_id,
         UPPER(TRIM(COALESCE(CAST(src."Dataset_Split" AS VARCHAR), ''))) AS draw_split_key,
         COALESCE(NULLIF(TRIM(CAST(src."Scenario" AS VARCHAR)), ''), $blank_level) AS draw_stratum,
         UPPER(TRIM(COALESCE(CAST(src."LLM_Judge_Verdict" AS VARCHAR), ''))) AS draw_verdict
  FROM "ratings" AS src
),
id_ranks AS (
  -- r: each sample's rank by id over the whole sheet (the hash input; independent of file order)
  SELECT draw_id, ROW_NUMBER() OVER (ORDER BY draw_id) AS r
  FROM (SELECT DISTINCT draw_id FROM sheet) AS d
),
draw_step AS (
  -- h1 = 48271 (seed * 69621 + r mod m) mod m,  m = 2^31 - 1
  SELECT draw_id, r,
         MOD(CAST(48271 AS BIGINT)
             * MOD(CAST($seed AS BIGINT) * 69621 + r, CAST(2147483647 AS BIGINT)),
             CAST(2147483647 AS BIGINT)) AS h1
  FROM id_ranks
),
draw_keys AS (
  -- key = 48271 (h1^2 + r mod m) mod m: a non-linear round so neighbouring ranks scatter
  SELECT draw_id, MOD(CAST(48271 AS BIGINT) * MOD(h1 * h1 + r, CAST(2147483647 AS BIGINT)),
                      CAST(2147483647 AS BIGINT)) AS draw_key
  FROM draw_step
),
eligible AS (
  -- Dev and Test only, never Train; a verdict of PASS or FAIL
  SELECT s.*, k.draw_key
  FROM sheet AS s
  JOIN draw_keys AS k ON k.draw_id = s.draw_id
  WHERE s.draw_split_key IN ('DEV', 'TEST') AND s.draw_verdict IN ('PASS', 'FAIL')
),
available AS (
  SELECT draw_stratum,
         SUM(CASE WHEN draw_verdict = 'PASS' THEN 1 ELSE 0 END) AS available_pass,
         SUM(CASE WHEN draw_verdict = 'FAIL' THEN 1 ELSE 0 END) AS available_fail
  FROM eligible
  GROUP BY draw_stratum
),
quota AS (
  -- take = min(available, target + what the other verdict cannot supply)
  SELECT draw_stratum, available_pass, available_fail,
         LEAST(available_pass, $n_pass
               + GREATEST($n_fail - available_fail, 0)) AS take_pass,
         LEAST(available_fail, $n_fail
               + GREATEST($n_pass - available_pass, 0)) AS take_fail
  FROM available
),
ranked AS (
  SELECT e.*, ROW_NUMBER() OVER (PARTITION BY e.draw_stratum, e.draw_verdict
                                 ORDER BY e.draw_key, e.draw_id) AS draw_rank
  FROM eligible AS e
),
drawn AS (
  SELECT r.*
  FROM ranked AS r
  JOIN quota AS q ON q.draw_stratum = r.draw_stratum
  WHERE r.draw_rank <= CASE WHEN r.draw_verdict = 'PASS' THEN q.take_pass ELSE q.take_fail END
)
SELECT *
FROM drawn
ORDER BY draw_key, draw_id
