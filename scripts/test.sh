#!/usr/bin/env bash
# The whole test suite, twice where it matters:
#  1. against the real servers: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) — every test;
#  2. in the embedded mode: SQLite and in-process jobs — the tests that touch the database.
# Without arguments each pass runs as shards side by side: the PostgreSQL pass as four, the
# embedded pass as two (the SHARDS below). Shards share nothing: each has its own test database,
# Redis database, VAR_DIR and free loopback ports. Most of their time is spent waiting on sockets
# and politeness clocks, so six at once on two cores take little longer than the longest alone.
# With arguments (-k leasing, a path) each pass runs whole, once. Without, the docs site is built
# first (mkdocs build --strict) and the floors are checked (lint-imports).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/services.sh || exit 1

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
export VAR_DIR="${VAR_DIR:-$(pwd)/var/test}"
# Each shard ends with its 15 slowest tests, so a run that grows slower says where.
export PYTEST_ADDOPTS="${PYTEST_ADDOPTS:-} --durations=15"
EMBEDDED_MARKS="django_db and not services"
case "${TEST_REDIS_URL##*/}" in
    [3-9] | 1[0-5]) ;;
    *) echo "TEST_REDIS_URL=$TEST_REDIS_URL must end in a Redis database number from 3 to 15:" \
            "the shards use it and the three below it" >&2
       exit 2 ;;
esac

# A shard: a name, then its test directories; "rest" runs every test no other shard of its pass names.
# Balanced by the time each directory took (10-12 minutes each on the 2-core machine, six side by side;
# tests/faults, ~150 s of them, went to the rest when integration-faults was the longest at 13 minutes).
PG_SHARDS=(
    "browser-setup: tests/browser tests/crawl_setup tests/dashboard_live"
    "integration-hardening: tests/integration tests/hardening"
    "discovery-evaluation: tests/discovery_integration tests/evaluation_integration"
    "rest: rest"
)
EMBEDDED_SHARDS=(
    "browser-integration: tests/browser tests/integration tests/crawl_setup tests/dashboard_live tests/hardening"
    "rest: rest"
)

logs="$(mktemp -d)"
pids=()
names=()
outputs=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$logs"' EXIT

# The pytest arguments of shard $1 of the pass whose shards are the rest of the arguments.
shard_args() {
    local wanted="$1" shard name dirs dir
    shift
    for shard in "$@"; do
        name="${shard%%:*}"
        dirs="${shard#*: }"
        if [ "$name" = "$wanted" ] && [ "$dirs" != "rest" ]; then
            echo "$dirs"
            return
        fi
    done
    for shard in "$@"; do  # the rest: every directory the others name is left out
        dirs="${shard#*: }"
        [ "$dirs" = "rest" ] && continue
        for dir in $dirs; do echo -n "--ignore=$dir "; done
    done
}

# start NAME LOG ENV... -- PYTEST-ARGS...: one pytest process in the background (ENV: env's
# arguments, its -u options first).
start() {
    local name="$1" log="$2"
    shift 2
    local environment=()
    while [ "$1" != "--" ]; do environment+=("$1"); shift; done
    shift
    if [ "${#pids[@]}" -eq 0 ]; then  # the first prints as it goes too, so a run is never silent
        (env "${environment[@]}" .venv/bin/python -m pytest "$@" 2>&1 | tee "$log"; exit "${PIPESTATUS[0]}") &
    else
        env "${environment[@]}" .venv/bin/python -m pytest "$@" > "$log" 2>&1 &
    fi
    pids+=($!)
    names+=("$name")
    outputs+=("$log")
}

# The docs site and the floors first (the whole run only): a broken link or anchor fails the build
# (mkdocs.yml says strict); a module importing a floor above its own, or a pure library importing
# Django, fails lint-imports (the contracts in pyproject.toml). Both write under VAR_DIR only, so a
# run leaves the working tree as it found it.
if [ "$#" -eq 0 ]; then
    echo "== docs: mkdocs build --strict =="
    NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$VAR_DIR/site" || exit 1
    echo "== floors: lint-imports =="
    .venv/bin/lint-imports --no-logo --cache-dir "$VAR_DIR/import-linter-cache" || exit 1
fi

echo "== pytest processes side by side: the first prints as it goes, each other's output follows when it ends =="
if [ "$#" -eq 0 ]; then
    index=0
    for shard in "${PG_SHARDS[@]}"; do
        name="${shard%%:*}"
        # The first shard keeps the URLs as given; the others get a database and a Redis database
        # of their own: <database>_<shard> (created and dropped by the run as test_<database>_<shard>),
        # and the Redis databases below 15.
        database_url="$TEST_DATABASE_URL"
        redis_url="$TEST_REDIS_URL"
        if [ "$index" -gt 0 ]; then
            database_url="${TEST_DATABASE_URL}_${name//-/_}"
            redis_url="${TEST_REDIS_URL%/*}/$(( ${TEST_REDIS_URL##*/} - index ))"
        fi
        # shellcheck disable=SC2046  # the shard's arguments are words
        start "PostgreSQL + Redis, $name" "$logs/pg-$index" VAR_DIR="$VAR_DIR/$name" \
            DATABASE_URL="$database_url" REDIS_URL="$redis_url" -- $(shard_args "$name" "${PG_SHARDS[@]}")
        index=$((index + 1))
    done
    index=0
    for shard in "${EMBEDDED_SHARDS[@]}"; do
        name="${shard%%:*}"
        # shellcheck disable=SC2046
        start "embedded (SQLite + in-process jobs), $name" "$logs/embedded-$index" \
            -u DATABASE_URL -u REDIS_URL VAR_DIR="$VAR_DIR/embedded-$name" -- \
            -m "$EMBEDDED_MARKS" $(shard_args "$name" "${EMBEDDED_SHARDS[@]}")
        index=$((index + 1))
    done
else
    start "PostgreSQL + Redis" "$logs/pg" DATABASE_URL="$TEST_DATABASE_URL" REDIS_URL="$TEST_REDIS_URL" -- "$@"
    start "embedded (SQLite + in-process jobs)" "$logs/embedded" -u DATABASE_URL -u REDIS_URL \
        VAR_DIR="$VAR_DIR/embedded" -- -m "$EMBEDDED_MARKS" "$@"
fi

failed=0
statuses=()
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    status=$?
    echo "== ${names[$i]}: exit $status =="
    [ "$i" -eq 0 ] || cat "${outputs[$i]}"
    # pytest exits 5 when a selection holds no test; that is a failure of the suite here too.
    [ "$status" = 0 ] || failed=1
    statuses+=("$status")
done
echo "== summary =="
for i in "${!pids[@]}"; do
    # pytest's last line counts the shard's tests; its FAILED lines name what failed
    echo "${names[$i]} (exit ${statuses[$i]}): $(grep -E '([0-9]+ (passed|failed|errors?|skipped|deselected)|no tests ran).* in [0-9.]+s' "${outputs[$i]}" | tail -n 1)"
    grep -E '^(FAILED|ERROR) ' "${outputs[$i]}"
done
exit "$failed"
