-- agreement-sql: domain_checks (duckdb)
-- reads relation: "ratings"
-- reads relation: "value_domain"
-- parameter: $default_metric = 'value'
-- parameter: $max_examples = 5
-- domain_checks: ratings outside a declared value domain, with the rows that hold them.
-- Source: agreement-sql input validation (nothing is dropped silently); the domain is the
--   relation agreement_sql.domain registers from domain=[...] (value_text, rank, x).
-- Reads: the ratings relation and the declared domain: numbers match by value
--   (domain_numeric), text labels by their exact text.
-- Returns: up to $max_examples rows (metric, slices, item, rater, value_text, n_outside), the
--   same input always naming the same rows; no row = every rating is declared.
-- run by hand: PREPARE agreement AS <the statement below>; EXECUTE agreement(default_metric := 'value', max_examples := 5);
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
outside AS (
  SELECT r.metric, r.item, r.rater, r.value_text
  FROM ratings AS r
  LEFT JOIN "value_domain" AS d
    ON r.value_text = d.value_text
  WHERE d.rank IS NULL
)
SELECT o.*, COUNT(*) OVER () AS n_outside
FROM outside AS o
ORDER BY o.metric, o.item, o.rater, o.value_text
LIMIT $max_examples
