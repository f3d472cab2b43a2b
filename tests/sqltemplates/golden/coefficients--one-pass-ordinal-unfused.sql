-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $category_0
-- parameter: $category_1
-- parameter: $category_2
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
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', category_0 := ?, category_1 := ?, category_2 := ?);
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
unit_profile AS (
  SELECT r.metric, r.item,
         COUNT(CASE WHEN r.x = CAST($category_0 AS DOUBLE) THEN 1 END) AS n_0,
         COUNT(CASE WHEN r.x = CAST($category_1 AS DOUBLE) THEN 1 END) AS n_1,
         COUNT(CASE WHEN r.x = CAST($category_2 AS DOUBLE) THEN 1 END) AS n_2,
         COUNT(*) AS m_u
  FROM ratings AS r
  GROUP BY r.metric, r.item
)
,
units AS (
  SELECT metric, item, m_u,
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
2.0 * o_0_1 * POWER((nc_0 + nc_1) / 2.0, 2) + 2.0 * o_0_2 * POWER((nc_0 + nc_2) / 2.0 + nc_1, 2) + 2.0 * o_1_2 * POWER((nc_1 + nc_2) / 2.0, 2) + 0.0 AS do_sum,
2.0 * nc_0 * nc_1 * POWER((nc_0 + nc_1) / 2.0, 2) + 2.0 * nc_0 * nc_2 * POWER((nc_0 + nc_2) / 2.0 + nc_1, 2) + 2.0 * nc_1 * nc_2 * POWER((nc_1 + nc_2) / 2.0, 2) + 0.0 AS de_sum,
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
  JOIN (
    SELECT metric, COUNT(DISTINCT rater) AS n_raters FROM ratings GROUP BY metric
  ) AS r ON w.metric = r.metric
),
kappa_wide_expected AS (
  -- p_e of each coefficient
  SELECT s.*,
         (s.pi_0 * s.pi_0 + s.pi_1 * s.pi_1 + s.pi_2 * s.pi_2 + 0.0) AS fleiss_kappa_p_e
  FROM kappa_wide_summary AS s
),
kappa_wide_values AS (
  -- kappa = (p_a - p_e) / (1 - p_e); NULL when no item has two ratings, 1.0 with one category used
  SELECT e.*,
         CASE WHEN e.n_items = 0 THEN NULL
              WHEN e.n_used = 1 THEN 1.0
              ELSE (e.p_a - e.fleiss_kappa_p_e) / NULLIF(1.0 - e.fleiss_kappa_p_e, 0.0) END AS fleiss_kappa_value
  FROM kappa_wide_expected AS e
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
         CAST(NULL AS DOUBLE) AS variance
  FROM kappa_wide_values AS v
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
coefficient_keys AS (
  -- every metric (and slice) with a rating
  SELECT metric FROM kappa_wide
)

SELECT k.metric
       , fleiss_kappa.coefficient AS fleiss_kappa__coefficient
       , fleiss_kappa.value AS fleiss_kappa__value
       , fleiss_kappa.observed_agreement AS fleiss_kappa__observed_agreement
       , fleiss_kappa.chance_agreement AS fleiss_kappa__chance_agreement
       , fleiss_kappa.n_items AS fleiss_kappa__n_items
       , fleiss_kappa.n_raters AS fleiss_kappa__n_raters
       , fleiss_kappa.n_categories AS fleiss_kappa__n_categories
       , fleiss_kappa.variance AS fleiss_kappa__variance
       , conger_kappa.coefficient AS conger_kappa__coefficient
       , conger_kappa.value AS conger_kappa__value
       , conger_kappa.observed_agreement AS conger_kappa__observed_agreement
       , conger_kappa.chance_agreement AS conger_kappa__chance_agreement
       , conger_kappa.n_items AS conger_kappa__n_items
       , conger_kappa.n_raters AS conger_kappa__n_raters
       , conger_kappa.n_categories AS conger_kappa__n_categories
       , conger_kappa.variance AS conger_kappa__variance
       , alpha.value AS krippendorff_alpha__value
       , alpha.observed_disagreement AS krippendorff_alpha__observed_disagreement
       , alpha.expected_disagreement AS krippendorff_alpha__expected_disagreement
       , alpha.n_items AS krippendorff_alpha__n_items
       , alpha.n_raters AS krippendorff_alpha__n_raters
       , alpha.n_values AS krippendorff_alpha__n_values
       , alpha.n_categories AS krippendorff_alpha__n_categories
FROM coefficient_keys AS k
LEFT JOIN fleiss_kappa ON k.metric = fleiss_kappa.metric
LEFT JOIN conger_kappa ON k.metric = conger_kappa.metric
LEFT JOIN alpha ON k.metric = alpha.metric
ORDER BY k.metric
