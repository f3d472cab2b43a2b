-- agreement-sql: cohen_kappa (duckdb)
-- reads relation: "ratings"
-- reads relation: "value_domain"
-- parameter: $default_metric = 'value'
-- parameter: $rater_0 = 'Annotator_1'
-- parameter: $rater_1 = 'Annotator_2'
-- cohen_kappa: Cohen's kappa between two raters (unweighted, linear, quadratic or user weights);
--   with more than two raters, Light's kappa, the mean of Cohen's kappa over rater pairs.
-- Source: Cohen (1960, 1968); Light (1971); variance of Fleiss, Cohen & Everitt (1969) as in SAS
--   PROC FREQ and statsmodels cohens_kappa; formulas in sql/_pairs.sql.j2 and sql/_cohen.sql.j2.
-- Reads: the ratings relation; a pair's items are the items both raters rated. Returns: one row
--   per metric (and slice): value, agreement terms, counts[, se, CI]. Undefined: NULL; 1.0 on one category.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', rater_0 := 'Annotator_1', rater_1 := 'Annotator_2');
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
ratings AS (
  SELECT r.metric, r.item, r.rater, d.value_text, d.x
  FROM ratings_base AS r
  JOIN "value_domain" AS d
    ON r.value_text = d.value_text
)
,
declared_categories AS (
  SELECT d.x AS cat, d.x, d.rank - 1 AS position
  FROM "value_domain" AS d
)
,
confusion_ratings AS (
  -- the ratings of the chosen raters, with their category
  SELECT metric, item, rater,
x AS cat,
         x
  FROM ratings
  WHERE rater IN ($rater_0, $rater_1)
),
confusion AS (
  -- n_ab: items rated cat_a by rater_a and cat_b by rater_b
  SELECT a.metric,
         a.rater AS rater_a, b.rater AS rater_b,
         a.cat AS cat_a, b.cat AS cat_b,
         MIN(a.x) AS x_a, MIN(b.x) AS x_b,
         COUNT(*) AS n_ab
  FROM confusion_ratings AS a
  JOIN confusion_ratings AS b
    ON a.metric = b.metric AND a.item = b.item
   AND a.rater = $rater_0 AND b.rater = $rater_1
  GROUP BY a.metric, a.rater, b.rater, a.cat, b.cat
)
,
pair_totals AS (
  -- N: items both raters of the pair rated
  SELECT metric, rater_a, rater_b, SUM(n_ab) AS n_shared
  FROM confusion
  GROUP BY metric, rater_a, rater_b
),
pair_rows AS (
  -- p_i. = n_i. / N: rater_a's category shares on the shared items
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_a AS cat, MIN(c.x_a) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_row
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b, c.cat_a
),
pair_cols AS (
  -- p_.j = n_.j / N: rater_b's category shares on the shared items
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_b AS cat, MIN(c.x_b) AS x,
         CAST(SUM(c.n_ab) AS DOUBLE) / NULLIF(MIN(p.n_shared), 0) AS p_col
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b, c.cat_b
),
pair_used AS (
  -- the categories either rater used on the shared items
  SELECT metric, rater_a, rater_b, cat, MIN(x) AS x
  FROM (
    SELECT metric, rater_a, rater_b, cat, x FROM pair_rows
    UNION ALL
    SELECT metric, rater_a, rater_b, cat, x FROM pair_cols
  ) AS u
  GROUP BY metric, rater_a, rater_b, cat
),
pair_domain AS (
  -- the pair's category domain with each category's 0-based position
  -- the declared domain, for every pair
  SELECT p.metric, p.rater_a, p.rater_b, d.cat, d.x, d.position
  FROM pair_totals AS p
  CROSS JOIN declared_categories AS d
),
pair_span AS (
  -- q, the domain's size, and s_max - s_min, the range of category scores weights are scaled by
  SELECT d.metric, d.rater_a, d.rater_b,
         MAX(d.x) - MIN(d.x) AS span,
         COUNT(*) AS n_categories
  FROM pair_domain AS d
  GROUP BY d.metric, d.rater_a, d.rater_b
),
pair_weights AS (
  -- w_ij for every pair of categories in the domain
  SELECT a.metric, a.rater_a, a.rater_b, a.cat AS cat_a, b.cat AS cat_b,
         COALESCE(1.0 - ABS(a.x - b.x) / NULLIF(s.span, 0.0), 1.0) AS w
  FROM pair_domain AS a
  JOIN pair_domain AS b ON a.metric = b.metric AND a.rater_a = b.rater_a AND a.rater_b = b.rater_b
  JOIN pair_span AS s ON a.metric = s.metric AND a.rater_a = s.rater_a AND a.rater_b = s.rater_b
  
),
pair_row_weights AS (
  -- w_i. = sum_j p_.j w_ij, for every domain category i
  SELECT w.metric, w.rater_a, w.rater_b, w.cat_a AS cat, SUM(w.w * c.p_col) AS w_row
  FROM pair_weights AS w
  JOIN pair_cols AS c ON w.metric = c.metric AND w.rater_a = c.rater_a AND w.rater_b = c.rater_b AND c.cat = w.cat_b
  GROUP BY w.metric, w.rater_a, w.rater_b, w.cat_a
),
pair_col_weights AS (
  -- w_.j = sum_i p_i. w_ij, for every domain category j
  SELECT w.metric, w.rater_a, w.rater_b, w.cat_b AS cat, SUM(w.w * r.p_row) AS w_col
  FROM pair_weights AS w
  JOIN pair_rows AS r ON w.metric = r.metric AND w.rater_a = r.rater_a AND w.rater_b = r.rater_b AND r.cat = w.cat_a
  GROUP BY w.metric, w.rater_a, w.rater_b, w.cat_b
),
pair_cells AS (
  -- every non-empty cell: p_ij = n_ij / N with w_ij
  SELECT c.metric, c.rater_a, c.rater_b, c.cat_a, c.cat_b,
         CAST(c.n_ab AS DOUBLE) / NULLIF(p.n_shared, 0) AS p_ij, w.w
  FROM confusion AS c
  JOIN pair_totals AS p ON c.metric = p.metric AND c.rater_a = p.rater_a AND c.rater_b = p.rater_b
  JOIN pair_weights AS w ON c.metric = w.metric AND c.rater_a = w.rater_a AND c.rater_b = w.rater_b AND w.cat_a = c.cat_a AND w.cat_b = c.cat_b
),
pair_observed AS (
  -- p_o = sum_ij w_ij p_ij; n_used = categories the pair used; q = the domain's size
  SELECT p.metric, p.rater_a, p.rater_b, p.n_shared, s.n_categories, o.p_o, u.n_used
  FROM pair_totals AS p
  JOIN pair_span AS s ON p.metric = s.metric AND p.rater_a = s.rater_a AND p.rater_b = s.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, SUM(p_ij * w) AS p_o
    FROM pair_cells
    GROUP BY metric, rater_a, rater_b
  ) AS o ON p.metric = o.metric AND p.rater_a = o.rater_a AND p.rater_b = o.rater_b
  JOIN (
    SELECT metric, rater_a, rater_b, COUNT(*) AS n_used
    FROM pair_used
    GROUP BY metric, rater_a, rater_b
  ) AS u ON p.metric = u.metric AND p.rater_a = u.rater_a AND p.rater_b = u.rater_b
),
pair_keys AS (
  -- every metric (and slice) gets a row; n_raters counts the chosen raters who rated in it
  SELECT metric, COUNT(DISTINCT rater) AS n_raters
  FROM confusion_ratings
  GROUP BY metric
),
pair_items AS (
  -- items rated by two or more of the chosen raters
  SELECT metric, COUNT(*) AS n_items
  FROM (
    SELECT metric, item FROM confusion_ratings
    GROUP BY metric, item
    HAVING COUNT(*) >= 2
  ) AS paired
  GROUP BY metric
),
pair_categories AS (
  -- categories in the pairs' domains (the declared domain when one is given)
  SELECT metric, COUNT(DISTINCT cat) AS n_categories
  FROM pair_domain
  GROUP BY metric
)
,
cohen_expected AS (
  -- p_e = sum_ij w_ij p_i. p_.j = sum_i p_i. w_i.
  SELECT r.metric, r.rater_a, r.rater_b, SUM(r.p_row * rw.w_row) AS p_e
  FROM pair_rows AS r
  JOIN pair_row_weights AS rw ON r.metric = rw.metric AND r.rater_a = rw.rater_a AND r.rater_b = rw.rater_b AND rw.cat = r.cat
  GROUP BY r.metric, r.rater_a, r.rater_b
),
cohen_pair_kappa AS (
  -- kappa = (p_o - p_e) / (1 - p_e); 1.0 when the raters used one and the same category
  SELECT o.metric, o.rater_a, o.rater_b, o.n_shared, o.p_o, e.p_e,
         CASE WHEN o.n_used = 1 THEN 1.0
              ELSE (o.p_o - e.p_e) / NULLIF(1.0 - e.p_e, 0.0) END AS kappa
  FROM pair_observed AS o
  JOIN cohen_expected AS e ON o.metric = e.metric AND o.rater_a = e.rater_a AND o.rater_b = e.rater_b
),
cohen_pair_variance AS (
  -- var = [sum_ij p_ij (w_ij - (w_i. + w_.j)(1 - kappa))^2 - (kappa - p_e (1 - kappa))^2] / ((1 - p_e)^2 N)
  SELECT c.metric, c.rater_a, c.rater_b,
         (SUM(c.p_ij * POWER(c.w - (rw.w_row + cw.w_col) * (1.0 - k.kappa), 2))
          - MIN(POWER(k.kappa - k.p_e * (1.0 - k.kappa), 2)))
         / NULLIF(MIN(POWER(1.0 - k.p_e, 2) * k.n_shared), 0.0) AS variance
  FROM pair_cells AS c
  JOIN pair_row_weights AS rw ON c.metric = rw.metric AND c.rater_a = rw.rater_a AND c.rater_b = rw.rater_b AND rw.cat = c.cat_a
  JOIN pair_col_weights AS cw ON c.metric = cw.metric AND c.rater_a = cw.rater_a AND c.rater_b = cw.rater_b AND cw.cat = c.cat_b
  JOIN cohen_pair_kappa AS k ON c.metric = k.metric AND c.rater_a = k.rater_a AND c.rater_b = k.rater_b
  GROUP BY c.metric, c.rater_a, c.rater_b
),
cohen_kappa AS (
  -- two raters: the pair's kappa with its variance; more: Light's kappa, the mean over pairs
  SELECT r.metric,
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
         CASE WHEN r.n_raters = 2 THEN MIN(v.variance) END AS variance
  FROM pair_keys AS r
  LEFT JOIN cohen_pair_kappa AS pk ON r.metric = pk.metric
  LEFT JOIN cohen_pair_variance AS v ON pk.metric = v.metric AND pk.rater_a = v.rater_a AND pk.rater_b = v.rater_b
  LEFT JOIN pair_items AS i ON r.metric = i.metric
  LEFT JOIN pair_categories AS c ON r.metric = c.metric
  GROUP BY r.metric, r.n_raters
)

SELECT c.*
FROM cohen_kappa AS c
ORDER BY c.metric
