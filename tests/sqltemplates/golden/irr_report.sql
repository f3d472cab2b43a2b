-- agreement-sql: irr_report (duckdb)
-- reads relation: "ratings"
-- parameters: set on the lines below (DuckDB variables, read with getvariable())
SET VARIABLE default_metric = 'value';
SET VARIABLE adjacent_tolerance = 1.0;
SET VARIABLE extreme_range = 4.0;
SET VARIABLE max_patterns = 20;
SET VARIABLE mean_gap = 2.0;
SET VARIABLE priority_sd = 1.5;
SET VARIABLE max_traces = 100;
CREATE OR REPLACE TEMP MACRO agreement_fsum(t) AS CAST(SUM(CASE WHEN ABS(t) < 1e18 THEN CAST(ROUND(t * 1073741824.0) AS HUGEINT) WHEN t IS NOT NULL THEN 0 END) AS DOUBLE) / 1073741824.0 + FSUM(CASE WHEN ABS(t) < 1e18 THEN t - ROUND(t * 1073741824.0) / 1073741824.0 ELSE t END);
CREATE OR REPLACE TEMP MACRO agreement_isnan(x) AS (NOT ISFINITE(x) AND NOT ISINF(x));
-- irr_report: the workshop IRR report (seeds 000/001) in one statement over one per-unit
--   aggregation of the ratings: the counts the seed validates, the scores (pairwise %, A^HH,
--   interval alpha), the problematic patterns and the disagreement ranking.
-- Source: seeds 000 and 001 (docs/workflows.md lists the seed's rules this follows); the scores
--   through the shared partials: sql/_pairwise_sums.sql.j2 + _pairwise.sql.j2 and
--   sql/_alpha_sums.sql.j2 + _alpha.sql.j2 (interval), in the form the plan chose (wide: a
--   count column per rating value; counts: continuous scores, windows over sorted ratings).
-- Reads: the ratings relation and the scales relation (every question's scale, declared or
--   detected). An annotation is one (trace, rater) pair: the raters of a trace are the bits set
--   in the OR of its units' rater bits (sql/_rater_codes.sql.j2), or counted per block of rater
--   codes when there are more raters than bit columns.
-- Returns: rows tagged by `part`, in order (part_no, ord):
--   validation  one row: num_annotations, num_raters, num_traces, traces_multi, completeness,
--               and the unit counts (n_duplicate_units: the caller refuses the report)
--   scores      per question, and the overall row (metric NULL) first
--   patterns    constant raters, split or extreme traces (at most $max_patterns per question,
--               n_more counting the rest), rater means that differ by $mean_gap or more
--   traces      population sigma per trace and question, the $max_traces largest
WITH
ratings_read AS NOT MATERIALIZED (
  SELECT getvariable('default_metric') AS metric,
             (NULLIF(CASE WHEN STRLEN((CAST(src."item" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."item" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."item" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS item,
    (NULLIF(CASE WHEN STRLEN((CAST(src."rater" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."rater" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."rater" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS rater,

         src."item" AS item_src,
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
  SELECT metric, item, rater,
         CASE WHEN is_null = 1 OR t = '' OR agreement_isnan(x_raw) THEN 1
              ELSE 0 END AS state,
         x_raw, t, item_src
  FROM ratings_read
),
ratings_in AS NOT MATERIALIZED (
  -- x and label only for a rating (state 0): a missing value or a placeholder is neither
  SELECT metric, item, rater, state, item_src,
         CASE WHEN state = 0 THEN x_raw + 0.0 END AS x,
         CASE WHEN state = 0 AND x_raw IS NULL THEN t END AS label
  FROM ratings_states
),
ratings AS NOT MATERIALIZED (
  SELECT metric, item, rater, x, label, 1 AS n_rows
  FROM ratings_in
  WHERE CASE
    WHEN (item_src IS NULL OR CAST(item_src AS VARCHAR) = '') OR rater IS NULL OR getvariable('default_metric') IS NULL
    THEN error(CONCAT('agreement-sql: MissingKeyError: a key (item, rater, metric or slice) is empty (NULL)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND ABS(x) >= 9007199254740992.0
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', CAST(x AS VARCHAR), ' is not a usable number (infinite, or 2^53 or more in magnitude)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND label IS NOT NULL
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', label, ' is not a number, which this statement needs', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST(getvariable('default_metric') AS VARCHAR), 'NULL'), ')'))
    ELSE state = 0 END
)
,
rater_codes AS (
  SELECT rater, code,
         CAST(FLOOR(code / 62) AS BIGINT) AS block,
         CAST(POWER(2, code % 62) AS BIGINT) AS bit
  FROM (
    SELECT rater, ROW_NUMBER() OVER (ORDER BY rater) - 1 AS code
    FROM (SELECT DISTINCT rater FROM ratings) AS d
  ) AS numbered
  -- the duplicate check counts the rater bits of rater_blocks blocks: a rater beyond them
  -- would look like a repeated rating
  WHERE CASE WHEN code >= 62
             THEN error(CONCAT('agreement-sql: OptionError: more than ', CAST(62 AS VARCHAR), ' raters (rater ', rater, ' is number ', CAST(code + 1 AS VARCHAR), '): render with more rater_blocks'))
             ELSE TRUE END
)
,
counts AS (
  -- n_uc: how many raters gave category c (x or label) to unit u
  SELECT r.metric, r.item AS item, r.x, r.label,
                  BIT_OR(CASE WHEN c.block = 0 THEN c.bit ELSE 0 END) AS or_0,

COUNT(*) AS n_rows_uc,
         COUNT(*) AS n_uc
  FROM ratings AS r
    LEFT JOIN rater_codes AS c ON c.rater = r.rater

  GROUP BY r.metric, r.item, r.x, r.label
),
unit_sums AS (
  SELECT c.metric, c.item AS item,
BIT_OR(or_0) AS or_0, 
         SUM(n_uc) AS m_u,
         SUM(n_rows_uc) AS n_rows_u,         agreement_fsum(n_uc * x) AS s1_u,
         agreement_fsum(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(x) AS lone_x,
         MIN(label) AS lone_label,
         COUNT(*) AS n_values_u
  FROM counts AS c
  GROUP BY c.metric, c.item
),
units AS (
  SELECT u.*, CASE WHEN m_u > CAST(BIT_COUNT(or_0) AS BIGINT) + 0 THEN CASE WHEN error(CONCAT('agreement-sql: DuplicateRatingError: a rater rated (item=', COALESCE(CAST(item AS VARCHAR), 'NULL'), ', metric=', COALESCE(metric, 'NULL'), ') more than once; keep one rating per (item, rater) or pass on_duplicate= to the Python API')) THEN 1 END ELSE 0 END AS dup_u
  FROM unit_sums AS u
),

unit_counts AS (
  SELECT u.metric, COUNT(*) AS n_units, SUM(u.m_u) AS n_ratings,
         SUM(CASE WHEN u.m_u = 1 THEN 1 ELSE 0 END) AS n_single,
         SUM(u.n_rows_u - u.m_u) AS n_merged,
         SUM(u.dup_u) AS n_duplicate_units,
         CAST(BIT_COUNT(BIT_OR(u.or_0)) AS BIGINT) + 0 AS n_raters
  FROM units AS u
  
  GROUP BY u.metric
)
,
scale AS (
  SELECT metric,
         CASE WHEN COUNT(label) = 0 AND MIN(x) >= 0.0 AND MAX(x) <= 1.0
                   AND MAX(CASE WHEN ABS(x) < 9007199254740992.0 THEN x - FLOOR(x) END) = 0.0
              THEN 'binary' ELSE 'likert' END AS kind,
         CAST(CASE WHEN COUNT(label) = 0 AND MIN(x) >= 0.0 AND MAX(x) <= 1.0
                   AND MAX(CASE WHEN ABS(x) < 9007199254740992.0 THEN x - FLOOR(x) END) = 0.0
              THEN 0.0 ELSE 1.0 END AS DOUBLE) AS lo,
         CAST(CASE WHEN COUNT(label) = 0 AND MIN(x) >= 0.0 AND MAX(x) <= 1.0
                   AND MAX(CASE WHEN ABS(x) < 9007199254740992.0 THEN x - FLOOR(x) END) = 0.0
              THEN 1.0 ELSE 5.0 END AS DOUBLE) AS hi
  FROM ratings
  GROUP BY metric
)
,
value_window_rows AS (
  SELECT r.metric, r.item,
         RANK() OVER (PARTITION BY r.metric, r.item ORDER BY r.x) AS rank_k,
         COUNT(*) OVER (PARTITION BY r.metric, r.item ORDER BY r.x
                        RANGE BETWEEN UNBOUNDED PRECEDING AND getvariable('adjacent_tolerance') FOLLOWING) AS near_k,
         ROW_NUMBER() OVER (PARTITION BY r.metric, r.item ORDER BY r.x) AS row_k,
         LEAST(GREATEST((r.x - s.lo) / NULLIF(s.hi - s.lo, 0.0), 0.0), 1.0) AS h
  FROM ratings AS r
  JOIN scale AS s ON s.metric = r.metric
),
value_windows AS (
  SELECT metric, item, COUNT(*) AS m_u,
         CAST(COUNT(*) * (COUNT(*) + 1) / 2 - SUM(rank_k) AS BIGINT) AS exact_u,
         CAST(SUM(near_k) - COUNT(*) * (COUNT(*) + 1) / 2 AS BIGINT) AS adjacent_u,
         2.0 * agreement_fsum(h * row_k) - (COUNT(*) + 1) * agreement_fsum(h) AS spread_u
  FROM value_window_rows
  GROUP BY metric, item
  HAVING COUNT(*) >= 2
),
pairwise_sums AS (
  SELECT metric,
         COUNT(*) AS n_items_paired,
         CAST(SUM(m_u * (m_u - 1)) / 2 AS BIGINT) AS n_pairs,
         SUM(exact_u) AS exact_pairs,
         SUM(adjacent_u) AS adjacent_pairs
  FROM value_windows
  GROUP BY metric
),
ahh_sums AS (
  SELECT metric, COUNT(*) AS n_samples,
         agreement_fsum(1.0 - spread_u / (m_u * (m_u - 1) / 2.0)) AS a_sum
  FROM value_windows
  GROUP BY metric
)
,
pairwise AS (
  SELECT k.metric, s.kind AS scale_kind, s.lo AS scale_lo, s.hi AS scale_hi,
         COALESCE(p.n_items_paired, 0) AS n_items_paired, COALESCE(p.n_pairs, 0) AS n_pairs,
         COALESCE(p.exact_pairs, 0) AS exact_pairs, COALESCE(p.adjacent_pairs, 0) AS adjacent_pairs,
         100.0 * CAST(p.exact_pairs AS DOUBLE) / NULLIF(p.n_pairs, 0) AS exact_agreement,
         100.0 * CAST(p.adjacent_pairs AS DOUBLE) / NULLIF(p.n_pairs, 0) AS adjacent_agreement,
         100.0 * CAST(CASE WHEN s.kind = 'binary' THEN p.exact_pairs ELSE p.adjacent_pairs END AS DOUBLE)
           / NULLIF(p.n_pairs, 0) AS primary_score,
         h.a_sum / NULLIF(h.n_samples, 0) AS human_agreement,
         COALESCE(h.n_samples, 0) AS n_samples
  FROM unit_counts AS k
  JOIN scale AS s ON s.metric = k.metric
  LEFT JOIN pairwise_sums AS p ON k.metric = p.metric
  LEFT JOIN ahh_sums AS h ON k.metric = h.metric
)
,
alpha_marginals AS (
  -- n_c over pairable units = the counts' total less the lone values of units rated once
  SELECT metric, x, label, SUM(n) AS n_c
  FROM (
    SELECT metric, x, label, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, lone_x, lone_label, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, x, label
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  SELECT metric, COUNT(*) AS n_units,
         agreement_fsum(2.0 * (m_u * s2_u - s1_u * s1_u) / NULLIF(m_u - 1, 0)) AS do_sum
  FROM units
  WHERE m_u >= 2
  GROUP BY metric
),
alpha_totals AS (
  SELECT metric, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, agreement_fsum(n_c * x) AS s1, agreement_fsum(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric
),
alpha_sums AS (
  SELECT t.metric, p.n_units,
         p.do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values, t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
)
,
krippendorff_alpha AS (
  SELECT k.metric,
         'krippendorff_alpha' AS coefficient,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM unit_counts AS k
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric
)
,
per_metric AS (
  SELECT p.metric,
         p.scale_kind = 'binary' AS is_binary,
         p.scale_kind, p.scale_lo, p.scale_hi,
         p.n_items_paired, p.n_pairs,
         p.exact_agreement, p.adjacent_agreement, p.primary_score,
         p.human_agreement,
         GREATEST(LEAST(a.value, 1.0), -1.0) AS krippendorff_alpha
  FROM pairwise AS p
  LEFT JOIN krippendorff_alpha AS a ON p.metric = a.metric
),
irr_scores AS (
  SELECT metric, is_binary, scale_kind, scale_lo, scale_hi, n_items_paired, n_pairs,
         exact_agreement, adjacent_agreement, primary_score,
         human_agreement, krippendorff_alpha
  FROM per_metric
  UNION ALL
  SELECT NULL AS metric, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi,
         SUM(n_items_paired), SUM(n_pairs), NULL, NULL,
         agreement_fsum(primary_score) / NULLIF(COUNT(primary_score), 0) AS primary_score,
         agreement_fsum(human_agreement) / NULLIF(COUNT(human_agreement), 0) AS human_agreement, NULL AS krippendorff_alpha
  FROM per_metric
)
,
trace_raters AS (
  -- distinct raters per trace over every question
  SELECT CAST(BIT_COUNT(BIT_OR(or_0)) AS BIGINT) + 0 AS n_raters
  FROM units
  -- a trace: its units grouped by the item column as it is where the route keeps it (unit_keys)
  GROUP BY item
),
irr_validation AS (
  SELECT t.num_annotations, r.num_raters, t.num_traces, t.traces_multi,
         CAST(t.num_annotations AS DOUBLE) / NULLIF(r.num_raters * t.num_traces, 0) AS completeness,
         u.n_duplicate_units, u.n_merged
  FROM (
    SELECT SUM(n_raters) AS num_annotations, COUNT(*) AS num_traces,
           SUM(CASE WHEN n_raters >= 2 THEN 1 ELSE 0 END) AS traces_multi
    FROM trace_raters
  ) AS t
  CROSS JOIN (
    -- the raters with a rating: the bits set in the OR of every unit's (rater_codes may also
    -- number raters the profile saw without a rating)
    SELECT COALESCE(CAST(BIT_COUNT(BIT_OR(or_0)) AS BIGINT) + 0, 0) AS num_raters FROM units
  ) AS r
  CROSS JOIN (
    SELECT SUM(n_duplicate_units) AS n_duplicate_units, SUM(n_merged) AS n_merged FROM unit_counts
  ) AS u
),
trace_sums AS (
  -- traces rated twice or more: their ratings' sums and range
  SELECT metric, item, m_u AS n_ratings, s1_u AS s1, s2_u AS s2, x_min, x_max
  FROM units
  WHERE m_u >= 2
),
trace_spread AS (
  -- traces rated twice or more whose ratings differ
  SELECT metric, item, x_max - x_min AS spread
  FROM trace_sums
  WHERE x_max > x_min
),
rater_stats AS (
  SELECT metric, rater, COUNT(*) AS n, MIN(x) AS x_min, MAX(x) AS x_max, agreement_fsum(x) / COUNT(x) AS x_mean
  FROM ratings
  GROUP BY metric, rater
),
trace_stats AS (
  SELECT t.metric, t.item, t.spread, s.kind
  FROM trace_spread AS t
  JOIN scale AS s ON s.metric = t.metric
),
trace_flags AS (
  SELECT metric, item, spread,
         CASE WHEN kind = 'binary' THEN 'split_trace' ELSE 'extreme_trace' END AS pattern,
         ROW_NUMBER() OVER (PARTITION BY metric ORDER BY item) AS k,
         COUNT(*) OVER (PARTITION BY metric) AS n_flagged
  FROM trace_stats
  WHERE (kind = 'binary' AND spread > 0)
     OR (kind <> 'binary' AND spread >= getvariable('extreme_range'))
),
patterns AS (
  SELECT rs.metric, 1 AS pattern_order, 'constant_rater' AS pattern, rs.rater,
         CAST(NULL AS VARCHAR) AS item, rs.x_min AS x, CAST(NULL AS DOUBLE) AS spread,
         0 AS n_more
  FROM rater_stats AS rs
  WHERE rs.n >= 2 AND rs.x_min = rs.x_max
  UNION ALL
  SELECT metric, 2, pattern, CAST(NULL AS VARCHAR), CAST(item AS VARCHAR), CAST(NULL AS DOUBLE), spread,
         CASE WHEN k = getvariable('max_patterns') THEN n_flagged - k ELSE 0 END
  FROM trace_flags
  WHERE k <= getvariable('max_patterns')
  UNION ALL
  SELECT rs.metric, 3, 'rater_means', CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR),
         CAST(NULL AS DOUBLE), MAX(rs.x_mean) - MIN(rs.x_mean), 0
  FROM rater_stats AS rs
  JOIN scale AS s ON s.metric = rs.metric
  WHERE s.kind <> 'binary'
  GROUP BY rs.metric
  HAVING MAX(rs.x_mean) - MIN(rs.x_mean) >= getvariable('mean_gap')
)
,
trace_sd AS (
  SELECT metric, item, n_ratings, s1 / n_ratings AS mean, x_max - x_min AS spread,
         CASE WHEN x_max = x_min THEN 0.0
              ELSE SQRT(GREATEST(s2 / n_ratings - (s1 / n_ratings) * (s1 / n_ratings), 0.0)) END AS std_dev
  FROM trace_sums
),
trace_top AS (
  SELECT metric, item, n_ratings, mean, spread, std_dev, std_dev > getvariable('priority_sd') AS priority
  FROM trace_sd
  ORDER BY std_dev DESC, metric, item
  LIMIT getvariable('max_traces')
)

SELECT 'traces' AS part, 4 AS part_no, ROW_NUMBER() OVER (ORDER BY std_dev DESC, metric, item) AS ord,
       metric AS metric, CAST(NULL AS VARCHAR) AS item, CAST(NULL AS VARCHAR) AS rater, CAST(NULL AS VARCHAR) AS pattern, CAST(NULL AS DOUBLE) AS x, spread AS spread, CAST(NULL AS BIGINT) AS n_more, item AS trace_item, n_ratings AS n_ratings, mean AS mean, std_dev AS std_dev, priority AS priority, CAST(NULL AS BOOLEAN) AS is_binary, CAST(NULL AS VARCHAR) AS scale_kind, CAST(NULL AS DOUBLE) AS scale_lo, CAST(NULL AS DOUBLE) AS scale_hi, CAST(NULL AS BIGINT) AS n_items_paired, CAST(NULL AS BIGINT) AS n_pairs, CAST(NULL AS DOUBLE) AS exact_agreement, CAST(NULL AS DOUBLE) AS adjacent_agreement, CAST(NULL AS DOUBLE) AS primary_score, CAST(NULL AS DOUBLE) AS human_agreement, CAST(NULL AS DOUBLE) AS krippendorff_alpha, CAST(NULL AS BIGINT) AS num_annotations, CAST(NULL AS BIGINT) AS num_raters, CAST(NULL AS BIGINT) AS num_traces, CAST(NULL AS BIGINT) AS traces_multi, CAST(NULL AS DOUBLE) AS completeness, CAST(NULL AS BIGINT) AS n_duplicate_units, CAST(NULL AS BIGINT) AS n_merged
FROM trace_top
UNION ALL
SELECT 'validation', 1, 1,
       CAST(NULL AS VARCHAR) AS metric, CAST(NULL AS VARCHAR) AS item, CAST(NULL AS VARCHAR) AS rater, CAST(NULL AS VARCHAR) AS pattern, CAST(NULL AS DOUBLE) AS x, CAST(NULL AS DOUBLE) AS spread, CAST(NULL AS BIGINT) AS n_more, NULL AS trace_item, CAST(NULL AS BIGINT) AS n_ratings, CAST(NULL AS DOUBLE) AS mean, CAST(NULL AS DOUBLE) AS std_dev, CAST(NULL AS BOOLEAN) AS priority, CAST(NULL AS BOOLEAN) AS is_binary, CAST(NULL AS VARCHAR) AS scale_kind, CAST(NULL AS DOUBLE) AS scale_lo, CAST(NULL AS DOUBLE) AS scale_hi, CAST(NULL AS BIGINT) AS n_items_paired, CAST(NULL AS BIGINT) AS n_pairs, CAST(NULL AS DOUBLE) AS exact_agreement, CAST(NULL AS DOUBLE) AS adjacent_agreement, CAST(NULL AS DOUBLE) AS primary_score, CAST(NULL AS DOUBLE) AS human_agreement, CAST(NULL AS DOUBLE) AS krippendorff_alpha, num_annotations AS num_annotations, num_raters AS num_raters, num_traces AS num_traces, traces_multi AS traces_multi, completeness AS completeness, n_duplicate_units AS n_duplicate_units, n_merged AS n_merged
FROM irr_validation
UNION ALL
SELECT 'scores', 2, ROW_NUMBER() OVER (ORDER BY metric NULLS FIRST),
       metric AS metric, CAST(NULL AS VARCHAR) AS item, CAST(NULL AS VARCHAR) AS rater, CAST(NULL AS VARCHAR) AS pattern, CAST(NULL AS DOUBLE) AS x, CAST(NULL AS DOUBLE) AS spread, CAST(NULL AS BIGINT) AS n_more, NULL AS trace_item, CAST(NULL AS BIGINT) AS n_ratings, CAST(NULL AS DOUBLE) AS mean, CAST(NULL AS DOUBLE) AS std_dev, CAST(NULL AS BOOLEAN) AS priority, is_binary AS is_binary, scale_kind AS scale_kind, scale_lo AS scale_lo, scale_hi AS scale_hi, n_items_paired AS n_items_paired, n_pairs AS n_pairs, exact_agreement AS exact_agreement, adjacent_agreement AS adjacent_agreement, primary_score AS primary_score, human_agreement AS human_agreement, krippendorff_alpha AS krippendorff_alpha, CAST(NULL AS BIGINT) AS num_annotations, CAST(NULL AS BIGINT) AS num_raters, CAST(NULL AS BIGINT) AS num_traces, CAST(NULL AS BIGINT) AS traces_multi, CAST(NULL AS DOUBLE) AS completeness, CAST(NULL AS BIGINT) AS n_duplicate_units, CAST(NULL AS BIGINT) AS n_merged
FROM irr_scores
UNION ALL
SELECT 'patterns', 3, ROW_NUMBER() OVER (ORDER BY metric, pattern_order, rater, item),
       metric AS metric, item AS item, rater AS rater, pattern AS pattern, x AS x, spread AS spread, n_more AS n_more, NULL AS trace_item, CAST(NULL AS BIGINT) AS n_ratings, CAST(NULL AS DOUBLE) AS mean, CAST(NULL AS DOUBLE) AS std_dev, CAST(NULL AS BOOLEAN) AS priority, CAST(NULL AS BOOLEAN) AS is_binary, CAST(NULL AS VARCHAR) AS scale_kind, CAST(NULL AS DOUBLE) AS scale_lo, CAST(NULL AS DOUBLE) AS scale_hi, CAST(NULL AS BIGINT) AS n_items_paired, CAST(NULL AS BIGINT) AS n_pairs, CAST(NULL AS DOUBLE) AS exact_agreement, CAST(NULL AS DOUBLE) AS adjacent_agreement, CAST(NULL AS DOUBLE) AS primary_score, CAST(NULL AS DOUBLE) AS human_agreement, CAST(NULL AS DOUBLE) AS krippendorff_alpha, CAST(NULL AS BIGINT) AS num_annotations, CAST(NULL AS BIGINT) AS num_raters, CAST(NULL AS BIGINT) AS num_traces, CAST(NULL AS BIGINT) AS traces_multi, CAST(NULL AS DOUBLE) AS completeness, CAST(NULL AS BIGINT) AS n_duplicate_units, CAST(NULL AS BIGINT) AS n_merged
FROM patterns
ORDER BY 2, 3;
