#!/usr/bin/env bash
# The production topology on one machine, for a trial (docs/production.md):
#
#   scripts/topology.sh start [PIECE...]    # check --deploy, migrate, collectstatic, then every
#                                           # piece; or only the pieces named (running ones are left be)
#   scripts/topology.sh stop [PIECE...]     # TERM each piece's process group, KILL after 10 s
#   scripts/topology.sh status              # each piece, its pid, and /healthz through nginx
#   scripts/topology.sh config              # write (and check) nginx's configuration only
#
# Pieces: nginx (TLS on 127.0.0.1:$TOPOLOGY_PORT, static files from STATIC_ROOT, everything
# else proxied to the ASGI processes with WebSocket upgrades), asgi-1 and asgi-2
# (`python -m cargosite.serve`), worker (Celery), beat (Celery beat). `beat-2` is a second
# beat, started only when named: scripts/faults.py uses it to show a doubled schedule does
# nothing twice. PostgreSQL and Redis are services this script only uses.
#
# Each piece runs in its own session (its pid file holds the group's leader); the Python
# pieces under a loop that starts them again when they exit, as systemd's Restart=always
# would (docs/production.md, "The pieces").
#
# Environment (DEBUG is always off here):
#   DATABASE_URL, REDIS_URL      required: postgres://… and redis://…/N
#   DJANGO_SECRET_KEY            default: generated once into $TOPOLOGY_DIR/secret-key
#   DJANGO_ALLOWED_HOSTS         default 127.0.0.1 (open https://127.0.0.1:$TOPOLOGY_PORT/)
#   TOPOLOGY_DIR                 default .topology/ in the checkout: config, logs, pid files
#   TOPOLOGY_PORT                default 8443: nginx's HTTPS port (a self-signed certificate)
#   TOPOLOGY_ASGI_PORTS          default "8001 8002": the two ASGI processes' ports
#   TOPOLOGY_WORKER_CONCURRENCY  default 2
# Any other variable the settings read (README.md, "Production") passes through.
# In pg_stat_activity each piece's connections are named cargo-PIECE (application_name).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SELF=$ROOT/scripts/topology.sh
PY=$ROOT/.venv/bin/python
CELERY=$ROOT/.venv/bin/celery

DIR=${TOPOLOGY_DIR:-$ROOT/.topology}
PORT=${TOPOLOGY_PORT:-8443}
read -r -a ASGI_PORTS <<<"${TOPOLOGY_ASGI_PORTS:-8001 8002}"
[ "${#ASGI_PORTS[@]}" -eq 2 ] || { echo "TOPOLOGY_ASGI_PORTS names two ports" >&2; exit 2; }
DEFAULT_PIECES=(asgi-1 asgi-2 worker beat nginx)
ALL_PIECES=(nginx asgi-1 asgi-2 beat beat-2 worker)   # the order `stop` takes

die() { echo "!! $*" >&2; exit 1; }
say() { printf '==> %s\n' "$*"; }

environment() {
    : "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database (postgres://…)}"
    : "${REDIS_URL:?REDIS_URL must name the Redis database (redis://…/N)}"
    mkdir -p "$DIR/logs" "$DIR/pids" "$DIR/nginx" "$DIR/tls"
    if [ -z "${DJANGO_SECRET_KEY:-}" ]; then
        if [ ! -s "$DIR/secret-key" ]; then
            (umask 077; "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$DIR/secret-key")
        fi
        DJANGO_SECRET_KEY=$(cat "$DIR/secret-key")
    fi
    export DJANGO_DEBUG=0 DJANGO_SECRET_KEY DATABASE_URL REDIS_URL
    export DJANGO_ALLOWED_HOSTS=${DJANGO_ALLOWED_HOSTS:-127.0.0.1}
    # PostgreSQL: each ASGI process holds at most DJANGO_DB_POOL_MAX_SIZE (10) connections of
    # its pool plus LIVE_LOOP_CONNECTIONS (4); connections are never kept per thread
    # (DJANGO_CONN_MAX_AGE stays 0; the settings refuse more). docs/production.md,
    # "Database connections".
    # nginx is the only client of the ASGI processes: trust its X-Forwarded-* headers.
    export FORWARDED_ALLOW_IPS=${FORWARDED_ALLOW_IPS:-127.0.0.1}
    export DJANGO_SETTINGS_MODULE=cargosite.settings
}

pidfile() { echo "$DIR/pids/$1.pid"; }

alive() {  # alive PID: the process exists and is not a zombie left for init to reap
    local stat; stat=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $stat != Z* ]]
}

group_alive() {  # group_alive PGID: a process of that group is alive
    ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

running() {  # running PIECE: its process is alive
    local file; file=$(pidfile "$1")
    [ -s "$file" ] && alive "$(cat "$file")"
}

launch() {  # launch PIECE COMMAND...: in its own session (its pid is its process group)
    local piece=$1; shift
    if running "$piece"; then echo "   $piece is running (pid $(cat "$(pidfile "$piece")"))"; return; fi
    setsid "$@" >>"$DIR/logs/$piece.log" 2>&1 </dev/null &
    echo $! >"$(pidfile "$piece")"
    echo "   $piece started (pid $!, log $DIR/logs/$piece.log)"
}

wait_until() {  # wait_until SECONDS WHAT COMMAND...
    local seconds=$1 what=$2; shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || die "$what did not come up in ${seconds}s (logs in $DIR/logs)"
        sleep 0.2
    done
}

nginx_config() {
    local static; static=$("$PY" -c 'from django.conf import settings; print(settings.STATIC_ROOT)')
    if [ ! -s "$DIR/tls/cert.pem" ]; then
        openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=127.0.0.1 \
            -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
            -keyout "$DIR/tls/key.pem" -out "$DIR/tls/cert.pem" 2>/dev/null
        chmod 600 "$DIR/tls/key.pem"
    fi
    if [ ! -s "$DIR/tls/dhparam.pem" ]; then  # RFC 7919's ffdhe2048, as Mozilla's guideline asks
        openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048 \
            -out "$DIR/tls/dhparam.pem" 2>/dev/null
    fi
    local user=""
    mkdir -p "$DIR/nginx/tmp"
    if [ "$(id -u)" -eq 0 ]; then  # root's nginx runs its workers as nobody
        user="user nobody nogroup;"
        chown nobody "$DIR/nginx/tmp"
    fi
    # What the proxied locations say (a game's sockets and API doors by game, the rest
    # round-robin).
    cat >"$DIR/nginx/proxy_to_asgi.conf" <<EOF
proxy_http_version 1.1;
proxy_set_header Upgrade \$http_upgrade;
proxy_set_header Connection \$connection_upgrade;
proxy_set_header Host \$http_host;            # with its port: the Origin check compares it
proxy_set_header X-Forwarded-For \$remote_addr; # the per-address budgets use it
proxy_set_header X-Forwarded-Proto \$scheme;    # https: secure cookies, wss origins
proxy_connect_timeout 2s;
proxy_read_timeout 75s;
proxy_next_upstream error timeout;
EOF
    # Headers for what nginx answers itself (static files, its own error pages such as a
    # 502): the site's policy. A proxied response that sets a header keeps its own (each
    # map is empty then, and nginx adds no header with an empty value).
    cat >"$DIR/nginx/security_headers.conf" <<EOF
add_header Strict-Transport-Security \$nginx_hsts always;
add_header Content-Security-Policy \$nginx_csp always;
add_header X-Frame-Options \$nginx_frame_options always;
add_header X-Content-Type-Options \$nginx_nosniff always;
add_header Referrer-Policy \$nginx_referrer_policy always;
EOF
    cat >"$DIR/nginx/nginx.conf" <<EOF
# Generated by scripts/topology.sh: do not edit (it is rewritten on every start).
$user
worker_processes 1;
pid $DIR/nginx/nginx.pid;
error_log $DIR/logs/nginx-error.log warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $DIR/logs/nginx-access.log;
    client_body_temp_path $DIR/nginx/tmp/body;
    proxy_temp_path $DIR/nginx/tmp/proxy;
    fastcgi_temp_path $DIR/nginx/tmp/fastcgi;
    uwsgi_temp_path $DIR/nginx/tmp/uwsgi;
    scgi_temp_path $DIR/nginx/tmp/scgi;
    server_tokens off;
    sendfile on;

    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }

    # security_headers.conf: nginx's value only where the site sent none.
    map \$upstream_http_strict_transport_security \$nginx_hsts {
        '' "max-age=31536000; includeSubDomains; preload"; default ''; }
    map \$upstream_http_content_security_policy \$nginx_csp {
        '' "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
        default ''; }
    map \$upstream_http_x_frame_options \$nginx_frame_options { '' DENY; default ''; }
    map \$upstream_http_x_content_type_options \$nginx_nosniff { '' nosniff; default ''; }
    map \$upstream_http_referrer_policy \$nginx_referrer_policy { '' same-origin; default ''; }

    upstream cargo_asgi {
        # A process that refuses a connection is skipped for 5 s; the request goes to the next.
        server 127.0.0.1:${ASGI_PORTS[0]} max_fails=1 fail_timeout=5s;
        server 127.0.0.1:${ASGI_PORTS[1]} max_fails=1 fail_timeout=5s;
    }

    # Game sockets by game: every socket of one game reaches the same process, so its
    # turns are applied from that process's warm copy (games/fast/warm.py); if that process is
    # down, the next one takes the game. max_fails=0: a process is never marked down here.
    # A WebSocket's request ends only when it closes, so after a failure nginx tried a
    # recovered process with one socket every fail_timeout, and after a second failure
    # both processes were marked and every game socket was refused (502) although both
    # were up (issue #28, point 1). A refused connection still goes to the next process
    # (proxy_next_upstream error), so a dead process costs a socket one refused connect.
    # A game's key: its id, for its sockets and for the API's doors that play it or follow
    # it (decisions, resign, claim, chat; its stream), so that a game's decisions reach the
    # process holding its warm copy whichever door they come through (games/fast/warm.py;
    # round-robin sent a bot's decisions to either process, and a turn after one on the
    # other process took the locked path: docs/api.md, "The bot games' figures").
    map \$uri \$cargo_game {
        ~^/ws/game/(?<socket_game>[^/]+) \$socket_game;
        ~^/api/(?:bot|board)/game/(?<played_game>[^/]+)/ \$played_game;
        ~^/api/stream/game/(?<streamed_game>[^/]+) \$streamed_game;
        default \$uri;
    }
    upstream cargo_games {
        hash \$cargo_game consistent;
        server 127.0.0.1:${ASGI_PORTS[0]} max_fails=0;
        server 127.0.0.1:${ASGI_PORTS[1]} max_fails=0;
    }

    server {
        listen 127.0.0.1:$PORT ssl;
        server_name _;
        ssl_certificate $DIR/tls/cert.pem;
        ssl_certificate_key $DIR/tls/key.pem;
        # Mozilla's intermediate configuration (guideline 5.7): TLS 1.2 and 1.3 only.
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_ecdh_curve X25519:prime256v1:secp384r1;
        ssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305;
        ssl_prefer_server_ciphers off;
        ssl_dhparam $DIR/tls/dhparam.pem;
        ssl_session_timeout 1d;
        ssl_session_cache shared:MozSSL:10m;
        ssl_session_tickets off;
        client_max_body_size 64k;
        include $DIR/nginx/security_headers.conf;

        # collectstatic's output, with the .gz files WhiteNoise's storage wrote beside them.
        location /static/ {
            alias $static/;
            gzip_static on;
            expires 1d;
            include $DIR/nginx/security_headers.conf;  # add_header here drops the server's
        }

        location /ws/game/ {
            proxy_pass http://cargo_games;
            include $DIR/nginx/proxy_to_asgi.conf;
        }

        location ~ ^/api/(?:(?:bot|board)/game|stream/game)/ {
            proxy_pass http://cargo_games;
            include $DIR/nginx/proxy_to_asgi.conf;
        }

        location / {
            proxy_pass http://cargo_asgi;
            include $DIR/nginx/proxy_to_asgi.conf;
        }
    }
}
EOF
    /usr/sbin/nginx -t -q -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -g 'daemon off;' \
        || die "nginx refused the generated $DIR/nginx/nginx.conf"
}

healthy() { curl -fsS --max-time 3 "$1/healthz" >/dev/null; }
log_size() { stat -c %s "$DIR/logs/$1.log" 2>/dev/null || echo 0; }
logged_since() {  # logged_since PIECE OFFSET TEXT: TEXT is in PIECE's log after OFFSET bytes
    tail -c +"$(($2 + 1))" "$DIR/logs/$1.log" 2>/dev/null | grep -qF -- "$3"
}

supervise() {  # supervise PIECE COMMAND...: start COMMAND again whenever it exits
    local piece=$1; shift
    while :; do
        "$@" && rc=0 || rc=$?
        echo "[topology] $piece exited with status $rc; starting it again in 1 s"
        sleep 1
    done
}

start_piece() {
    # Each piece's PostgreSQL connections carry its name (pg_stat_activity.application_name).
    export PGAPPNAME=cargo-$1
    case $1 in
        asgi-1|asgi-2)
            local port=${ASGI_PORTS[${1#asgi-} - 1]}
            launch "$1" "$SELF" supervise "$1" "$PY" -m cargosite.serve --host 127.0.0.1 --port "$port"
            wait_until 60 "$1" healthy "http://127.0.0.1:$port" ;;
        worker)
            local from; from=$(log_size worker)
            launch worker "$SELF" supervise worker "$CELERY" -A cargosite worker -l info \
                -n "worker@%h" --concurrency "${TOPOLOGY_WORKER_CONCURRENCY:-2}"
            wait_until 60 "the Celery worker" logged_since worker "$from" " ready." ;;
        beat|beat-2)
            local from; from=$(log_size "$1")
            launch "$1" "$SELF" supervise "$1" "$CELERY" -A cargosite beat -l info \
                --schedule "$DIR/$1-schedule"
            wait_until 60 "$1" logged_since "$1" "$from" "beat: Starting..." ;;
        nginx)
            nginx_config
            launch nginx /usr/sbin/nginx -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -g 'daemon off;'
            wait_until 30 nginx curl -fsSk --max-time 3 "https://127.0.0.1:$PORT/healthz" ;;
        *) die "no piece named $1 (pieces: ${ALL_PIECES[*]})" ;;
    esac
}

stop_piece() {
    local file pid; file=$(pidfile "$1")
    [ -s "$file" ] || return 0
    pid=$(cat "$file")
    if alive "$pid"; then
        kill -TERM -- "-$pid" 2>/dev/null || true
        for _ in $(seq 50); do group_alive "$pid" || break; sleep 0.2; done
        if group_alive "$pid"; then
            echo "   $1 did not stop in 10 s: KILL"
            kill -KILL -- "-$pid" 2>/dev/null || true
        fi
        echo "   $1 stopped (pid $pid)"
    elif group_alive "$pid"; then  # the leader died (kill -9), its children did not
        kill -KILL -- "-$pid" 2>/dev/null || true
        echo "   $1's leftover processes killed (group $pid)"
    fi
    rm -f "$file"
}

cmd=${1:-}; shift || true
case $cmd in
    supervise)  # internal: how `start` runs the Python pieces
        supervise "$@" ;;
    start)
        environment
        pieces=("$@")
        if [ "${#pieces[@]}" -eq 0 ]; then  # the whole site: check, migrate, collect first
            pieces=("${DEFAULT_PIECES[@]}")
            say "Checking the deployment settings (DEBUG off)"
            "$PY" manage.py check --deploy --fail-level WARNING
            say "Migrating $(printf %s "$DATABASE_URL" | sed 's#//[^@]*@#//…@#')"
            "$PY" manage.py migrate --noinput -v 0
            say "Collecting static files"
            "$PY" manage.py collectstatic --noinput -v 0
        fi
        say "Starting ${pieces[*]}"
        for piece in "${pieces[@]}"; do start_piece "$piece"; done
        say "Serving https://127.0.0.1:$PORT/ (self-signed certificate); stop with: $0 stop"
        ;;
    stop)
        pieces=("$@"); [ "${#pieces[@]}" -gt 0 ] || pieces=("${ALL_PIECES[@]}")
        for piece in "${pieces[@]}"; do stop_piece "$piece"; done
        ;;
    config)  # write nginx's configuration only (and check it), for a look or a test
        environment
        nginx_config
        echo "$DIR/nginx/nginx.conf"
        ;;
    status)
        for piece in "${ALL_PIECES[@]}"; do
            if running "$piece"; then echo "$piece: running (pid $(cat "$(pidfile "$piece")"))"
            elif [ -e "$(pidfile "$piece")" ]; then echo "$piece: dead (pid file left: $(pidfile "$piece"))"
            else echo "$piece: stopped"; fi
        done
        echo "healthz: $(curl -sSk --max-time 5 "https://127.0.0.1:$PORT/healthz" 2>&1 || true)"
        ;;
    *)
        echo "usage: $0 start|stop [PIECE...] | status   (pieces: ${ALL_PIECES[*]})" >&2
        exit 2 ;;
esac
