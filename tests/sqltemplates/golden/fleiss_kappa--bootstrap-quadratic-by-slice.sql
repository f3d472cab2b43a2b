-- agreement-sql: fleiss_kappa (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $n_boot = 1000
-- parameter: $seed = 1
-- parameter: $ci_low_p = 0.025
-- parameter: $ci_high_p = 0.975
-- fleiss_kappa: Fleiss' kappa for many raters, in Gwet's generalisation to items rated by
--   different numbers of raters (equal to Fleiss 1971 on complete data).
-- Source: Fleiss (1971); Gwet (2014) Handbook of Inter-Rater Reliability, 4th ed., ch. 5 (irrCAC
--   fleiss.kappa.raw); formulas in sql/_kappa_items.sql.j2 and sql/_fleiss.sql.j2.
-- Reads: the ratings relation; returns one row per metric (and slice): value, p_a, p_e, counts[, se, CI].
-- One pass (unweighted, no bootstrap, a small domain; agreement_sql/profile.py): one per-unit
--   aggregation counts each category in its own column and the input problems (check_*
--   columns), and sql/_kappa_wide.sql.j2 computes the coefficient from the unit rows.
-- Undefined: NULL when no item has two ratings; 1.0 when every rating is one category.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', n_boot := 1000, seed := 1, ci_low_p := 0.025, ci_high_p := 0.975);
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
ratings_base AS NOT MATERIALIZED (
  SELECT metric, slice_0, item, rater, value_text, x
  FROM ratings_in
)
,
boot_units AS (
  -- the resampling units: every item of a metric (and slice), numbered 1..N in item order
  SELECT metric, slice_0, item,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0 ORDER BY item) AS unit_no,
         COUNT(*) OVER (PARTITION BY metric, slice_0) AS n_units
  FROM (
    SELECT metric, slice_0, item FROM ratings_base
    GROUP BY metric, slice_0, item
  ) AS u
),
boot_digits AS (
  SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
  UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9
),
boot_replicates AS (
  -- b = 1..$n_boot from five decimal digits
  SELECT r.replicate
  FROM (
    SELECT 1 + d0.d + 10 * d1.d + 100 * d2.d + 1000 * d3.d + 10000 * d4.d AS replicate
    FROM boot_digits AS d0
    CROSS JOIN boot_digits AS d1
    CROSS JOIN boot_digits AS d2
    CROSS JOIN boot_digits AS d3
    CROSS JOIN boot_digits AS d4
  ) AS r
  WHERE r.replicate <= $n_boot
),
boot_minstd AS (
  -- x0 = the seeded state; tI = 2^I; pI = 48271^(2^I) mod (2^31 - 1)
  SELECT CASE WHEN CAST($seed AS BIGINT) % 2147483647 = 0 THEN CAST(1 AS BIGINT)
              ELSE CAST($seed AS BIGINT) % 2147483647 END AS x0,
         CAST(1 AS BIGINT) AS t0, CAST(48271 AS BIGINT) AS p0,
         CAST(2 AS BIGINT) AS t1, CAST(182605794 AS BIGINT) AS p1,
         CAST(4 AS BIGINT) AS t2, CAST(1914720637 AS BIGINT) AS p2,
         CAST(8 AS BIGINT) AS t3, CAST(854716505 AS BIGINT) AS p3,
         CAST(16 AS BIGINT) AS t4, CAST(1098894339 AS BIGINT) AS p4,
         CAST(32 AS BIGINT) AS t5, CAST(890442452 AS BIGINT) AS p5,
         CAST(64 AS BIGINT) AS t6, CAST(719080959 AS BIGINT) AS p6,
         CAST(128 AS BIGINT) AS t7, CAST(1617261148 AS BIGINT) AS p7,
         CAST(256 AS BIGINT) AS t8, CAST(944147713 AS BIGINT) AS p8,
         CAST(512 AS BIGINT) AS t9, CAST(1928592452 AS BIGINT) AS p9,
         CAST(1024 AS BIGINT) AS t10, CAST(1491754107 AS BIGINT) AS p10,
         CAST(2048 AS BIGINT) AS t11, CAST(560989 AS BIGINT) AS p11,
         CAST(4096 AS BIGINT) AS t12, CAST(1176045659 AS BIGINT) AS p12,
         CAST(8192 AS BIGINT) AS t13, CAST(208615010 AS BIGINT) AS p13,
         CAST(16384 AS BIGINT) AS t14, CAST(1706997846 AS BIGINT) AS p14,
         CAST(32768 AS BIGINT) AS t15, CAST(1363399672 AS BIGINT) AS p15,
         CAST(65536 AS BIGINT) AS t16, CAST(1189788791 AS BIGINT) AS p16,
         CAST(131072 AS BIGINT) AS t17, CAST(1335192557 AS BIGINT) AS p17,
         CAST(262144 AS BIGINT) AS t18, CAST(1188894991 AS BIGINT) AS p18,
         CAST(524288 AS BIGINT) AS t19, CAST(563429426 AS BIGINT) AS p19,
         CAST(1048576 AS BIGINT) AS t20, CAST(924626149 AS BIGINT) AS p20,
         CAST(2097152 AS BIGINT) AS t21, CAST(1150758874 AS BIGINT) AS p21,
         CAST(4194304 AS BIGINT) AS t22, CAST(1893669646 AS BIGINT) AS p22,
         CAST(8388608 AS BIGINT) AS t23, CAST(1221060861 AS BIGINT) AS p23,
         CAST(16777216 AS BIGINT) AS t24, CAST(113485918 AS BIGINT) AS p24,
         CAST(33554432 AS BIGINT) AS t25, CAST(1447757152 AS BIGINT) AS p25,
         CAST(67108864 AS BIGINT) AS t26, CAST(1619648305 AS BIGINT) AS p26,
         CAST(134217728 AS BIGINT) AS t27, CAST(769116844 AS BIGINT) AS p27,
         CAST(268435456 AS BIGINT) AS t28, CAST(365365725 AS BIGINT) AS p28,
         CAST(536870912 AS BIGINT) AS t29, CAST(464244102 AS BIGINT) AS p29,
         CAST(1073741824 AS BIGINT) AS t30, CAST(2147435376 AS BIGINT) AS p30,
         CAST(2147483648 AS BIGINT) AS t31
),
boot_block_offsets AS (
  -- replicate b starts after output (b - 1) N of the stream
  SELECT s.metric, s.slice_0, r.replicate, s.n_units,
         (CAST(r.replicate - 1 AS BIGINT) * s.n_units) % 2147483646 AS e
  FROM (
    SELECT metric, slice_0, MIN(n_units) AS n_units FROM boot_units
    GROUP BY metric, slice_0
  ) AS s
  CROSS JOIN boot_replicates AS r
),
boot_blocks AS (
  -- x_((b - 1) N) = x_0 48271^((b - 1) N) mod (2^31 - 1)
  SELECT o.metric, o.slice_0, o.replicate, o.n_units,
         (w.x0 * (((((((((((((((((((((((((((((((CAST(1 AS BIGINT)
           * CASE WHEN o.e % w.t1 >= w.t0 THEN w.p0 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t2 >= w.t1 THEN w.p1 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t3 >= w.t2 THEN w.p2 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t4 >= w.t3 THEN w.p3 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t5 >= w.t4 THEN w.p4 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t6 >= w.t5 THEN w.p5 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t7 >= w.t6 THEN w.p6 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t8 >= w.t7 THEN w.p7 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t9 >= w.t8 THEN w.p8 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t10 >= w.t9 THEN w.p9 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t11 >= w.t10 THEN w.p10 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t12 >= w.t11 THEN w.p11 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t13 >= w.t12 THEN w.p12 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t14 >= w.t13 THEN w.p13 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t15 >= w.t14 THEN w.p14 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t16 >= w.t15 THEN w.p15 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t17 >= w.t16 THEN w.p16 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t18 >= w.t17 THEN w.p17 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t19 >= w.t18 THEN w.p18 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t20 >= w.t19 THEN w.p19 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t21 >= w.t20 THEN w.p20 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t22 >= w.t21 THEN w.p21 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t23 >= w.t22 THEN w.p22 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t24 >= w.t23 THEN w.p23 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t25 >= w.t24 THEN w.p24 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t26 >= w.t25 THEN w.p25 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t27 >= w.t26 THEN w.p26 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t28 >= w.t27 THEN w.p27 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t29 >= w.t28 THEN w.p28 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t30 >= w.t29 THEN w.p29 ELSE 1 END) % 2147483647
           * CASE WHEN o.e % w.t31 >= w.t30 THEN w.p30 ELSE 1 END) % 2147483647
) % 2147483647 AS state
  FROM boot_block_offsets AS o
  CROSS JOIN boot_minstd AS w
),
boot_steps AS (
  -- 48271^j mod (2^31 - 1) for draw j = 1..N (the draws reuse the unit numbers as counters)
  SELECT u.metric, u.slice_0, u.unit_no AS draw_no,
         (((((((((((((((((((((((((((((((CAST(1 AS BIGINT)
           * CASE WHEN u.unit_no % w.t1 >= w.t0 THEN w.p0 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t2 >= w.t1 THEN w.p1 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t3 >= w.t2 THEN w.p2 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t4 >= w.t3 THEN w.p3 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t5 >= w.t4 THEN w.p4 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t6 >= w.t5 THEN w.p5 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t7 >= w.t6 THEN w.p6 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t8 >= w.t7 THEN w.p7 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t9 >= w.t8 THEN w.p8 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t10 >= w.t9 THEN w.p9 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t11 >= w.t10 THEN w.p10 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t12 >= w.t11 THEN w.p11 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t13 >= w.t12 THEN w.p12 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t14 >= w.t13 THEN w.p13 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t15 >= w.t14 THEN w.p14 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t16 >= w.t15 THEN w.p15 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t17 >= w.t16 THEN w.p16 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t18 >= w.t17 THEN w.p17 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t19 >= w.t18 THEN w.p18 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t20 >= w.t19 THEN w.p19 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t21 >= w.t20 THEN w.p20 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t22 >= w.t21 THEN w.p21 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t23 >= w.t22 THEN w.p22 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t24 >= w.t23 THEN w.p23 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t25 >= w.t24 THEN w.p24 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t26 >= w.t25 THEN w.p25 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t27 >= w.t26 THEN w.p26 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t28 >= w.t27 THEN w.p27 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t29 >= w.t28 THEN w.p28 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t30 >= w.t29 THEN w.p29 ELSE 1 END) % 2147483647
           * CASE WHEN u.unit_no % w.t31 >= w.t30 THEN w.p30 ELSE 1 END) % 2147483647
 AS a_j
  FROM boot_units AS u
  CROSS JOIN boot_minstd AS w
),
boot_draws AS (
  -- draw j of replicate b: x_((b - 1) N + j) = x_((b - 1) N) 48271^j; it picks unit 1 + x mod N
  SELECT b.metric, b.slice_0, b.replicate, j.draw_no,
         1 + ((b.state * j.a_j) % 2147483647) % b.n_units AS unit_no
  FROM boot_blocks AS b
  JOIN boot_steps AS j ON b.metric = j.metric AND b.slice_0 = j.slice_0
),
ratings_observed AS (
  -- the observed ratings, for what is counted once rather than per replicate
  SELECT metric, slice_0, item, rater, value_text, x FROM ratings_base
),
ratings AS (
  -- replicate 0: the observed ratings; replicate b: each draw's ratings under the draw's number
  SELECT metric, slice_0, 0 AS replicate, item, rater, value_text, x
  FROM ratings_base
  UNION ALL
  SELECT d.metric, d.slice_0, d.replicate, CAST(d.draw_no AS VARCHAR) AS item,
         r.rater, r.value_text, r.x
  FROM boot_draws AS d
  JOIN boot_units AS u ON d.metric = u.metric AND d.slice_0 = u.slice_0 AND u.unit_no = d.unit_no
  JOIN ratings_base AS r ON u.metric = r.metric AND u.slice_0 = r.slice_0 AND r.item = u.item
)
,
counts AS (
  SELECT metric, slice_0, replicate, item,
x AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, slice_0, replicate, item, x
),
units AS (
  -- m_u = sum_c n_uc raters in unit u; S1_u = sum x, S2_u = sum x^2; Q_u = sum_c n_uc^2
  SELECT metric, slice_0, replicate, item,
         SUM(n_uc) AS m_u,
         SUM(n_uc * x) AS s1_u,
         SUM(n_uc * x * x) AS s2_u,
         SUM(n_uc * n_uc) AS q_u,
         MIN(x) AS x_min,
         MAX(x) AS x_max,
         MIN(cat) AS cat_min
  FROM counts
  GROUP BY metric, slice_0, replicate, item
)
,
kappa_used AS (
  -- the categories used in the metric (and slice)
  SELECT metric, slice_0, replicate, cat, MIN(x) AS x
  FROM counts
  GROUP BY metric, slice_0, replicate, cat
),
kappa_domain AS (
  -- the category domain with each category's 0-based position
  SELECT metric, slice_0, replicate, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0, replicate ORDER BY cat) - 1 AS position
  FROM kappa_used
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores
  SELECT d.metric, d.slice_0, d.replicate,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM kappa_domain AS d
  GROUP BY d.metric, d.slice_0, d.replicate
),
kappa_weights AS (
  -- w_kl for every pair of categories in the domain
  SELECT a.metric, a.slice_0, a.replicate, a.cat AS cat_k, b.cat AS cat_l,
         COALESCE(1.0 - POWER(a.x - b.x, 2) / NULLIF(s.span * s.span, 0.0), 1.0) AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate
  JOIN kappa_span AS s ON a.metric = s.metric AND a.slice_0 = s.slice_0 AND a.replicate = s.replicate
  
),
kappa_items AS (
  -- r_i and pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1))
  SELECT u.metric, u.slice_0, u.replicate, u.item, u.m_u AS r_i,
         CASE WHEN u.m_u >= 2
              THEN (a.s_w - u.m_u) / NULLIF(CAST(u.m_u AS DOUBLE) * (u.m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units AS u
  JOIN (
    SELECT a.metric, a.slice_0, a.replicate, a.item, SUM(w.w * a.n_uc * b.n_uc) AS s_w
    FROM counts AS a
    JOIN counts AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate AND b.item = a.item
    JOIN kappa_weights AS w ON a.metric = w.metric AND a.slice_0 = w.slice_0 AND a.replicate = w.replicate AND w.cat_k = a.cat AND w.cat_l = b.cat
    GROUP BY a.metric, a.slice_0, a.replicate, a.item
  ) AS a ON u.metric = a.metric AND u.slice_0 = a.slice_0 AND u.replicate = a.replicate AND a.item = u.item
),
kappa_totals AS (
  -- n items rated at least once, n2 rated two or more times, p_a = sum_i pa_i / n2
  SELECT metric, slice_0, replicate,
         COUNT(*) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN 1 ELSE 0 END) AS n_items,
         SUM(pa_i) / NULLIF(SUM(CASE WHEN r_i >= 2 THEN 1.0 ELSE 0.0 END), 0.0) AS p_a
  FROM kappa_items
  GROUP BY metric, slice_0, replicate
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.slice_0, d.replicate, d.cat, COALESCE(s.pi_k, 0.0) AS pi_k
  FROM kappa_domain AS d
  LEFT JOIN (
    SELECT c.metric, c.slice_0, c.replicate, c.cat,
           SUM(CAST(c.n_uc AS DOUBLE) / NULLIF(u.m_u, 0)) / NULLIF(MIN(t.n_rated), 0) AS pi_k
    FROM counts AS c
    JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND c.replicate = u.replicate AND u.item = c.item
    JOIN kappa_totals AS t ON c.metric = t.metric AND c.slice_0 = t.slice_0 AND c.replicate = t.replicate
    GROUP BY c.metric, c.slice_0, c.replicate, c.cat
  ) AS s ON d.metric = s.metric AND d.slice_0 = s.slice_0 AND d.replicate = s.replicate AND s.cat = d.cat
),
kappa_summary AS (
  -- per metric (and slice): n, n2, p_a, raters, q, categories used, T_w = sum_kl w_kl
  SELECT t.metric, t.slice_0, t.replicate, t.n_rated, t.n_items, t.p_a,
         r.n_raters, s.n_categories, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN (
    SELECT metric, slice_0, replicate, COUNT(DISTINCT rater) AS n_raters FROM ratings GROUP BY metric, slice_0, replicate
  ) AS r ON t.metric = r.metric AND t.slice_0 = r.slice_0 AND t.replicate = r.replicate
  JOIN kappa_span AS s ON t.metric = s.metric AND t.slice_0 = s.slice_0 AND t.replicate = s.replicate
  JOIN (
    SELECT metric, slice_0, replicate, COUNT(*) AS n_used FROM kappa_used GROUP BY metric, slice_0, replicate
  ) AS u ON t.metric = u.metric AND t.slice_0 = u.slice_0 AND t.replicate = u.replicate
  JOIN (
    SELECT metric, slice_0, replicate, SUM(w) AS t_w FROM kappa_weights GROUP BY metric, slice_0, replicate
  ) AS w ON t.metric = w.metric AND t.slice_0 = w.slice_0 AND t.replicate = w.replicate
)
,
fleiss_kappa_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT w.metric, w.slice_0, w.replicate, SUM(w.w * a.pi_k * b.pi_k) AS p_e
  FROM kappa_weights AS w
  JOIN kappa_shares AS a ON w.metric = a.metric AND w.slice_0 = a.slice_0 AND w.replicate = a.replicate AND a.cat = w.cat_k
  JOIN kappa_shares AS b ON w.metric = b.metric AND w.slice_0 = b.slice_0 AND w.replicate = b.replicate AND b.cat = w.cat_l
  GROUP BY w.metric, w.slice_0, w.replicate
),
fleiss_kappa_pibar AS (
  -- pibar_k = (sum_l w_kl pi_l + sum_l w_lk pi_l) / 2
  SELECT metric, slice_0, replicate, cat, SUM(half) AS pibar_k
  FROM (
    SELECT w.metric, w.slice_0, w.replicate, w.cat_k AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND w.replicate = s.replicate AND s.cat = w.cat_l
    UNION ALL
    SELECT w.metric, w.slice_0, w.replicate, w.cat_l AS cat, w.w * s.pi_k / 2.0 AS half
    FROM kappa_weights AS w
    JOIN kappa_shares AS s ON w.metric = s.metric AND w.slice_0 = s.slice_0 AND w.replicate = s.replicate AND s.cat = w.cat_k
  ) AS h
  GROUP BY metric, slice_0, replicate, cat
),
fleiss_kappa_item_expected AS (
  -- pe_i = sum_k r_ik pibar_k / r_i
  SELECT c.metric, c.slice_0, c.replicate, c.item, SUM(c.n_uc * p.pibar_k) / NULLIF(MIN(u.m_u), 0) AS pe_i
  FROM counts AS c
  JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND c.replicate = u.replicate AND u.item = c.item
  JOIN fleiss_kappa_pibar AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND c.replicate = p.replicate AND p.cat = c.cat
  GROUP BY c.metric, c.slice_0, c.replicate, c.item
),
fleiss_kappa_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN fleiss_kappa_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
fleiss_kappa_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.replicate, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0 AND i.replicate = s.replicate
  JOIN fleiss_kappa_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0 AND i.replicate = v.replicate
  JOIN fleiss_kappa_item_expected AS p ON i.metric = p.metric AND i.slice_0 = p.slice_0 AND i.replicate = p.replicate AND p.item = i.item
),
fleiss_kappa AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0, s.replicate,
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
  JOIN fleiss_kappa_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN fleiss_kappa_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
fleiss_kappa_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM fleiss_kappa AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
fleiss_kappa_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM fleiss_kappa_boot_values
  GROUP BY metric, slice_0
),
bootstrap AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM fleiss_kappa AS e
  LEFT JOIN fleiss_kappa_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)

SELECT c.*
FROM bootstrap AS c
ORDER BY c.metric, c.slice_0, c.replicate
