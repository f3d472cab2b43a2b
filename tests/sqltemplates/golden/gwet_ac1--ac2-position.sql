-- agreement-sql: gwet_ac1 (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $z = 1.959963984540054
-- gwet_ac1: Gwet's AC1 (AC2 when weighted): chance agreement from category prevalence.
-- Source: Gwet (2008) Br J Math Stat Psychol 61; Gwet (2014) ch. 5 (irrCAC gwet.ac1.raw);
--   formulas in sql/_kappa_items.sql.j2 and sql/_gwet_ac1.sql.j2.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e, counts[, se, CI].
-- One pass (unweighted, no bootstrap, a small domain; agreement_sql/profile.py): one per-unit
--   aggregation counts each category in its own column and the input problems (check_*
--   columns), and sql/_kappa_wide.sql.j2 computes the coefficient from the unit rows.
-- Undefined: NULL when no item has two ratings; 1.0 when every rating is one category.
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
         MAX(CAST(d.position AS DOUBLE)) - MIN(CAST(d.position AS DOUBLE)) AS span,
         COUNT(*) AS n_categories
  FROM kappa_domain AS d
  GROUP BY d.metric
),
kappa_weights AS (
  -- w_kl for every pair of categories in the domain
  SELECT a.metric, a.cat AS cat_k, b.cat AS cat_l,
         COALESCE(1.0 - POWER(CAST(a.position AS DOUBLE) - CAST(b.position AS DOUBLE), 2) / NULLIF(s.span * s.span, 0.0), 1.0) AS w
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

SELECT c.*,
       SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS se,
c.value - $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_low,
c.value + $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_high
FROM gwet_ac1 AS c
ORDER BY c.metric
