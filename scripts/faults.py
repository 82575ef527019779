"""Fault trials against the production topology (scripts/topology.sh), with figures.

    .venv/bin/python scripts/faults.py [--json FILE]

It starts its OWN Redis (redis-server on a free port, no persistence) and its OWN
PostgreSQL cluster (initdb under a temporary directory, trust auth, a free port), so that
restarting them touches nobody else's; then the topology (nginx in front of two ASGI
processes, a Celery worker, beat) on free ports, pointed at them. The trials, each with
games played by scripts/live_client.py players through nginx:

1. kill -9 one ASGI process mid-game: its players reconnect through nginx to the other,
   catch up, and nothing is lost or doubled; the process is started again.
2. Redis restarted mid-game (its data gone): play resumes, players resync, and CargoBot's
   turns resume as soon as the broker answers, not at the sweep.
3. PostgreSQL restarted mid-game: pages answer 503 with a clear message, sockets an
   `unavailable` error, /healthz names the database; the same processes recover.
4. The worker killed (kill -9) while it plays CargoBot's turn: the turn is played exactly
   once after the worker is started again.
5. A second beat: the end-of-day resign of a Daily Challenge game and the sweep of a game
   whose CargoBot task was lost each happen once.
6. Each ASGI process killed in turn, twice: every dropped player is back within 5 s, 20
   fresh game sockets open afterwards, nginx refuses none ("no live upstreams").
7. Redis stopped: sign-in, sign-up and password reset through nginx answer as with Redis.
8. TLS 1.2 and 1.3 offered, 1.1 refused; HSTS, CSP, X-Frame-Options and nosniff on a
   static file and on nginx's own 404.
9. 2,000 page and JSON requests and 500 game sockets through nginx, 64 and 50 at a time,
   while four games are played:
   PostgreSQL's connections of each ASGI process, sampled from pg_stat_activity all along,
   never pass its bound (the pool's size and the fast path's loop connections), are within
   it again afterwards, and the site still answers (issue #42, point 1).
10. The leaver's socket (issue #42): a Cargo Express table of three plays through nginx;
    one member resigns with their socket still open, a bot plays their seat on, and every
    frame that socket reads afterwards is free of the bot seat's plan, hand, contracts
    and private events.
Then: no traceback in the ASGI processes' logs of the whole run.

Every piece is stopped at the end, whatever happened. Exit status 1 if a trial failed.
docs/production.md records the figures. The trials' code is the package
scripts/fault_trials/ (its docstring says which module holds which trial); this file
runs them in order, checks the whole run's logs (trial 11) and writes the summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import ssl
import sys
import tempfile
import time
from pathlib import Path

from fault_trials.accounts_redis_down import trial_accounts_without_redis
from fault_trials.asgi_kills import trial_double_failover, trial_kill_asgi
from fault_trials.connection_bound import trial_connection_bound
from fault_trials.harness import Trial
from fault_trials.leaver_socket import trial_leaver_socket
from fault_trials.logs import ASGI_PIECES, client_tracebacks, log_sizes, new_tracebacks
from fault_trials.nginx_edge import trial_tls_and_headers
from fault_trials.rows import django_setup
from fault_trials.servers import OwnPostgres, OwnRedis, Topology, servers
from fault_trials.store_restarts import trial_restart_postgres, trial_restart_redis
from fault_trials.worker_and_beat import trial_kill_worker, trial_second_beat

# --- the run --------------------------------------------------------------------------


async def trials(redis: OwnRedis, pg: OwnPostgres, top: Topology,
                 only: list[int] | None = None) -> list[Trial]:
    """The trials in order (or the 1-based numbers in `only`, to repeat one)."""
    done = []
    runs = (lambda: trial_kill_asgi(top), lambda: trial_restart_redis(top, redis),
            lambda: trial_restart_postgres(top, pg), lambda: trial_kill_worker(top),
            lambda: trial_second_beat(top), lambda: trial_double_failover(top),
            lambda: trial_accounts_without_redis(top, redis),
            lambda: trial_tls_and_headers(top), lambda: trial_connection_bound(top, pg),
            lambda: trial_leaver_socket(top))
    for number, run in enumerate(runs, 1):
        if only and number not in only:
            continue
        started, sizes = time.perf_counter(), log_sizes(top)
        trial = await run()
        trial.figures["trial_s"] = round(time.perf_counter() - started, 1)
        tracebacks = new_tracebacks(top, sizes)
        if tracebacks:  # the run's last check fails on them; this names the trial and text
            trial.figures["asgi_tracebacks"] = tracebacks
        print(json.dumps(trial.report(), indent=2, default=str), flush=True)
        done.append(trial)
    logs = Trial("no traceback a client could cause in the ASGI logs of the whole run")
    logs.figures["tracebacks"] = client_tracebacks(top)
    logs.check(not any(logs.figures["tracebacks"].values()),
               f"tracebacks in the ASGI logs: {logs.figures['tracebacks']}")
    if logs.failures:
        logs.figures["texts"] = new_tracebacks(top, dict.fromkeys(ASGI_PIECES, 0))
    print(json.dumps(logs.report(), indent=2, default=str), flush=True)
    done.append(logs)
    return done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    ap.add_argument("--only", type=int, action="append",
                    help="run only this trial (its number in the list above; repeatable)")
    args = ap.parse_args()
    ssl.create_default_context()  # fail early if TLS is unusable here
    workdir = Path(tempfile.mkdtemp(prefix="cargo-faults-"))
    os.chmod(workdir, 0o755)  # the postgres user reads its directory under it
    started = time.perf_counter()
    try:
        with servers(workdir) as (redis, pg, top):
            top.run("start")
            django_setup(top.env)
            done = asyncio.run(trials(redis, pg, top, args.only))
    finally:
        if args.keep:
            print(f"work directory kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    summary = {"load_average": os.getloadavg(), "total_s": round(time.perf_counter() - started),
               "trials": [t.report() for t in done]}
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2, default=str))
    failed = [t.name for t in done if t.failures]
    print(f"fault trials: {len(done) - len(failed)} of {len(done)} passed in "
          f"{summary['total_s']} s" + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
