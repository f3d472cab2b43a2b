-- agreement-sql: human_agreement (duckdb)
-- reads relation: "ratings"
-- parameter: $default_metric = 'value'
-- parameter: $likert_lo = 1.0
-- parameter: $likert_hi = 5.0
-- human_agreement: GDPval A^HH, mean over units of the mean pairwise 1 - |h_i - h_j|.
-- Source: seed 000 (GDPval human inter-rater agreement, OpenAI GDPval paper).
-- Reads: the ratings relation (item, rater, value[, metric]) and optionally a scales relation.
-- Returns: one row per metric: a_hh, n_samples (units with two or more ratings), scale.
-- Undefined: a_hh is NULL when no unit has two ratings.
-- window_form (continuous scores, more distinct values than the wide cap of
--   agreement_sql/profile.py): each item's pair sum from its sorted ratings in closed form,
--   sum_k h_(k) (2k - m - 1) (sql/_value_windows.sql.j2), not from pairs of values.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', likert_lo := 1.0, likert_hi := 5.0);
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
observed_scale AS (
  SELECT metric,
         MIN(CASE WHEN x = 0 OR x = 1 THEN 1 ELSE 0 END) AS all_zero_one
  FROM counts
  GROUP BY metric
),
scale AS (
  SELECT o.metric,
         CASE WHEN o.all_zero_one = 1 THEN 'binary' ELSE 'likert' END AS kind,
         CASE WHEN o.all_zero_one = 1 THEN 0.0 ELSE $likert_lo END AS lo,
         CASE WHEN o.all_zero_one = 1 THEN 1.0 ELSE $likert_hi END AS hi
  FROM observed_scale AS o
)
,
ahh_spread AS (
  SELECT v.metric, v.item,
         SUM(v.n_lo * v.n_hi * ABS(
             LEAST(GREATEST((v.x_hi - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0)
           - LEAST(GREATEST((v.x_lo - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0))) AS abs_diff_sum
  FROM value_pairs AS v
  JOIN scale AS s ON v.metric = s.metric
  GROUP BY v.metric, v.item
),
ahh_units AS (
  SELECT u.metric, u.item,
         1.0 - COALESCE(d.abs_diff_sum, 0.0) / (u.m_u * (u.m_u - 1) / 2.0) AS a_u
  FROM units AS u
  LEFT JOIN ahh_spread AS d ON u.metric = d.metric AND d.item = u.item
  WHERE u.m_u >= 2
),
human_agreement AS (
  SELECT metric, AVG(a_u) AS a_hh, COUNT(*) AS n_samples
  FROM ahh_units
  GROUP BY metric
)

SELECT s.metric, h.a_hh, COALESCE(h.n_samples, 0) AS n_samples,
       s.kind AS scale_kind, s.lo AS scale_lo, s.hi AS scale_hi
FROM scale AS s
LEFT JOIN human_agreement AS h ON s.metric = h.metric
ORDER BY 1
