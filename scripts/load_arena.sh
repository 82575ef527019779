#!/usr/bin/env bash
# The arena load (issue #46; docs/tournaments-arena.md, "Load") in the production setup of
# scripts/load_run.sh: a fresh PostgreSQL database, DEBUG off, two ASGI processes
# (`python -m cargosite.serve`) sharing Redis, plus what an arena needs besides: a Celery
# worker and a Celery beat (as scripts/topology.sh starts them: with REDIS_URL tasks are not
# run in-process, and the arena's passes are Celery tasks); then scripts/load_arena.py
# against the ASGI processes. Usage: scripts/load_arena.sh PLAYERS [DURATION]
# Environment: THINK (default 1.0), TIME_CONTROL (3+2), SIZE (the bay, 6), PROCS (ASGI
# processes, 2), WORKER_CONCURRENCY (the worker's children, 2, as topology.sh), LOAD_DB
# (cargo_arena_load), LOAD_REDIS_DB (6), PORT (the first ASGI process's, 8301), RAMP (10),
# DRAIN (300), LOAD_DATABASE_URL; LIVE_FAST_PATH and the DJANGO_DB_POOL_* settings pass
# through. Every process it starts is stopped when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-200}; duration=${2:-600}
db=${LOAD_DB:-cargo_arena_load}; redis_db=${LOAD_REDIS_DB:-6}
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
redis-cli -h 127.0.0.1 -n "$redis_db" flushdb >/dev/null
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY=load-test-secret-key-0123456789-0123456789-0123456789 \
       DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost DJANGO_SECURE_SSL_REDIRECT=0 \
       DJANGO_SECURE_COOKIES=0 DJANGO_BEHIND_PROXY=0 \
       DATABASE_URL=${LOAD_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db} \
       REDIS_URL=redis://127.0.0.1:6379/$redis_db DJANGO_LOG_LEVEL=WARNING
# One address stands for every player: lift the per-address budget (games/sockets/limits.py).
export LIVE_ADDRESS_UNITS_PER_SECOND=1000000 METRICS_ENABLED=1
export LIVE_FAST_PATH=${LIVE_FAST_PATH:-1}
.venv/bin/python manage.py migrate -v0 2>/dev/null
logs=$(mktemp -d /tmp/load_arena.XXXXXX)
procs=${PROCS:-2}; port0=${PORT:-8301}
ports=$(seq "$port0" $((port0 + procs - 1)))
pids=(); asgi=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for port in $ports; do
  UVICORN_LOG_LEVEL=warning .venv/bin/python -m cargosite.serve --host 127.0.0.1 \
      --port "$port" & pids+=($!); asgi+=($!)
done
.venv/bin/celery -A cargosite worker -l info -n "arena-load-$port0@%h" \
    --concurrency "${WORKER_CONCURRENCY:-2}" >"$logs/worker.log" 2>&1 & pids+=($!); worker=$!
.venv/bin/celery -A cargosite beat -l info --schedule "$logs/beat-schedule" \
    >"$logs/beat.log" 2>&1 & pids+=($!); beat=$!
for port in $ports; do
  for _ in $(seq 60); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
done
for _ in $(seq 120); do grep -q " ready\." "$logs/worker.log" && break; sleep 0.5; done
grep -q " ready\." "$logs/worker.log" || { echo "the Celery worker did not start: $logs/worker.log"; exit 1; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
echo "arena: $players players, $duration s, think ${THINK:-1.0} s, ${TIME_CONTROL:-3+2}," \
     "bay ${SIZE:-6}; $procs ASGI processes, a worker of ${WORKER_CONCURRENCY:-2} and beat" \
     "(logs in $logs)"
steal() { awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
steal_before=$(steal)
status=0
.venv/bin/python scripts/load_arena.py $(printf -- '--url http://127.0.0.1:%s ' $ports) \
    --players "$players" --duration "$duration" --think "${THINK:-1.0}" \
    --time-control "${TIME_CONTROL:-3+2}" --size "${SIZE:-6}" --ramp "${RAMP:-10}" \
    --drain "${DRAIN:-300}" $(printf -- '--server-pid %s ' "${asgi[@]}") \
    --worker-pid "$worker" --worker-pid "$beat" || status=$?
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r s0 t0 <<<"$steal_before"; read -r s1 t1 <<<"$(steal)"
awk -v s="$((s1 - s0))" -v t="$((t1 - t0))" \
    'BEGIN { printf "steal time during the run: %.1f%% of the machine'"'"'s CPU time\n", t ? 100 * s / t : 0 }'
grep -E "ERROR|Traceback" "$logs/worker.log" | head -5 || true
exit "$status"
