-- agreement-sql: cohen_kappa (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $n_boot = 1000
-- parameter: $seed = 1
-- parameter: $ci_low_p = 0.025
-- parameter: $ci_high_p = 0.975
-- cohen_kappa: Cohen's kappa between two raters (unweighted, linear, quadratic or user weights);
--   with more than two raters, Light's kappa, the mean of Cohen's kappa over rater pairs.
-- Source: Cohen (1960, 1968); Light (1971); variance of Fleiss, Cohen & Everitt (1969) as in SAS
--   PROC FREQ and statsmodels cohens_kappa; formulas in sql/_pairs.sql.j2 and sql/_cohen.sql.j2.
-- Reads: the ratings relation; a pair's items are the items both raters rated. Returns: one row
--   per metric (and slice): value, agreement terms, counts[, se, CI]. Undefined: NULL; 1.0 on one category.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', n_boot := 1000, seed := 1, ci_low_p := 0.025, ci_high_p := 0.975);
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
ratings_base AS NOT MATERIALIZED (
  SELECT metric, item, rater, value_text, x
  FROM ratings_in
)
,
boot_units AS (
  -- the resampling units: every item of a metric (and slice), numbered 1..N in item order
  SELECT metric, item,
         ROW_NUMBER() OVER (PARTITION BY metric ORDER BY item) AS unit_no,
         COUNT(*) OVER (PARTITION BY metric) AS n_units
  FROM (
    SELECT metric, item FROM ratings_base
    GROUP BY metric, item
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
  SELECT s.metric, r.replicate, s.n_units,
         (CAST(r.replicate - 1 AS BIGINT) * s.n_units) % 2147483646 AS e
  FROM (
    SELECT metric, MIN(n_units) AS n_units FROM boot_units
    GROUP BY metric
  ) AS s
  CROSS JOIN boot_replicates AS r
),
boot_blocks AS (
  -- x_((b - 1) N) = x_0 48271^((b - 1) N) mod (2^31 - 1)
  SELECT o.metric, o.replicate, o.n_units,
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
  SELECT u.metric, u.unit_no AS draw_no,
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
  SELECT b.metric, b.replicate, j.draw_no,
         1 + ((b.state * j.a_j) % 2147483647) % b.n_units AS unit_no
  FROM boot_blocks AS b
  JOIN boot_steps AS j ON b.metric = j.metric
),
ratings_observed AS (
  -- the observed ratings, for what is counted once rather than per replicate
  SELECT metric, item, rater, value_text, x FROM ratings_base
),
ratings AS (
  -- replicate 0: the observed ratings; replicate b: each draw's ratings under the draw's number
  SELECT metric, 0 AS replicate, item, rater, value_text, x
  FROM ratings_base
  UNION ALL
  SELECT d.metric, d.replicate, CAST(d.draw_no AS VARCHAR) AS item,
         r.rater, r.value_text, r.x
  FROM boot_draws AS d
  JOIN boot_units AS u ON d.metric = u.metric AND u.unit_no = d.unit_no
  JOIN ratings_base AS r ON u.metric = r.metric AND r.item = u.item
)
,
confusion_ratings AS (
  -- the ratings of the chosen raters, with their category
  SELECT metric, replicate, item, rater,
x AS cat,
         x
  FROM ratings
),
confusion AS (
  -- n_ab: items rated cat_a by rater_a and cat_b by rater_b
  SELECT a.metric, a.replicate,
         a.rater AS rater_a, b.rater AS rater_b,
         a.cat AS cat_a, b.cat AS cat_b,
         MIN(a.x) AS x_a, MIN(b.x) AS x_b,
         COUNT(*) AS n_ab
  FROM confusion_ratings AS a
  JOIN confusion_ratings AS b
    ON a.metric = b.metric AND a.replicate = b.replicate AND a.item = b.item
   AND a.rater < b.rater
  GROUP BY a.metric, a.replicate, a.rater, b.rater, a.cat, b.cat
)
,
pair_totals AS (
  -- N: items both raters of the pair rated
  SELECT metric, replicate, rater_a, rater_b, SUM(n_ab) AS n_shared
  FROM confusion
  GROUP BY metric, replicate, rater_a, rater_b
),
pair_rows AS (
  -- p_i. = n_i. / N: rater_a's category shares on the shared items
  SELECT c.metric, c.replicate, c.rater_a, c.rater_b, c.cat_a AS cat, MIN(c.x_a) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_row
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.replicate, c.rater_a, c.rater_b, c.cat_a
),
pair_cols AS (
  -- p_.j = n_.j / N: rater_b's category shares on the shared items
  SELECT c.metric, c.replicate, c.rater_a, c.rater_b, c.cat_b AS cat, MIN(c.x_b) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_col
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.replicate, c.rater_a, c.rater_b, c.cat_b
),
pair_used AS (
  -- the categories either rater used on the shared items
  SELECT metric, replicate, rater_a, rater_b, cat, MIN(x) AS x
  FROM (
    SELECT metric, replicate, rater_a, rater_b, cat, x FROM pair_rows
    UNION ALL
    SELECT metric, replicate, rater_a, rater_b, cat, x FROM pair_cols
  ) AS u
  GROUP BY metric, replicate, rater_a, rater_b, cat
),
pair_domain AS (
  -- the pair's category domain with each category's 0-based position
  SELECT metric, replicate, rater_a, rater_b, cat, x,
         ROW_NUMBER() OVER (PARTITION BY metric, replicate, rater_a, rater_b ORDER BY cat) - 1 AS position
  FROM pair_used
),
pair_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores weights are scaled by
  SELECT d.metric, d.replicate, d.rater_a, d.rater_b,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM pair_domain AS d
  GROUP BY d.metric, d.replicate, d.rater_a, d.rater_b
),
pair_weights AS (
  -- w_ij for every pair of categories in the domain
  SELECT a.metric, a.replicate, a.rater_a, a.rater_b, a.cat AS cat_a, b.cat AS cat_b,
         CASE WHEN a.cat = b.cat THEN 1.0 ELSE 0.0 END AS w
  FROM pair_domain AS a
  JOIN pair_domain AS b ON a.metric = b.metric AND a.replicate = b.replicate AND a.rater_a = b.rater_a AND a.rater_b = b.rater_b
  JOIN pair_span AS s ON a.metric = s.metric AND a.replicate = s.replicate AND a.rater_a = s.rater_a AND a.rater_b = s.rater_b
  
),
pair_row_weights AS (
  -- w_i. = sum_j p_.j w_ij, for every domain category i
  SELECT w.metric, w.replicate, w.rater_a, w.rater_b, w.cat_a AS cat, SUM(w.w * c.p_col) AS w_row
  FROM pair_weights AS w
  JOIN pair_cols AS c ON w.metric = c.metric AND w.replicate = c.replicate AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.cat = w.cat_b
  GROUP BY w.metric, w.replicate, w.rater_a, w.rater_b, w.cat_a
),
pair_col_weights AS (
  -- w_.j = sum_i p_i. w_ij, for every domain category j
  SELECT w.metric, w.replicate, w.rater_a, w.rater_b, w.cat_b AS cat, SUM(w.w * r.p_row) AS w_col
  FROM pair_weights AS w
  JOIN pair_rows AS r ON w.metric = r.metric AND w.replicate = r.replicate AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.cat = w.cat_a
  GROUP BY w.metric, w.replicate, w.rater_a, w.rater_b, w.cat_b
),
pair_cells AS (
  -- every non-empty cell: p_ij = n_ij / N with w_ij
  SELECT c.metric, c.replicate, c.rater_a, c.rater_b, c.cat_a, c.cat_b,
         CAST(c.n_ab AS DOUBLE) / NULLIF(p.n_shared, 0) AS p_ij, w.w
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.replicate = p.replicate AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  JOIN pair_weights AS w ON c.metric = w.metric AND c.replicate = w.replicate AND c.rater_a = w.rater_a AND c.rater_b = w.rater_b AND w.cat_a = c.cat_a AND w.cat_b = c.cat_b
),
pair_observed AS (
  -- p_o = sum_ij w_ij p_ij; n_used = categories the pair used; q = the domain's size
  SELECT p.metric, p.replicate, p.rater_a, p.rater_b, p.n_shared, s.n_categories, o.p_o, u.n_used
  FROM pair_totals AS p
  JOIN pair_span AS s ON p.metric = s.metric AND p.replicate = s.replicate AND p.rater_a = s.rater_a AND p.rater_b = s.rater_b
  JOIN (
    SELECT metric, replicate, rater_a, rater_b, SUM(p_ij * w) AS p_o
    FROM pair_cells
    GROUP BY metric, replicate, rater_a, rater_b
  ) AS o ON p.metric = o.metric AND p.replicate = o.replicate AND p.rater_a = o.rater_a AND p.rater_b = o.rater_b
  JOIN (
    SELECT metric, replicate, rater_a, rater_b, COUNT(*) AS n_used
    FROM pair_used
    GROUP BY metric, replicate, rater_a, rater_b
  ) AS u ON p.metric = u.metric AND p.replicate = u.replicate AND p.rater_a = u.rater_a AND p.rater_b = u.rater_b
),
pair_keys AS (
  -- every metric (and slice) gets a row; n_raters counts the chosen raters who rated in it
  SELECT metric, replicate, COUNT(DISTINCT rater) AS n_raters
  FROM confusion_ratings
  GROUP BY metric, replicate
),
pair_items AS (
  -- items rated by two or more of the chosen raters
  SELECT metric, replicate, COUNT(*) AS n_items
  FROM (
    SELECT metric, replicate, item FROM confusion_ratings
    GROUP BY metric, replicate, item
    HAVING COUNT(*) >= 2
  ) AS paired
  GROUP BY metric, replicate
),
pair_categories AS (
  -- categories in the pairs' domains (the declared domain when one is given)
  SELECT metric, replicate, COUNT(DISTINCT cat) AS n_categories
  FROM pair_domain
  GROUP BY metric, replicate
)
,
cohen_expected AS (
  -- p_e = sum_ij w_ij p_i. p_.j = sum_i p_i. w_i.
  SELECT r.metric, r.replicate, r.rater_a, r.rater_b, SUM(r.p_row * rw.w_row) AS p_e
  FROM pair_rows AS r
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.replicate = rw.replicate AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  GROUP BY r.metric, r.replicate, r.rater_a, r.rater_b
),
cohen_pair_kappa AS (
  -- kappa = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.replicate, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS kappa
  FROM pair_observed AS o
  JOIN cohen_expected AS e ON o.metric = e.metric AND o.replicate = e.replicate AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
cohen_pair_variance AS (
  -- var = [sum_ij p_ij (w_ij - (w_i. + w_.j)(1 - kappa))^2 - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.replicate, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))
          - MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))
         / NULLIF(MIN(POWER(1.0 - k.p_e, 2) * k.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN pair_row_weights AS rw ON c.metric = rw.metric AND c.replicate = rw.replicate AND c.rater_a = rw.rater_a AND c.rater_b = rw.rater_b AND rw.cat = c.cat_a
  JOIN pair_col_weights AS cw ON c.metric = cw.metric AND c.replicate = cw.replicate AND c.rater_a = cw.rater_a AND c.rater_b = cw.rater_b AND cw.cat = c.cat_b
  JOIN cohen_pair_kappa AS k ON c.metric = k.metric AND c.replicate = k.replicate AND c.rater_a = k.rater_a AND c.rater_b = k.rater_b
  GROUP BY c.metric, c.replicate, c.rater_a, c.rater_b
),
cohen_pair_null_variance AS (
  -- var0 = [sum_ij p_i. p_.j (w_ij - (w_i. + w_.j))^2 - p_e^2] / ((1 - p_e)^2 N)
  SELECT r.metric, r.replicate, r.rater_a, r.rater_b,
         (SUM(r.p_row * c.p_col * POWER(w.w - (rw.w_row + cw.w_col), 2))
          - MIN(POWER(pk.p_e, 2)))
         / NULLIF(MIN(POWER(1.0 - pk.p_e, 2) * pk.n_shared), 0.0) AS null_variance
  FROM pair_rows AS r
  JOIN pair_cols AS c ON r.metric = c.metric AND r.replicate = c.replicate AND r.rater_a = c.rater_a AND r.rater_b = c.rater_b
  JOIN pair_weights AS w ON r.metric = w.metric AND r.replicate = w.replicate AND r.rater_a = w.rater_a AND r.rater_b = w.rater_b AND w.cat_a = r.cat AND w.cat_b = c.cat
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.replicate = rw.replicate AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  JOIN pair_col_weights AS cw ON r.metric = cw.metric AND r.replicate = cw.replicate AND r.rater_a = cw.rater_a AND r.rater_b = cw.rater_b AND cw.cat = c.cat
  JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric AND r.replicate = pk.replicate AND r.rater_a = pk.rater_a AND r.rater_b = pk.rater_b
  WHERE r.replicate = 0    -- the observed data only; resamples get NULL
  GROUP BY r.metric, r.replicate, r.rater_a, r.rater_b
),
cohen_pair_null_z AS (
  -- se0 = sqrt(var0) (0 when var0 rounds below 0), z = kappa / se0 (NULL when se0 = 0), |z|
  SELECT v.metric, v.replicate, v.rater_a, v.rater_b,
         SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END) AS se0,
         pk.kappa / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS z,
         ABS(pk.kappa) / NULLIF(SQRT(CASE WHEN v.null_variance < 0.0 THEN 0.0 ELSE v.null_variance END), 0.0) AS abs_z
  FROM cohen_pair_null_variance AS v
  JOIN cohen_pair_kappa AS pk ON v.metric = pk.metric AND v.replicate = pk.replicate AND v.rater_a = pk.rater_a AND v.rater_b = pk.rater_b
),
cohen_pair_null_test AS (
  -- p_one_sided = 1 - Phi(z), p_value = 2 (1 - Phi(|z|))
  SELECT t.metric, t.replicate, t.rater_a, t.rater_b, t.se0, t.z,
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
  SELECT r.metric, r.replicate,
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
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric AND r.replicate = pk.replicate
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.replicate = v.replicate AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  LEFT JOIN cohen_pair_null_test AS t ON pk.metric = t.metric AND pk.replicate = t.replicate AND pk.rater_a = t.rater_a AND pk.rater_b = t.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric AND r.replicate = i.replicate
  LEFT JOIN pair_categories AS c ON r.metric = c.metric AND r.replicate = c.replicate
  GROUP BY r.metric, r.replicate, r.n_raters
)
,
cohen_kappa_boot_values AS (
  -- v_b: the defined replicate values, ranked within their metric (and slice)
  SELECT e.metric, e.replicate, e.value,
         AVG(e.value) OVER (PARTITION BY e.metric) AS mean_v,
         COUNT(*) OVER (PARTITION BY e.metric) AS n_valid,
         ROW_NUMBER() OVER (PARTITION BY e.metric
                            ORDER BY e.value, e.replicate) AS boot_rank
  FROM cohen_kappa AS e
  WHERE e.replicate > 0 AND e.value IS NOT NULL
),
cohen_kappa_boot_interval AS (
  SELECT metric,
         MIN(n_valid) AS n_boot_valid,
         SQRT(SUM((value - mean_v) * (value - mean_v)) / NULLIF(MIN(n_valid) - 1.0, 0.0)) AS se,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_low_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_low_p - 1e-9) END THEN value END) AS ci_low,
         MAX(CASE WHEN boot_rank = CASE WHEN CEIL(n_valid * $ci_high_p - 1e-9) < 1 THEN 1 ELSE CEIL(n_valid * $ci_high_p - 1e-9) END THEN value END) AS ci_high
  FROM cohen_kappa_boot_values
  GROUP BY metric
),
bootstrap AS (
  SELECT e.*, b.se, b.ci_low, b.ci_high, COALESCE(b.n_boot_valid, 0) AS n_boot_valid
  FROM cohen_kappa AS e
  LEFT JOIN cohen_kappa_boot_interval AS b ON e.metric = b.metric
  WHERE e.replicate = 0
)

SELECT c.*
FROM bootstrap AS c
ORDER BY c.metric, c.replicate
