-- agreement-sql: rater_diagnostics_loo (duckdb)
-- reads relation: "ratings"
-- rater_diagnostics_loo: Krippendorff's alpha of each group with one rater left out ("alpha
--   if rater deleted"): a rater whose removal raises alpha is the one to talk to.
-- Source: Krippendorff (2011) through sql/_alpha.sql.j2, run once per left-out rater.
-- Reads: the canonical ratings table (materialize_ratings output), re-keyed by _regroup.sql.j2
--   with regroup_expand = "leave_one_out" (the last slice names the rater left out).
-- Returns: one row per metric, group and left-out rater: alpha_without, units and values left.
-- Undefined: alpha_without NULL when no unit keeps two ratings without that rater.
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
  -- every rating once for each other rater e of its metric and slice: the group "without e"
  SELECT b.metric, e.rater AS slice_0,
         b.item, b.rater, b.value_text, b.x, b.row_no
  FROM regroup_base AS b
  JOIN regroup_raters AS e
    ON b.metric = e.metric
   AND b.rater <> e.rater
)
,
ratings AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater, value_text, x
  FROM regrouped
)
,
counts AS (
  SELECT metric, slice_0, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, slice_0, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, slice_0, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, slice_0, item
)
,
alpha_units AS (
  -- pairable units: two or more ratings
  SELECT * FROM units WHERE m_u >= 2
),
alpha_marginals AS (
  -- n_c: how often category c occurs among pairable values = its count over all units less
  -- the lone values of single-rated units (no join of counts with units)
  SELECT metric, slice_0, cat, MIN(x) AS x, SUM(n) AS n_c
  FROM (
    SELECT metric, slice_0, cat, x, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, slice_0, cat_min, x_min, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, slice_0, cat
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  -- per unit terms of the closed forms, summed
  SELECT metric, slice_0, COUNT(*) AS n_units,
         SUM(CAST(m_u * m_u - q_u AS DOUBLE) / (m_u - 1)) AS do_nominal,
         SUM(2.0 * (m_u * s2_u - s1_u * s1_u) / (m_u - 1)) AS do_interval
  FROM alpha_units
  GROUP BY metric, slice_0
),
alpha_totals AS (
  SELECT metric, slice_0, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, SUM(n_c * x) AS s1, SUM(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric, slice_0
),
alpha_sums AS (
  SELECT t.metric, t.slice_0,
         p.n_units,
         p.do_interval AS do_sum,
         2.0 * (t.n_values * t.s2 - t.s1 * t.s1) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric AND t.slice_0 = p.slice_0
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  SELECT metric, slice_0, COUNT(DISTINCT rater) AS n_raters
  FROM ratings
  GROUP BY metric, slice_0
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT DISTINCT metric, slice_0 FROM units
),
alpha AS (
  -- alpha = 1 - D_o / D_e,  D_o = sum o_ck d2 / n,  D_e = sum n_c n_k d2 / (n (n - 1))
  SELECT k.metric, k.slice_0,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         r.n_raters,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM alpha_keys AS k
  JOIN alpha_raters AS r ON k.metric = r.metric AND k.slice_0 = r.slice_0
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric AND k.slice_0 = s.slice_0
)

SELECT a.metric, a.slice_0 AS left_out,
       a.value AS alpha_without, a.n_items, a.n_values
FROM alpha AS a
ORDER BY a.metric, a.slice_0
