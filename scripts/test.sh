#!/usr/bin/env bash
# The whole test suite, twice where it matters:
#  1. against the real servers: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) — every test;
#  2. in the embedded mode: SQLite and in-process jobs — the tests that touch the database.
# The passes run side by side, and without arguments the first runs as two halves side by side too
# (the slow crawling, browser and fault tests in one, the rest in the other). They share nothing:
# each has its own test database, Redis database, VAR_DIR and free loopback ports; and most of their
# time is spent waiting on sockets and politeness clocks, so three at once on two cores take little
# longer than the longest alone.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh || exit 1

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
# The second half's databases (the test database is "test_" + the name: created and dropped by the run).
TEST_DATABASE_URL_2="${TEST_DATABASE_URL_2:-${TEST_DATABASE_URL}_second_half}"
TEST_REDIS_URL_2="${TEST_REDIS_URL_2:-redis://127.0.0.1:6379/14}"
export VAR_DIR="${VAR_DIR:-$(pwd)/var/test}"
# Each pass ends with its 15 slowest tests, so a run that grows slower says where.
export PYTEST_ADDOPTS="${PYTEST_ADDOPTS:-} --durations=15"
# The first half: these directories; the second half: every other test.
FIRST_HALF=(tests/browser tests/integration tests/faults tests/hardening tests/dashboard_live tests/crawl_setup)

logs="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$logs"' EXIT

VAR_DIR="$VAR_DIR/embedded" env -u DATABASE_URL -u REDIS_URL \
    .venv/bin/python -m pytest -m "django_db and not services" "$@" > "$logs/embedded" 2>&1 &
pids+=($!)

if [ "$#" -eq 0 ]; then
    ignores=()
    for dir in "${FIRST_HALF[@]}"; do ignores+=(--ignore="$dir"); done
    VAR_DIR="$VAR_DIR/second-half" DATABASE_URL="$TEST_DATABASE_URL_2" REDIS_URL="$TEST_REDIS_URL_2" \
        .venv/bin/python -m pytest "${ignores[@]}" > "$logs/second" 2>&1 &
    pids+=($!)
    echo "== PostgreSQL + Redis, first half: ${FIRST_HALF[*]} (the second half and the embedded pass run beside it; their output follows) =="
    DATABASE_URL="$TEST_DATABASE_URL" REDIS_URL="$TEST_REDIS_URL" .venv/bin/python -m pytest "${FIRST_HALF[@]}"
    first=$?
    wait "${pids[1]}"
    second=$?
    echo "== PostgreSQL + Redis, second half: every other test =="
    cat "$logs/second"
else
    echo "== PostgreSQL + Redis (the embedded pass runs beside it; its output follows) =="
    DATABASE_URL="$TEST_DATABASE_URL" REDIS_URL="$TEST_REDIS_URL" .venv/bin/python -m pytest "$@"
    first=$?
    second=0
fi
wait "${pids[0]}"
embedded=$?
echo "== embedded: SQLite + in-process jobs =="
cat "$logs/embedded"
# pytest exits 5 when a selection holds no test; that is a failure of the suite here too.
[ "$first" = 0 ] && [ "$second" = 0 ] && [ "$embedded" = 0 ]
