-- agreement-sql: krippendorff_alpha (duckdb)
-- reads relation: "ratings"
-- reads relation: "rater_bits"
-- parameter: $category_0
-- parameter: $category_1
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
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(category_0 := ?, category_1 := ?);
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
unit_packed AS (
  -- the category counts of a unit as base-512 digits, five categories per DOUBLE: one SUM
  -- instead of one COUNT per category (a unit has at most 320 raters here, so a digit never
  -- carries; 512^5 < 2^53, so the sums are exact)
  SELECT r.metric, r.slice_0, r.item,
         BIT_OR(c.bit_0) AS or_bit_0, 
         SUM(CASE WHEN r.value_text = CAST($category_0 AS VARCHAR) THEN 1.0 WHEN r.value_text = CAST($category_1 AS VARCHAR) THEN 512.0 END) AS pack_0,
         COUNT(*) AS m_u
  FROM ratings AS r
  LEFT JOIN "rater_bits" AS c ON c.rater = r.rater
  GROUP BY r.metric, r.slice_0, r.item
),
unit_profile AS (
  SELECT metric, slice_0, item,
or_bit_0, 
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 1.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 512.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 262144.0) AS BIGINT) AS n_1,
         m_u
  FROM unit_packed
)
,
units AS (
  SELECT metric, slice_0, item, m_u,
or_bit_0, 
         CAST(NULL AS DOUBLE) AS s1_u,
         CAST(NULL AS DOUBLE) AS s2_u,
n_0 * n_0 + n_1 * n_1 + 0 AS q_u,
         n_0,
         n_1,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS VARCHAR) WHEN n_1 > 0 THEN CAST($category_1 AS VARCHAR) END AS cat_min
         ,
         CAST(NULL AS DOUBLE) AS x_min,
         CAST(NULL AS DOUBLE) AS x_max
  FROM unit_profile
)
,
alpha_patterns AS (
  -- units with the same size and category counts contribute the same terms: with few
  -- categories there are a few hundred such patterns per metric however many units there are,
  -- so the sums below run over patterns weighted by their number of units, w
  SELECT metric, slice_0,
         CASE WHEN item IS NULL THEN NULL ELSE 0 END AS item,
         m_u, q_u, s1_u, s2_u,
n_0, n_1, 
         CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END AS unit_duplicate,
BIT_OR(or_bit_0) AS or_bit_0, 
         COUNT(*) AS w
  FROM units
  GROUP BY metric, slice_0, CASE WHEN item IS NULL THEN NULL ELSE 0 END, m_u, q_u, s1_u, s2_u, n_0, n_1, CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END
),
alpha_wide AS (
  -- wide form (a small domain, sql/_unit_profile.sql.j2), one pass over the unit rows: per
  -- metric over pairable units (m_u >= 2), n_c = sum_u n_uc (one column per category) and the
  -- closed-form unit terms; for ordinal and ratio also the off-diagonal coincidences
  -- o_ij = sum_u n_ui n_uj / (m_u - 1), i < j; and the input checks and raters
  SELECT metric, slice_0, SUM(CASE WHEN m_u >= 2 THEN w ELSE 0 END) AS n_units,
         SUM(CASE WHEN m_u >= 2 THEN w * CAST(m_u * m_u - q_u AS DOUBLE) / NULLIF(m_u - 1, 0) END) AS do_nominal,
         SUM(w * m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN w * m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN slice_0 IS NULL OR 1 = 0 THEN w * m_u ELSE 0 END) AS check_n_null_slice,
         0 AS check_n_not_numeric,
         SUM(w * unit_duplicate) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         SUM(CASE WHEN m_u >= 2 THEN w * n_0 ELSE 0 END) AS nc_0,
         SUM(CASE WHEN m_u >= 2 THEN w * n_1 ELSE 0 END) AS nc_1
  FROM alpha_patterns
  GROUP BY metric, slice_0
),
profile_checks AS (
  -- the statement's input problems, summed over metrics (and slices)
  SELECT SUM(check_n_ratings) AS check_n_ratings,
         SUM(check_n_null_item) AS check_n_null_item,
         SUM(CASE WHEN metric IS NULL THEN check_n_ratings ELSE 0 END) AS check_n_null_metric,
         SUM(check_n_null_slice) AS check_n_null_slice,
         SUM(check_n_not_numeric) AS check_n_not_numeric,
         SUM(check_n_duplicate) AS check_n_duplicate
  FROM alpha_wide
),
alpha_sums AS (
  SELECT metric, slice_0,
         n_units,
         do_nominal AS do_sum,
         CAST((nc_0 + nc_1 + 0) * (nc_0 + nc_1 + 0)
              - (nc_0 * nc_0 + nc_1 * nc_1 + 0) AS DOUBLE) AS de_sum,
         nc_0 + nc_1 + 0 AS n_values,
         CASE WHEN nc_0 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_1 > 0 THEN 1 ELSE 0 END + 0 AS n_categories
  FROM alpha_wide
  WHERE n_units > 0
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  -- from the rater bits (sql/_unit_profile.sql.j2), counted in alpha_wide
  SELECT metric, slice_0, check_n_raters AS n_raters
  FROM alpha_wide
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT metric, slice_0 FROM alpha_wide
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
CROSS JOIN profile_checks
ORDER BY metric, slice_0
