-- agreement-sql: irr_scores (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $likert_lo = 1.0
-- parameter: $likert_hi = 5.0
-- parameter: $adjacent_tolerance = 1.0
-- parameter: $threshold = 75.0
-- irr_scores: the workshop IRR report's numbers, per metric and overall, in one statement.
-- Source: seeds 000 (GDPval A^HH) and 001 (pairwise agreement IRR); SEED_BEHAVIOUR §1.
-- Reads: the ratings relation (numeric ratings) and optionally a declared scales relation.
-- Returns: one row per metric (primary = exact for binary, adjacent otherwise; acceptable =
--   primary >= $threshold on the unrounded value; interval alpha clamped to [-1, 1]) and one
--   overall row (metric NULL): the unweighted means over metrics of primary score and A^HH.
-- Undefined: NULL scores for a metric without any unit rated twice; such metrics are left out
--   of the overall means.
-- Forms (same numbers; agreement_sql/reports/irr.py picks one from the ratings profile):
--   default      counts per (item, value) and the pairs of distinct values per item
--   window_form  continuous scores (more distinct values than the wide cap): pair counts and
--                A^HH from windows over each item's sorted ratings (sql/_value_windows.sql.j2)
--   (few values and raters: the one-pass report, sql/irr_report.sql.j2, from wide counts)
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', likert_lo := 1.0, likert_hi := 5.0, adjacent_tolerance := 1.0, threshold := 75.0);
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
counts AS (
  SELECT metric, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, item
)
,
value_pairs AS (
  SELECT lo.metric, lo.item,
         lo.cat AS cat_lo, hi.cat AS cat_hi,
         lo.x AS x_lo, hi.x AS x_hi,
         lo.n_uc AS n_lo, hi.n_uc AS n_hi
  FROM counts AS lo
  JOIN counts AS hi
    ON lo.metric = hi.metric AND lo.item = hi.item AND lo.cat < hi.cat
)
,
observed_scale AS (
  SELECT metric,
         MIN(CASE WHEN x = 0 OR x = 1 THEN 1 ELSE 0 END) AS all_zero_one
  FROM counts
  GROUP BY metric
),
scale AS (
  SELECT o.metric,
         CASE WHEN o.all_zero_one = 1 THEN 'binary' ELSE 'likert' END AS kind,
         CASE WHEN o.all_zero_one = 1 THEN 0.0 ELSE $likert_lo END AS lo,
         CASE WHEN o.all_zero_one = 1 THEN 1.0 ELSE $likert_hi END AS hi
  FROM observed_scale AS o
)
,
pw_near AS (
  SELECT metric, SUM(n_lo * n_hi) AS near_pairs
  FROM value_pairs
  WHERE x_hi <= x_lo + $adjacent_tolerance
  GROUP BY metric
),
pw_units AS (
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items_paired,
         CAST(SUM(m_u * (m_u - 1)) / 2 AS BIGINT) AS n_pairs,
         CAST(SUM(q_u - m_u) / 2 AS BIGINT) AS exact_pairs
  FROM units
  GROUP BY metric
),
pw_totals AS (
  SELECT t.metric, t.n_items_paired, t.n_pairs, t.exact_pairs,
         t.exact_pairs + COALESCE(n.near_pairs, 0) AS adjacent_pairs
  FROM pw_units AS t
  LEFT JOIN pw_near AS n ON t.metric = n.metric
),
pairwise AS (
  SELECT metric,
         n_items_paired,
         n_pairs,
         exact_pairs,
         adjacent_pairs,
         100.0 * CAST(exact_pairs AS DOUBLE) / NULLIF(n_pairs, 0) AS exact_agreement,
         100.0 * CAST(adjacent_pairs AS DOUBLE) / NULLIF(n_pairs, 0) AS adjacent_agreement
  FROM pw_totals
)
,
ahh_spread AS (
  SELECT v.metric, v.item,
         SUM(v.n_lo * v.n_hi * ABS(
             LEAST(GREATEST((v.x_hi - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0)
           - LEAST(GREATEST((v.x_lo - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))) AS abs_diff_sum
  FROM value_pairs AS v
  JOIN scale AS s ON v.metric = s.metric
  GROUP BY v.metric, v.item
),
ahh_units AS (
  SELECT u.metric, u.item,
         1.0 - COALESCE(d.abs_diff_sum, 0.0) / (u.m_u * (u.m_u - 1) / 2.0) AS a_u
  FROM units AS u
  LEFT JOIN ahh_spread AS d ON u.metric = d.metric AND d.item = u.item
  WHERE u.m_u >= 2
),
human_agreement AS (
  SELECT metric, AVG(a_u) AS a_hh, COUNT(*) AS n_samples
  FROM ahh_units
  GROUP BY metric
)
,
alpha_units AS (
  -- pairable units: two or more ratings
  SELECT * FROM units WHERE m_u >= 2
),
alpha_marginals AS (
  -- n_c: how often category c occurs among pairable values = its count over all units less
  -- the lone values of single-rated units (no join of counts with units)
  SELECT metric, cat, MIN(x) AS x, SUM(n) AS n_c
  FROM (
    SELECT metric, cat, x, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, cat_min, x_min, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, cat
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  -- per unit terms of the closed forms, summed
  SELECT metric, COUNT(*) AS n_units,
         SUM(CAST(m_u * m_u - q_u AS DOUBLE) / (m_u - 1)) AS do_nominal,
         SUM(2.0 * (m_u * s2_u - s1_u * s1_u) / (m_u - 1)) AS do_interval
  FROM alpha_units
  GROUP BY metric
),
alpha_totals AS (
  SELECT metric, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, SUM(n_c * x) AS s1, SUM(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric
),
alpha_sums AS (
  SELECT t.metric,
         p.n_units,
         p.do_interval AS do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  SELECT metric, COUNT(DISTINCT rater) AS n_raters
  FROM ratings
  GROUP BY metric
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT DISTINCT metric FROM units
),
alpha AS (
  -- alpha = 1 - D_o / D_e,  D_o = sum o_ck d2 / n,  D_e = sum n_c n_k d2 / (n (n - 1))
  SELECT k.metric,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         r.n_raters,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM alpha_keys AS k
  JOIN alpha_raters AS r ON k.metric = r.metric
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric
)
,
per_metric AS (
  SELECT s.metric,
         s.kind = 'binary' AS is_binary,
         s.kind AS scale_kind, s.lo AS scale_lo, s.hi AS scale_hi,
         p.n_items_paired, p.n_pairs,
         p.exact_agreement, p.adjacent_agreement,
         CASE WHEN s.kind = 'binary' THEN p.exact_agreement ELSE p.adjacent_agreement END AS primary_score,
         h.a_hh AS human_agreement,
         GREATEST(LEAST(a.value, 1.0), -1.0) AS krippendorff_alpha
  FROM scale AS s
  LEFT JOIN pairwise AS p ON s.metric = p.metric
  LEFT JOIN human_agreement AS h ON s.metric = h.metric
  LEFT JOIN alpha AS a ON s.metric = a.metric
),
irr_scores AS (
  SELECT metric, is_binary, scale_kind, scale_lo, scale_hi, n_items_paired, n_pairs,
         exact_agreement, adjacent_agreement, primary_score,
         COALESCE(primary_score >= $threshold, FALSE) AS acceptable,
         human_agreement, krippendorff_alpha
  FROM per_metric
  UNION ALL
  SELECT NULL AS metric, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi,
         SUM(n_items_paired), SUM(n_pairs), NULL, NULL,
         AVG(primary_score) AS primary_score,
         COALESCE(AVG(primary_score) >= $threshold, FALSE) AS acceptable,
         AVG(human_agreement) AS human_agreement, NULL AS krippendorff_alpha
  FROM per_metric
)

SELECT *
FROM irr_scores
ORDER BY 1 NULLS FIRST
