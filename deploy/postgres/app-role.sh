#!/bin/sh
# Run once by the postgres image, on its first start with an empty data volume
# (/docker-entrypoint-initdb.d, from docker-compose.yml): the app's role and its database.
# The role owns the database and has none of a superuser's rights, so a flaw in the app
# cannot read the server's files, run programs on it or reach other roles' data. The
# superuser (postgres) is for maintenance only.
set -e
: "${APP_DB_USER:?}" "${APP_DB_NAME:?}" "${APP_DB_PASSWORD:?}"
# The password is read from the environment inside psql (\getenv), not given on its
# command line, where any process of the host could read it.
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  --set=app_role="$APP_DB_USER" --set=app_database="$APP_DB_NAME" <<'SQL'
\getenv app_password APP_DB_PASSWORD
CREATE ROLE :"app_role" LOGIN PASSWORD :'app_password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
CREATE DATABASE :"app_database" OWNER :"app_role";
SQL
