-- agreement-sql: krippendorff_alpha (duckdb)
-- reads relation: "ratings"
-- parameter: $n_boot = 1000
-- parameter: $seed = 1
-- parameter: $ci_low_p = 0.025
-- parameter: $ci_high_p = 0.975
-- krippendorff_alpha: Krippendorff's alpha per metric (and slice) at one level of measurement.
-- Source: Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability; the
--   coincidence-matrix sums are in sql/_alpha.sql.j2, the bootstrap in sql/_bootstrap.sql.j2.
-- Reads: the ratings relation (item, rater, value[, metric]); missing ratings have no row;
--   optionally a declared value domain (sql/_domain.sql.j2).
-- Returns: one row per metric (and slice): value, observed/expected disagreement, n_items,
--   n_raters, n_values, n_categories[, replicate, se, ci_low, ci_high, n_boot_valid].
-- One pass: with a ratings profile (agreement_sql/profile.py) the per-unit aggregation also
--   counts the input problems (profile_checks, returned as check_* columns) and, for a small
--   domain, counts each category in its own column (sql/_unit_profile.sql.j2).
-- Undefined: alpha is NULL when no unit has two ratings; 1.0 when one category is all there is.
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
value_text AS cat,
         MIN(x) AS x,
         COUNT(*) AS n_uc
  FROM ratings
  GROUP BY metric, slice_0, replicate, item, value_text
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
bootstrap AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM alpha AS e
  LEFT JOIN alpha_boot_interval AS b ON e.metric = b.metric AND e.slice_0 = b.slice_0
  WHERE e.replicate = 0
)

SELECT *
FROM bootstrap
ORDER BY metric, slice_0
