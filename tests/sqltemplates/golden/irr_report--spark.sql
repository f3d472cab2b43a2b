-- agreement-sql: irr_report (spark)
-- reads relation: `ratings`
-- reads relation: `rater_bits`
-- parameter: :default_metric = 'value'
-- parameter: :category_0
-- parameter: :category_1
-- parameter: :category_2
-- parameter: :category_3
-- parameter: :category_4
-- parameter: :likert_lo = 1.0
-- parameter: :likert_hi = 5.0
-- parameter: :adjacent_tolerance = 1.0
-- parameter: :threshold = 75.0
-- parameter: :rating_min = 0.0
-- parameter: :rating_max = 5.0
-- parameter: :extreme_range = 4.0
-- parameter: :max_patterns = 20
-- parameter: :mean_gap = 2.0
-- parameter: :priority_sd = 1.5
-- parameter: :max_traces = 100
-- irr_report: the workshop IRR report in one statement and one pass over the ratings (issue 5):
--   the counts and validation inputs with the input checks (sql/_irr_validation.sql.j2), the
--   scores (sql/_irr_scores.sql.j2), the problematic patterns (sql/_irr_patterns.sql.j2) and
--   the disagreement ranking (sql/_trace_disagreement.sql.j2), each what the statement of the
--   same name returns.
-- Source: seeds 000/001 (SEED_BEHAVIOUR §1). For a small domain and few raters
--   (agreement_sql/profile.py: at most 16 categories, 320 raters): the ratings are aggregated
--   per unit once (sql/_unit_profile.sql.j2: one count column per category, the rater bits'
--   ORs), computed once and read by every part; only the per-rater figures of the patterns read
--   the ratings again (one aggregation into raters x metrics groups). Pairwise % and A^HH come
--   from the unit rows summed per unit size (sql/_unit_sizes.sql.j2), interval alpha from the
--   same unit rows by sql/_alpha.sql.j2 (its wide form; the input checks are irr_validation's).
-- Reads: the ratings relation, the rater bits relation (sql/rater_bits.sql.j2), optionally a
--   declared scales relation. Binds $category_0.. (the profile's categories).
-- Returns: rows tagged by `part`, in order (part_no, ord):
--   validation  one row: num_annotations, num_raters, num_traces, traces_multi, completeness,
--               n_invalid, check_* (agreement_sql.profile.RatingsProfile.verify)
--   scores      irr_scores' columns; the overall row (metric NULL) first
--   patterns    irr_patterns' columns (item as text)
--   traces      trace_disagreement's columns, with the trace in trace_item (its own type)
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
unit_packed AS (
  -- the category counts of a unit as base-512 digits, five categories per DOUBLE: one SUM
  -- instead of one COUNT per category (a unit has at most 320 raters here, so a digit never
  -- carries; 512^5 < 2^53, so the sums are exact)
  SELECT r.metric, r.item,
         BIT_OR(c.bit_0) AS or_bit_0, 
         SUM(CASE WHEN r.x = CAST(:category_0 AS DOUBLE) THEN 1.0 WHEN r.x = CAST(:category_1 AS DOUBLE) THEN 512.0 WHEN r.x = CAST(:category_2 AS DOUBLE) THEN 262144.0 WHEN r.x = CAST(:category_3 AS DOUBLE) THEN 134217728.0 WHEN r.x = CAST(:category_4 AS DOUBLE) THEN 68719476736.0 END) AS pack_0,
         COUNT(*) AS m_u
  FROM ratings AS r
  LEFT JOIN `rater_bits` AS c ON c.rater = r.rater
  GROUP BY r.metric, r.item
),
unit_profile AS  (
  SELECT metric, item,
or_bit_0, 
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 1.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 512.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 262144.0) AS BIGINT) AS n_1,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 262144.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 134217728.0) AS BIGINT) AS n_2,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 134217728.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 68719476736.0) AS BIGINT) AS n_3,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 68719476736.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 35184372088832.0) AS BIGINT) AS n_4,
         m_u
  FROM unit_packed
)
,
units AS (
  SELECT metric, item, m_u,
or_bit_0, 
n_0 * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) + n_2 * CAST(:category_2 AS DOUBLE) + n_3 * CAST(:category_3 AS DOUBLE) + n_4 * CAST(:category_4 AS DOUBLE) + 0.0 AS s1_u,
n_0 * CAST(:category_0 AS DOUBLE) * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) * CAST(:category_1 AS DOUBLE) + n_2 * CAST(:category_2 AS DOUBLE) * CAST(:category_2 AS DOUBLE) + n_3 * CAST(:category_3 AS DOUBLE) * CAST(:category_3 AS DOUBLE) + n_4 * CAST(:category_4 AS DOUBLE) * CAST(:category_4 AS DOUBLE) + 0.0 AS s2_u,
n_0 * n_0 + n_1 * n_1 + n_2 * n_2 + n_3 * n_3 + n_4 * n_4 + 0 AS q_u,
         n_0,
         n_1,
         n_2,
         n_3,
         n_4,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) WHEN n_3 > 0 THEN CAST(:category_3 AS DOUBLE) WHEN n_4 > 0 THEN CAST(:category_4 AS DOUBLE) END AS cat_min
         ,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) WHEN n_3 > 0 THEN CAST(:category_3 AS DOUBLE) WHEN n_4 > 0 THEN CAST(:category_4 AS DOUBLE) END AS x_min,
         CASE WHEN n_4 > 0 THEN CAST(:category_4 AS DOUBLE) WHEN n_3 > 0 THEN CAST(:category_3 AS DOUBLE) WHEN n_2 > 0 THEN CAST(:category_2 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) END AS x_max
  FROM unit_profile
)
,
unit_sizes AS (
  SELECT metric, m_u, COUNT(*) AS n_units,
         SUM(n_0) AS n_0,
         SUM(n_1) AS n_1,
         SUM(n_2) AS n_2,
         SUM(n_3) AS n_3,
         SUM(n_4) AS n_4,
         SUM(n_0 * n_0) AS p_0_0,
         SUM(n_0 * n_1) AS p_0_1,
         SUM(n_0 * n_2) AS p_0_2,
         SUM(n_0 * n_3) AS p_0_3,
         SUM(n_0 * n_4) AS p_0_4,
         SUM(n_1 * n_1) AS p_1_1,
         SUM(n_1 * n_2) AS p_1_2,
         SUM(n_1 * n_3) AS p_1_3,
         SUM(n_1 * n_4) AS p_1_4,
         SUM(n_2 * n_2) AS p_2_2,
         SUM(n_2 * n_3) AS p_2_3,
         SUM(n_2 * n_4) AS p_2_4,
         SUM(n_3 * n_3) AS p_3_3,
         SUM(n_3 * n_4) AS p_3_4,
         SUM(n_4 * n_4) AS p_4_4
  FROM unit_profile
  GROUP BY metric, m_u
)
,
observed_scale AS (
  SELECT metric,
         CASE WHEN SUM(CASE WHEN CAST(:category_0 AS DOUBLE) IN (0.0, 1.0) THEN 0 ELSE n_0 END + CASE WHEN CAST(:category_1 AS DOUBLE) IN (0.0, 1.0) THEN 0 ELSE n_1 END + CASE WHEN CAST(:category_2 AS DOUBLE) IN (0.0, 1.0) THEN 0 ELSE n_2 END + CASE WHEN CAST(:category_3 AS DOUBLE) IN (0.0, 1.0) THEN 0 ELSE n_3 END + CASE WHEN CAST(:category_4 AS DOUBLE) IN (0.0, 1.0) THEN 0 ELSE n_4 END + 0) = 0
              THEN 1 ELSE 0 END AS all_zero_one
  FROM unit_sizes
  GROUP BY metric
),
scale AS (
  SELECT o.metric,
         CASE WHEN o.all_zero_one = 1 THEN 'binary' ELSE 'likert' END AS kind,
         CASE WHEN o.all_zero_one = 1 THEN 0.0 ELSE :likert_lo END AS lo,
         CASE WHEN o.all_zero_one = 1 THEN 1.0 ELSE :likert_hi END AS hi
  FROM observed_scale AS o
)
,
pw_counts AS (
  -- pair counts per metric from the sums per unit size m: pairs m (m - 1) / 2 per unit,
  -- exact (sum_c p_c_c - sum m) / 2, near sum_{c<k, k <= c + t} p_c_k
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN n_units ELSE 0 END) AS n_items_paired,
         CAST(SUM(n_units * m_u * (m_u - 1)) / 2 AS BIGINT) AS n_pairs,
         CAST(SUM(p_0_0 + p_1_1 + p_2_2 + p_3_3 + p_4_4 + 0 - n_units * m_u) / 2 AS BIGINT) AS exact_pairs,
         SUM(CASE WHEN CAST(:category_1 AS DOUBLE) <= CAST(:category_0 AS DOUBLE) + :adjacent_tolerance THEN p_0_1 ELSE 0 END
             + CASE WHEN CAST(:category_2 AS DOUBLE) <= CAST(:category_0 AS DOUBLE) + :adjacent_tolerance THEN p_0_2 ELSE 0 END
             + CASE WHEN CAST(:category_3 AS DOUBLE) <= CAST(:category_0 AS DOUBLE) + :adjacent_tolerance THEN p_0_3 ELSE 0 END
             + CASE WHEN CAST(:category_4 AS DOUBLE) <= CAST(:category_0 AS DOUBLE) + :adjacent_tolerance THEN p_0_4 ELSE 0 END
             + CASE WHEN CAST(:category_2 AS DOUBLE) <= CAST(:category_1 AS DOUBLE) + :adjacent_tolerance THEN p_1_2 ELSE 0 END
             + CASE WHEN CAST(:category_3 AS DOUBLE) <= CAST(:category_1 AS DOUBLE) + :adjacent_tolerance THEN p_1_3 ELSE 0 END
             + CASE WHEN CAST(:category_4 AS DOUBLE) <= CAST(:category_1 AS DOUBLE) + :adjacent_tolerance THEN p_1_4 ELSE 0 END
             + CASE WHEN CAST(:category_3 AS DOUBLE) <= CAST(:category_2 AS DOUBLE) + :adjacent_tolerance THEN p_2_3 ELSE 0 END
             + CASE WHEN CAST(:category_4 AS DOUBLE) <= CAST(:category_2 AS DOUBLE) + :adjacent_tolerance THEN p_2_4 ELSE 0 END
             + CASE WHEN CAST(:category_4 AS DOUBLE) <= CAST(:category_3 AS DOUBLE) + :adjacent_tolerance THEN p_3_4 ELSE 0 END
             + 0) AS near_pairs
  FROM unit_sizes
  GROUP BY metric
),
pw_totals AS (
  SELECT metric, n_items_paired, n_pairs, exact_pairs,
         exact_pairs + near_pairs AS adjacent_pairs
  FROM pw_counts
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
ahh_sizes AS (
  -- per metric and unit size m >= 2: U_m units and sum_u of the unit's pair sum of |h_j - h_i|
  SELECT z.metric, z.m_u, z.n_units,
         COALESCE(z.p_0_1 * ABS(LEAST(GREATEST((CAST(:category_1 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_0 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_0_2 * ABS(LEAST(GREATEST((CAST(:category_2 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_0 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_0_3 * ABS(LEAST(GREATEST((CAST(:category_3 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_0 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_0_4 * ABS(LEAST(GREATEST((CAST(:category_4 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_0 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_1_2 * ABS(LEAST(GREATEST((CAST(:category_2 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_1 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_1_3 * ABS(LEAST(GREATEST((CAST(:category_3 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_1 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_1_4 * ABS(LEAST(GREATEST((CAST(:category_4 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_1 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_2_3 * ABS(LEAST(GREATEST((CAST(:category_3 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_2 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_2_4 * ABS(LEAST(GREATEST((CAST(:category_4 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_2 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + z.p_3_4 * ABS(LEAST(GREATEST((CAST(:category_4 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) - LEAST(GREATEST((CAST(:category_3 AS DOUBLE) - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))
                  + 0.0, 0.0) AS abs_diff_sum
  FROM unit_sizes AS z
  JOIN scale AS s ON z.metric = s.metric
  WHERE z.m_u >= 2
),
human_agreement AS (
  SELECT metric,
         SUM(n_units - abs_diff_sum / NULLIF(m_u * (m_u - 1) / 2.0, 0.0)) / NULLIF(SUM(n_units), 0) AS a_hh,
         SUM(n_units) AS n_samples
  FROM ahh_sizes
  GROUP BY metric
)
,
alpha_patterns AS (
  -- units with the same size and category counts contribute the same terms: with few
  -- categories there are a few hundred such patterns per metric however many units there are,
  -- so the sums below run over patterns weighted by their number of units, w
  SELECT metric,
         CASE WHEN item IS NULL THEN NULL ELSE 0 END AS item,
         m_u, q_u, s1_u, s2_u,
n_0, n_1, n_2, n_3, n_4, 
         CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END AS unit_duplicate,
BIT_OR(or_bit_0) AS or_bit_0, 
         COUNT(*) AS w
  FROM units
  GROUP BY metric, CASE WHEN item IS NULL THEN NULL ELSE 0 END, m_u, q_u, s1_u, s2_u, n_0, n_1, n_2, n_3, n_4, CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END
),
alpha_wide AS (
  -- wide form (a small domain, sql/_unit_profile.sql.j2), one pass over the unit rows: per
  -- metric over pairable units (m_u >= 2), n_c = sum_u n_uc (one column per category) and the
  -- closed-form unit terms; for ordinal and ratio also the off-diagonal coincidences
  -- o_ij = sum_u n_ui n_uj / (m_u - 1), i < j; and the input checks and raters
  SELECT metric, SUM(CASE WHEN m_u >= 2 THEN w ELSE 0 END) AS n_units,
         SUM(CASE WHEN m_u >= 2 THEN w * 2.0 * (m_u * s2_u - s1_u * s1_u) / NULLIF(m_u - 1, 0) END) AS do_interval,
         SUM(CASE WHEN m_u >= 2 THEN w * s1_u END) AS s1,
         SUM(CASE WHEN m_u >= 2 THEN w * s2_u END) AS s2,
         SUM(w * m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN w * m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN 1 = 0 THEN w * m_u ELSE 0 END) AS check_n_null_slice,
         SUM(w * (m_u - n_0 - n_1 - n_2 - n_3 - n_4)) AS check_n_not_numeric,
         SUM(w * unit_duplicate) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         SUM(CASE WHEN m_u >= 2 THEN w * n_0 ELSE 0 END) AS nc_0,
         SUM(CASE WHEN m_u >= 2 THEN w * n_1 ELSE 0 END) AS nc_1,
         SUM(CASE WHEN m_u >= 2 THEN w * n_2 ELSE 0 END) AS nc_2,
         SUM(CASE WHEN m_u >= 2 THEN w * n_3 ELSE 0 END) AS nc_3,
         SUM(CASE WHEN m_u >= 2 THEN w * n_4 ELSE 0 END) AS nc_4
  FROM alpha_patterns
  GROUP BY metric
),
alpha_sums AS (
  SELECT metric,
         n_units,
         do_interval AS do_sum,
         2.0 * ((nc_0 + nc_1 + nc_2 + nc_3 + nc_4 + 0) * s2 - s1 * s1) AS de_sum,
         nc_0 + nc_1 + nc_2 + nc_3 + nc_4 + 0 AS n_values,
         CASE WHEN nc_0 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_1 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_2 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_3 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_4 > 0 THEN 1 ELSE 0 END + 0 AS n_categories
  FROM alpha_wide
  WHERE n_units > 0
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice)
  -- from the rater bits (sql/_unit_profile.sql.j2), counted in alpha_wide
  SELECT metric, check_n_raters AS n_raters
  FROM alpha_wide
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
         COALESCE(primary_score >= :threshold, FALSE) AS acceptable,
         human_agreement, krippendorff_alpha
  FROM per_metric
  UNION ALL
  SELECT NULL AS metric, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi,
         SUM(n_items_paired), SUM(n_pairs), NULL, NULL,
         AVG(primary_score) AS primary_score,
         COALESCE(AVG(primary_score) >= :threshold, FALSE) AS acceptable,
         AVG(human_agreement) AS human_agreement, NULL AS krippendorff_alpha
  FROM per_metric
)
,
trace_raters AS (
  -- distinct raters per trace: the bits set in the OR of its units' rater sets
  SELECT item, BIT_COUNT(BIT_OR(or_bit_0)) + 0 AS n_raters
  FROM unit_profile
  GROUP BY item
),
trace_counts AS (
  SELECT SUM(n_raters) AS num_annotations, COUNT(*) AS num_traces,
         SUM(CASE WHEN n_raters >= 2 THEN 1 ELSE 0 END) AS traces_multi
  FROM trace_raters
),
irr_metrics AS (
  -- per metric: the input checks and each category's total
  SELECT metric, SUM(m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN 1 = 0 THEN m_u ELSE 0 END) AS check_n_null_slice,
         SUM((m_u - n_0 - n_1 - n_2 - n_3 - n_4)) AS check_n_not_numeric,
         SUM(CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         SUM(n_0) AS n_0,
         SUM(n_1) AS n_1,
         SUM(n_2) AS n_2,
         SUM(n_3) AS n_3,
         SUM(n_4) AS n_4
  FROM unit_profile
  GROUP BY metric
),
profile_checks AS (
  -- the statement's input problems, summed over metrics (and slices)
  SELECT SUM(check_n_ratings) AS check_n_ratings,
         SUM(check_n_null_item) AS check_n_null_item,
         SUM(CASE WHEN metric IS NULL THEN check_n_ratings ELSE 0 END) AS check_n_null_metric,
         SUM(check_n_null_slice) AS check_n_null_slice,
         SUM(check_n_not_numeric) AS check_n_not_numeric,
         SUM(check_n_duplicate) AS check_n_duplicate
  FROM irr_metrics
),
irr_ranges AS (
  -- ratings outside the seed's range (no declared scale) or outside the declared scale
  SELECT SUM(CASE WHEN CAST(:category_0 AS DOUBLE) < :rating_min OR CAST(:category_0 AS DOUBLE) > :rating_max THEN t.n_0 ELSE 0 END + CASE WHEN CAST(:category_1 AS DOUBLE) < :rating_min OR CAST(:category_1 AS DOUBLE) > :rating_max THEN t.n_1 ELSE 0 END + CASE WHEN CAST(:category_2 AS DOUBLE) < :rating_min OR CAST(:category_2 AS DOUBLE) > :rating_max THEN t.n_2 ELSE 0 END + CASE WHEN CAST(:category_3 AS DOUBLE) < :rating_min OR CAST(:category_3 AS DOUBLE) > :rating_max THEN t.n_3 ELSE 0 END + CASE WHEN CAST(:category_4 AS DOUBLE) < :rating_min OR CAST(:category_4 AS DOUBLE) > :rating_max THEN t.n_4 ELSE 0 END + 0) AS n_invalid,
         0 AS check_n_out_of_scale
  FROM irr_metrics AS t
),
irr_raters AS (
  SELECT COUNT(*) AS num_raters FROM `rater_bits`
),
irr_validation AS (
  SELECT t.num_annotations, r.num_raters, t.num_traces, t.traces_multi,
         CAST(t.num_annotations AS DOUBLE) / NULLIF(r.num_raters * t.num_traces, 0) AS completeness,
         g.n_invalid, g.check_n_out_of_scale,
         c.check_n_ratings, c.check_n_null_item, c.check_n_null_metric, c.check_n_null_slice,
         c.check_n_not_numeric, c.check_n_duplicate
  FROM trace_counts AS t
  CROSS JOIN irr_raters AS r
  CROSS JOIN irr_ranges AS g
  CROSS JOIN profile_checks AS c
)
,
trace_spread AS (
  -- traces rated twice or more whose ratings differ
  SELECT metric, item, x_max - x_min AS spread
  FROM units
  WHERE m_u >= 2 AND x_max > x_min
),
rater_stats AS (
  SELECT metric, rater, COUNT(*) AS n, MIN(x) AS x_min, MAX(x) AS x_max, AVG(x) AS x_mean
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
     OR (kind <> 'binary' AND spread >= :extreme_range)
),
patterns AS (
  SELECT rs.metric, 1 AS pattern_order, 'constant_rater' AS pattern, rs.rater,
         CAST(NULL AS STRING) AS item, rs.x_min AS x, CAST(NULL AS DOUBLE) AS spread,
         0 AS n_more
  FROM rater_stats AS rs
  WHERE rs.n >= 2 AND rs.x_min = rs.x_max
  UNION ALL
  SELECT metric, 2, pattern, CAST(NULL AS STRING), item, CAST(NULL AS DOUBLE), spread,
         CASE WHEN k = :max_patterns THEN n_flagged - k ELSE 0 END
  FROM trace_flags
  WHERE k <= :max_patterns
  UNION ALL
  SELECT rs.metric, 3, 'rater_means', CAST(NULL AS STRING), CAST(NULL AS STRING),
         CAST(NULL AS DOUBLE), MAX(rs.x_mean) - MIN(rs.x_mean), 0
  FROM rater_stats AS rs
  JOIN scale AS s ON s.metric = rs.metric
  WHERE s.kind <> 'binary'
  GROUP BY rs.metric
  HAVING MAX(rs.x_mean) - MIN(rs.x_mean) >= :mean_gap
)
,
trace_sums AS (
  SELECT metric, item, m_u AS n_ratings, s1_u AS s1, s2_u AS s2, x_min, x_max
  FROM units
  WHERE m_u >= 2
),
trace_sd AS (
  SELECT metric, item, n_ratings, s1 / n_ratings AS mean, x_max - x_min AS spread,
         CASE WHEN x_max = x_min THEN 0.0
              ELSE SQRT(GREATEST(s2 / n_ratings - (s1 / n_ratings) * (s1 / n_ratings), 0.0)) END AS std_dev
  FROM trace_sums
),
trace_top AS (
  SELECT metric, item, n_ratings, mean, spread, std_dev, std_dev > :priority_sd AS priority
  FROM trace_sd
  ORDER BY std_dev DESC, metric, item
  LIMIT :max_traces
)

SELECT 'validation' AS part, 1 AS part_no, 1 AS ord,
       NULL AS metric, NULL AS item, NULL AS rater, NULL AS pattern, NULL AS x, NULL AS spread, NULL AS n_more, NULL AS trace_item, NULL AS n_ratings, NULL AS mean, NULL AS std_dev, NULL AS priority, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi, NULL AS n_items_paired, NULL AS n_pairs, NULL AS exact_agreement, NULL AS adjacent_agreement, NULL AS primary_score, NULL AS acceptable, NULL AS human_agreement, NULL AS krippendorff_alpha, num_annotations AS num_annotations, num_raters AS num_raters, num_traces AS num_traces, traces_multi AS traces_multi, completeness AS completeness, n_invalid AS n_invalid, check_n_ratings AS check_n_ratings, check_n_null_item AS check_n_null_item, check_n_null_metric AS check_n_null_metric, check_n_null_slice AS check_n_null_slice, check_n_not_numeric AS check_n_not_numeric, check_n_duplicate AS check_n_duplicate, check_n_out_of_scale AS check_n_out_of_scale
FROM irr_validation
UNION ALL
SELECT 'scores', 2, ROW_NUMBER() OVER (ORDER BY metric NULLS FIRST),
       metric AS metric, NULL AS item, NULL AS rater, NULL AS pattern, NULL AS x, NULL AS spread, NULL AS n_more, NULL AS trace_item, NULL AS n_ratings, NULL AS mean, NULL AS std_dev, NULL AS priority, is_binary AS is_binary, scale_kind AS scale_kind, scale_lo AS scale_lo, scale_hi AS scale_hi, n_items_paired AS n_items_paired, n_pairs AS n_pairs, exact_agreement AS exact_agreement, adjacent_agreement AS adjacent_agreement, primary_score AS primary_score, acceptable AS acceptable, human_agreement AS human_agreement, krippendorff_alpha AS krippendorff_alpha, NULL AS num_annotations, NULL AS num_raters, NULL AS num_traces, NULL AS traces_multi, NULL AS completeness, NULL AS n_invalid, NULL AS check_n_ratings, NULL AS check_n_null_item, NULL AS check_n_null_metric, NULL AS check_n_null_slice, NULL AS check_n_not_numeric, NULL AS check_n_duplicate, NULL AS check_n_out_of_scale
FROM irr_scores
UNION ALL
SELECT 'patterns', 3, ROW_NUMBER() OVER (ORDER BY metric, pattern_order, rater, item),
       metric AS metric, item AS item, rater AS rater, pattern AS pattern, x AS x, spread AS spread, n_more AS n_more, NULL AS trace_item, NULL AS n_ratings, NULL AS mean, NULL AS std_dev, NULL AS priority, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi, NULL AS n_items_paired, NULL AS n_pairs, NULL AS exact_agreement, NULL AS adjacent_agreement, NULL AS primary_score, NULL AS acceptable, NULL AS human_agreement, NULL AS krippendorff_alpha, NULL AS num_annotations, NULL AS num_raters, NULL AS num_traces, NULL AS traces_multi, NULL AS completeness, NULL AS n_invalid, NULL AS check_n_ratings, NULL AS check_n_null_item, NULL AS check_n_null_metric, NULL AS check_n_null_slice, NULL AS check_n_not_numeric, NULL AS check_n_duplicate, NULL AS check_n_out_of_scale
FROM patterns
UNION ALL
SELECT 'traces', 4, ROW_NUMBER() OVER (ORDER BY std_dev DESC, metric, item),
       metric AS metric, NULL AS item, NULL AS rater, NULL AS pattern, NULL AS x, spread AS spread, NULL AS n_more, item AS trace_item, n_ratings AS n_ratings, mean AS mean, std_dev AS std_dev, priority AS priority, NULL AS is_binary, NULL AS scale_kind, NULL AS scale_lo, NULL AS scale_hi, NULL AS n_items_paired, NULL AS n_pairs, NULL AS exact_agreement, NULL AS adjacent_agreement, NULL AS primary_score, NULL AS acceptable, NULL AS human_agreement, NULL AS krippendorff_alpha, NULL AS num_annotations, NULL AS num_raters, NULL AS num_traces, NULL AS traces_multi, NULL AS completeness, NULL AS n_invalid, NULL AS check_n_ratings, NULL AS check_n_null_item, NULL AS check_n_null_metric, NULL AS check_n_null_slice, NULL AS check_n_not_numeric, NULL AS check_n_duplicate, NULL AS check_n_out_of_scale
FROM trace_top
ORDER BY 2, 3
