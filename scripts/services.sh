#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on 127.0.0.1, starting them when installed but down.
set -uo pipefail

pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
redis_up() { [ "$(printf 'PING\r\n' | timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/6379; cat >&3; head -c 5 <&3' 2>/dev/null)" = "+PONG" ]; }

if ! pg_up; then
    if command -v pg_ctlcluster >/dev/null 2>&1; then
        version=$(ls /etc/postgresql | sort -V | tail -n 1)
        echo "starting PostgreSQL $version"
        pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    fi
fi
if ! redis_up; then
    if command -v redis-server >/dev/null 2>&1; then
        echo "starting Redis"
        mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
        redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
            --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
    fi
fi
for _ in $(seq 1 30); do
    pg_up && redis_up && exit 0
    sleep 1
done
pg_up || echo "PostgreSQL is not answering on 127.0.0.1:5432 (install postgresql or set DATABASE_URL)" >&2
redis_up || echo "Redis is not answering on 127.0.0.1:6379 (install redis-server or set REDIS_URL)" >&2
exit 1
