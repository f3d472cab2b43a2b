-- agreement-sql: krippendorff_alpha (duckdb)
-- reads relation: "ratings"
-- krippendorff_alpha: Krippendorff's alpha per metric (and slice) at one level of measurement.
-- Source: Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability; the
--   coincidence-matrix sums are in sql/_alpha.sql.j2, the bootstrap in sql/_bootstrap.sql.j2.
-- Reads: the ratings relation (item, rater, value[, metric]); missing ratings have no row;
--   optionally a declared value domain (sql/_domain.sql.j2).
-- Returns: one row per metric (and slice): value, observed/expected disagreement, n_items,
--   n_raters, n_values, n_categories[, replicate, se, ci_low, ci_high, n_boot_valid].
-- One pass: with a ratings profile (agreement_sql/profile.py) the per-unit aggregation also
--   counts the input problems (profile_checks, returned as check_* columns) and, for a small
--   domain, counts each category in its own column (sql/_unit_profile.sql.j2).
-- Undefined: alpha is NULL when no unit has two ratings; 1.0 when one category is all there is.
WITH
ratings_in AS NOT MATERIALIZED (
  SELECT
    CAST(src."question" AS VARCHAR) AS metric,
    CAST(src."Module" AS VARCHAR) AS slice_0,
    src."item" AS item,
    CAST(src."rater" AS VARCHAR) AS rater,
    CAST(src."value" AS VARCHAR) AS value_text,
    TRY_CAST(src."value" AS DOUBLE) AS x
  FROM "ratings" AS src
  WHERE src."value" IS NOT NULL
),
ratings AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater, value_text, x
  FROM ratings_in
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
alpha_ranks AS (
  -- F_c: cumulative n_g over categories up to and including c (ordinal ranks)
  SELECT metric, slice_0, cat, x, n_c,
         SUM(n_c) OVER (PARTITION BY metric, slice_0 ORDER BY x
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS f_c
  FROM alpha_marginals
),
alpha_value_pairs AS MATERIALIZED (
  -- the pairs of distinct values within each unit, with their counts (a join over values,
  -- not raters); computed once so the rank lookups below join to a finished table
  SELECT a.metric, a.slice_0, a.item, a.cat AS cat_a, b.cat AS cat_b, a.n_uc * b.n_uc AS n_ab
  FROM counts AS a
  JOIN counts AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.item = b.item AND a.x < b.x
),
alpha_pair_terms AS (
  -- per unit: sum_{c<k} n_uc n_uk d2_ck
  SELECT v.metric, v.slice_0, v.item, SUM(v.n_ab * POWER((rb.x - ra.x) / NULLIF(rb.x + ra.x, 0.0), 2)) AS pair_sum
  FROM alpha_value_pairs AS v
  JOIN alpha_ranks AS ra ON v.metric = ra.metric AND v.slice_0 = ra.slice_0 AND ra.cat = v.cat_a
  JOIN alpha_ranks AS rb ON v.metric = rb.metric AND v.slice_0 = rb.slice_0 AND rb.cat = v.cat_b
  GROUP BY v.metric, v.slice_0, v.item
),
alpha_observed AS (
  -- sum_ck o_ck d2_ck = 2 sum_u pair_sum_u / (m_u - 1); a unit with two values has m_u >= 2
  SELECT p.metric, p.slice_0, SUM(2.0 * p.pair_sum / (u.m_u - 1)) AS do_sum
  FROM alpha_pair_terms AS p
  JOIN units AS u ON p.metric = u.metric AND p.slice_0 = u.slice_0 AND p.item = u.item
  GROUP BY p.metric, p.slice_0
),
alpha_expected AS (
  -- sum_ck n_c n_k d2_ck = 2 sum_{c<k} n_c n_k d2_ck
  SELECT a.metric, a.slice_0, SUM(2.0 * a.n_c * b.n_c * POWER((b.x - a.x) / NULLIF(b.x + a.x, 0.0), 2)) AS de_sum
  FROM alpha_ranks AS a
  JOIN alpha_ranks AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.x < b.x
  GROUP BY a.metric, a.slice_0
),
alpha_sums AS (
  SELECT t.metric, t.slice_0,
         p.n_units,
         COALESCE(o.do_sum, 0.0) AS do_sum,
         COALESCE(e.de_sum, 0.0) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric AND t.slice_0 = p.slice_0
  LEFT JOIN alpha_observed AS o ON t.metric = o.metric AND t.slice_0 = o.slice_0
  LEFT JOIN alpha_expected AS e ON t.metric = e.metric AND t.slice_0 = e.slice_0
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

SELECT *
FROM alpha
ORDER BY metric, slice_0
