-- agreement-sql: coefficients (spark)
-- reads relation: `ratings`
-- parameter: :default_metric = 'value'
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
kappa_used AS (
  -- the categories used in the metric (and slice)
  SELECT metric, cat, MIN(x) AS x
  FROM counts
  GROUP BY metric, cat
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
         COALESCE(1.0 - ABS(a.x - b.x) / NULLIF(s.span, 0.0), 1.0) AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric
  JOIN kappa_span AS s ON a.metric = s.metric
  
),
kappa_items AS (
  -- r_i and pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1))
  SELECT u.metric, u.item, u.m_u AS r_i,
         CASE WHEN u.m_u >= 2
              THEN (a.s_w - u.m_u) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units AS u
  JOIN (
    SELECT a.metric, a.item, SUM(w.w * a.n_uc * b.n_uc) AS s_w
    FROM counts AS a
    JOIN counts AS b ON a.metric = b.metric AND b.item = a.item
    JOIN kappa_weights AS w ON a.metric = w.metric AND w.cat_k = a.cat AND w.cat_l = b.cat
    GROUP BY a.metric, a.item
  ) AS a ON u.metric = a.metric AND a.item = u.item
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
    SELECT c.metric, c.cat,
           SUM(CAST(c.n_uc AS DOUBLE) / NULLIF(u.m_u, 0)) / NULLIF(MIN(t.n_rated), 0) AS pi_k
    FROM counts AS c
    JOIN units AS u ON c.metric = u.metric AND u.item = c.item
    JOIN kappa_totals AS t ON c.metric = t.metric
    GROUP BY c.metric, c.cat
  ) AS s ON d.metric = s.metric AND s.cat = d.cat
),
kappa_summary AS (
  -- per metric (and slice): n, n2, p_a, raters, q, categories used, T_w = sum_kl w_kl
  SELECT t.metric, t.n_rated, t.n_items, t.p_a,
         r.n_raters, s.n_categories, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN (
    SELECT metric, COUNT(DISTINCT rater) AS n_raters FROM ratings GROUP BY metric
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
fleiss_kappa_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT w.metric, SUM(w.w * a.pi_k * b.pi_k) AS p_e
  FROM kappa_weights AS w
  JOIN kappa_shares AS a ON w.metric = a.metric AND a.cat = w.cat_k
  JOIN kappa_shares AS b ON w.metric = b.metric AND b.cat = w.cat_l
  GROUP BY w.metric
),
fleiss_kappa_pibar AS (
  -- pibar_k = (sum_l w_kl pi_l + sum_l w_lk pi_l) / 2
  SELECT metric, cat, SUM(half) AS pibar_k
  FROM (
    SELECT w.metric, w.cat_k AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND s.cat = w.cat_l
    UNION ALL
    SELECT w.metric, w.cat_l AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND s.cat = w.cat_k
  ) AS h
  GROUP BY metric, cat
),
fleiss_kappa_item_expected AS (
  -- pe_i = sum_k r_ik pibar_k / r_i
  SELECT c.metric, c.item, SUM(c.n_uc * p.pibar_k) / NULLIF(MIN(u.m_u), 0) AS pe_i
  FROM counts AS c
  JOIN units AS u ON c.metric = u.metric AND u.item = c.item
  JOIN fleiss_kappa_pibar AS p ON c.metric = p.metric AND p.cat = c.cat
  GROUP BY c.metric, c.item
),
fleiss_kappa_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN fleiss_kappa_expected AS e ON s.metric = e.metric
),
fleiss_kappa_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric
  JOIN fleiss_kappa_value AS v ON i.metric = v.metric
  JOIN fleiss_kappa_item_expected AS p ON i.metric = p.metric AND p.item = i.item
),
fleiss_kappa AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric,
         'fleiss_kappa' AS coefficient,
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
  JOIN fleiss_kappa_value AS v ON s.metric = v.metric
  LEFT JOIN fleiss_kappa_item_terms AS t ON s.metric = t.metric
  GROUP BY s.metric, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
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
gwet_ac1_expected AS (
  -- p_e = T_w sum_k pi_k (1 - pi_k) / (q (q - 1))
  SELECT s.metric,
         MIN(t.t_w) * SUM(s.pi_k * (1.0 - s.pi_k))
           / NULLIF(MIN(t.n_categories) * (MIN(t.n_categories) - 1.0), 0.0) AS p_e
  FROM kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric
  GROUP BY s.metric
),
gwet_ac1_item_expected AS (
  -- pe_i = T_w / (q (q - 1)) sum_k r_ik (1 - pi_k) / r_i
  SELECT c.metric, c.item,
         MIN(t.t_w) * SUM(c.n_uc * (1.0 - s.pi_k))
           / NULLIF(MIN(u.m_u) * MIN(t.n_categories) * (MIN(t.n_categories) - 1.0), 0.0) AS pe_i
  FROM counts AS c
  JOIN units AS u ON c.metric = u.metric AND u.item = c.item
  JOIN kappa_shares AS s ON c.metric = s.metric AND s.cat = c.cat
  JOIN kappa_summary AS t ON c.metric = t.metric
  GROUP BY c.metric, c.item
),
gwet_ac1_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN gwet_ac1_expected AS e ON s.metric = e.metric
),
gwet_ac1_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric
  JOIN gwet_ac1_value AS v ON i.metric = v.metric
  JOIN gwet_ac1_item_expected AS p ON i.metric = p.metric AND p.item = i.item
),
gwet_ac1 AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric,
         'gwet_ac2' AS coefficient,
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
  JOIN gwet_ac1_value AS v ON s.metric = v.metric
  LEFT JOIN gwet_ac1_item_terms AS t ON s.metric = t.metric
  GROUP BY s.metric, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
brennan_prediger_expected AS (
  -- p_e = T_w / q^2
  SELECT metric, t_w / NULLIF(CAST(n_categories AS DOUBLE) * n_categories, 0.0) AS p_e
  FROM kappa_summary
),
brennan_prediger_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN brennan_prediger_expected AS e ON s.metric = e.metric
),
brennan_prediger_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e)
  SELECT i.metric, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric
  JOIN brennan_prediger_value AS v ON i.metric = v.metric
),
brennan_prediger AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric,
         'brennan_prediger' AS coefficient,
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
  JOIN brennan_prediger_value AS v ON s.metric = v.metric
  LEFT JOIN brennan_prediger_item_terms AS t ON s.metric = t.metric
  GROUP BY s.metric, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
percent_agreement_expected AS (
  -- no chance correction: p_e = 0
  SELECT metric, CAST(0.0 AS DOUBLE) AS p_e
  FROM kappa_summary
),
percent_agreement_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN percent_agreement_expected AS e ON s.metric = e.metric
),
percent_agreement_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e)
  SELECT i.metric, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric
  JOIN percent_agreement_value AS v ON i.metric = v.metric
),
percent_agreement AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric,
         'percent_agreement' AS coefficient,
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
  JOIN percent_agreement_value AS v ON s.metric = v.metric
  LEFT JOIN percent_agreement_item_terms AS t ON s.metric = t.metric
  GROUP BY s.metric, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
confusion_ratings AS (
  -- the ratings of the chosen raters, with their category
  SELECT metric, item, rater,
x AS cat,
         x
  FROM ratings
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
         COALESCE(1.0 - ABS(a.x - b.x) / NULLIF(s.span, 0.0), 1.0) AS w
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
alpha_ranks AS (
  -- F_c: cumulative n_g over categories up to and including c (ordinal ranks)
  SELECT metric, cat, x, n_c,
         SUM(n_c) OVER (PARTITION BY metric ORDER BY x
                        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS f_c
  FROM alpha_marginals
),
alpha_value_pairs AS  (
  -- the pairs of distinct values within each unit, with their counts (a join over values,
  -- not raters); computed once so the rank lookups below join to a finished table
  SELECT a.metric, a.item, a.cat AS cat_a, b.cat AS cat_b, a.n_uc * b.n_uc AS n_ab
  FROM counts AS a
  JOIN counts AS b ON a.metric = b.metric AND a.item = b.item AND a.x < b.x
),
alpha_pair_terms AS (
  -- per unit: sum_{c<k} n_uc n_uk d2_ck
  SELECT v.metric, v.item, SUM(v.n_ab * POWER(rb.f_c - ra.f_c + (ra.n_c - rb.n_c) / 2.0, 2)) AS pair_sum
  FROM alpha_value_pairs AS v
  JOIN alpha_ranks AS ra ON v.metric = ra.metric AND ra.cat = v.cat_a
  JOIN alpha_ranks AS rb ON v.metric = rb.metric AND rb.cat = v.cat_b
  GROUP BY v.metric, v.item
),
alpha_observed AS (
  -- sum_ck o_ck d2_ck = 2 sum_u pair_sum_u / (m_u - 1); a unit with two values has m_u >= 2
  SELECT p.metric, SUM(2.0 * p.pair_sum / (u.m_u - 1)) AS do_sum
  FROM alpha_pair_terms AS p
  JOIN units AS u ON p.metric = u.metric AND p.item = u.item
  GROUP BY p.metric
),
alpha_expected AS (
  -- sum_ck n_c n_k d2_ck = 2 sum_{c<k} n_c n_k d2_ck
  SELECT a.metric, SUM(2.0 * a.n_c * b.n_c * POWER(b.f_c - a.f_c + (a.n_c - b.n_c) / 2.0, 2)) AS de_sum
  FROM alpha_ranks AS a
  JOIN alpha_ranks AS b ON a.metric = b.metric AND a.x < b.x
  GROUP BY a.metric
),
alpha_sums AS (
  SELECT t.metric,
         p.n_units,
         COALESCE(o.do_sum, 0.0) AS do_sum,
         COALESCE(e.de_sum, 0.0) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric
  LEFT JOIN alpha_observed AS o ON t.metric = o.metric
  LEFT JOIN alpha_expected AS e ON t.metric = e.metric
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
coefficient_keys AS (
  -- every metric (and slice) with a rating
  SELECT DISTINCT metric FROM ratings
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
       , SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__se,
cohen_kappa.value - :z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_low,
cohen_kappa.value + :z * SQRT(CASE WHEN cohen_kappa.variance < 0.0 THEN 0.0 ELSE cohen_kappa.variance END) AS cohen_kappa__ci_high
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
       , SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__se,
scott_pi.value - :z * SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__ci_low,
scott_pi.value + :z * SQRT(CASE WHEN scott_pi.variance < 0.0 THEN 0.0 ELSE scott_pi.variance END) AS scott_pi__ci_high
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
       , conger_kappa.coefficient AS conger_kappa__coefficient
       , conger_kappa.value AS conger_kappa__value
       , conger_kappa.observed_agreement AS conger_kappa__observed_agreement
       , conger_kappa.chance_agreement AS conger_kappa__chance_agreement
       , conger_kappa.n_items AS conger_kappa__n_items
       , conger_kappa.n_raters AS conger_kappa__n_raters
       , conger_kappa.n_categories AS conger_kappa__n_categories
       , conger_kappa.variance AS conger_kappa__variance
       , SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__se,
conger_kappa.value - :z * SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__ci_low,
conger_kappa.value + :z * SQRT(CASE WHEN conger_kappa.variance < 0.0 THEN 0.0 ELSE conger_kappa.variance END) AS conger_kappa__ci_high
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
       , brennan_prediger.coefficient AS brennan_prediger__coefficient
       , brennan_prediger.value AS brennan_prediger__value
       , brennan_prediger.observed_agreement AS brennan_prediger__observed_agreement
       , brennan_prediger.chance_agreement AS brennan_prediger__chance_agreement
       , brennan_prediger.n_items AS brennan_prediger__n_items
       , brennan_prediger.n_raters AS brennan_prediger__n_raters
       , brennan_prediger.n_categories AS brennan_prediger__n_categories
       , brennan_prediger.variance AS brennan_prediger__variance
       , SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__se,
brennan_prediger.value - :z * SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__ci_low,
brennan_prediger.value + :z * SQRT(CASE WHEN brennan_prediger.variance < 0.0 THEN 0.0 ELSE brennan_prediger.variance END) AS brennan_prediger__ci_high
       , percent_agreement.coefficient AS percent_agreement__coefficient
       , percent_agreement.value AS percent_agreement__value
       , percent_agreement.observed_agreement AS percent_agreement__observed_agreement
       , percent_agreement.chance_agreement AS percent_agreement__chance_agreement
       , percent_agreement.n_items AS percent_agreement__n_items
       , percent_agreement.n_raters AS percent_agreement__n_raters
       , percent_agreement.n_categories AS percent_agreement__n_categories
       , percent_agreement.variance AS percent_agreement__variance
       , SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__se,
percent_agreement.value - :z * SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__ci_low,
percent_agreement.value + :z * SQRT(CASE WHEN percent_agreement.variance < 0.0 THEN 0.0 ELSE percent_agreement.variance END) AS percent_agreement__ci_high
       , alpha.value AS krippendorff_alpha__value
       , alpha.observed_disagreement AS krippendorff_alpha__observed_disagreement
       , alpha.expected_disagreement AS krippendorff_alpha__expected_disagreement
       , alpha.n_items AS krippendorff_alpha__n_items
       , alpha.n_raters AS krippendorff_alpha__n_raters
       , alpha.n_values AS krippendorff_alpha__n_values
       , alpha.n_categories AS krippendorff_alpha__n_categories
FROM coefficient_keys AS k
LEFT JOIN cohen_kappa ON k.metric = cohen_kappa.metric
LEFT JOIN scott_pi ON k.metric = scott_pi.metric
LEFT JOIN fleiss_kappa ON k.metric = fleiss_kappa.metric
LEFT JOIN conger_kappa ON k.metric = conger_kappa.metric
LEFT JOIN gwet_ac1 ON k.metric = gwet_ac1.metric
LEFT JOIN brennan_prediger ON k.metric = brennan_prediger.metric
LEFT JOIN percent_agreement ON k.metric = percent_agreement.metric
LEFT JOIN alpha ON k.metric = alpha.metric
ORDER BY k.metric
