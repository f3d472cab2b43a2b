-- agreement-sql: coefficients (duckdb)
-- reads relation: "ratings"
-- parameter: $n_boot = 1000
-- parameter: $seed = 1
-- parameter: $ci_low_p = 0.025
-- parameter: $ci_high_p = 0.975
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
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(n_boot := 1000, seed := 1, ci_low_p := 0.025, ci_high_p := 0.975);
WITH
ratings_in AS NOT MATERIALIZED (
  SELECT
    CAST(src."question" AS VARCHAR) AS metric,
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
         CASE WHEN a.cat = b.cat THEN 1.0 ELSE 0.0 END AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate
  JOIN kappa_span AS s ON a.metric = s.metric AND a.slice_0 = s.slice_0 AND a.replicate = s.replicate
  
),
kappa_items AS (
  -- r_i and pa_i = sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) = (sum_kl w_kl r_ik r_il - r_i) / (r_i (r_i - 1))
  -- unweighted: sum_k r_ik (r_ik - 1) = Q_u - m_u
  SELECT metric, slice_0, replicate, item, m_u AS r_i,
         CASE WHEN m_u >= 2
              THEN CAST(q_u - m_u AS DOUBLE) / NULLIF(CAST(m_u AS DOUBLE) * (m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM units
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
conger_kappa_rater_counts AS (
  -- n_gk: items rater g rated k
  SELECT metric, slice_0, replicate, rater, x AS cat, COUNT(*) AS n_gk
  FROM ratings
  GROUP BY metric, slice_0, replicate, rater, x
),
conger_kappa_raters AS (
  -- n_g: items rater g rated
  SELECT metric, slice_0, replicate, rater, SUM(n_gk) AS n_g
  FROM conger_kappa_rater_counts
  GROUP BY metric, slice_0, replicate, rater
),
conger_kappa_shares AS (
  -- p_gk = n_gk / n_g for every rater and domain category (0 when unused)
  SELECT g.metric, g.slice_0, g.replicate, g.rater, d.cat, g.n_g,
         CAST(COALESCE(c.n_gk, 0) AS DOUBLE) / NULLIF(g.n_g, 0) AS p_gk
  FROM conger_kappa_raters AS g
  JOIN kappa_domain AS d ON g.metric = d.metric AND g.slice_0 = d.slice_0 AND g.replicate = d.replicate
  LEFT JOIN conger_kappa_rater_counts AS c
    ON g.metric = c.metric AND g.slice_0 = c.slice_0 AND g.replicate = c.replicate AND c.rater = g.rater AND c.cat = d.cat
),
conger_kappa_mean_shares AS (
  -- pbar_k = sum_g p_gk / r
  SELECT s.metric, s.slice_0, s.replicate, s.cat, SUM(s.p_gk) / NULLIF(MIN(t.n_raters), 0) AS pbar_k
  FROM conger_kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, s.cat
),
conger_kappa_rater_terms AS (
  -- per rater g and category k: p_gk, A_gk = sum_l w_kl p_gl and c_gk = r pbar_k - p_gk
  SELECT s.metric, s.slice_0, s.replicate, s.rater, s.cat, MIN(s.n_g) AS n_g, MIN(s.p_gk) AS p_gk,
         SUM(w.w * l.p_gk) AS a_gk,
         MIN(t.n_raters * b.pbar_k) - MIN(s.p_gk) AS c_gk
  FROM conger_kappa_shares AS s
  JOIN kappa_weights AS w ON s.metric = w.metric AND s.slice_0 = w.slice_0 AND s.replicate = w.replicate AND w.cat_k = s.cat
  JOIN conger_kappa_shares AS l ON s.metric = l.metric AND s.slice_0 = l.slice_0 AND s.replicate = l.replicate AND l.rater = s.rater AND l.cat = w.cat_l
  JOIN conger_kappa_mean_shares AS b ON s.metric = b.metric AND s.slice_0 = b.slice_0 AND s.replicate = b.replicate AND b.cat = s.cat
  JOIN kappa_summary AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, s.rater, s.cat
),
conger_kappa_between AS (
  -- B = sum_kl w_kl pbar_k pbar_l
  SELECT w.metric, w.slice_0, w.replicate, SUM(w.w * a.pbar_k * b.pbar_k) AS b_sum
  FROM kappa_weights AS w
  JOIN conger_kappa_mean_shares AS a ON w.metric = a.metric AND w.slice_0 = a.slice_0 AND w.replicate = a.replicate AND a.cat = w.cat_k
  JOIN conger_kappa_mean_shares AS b ON w.metric = b.metric AND w.slice_0 = b.slice_0 AND w.replicate = b.replicate AND b.cat = w.cat_l
  GROUP BY w.metric, w.slice_0, w.replicate
),
conger_kappa_expected AS (
  -- p_e = B - (G - r B) / (r (r - 1)); T0 = sum_g sum_k c_gk A_gk
  SELECT b.metric, b.slice_0, b.replicate,
         MIN(b.b_sum) - (SUM(g.p_gk * g.a_gk) - MIN(t.n_raters * b.b_sum))
           / NULLIF(MIN(t.n_raters * (t.n_raters - 1.0)), 0.0) AS p_e,
         SUM(g.c_gk * g.a_gk) AS t0
  FROM conger_kappa_between AS b
  JOIN conger_kappa_rater_terms AS g ON b.metric = g.metric AND b.slice_0 = g.slice_0 AND b.replicate = g.replicate
  JOIN kappa_summary AS t ON b.metric = t.metric AND b.slice_0 = t.slice_0 AND b.replicate = t.replicate
  GROUP BY b.metric, b.slice_0, b.replicate
),
conger_kappa_rater_category AS (
  -- T_g(y) = (n / n_g) sum_k c_gk (w_ky - A_gk)
  SELECT g.metric, g.slice_0, g.replicate, g.rater, w.cat_l AS cat,
         MIN(CAST(t.n_rated AS DOUBLE) / NULLIF(g.n_g, 0)) * SUM(g.c_gk * (w.w - g.a_gk)) AS t_gy
  FROM conger_kappa_rater_terms AS g
  JOIN kappa_weights AS w ON g.metric = w.metric AND g.slice_0 = w.slice_0 AND g.replicate = w.replicate AND w.cat_k = g.cat
  JOIN kappa_summary AS t ON g.metric = t.metric AND g.slice_0 = t.slice_0 AND g.replicate = t.replicate
  GROUP BY g.metric, g.slice_0, g.replicate, g.rater, w.cat_l
),
conger_kappa_item_expected AS (
  -- pe_i = (T0 + sum over item i's ratings (g, y) of T_g(y)) / (r (r - 1))
  SELECT r.metric, r.slice_0, r.replicate, r.item,
         (MIN(e.t0) + SUM(g.t_gy)) / NULLIF(MIN(t.n_raters * (t.n_raters - 1.0)), 0.0) AS pe_i
  FROM ratings AS r
  JOIN conger_kappa_rater_category AS g
    ON r.metric = g.metric AND r.slice_0 = g.slice_0 AND r.replicate = g.replicate AND g.rater = r.rater
   AND g.cat = r.x
  JOIN conger_kappa_expected AS e ON r.metric = e.metric AND r.slice_0 = e.slice_0 AND r.replicate = e.replicate
  JOIN kappa_summary AS t ON r.metric = t.metric AND r.slice_0 = t.slice_0 AND r.replicate = t.replicate
  GROUP BY r.metric, r.slice_0, r.replicate, r.item
),
conger_kappa_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN conger_kappa_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
conger_kappa_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.replicate, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0 AND i.replicate = s.replicate
  JOIN conger_kappa_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0 AND i.replicate = v.replicate
  JOIN conger_kappa_item_expected AS p ON i.metric = p.metric AND i.slice_0 = p.slice_0 AND i.replicate = p.replicate AND p.item = i.item
),
conger_kappa AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0, s.replicate,
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
  JOIN conger_kappa_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN conger_kappa_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
gwet_ac1_expected AS (
  -- p_e = T_w sum_k pi_k (1 - pi_k) / (q (q - 1))
  SELECT s.metric, s.slice_0, s.replicate,
         MIN(t.t_w) * SUM(s.pi_k * (1.0 - s.pi_k))
           / NULLIF(MIN(t.n_categories) * (MIN(t.n_categories) - 1.0), 0.0) AS p_e
  FROM kappa_shares AS s
  JOIN kappa_summary AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate
),
gwet_ac1_item_expected AS (
  -- pe_i = T_w / (q (q - 1)) sum_k r_ik (1 - pi_k) / r_i
  SELECT c.metric, c.slice_0, c.replicate, c.item,
         MIN(t.t_w) * SUM(c.n_uc * (1.0 - s.pi_k))
           / NULLIF(MIN(u.m_u) * MIN(t.n_categories) * (MIN(t.n_categories) - 1.0), 0.0) AS pe_i
  FROM counts AS c
  JOIN units AS u ON c.metric = u.metric AND c.slice_0 = u.slice_0 AND c.replicate = u.replicate AND u.item = c.item
  JOIN kappa_shares AS s ON c.metric = s.metric AND c.slice_0 = s.slice_0 AND c.replicate = s.replicate AND s.cat = c.cat
  JOIN kappa_summary AS t ON c.metric = t.metric AND c.slice_0 = t.slice_0 AND c.replicate = t.replicate
  GROUP BY c.metric, c.slice_0, c.replicate, c.item
),
gwet_ac1_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN gwet_ac1_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
gwet_ac1_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e) - 2 (1 - kappa)(pe_i - p_e) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.replicate, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           - 2.0 * (1.0 - v.value) * (p.pe_i - v.p_e) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0 AND i.replicate = s.replicate
  JOIN gwet_ac1_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0 AND i.replicate = v.replicate
  JOIN gwet_ac1_item_expected AS p ON i.metric = p.metric AND i.slice_0 = p.slice_0 AND i.replicate = p.replicate AND p.item = i.item
),
gwet_ac1 AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0, s.replicate,
         'gwet_ac1' AS coefficient,
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
  JOIN gwet_ac1_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN gwet_ac1_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
brennan_prediger_expected AS (
  -- p_e = T_w / q^2
  SELECT metric, slice_0, replicate, t_w / NULLIF(CAST(n_categories AS DOUBLE) * n_categories, 0.0) AS p_e
  FROM kappa_summary
),
brennan_prediger_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN brennan_prediger_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
brennan_prediger_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.replicate, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0 AND i.replicate = s.replicate
  JOIN brennan_prediger_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0 AND i.replicate = v.replicate
),
brennan_prediger AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0, s.replicate,
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
  JOIN brennan_prediger_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN brennan_prediger_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
percent_agreement_expected AS (
  -- no chance correction: p_e = 0
  SELECT metric, slice_0, replicate, CAST(0.0 AS DOUBLE) AS p_e
  FROM kappa_summary
),
percent_agreement_value AS (
  -- kappa = (p_a - p_e) / (1 - p_e)
  SELECT s.metric, s.slice_0, s.replicate, s.p_a, e.p_e,
         CASE WHEN s.n_items = 0 THEN NULL
              WHEN s.n_used = 1 THEN 1.0
              ELSE (s.p_a - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS value
  FROM kappa_summary AS s
  JOIN percent_agreement_expected AS e ON s.metric = e.metric AND s.slice_0 = e.slice_0 AND s.replicate = e.replicate
),
percent_agreement_item_terms AS (
  -- kappa_i = (n / n2)(pa_i - p_e [r_i >= 2]) / (1 - p_e)
  SELECT i.metric, i.slice_0, i.replicate, i.item,
         CAST(s.n_rated AS DOUBLE) / NULLIF(s.n_items, 0)
           * (i.pa_i - CASE WHEN i.r_i >= 2 THEN v.p_e ELSE 0.0 END) / NULLIF(1.0 - v.p_e, 0.0)
           AS kappa_i
  FROM kappa_items AS i
  JOIN kappa_summary AS s ON i.metric = s.metric AND i.slice_0 = s.slice_0 AND i.replicate = s.replicate
  JOIN percent_agreement_value AS v ON i.metric = v.metric AND i.slice_0 = v.slice_0 AND i.replicate = v.replicate
),
percent_agreement AS (
  -- var = sum_i (kappa_i - kappa)^2 / (n (n - 1)) over the n items rated at least once
  SELECT s.metric, s.slice_0, s.replicate,
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
  JOIN percent_agreement_value AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate
  LEFT JOIN percent_agreement_item_terms AS t ON s.metric = t.metric AND s.slice_0 = t.slice_0 AND s.replicate = t.replicate
  GROUP BY s.metric, s.slice_0, s.replicate, v.value, v.p_a, v.p_e, s.n_items, s.n_raters, s.n_categories, s.n_rated
)
,
confusion_ratings AS (
  -- the ratings of the chosen raters, with their category
  SELECT metric, slice_0, replicate, item, rater,
x AS cat,
         x
  FROM ratings
),
confusion AS (
  -- n_ab: items rated cat_a by rater_a and cat_b by rater_b
  SELECT a.metric, a.slice_0, a.replicate,
         a.rater AS rater_a, b.rater AS rater_b,
         a.cat AS cat_a, b.cat AS cat_b,
         MIN(a.x) AS x_a, MIN(b.x) AS x_b,
         COUNT(*) AS n_ab
  FROM confusion_ratings AS a
  JOIN confusion_ratings AS b
    ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate AND a.item = b.item
   AND a.rater < b.rater
  GROUP BY a.metric, a.slice_0, a.replicate, a.rater, b.rater, a.cat, b.cat
)
,
pair_totals AS (
  -- N: items both raters of the pair rated
  SELECT metric, slice_0, replicate, rater_a, rater_b, SUM(n_ab) AS n_shared
  FROM confusion
  GROUP BY metric, slice_0, replicate, rater_a, rater_b
),
pair_rows AS (
  -- p_i. = n_i. / N: rater_a's category shares on the shared items
  SELECT c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b, c.cat_a AS cat, MIN(c.x_a) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_row
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b, c.cat_a
),
pair_cols AS (
  -- p_.j = n_.j / N: rater_b's category shares on the shared items
  SELECT c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b, c.cat_b AS cat, MIN(c.x_b) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_col
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b, c.cat_b
),
pair_used AS (
  -- the categories either rater used on the shared items
  SELECT metric, slice_0, replicate, rater_a, rater_b, cat, MIN(x) AS x
  FROM (
    SELECT metric, slice_0, replicate, rater_a, rater_b, cat, x FROM pair_rows
    UNION ALL
    SELECT metric, slice_0, replicate, rater_a, rater_b, cat, x FROM pair_cols
  ) AS u
  GROUP BY metric, slice_0, replicate, rater_a, rater_b, cat
),
pair_domain AS (
  -- the pair's category domain with each category's 0-based position
  SELECT metric, slice_0, replicate, rater_a, rater_b, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric, slice_0, replicate, rater_a, rater_b ORDER BY cat) - 1 AS position
  FROM pair_used
),
pair_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores weights are scaled by
  SELECT d.metric, d.slice_0, d.replicate, d.rater_a, d.rater_b,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM pair_domain AS d
  GROUP BY d.metric, d.slice_0, d.replicate, d.rater_a, d.rater_b
),
pair_weights AS (
  -- w_ij for every pair of categories in the domain
  SELECT a.metric, a.slice_0, a.replicate, a.rater_a, a.rater_b, a.cat AS cat_a, b.cat AS cat_b,
         CASE WHEN a.cat = b.cat THEN 1.0 ELSE 0.0 END AS w
  FROM pair_domain AS a
  JOIN pair_domain AS b ON a.metric = b.metric AND a.slice_0 = b.slice_0 AND a.replicate = b.replicate AND a.rater_a = b.rater_a AND a.rater_b = b.rater_b
  JOIN pair_span AS s ON a.metric = s.metric AND a.slice_0 = s.slice_0 AND a.replicate = s.replicate AND a.rater_a = s.rater_a AND a.rater_b = s.rater_b
  
),
pair_row_weights AS (
  -- w_i. = sum_j p_.j w_ij, for every domain category i
  SELECT w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b, w.cat_a AS cat, SUM(w.w * c.p_col) AS w_row
  FROM pair_weights AS w
  JOIN pair_cols AS c ON w.metric = c.metric AND w.slice_0 = c.slice_0 AND w.replicate = c.replicate AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.cat = w.cat_b
  GROUP BY w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b, w.cat_a
),
pair_col_weights AS (
  -- w_.j = sum_i p_i. w_ij, for every domain category j
  SELECT w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b, w.cat_b AS cat, SUM(w.w * r.p_row) AS w_col
  FROM pair_weights AS w
  JOIN pair_rows AS r ON w.metric = r.metric AND w.slice_0 = r.slice_0 AND w.replicate = r.replicate AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.cat = w.cat_a
  GROUP BY w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b, w.cat_b
),
pair_cells AS (
  -- every non-empty cell: p_ij = n_ij / N with w_ij
  SELECT c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b, c.cat_a, c.cat_b,
         CAST(c.n_ab AS DOUBLE) / NULLIF(p.n_shared, 0) AS p_ij, w.w
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.slice_0 = p.slice_0 AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  JOIN pair_weights AS w ON c.metric = w.metric AND c.slice_0 = w.slice_0 AND c.replicate = w.replicate AND c.rater_a = w.rater_a AND c.rater_b = w.rater_b AND w.cat_a = c.cat_a AND w.cat_b = c.cat_b
),
pair_observed AS (
  -- p_o = sum_ij w_ij p_ij; n_used = categories the pair used; q = the domain's size
  SELECT p.metric, p.slice_0, p.replicate, p.rater_a, p.rater_b, p.n_shared, s.n_categories, o.p_o, u.n_used
  FROM pair_totals AS p
  JOIN pair_span AS s ON p.metric = s.metric AND p.slice_0 = s.slice_0 AND p.replicate = s.replicate AND p.rater_a = s.rater_a AND p.rater_b = s.rater_b
  JOIN (
    SELECT metric, slice_0, replicate, rater_a, rater_b, SUM(p_ij * w) AS p_o
    FROM pair_cells
    GROUP BY metric, slice_0, replicate, rater_a, rater_b
  ) AS o ON p.metric = o.metric AND p.slice_0 = o.slice_0 AND p.replicate = o.replicate AND p.rater_a = o.rater_a AND p.rater_b = o.rater_b
  JOIN (
    SELECT metric, slice_0, replicate, rater_a, rater_b, COUNT(*) AS n_used
    FROM pair_used
    GROUP BY metric, slice_0, replicate, rater_a, rater_b
  ) AS u ON p.metric = u.metric AND p.slice_0 = u.slice_0 AND p.replicate = u.replicate AND p.rater_a = u.rater_a AND p.rater_b = u.rater_b
),
pair_keys AS (
  -- every metric (and slice) gets a row; n_raters counts the chosen raters who rated in it
  SELECT metric, slice_0, replicate, COUNT(DISTINCT rater) AS n_raters
  FROM confusion_ratings
  GROUP BY metric, slice_0, replicate
),
pair_items AS (
  -- items rated by two or more of the chosen raters
  SELECT metric, slice_0, replicate, COUNT(*) AS n_items
  FROM (
    SELECT metric, slice_0, replicate, item FROM confusion_ratings
    GROUP BY metric, slice_0, replicate, item
    HAVING COUNT(*) >= 2
  ) AS paired
  GROUP BY metric, slice_0, replicate
),
pair_categories AS (
  -- categories in the pairs' domains (the declared domain when one is given)
  SELECT metric, slice_0, replicate, COUNT(DISTINCT cat) AS n_categories
  FROM pair_domain
  GROUP BY metric, slice_0, replicate
)
,
cohen_expected AS (
  -- p_e = sum_ij w_ij p_i. p_.j = sum_i p_i. w_i.
  SELECT r.metric, r.slice_0, r.replicate, r.rater_a, r.rater_b, SUM(r.p_row * rw.w_row) AS p_e
  FROM pair_rows AS r
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.slice_0 = rw.slice_0 AND r.replicate = rw.replicate AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  GROUP BY r.metric, r.slice_0, r.replicate, r.rater_a, r.rater_b
),
cohen_pair_kappa AS (
  -- kappa = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.slice_0, o.replicate, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS kappa
  FROM pair_observed AS o
  JOIN cohen_expected AS e ON o.metric = e.metric AND o.slice_0 = e.slice_0 AND o.replicate = e.replicate AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
cohen_pair_variance AS (
  -- var = [sum_ij p_ij (w_ij - (w_i. + w_.j)(1 - kappa))^2 - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))
          - MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))
         / NULLIF(MIN(POWER(1.0 - k.p_e, 2) * k.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN pair_row_weights AS rw ON c.metric = rw.metric AND c.slice_0 = rw.slice_0 AND c.replicate = rw.replicate AND c.rater_a = rw.rater_a AND c.rater_b = rw.rater_b AND rw.cat = c.cat_a
  JOIN pair_col_weights AS cw ON c.metric = cw.metric AND c.slice_0 = cw.slice_0 AND c.replicate = cw.replicate AND c.rater_a = cw.rater_a AND c.rater_b = cw.rater_b AND cw.cat = c.cat_b
  JOIN cohen_pair_kappa AS k ON c.metric = k.metric AND c.slice_0 = k.slice_0 AND c.replicate = k.replicate AND c.rater_a = k.rater_a AND c.rater_b = k.rater_b
  GROUP BY c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b
),
cohen_pair_null_variance AS (
  -- var0 = [sum_ij p_i. p_.j (w_ij - (w_i. + w_.j))^2 - p_e^2] / ((1 - p_e)^2 N)
  SELECT r.metric, r.slice_0, r.replicate, r.rater_a, r.rater_b,
         (SUM(r.p_row * c.p_col * POWER(w.w - (rw.w_row + cw.w_col), 2))
          - MIN(POWER(pk.p_e, 2)))
         / NULLIF(MIN(POWER(1.0 - pk.p_e, 2) * pk.n_shared), 0.0) AS null_variance
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.slice_0 = c.slice_0 AND r.replicate = c.replicate AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b
  JOIN pair_weights AS w ON r.metric = w.metric AND r.slice_0 = w.slice_0 AND r.replicate = w.replicate AND r.rater_a = w.rater_a AND r.rater_b = w.rater_b AND w.cat_a = r.cat AND w.cat_b = c.cat
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.slice_0 = rw.slice_0 AND r.replicate = rw.replicate AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  JOIN pair_col_weights AS cw ON r.metric = cw.metric AND r.slice_0 = cw.slice_0 AND r.replicate = cw.replicate AND r.rater_a = cw.rater_a AND r.rater_b = cw.rater_b AND cw.cat = c.cat
  JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric AND r.slice_0 = pk.slice_0 AND r.replicate = pk.replicate AND r.rater_a = pk.rater_a AND r.rater_b = pk.rater_b
  WHERE r.replicate = 0    -- the observed data only; resamples get NULL
  GROUP BY r.metric, r.slice_0, r.replicate, r.rater_a, r.rater_b
),
cohen_pair_null_z AS (
  -- se0 = sqrt(var0) (0 when var0 rounds below 0), z = kappa / se0 (NULL when se0 = 0), |z|
  SELECT v.metric, v.slice_0, v.replicate, v.rater_a, v.rater_b,
         SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END) AS se0,
         pk.kappa / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS z,
         ABS(pk.kappa) / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS abs_z
  FROM cohen_pair_null_variance AS v
  JOIN cohen_pair_kappa AS pk ON v.metric = pk.metric AND v.slice_0 = pk.slice_0 AND v.replicate = pk.replicate AND v.rater_a = pk.rater_a AND v.rater_b = pk.rater_b
),
cohen_pair_null_test AS (
  -- p_one_sided = 1 - Phi(z), p_value = 2 (1 - Phi(|z|))
  SELECT t.metric, t.slice_0, t.replicate, t.rater_a, t.rater_b, t.se0, t.z,
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
  SELECT r.metric, r.slice_0, r.replicate,
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
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric AND r.slice_0 = pk.slice_0 AND r.replicate = pk.replicate
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.slice_0 = v.slice_0 AND pk.replicate = v.replicate AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  LEFT JOIN cohen_pair_null_test AS t ON pk.metric = t.metric AND pk.slice_0 = t.slice_0 AND pk.replicate = t.replicate AND pk.rater_a = t.rater_a AND pk.rater_b = t.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric AND r.slice_0 = i.slice_0 AND r.replicate = i.replicate
  LEFT JOIN pair_categories AS c ON r.metric = c.metric AND r.slice_0 = c.slice_0 AND r.replicate = c.replicate
  GROUP BY r.metric, r.slice_0, r.replicate, r.n_raters
)
,
scott_shares AS (
  -- pi_k = (p_k. + p_.k) / 2 and pbar_k = (w_k. + w_.k) / 2 for every domain category
  SELECT d.metric, d.slice_0, d.replicate, d.rater_a, d.rater_b, d.cat,
         (COALESCE(r.p_row, 0.0) + COALESCE(c.p_col, 0.0)) / 2.0 AS pi_k,
         (rw.w_row + cw.w_col) / 2.0 AS pbar_k
  FROM pair_domain AS d
  JOIN pair_row_weights AS rw ON d.metric = rw.metric AND d.slice_0 = rw.slice_0 AND d.replicate = rw.replicate AND d.rater_a = rw.rater_a AND d.rater_b = rw.rater_b AND rw.cat = d.cat
  JOIN pair_col_weights AS cw ON d.metric = cw.metric AND d.slice_0 = cw.slice_0 AND d.replicate = cw.replicate AND d.rater_a = cw.rater_a AND d.rater_b = cw.rater_b AND cw.cat = d.cat
  LEFT JOIN pair_rows AS r ON d.metric = r.metric AND d.slice_0 = r.slice_0 AND d.replicate = r.replicate AND d.rater_a = r.rater_a AND d.rater_b = r.rater_b AND r.cat = d.cat
  LEFT JOIN pair_cols AS c ON d.metric = c.metric AND d.slice_0 = c.slice_0 AND d.replicate = c.replicate AND d.rater_a = c.rater_a AND d.rater_b = c.rater_b AND c.cat = d.cat
),
scott_expected AS (
  -- p_e = sum_kl w_kl pi_k pi_l
  SELECT w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b, SUM(w.w * a.pi_k * b.pi_k) AS p_e
  FROM pair_weights AS w
  JOIN scott_shares AS a ON w.metric = a.metric AND w.slice_0 = a.slice_0 AND w.replicate = a.replicate AND w.rater_a = a.rater_a AND w.rater_b = a.rater_b AND a.cat = w.cat_a
  JOIN scott_shares AS b ON w.metric = b.metric AND w.slice_0 = b.slice_0 AND w.replicate = b.replicate AND w.rater_a = b.rater_a AND w.rater_b = b.rater_b AND b.cat = w.cat_b
  GROUP BY w.metric, w.slice_0, w.replicate, w.rater_a, w.rater_b
),
scott_pair_pi AS (
  -- pi = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.slice_0, o.replicate, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS pi
  FROM pair_observed AS o
  JOIN scott_expected AS e ON o.metric = e.metric AND o.slice_0 = e.slice_0 AND o.replicate = e.replicate AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
scott_pair_variance AS (
  -- var = [sum_kl p_kl (w_kl - (1 - pi)(pbar_k + pbar_l))^2 - (p_o - 2 (1 - pi) p_e)^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (1.0 - s.pi) * (a.pbar_k + b.pbar_k), 2))
          - MIN(POWER(s.p_o - 2.0 * (1.0 - s.pi) * s.p_e, 2)))
         / NULLIF(MIN(POWER(1.0 - s.p_e, 2) * s.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN scott_shares AS a ON c.metric = a.metric AND c.slice_0 = a.slice_0 AND c.replicate = a.replicate AND c.rater_a = a.rater_a AND c.rater_b = a.rater_b AND a.cat = c.cat_a
  JOIN scott_shares AS b ON c.metric = b.metric AND c.slice_0 = b.slice_0 AND c.replicate = b.replicate AND c.rater_a = b.rater_a AND c.rater_b = b.rater_b AND b.cat = c.cat_b
  JOIN scott_pair_pi AS s ON c.metric = s.metric AND c.slice_0 = s.slice_0 AND c.replicate = s.replicate AND c.rater_a = s.rater_a AND c.rater_b = s.rater_b
  GROUP BY c.metric, c.slice_0, c.replicate, c.rater_a, c.rater_b
),
scott_pi AS (
  -- the pair's pi when the metric (or slice) has exactly two raters
  SELECT r.metric, r.slice_0, r.replicate,
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
  LEFT JOIN scott_pair_pi AS s ON r.metric = s.metric AND r.slice_0 = s.slice_0 AND r.replicate = s.replicate
  LEFT JOIN scott_pair_variance AS v ON s.metric = v.metric AND s.slice_0 = v.slice_0 AND s.replicate = v.replicate AND s.rater_a = v.rater_a AND s.rater_b = v.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric AND r.slice_0 = i.slice_0 AND r.replicate = i.replicate
  LEFT JOIN pair_categories AS c ON r.metric = c.metric AND r.slice_0 = c.slice_0 AND r.replicate = c.replicate
  GROUP BY r.metric, r.slice_0, r.replicate, r.n_raters
)
,
alpha_units AS (
  -- pairable units: two or more ratings
  SELECT * FROM units WHERE m_u >= 2
),
alpha_marginals AS (
  -- n_c: how often category c occurs among pairable values = its count over all units less
  -- the lone values of single-rated units (no join of counts with units)
  SELECT metric, slice_0, replicate, cat, MIN(x) AS x, SUM(n) AS n_c
  FROM (
    SELECT metric, slice_0, replicate, cat, x, n_uc AS n FROM counts
    UNION ALL
    SELECT metric, slice_0, replicate, cat_min, x_min, -1 FROM units WHERE m_u = 1
  ) AS lone_values_removed
  GROUP BY metric, slice_0, replicate, cat
  HAVING SUM(n) > 0
),
alpha_unit_sums AS (
  -- per unit terms of the closed forms, summed
  SELECT metric, slice_0, replicate, COUNT(*) AS n_units,
         SUM(CAST(m_u * m_u - q_u AS DOUBLE) / (m_u - 1)) AS do_nominal,
         SUM(2.0 * (m_u * s2_u - s1_u * s1_u) / (m_u - 1)) AS do_interval
  FROM alpha_units
  GROUP BY metric, slice_0, replicate
),
alpha_totals AS (
  SELECT metric, slice_0, replicate, COUNT(*) AS n_categories, SUM(n_c) AS n_values,
         SUM(n_c * n_c) AS sum_nc2, SUM(n_c * x) AS s1, SUM(n_c * x * x) AS s2
  FROM alpha_marginals
  GROUP BY metric, slice_0, replicate
),
alpha_sums AS (
  SELECT t.metric, t.slice_0, t.replicate,
         p.n_units,
         p.do_nominal AS do_sum,
         CAST(t.n_values * t.n_values - t.sum_nc2 AS DOUBLE) AS de_sum,
         t.n_values,
         t.n_categories
  FROM alpha_totals AS t
  JOIN alpha_unit_sums AS p ON t.metric = p.metric AND t.slice_0 = p.slice_0 AND t.replicate = p.replicate
),
alpha_raters AS (
  -- raters with a rating, per metric (and slice): counted on the observed ratings, so
  -- the resampled ratings are read once
  SELECT metric, slice_0, COUNT(DISTINCT rater) AS n_raters
  FROM ratings_observed
  GROUP BY metric, slice_0
),
alpha_keys AS (
  -- every metric (and slice) gets a row, pairable or not
  SELECT DISTINCT metric, slice_0, replicate FROM units
),
alpha AS (
  -- alpha = 1 - D_o / D_e,  D_o = sum o_ck d2 / n,  D_e = sum n_c n_k d2 / (n (n - 1))
  SELECT k.metric, k.slice_0, k.replicate,
         CASE WHEN s.n_categories = 1 THEN 1.0
              ELSE 1.0 - (s.n_values - 1.0) * s.do_sum / NULLIF(s.de_sum, 0.0) END AS value,
         s.do_sum / NULLIF(s.n_values, 0) AS observed_disagreement,
         s.de_sum / NULLIF(s.n_values * (s.n_values - 1.0), 0.0) AS expected_disagreement,
         COALESCE(s.n_units, 0) AS n_items,
         r.n_raters,
         COALESCE(s.n_values, 0) AS n_values,
         COALESCE(s.n_categories, 0) AS n_categories
  FROM alpha_keys AS k
  JOIN alpha_raters AS r ON k.metric = r.metric AND k.slice_0 = r.slice_0
  LEFT JOIN alpha_sums AS s ON k.metric = s.metric AND k.slice_0 = s.slice_0 AND k.replicate = s.replicate
)
,
cohen_kappa_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM cohen_kappa AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
cohen_kappa_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM cohen_kappa_boot_values
  GROUP BY metric, slice_0
),
cohen_kappa_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM cohen_kappa AS e
  LEFT JOIN cohen_kappa_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
scott_pi_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM scott_pi AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
scott_pi_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM scott_pi_boot_values
  GROUP BY metric, slice_0
),
scott_pi_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM scott_pi AS e
  LEFT JOIN scott_pi_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
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
fleiss_kappa_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM fleiss_kappa AS e
  LEFT JOIN fleiss_kappa_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
conger_kappa_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM conger_kappa AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
conger_kappa_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM conger_kappa_boot_values
  GROUP BY metric, slice_0
),
conger_kappa_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM conger_kappa AS e
  LEFT JOIN conger_kappa_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
gwet_ac1_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM gwet_ac1 AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
gwet_ac1_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM gwet_ac1_boot_values
  GROUP BY metric, slice_0
),
gwet_ac1_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM gwet_ac1 AS e
  LEFT JOIN gwet_ac1_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
brennan_prediger_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM brennan_prediger AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
brennan_prediger_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM brennan_prediger_boot_values
  GROUP BY metric, slice_0
),
brennan_prediger_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM brennan_prediger AS e
  LEFT JOIN brennan_prediger_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
percent_agreement_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM percent_agreement AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
percent_agreement_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM percent_agreement_boot_values
  GROUP BY metric, slice_0
),
percent_agreement_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM percent_agreement AS e
  LEFT JOIN percent_agreement_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
alpha_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.slice_0, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric, e.slice_0) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric, e.slice_0) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric, e.slice_0
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM alpha AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
alpha_boot_interval AS (
  SELECT metric, slice_0,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM alpha_boot_values
  GROUP BY metric, slice_0
),
krippendorff_alpha_boot AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM alpha AS e
  LEFT JOIN alpha_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)
,
coefficient_keys AS (
  -- every metric (and slice) with a rating
  SELECT DISTINCT metric, slice_0 FROM ratings_observed
)

SELECT k.metric, k.slice_0
       , cohen_kappa_boot.coefficient AS cohen_kappa__coefficient
       , cohen_kappa_boot.value AS cohen_kappa__value
       , cohen_kappa_boot.observed_agreement AS cohen_kappa__observed_agreement
       , cohen_kappa_boot.chance_agreement AS cohen_kappa__chance_agreement
       , cohen_kappa_boot.n_items AS cohen_kappa__n_items
       , cohen_kappa_boot.n_raters AS cohen_kappa__n_raters
       , cohen_kappa_boot.n_categories AS cohen_kappa__n_categories
       , cohen_kappa_boot.variance AS cohen_kappa__variance
       , cohen_kappa_boot.rater_a AS cohen_kappa__rater_a
       , cohen_kappa_boot.rater_b AS cohen_kappa__rater_b
       , cohen_kappa_boot.n_pairs AS cohen_kappa__n_pairs
       , cohen_kappa_boot.se AS cohen_kappa__se
       , cohen_kappa_boot.ci_low AS cohen_kappa__ci_low
       , cohen_kappa_boot.ci_high AS cohen_kappa__ci_high
       , COALESCE(cohen_kappa_boot.n_boot_valid, 0) AS cohen_kappa__n_boot_valid
       , cohen_kappa_boot.se0 AS cohen_kappa__se0
       , cohen_kappa_boot.z AS cohen_kappa__z
       , cohen_kappa_boot.p_one_sided AS cohen_kappa__p_one_sided
       , cohen_kappa_boot.p_value AS cohen_kappa__p_value
       , scott_pi_boot.coefficient AS scott_pi__coefficient
       , scott_pi_boot.value AS scott_pi__value
       , scott_pi_boot.observed_agreement AS scott_pi__observed_agreement
       , scott_pi_boot.chance_agreement AS scott_pi__chance_agreement
       , scott_pi_boot.n_items AS scott_pi__n_items
       , scott_pi_boot.n_raters AS scott_pi__n_raters
       , scott_pi_boot.n_categories AS scott_pi__n_categories
       , scott_pi_boot.variance AS scott_pi__variance
       , scott_pi_boot.rater_a AS scott_pi__rater_a
       , scott_pi_boot.rater_b AS scott_pi__rater_b
       , scott_pi_boot.se AS scott_pi__se
       , scott_pi_boot.ci_low AS scott_pi__ci_low
       , scott_pi_boot.ci_high AS scott_pi__ci_high
       , COALESCE(scott_pi_boot.n_boot_valid, 0) AS scott_pi__n_boot_valid
       , fleiss_kappa_boot.coefficient AS fleiss_kappa__coefficient
       , fleiss_kappa_boot.value AS fleiss_kappa__value
       , fleiss_kappa_boot.observed_agreement AS fleiss_kappa__observed_agreement
       , fleiss_kappa_boot.chance_agreement AS fleiss_kappa__chance_agreement
       , fleiss_kappa_boot.n_items AS fleiss_kappa__n_items
       , fleiss_kappa_boot.n_raters AS fleiss_kappa__n_raters
       , fleiss_kappa_boot.n_categories AS fleiss_kappa__n_categories
       , fleiss_kappa_boot.variance AS fleiss_kappa__variance
       , fleiss_kappa_boot.se AS fleiss_kappa__se
       , fleiss_kappa_boot.ci_low AS fleiss_kappa__ci_low
       , fleiss_kappa_boot.ci_high AS fleiss_kappa__ci_high
       , COALESCE(fleiss_kappa_boot.n_boot_valid, 0) AS fleiss_kappa__n_boot_valid
       , conger_kappa_boot.coefficient AS conger_kappa__coefficient
       , conger_kappa_boot.value AS conger_kappa__value
       , conger_kappa_boot.observed_agreement AS conger_kappa__observed_agreement
       , conger_kappa_boot.chance_agreement AS conger_kappa__chance_agreement
       , conger_kappa_boot.n_items AS conger_kappa__n_items
       , conger_kappa_boot.n_raters AS conger_kappa__n_raters
       , conger_kappa_boot.n_categories AS conger_kappa__n_categories
       , conger_kappa_boot.variance AS conger_kappa__variance
       , conger_kappa_boot.se AS conger_kappa__se
       , conger_kappa_boot.ci_low AS conger_kappa__ci_low
       , conger_kappa_boot.ci_high AS conger_kappa__ci_high
       , COALESCE(conger_kappa_boot.n_boot_valid, 0) AS conger_kappa__n_boot_valid
       , gwet_ac1_boot.coefficient AS gwet_ac1__coefficient
       , gwet_ac1_boot.value AS gwet_ac1__value
       , gwet_ac1_boot.observed_agreement AS gwet_ac1__observed_agreement
       , gwet_ac1_boot.chance_agreement AS gwet_ac1__chance_agreement
       , gwet_ac1_boot.n_items AS gwet_ac1__n_items
       , gwet_ac1_boot.n_raters AS gwet_ac1__n_raters
       , gwet_ac1_boot.n_categories AS gwet_ac1__n_categories
       , gwet_ac1_boot.variance AS gwet_ac1__variance
       , gwet_ac1_boot.se AS gwet_ac1__se
       , gwet_ac1_boot.ci_low AS gwet_ac1__ci_low
       , gwet_ac1_boot.ci_high AS gwet_ac1__ci_high
       , COALESCE(gwet_ac1_boot.n_boot_valid, 0) AS gwet_ac1__n_boot_valid
       , brennan_prediger_boot.coefficient AS brennan_prediger__coefficient
       , brennan_prediger_boot.value AS brennan_prediger__value
       , brennan_prediger_boot.observed_agreement AS brennan_prediger__observed_agreement
       , brennan_prediger_boot.chance_agreement AS brennan_prediger__chance_agreement
       , brennan_prediger_boot.n_items AS brennan_prediger__n_items
       , brennan_prediger_boot.n_raters AS brennan_prediger__n_raters
       , brennan_prediger_boot.n_categories AS brennan_prediger__n_categories
       , brennan_prediger_boot.variance AS brennan_prediger__variance
       , brennan_prediger_boot.se AS brennan_prediger__se
       , brennan_prediger_boot.ci_low AS brennan_prediger__ci_low
       , brennan_prediger_boot.ci_high AS brennan_prediger__ci_high
       , COALESCE(brennan_prediger_boot.n_boot_valid, 0) AS brennan_prediger__n_boot_valid
       , percent_agreement_boot.coefficient AS percent_agreement__coefficient
       , percent_agreement_boot.value AS percent_agreement__value
       , percent_agreement_boot.observed_agreement AS percent_agreement__observed_agreement
       , percent_agreement_boot.chance_agreement AS percent_agreement__chance_agreement
       , percent_agreement_boot.n_items AS percent_agreement__n_items
       , percent_agreement_boot.n_raters AS percent_agreement__n_raters
       , percent_agreement_boot.n_categories AS percent_agreement__n_categories
       , percent_agreement_boot.variance AS percent_agreement__variance
       , percent_agreement_boot.se AS percent_agreement__se
       , percent_agreement_boot.ci_low AS percent_agreement__ci_low
       , percent_agreement_boot.ci_high AS percent_agreement__ci_high
       , COALESCE(percent_agreement_boot.n_boot_valid, 0) AS percent_agreement__n_boot_valid
       , krippendorff_alpha_boot.value AS krippendorff_alpha__value
       , krippendorff_alpha_boot.observed_disagreement AS krippendorff_alpha__observed_disagreement
       , krippendorff_alpha_boot.expected_disagreement AS krippendorff_alpha__expected_disagreement
       , krippendorff_alpha_boot.n_items AS krippendorff_alpha__n_items
       , krippendorff_alpha_boot.n_raters AS krippendorff_alpha__n_raters
       , krippendorff_alpha_boot.n_values AS krippendorff_alpha__n_values
       , krippendorff_alpha_boot.n_categories AS krippendorff_alpha__n_categories
       , krippendorff_alpha_boot.se AS krippendorff_alpha__se
       , krippendorff_alpha_boot.ci_low AS krippendorff_alpha__ci_low
       , krippendorff_alpha_boot.ci_high AS krippendorff_alpha__ci_high
       , COALESCE(krippendorff_alpha_boot.n_boot_valid, 0) AS krippendorff_alpha__n_boot_valid
FROM coefficient_keys AS k
LEFT JOIN cohen_kappa_boot ON k.metric = cohen_kappa_boot.metric AND k.slice_0 = cohen_kappa_boot.slice_0
LEFT JOIN scott_pi_boot ON k.metric = scott_pi_boot.metric AND k.slice_0 = scott_pi_boot.slice_0
LEFT JOIN fleiss_kappa_boot ON k.metric = fleiss_kappa_boot.metric AND k.slice_0 = fleiss_kappa_boot.slice_0
LEFT JOIN conger_kappa_boot ON k.metric = conger_kappa_boot.metric AND k.slice_0 = conger_kappa_boot.slice_0
LEFT JOIN gwet_ac1_boot ON k.metric = gwet_ac1_boot.metric AND k.slice_0 = gwet_ac1_boot.slice_0
LEFT JOIN brennan_prediger_boot ON k.metric = brennan_prediger_boot.metric AND k.slice_0 = brennan_prediger_boot.slice_0
LEFT JOIN percent_agreement_boot ON k.metric = percent_agreement_boot.metric AND k.slice_0 = percent_agreement_boot.slice_0
LEFT JOIN krippendorff_alpha_boot ON k.metric = krippendorff_alpha_boot.metric AND k.slice_0 = krippendorff_alpha_boot.slice_0
ORDER BY k.metric, k.slice_0
