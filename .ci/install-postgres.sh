#!/usr/bin/env bash
# PostgreSQL for the warehouse-SQL tests (tests/engines/test_postgres.py): Debian's server
# package, a cluster of the tests' own in $AGREEMENT_SQL_PGDATA (default /tmp/agreement-sql-pg)
# started on localhost:$AGREEMENT_SQL_PGPORT (default 55432, apart from any system cluster), and a
# database and user "agreement" (password "agreement"). Idempotent: a running cluster is kept.
# The tests connect with $AGREEMENT_SQL_PG_DSN, default
#   host=localhost port=55432 dbname=agreement user=agreement password=agreement
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
data=${AGREEMENT_SQL_PGDATA:-/tmp/agreement-sql-pg}
port=${AGREEMENT_SQL_PGPORT:-55432}

if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends postgresql >/dev/null
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
owner=postgres
if [ "$(id -u)" -ne 0 ]; then owner=$(id -un); fi
as_owner() {
  if [ "$(id -un)" = "$owner" ]; then "$@"; else $sudo runuser -u "$owner" -- "$@"; fi
}

if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  if [ ! -f "$data/PG_VERSION" ]; then
    $sudo mkdir -p "$data"
    $sudo chown "$owner" "$data"
    as_owner "$bin/initdb" -D "$data" -A trust -U "$owner" --no-sync >/dev/null
  fi
  as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
    -o "-p $port -k /tmp -c listen_addresses=localhost -c fsync=off" start >/dev/null
fi
psql_() { as_owner "$bin/psql" -h localhost -p "$port" -U "$owner" -d postgres -v ON_ERROR_STOP=1 -qtAc "$1"; }
if [ "$(psql_ "SELECT 1 FROM pg_roles WHERE rolname = 'agreement'")" != "1" ]; then
  psql_ "CREATE ROLE agreement LOGIN PASSWORD 'agreement'"
fi
if [ "$(psql_ "SELECT 1 FROM pg_database WHERE datname = 'agreement'")" != "1" ]; then
  psql_ "CREATE DATABASE agreement OWNER agreement"
fi
echo "postgres: $("$bin/postgres" --version) on localhost:$port, database agreement"
