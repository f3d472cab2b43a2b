-- agreement-sql: fleiss_kappa (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $z = 1.959963984540054
-- fleiss_kappa: Fleiss' kappa for many raters, in Gwet's generalisation to items rated by
--   different numbers of raters (equal to Fleiss 1971 on complete data).
-- Source: Fleiss (1971); Gwet (2014) Handbook of Inter-Rater Reliability, 4th ed., ch. 5 (irrCAC
--   fleiss.kappa.raw); formulas in sql/_kappa_items.sql.j2 and sql/_fleiss.sql.j2.
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
counts AS (
  SELECT metric, slice_0, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, slice_0, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, slice_0, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, slice_0, item
)
,
kappa_used AS (
  -- the categories used in the metric (and slice)
  SELECT metric, slice_0, cat, MIN(x) AS x
  FROM counts
  GROUP BY metric, slice_0, cat
),
kappa_domain AS (
  -- the category domain with each category's 0-based position
  SELECT metric, slice_0, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0 ORDER BY cat) - 1 AS position
  FROM kappa_used
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores
  SELECT d.metric, d.slice_0,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM kappa_domain AS d
  GROUP BY d.metric, d.slice_0
),
kappa_weights AS (
  -- w_kl for every pair of categories in the domain
  SELECT a.metric, a.slice_0, a.cat AS cat_k, b.cat AS cat_l,
         COALESCE(1.0 - POWER(a.x - b.x, 2) / NULLIF(s.span * s.span, 0.0), 1.0) AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0
  JOIN kappa_span AS s ON a.metric = s.metric AND a.slice_0 = s.slice_0
  
),
kappa_items AS (
  -- r_i and pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1))
  SELECT u.metric, u.slice_0, u.item, u.m_u AS r_i,
         CASE WHEN u.m_u >= 2
              THEN (a.s_w - u.m_u) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units AS u
  JOIN (
    SELECT a.metric, a.slice_0, a.item, SUM(w.w * a.n_uc * b.n_uc) AS s_w
    FROM counts AS a
    JOIN counts AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND b.item = a.item
    JOIN kappa_weights AS w ON a.metric = w.metric AND a.slice_0 = w.slice_0 AND w.cat_k = a.cat AND w.cat_l = b.cat
    GROUP BY a.metric, a.slice_0, a.item
  ) AS a ON u.metric = a.metric AND u.slice_0 = a.slice_0 AND a.item = u.item
),
kappa_totals AS (
  -- n items rated at least once, n2 rated two or more times, p_a = sum_i pa_i / n2
  SELECT metric, slice_0,
         COUNT(*) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(pa_i) / NULLIF(SUM(CASE WHEN r_i >= 2 THEN 1.0 ELSE 0.0 END), 0.0) AS p_a
  FROM kappa_items
  GROUP BY metric, slice_0
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.slice_0, d.cat, COALESCE(s.pi_k, 0.0) AS pi_k
  FROM kappa_domain AS d
  LEFT JOIN (
    SELECT c.metric, c.slice_0, c.cat,
           SUM(CAST(c.n_uc AS DOUBLE) / NULLIF(u.m_u, 0)) / NULLIF(MIN(t.n_rated), 0) AS pi_k
    FROM counts AS c
    JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND u.item = c.item
    JOIN kappa_totals AS t ON c.metric = t.metric AND c.slice_0 = t.slice_0
    GROUP BY c.metric, c.slice_0, c.cat
  ) AS s ON d.metric = s.metric AND d.slice_0 = s.slice_0 AND s.cat = d.cat
),
kappa_summary AS (
  -- per metric (and slice): n, n2, p_a, raters, q, categories used, T_w = sum_kl w_kl
  SELECT t.metric, t.slice_0, t.n_rated, t.n_items, t.p_a,
         r.n_raters, s.n_categories, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN (
    SELECT metric, slice_0, COUNT(DISTINCT rater) AS n_raters FROM ratings GROUP BY metric, slice_0
  ) AS r ON t.metric = r.metric AND t.slice_0 = r.slice_0
  JOIN kappa_span AS s ON t.metric = s.metric AND t.slice_0 = s.slice_0
  JOIN (
    SELECT metric, slice_0, COUNT(*) AS n_used FROM kappa_used GROUP BY metric, slice_0
  ) AS u ON t.metric = u.metric AND t.slice_0 = u.slice_0
  JOIN (
    SELECT metric, slice_0, SUM(w) AS t_w FROM kappa_weights GROUP BY metric, slice_0
  ) AS w ON t.metric = w.metric AND t.slice_0 = w.slice_0
)
,
fleiss_kappa_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT w.metric, w.slice_0, SUM(w.w * a.pi_k * b.pi_k) AS p_e
  FROM kappa_weights AS w
  JOIN kappa_shares AS a ON w.metric = a.metric AND w.slice_0 = a.slice_0 AND a.cat = w.cat_k
  JOIN kappa_shares AS b ON w.metric = b.metric AND w.slice_0 = b.slice_0 AND b.cat = w.cat_l
  GROUP BY w.metric, w.slice_0
),
fleiss_kappa_pibar AS (
  -- pibar_k = (sum_l w_kl pi_l + sum_l w_lk pi_l) / 2
  SELECT metric, slice_0, cat, SUM(half) AS pibar_k
  FROM (
    SELECT w.metric, w.slice_0, w.cat_k AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND s.cat = w.cat_l
    UNION ALL
    SELECT w.metric, w.slice_0, w.cat_l AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND s.cat = w.cat_k
  ) AS h
  GROUP BY metric, slice_0, cat
),
fleiss_kappa_item_expected AS (
  -- pe_i = sum_k r_ik pibar_k / r_i
  SELECT c.metric, c.slice_0, c.item, SUM(c.n_uc * p.pibar_k) / NULLIF(MIN(u.m_u), 0) AS pe_i
  FROM counts AS c
  JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND u.item = c.item
  JOIN fleiss_kappa_pibar AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND p.cat = c.cat
  GROUP BY c.metric, c.slice_0, c.item
),
fleiss_kappa_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN fleiss_kappa_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0
),
fleiss_kappa_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0
  JOIN fleiss_kappa_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0
  JOIN fleiss_kappa_item_expected AS p ON i.metric = p.metric AND i.slice_0 = p.slice_0 AND p.item = i.item
),
fleiss_kappa AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0,
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
  JOIN fleiss_kappa_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0
  LEFT JOIN fleiss_kappa_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0
  GROUP BY s.metric, s.slice_0, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)

SELECT c.*,
       SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS se,
c.value - $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_low,
c.value + $z * SQRT(CASE WHEN c.variance < 0.0 THEN 0.0 ELSE c.variance END) AS ci_high
FROM fleiss_kappa AS c
ORDER BY c.metric, c.slice_0
