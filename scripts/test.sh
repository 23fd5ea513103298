#!/usr/bin/env bash
# The whole test suite, twice where it matters, both passes side by side:
#  1. against the real servers: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) — every test;
#  2. in the embedded mode: SQLite and in-process jobs — the tests that touch the database.
# The passes share nothing (their own database, VAR_DIR and job queues; loopback ports are
# picked free), and most of either's time is spent waiting on sockets and politeness clocks, so
# running them at once on two cores takes little longer than the longer one alone.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh || exit 1

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
export VAR_DIR="${VAR_DIR:-$(pwd)/var/test}"

embedded_log="$(mktemp)"
embedded_pid=""
trap 'kill "$embedded_pid" 2>/dev/null; rm -f "$embedded_log"' EXIT
VAR_DIR="$VAR_DIR/embedded" env -u DATABASE_URL -u REDIS_URL \
    .venv/bin/python -m pytest -m "django_db and not services" "$@" > "$embedded_log" 2>&1 &
embedded_pid=$!

echo "== PostgreSQL + Redis (the embedded pass runs beside it; its output follows) =="
DATABASE_URL="$TEST_DATABASE_URL" REDIS_URL="$TEST_REDIS_URL" .venv/bin/python -m pytest "$@"
first=$?
wait "$embedded_pid"
second=$?
echo "== embedded: SQLite + in-process jobs =="
cat "$embedded_log"
# pytest exits 5 when a selection holds no test; that is a failure of the suite here too.
[ "$first" = 0 ] && [ "$second" = 0 ]
