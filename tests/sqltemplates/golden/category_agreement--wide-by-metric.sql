-- agreement-sql: category_agreement (duckdb)
-- reads relation: "ratings"
-- parameters: set on the lines below (DuckDB variables, read with getvariable())
SET VARIABLE category_0 = 'no';
SET VARIABLE category_1 = 'yes';
CREATE OR REPLACE TEMP MACRO agreement_fsum(t) AS CAST(SUM(CASE WHEN ABS(t) < 1e18 THEN CAST(ROUND(t * 1073741824.0) AS HUGEINT) WHEN t IS NOT NULL THEN 0 END) AS DOUBLE) / 1073741824.0 + FSUM(CASE WHEN ABS(t) < 1e18 THEN t - ROUND(t * 1073741824.0) / 1073741824.0 ELSE t END);
CREATE OR REPLACE TEMP MACRO agreement_isnan(x) AS (NOT ISFINITE(x) AND NOT ISINF(x));
-- category_agreement: per metric (and slice) and category k, the agreement on k against the
--   rest, from the counts r_ik of raters giving k to unit i (one pass over the per-unit counts
--   of sql/_kappa_inputs.sql.j2, whichever form the route chose; never a rater pair).
-- Source: Fleiss (1971), Psychological Bulletin 76(5), 378-382, the kappa of category j,
--     kappa_j = 1 - sum_i n_ij (m - n_ij) / (N m (m - 1) p_j q_j),
--   in the package's generalisation to units rated by different numbers of raters (Gwet 2014,
--   ch. 5, as Fleiss' kappa itself: sql/_fleiss.sql.j2), which is Fleiss' kappa of the ratings
--   recoded "k" / "not k":
--     D_k   = (1/n2) sum_{i: r_i >= 2} r_ik (r_i - r_ik) / (r_i (r_i - 1))
--     pi_k  = (1/n) sum_i r_ik / r_i                     (n units rated)
--     p_a   = 1 - 2 D_k,  p_e = 1 - 2 pi_k (1 - pi_k)   (observed and chance agreement of the recoding)
--     kappa_k = (p_a - p_e) / (1 - p_e) = 1 - D_k / (pi_k (1 - pi_k))
--   equal to Fleiss' kappa_j when every unit has m ratings (R irr kappam.fleiss(detail = TRUE)).
--   Its test of H0: no agreement beyond chance (Fleiss, Nee & Landis 1979; irr's SEkappaK):
--     se0 = sqrt(2 / (N m (m - 1))), z = kappa_k / se0, p_value = 2 (1 - Phi(|z|))
--   defined only where every unit of the metric (and slice) has the same m >= 2 ratings (its
--   derivation assumes it), NULL otherwise; the p-values by sql/_normal.sql.j2, as every test.
--   Specific agreement (Uebersax 1982; Cicchetti & Feinstein 1990, generalised to many raters):
--     p_s(k) = sum_i r_ik (r_ik - 1) / sum_i r_ik (r_i - 1)
--   the share of the rater pairs on a unit involving a rating k in which both said k: for two
--   raters and binary labels the positive agreement 2a / (2a + b + c) and the negative agreement
--   2d / (2d + b + c).
-- Reads: the ratings relation (any categories: numbers or labels; a declared domain lists its
--   unused categories too). Option listwise (R irr's convention, na.omit): only the units every
--   rater of the metric (and slice) rated enter, the others' ratings counted apart
--   (n_kept_ratings against the unit counts' n_ratings).
-- Returns: one row per metric (and slice) and domain category, in the domain's order:
--   position, x, label, category_ratings (sum_i r_ik), category_units (units given k at least
--   once), share (category_ratings / the ratings that enter), pi_k,
--   observed_agreement, chance_agreement, value (kappa_k), null_variance, se0, z, abs_z,
--   p_one_sided, p_value, agreeing_pairs and possible_pairs (p_s's numerator and denominator),
--   specific_agreement; n_items (n2), n_rated (n), n_kept_ratings (their ratings); and the unit
--   counts the caller checks and reports. A metric (or slice) with no rating is one row, its
--   category columns NULL.
-- Undefined: kappa_k NULL when no unit is rated twice or pi_k (1 - pi_k) = 0 (k never or
--   always given); specific_agreement NULL when no unit with a rating k is rated twice.
WITH
ratings_read AS NOT MATERIALIZED (
  SELECT (NULLIF(CASE WHEN STRLEN((CAST(src."question" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."question" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."question" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."question" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS metric,
             (NULLIF(CASE WHEN STRLEN((CAST(src."item" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."item" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."item" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."item" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS item,
    (NULLIF(CASE WHEN STRLEN((CAST(src."rater" AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(src."rater" AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(src."rater" AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(src."rater" AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS rater,

         src."item" AS item_src, src."question" AS metric_src,
             (CASE WHEN STRLEN(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) NOT IN (4, 5) THEN TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'true' THEN 'true' WHEN LOWER(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary"))) = 'false' THEN 'false' ELSE TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) END COLLATE "binary") AS t,
    CASE WHEN NOT POSITION('_' IN (CAST(src."value" AS VARCHAR) COLLATE "binary")) = 0 THEN NULL
     WHEN ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) >= 9007199254740992.0
          AND ABS(TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE)) <= 1.7976931348623157e+308
          AND TRANSLATE(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")), '0123456789', '') IN ('', '-', '+') THEN NULL
     ELSE TRY_CAST(TRIM(BOTH ' ' FROM (CAST(src."value" AS VARCHAR) COLLATE "binary")) AS DOUBLE) END AS x_raw,
    CASE WHEN src."value" IS NULL THEN 1 ELSE 0 END AS is_null
  FROM "ratings" AS src
),
ratings_states AS NOT MATERIALIZED (
  SELECT metric, item, rater,
         CASE WHEN is_null = 1 OR t = '' OR agreement_isnan(x_raw) THEN 1
              ELSE 0 END AS state,
         x_raw, t, item_src, metric_src
  FROM ratings_read
),
ratings_in AS NOT MATERIALIZED (
  -- x and label only for a rating (state 0): a missing value or a placeholder is neither
  SELECT metric, item, rater, state, item_src, metric_src,
         CASE WHEN state = 0 THEN x_raw + 0.0 END AS x,
         CASE WHEN state = 0 AND x_raw IS NULL THEN t END AS label
  FROM ratings_states
),
ratings AS NOT MATERIALIZED (
  SELECT metric, item, rater, x, label, 1 AS n_rows
  FROM ratings_in
  WHERE CASE
    WHEN (item_src IS NULL OR CAST(item_src AS VARCHAR) = '') OR rater IS NULL OR (metric_src IS NULL OR CAST(metric_src AS VARCHAR) = '')
    THEN error(CONCAT('agreement-sql: MissingKeyError: a key (item, rater, metric or slice) is empty (NULL)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ')'))
    WHEN state = 0 AND ABS(x) >= 9007199254740992.0
    THEN error(CONCAT('agreement-sql: InvalidRatingError: the rating ', CAST(x AS VARCHAR), ' is not a usable number (infinite, or 2^53 or more in magnitude)', ' at (item=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(item_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(item_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(item_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(item_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ', rater=', COALESCE(CAST(rater AS VARCHAR), 'NULL'), ', metric=', COALESCE(CAST((NULLIF(CASE WHEN STRLEN((CAST(metric_src AS VARCHAR) COLLATE "binary")) NOT IN (4, 5) THEN (CAST(metric_src AS VARCHAR) COLLATE "binary") WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'true' THEN 'true' WHEN LOWER((CAST(metric_src AS VARCHAR) COLLATE "binary")) = 'false' THEN 'false' ELSE (CAST(metric_src AS VARCHAR) COLLATE "binary") END, '') COLLATE "binary") AS VARCHAR), 'NULL'), ')'))
    ELSE state = 0 END
)
,
rater_codes AS (
  SELECT rater, code,
         CAST(FLOOR(code / 62) AS BIGINT) AS block,
         CAST(POWER(2, code % 62) AS BIGINT) AS bit
  FROM (
    SELECT rater, ROW_NUMBER() OVER (ORDER BY rater) - 1 AS code
    FROM (SELECT DISTINCT rater FROM ratings) AS d
  ) AS numbered
  -- the duplicate check counts the rater bits of rater_blocks blocks: a rater beyond them
  -- would look like a repeated rating
  WHERE CASE WHEN code >= 62
             THEN error(CONCAT('agreement-sql: OptionError: more than ', CAST(62 AS VARCHAR), ' raters (rater ', rater, ' is number ', CAST(code + 1 AS VARCHAR), '): render with more rater_blocks'))
             ELSE TRUE END
)
,
unit_packed AS (
  -- the category counts of a unit as base-512 digits, five categories per DOUBLE
  SELECT r.metric, r.item AS item,
         BIT_OR(CASE WHEN c.block = 0 THEN c.bit ELSE 0 END) AS or_0,

         
         SUM(CASE WHEN r.label = CAST(getvariable('category_0') AS VARCHAR) THEN 1.0 WHEN r.label = CAST(getvariable('category_1') AS VARCHAR) THEN 512.0 ELSE 0.0 END) AS pack_0,
COUNT(*) AS n_rows_u,
         COUNT(*) AS m_u
  FROM ratings AS r
    LEFT JOIN rater_codes AS c ON c.rater = r.rater

  GROUP BY r.metric, r.item
),
unit_wide AS (
  SELECT metric, item, m_u, n_rows_u,
or_0, 
                  CAST(FLOOR(pack_0 / 1.0) - 512.0 * FLOOR(pack_0 / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(pack_0 / 512.0) - 512.0 * FLOOR(pack_0 / 262144.0) AS BIGINT) AS n_1

  FROM unit_packed
),
units AS (
  -- sums of the unit from its count columns
  SELECT metric, item, m_u, n_rows_u,
or_0, 
         CASE WHEN m_u > CAST(BIT_COUNT(or_0) AS BIGINT) + 0 THEN CASE WHEN error(CONCAT('agreement-sql: DuplicateRatingError: a rater rated (item=', COALESCE(CAST(item AS VARCHAR), 'NULL'), ', metric=', COALESCE(metric, 'NULL'), ') more than once; keep one rating per (item, rater) or pass on_duplicate= to the Python API')) THEN 1 END ELSE 0 END AS dup_u,
n_0, n_1, 
         CAST(NULL AS DOUBLE) AS s1_u,
         CAST(NULL AS DOUBLE) AS s2_u,
         CAST(NULL AS DOUBLE) AS x_min,
         CAST(NULL AS DOUBLE) AS x_max,
n_0 * n_0 + n_1 * n_1 + 0 AS q_u,
CASE WHEN n_0 > 0 THEN 1 ELSE 0 END + CASE WHEN n_1 > 0 THEN 1 ELSE 0 END + 0 AS n_values_u
  FROM unit_wide
),
pack_patterns AS (
  -- units with the same size and packed counts, w of them: grouped before the digits are
  -- decoded, so the decoding runs once a pattern instead of once a unit
  SELECT metric, m_u, pack_0, COUNT(*) AS w,
BIT_OR(or_0) AS or_0, 
         SUM(n_rows_u) AS n_rows, SUM(CASE WHEN m_u > CAST(BIT_COUNT(or_0) AS BIGINT) + 0 THEN CASE WHEN error(CONCAT('agreement-sql: DuplicateRatingError: a rater rated (item=', COALESCE(CAST(item AS VARCHAR), 'NULL'), ', metric=', COALESCE(metric, 'NULL'), ') more than once; keep one rating per (item, rater) or pass on_duplicate= to the Python API')) THEN 1 END ELSE 0 END) AS n_dup
  FROM unit_packed
  GROUP BY metric, m_u, pack_0
),
unit_patterns AS (
  SELECT metric, m_u,          CAST(FLOOR(pack_0 / 1.0) - 512.0 * FLOOR(pack_0 / 512.0) AS BIGINT) AS n_0,
         CAST(FLOOR(pack_0 / 512.0) - 512.0 * FLOOR(pack_0 / 262144.0) AS BIGINT) AS n_1
, w,
or_0, 
         n_rows, n_dup
  FROM pack_patterns
),

unit_counts AS (
  SELECT u.metric, SUM(u.w) AS n_units, SUM(u.w * u.m_u) AS n_ratings,
         SUM(CASE WHEN u.m_u = 1 THEN u.w ELSE 0 END) AS n_single,
         SUM(u.n_rows - u.w * u.m_u) AS n_merged,
         SUM(u.n_dup) AS n_duplicate_units,
         CAST(BIT_COUNT(BIT_OR(u.or_0)) AS BIGINT) + 0 AS n_raters
  FROM unit_patterns AS u
  
  GROUP BY u.metric
)
,
kappa_category_totals AS (
  -- per metric: units, and how often each global category g was given
  SELECT metric,
SUM(w * n_0) AS t_0, SUM(w * n_1) AS t_1, 
         SUM(w) AS n_units
  FROM unit_patterns
  GROUP BY metric
),
kappa_used AS (
  -- the global categories each metric used
  SELECT metric, 0 AS g,
CAST(NULL AS DOUBLE) AS x,
CAST(getvariable('category_0') AS VARCHAR) AS label
  FROM kappa_category_totals
  WHERE t_0 > 0
  UNION ALL
  SELECT metric, 1 AS g,
CAST(NULL AS DOUBLE) AS x,
CAST(getvariable('category_1') AS VARCHAR) AS label
  FROM kappa_category_totals
  WHERE t_1 > 0
),
kappa_domain AS (
  SELECT metric, x, label,
         ROW_NUMBER() OVER (PARTITION BY metric
                            ORDER BY CASE WHEN label IS NULL THEN 0 ELSE 1 END, x, label) - 1 AS position
  FROM kappa_used
),
kappa_positions AS (
  -- each used category's position in its metric's domain, with its global number g
  SELECT u.metric, u.g, u.x, u.label, d.position
  FROM kappa_used AS u
  JOIN kappa_domain AS d ON u.metric = d.metric AND COALESCE(u.x, CAST('NaN' AS DOUBLE)) = COALESCE(d.x, CAST('NaN' AS DOUBLE)) AND COALESCE(u.label, '') = COALESCE(d.label, '')
),
kappa_span AS (
  -- q, the domain's size, and s_max - s_min, the range of the category scores
  SELECT d.metric, COUNT(*) AS q,
         MAX(d.x) - MIN(d.x) AS span
  FROM kappa_domain AS d
  GROUP BY d.metric
),
kappa_weights AS (
  -- w_kl for every pair of domain positions
  SELECT a.metric, a.position AS pos_k, b.position AS pos_l,
         CASE WHEN a.position = b.position THEN 1.0 ELSE 0.0 END
 AS w
  FROM kappa_domain AS a
  JOIN kappa_domain AS b ON a.metric = b.metric
  JOIN kappa_span AS s ON a.metric = s.metric
),
kappa_units AS (
  -- per unit pattern (w_u alike units): r_i and pa_i
  SELECT p.metric, ROW_NUMBER() OVER (PARTITION BY p.metric ORDER BY p.m_u, p.n_0, p.n_1) AS unit,
         p.w AS w_u, p.m_u AS r_i,
p.n_0, p.n_1, 
         CASE WHEN p.m_u >= 2
              THEN CAST((p.n_0 * p.n_0 + p.n_1 * p.n_1 + 0) - p.m_u AS DOUBLE)
                   / NULLIF(CAST(p.m_u AS DOUBLE) * (p.m_u - 1), 0.0)
              ELSE 0.0 END AS pa_i
  FROM unit_patterns AS p
),
kappa_unit_shares AS (
  -- sum_i r_ik / r_i per global category
  SELECT metric,
         agreement_fsum(w_u * CAST(n_0 AS DOUBLE) / NULLIF(r_i, 0)) AS s_0,
         agreement_fsum(w_u * CAST(n_1 AS DOUBLE) / NULLIF(r_i, 0)) AS s_1
  FROM kappa_units
  GROUP BY metric
),
kappa_share_sums AS (
  SELECT metric, 0 AS g, s_0 AS share_sum FROM kappa_unit_shares
  UNION ALL
  SELECT metric, 1 AS g, s_1 AS share_sum FROM kappa_unit_shares
),
kappa_shares_used AS (
  SELECT p.metric, p.position, s.share_sum
  FROM kappa_positions AS p
  JOIN kappa_share_sums AS s ON p.metric = s.metric AND s.g = p.g
),
kappa_totals AS (
  -- n units rated at least once, n2 rated twice or more, p_a = sum_i pa_i / n2
  SELECT metric,
         SUM(w_u) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS n_items,
         agreement_fsum(w_u * pa_i) / NULLIF(CAST(SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS DOUBLE), 0.0) AS p_a
  FROM kappa_units
  GROUP BY metric
),
kappa_shares AS (
  -- pi_k = (1/n) sum_i r_ik / r_i for every domain category (0 when unused)
  SELECT d.metric, d.position, COALESCE(s.share_sum / NULLIF(t.n_rated, 0), 0.0) AS pi_k
  FROM kappa_domain AS d
  JOIN kappa_totals AS t ON d.metric = t.metric
  LEFT JOIN kappa_shares_used AS s ON d.metric = s.metric AND s.position = d.position
),
kappa_summary AS (
  SELECT t.metric, t.n_rated, t.n_items, t.p_a, s.q, u.n_used, w.t_w
  FROM kappa_totals AS t
  JOIN kappa_span AS s ON t.metric = s.metric
  JOIN (SELECT metric, COUNT(*) AS n_used FROM kappa_used GROUP BY metric) AS u
    ON t.metric = u.metric
  JOIN (SELECT metric, agreement_fsum(w) AS t_w FROM kappa_weights GROUP BY metric) AS w
    ON t.metric = w.metric
)
,
category_units AS (
  -- the units that enter: every rated unit
  SELECT u.*
  FROM kappa_units AS u
),
category_unit_counts AS (
  -- r_ik per unit (wide form: per unit pattern, w_u alike units) and category given, with r_i
  SELECT u.metric, p.position, u.w_u, u.r_i, u.n_0 AS r_ik
  FROM category_units AS u
  JOIN kappa_positions AS p ON u.metric = p.metric AND p.g = 0
  WHERE u.n_0 > 0
  UNION ALL
  SELECT u.metric, p.position, u.w_u, u.r_i, u.n_1 AS r_ik
  FROM category_units AS u
  JOIN kappa_positions AS p ON u.metric = p.metric AND p.g = 1
  WHERE u.n_1 > 0
),
category_sums AS (
  -- per category: its ratings and units, n pi_k, the pairs of p_s, and n2 D_k
  SELECT metric, position,
         SUM(w_u * r_ik) AS category_ratings,
         SUM(w_u) AS category_units,
         agreement_fsum(w_u * CAST(r_ik AS DOUBLE) / r_i) AS share_sum,
         SUM(w_u * r_ik * (r_ik - 1)) AS agreeing_pairs,
         SUM(w_u * r_ik * (r_i - 1)) AS possible_pairs,
         agreement_fsum(CASE WHEN r_i >= 2
                             THEN w_u * CAST(r_ik * (r_i - r_ik) AS DOUBLE) / (CAST(r_i AS DOUBLE) * (r_i - 1))
                             ELSE 0.0 END) AS disagreement_sum
  FROM category_unit_counts
  GROUP BY metric, position
),
category_totals AS (
  -- n units rated, n2 rated twice or more, their ratings, and the fewest and most ratings of a
  -- unit (one m for the test)
  SELECT metric, SUM(w_u) AS n_rated,
         SUM(CASE WHEN r_i >= 2 THEN w_u ELSE 0 END) AS n_items,
         SUM(w_u * r_i) AS n_kept_ratings, MIN(r_i) AS m_min, MAX(r_i) AS m_max
  FROM category_units
  GROUP BY metric
),
category_kappas AS (
  -- every domain category: pi_k, kappa_k = 1 - D_k / (pi_k (1 - pi_k)), its null variance 2 / (n m (m - 1))
  SELECT d.metric, d.position, d.x, d.label,
         COALESCE(t.n_items, 0) AS n_items, COALESCE(t.n_rated, 0) AS n_rated,
         COALESCE(t.n_kept_ratings, 0) AS n_kept_ratings,
         COALESCE(c.category_ratings, 0) AS category_ratings,
         COALESCE(c.category_units, 0) AS category_units,
         CAST(COALESCE(c.category_ratings, 0) AS DOUBLE) / NULLIF(t.n_kept_ratings, 0) AS share,
         COALESCE(c.share_sum, 0.0) / NULLIF(CAST(t.n_rated AS DOUBLE), 0.0) AS pi_k,
         c.disagreement_sum, t.m_min, t.m_max,
         COALESCE(c.agreeing_pairs, 0) AS agreeing_pairs,
         COALESCE(c.possible_pairs, 0) AS possible_pairs,
         CAST(c.agreeing_pairs AS DOUBLE) / NULLIF(c.possible_pairs, 0) AS specific_agreement
  FROM kappa_domain AS d
  LEFT JOIN category_totals AS t ON d.metric = t.metric
  LEFT JOIN category_sums AS c ON d.metric = c.metric AND c.position = d.position
),
category_values AS (
  SELECT k.*,
         1.0 - 2.0 * COALESCE(k.disagreement_sum, 0.0) / NULLIF(CAST(k.n_items AS DOUBLE), 0.0) AS observed_agreement,
         1.0 - 2.0 * k.pi_k * (1.0 - k.pi_k) AS chance_agreement,
         CASE WHEN k.n_items > 0
              THEN 1.0 - (COALESCE(k.disagreement_sum, 0.0) / k.n_items) / NULLIF(k.pi_k * (1.0 - k.pi_k), 0.0)
         END AS value,
         CASE WHEN k.m_min = k.m_max AND k.m_min >= 2
              THEN 2.0 / (CAST(k.n_rated AS DOUBLE) * k.m_min * (k.m_min - 1))
         END AS null_variance
  FROM category_kappas AS k
),
category_z AS (
  -- the test of H0: kappa_k = 0 (se0 NULL where the null variance is: z and p NULL too)
  SELECT r.*,
         SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END) AS se0,
         r.value / NULLIF(SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END), 0.0) AS z,
         ABS(r.value) / NULLIF(SQRT(CASE WHEN r.null_variance < 0.0 THEN 0.0 ELSE r.null_variance END), 0.0) AS abs_z
  FROM category_values AS r
),
category_tests AS (
  -- p_one_sided = 1 - Phi(z) = erfc(y) / 2, p_value = 2 (1 - Phi(|z|)) = erfc(|y|), y = z / sqrt 2
  -- (sql/_normal.sql.j2)
  SELECT y.*, 0.5e0 * CASE WHEN y.y IS NULL THEN NULL
     WHEN y.y >= 0.0e0 THEN (CASE WHEN y.y <= 0.46875e0
      THEN 1.0e0 - y.y * (3.20937758913846947e03 + (y.y * y.y) * (3.77485237685302021e02 + (y.y * y.y) * (1.13864154151050156e02 + (y.y * y.y) * (3.16112374387056560e00 + (y.y * y.y) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + (y.y * y.y) * (1.28261652607737228e03 + (y.y * y.y) * (2.44024637934444173e02 + (y.y * y.y) * (2.36012909523441209e01 + (y.y * y.y) * 1.0e0))))
      WHEN y.y <= 4.0e0
      THEN (EXP(-(FLOOR(y.y * 16.0e0) / 16.0e0) * (FLOOR(y.y * 16.0e0) / 16.0e0)) * EXP(-(y.y - (FLOOR(y.y * 16.0e0) / 16.0e0)) * (y.y + (FLOOR(y.y * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + y.y * (2.05107837782607147e03 + y.y * (1.71204761263407058e03 + y.y * (8.81952221241769090e02 + y.y * (2.98635138197400131e02 + y.y * (6.61191906371416295e01 + y.y * (8.88314979438837594e00 + y.y * (5.64188496988670089e-1 + y.y * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + y.y * (3.43936767414372164e03 + y.y * (4.36261909014324716e03 + y.y * (3.29079923573345963e03 + y.y * (1.62138957456669019e03 + y.y * (5.37181101862009858e02 + y.y * (1.17693950891312499e02 + y.y * (1.57449261107098347e01 + y.y * 1.0e0))))))))
      WHEN y.y < 26.0e0
      THEN (EXP(-(FLOOR(y.y * 16.0e0) / 16.0e0) * (FLOOR(y.y * 16.0e0) / 16.0e0)) * EXP(-(y.y - (FLOOR(y.y * 16.0e0) / 16.0e0)) * (y.y + (FLOOR(y.y * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / (y.y * y.y)) * (6.58749161529837803e-4 + (1.0e0 / (y.y * y.y)) * (1.60837851487422766e-2 + (1.0e0 / (y.y * y.y)) * (1.25781726111229246e-1 + (1.0e0 / (y.y * y.y)) * (3.60344899949804439e-1 + (1.0e0 / (y.y * y.y)) * (3.05326634961232344e-1 + (1.0e0 / (y.y * y.y)) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / (y.y * y.y)) * (6.05183413124413191e-2 + (1.0e0 / (y.y * y.y)) * (5.27905102951428412e-1 + (1.0e0 / (y.y * y.y)) * (1.87295284992346047e00 + (1.0e0 / (y.y * y.y)) * (2.56852019228982242e00 + (1.0e0 / (y.y * y.y)) * 1.0e0)))))) / y.y
      ELSE 0.0e0 END)
     ELSE 2.0e0 - (CASE WHEN (-y.y) <= 0.46875e0
      THEN 1.0e0 - (-y.y) * (3.20937758913846947e03 + ((-y.y) * (-y.y)) * (3.77485237685302021e02 + ((-y.y) * (-y.y)) * (1.13864154151050156e02 + ((-y.y) * (-y.y)) * (3.16112374387056560e00 + ((-y.y) * (-y.y)) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + ((-y.y) * (-y.y)) * (1.28261652607737228e03 + ((-y.y) * (-y.y)) * (2.44024637934444173e02 + ((-y.y) * (-y.y)) * (2.36012909523441209e01 + ((-y.y) * (-y.y)) * 1.0e0))))
      WHEN (-y.y) <= 4.0e0
      THEN (EXP(-(FLOOR((-y.y) * 16.0e0) / 16.0e0) * (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * EXP(-((-y.y) - (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * ((-y.y) + (FLOOR((-y.y) * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + (-y.y) * (2.05107837782607147e03 + (-y.y) * (1.71204761263407058e03 + (-y.y) * (8.81952221241769090e02 + (-y.y) * (2.98635138197400131e02 + (-y.y) * (6.61191906371416295e01 + (-y.y) * (8.88314979438837594e00 + (-y.y) * (5.64188496988670089e-1 + (-y.y) * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + (-y.y) * (3.43936767414372164e03 + (-y.y) * (4.36261909014324716e03 + (-y.y) * (3.29079923573345963e03 + (-y.y) * (1.62138957456669019e03 + (-y.y) * (5.37181101862009858e02 + (-y.y) * (1.17693950891312499e02 + (-y.y) * (1.57449261107098347e01 + (-y.y) * 1.0e0))))))))
      WHEN (-y.y) < 26.0e0
      THEN (EXP(-(FLOOR((-y.y) * 16.0e0) / 16.0e0) * (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * EXP(-((-y.y) - (FLOOR((-y.y) * 16.0e0) / 16.0e0)) * ((-y.y) + (FLOOR((-y.y) * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / ((-y.y) * (-y.y))) * (6.58749161529837803e-4 + (1.0e0 / ((-y.y) * (-y.y))) * (1.60837851487422766e-2 + (1.0e0 / ((-y.y) * (-y.y))) * (1.25781726111229246e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (3.60344899949804439e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (3.05326634961232344e-1 + (1.0e0 / ((-y.y) * (-y.y))) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / ((-y.y) * (-y.y))) * (6.05183413124413191e-2 + (1.0e0 / ((-y.y) * (-y.y))) * (5.27905102951428412e-1 + (1.0e0 / ((-y.y) * (-y.y))) * (1.87295284992346047e00 + (1.0e0 / ((-y.y) * (-y.y))) * (2.56852019228982242e00 + (1.0e0 / ((-y.y) * (-y.y))) * 1.0e0)))))) / (-y.y)
      ELSE 0.0e0 END) END AS p_one_sided, CASE WHEN y.abs_y IS NULL THEN NULL
     WHEN y.abs_y >= 0.0e0 THEN (CASE WHEN y.abs_y <= 0.46875e0
      THEN 1.0e0 - y.abs_y * (3.20937758913846947e03 + (y.abs_y * y.abs_y) * (3.77485237685302021e02 + (y.abs_y * y.abs_y) * (1.13864154151050156e02 + (y.abs_y * y.abs_y) * (3.16112374387056560e00 + (y.abs_y * y.abs_y) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + (y.abs_y * y.abs_y) * (1.28261652607737228e03 + (y.abs_y * y.abs_y) * (2.44024637934444173e02 + (y.abs_y * y.abs_y) * (2.36012909523441209e01 + (y.abs_y * y.abs_y) * 1.0e0))))
      WHEN y.abs_y <= 4.0e0
      THEN (EXP(-(FLOOR(y.abs_y * 16.0e0) / 16.0e0) * (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * EXP(-(y.abs_y - (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * (y.abs_y + (FLOOR(y.abs_y * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + y.abs_y * (2.05107837782607147e03 + y.abs_y * (1.71204761263407058e03 + y.abs_y * (8.81952221241769090e02 + y.abs_y * (2.98635138197400131e02 + y.abs_y * (6.61191906371416295e01 + y.abs_y * (8.88314979438837594e00 + y.abs_y * (5.64188496988670089e-1 + y.abs_y * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + y.abs_y * (3.43936767414372164e03 + y.abs_y * (4.36261909014324716e03 + y.abs_y * (3.29079923573345963e03 + y.abs_y * (1.62138957456669019e03 + y.abs_y * (5.37181101862009858e02 + y.abs_y * (1.17693950891312499e02 + y.abs_y * (1.57449261107098347e01 + y.abs_y * 1.0e0))))))))
      WHEN y.abs_y < 26.0e0
      THEN (EXP(-(FLOOR(y.abs_y * 16.0e0) / 16.0e0) * (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * EXP(-(y.abs_y - (FLOOR(y.abs_y * 16.0e0) / 16.0e0)) * (y.abs_y + (FLOOR(y.abs_y * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / (y.abs_y * y.abs_y)) * (6.58749161529837803e-4 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.60837851487422766e-2 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.25781726111229246e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (3.60344899949804439e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (3.05326634961232344e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / (y.abs_y * y.abs_y)) * (6.05183413124413191e-2 + (1.0e0 / (y.abs_y * y.abs_y)) * (5.27905102951428412e-1 + (1.0e0 / (y.abs_y * y.abs_y)) * (1.87295284992346047e00 + (1.0e0 / (y.abs_y * y.abs_y)) * (2.56852019228982242e00 + (1.0e0 / (y.abs_y * y.abs_y)) * 1.0e0)))))) / y.abs_y
      ELSE 0.0e0 END)
     ELSE 2.0e0 - (CASE WHEN (-y.abs_y) <= 0.46875e0
      THEN 1.0e0 - (-y.abs_y) * (3.20937758913846947e03 + ((-y.abs_y) * (-y.abs_y)) * (3.77485237685302021e02 + ((-y.abs_y) * (-y.abs_y)) * (1.13864154151050156e02 + ((-y.abs_y) * (-y.abs_y)) * (3.16112374387056560e00 + ((-y.abs_y) * (-y.abs_y)) * 1.85777706184603153e-1))))
                 / (2.84423683343917062e03 + ((-y.abs_y) * (-y.abs_y)) * (1.28261652607737228e03 + ((-y.abs_y) * (-y.abs_y)) * (2.44024637934444173e02 + ((-y.abs_y) * (-y.abs_y)) * (2.36012909523441209e01 + ((-y.abs_y) * (-y.abs_y)) * 1.0e0))))
      WHEN (-y.abs_y) <= 4.0e0
      THEN (EXP(-(FLOOR((-y.abs_y) * 16.0e0) / 16.0e0) * (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * EXP(-((-y.abs_y) - (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * ((-y.abs_y) + (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)))) * (1.23033935479799725e03 + (-y.abs_y) * (2.05107837782607147e03 + (-y.abs_y) * (1.71204761263407058e03 + (-y.abs_y) * (8.81952221241769090e02 + (-y.abs_y) * (2.98635138197400131e02 + (-y.abs_y) * (6.61191906371416295e01 + (-y.abs_y) * (8.88314979438837594e00 + (-y.abs_y) * (5.64188496988670089e-1 + (-y.abs_y) * 2.15311535474403846e-8))))))))
           / (1.23033935480374942e03 + (-y.abs_y) * (3.43936767414372164e03 + (-y.abs_y) * (4.36261909014324716e03 + (-y.abs_y) * (3.29079923573345963e03 + (-y.abs_y) * (1.62138957456669019e03 + (-y.abs_y) * (5.37181101862009858e02 + (-y.abs_y) * (1.17693950891312499e02 + (-y.abs_y) * (1.57449261107098347e01 + (-y.abs_y) * 1.0e0))))))))
      WHEN (-y.abs_y) < 26.0e0
      THEN (EXP(-(FLOOR((-y.abs_y) * 16.0e0) / 16.0e0) * (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * EXP(-((-y.abs_y) - (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)) * ((-y.abs_y) + (FLOOR((-y.abs_y) * 16.0e0) / 16.0e0)))) * (5.6418958354775628695e-1 - (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (6.58749161529837803e-4 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.60837851487422766e-2 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.25781726111229246e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (3.60344899949804439e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (3.05326634961232344e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * 1.63153871373020978e-2)))))
                                                   / (2.33520497626869185e-3 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (6.05183413124413191e-2 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (5.27905102951428412e-1 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (1.87295284992346047e00 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * (2.56852019228982242e00 + (1.0e0 / ((-y.abs_y) * (-y.abs_y))) * 1.0e0)))))) / (-y.abs_y)
      ELSE 0.0e0 END) END AS p_value
  FROM (
    SELECT z.*, z.z * 7.0710678118654752440e-1 AS y, z.abs_z * 7.0710678118654752440e-1 AS abs_y
    FROM category_z AS z
  ) AS y
)
SELECT u.metric, r.position, r.x, r.label, r.category_ratings, r.category_units, r.share,
       r.pi_k, r.observed_agreement, r.chance_agreement, r.value, r.null_variance, r.se0, r.z,
       r.abs_z, r.p_one_sided, r.p_value, r.agreeing_pairs, r.possible_pairs,
       r.specific_agreement, r.n_items, r.n_rated, r.n_kept_ratings,
       u.n_units, u.n_ratings, u.n_single, u.n_merged, u.n_duplicate_units, u.n_raters AS key_raters
FROM unit_counts AS u
LEFT JOIN category_tests AS r ON r.metric = u.metric
ORDER BY u.metric, r.position;
