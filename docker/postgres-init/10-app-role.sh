#!/bin/sh
# Runs once, when the postgres container starts on an empty volume (docker-entrypoint-initdb.d):
# the service's own role, which may log in and nothing more; the app's start-up grants it row
# access (src/database/app-role.ts, docs/operations.md "Database roles"). On an existing volume run
# the same statement once by hand.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v app_password="$APP_DB_PASSWORD" <<'SQL'
CREATE ROLE arcade_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'app_password';
SQL
