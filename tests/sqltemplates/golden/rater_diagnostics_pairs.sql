-- agreement-sql: rater_diagnostics_pairs (duckdb)
-- reads relation: "ratings"
-- rater_diagnostics_pairs: the pairwise agreement matrix: for every two raters, the units
--   both rated, exact agreement %, mean absolute difference, mean offset (a - b) and
--   Krippendorff's alpha of the two alone (sql/_alpha.sql.j2).
-- Source: pairwise agreement (seed 001) and Krippendorff (2011), one rater pair at a time.
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2
--   with regroup_expand = "pairs" (the last two slices name the pair, rater_a < rater_b).
-- Returns: one row per metric, group and rater pair.
-- Undefined: percentages, offsets and alpha NULL when the two share no unit.
WITH
regroup_base AS (
  SELECT t.metric,
         t.item,
         t.rater, t.value_text, t.x, t.row_no
  FROM "ratings" AS t
),
regroup_raters AS (
  SELECT DISTINCT metric, rater
  FROM regroup_base
),
regrouped AS (
  -- every rating once for each rater pair (rater_a < rater_b) it belongs to
  SELECT b.metric, p.rater_a AS slice_0,
         p.rater_b AS slice_1, b.item, b.rater, b.value_text, b.x, b.row_no
  FROM regroup_base AS b
  JOIN (
    SELECT a.metric, a.rater AS rater_a, c.rater AS rater_b
    FROM regroup_raters AS a
    JOIN regroup_raters AS c
      ON a.metric = c.metric
     AND a.rater < c.rater
  ) AS p
    ON b.metric = p.metric
   AND (b.rater = p.rater_a OR b.rater = p.rater_b)
)
,
ratings AS NOT MATERIALIZED (
  SELECT metric, slice_0, slice_1, item, rater, value_text, x
  FROM regrouped
)
,
counts AS (
  SELECT metric, slice_0, slice_1, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, slice_0, slice_1, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, slice_0, slice_1, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, slice_0, slice_1, item
)
,
alpha_units AS (
  -- pairable units: two or more ratings
  SELECT * FROM units WHERE m_u >= 2
),
alpha_marginals AS (
  -- n_c: how often category c occurs among pairable values = its count over all units less
  -- the lone values of single-rated units (no join of counts with units)
  SELECT metric, slice_0, slice_1, cat, MIN(x) AS x, SUM(n) AS n_c
  FROM (
    SELECT metric, slice_0, slice_1, cat, x, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, slice_0, slice_1, cat_min, x_min, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, slice_0, slice_1, cat
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  -- per unit terms of the closed forms, summed
  SELECT metric, slice_0, slice_1, COUNT(*) AS n_units,
         SUM(CAST(m_u * m_u - q_u AS DOUBLE) / (m_u - 1)) AS do_nominal,
         SUM(2.0 * (m_u * s2_u - s1_u * s1_u) / (m_u - 1)) AS do_interval
  FROM alpha_units
  GROUP BY metric, slice_0, slice_1
),
alpha_totals AS (
  SELECT metric, slice_0, slice_1, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, SUM(n_c * x) AS s1, SUM(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric, slice_0, slice_1
),
alpha_sums AS (
  SELECT t.metric, t.slice_0, t.slice_1,
         p.n_units,
         p.do_interval AS do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric AND t.slice_0 = p.slice_0 AND t.slice_1 = p.slice_1
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  SELECT metric, slice_0, slice_1, COUNT(DISTINCT rater) AS n_raters
  FROM ratings
  GROUP BY metric, slice_0, slice_1
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT DISTINCT metric, slice_0, slice_1 FROM units
),
alpha AS (
  -- alpha = 1 - D_o / D_e,  D_o = sum o_ck d2 / n,  D_e = sum n_c n_k d2 / (n (n - 1))
  SELECT k.metric, k.slice_0, k.slice_1,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         r.n_raters,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM alpha_keys AS k
  JOIN alpha_raters AS r ON k.metric = r.metric AND k.slice_0 = r.slice_0 AND k.slice_1 = r.slice_1
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric AND k.slice_0 = s.slice_0 AND k.slice_1 = s.slice_1
)
,
pair_units AS (
  -- the units both raters of the pair rated
  SELECT a.metric, a.slice_0, a.slice_1, a.item,
         CASE WHEN a.x = b.x THEN 1 ELSE 0 END AS same,
         a.x - b.x AS diff
  FROM ratings AS a
  JOIN ratings AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.slice_1 = b.slice_1 AND a.item = b.item
  WHERE a.rater = a.slice_0 AND b.rater = b.slice_1
),
pair_stats AS (
  SELECT metric, slice_0, slice_1, COUNT(*) AS n_items,
         100.0 * CAST(SUM(same) AS DOUBLE) / NULLIF(COUNT(*), 0) AS exact_agreement,
         AVG(ABS(diff)) AS mean_abs_difference,
         AVG(diff) AS mean_offset
  FROM pair_units
  GROUP BY metric, slice_0, slice_1
)
SELECT a.metric, a.slice_0 AS rater_a,
       a.slice_1 AS rater_b,
       COALESCE(p.n_items, 0) AS n_items, p.exact_agreement, p.mean_abs_difference, p.mean_offset,
       a.value AS alpha
FROM alpha AS a
LEFT JOIN pair_stats AS p ON a.metric = p.metric AND a.slice_0 = p.slice_0 AND a.slice_1 = p.slice_1
ORDER BY a.metric, a.slice_0, a.slice_1
