-- agreement-sql: human_agreement (spark)
-- reads relation: `ratings`
-- parameter: :default_metric = 'value'
-- parameter: :likert_lo = 1.0
-- parameter: :likert_hi = 5.0
-- human_agreement: GDPval A^HH, mean over units of the mean pairwise 1 - |h_i - h_j|.
-- Source: seed 000 (GDPval human inter-rater agreement, OpenAI GDPval paper).
-- Reads: the ratings relation (item, rater, value[, metric]) and optionally a scales relation.
-- Returns: one row per metric: a_hh, n_samples (units with two or more ratings), scale.
-- Undefined: a_hh is NULL when no unit has two ratings.
-- window_form (continuous scores, more distinct values than the wide cap of
--   agreement_sql/profile.py): each item's pair sum from its sorted ratings in closed form,
--   sum_k h_(k) (2k - m - 1) (sql/_value_windows.sql.j2), not from pairs of values.
WITH
ratings_in AS  (
  SELECT
    :default_metric AS metric,
    src.`item` AS item,
    CAST(src.`rater` AS STRING) AS rater,
    CAST(src.`value` AS STRING) AS value_text,
    TRY_CAST(src.`value` AS DOUBLE) AS x
  FROM `ratings` AS src
  WHERE src.`value` IS NOT NULL
),
ratings AS  (
  SELECT metric, item, rater, value_text, x
  FROM ratings_in
)
,
observed_scale AS (
  SELECT metric,
         MIN(CASE WHEN x = 0 OR x = 1 THEN 1 ELSE 0 END) AS all_zero_one
  FROM ratings
  GROUP BY metric
),
scale AS (
  SELECT o.metric,
         CASE WHEN o.all_zero_one = 1 THEN 'binary' ELSE 'likert' END AS kind,
         CASE WHEN o.all_zero_one = 1 THEN 0.0 ELSE :likert_lo END AS lo,
         CASE WHEN o.all_zero_one = 1 THEN 1.0 ELSE :likert_hi END AS hi
  FROM observed_scale AS o
)
,
value_window_rows AS (
  SELECT r.metric,
         ROW_NUMBER() OVER (PARTITION BY r.metric, r.item ORDER BY r.x) AS row_k,
         LEAST(GREATEST((r.x - s.lo) / NULLIF(s.hi - s.lo, 0), 0.0), 1.0) AS h,
         r.item
  FROM ratings AS r
  JOIN scale AS s ON r.metric = s.metric
),
value_windows AS (
  SELECT metric, item,
         2.0 * SUM(h * row_k) - (COUNT(*) + 1) * SUM(h) AS spread_u,
         COUNT(*) AS m_u
  FROM value_window_rows
  GROUP BY metric, item
)
,
ahh_units AS (
  SELECT metric, item,
         1.0 - COALESCE(spread_u, 0.0) / NULLIF(m_u * (m_u - 1) / 2.0, 0.0) AS a_u
  FROM value_windows
  WHERE m_u >= 2
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
