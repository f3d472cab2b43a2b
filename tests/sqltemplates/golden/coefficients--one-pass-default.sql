-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- reads relation: "rater_bits"
-- parameter: $default_metric = 'value'
-- parameter: $category_0
-- parameter: $category_1
-- parameter: $category_2
-- parameter: $pair_max_raters = 10
-- parameter: $z = 1.959963984540054
-- coefficients: several agreement coefficients per metric (and slice) in one statement.
-- Source: the partials of each coefficient (sql/_cohen, _scott, _fleiss, _conger, _gwet_ac1,
--   _brennan_prediger, _percent_agreement, _alpha .sql.j2), sharing one ratings scan and counts.
-- Reads: the ratings relation; option `which` lists the coefficients (template names).
-- Returns: one row per metric (and slice), columns <coefficient>__<column> for each one.
--   With option ci, the analytic <coefficient>__se, __ci_low, __ci_high (alpha has none); with
--   ci or bootstrap, Cohen's test of kappa = 0: cohen_kappa__se0, __z, __p_one_sided, __p_value; with
--   option bootstrap, every coefficient's percentile interval (sql/_bootstrap.sql.j2, included
--   once per coefficient as <coefficient>_boot) over the same replicates: the point estimates
--   are replicate 0 of the same pass, <coefficient>__se, __ci_low, __ci_high, __n_boot_valid.
-- One pass (option wide_categories: unweighted, no bootstrap, a small domain; agreement_sql/
--   profile.py): one per-unit aggregation (sql/_unit_profile.sql.j2) counts each category in
--   its own column and the input problems (check_* columns); Fleiss, Gwet, Brennan-Prediger and
--   percent agreement come from the unit rows (sql/_kappa_wide.sql.j2), alpha from them too
--   (alpha_wide, which then also counts the problems and raters), Conger's shared terms as
--   well (kappa_from_wide); Cohen, Light and Scott read the ratings as before.
-- Option pair_max_raters (coefficients() with its default `which`): Cohen/Light and Scott only
--   for the metrics (and slices) with at most $pair_max_raters raters; <name>__skipped = 1 and
--   <name>__metric_raters (the raters counted) say where they were left out.
-- Undefined: each coefficient's own rule (NULL when no item is rated twice).
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', category_0 := ?, category_1 := ?, category_2 := ?, pair_max_raters := 10, z := 1.959963984540054);
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
unit_packed AS (
  -- the category counts of a unit as base-512 digits, five categories per DOUBLE: one SUM
  -- instead of one COUNT per category (a unit has at most 320 raters here, so a digit never
  -- carries; 512^5 < 2^53, so the sums are exact)
  SELECT r.metric, r.item,
         BIT_OR(c.bit_0) AS or_bit_0, 
         SUM(CASE WHEN r.x = CAST($category_0 AS DOUBLE) THEN 1.0 WHEN r.x = CAST($category_1 AS DOUBLE) THEN 512.0 WHEN r.x = CAST($category_2 AS DOUBLE) THEN 262144.0 END) AS pack_0,
         COUNT(*) AS m_u
  FROM ratings AS r
  LEFT JOIN "rater_bits" AS c ON c.rater = r.rater
  GROUP BY r.metric, r.item
),
unit_profile AS (
  SELECT metric, item,
or_bit_0, 
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 1.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 512.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 262144.0) AS BIGINT) AS n_1,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 262144.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 134217728.0) AS BIGINT) AS n_2,
         m_u
  FROM unit_packed
)
,
units AS (
  SELECT metric, item, m_u,
or_bit_0, 
n_0 * CAST($category_0 AS DOUBLE) + n_1 * CAST($category_1 AS DOUBLE) + n_2 * CAST($category_2 AS DOUBLE) + 0.0 AS s1_u,
n_0 * CAST($category_0 AS DOUBLE) * CAST($category_0 AS DOUBLE) + n_1 * CAST($category_1 AS DOUBLE) * CAST($category_1 AS DOUBLE) + n_2 * CAST($category_2 AS DOUBLE) * CAST($category_2 AS DOUBLE) + 0.0 AS s2_u,
n_0 * n_0 + n_1 * n_1 + n_2 * n_2 + 0 AS q_u,
         n_0,
         n_1,
         n_2,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST($category_2 AS DOUBLE) END AS cat_min
         ,
         CASE WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) WHEN n_2 > 0 THEN CAST($category_2 AS DOUBLE) END AS x_min,
         CASE WHEN n_2 > 0 THEN CAST($category_2 AS DOUBLE) WHEN n_1 > 0 THEN CAST($category_1 AS DOUBLE) WHEN n_0 > 0 THEN CAST($category_0 AS DOUBLE) END AS x_max
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
         CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END AS unit_duplicate,
BIT_OR(or_bit_0) AS or_bit_0, 
         COUNT(*) AS w
  FROM units
  GROUP BY metric, CASE WHEN item IS NULL THEN NULL ELSE 0 END, m_u, q_u, s1_u, s2_u, n_0, n_1, n_2, CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END
),
alpha_wide AS (
  -- wide form (a small domain, sql/_unit_profile.sql.j2), one pass over the unit rows: per
  -- metric over pairable units (m_u >= 2), n_c = sum_u n_uc (one column per category) and the
  -- closed-form unit terms; for ordinal and ratio also the off-diagonal coincidences
  -- o_ij = sum_u n_ui n_uj / (m_u - 1), i < j; and the input checks and raters
  SELECT metric, SUM(CASE WHEN m_u >= 2 THEN w ELSE 0 END) AS n_units,
         SUM(CASE WHEN m_u >= 2 THEN w * CAST(m_u * m_u - q_u AS DOUBLE) / NULLIF(m_u - 1, 0) END) AS do_nominal,
         SUM(w * m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN w * m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN 1 = 0 THEN w * m_u ELSE 0 END) AS check_n_null_slice,
         SUM(w * (m_u - n_0 - n_1 - n_2)) AS check_n_not_numeric,
         SUM(w * unit_duplicate) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         SUM(CASE WHEN m_u >= 2 THEN w * n_0 ELSE 0 END) AS nc_0,
         SUM(CASE WHEN m_u >= 2 THEN w * n_1 ELSE 0 END) AS nc_1,
         SUM(CASE WHEN m_u >= 2 THEN w * n_2 ELSE 0 END) AS nc_2
  FROM alpha_patterns
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
  FROM alpha_wide
),
alpha_sums AS (
  SELECT metric,
         n_units,
         do_nominal AS do_sum,
         CAST((nc_0 + nc_1 + nc_2 + 0) * (nc_0 + nc_1 + nc_2 + 0)
              - (nc_0 * nc_0 + nc_1 * nc_1 + nc_2 * nc_2 + 0) AS DOUBLE) AS de_sum,
         nc_0 + nc_1 + nc_2 + 0 AS n_values,
         CASE WHEN nc_0 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_1 > 0 THEN 1 ELSE 0 END + CASE WHEN nc_2 > 0 THEN 1 ELSE 0 END + 0 AS n_categories
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
kappa_wide AS (
  -- per metric, one pass over the unit rows: n, n2, sum_i pa_i and, per category k,
  -- sum_i r_ik / r_i and sum_i r_ik
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(CASE WHEN units.m_u >= 2 THEN CAST(units.q_u - units.m_u AS DOUBLE) / NULLIF(CAST(units.m_u AS DOUBLE) * (units.m_u - 1), 0.0) ELSE 0.0 END) AS sum_pa,
         SUM(CAST(n_0 AS DOUBLE) / NULLIF(m_u, 0)) AS share_0,
         SUM(n_0) AS count_0,
         SUM(CAST(n_1 AS DOUBLE) / NULLIF(m_u, 0)) AS share_1,
         SUM(n_1) AS count_1,
         SUM(CAST(n_2 AS DOUBLE) / NULLIF(m_u, 0)) AS share_2,
         SUM(n_2) AS count_2,
         COUNT(*) AS n_rated
  FROM units
  GROUP BY metric
),
kappa_wide_summary AS (
  -- p_a = sum_i pa_i / n2, pi_k = (1/n) sum_i r_ik / r_i, the categories used, q, raters
  SELECT w.metric, w.n_rated, w.n_items,
         w.sum_pa / NULLIF(CAST(w.n_items AS DOUBLE), 0.0) AS p_a,
         w.share_0 / NULLIF(w.n_rated, 0) AS pi_0,
         w.share_1 / NULLIF(w.n_rated, 0) AS pi_1,
         w.share_2 / NULLIF(w.n_rated, 0) AS pi_2,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_2 > 0 THEN 1 ELSE 0 END + 0 AS n_used,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_2 > 0 THEN 1 ELSE 0 END + 0 AS n_categories,
         r.n_raters
  FROM kappa_wide AS w
  JOIN (SELECT metric, check_n_raters AS n_raters FROM alpha_wide) AS r
    ON w.metric = r.metric
),
kappa_wide_expected AS (
  -- p_e of each coefficient
  SELECT s.*,
         (s.pi_0 * s.pi_0 + s.pi_1 * s.pi_1 + s.pi_2 * s.pi_2 + 0.0) AS fleiss_kappa_p_e,
         CAST(s.n_categories AS DOUBLE) * (s.pi_0 * (1.0 - s.pi_0) + s.pi_1 * (1.0 - s.pi_1) + s.pi_2 * (1.0 - s.pi_2) + 0.0)
  / NULLIF(CAST(s.n_categories AS DOUBLE) * (CAST(s.n_categories AS DOUBLE) - 1.0), 0.0) AS gwet_ac1_p_e,
         CAST(s.n_categories AS DOUBLE) / NULLIF(CAST(s.n_categories AS DOUBLE) * CAST(s.n_categories AS DOUBLE), 0.0) AS brennan_prediger_p_e,
         CAST(0.0 AS DOUBLE) AS percent_agreement_p_e
  FROM kappa_wide_summary AS s
),
kappa_wide_values AS (
  -- kappa = (p_a - p_e) / (1 - p_e); NULL when no item has two ratings, 1.0 with one category used
  SELECT e.*,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.fleiss_kappa_p_e) / NULLIF(1.0 - e.fleiss_kappa_p_e, 0.0) END AS fleiss_kappa_value,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.gwet_ac1_p_e) / NULLIF(1.0 - e.gwet_ac1_p_e, 0.0) END AS gwet_ac1_value,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.brennan_prediger_p_e) / NULLIF(1.0 - e.brennan_prediger_p_e, 0.0) END AS brennan_prediger_value,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.percent_agreement_p_e) / NULLIF(1.0 - e.percent_agreement_p_e, 0.0) END AS percent_agreement_value
  FROM kappa_wide_expected AS e
),
kappa_wide_variance AS (
  -- sum_i (kappa_i - kappa)^2 over the units, for each coefficient (one join of the unit rows
  -- with their metric's row)
  SELECT u.metric,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.fleiss_kappa_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.fleiss_kappa_p_e, 0.0)
             - 2.0 * (1.0 - v.fleiss_kappa_value) * ((u.n_0 * v.pi_0 + u.n_1 * v.pi_1 + u.n_2 * v.pi_2 + 0.0) / NULLIF(u.m_u, 0) - v.fleiss_kappa_p_e)
               / NULLIF(1.0 - v.fleiss_kappa_p_e, 0.0)
           - v.fleiss_kappa_value, 2)) AS fleiss_kappa_ss,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.gwet_ac1_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.gwet_ac1_p_e, 0.0)
             - 2.0 * (1.0 - v.gwet_ac1_value) * (CAST(v.n_categories AS DOUBLE) * (u.n_0 * (1.0 - v.pi_0) + u.n_1 * (1.0 - v.pi_1) + u.n_2 * (1.0 - v.pi_2) + 0.0)
  / NULLIF(u.m_u * CAST(v.n_categories AS DOUBLE) * (CAST(v.n_categories AS DOUBLE) - 1.0), 0.0) - v.gwet_ac1_p_e)
               / NULLIF(1.0 - v.gwet_ac1_p_e, 0.0)
           - v.gwet_ac1_value, 2)) AS gwet_ac1_ss,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.brennan_prediger_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.brennan_prediger_p_e, 0.0)
           - v.brennan_prediger_value, 2)) AS brennan_prediger_ss,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.percent_agreement_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.percent_agreement_p_e, 0.0)
           - v.percent_agreement_value, 2)) AS percent_agreement_ss
  FROM units AS u
  JOIN kappa_wide_values AS v ON u.metric = v.metric
  GROUP BY u.metric
),
fleiss_kappa AS (
  SELECT v.metric,
         'fleiss_kappa' AS coefficient,
         v.fleiss_kappa_value AS value,
         v.p_a AS observed_agreement,
         v.fleiss_kappa_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         t.fleiss_kappa_ss / NULLIF(CAST(v.n_rated AS DOUBLE) * (v.n_rated - 1), 0.0) AS variance
  FROM kappa_wide_values AS v
  LEFT JOIN kappa_wide_variance AS t ON v.metric = t.metric
),
gwet_ac1 AS (
  SELECT v.metric,
         'gwet_ac1' AS coefficient,
         v.gwet_ac1_value AS value,
         v.p_a AS observed_agreement,
         v.gwet_ac1_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         t.gwet_ac1_ss / NULLIF(CAST(v.n_rated AS DOUBLE) * (v.n_rated - 1), 0.0) AS variance
  FROM kappa_wide_values AS v
  LEFT JOIN kappa_wide_variance AS t ON v.metric = t.metric
),
brennan_prediger AS (
  SELECT v.metric,
         'brennan_prediger' AS coefficient,
         v.brennan_prediger_value AS value,
         v.p_a AS observed_agreement,
         v.brennan_prediger_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         t.brennan_prediger_ss / NULLIF(CAST(v.n_rated AS DOUBLE) * (v.n_rated - 1), 0.0) AS variance
  FROM kappa_wide_values AS v
  LEFT JOIN kappa_wide_variance AS t ON v.metric = t.metric
),
percent_agreement AS (
  SELECT v.metric,
         'percent_agreement' AS coefficient,
         v.percent_agreement_value AS value,
         v.p_a AS observed_agreement,
         v.percent_agreement_p_e AS chance_agreement,
         v.n_items,
         v.n_raters,
         v.n_categories,
         v.n_rated,
         t.percent_agreement_ss / NULLIF(CAST(v.n_rated AS DOUBLE) * (v.n_rated - 1), 0.0) AS variance
  FROM kappa_wide_values AS v
  LEFT JOIN kappa_wide_variance AS t ON v.metric = t.metric
),
kappa_used AS (
  -- the categories used in the metric (and slice)
  -- from the wide counts: category k where sum_i r_ik > 0
  SELECT metric, CAST($category_0 AS DOUBLE) AS cat,
CAST($category_0 AS DOUBLE) AS x
  FROM kappa_wide
  WHERE count_0 > 0
  UNION ALL
  SELECT metric, CAST($category_1 AS DOUBLE) AS cat,
CAST($category_1 AS DOUBLE) AS x
  FROM kappa_wide
  WHERE count_1 > 0
  UNION ALL
  SELECT metric, CAST($category_2 AS DOUBLE) AS cat,
CAST($category_2 AS DOUBLE) AS x
  FROM kappa_wide
  WHERE count_2 > 0
),
kappa_domain AS (
  -- the category domain with each category's 0-based position
  SELECT metric, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric ORDER BY cat) - 1 AS position
  FROM kappa_used
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores
  SELECT d.metric,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM kappa_domain AS d
  GROUP BY d.metric
),
kappa_weights AS (
  -- w_kl for every pair of categories in the domain
  SELECT a.metric, a.cat AS cat_k, b.cat AS cat_l,
         CASE WHEN a.cat = b.cat THEN 1.0 ELSE 0.0 END AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric
  JOIN kappa_span AS s ON a.metric = s.metric
  
),
kappa_items AS (
  -- r_i and pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1))
  -- unweighted: sum_k r_ik (r_ik - 1) = Q_u - m_u
  SELECT metric, item, m_u AS r_i,
         CASE WHEN m_u >= 2
              THEN CAST(q_u - m_u AS DOUBLE) / NULLIF(CAST(m_u AS DOUBLE) * (m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units
),
kappa_totals AS (
  -- n items rated at least once, n2 rated two or more times, p_a = sum_i pa_i / n2
  SELECT metric,
         COUNT(*) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(pa_i) / NULLIF(SUM(CASE WHEN r_i >= 2 THEN 1.0 ELSE 0.0 END), 0.0) AS p_a
  FROM kappa_items
  GROUP BY metric
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.cat, COALESCE(s.pi_k, 0.0) AS pi_k
  FROM kappa_domain AS d
  LEFT JOIN (
    SELECT metric, CAST($category_0 AS DOUBLE) AS cat, pi_0 AS pi_k
    FROM kappa_wide_summary
    UNION ALL
    SELECT metric, CAST($category_1 AS DOUBLE) AS cat, pi_1 AS pi_k
    FROM kappa_wide_summary
    UNION ALL
    SELECT metric, CAST($category_2 AS DOUBLE) AS cat, pi_2 AS pi_k
    FROM kappa_wide_summary
  ) AS s ON d.metric = s.metric AND s.cat = d.cat
),
kappa_summary AS (
  -- per metric (and slice): n, n2, p_a, raters, q, categories used, T_w = sum_kl w_kl
  SELECT t.metric, t.n_rated, t.n_items, t.p_a,
         r.n_raters, s.n_categories, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN (
    SELECT metric, n_raters FROM kappa_wide_summary
  ) AS r ON t.metric = r.metric
  JOIN kappa_span AS s ON t.metric = s.metric
  JOIN (
    SELECT metric, COUNT(*) AS n_used FROM kappa_used GROUP BY metric
  ) AS u ON t.metric = u.metric
  JOIN (
    SELECT metric, SUM(w) AS t_w FROM kappa_weights GROUP BY metric
  ) AS w ON t.metric = w.metric
)
,
conger_kappa_rater_counts AS (
  -- n_gk: items rater g rated k
  SELECT metric, rater, x AS cat, COUNT(*) AS n_gk
  FROM ratings
  GROUP BY metric, rater, x
),
conger_kappa_raters AS (
  -- n_g: items rater g rated
  SELECT metric, rater, SUM(n_gk) AS n_g
  FROM conger_kappa_rater_counts
  GROUP BY metric, rater
),
conger_kappa_shares AS (
  -- p_gk = n_gk / n_g for every rater and domain category (0 when unused)
  SELECT g.metric, g.rater, d.cat, g.n_g,
         CAST(COALESCE(c.n_gk, 0) AS DOUBLE) / NULLIF(g.n_g, 0) AS p_gk
  FROM conger_kappa_raters AS g
  JOIN kappa_domain AS d ON g.metric = d.metric
  LEFT JOIN conger_kappa_rater_counts AS c
    ON g.metric = c.metric AND c.rater = g.rater AND c.cat = d.cat
),
conger_kappa_mean_shares AS (
  -- pbar_k = sum_g p_gk / r
  SELECT s.metric, s.cat, SUM(s.p_gk) / NULLIF(MIN(t.n_raters), 0) AS pbar_k
  FROM conger_kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric
  GROUP BY s.metric, s.cat
),
conger_kappa_rater_terms AS (
  -- per rater g and category k: p_gk, A_gk = sum_l w_kl p_gl and c_gk = r pbar_k - p_gk
  SELECT s.metric, s.rater, s.cat, MIN(s.n_g) AS n_g, MIN(s.p_gk) AS p_gk,
         SUM(w.w * l.p_gk) AS a_gk,
         MIN(t.n_raters * b.pbar_k) - MIN(s.p_gk) AS c_gk
  FROM conger_kappa_shares AS s
  JOIN kappa_weights AS w ON s.metric = w.metric AND w.cat_k = s.cat
  JOIN conger_kappa_shares AS l ON s.metric = l.metric AND l.rater = s.rater AND l.cat = w.cat_l
  JOIN conger_kappa_mean_shares AS b ON s.metric = b.metric AND b.cat = s.cat
  JOIN kappa_summary AS t ON s.metric = t.metric
  GROUP BY s.metric, s.rater, s.cat
),
conger_kappa_between AS (
  -- B = sum_kl w_kl pbar_k pbar_l
  SELECT w.metric, SUM(w.w * a.pbar_k * b.pbar_k) AS b_sum
  FROM kappa_weights AS w
  JOIN conger_kappa_mean_shares AS a ON w.metric = a.metric AND a.cat = w.cat_k
  JOIN conger_kappa_mean_shares AS b ON w.metric = b.metric AND b.cat = w.cat_l
  GROUP BY w.metric
),
conger_kappa_expected AS (
  -- p_e = B - (G - r B) / (r (r - 1)); T0 = sum_g sum_k c_gk A_gk
  SELECT b.metric,
         MIN(b.b_sum) - (SUM(g.p_gk * g.a_gk) - MIN(t.n_raters * b.b_sum))
           / NULLIF(MIN(t.n_raters * (t.n_raters - 1.0)), 0.0) AS p_e,
         SUM(g.c_gk * g.a_gk) AS t0
  FROM conger_kappa_between AS b
  JOIN conger_kappa_rater_terms AS g ON b.metric = g.metric
  JOIN kappa_summary AS t ON b.metric = t.metric
  GROUP BY b.metric
),
conger_kappa_rater_category AS (
  -- T_g(y) = (n / n_g) sum_k c_gk (w_ky - A_gk)
  SELECT g.metric, g.rater, w.cat_l AS cat,
         MIN(CAST(t.n_rated AS DOUBLE) / NULLIF(g.n_g, 0)) * SUM(g.c_gk * (w.w - g.a_gk)) AS t_gy
  FROM conger_kappa_rater_terms AS g
  JOIN kappa_weights AS w ON g.metric = w.metric AND w.cat_k = g.cat
  JOIN kappa_summary AS t ON g.metric = t.metric
  GROUP BY g.metric, g.rater, w.cat_l
),
conger_kappa_item_expected AS (
  -- pe_i = (T0 + sum over item i's ratings (g, y) of T_g(y)) / (r (r - 1))
  SELECT r.metric, r.item,
         (MIN(e.t0) + SUM(g.t_gy)) / NULLIF(MIN(t.n_raters * (t.n_raters - 1.0)), 0.0) AS pe_i
  FROM ratings AS r
  JOIN conger_kappa_rater_category AS g
    ON r.metric = g.metric AND g.rater = r.rater
   AND g.cat = r.x
  JOIN conger_kappa_expected AS e ON r.metric = e.metric
  JOIN kappa_summary AS t ON r.metric = t.metric
  GROUP BY r.metric, r.item
),
conger_kappa_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN conger_kappa_expected AS e ON s.metric = e.metric
),
conger_kappa_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric
  JOIN conger_kappa_value AS v ON i.metric = v.metric
  JOIN conger_kappa_item_expected AS p ON i.metric = p.metric AND p.item = i.item
),
conger_kappa AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric,
         'conger_kappa' AS coefficient,
         v.value,
         v.p_a AS observed_agreement,
         v.p_e AS chance_agreement,
         s.n_items,
         s.n_raters,
         s.n_categories,
         s.n_rated,
         SUM(POWER(t.kappa_i - v.value, 2))
           / NULLIF(CAST(s.n_rated AS DOUBLE) * (s.n_rated - 1), 0.0) AS variance
  FROM kappa_summary AS s
  JOIN conger_kappa_value AS v ON s.metric = v.metric
  LEFT JOIN conger_kappa_item_terms AS t ON s.metric = t.metric
  GROUP BY s.metric, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
pair_scope AS (
  -- raters per metric (and slice): Cohen/Light and Scott run where at most $pair_max_raters rate
  SELECT metric, n_raters FROM kappa_wide_summary
),
confusion_ratings AS (
  -- the ratings of the chosen raters, with their category
  SELECT metric, item, rater,
x AS cat,
         x
  FROM ratings
WHERE EXISTS (
    SELECT 1 FROM pair_scope AS s
    WHERE s.metric = ratings.metric AND s.n_raters <= $pair_max_raters)
),
confusion AS (
  -- n_ab: items rated cat_a by rater_a and cat_b by rater_b
  SELECT a.metric,
         a.rater AS rater_a, b.rater AS rater_b,
         a.cat AS cat_a, b.cat AS cat_b,
         MIN(a.x) AS x_a, MIN(b.x) AS x_b,
         COUNT(*) AS n_ab
  FROM confusion_ratings AS a
  JOIN confusion_ratings AS b
    ON a.metric = b.metric AND a.item = b.item
   AND a.rater < b.rater
  GROUP BY a.metric, a.rater, b.rater, a.cat, b.cat
)
,
pair_totals AS (
  -- N: items both raters of the pair rated
  SELECT metric, rater_a, rater_b, SUM(n_ab) AS n_shared
  FROM confusion
  GROUP BY metric, rater_a, rater_b
),
pair_rows AS (
  -- p_i. = n_i. / N: rater_a's category shares on the shared items
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_a AS cat, MIN(c.x_a) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_row
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b, c.cat_a
),
pair_cols AS (
  -- p_.j = n_.j / N: rater_b's category shares on the shared items
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_b AS cat, MIN(c.x_b) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_col
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b, c.cat_b
),
pair_used AS (
  -- the categories either rater used on the shared items
  SELECT metric, rater_a, rater_b, cat, MIN(x) AS x
  FROM (
    SELECT metric, rater_a, rater_b, cat, x FROM pair_rows
    UNION ALL
    SELECT metric, rater_a, rater_b, cat, x FROM pair_cols
  ) AS u
  GROUP BY metric, rater_a, rater_b, cat
),
pair_domain AS (
  -- the pair's category domain with each category's 0-based position
  SELECT metric, rater_a, rater_b, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric, rater_a, rater_b ORDER BY cat) - 1 AS position
  FROM pair_used
),
pair_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores weights are scaled by
  SELECT d.metric, d.rater_a, d.rater_b,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM pair_domain AS d
  GROUP BY d.metric, d.rater_a, d.rater_b
),
pair_weights AS (
  -- w_ij for every pair of categories in the domain
  SELECT a.metric, a.rater_a, a.rater_b, a.cat AS cat_a, b.cat AS cat_b,
         CASE WHEN a.cat = b.cat THEN 1.0 ELSE 0.0 END AS w
  FROM pair_domain AS a
  JOIN pair_domain AS b ON a.metric = b.metric AND a.rater_a = b.rater_a AND a.rater_b = b.rater_b
  JOIN pair_span AS s ON a.metric = s.metric AND a.rater_a = s.rater_a AND a.rater_b = s.rater_b
  
),
pair_row_weights AS (
  -- w_i. = sum_j p_.j w_ij, for every domain category i
  SELECT w.metric, w.rater_a, w.rater_b, w.cat_a AS cat, SUM(w.w * c.p_col) AS w_row
  FROM pair_weights AS w
  JOIN pair_cols AS c ON w.metric = c.metric AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.cat = w.cat_b
  GROUP BY w.metric, w.rater_a, w.rater_b, w.cat_a
),
pair_col_weights AS (
  -- w_.j = sum_i p_i. w_ij, for every domain category j
  SELECT w.metric, w.rater_a, w.rater_b, w.cat_b AS cat, SUM(w.w * r.p_row) AS w_col
  FROM pair_weights AS w
  JOIN pair_rows AS r ON w.metric = r.metric AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.cat = w.cat_a
  GROUP BY w.metric, w.rater_a, w.rater_b, w.cat_b
),
pair_cells AS (
  -- every non-empty cell: p_ij = n_ij / N with w_ij
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_a, c.cat_b,
         CAST(c.n_ab AS DOUBLE) / NULLIF(p.n_shared, 0) AS p_ij, w.w
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  JOIN pair_weights AS w ON c.metric = w.metric AND c.rater_a = w.rater_a AND c.rater_b = w.rater_b AND w.cat_a = c.cat_a AND w.cat_b = c.cat_b
),
pair_observed AS (
  -- p_o = sum_ij w_ij p_ij; n_used = categories the pair used; q = the domain's size
  SELECT p.metric, p.rater_a, p.rater_b, p.n_shared, s.n_categories, o.p_o, u.n_used
  FROM pair_totals AS p
  JOIN pair_span AS s ON p.metric = s.metric AND p.rater_a = s.rater_a AND p.rater_b = s.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, SUM(p_ij * w) AS p_o
    FROM pair_cells
    GROUP BY metric, rater_a, rater_b
  ) AS o ON p.metric = o.metric AND p.rater_a = o.rater_a AND p.rater_b = o.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, COUNT(*) AS n_used
    FROM pair_used
    GROUP BY metric, rater_a, rater_b
  ) AS u ON p.metric = u.metric AND p.rater_a = u.rater_a AND p.rater_b = u.rater_b
),
pair_keys AS (
  -- every metric (and slice) gets a row; n_raters counts the chosen raters who rated in it
  SELECT metric, COUNT(DISTINCT rater) AS n_raters
  FROM confusion_ratings
  GROUP BY metric
),
pair_items AS (
  -- items rated by two or more of the chosen raters
  SELECT metric, COUNT(*) AS n_items
  FROM (
    SELECT metric, item FROM confusion_ratings
    GROUP BY metric, item
    HAVING COUNT(*) >= 2
  ) AS paired
  GROUP BY metric
),
pair_categories AS (
  -- categories in the pairs' domains (the declared domain when one is given)
  SELECT metric, COUNT(DISTINCT cat) AS n_categories
  FROM pair_domain
  GROUP BY metric
)
,
cohen_expected AS (
  -- p_e = sum_ij w_ij p_i. p_.j = sum_i p_i. w_i.
  SELECT r.metric, r.rater_a, r.rater_b, SUM(r.p_row * rw.w_row) AS p_e
  FROM pair_rows AS r
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  GROUP BY r.metric, r.rater_a, r.rater_b
),
cohen_pair_kappa AS (
  -- kappa = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS kappa
  FROM pair_observed AS o
  JOIN cohen_expected AS e ON o.metric = e.metric AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
cohen_pair_variance AS (
  -- var = [sum_ij p_ij (w_ij - (w_i. + w_.j)(1 - kappa))^2 - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))
          - MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))
         / NULLIF(MIN(POWER(1.0 - k.p_e, 2) * k.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN pair_row_weights AS rw ON c.metric = rw.metric AND c.rater_a = rw.rater_a AND c.rater_b = rw.rater_b AND rw.cat = c.cat_a
  JOIN pair_col_weights AS cw ON c.metric = cw.metric AND c.rater_a = cw.rater_a AND c.rater_b = cw.rater_b AND cw.cat = c.cat_b
  JOIN cohen_pair_kappa AS k ON c.metric = k.metric AND c.rater_a = k.rater_a AND c.rater_b = k.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b
),
cohen_pair_null_variance AS (
  -- var0 = [sum_ij p_i. p_.j (w_ij - (w_i. + w_.j))^2 - p_e^2] / ((1 - p_e)^2 N)
  SELECT r.metric, r.rater_a, r.rater_b,
         (SUM(r.p_row * c.p_col * POWER(w.w - (rw.w_row + cw.w_col), 2))
          - MIN(POWER(pk.p_e, 2)))
         / NULLIF(MIN(POWER(1.0 - pk.p_e, 2) * pk.n_shared), 0.0) AS null_variance
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b
  JOIN pair_weights AS w ON r.metric = w.metric AND r.rater_a = w.rater_a AND r.rater_b = w.rater_b AND w.cat_a = r.cat AND w.cat_b = c.cat
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  JOIN pair_col_weights AS cw ON r.metric = cw.metric AND r.rater_a = cw.rater_a AND r.rater_b = cw.rater_b AND cw.cat = c.cat
  JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric AND r.rater_a = pk.rater_a AND r.rater_b = pk.rater_b
  GROUP BY r.metric, r.rater_a, r.rater_b
),
cohen_pair_null_z AS (
  -- se0 = sqrt(var0) (0 when var0 rounds below 0), z = kappa / se0 (NULL when se0 = 0), |z|
  SELECT v.metric, v.rater_a, v.rater_b,
         SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END) AS se0,
         pk.kappa / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS z,
         ABS(pk.kappa) / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS abs_z
  FROM cohen_pair_null_variance AS v
  JOIN cohen_pair_kappa AS pk ON v.metric = pk.metric AND v.rater_a = pk.rater_a AND v.rater_b = pk.rater_b
),
cohen_pair_null_test AS (
  -- p_one_sided = 1 - Phi(z), p_value = 2 (1 - Phi(|z|))
  SELECT t.metric, t.rater_a, t.rater_b, t.se0, t.z,
         CASE WHEN t.z IS NULL THEN NULL
     WHEN t.z >= 0.0 THEN (0.3989422804014327 * EXP(-0.5 * t.z * t.z)
 * (1.0 / (1.0 + 0.2316419 * t.z))
 * (0.319381530 + (1.0 / (1.0 + 0.2316419 * t.z))
   * (-0.356563782 + (1.0 / (1.0 + 0.2316419 * t.z))
     * (1.781477937 + (1.0 / (1.0 + 0.2316419 * t.z))
       * (-1.821255978 + (1.0 / (1.0 + 0.2316419 * t.z)) * 1.330274429)))))
     ELSE 1.0 - (0.3989422804014327 * EXP(-0.5 * (-t.z) * (-t.z))
 * (1.0 / (1.0 + 0.2316419 * (-t.z)))
 * (0.319381530 + (1.0 / (1.0 + 0.2316419 * (-t.z)))
   * (-0.356563782 + (1.0 / (1.0 + 0.2316419 * (-t.z)))
     * (1.781477937 + (1.0 / (1.0 + 0.2316419 * (-t.z)))
       * (-1.821255978 + (1.0 / (1.0 + 0.2316419 * (-t.z))) * 1.330274429))))) END AS p_one_sided,
         2.0 * CASE WHEN t.abs_z IS NULL THEN NULL
     WHEN t.abs_z >= 0.0 THEN (0.3989422804014327 * EXP(-0.5 * t.abs_z * t.abs_z)
 * (1.0 / (1.0 + 0.2316419 * t.abs_z))
 * (0.319381530 + (1.0 / (1.0 + 0.2316419 * t.abs_z))
   * (-0.356563782 + (1.0 / (1.0 + 0.2316419 * t.abs_z))
     * (1.781477937 + (1.0 / (1.0 + 0.2316419 * t.abs_z))
       * (-1.821255978 + (1.0 / (1.0 + 0.2316419 * t.abs_z)) * 1.330274429)))))
     ELSE 1.0 - (0.3989422804014327 * EXP(-0.5 * (-t.abs_z) * (-t.abs_z))
 * (1.0 / (1.0 + 0.2316419 * (-t.abs_z)))
 * (0.319381530 + (1.0 / (1.0 + 0.2316419 * (-t.abs_z)))
   * (-0.356563782 + (1.0 / (1.0 + 0.2316419 * (-t.abs_z)))
     * (1.781477937 + (1.0 / (1.0 + 0.2316419 * (-t.abs_z)))
       * (-1.821255978 + (1.0 / (1.0 + 0.2316419 * (-t.abs_z))) * 1.330274429))))) END AS p_value
  FROM cohen_pair_null_z AS t
),
cohen_kappa AS (
  -- two raters: the pair's kappa with its variance; more: Light's kappa, the mean over pairs
  SELECT r.metric,
         CASE WHEN r.n_raters > 2 THEN 'light_kappa' ELSE 'cohen_kappa' END AS coefficient,
         AVG(pk.kappa) AS value,
         AVG(pk.p_o) AS observed_agreement,
         AVG(pk.p_e) AS chance_agreement,
         COALESCE(MIN(i.n_items), 0) AS n_items,
         r.n_raters,
         COALESCE(MIN(c.n_categories), 0) AS n_categories,
         COUNT(pk.kappa) AS n_pairs,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.rater_a) END AS rater_a,
         CASE WHEN r.n_raters = 2 THEN MIN(pk.rater_b) END AS rater_b,
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS variance,
         CASE WHEN r.n_raters = 2 THEN MIN(t.se0) END AS se0,
         CASE WHEN r.n_raters = 2 THEN MIN(t.z) END AS z,
         CASE WHEN r.n_raters = 2 THEN MIN(t.p_one_sided) END AS p_one_sided,
         CASE WHEN r.n_raters = 2 THEN MIN(t.p_value) END AS p_value
  FROM pair_keys AS r
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  LEFT JOIN cohen_pair_null_test AS t ON pk.metric = t.metric AND pk.rater_a = t.rater_a AND pk.rater_b = t.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric
  LEFT JOIN pair_categories AS c ON r.metric = c.metric
  GROUP BY r.metric, r.n_raters
)
,
scott_shares AS (
  -- pi_k = (p_k. + p_.k) / 2 and pbar_k = (w_k. + w_.k) / 2 for every domain category
  SELECT d.metric, d.rater_a, d.rater_b, d.cat,
         (COALESCE(r.p_row, 0.0) + COALESCE(c.p_col, 0.0)) / 2.0 AS pi_k,
         (rw.w_row + cw.w_col) / 2.0 AS pbar_k
  FROM pair_domain AS d
  JOIN pair_row_weights AS rw ON d.metric = rw.metric AND d.rater_a = rw.rater_a AND d.rater_b = rw.rater_b AND rw.cat = d.cat
  JOIN pair_col_weights AS cw ON d.metric = cw.metric AND d.rater_a = cw.rater_a AND d.rater_b = cw.rater_b AND cw.cat = d.cat
  LEFT JOIN pair_rows AS r ON d.metric = r.metric AND d.rater_a = r.rater_a AND d.rater_b = r.rater_b AND r.cat = d.cat
  LEFT JOIN pair_cols AS c ON d.metric = c.metric AND d.rater_a = c.rater_a AND d.rater_b = c.rater_b AND c.cat = d.cat
),
scott_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT w.metric, w.rater_a, w.rater_b, SUM(w.w * a.pi_k * b.pi_k) AS p_e
  FROM pair_weights AS w
  JOIN scott_shares AS a ON w.metric = a.metric AND w.rater_a = a.rater_a AND w.rater_b = a.rater_b AND a.cat = w.cat_a
  JOIN scott_shares AS b ON w.metric = b.metric AND w.rater_a = b.rater_a AND w.rater_b = b.rater_b AND b.cat = w.cat_b
  GROUP BY w.metric, w.rater_a, w.rater_b
),
scott_pair_pi AS (
  -- pi = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS pi
  FROM pair_observed AS o
  JOIN scott_expected AS e ON o.metric = e.metric AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
scott_pair_variance AS (
  -- var = [sum_kl p_kl (w_kl - (1 - pi)(pbar_k + pbar_l))^2 - (p_o - 2 (1 - pi) p_e)^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (1.0 - s.pi) * (a.pbar_k + b.pbar_k), 2))
          - MIN(POWER(s.p_o - 2.0 * (1.0 - s.pi) * s.p_e, 2)))
         / NULLIF(MIN(POWER(1.0 - s.p_e, 2) * s.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN scott_shares AS a ON c.metric = a.metric AND c.rater_a = a.rater_a AND c.rater_b = a.rater_b AND a.cat = c.cat_a
  JOIN scott_shares AS b ON c.metric = b.metric AND c.rater_a = b.rater_a AND c.rater_b = b.rater_b AND b.cat = c.cat_b
  JOIN scott_pair_pi AS s ON c.metric = s.metric AND c.rater_a = s.rater_a AND c.rater_b = s.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b
),
scott_pi AS (
  -- the pair's pi when the metric (or slice) has exactly two raters
  SELECT r.metric,
         'scott_pi' AS coefficient,
         CASE WHEN r.n_raters = 2 THEN MIN(s.pi) END AS value,
         CASE WHEN r.n_raters = 2 THEN MIN(s.p_o) END AS observed_agreement,
         CASE WHEN r.n_raters = 2 THEN MIN(s.p_e) END AS chance_agreement,
         COALESCE(MIN(i.n_items), 0) AS n_items,
         r.n_raters,
         COALESCE(MIN(c.n_categories), 0) AS n_categories,
         CASE WHEN r.n_raters = 2 THEN MIN(s.rater_a) END AS rater_a,
         CASE WHEN r.n_raters = 2 THEN MIN(s.rater_b) END AS rater_b,
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS variance
  FROM pair_keys AS r
  LEFT JOIN scott_pair_pi AS s ON r.metric = s.metric
  LEFT JOIN scott_pair_variance AS v ON s.metric = v.metric AND s.rater_a = v.rater_a AND s.rater_b = v.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric
  LEFT JOIN pair_categories AS c ON r.metric = c.metric
  GROUP BY r.metric, r.n_raters
)
,
coefficient_keys AS (
  -- every metric (and slice) with a rating
  SELECT metric FROM kappa_wide
)

SELECT k.metric
       , cohen_kappa.coefficient AS cohen_kappa__coefficient
       , cohen_kappa.value AS cohen_kappa__value
       , cohen_kappa.observed_agreement AS cohen_kappa__observed_agreement
       , cohen_kappa.chance_agreement AS cohen_kappa__chance_agreement
       , cohen_kappa.n_items AS cohen_kappa__n_items
       , cohen_kappa.n_raters AS cohen_kappa__n_raters
       , cohen_kappa.n_categories AS cohen_kappa__n_categories
       , cohen_kappa.variance AS cohen_kappa__variance
       , cohen_kappa.rater_a AS cohen_kappa__rater_a
       , cohen_kappa.rater_b AS cohen_kappa__rater_b
       , cohen_kappa.n_pairs AS cohen_kappa__n_pairs
       , CASE WHEN ps.n_raters > $pair_max_raters THEN 1 ELSE 0 END AS cohen_kappa__skipped
       , ps.n_raters AS cohen_kappa__metric_raters
       , SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__se,
cohen_kappa.value - $z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_low,
cohen_kappa.value + $z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_high
       , cohen_kappa.se0 AS cohen_kappa__se0
       , cohen_kappa.z AS cohen_kappa__z
       , cohen_kappa.p_one_sided AS cohen_kappa__p_one_sided
       , cohen_kappa.p_value AS cohen_kappa__p_value
       , scott_pi.coefficient AS scott_pi__coefficient
       , scott_pi.value AS scott_pi__value
       , scott_pi.observed_agreement AS scott_pi__observed_agreement
       , scott_pi.chance_agreement AS scott_pi__chance_agreement
       , scott_pi.n_items AS scott_pi__n_items
       , scott_pi.n_raters AS scott_pi__n_raters
       , scott_pi.n_categories AS scott_pi__n_categories
       , scott_pi.variance AS scott_pi__variance
       , scott_pi.rater_a AS scott_pi__rater_a
       , scott_pi.rater_b AS scott_pi__rater_b
       , CASE WHEN ps.n_raters > $pair_max_raters THEN 1 ELSE 0 END AS scott_pi__skipped
       , ps.n_raters AS scott_pi__metric_raters
       , SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__se,
scott_pi.value - $z * SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__ci_low,
scott_pi.value + $z * SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__ci_high
       , fleiss_kappa.coefficient AS fleiss_kappa__coefficient
       , fleiss_kappa.value AS fleiss_kappa__value
       , fleiss_kappa.observed_agreement AS fleiss_kappa__observed_agreement
       , fleiss_kappa.chance_agreement AS fleiss_kappa__chance_agreement
       , fleiss_kappa.n_items AS fleiss_kappa__n_items
       , fleiss_kappa.n_raters AS fleiss_kappa__n_raters
       , fleiss_kappa.n_categories AS fleiss_kappa__n_categories
       , fleiss_kappa.variance AS fleiss_kappa__variance
       , SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__se,
fleiss_kappa.value - $z * SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__ci_low,
fleiss_kappa.value + $z * SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__ci_high
       , conger_kappa.coefficient AS conger_kappa__coefficient
       , conger_kappa.value AS conger_kappa__value
       , conger_kappa.observed_agreement AS conger_kappa__observed_agreement
       , conger_kappa.chance_agreement AS conger_kappa__chance_agreement
       , conger_kappa.n_items AS conger_kappa__n_items
       , conger_kappa.n_raters AS conger_kappa__n_raters
       , conger_kappa.n_categories AS conger_kappa__n_categories
       , conger_kappa.variance AS conger_kappa__variance
       , SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__se,
conger_kappa.value - $z * SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__ci_low,
conger_kappa.value + $z * SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__ci_high
       , gwet_ac1.coefficient AS gwet_ac1__coefficient
       , gwet_ac1.value AS gwet_ac1__value
       , gwet_ac1.observed_agreement AS gwet_ac1__observed_agreement
       , gwet_ac1.chance_agreement AS gwet_ac1__chance_agreement
       , gwet_ac1.n_items AS gwet_ac1__n_items
       , gwet_ac1.n_raters AS gwet_ac1__n_raters
       , gwet_ac1.n_categories AS gwet_ac1__n_categories
       , gwet_ac1.variance AS gwet_ac1__variance
       , SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__se,
gwet_ac1.value - $z * SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__ci_low,
gwet_ac1.value + $z * SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__ci_high
       , brennan_prediger.coefficient AS brennan_prediger__coefficient
       , brennan_prediger.value AS brennan_prediger__value
       , brennan_prediger.observed_agreement AS brennan_prediger__observed_agreement
       , brennan_prediger.chance_agreement AS brennan_prediger__chance_agreement
       , brennan_prediger.n_items AS brennan_prediger__n_items
       , brennan_prediger.n_raters AS brennan_prediger__n_raters
       , brennan_prediger.n_categories AS brennan_prediger__n_categories
       , brennan_prediger.variance AS brennan_prediger__variance
       , SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__se,
brennan_prediger.value - $z * SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__ci_low,
brennan_prediger.value + $z * SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__ci_high
       , percent_agreement.coefficient AS percent_agreement__coefficient
       , percent_agreement.value AS percent_agreement__value
       , percent_agreement.observed_agreement AS percent_agreement__observed_agreement
       , percent_agreement.chance_agreement AS percent_agreement__chance_agreement
       , percent_agreement.n_items AS percent_agreement__n_items
       , percent_agreement.n_raters AS percent_agreement__n_raters
       , percent_agreement.n_categories AS percent_agreement__n_categories
       , percent_agreement.variance AS percent_agreement__variance
       , SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__se,
percent_agreement.value - $z * SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__ci_low,
percent_agreement.value + $z * SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__ci_high
       , alpha.value AS krippendorff_alpha__value
       , alpha.observed_disagreement AS krippendorff_alpha__observed_disagreement
       , alpha.expected_disagreement AS krippendorff_alpha__expected_disagreement
       , alpha.n_items AS krippendorff_alpha__n_items
       , alpha.n_raters AS krippendorff_alpha__n_raters
       , alpha.n_values AS krippendorff_alpha__n_values
       , alpha.n_categories AS krippendorff_alpha__n_categories
       , p.*
FROM coefficient_keys AS k
LEFT JOIN cohen_kappa ON k.metric = cohen_kappa.metric
LEFT JOIN scott_pi ON k.metric = scott_pi.metric
LEFT JOIN fleiss_kappa ON k.metric = fleiss_kappa.metric
LEFT JOIN conger_kappa ON k.metric = conger_kappa.metric
LEFT JOIN gwet_ac1 ON k.metric = gwet_ac1.metric
LEFT JOIN brennan_prediger ON k.metric = brennan_prediger.metric
LEFT JOIN percent_agreement ON k.metric = percent_agreement.metric
LEFT JOIN alpha ON k.metric = alpha.metric
LEFT JOIN pair_scope AS ps ON k.metric = ps.metric
CROSS JOIN profile_checks AS p
ORDER BY k.metric
