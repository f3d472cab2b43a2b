-- agreement-sql: coefficients (spark)
-- reads relation: `ratings`
-- reads relation: `rater_bits`
-- parameter: :default_metric = 'value'
-- parameter: :category_0
-- parameter: :category_1
-- parameter: :pair_max_raters = 10
-- parameter: :z = 1.959963984540054
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
         SUM(CASE WHEN r.x = CAST(:category_0 AS DOUBLE) THEN 1.0 WHEN r.x = CAST(:category_1 AS DOUBLE) THEN 512.0 END) AS pack_0,
         COUNT(*) AS m_u
  FROM ratings AS r
  LEFT JOIN `rater_bits` AS c ON c.rater = r.rater
  GROUP BY r.metric, r.item
),
unit_profile AS (
  SELECT metric, item,
or_bit_0, 
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 1.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(COALESCE(pack_0, 0.0) / 512.0) - 512.0 * FLOOR(COALESCE(pack_0, 0.0) / 262144.0) AS BIGINT) AS n_1,
         m_u
  FROM unit_packed
)
,
units AS (
  SELECT metric, item, m_u,
or_bit_0, 
n_0 * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) + 0.0 AS s1_u,
n_0 * CAST(:category_0 AS DOUBLE) * CAST(:category_0 AS DOUBLE) + n_1 * CAST(:category_1 AS DOUBLE) * CAST(:category_1 AS DOUBLE) + 0.0 AS s2_u,
n_0 * n_0 + n_1 * n_1 + 0 AS q_u,
         n_0,
         n_1,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) END AS cat_min
         ,
         CASE WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) END AS x_min,
         CASE WHEN n_1 > 0 THEN CAST(:category_1 AS DOUBLE) WHEN n_0 > 0 THEN CAST(:category_0 AS DOUBLE) END AS x_max
  FROM unit_profile
)
,
kappa_wide AS (
  -- per metric, one pass over the unit rows: n, n2, sum_i pa_i and, per category k,
  -- sum_i r_ik / r_i and sum_i r_ik; and the input checks and raters
  SELECT metric,
         SUM(CASE WHEN m_u >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(CASE WHEN units.m_u >= 2 THEN CAST(units.q_u - units.m_u AS DOUBLE) / NULLIF(CAST(units.m_u AS DOUBLE) * (units.m_u - 1), 0.0) ELSE 0.0 END) AS sum_pa,
         SUM(CAST(n_0 AS DOUBLE) / NULLIF(m_u, 0)) AS share_0,
         SUM(n_0) AS count_0,
         SUM(CAST(n_1 AS DOUBLE) / NULLIF(m_u, 0)) AS share_1,
         SUM(n_1) AS count_1,
         SUM(m_u) AS check_n_ratings,
         SUM(CASE WHEN item IS NULL THEN m_u ELSE 0 END) AS check_n_null_item,
         SUM(CASE WHEN 1 = 0 THEN m_u ELSE 0 END) AS check_n_null_slice,
         SUM((m_u - n_0 - n_1)) AS check_n_not_numeric,
         SUM(CASE WHEN m_u <> CAST(BIT_COUNT(or_bit_0) AS BIGINT) + 0 THEN 1 ELSE 0 END) AS check_n_duplicate,
         BIT_OR(or_bit_0) AS raters_bit_0,
         CAST(BIT_COUNT(BIT_OR(or_bit_0)) AS BIGINT) + 0 AS check_n_raters,
         COUNT(*) AS n_rated
  FROM units
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
  FROM kappa_wide
),
kappa_wide_summary AS (
  -- p_a = sum_i pa_i / n2, pi_k = (1/n) sum_i r_ik / r_i, the categories used, q, raters
  SELECT w.metric, w.n_rated, w.n_items,
         w.sum_pa / NULLIF(CAST(w.n_items AS DOUBLE), 0.0) AS p_a,
         w.share_0 / NULLIF(w.n_rated, 0) AS pi_0,
         w.share_1 / NULLIF(w.n_rated, 0) AS pi_1,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_used,
         CASE WHEN w.count_0 > 0 THEN 1 ELSE 0 END + CASE WHEN w.count_1 > 0 THEN 1 ELSE 0 END + 0 AS n_categories,
         w.check_n_raters AS n_raters
  FROM kappa_wide AS w
),
kappa_wide_expected AS (
  -- p_e of each coefficient
  SELECT s.*,
         (s.pi_0 * s.pi_0 + s.pi_1 * s.pi_1 + 0.0) AS fleiss_kappa_p_e,
         CAST(s.n_categories AS DOUBLE) * (s.pi_0 * (1.0 - s.pi_0) + s.pi_1 * (1.0 - s.pi_1) + 0.0)
  / NULLIF(CAST(s.n_categories AS DOUBLE) * (CAST(s.n_categories AS DOUBLE) - 1.0), 0.0) AS gwet_ac1_p_e
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
              ELSE (e.p_a - e.gwet_ac1_p_e) / NULLIF(1.0 - e.gwet_ac1_p_e, 0.0) END AS gwet_ac1_value
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
             - 2.0 * (1.0 - v.fleiss_kappa_value) * ((u.n_0 * v.pi_0 + u.n_1 * v.pi_1 + 0.0) / NULLIF(u.m_u, 0) - v.fleiss_kappa_p_e)
               / NULLIF(1.0 - v.fleiss_kappa_p_e, 0.0)
           - v.fleiss_kappa_value, 2)) AS fleiss_kappa_ss,
         SUM(POWER(
           CAST(v.n_rated AS DOUBLE) / NULLIF(v.n_items, 0)
             * (CASE WHEN u.m_u >= 2 THEN CAST(u.q_u - u.m_u AS DOUBLE) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0) ELSE 0.0 END - CASE WHEN u.m_u >= 2 THEN v.gwet_ac1_p_e ELSE 0.0 END)
             / NULLIF(1.0 - v.gwet_ac1_p_e, 0.0)
             - 2.0 * (1.0 - v.gwet_ac1_value) * (CAST(v.n_categories AS DOUBLE) * (u.n_0 * (1.0 - v.pi_0) + u.n_1 * (1.0 - v.pi_1) + 0.0)
  / NULLIF(u.m_u * CAST(v.n_categories AS DOUBLE) * (CAST(v.n_categories AS DOUBLE) - 1.0), 0.0) - v.gwet_ac1_p_e)
               / NULLIF(1.0 - v.gwet_ac1_p_e, 0.0)
           - v.gwet_ac1_value, 2)) AS gwet_ac1_ss
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
    WHERE s.metric = ratings.metric AND s.n_raters <= :pair_max_raters)
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
       , SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__se,
fleiss_kappa.value - :z * SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__ci_low,
fleiss_kappa.value + :z * SQRT(CASE WHEN fleiss_kappa.variance < 0.0 THEN 0.0 ELSE fleiss_kappa.variance END) AS fleiss_kappa__ci_high
       , gwet_ac1.coefficient AS gwet_ac1__coefficient
       , gwet_ac1.value AS gwet_ac1__value
       , gwet_ac1.observed_agreement AS gwet_ac1__observed_agreement
       , gwet_ac1.chance_agreement AS gwet_ac1__chance_agreement
       , gwet_ac1.n_items AS gwet_ac1__n_items
       , gwet_ac1.n_raters AS gwet_ac1__n_raters
       , gwet_ac1.n_categories AS gwet_ac1__n_categories
       , gwet_ac1.variance AS gwet_ac1__variance
       , SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__se,
gwet_ac1.value - :z * SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__ci_low,
gwet_ac1.value + :z * SQRT(CASE WHEN gwet_ac1.variance < 0.0 THEN 0.0 ELSE gwet_ac1.variance END) AS gwet_ac1__ci_high
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
       , CASE WHEN ps.n_raters > :pair_max_raters THEN 1 ELSE 0 END AS cohen_kappa__skipped
       , ps.n_raters AS cohen_kappa__metric_raters
       , SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__se,
cohen_kappa.value - :z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_low,
cohen_kappa.value + :z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_high
       , cohen_kappa.se0 AS cohen_kappa__se0
       , cohen_kappa.z AS cohen_kappa__z
       , cohen_kappa.p_one_sided AS cohen_kappa__p_one_sided
       , cohen_kappa.p_value AS cohen_kappa__p_value
       , p.*
FROM coefficient_keys AS k
LEFT JOIN fleiss_kappa ON k.metric = fleiss_kappa.metric
LEFT JOIN gwet_ac1 ON k.metric = gwet_ac1.metric
LEFT JOIN cohen_kappa ON k.metric = cohen_kappa.metric
LEFT JOIN pair_scope AS ps ON k.metric = ps.metric
CROSS JOIN profile_checks AS p
ORDER BY k.metric
