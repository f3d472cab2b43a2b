-- agreement-sql: conger_kappa (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $z = 1.959963984540054
-- conger_kappa: Conger's kappa, Cohen's kappa generalised to many raters (rater-specific chance).
-- Source: Conger (1980) Psychological Bulletin 88; Gwet (2014) ch. 5 (irrCAC conger.kappa.raw);
--   formulas in sql/_kappa_items.sql.j2 and sql/_conger.sql.j2.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e, counts[, se, CI].
-- Undefined: NULL when no item has two ratings or with one rater; 1.0 when one category.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', z := 1.959963984540054);
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

SELECT c.*,
       SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS se,
c.value - $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_low,
c.value + $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_high
FROM conger_kappa AS c
ORDER BY c.metric
