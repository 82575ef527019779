#!/usr/bin/env bash
# The bot load on the production setup (docs/api.md, "The bot games' figures"): a fresh
# PostgreSQL database, the whole trial topology (scripts/topology.sh start: DEBUG off, check
# --deploy, nginx with TLS in front of the two ASGI processes `python -m cargosite.serve`,
# the Celery worker and beat), scripts/load_bots.py through nginx, then the topology stopped.
# Usage: scripts/load_bots.sh GAMES [DURATION]
# Environment: LOAD_DB (default cargo_bots), LOAD_REDIS_DB (default 3), TOPOLOGY_PORT
# (nginx's HTTPS port, default 8443), TOPOLOGY_ASGI_PORTS (default "8001 8002"), TOPOLOGY_DIR
# (default a new /tmp/load_bots.* directory), THINK (default 1.0), RAMP (seconds to start
# every game, default 10), GAME (load_bots.py's --game; Cargo Connect by default).
# Run it from the tree to measure (a checkout of another commit measures that commit).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}; duration=${2:-60}
db=${LOAD_DB:-cargo_bots}; redis_db=${LOAD_REDIS_DB:-3}; port=${TOPOLOGY_PORT:-8443}
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
redis-cli -h 127.0.0.1 -n "$redis_db" flushdb >/dev/null
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY=load-test-secret-key-0123456789-0123456789-0123456789 \
       DJANGO_ALLOWED_HOSTS=127.0.0.1 DJANGO_LOG_LEVEL=WARNING UVICORN_LOG_LEVEL=warning \
       DATABASE_URL=postgres://postgres@127.0.0.1:5432/$db \
       REDIS_URL=redis://127.0.0.1:6379/$redis_db
# Every bot is one address here (nginx's X-Forwarded-For is 127.0.0.1): lift the API's
# per-address and per-token limits (api/limits.py), which would cap the load, not the site.
export API_LIMIT_PER_ADDRESS=1000000 API_LIMIT_PER_TOKEN=1000000
# /metrics on (games/frames/metrics.py): the summary counts the turns by the path that stored
# them, read from each ASGI process directly.
export METRICS_ENABLED=1
export TOPOLOGY_DIR=${TOPOLOGY_DIR:-$(mktemp -d /tmp/load_bots.XXXXXX)}
export TOPOLOGY_PORT=$port
mkdir -p "$TOPOLOGY_DIR"
trap 'scripts/topology.sh stop >/dev/null' EXIT
scripts/topology.sh start >"$TOPOLOGY_DIR/start.log" 2>&1 \
    || { cat "$TOPOLOGY_DIR/start.log"; exit 1; }
echo "topology: nginx https://127.0.0.1:$port, ASGI ports ${TOPOLOGY_ASGI_PORTS:-8001 8002}, logs $TOPOLOGY_DIR/logs"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
# The pid files hold each ASGI piece's supervising shell; load_bots.py counts it and the
# server below it.
.venv/bin/python scripts/load_bots.py --url "https://127.0.0.1:$port" --games "$games" \
    --think "${THINK:-1.0}" --duration "$duration" --ramp "${RAMP:-10}" ${GAME:+--game "$GAME"} \
    --server-pid "$(cat "$TOPOLOGY_DIR/pids/asgi-1.pid")" \
    --server-pid "$(cat "$TOPOLOGY_DIR/pids/asgi-2.pid")" \
    $(printf -- '--metrics-url http://127.0.0.1:%s ' ${TOPOLOGY_ASGI_PORTS:-8001 8002}) \
    && rc=0 || rc=$?
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$rc"
