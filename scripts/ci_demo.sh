#!/usr/bin/env bash
# The README's first command as CI runs it: `make demo` on this checkout (install without test
# tools, migrate, the demo on a free port), then scripts/check_demo.py logs in as the demo admin
# and waits for bilingual sites, kept and removed pairs and a ready evaluation. The demo is stopped
# whatever happens; its log is printed when the check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password="ci-demo-$(python3 -c 'import secrets; print(secrets.token_hex(8))')"
export VAR_DIR="$PWD/var/ci-demo"
rm -rf "$VAR_DIR"
mkdir -p "$VAR_DIR"
log="$VAR_DIR/demo.log"

echo "== demo: make demo on port $port (log: $log) =="
# A session of its own, so that stopping it stops make, the demo and its server together.
DEMO_ADMIN_PASSWORD="$password" setsid make demo PORT="$port" DEMO_ARGS="--size ${CI_DEMO_SIZE:-16}" >"$log" 2>&1 &
demo_pid=$!
stop_demo() { kill -TERM -- "-$demo_pid" 2>/dev/null || true; wait "$demo_pid" 2>/dev/null || true; }
trap stop_demo EXIT

if ! python3 scripts/check_demo.py --url "http://127.0.0.1:$port" --password "$password" \
        --timeout "${CI_DEMO_TIMEOUT:-600}" --demo-pid "$demo_pid"; then
    echo "---- demo log (last 60 lines) ----"
    tail -n 60 "$log"
    exit 1
fi
