-- agreement-sql: drop_relation (duckdb)
-- drop_relation: removes a view or temporary table that agreement-sql created under a
--   generated name. Never used on a caller's relation.
DROP VIEW IF EXISTS "ratings"
