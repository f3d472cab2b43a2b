-- agreement-sql: fleiss_kappa (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- fleiss_kappa: Fleiss' kappa for many raters, in Gwet's generalisation to items rated by
--   different numbers of raters (equal to Fleiss 1971 on complete data).
-- Source: Fleiss (1971); Gwet (2014) Handbook of Inter-Rater Reliability, 4th ed., ch. 5 (irrCAC
--   fleiss.kappa.raw); formulas in sql/_kappa_items.sql.j2 and sql/_fleiss.sql.j2.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e, counts[, se, CI].
-- One pass (unweighted, no bootstrap, a small domain; agreement_sql/profile.py): one per-unit
--   aggregation counts each category in its own column and the input problems (check_*
--   columns), and sql/_kappa_wide.sql.j2 computes the coefficient from the unit rows.
-- Undefined: NULL when no item has two ratings; 1.0 when every rating is one category.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value');
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

SELECT c.*
FROM fleiss_kappa AS c
ORDER BY c.metric
