#!/usr/bin/env bash
# The whole test suite, twice where it matters:
#  1. against the real servers: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) — every test;
#  2. in the embedded mode: SQLite and in-process jobs — the tests that touch the database.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh || exit 1

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
export VAR_DIR="${VAR_DIR:-$(pwd)/var/test}"

echo "== PostgreSQL + Redis =="
DATABASE_URL="$TEST_DATABASE_URL" REDIS_URL="$TEST_REDIS_URL" .venv/bin/python -m pytest "$@"
first=$?
echo "== embedded: SQLite + in-process jobs =="
env -u DATABASE_URL -u REDIS_URL .venv/bin/python -m pytest -m "django_db and not services" "$@"
second=$?
# pytest exits 5 when a selection holds no test; that is a failure of the suite here too.
[ "$first" = 0 ] && [ "$second" = 0 ]
