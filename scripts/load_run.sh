#!/usr/bin/env bash
# One live-load run in docs/live-play.md's setup: a fresh PostgreSQL database, DEBUG off,
# two ASGI processes sharing Redis (the production server, `python -m cargosite.serve`, with
# its options), scripts/load_live.py against both, then the servers' CPU seconds (from /proc)
# per turn. Usage: scripts/load_run.sh GAMES [DURATION]
# Environment: GAME (cargo-connect, the default, or cargo-express: GAMES tables of SEATS,
# default 4, scripted people; a "turn" is then one decision: a pick, a plan, a step, a swap),
# PROCS (ASGI processes, default 2), ROUTE (game | socket, see load_live.py),
# LOAD_DB (the database's name, default cargo_load), LOAD_REDIS_DB (default 2), PORT (the first
# ASGI process's port, default 8001: several helpers on one machine keep apart), THINK (seconds
# a scripted player thinks before each decision, default 1.0),
# LOAD_DATABASE_URL (the database cargo_load another way, e.g.
# "postgres://postgres@/cargo_load?host=/var/run/postgresql" for its Unix socket),
# LIVE_FAST_PATH (default 1; LIVE_FAST_PATH=0 serves with the live fast path off, games/fast/,
# docs/fast-path.md), and the finer LIVE_LOOP_CONNECTIONS / LIVE_WARM_GAMES, passed through.
# DJANGO_CONN_MAX_AGE and the DJANGO_DB_POOL_* settings pass through (a tree before the pool,
# issue #42, was measured with DJANGO_CONN_MAX_AGE=60; since, the pool is the default).
# Run it from the tree to measure (a checkout of another commit measures that commit).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}; duration=${2:-60}
db=${LOAD_DB:-cargo_load}; redis_db=${LOAD_REDIS_DB:-2}; game=${GAME:-cargo-connect}
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
redis-cli -h 127.0.0.1 -n "$redis_db" flushdb >/dev/null
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY=load-test-secret-key-0123456789-0123456789-0123456789 \
       DJANGO_ALLOWED_HOSTS=127.0.0.1,localhost DJANGO_SECURE_SSL_REDIRECT=0 \
       DJANGO_SECURE_COOKIES=0 DJANGO_BEHIND_PROXY=0 \
       DATABASE_URL=${LOAD_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$db} \
       REDIS_URL=redis://127.0.0.1:6379/$redis_db DJANGO_LOG_LEVEL=WARNING
# The load client is one address standing for every player: lift the per-address budget
# (games/sockets/limits.py), which would otherwise cap all 400 sockets together at 60 frames/s.
export LIVE_ADDRESS_UNITS_PER_SECOND=1000000
# /metrics on (games/frames/metrics.py): the summary counts the turns by the path that stored them.
export METRICS_ENABLED=1
# The live fast path (cargosite/settings.py): on unless the caller says LIVE_FAST_PATH=0.
export LIVE_FAST_PATH=${LIVE_FAST_PATH:-1}
.venv/bin/python manage.py migrate -v0 2>/dev/null
procs=${PROCS:-2}
port0=${PORT:-8001}
ports=$(seq "$port0" $((port0 + procs - 1)))
pids=()
for port in $ports; do
  UVICORN_LOG_LEVEL=warning .venv/bin/python -m cargosite.serve --host 127.0.0.1 \
      --port "$port" & pids+=($!)
done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for port in $ports; do
  for _ in $(seq 60); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.5; done
done
cpu() { local t=0; for p in "${pids[@]}"; do
  t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo "$t"; }
out=$(mktemp /tmp/load_run.XXXXXX.out)
before=$(cpu)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
seats_note=""; [ "$game" = cargo-express ] && seats_note=", ${SEATS:-4} seats a table"
echo "live fast path: LIVE_FAST_PATH=$LIVE_FAST_PATH; game: $game$seats_note"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
steal() { awk '/^cpu /{print $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
steal_before=$(steal)
.venv/bin/python scripts/load_live.py $(printf -- '--url http://127.0.0.1:%s ' $ports) \
    --games "$games" --think "${THINK:-1.0}" --duration "$duration" --ramp 8 ${ROUTE:+--route "$ROUTE"} \
    --game "$game" --seats "${SEATS:-4}" \
    $(printf -- '--server-pid %s ' "${pids[@]}") | tee "$out"
after=$(cpu)
ticks=$(getconf CLK_TCK)
python3 - "$before" "$after" "$ticks" "$out" <<'PY'
import json, sys
text = open(sys.argv[4]).read()
summary = json.loads(text[text.index("{"):])
before, after, ticks = map(int, sys.argv[1:4])
cpu = (after - before) / ticks
# CPU covers the whole run (ramp, window, drain); turns only the measured window, so this
# overstates the per-turn cost a little.
print(f"server CPU (the uvicorn processes, whole run): {cpu:.1f} s; {summary['turns']} turns in the "
      f"window: {1000 * cpu / summary['turns']:.2f} ms per turn (upper bound)")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r s0 t0 <<<"$steal_before"; read -r s1 t1 <<<"$(steal)"
awk -v s="$((s1 - s0))" -v t="$((t1 - t0))" \
    'BEGIN { printf "steal time during the run: %.1f%% of the machine'"'"'s CPU time\n", t ? 100 * s / t : 0 }'
