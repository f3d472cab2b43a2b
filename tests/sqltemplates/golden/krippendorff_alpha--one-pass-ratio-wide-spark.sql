-- agreement-sql: krippendorff_alpha (spark)
-- reads relation: `ratings`
-- parameter: :default_metric = 'value'
-- parameter: :category_0
-- parameter: :category_1
-- parameter: :category_2
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
ratings_in AS  (
  SELECT
    :default_metric AS metric,
    src.`item` AS item,
    CAST(src.`rater` AS STRING) AS rater,
    CAST(src.`value` AS STRING) AS value_text,
    TRY_CAST(src.`value` AS DOUBLE) AS x
  FROM `ratings` AS src
  WHERE src.`value` IS NOT NULL
),
ratings AS  (
  SELECT metric, item, rater, value_text, x
  FROM ratings_in
)
,
unit_profile AS (
  SELECT r.metric, r.item,
         COUNT(CASE WHEN r.x = CAST(:category_0 AS DOUBLE) THEN 1 END) AS n_0,
         COUNT(CASE WHEN r.x = CAST(:category_1 AS DOUBLE) THEN 1 END) AS n_1,
         COUNT(CASE WHEN r.x = CAST(:category_2 AS DOUBLE) THEN 1 END) AS n_2,
         COUNT(*) AS m_u
  FROM ratings AS r
  GROUP BY r.metric, r.item
)
,
units AS (
  SELECT metric, item, m_u,
n_0 * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) + n_2 * CAST(:category_2 AS DOUBLE) + 0.0 AS s1_u,
n_0 * CAST(:category_0 AS DOUBLE) * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) * CAST(:category_1 AS DOUBLE) + n_2 * CAST(:category_2 AS DOUBLE) * CAST(:category_2 AS DOUBLE) + 0.0 AS s2_u,
n_0 * n_0 + n_1 * n_1 + n_2 * n_2 + 0 AS q_u,
         n_0,
         n_1,
         n_2,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) END AS cat_min
         ,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) END AS x_min,
         CASE WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) END AS x_max
  FROM unit_profile
)
,
alpha_patterns AS (
  -- units with the same size and category counts contribute the same terms: with few
  -- categories there are a few hundred such patterns per metric however many units there are,
  -- so the sums below run over patterns weighted by their number of units, w
  SELECT metric,
         CASE WHEN item IS NULL THEN NULL ELSE 0 END AS item,
         m_u, q_u, s1_u, s2_u,
n_0, n_1, n_2, 
         COUNT(*) AS w
  FROM units
  GROUP BY metric, CASE WHEN item IS NULL THEN NULL ELSE 0 END, m_u, q_u, s1_u, s2_u, n_0, n_1, n_2
),
alpha_wide AS (
  -- wide form (a small domain, sql/_unit_profile.sql.j2), one pass over the unit rows: per
  -- metric over pairable units (m_u >= 2), n_c = sum_u n_uc (one column per category) and the
  -- closed-form unit terms; for ordinal and ratio also the off-diagonal coincidences
  -- o_ij = sum_u n_ui n_uj / (m_u - 1), i < j
  SELECT metric, SUM(CASE WHEN m_u >= 2 THEN w ELSE 0 END) AS n_units,
         SUM(CASE WHEN m_u >= 2 THEN w * CAST(n_0 * n_1 AS DOUBLE) / NULLIF(m_u - 1, 0) END) AS o_0_1,
         SUM(CASE WHEN m_u >= 2 THEN w * CAST(n_0 * n_2 AS DOUBLE) / NULLIF(m_u - 1, 0) END) AS o_0_2,
         SUM(CASE WHEN m_u >= 2 THEN w * CAST(n_1 * n_2 AS DOUBLE) / NULLIF(m_u - 1, 0) END) AS o_1_2,
         SUM(CASE WHEN m_u >= 2 THEN w * n_0 ELSE 0 END) AS nc_0,
         SUM(CASE WHEN m_u >= 2 THEN w * n_1 ELSE 0 END) AS nc_1,
         SUM(CASE WHEN m_u >= 2 THEN w * n_2 ELSE 0 END) AS nc_2
  FROM alpha_patterns
  GROUP BY metric
),
alpha_sums AS (
  SELECT metric,
         n_units,
2.0 * o_0_1 * COALESCE(POWER((CAST(:category_1 AS DOUBLE) - CAST(:category_0 AS DOUBLE)) / NULLIF(CAST(:category_1 AS DOUBLE) + CAST(:category_0 AS DOUBLE), 0.0), 2), 0.0) + 2.0 * o_0_2 * COALESCE(POWER((CAST(:category_2 AS DOUBLE) - CAST(:category_0 AS DOUBLE)) / NULLIF(CAST(:category_2 AS DOUBLE) + CAST(:category_0 AS DOUBLE), 0.0), 2), 0.0) + 2.0 * o_1_2 * COALESCE(POWER((CAST(:category_2 AS DOUBLE) - CAST(:category_1 AS DOUBLE)) / NULLIF(CAST(:category_2 AS DOUBLE) + CAST(:category_1 AS DOUBLE), 0.0), 2), 0.0) + 0.0 AS do_sum,
2.0 * nc_0 * nc_1 * COALESCE(POWER((CAST(:category_1 AS DOUBLE) - CAST(:category_0 AS DOUBLE)) / NULLIF(CAST(:category_1 AS DOUBLE) + CAST(:category_0 AS DOUBLE), 0.0), 2), 0.0) + 2.0 * nc_0 * nc_2 * COALESCE(POWER((CAST(:category_2 AS DOUBLE) - CAST(:category_0 AS DOUBLE)) / NULLIF(CAST(:category_2 AS DOUBLE) + CAST(:category_0 AS DOUBLE), 0.0), 2), 0.0) + 2.0 * nc_1 * nc_2 * COALESCE(POWER((CAST(:category_2 AS DOUBLE) - CAST(:category_1 AS DOUBLE)) / NULLIF(CAST(:category_2 AS DOUBLE) + CAST(:category_1 AS DOUBLE), 0.0), 2), 0.0) + 0.0 AS de_sum,
         nc_0 + nc_1 + nc_2 + 0 AS n_values,
         CASE WHEN nc_0 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_1 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_2 > 0 THEN 1 ELSE 0 END + 0 AS n_categories
  FROM alpha_wide
  WHERE n_units > 0
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  SELECT metric, COUNT(DISTINCT rater) AS n_raters
  FROM ratings
  GROUP BY metric
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT metric FROM alpha_wide
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

SELECT *
FROM alpha
ORDER BY metric
