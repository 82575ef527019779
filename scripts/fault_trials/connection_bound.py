"""Trial 9 (issue #42, point 1): 2,000 requests and 500 game sockets through nginx while
four games are played; each ASGI process's PostgreSQL connections, sampled from
pg_stat_activity all along (`ConnectionCounts`), never pass its bound and are within it
afterwards, and the site still answers."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from .harness import Table, Trial, check_play, fresh_sockets
from .rows import people_games
from .servers import OwnPostgres, Topology

SOCKET_WITHIN = 120.0  # seconds a game socket may take to open, new attempts included


def percentiles(values: list[float]) -> list[float]:
    """p50, p95 and the largest of `values`, in seconds to 0.01 ([] for none)."""
    if not values:
        return []
    ordered = sorted(values)
    return [round(ordered[int(q * (len(ordered) - 1))], 2) for q in (0.5, 0.95, 1.0)]


class ConnectionCounts:
    """pg_stat_activity sampled on a thread of its own, on a connection of its own: each
    piece's connections to the site's database (the topology names them cargo-PIECE)."""

    def __init__(self, pg: OwnPostgres, every: float = 0.05) -> None:
        self.dsn = f"host=127.0.0.1 port={pg.port} user=postgres dbname=postgres"
        self.every = every
        self.peak: dict[str, int] = {}
        self.samples = 0
        self.stop = False

    QUERY = ("SELECT application_name, count(*) FROM pg_stat_activity WHERE datname = "
             "'cargo' AND application_name LIKE 'cargo-%' GROUP BY application_name")

    def now(self) -> dict[str, int]:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            return {name: count for name, count in conn.execute(self.QUERY).fetchall()}

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self.stop:
                for name, count in conn.execute(self.QUERY).fetchall():
                    self.peak[name] = max(self.peak.get(name, 0), count)
                self.samples += 1
                time.sleep(self.every)


async def trial_connection_bound(top: Topology, pg: OwnPostgres) -> Trial:
    """Issue #42, point 1: with Django's connections kept per thread (DJANGO_CONN_MAX_AGE=60)
    the ASGI processes held 91 of PostgreSQL's 100 connections after a probe, and refused
    everyone. Each process's connections come from a pool now: never more than its bound,
    whatever the load."""
    from django.conf import settings

    trial = Trial("PostgreSQL connections within each ASGI process's bound under load")
    # The ASGI processes' bound, as their environment (topology.sh's: DEBUG off, so the pool
    # on) makes it: the pool's size and the fast path's loop connections. This process's
    # own settings say no pool (django_setup), so DB_CONNECTIONS_PER_PROCESS is not theirs.
    size = getattr(settings, "DB_POOL_MAX_SIZE", None)  # None: a tree before the pool
    bound = None if size is None else \
        size + (settings.LIVE_LOOP_CONNECTIONS if settings.LIVE_FAST_PATH else 0)
    trial.figures["bound_per_asgi_process"] = bound
    trial.figures["pool"] = None if size is None else {
        "min_size": settings.DB_POOL_MIN_SIZE, "max_size": size,
        "timeout": settings.DB_POOL_TIMEOUT}
    trial.check(bound is not None, "the ASGI processes have no connection pool")
    games = await asyncio.to_thread(people_games, 8)
    paths = ["/rankings/", *(f"/g/{g['id']}" for g in games),
             *(f"/g/{g['id']}/events?after=0" for g in games)]
    counts = ConnectionCounts(pg)
    trial.figures["before"] = await asyncio.to_thread(counts.now)
    sampler = asyncio.create_task(asyncio.to_thread(counts.run))
    # Four games played all along: their turns take the fast path's loop connections.
    table = Table(top, seed=9)
    table.seat_people(games[:4])
    await table.opened()
    requests, sockets = 2000, 500
    started = time.perf_counter()

    def all_requests() -> list[int]:
        """The requests, from a process of their own (fault_trials/request_load.py): in
        this one, 64 threads starved the sockets' event loop and the sampler."""
        scripts = Path(__file__).resolve().parent.parent
        done = subprocess.run(
            [sys.executable, "-m", "fault_trials.request_load", top.base, str(requests), "64",
             *paths], cwd=scripts, capture_output=True, text=True, timeout=900,
            env={**os.environ, "PYTHONPATH": str(scripts)})
        if done.returncode:
            raise RuntimeError(f"the request load failed: {done.stderr[-2000:]}")
        return [int(status) for status in json.loads(done.stdout)]

    gate = asyncio.Semaphore(50)
    outcomes: Counter[str] = Counter()
    first_tries: list[bool] = []
    seconds_to_open: list[float] = []

    async def one_socket(n: int) -> bool:
        """A socket opened as the page opens one: an attempt that has no state in 15 s is
        given up and made again (static/js/live/socket.js reconnects), for up to two minutes."""
        spread = games[n % len(games):] + games[:n % len(games)]
        async with gate:
            began, attempts = time.perf_counter(), 0
            while time.perf_counter() - began < SOCKET_WITHIN:
                attempts += 1
                if await fresh_sockets(top, spread, 1, timeout=15, outcomes=outcomes) == 1:
                    seconds_to_open.append(time.perf_counter() - began)
                    first_tries.append(attempts == 1)
                    return True
                await asyncio.sleep(0.5)  # the page's first backoff
            first_tries.append(False)
            return False

    statuses, opened = await asyncio.gather(asyncio.to_thread(all_requests),
                                            asyncio.gather(*(one_socket(n)
                                                             for n in range(sockets))))
    trial.figures["load_s"] = round(time.perf_counter() - started, 1)
    trial.figures["turns_acknowledged_during"] = table.acked()
    result = await table.finish()
    counts.stop = True
    await sampler
    check_play(trial, result, people_only=True)
    trial.figures.update({key: result[key] for key in ("stored", "lost", "behind")})
    answered = {str(code): statuses.count(code) for code in sorted(set(statuses))}
    trial.figures["requests"] = requests
    trial.figures["answers"] = answered
    trial.figures["sockets_opened"] = f"{sum(opened)} of {sockets}"
    trial.figures["sockets_opened_at_the_first_attempt"] = sum(first_tries)
    trial.figures["socket_attempts"] = dict(outcomes.most_common())
    trial.figures["seconds_to_open_p50_p95_max"] = percentiles(seconds_to_open)
    trial.figures["samples"] = counts.samples
    trial.figures["peak_during"] = dict(sorted(counts.peak.items()))
    trial.figures["peak_total"] = sum(counts.peak.values())
    await asyncio.sleep(5)
    after = await asyncio.to_thread(counts.now)
    trial.figures["after_5s"] = dict(sorted(after.items()))
    again = await asyncio.to_thread(lambda: [top.get("/rankings/")[0] for _ in range(20)])
    trial.figures["answers_after"] = {str(code): again.count(code) for code in set(again)}
    if bound is not None:
        for piece in ("cargo-asgi-1", "cargo-asgi-2"):
            trial.check(counts.peak.get(piece, 0) <= bound,
                        f"{piece} held {counts.peak.get(piece)} connections, over {bound}")
            trial.check(after.get(piece, 0) <= bound,
                        f"{piece} holds {after.get(piece)} connections after the load")
    trial.check(counts.samples >= 20, f"only {counts.samples} samples of pg_stat_activity")
    trial.check(sum(answered.get(c, 0) for c in ("200", "503")) == requests,
                f"answers other than 200 and 503: {answered}")
    trial.check(answered.get("200", 0) >= requests * 0.9, f"fewer than 90 % 200s: {answered}")
    # Every socket opens, within two minutes of attempts (the load lasts 60-90 s). Until
    # session 25 the check was 80 % at the first attempt within 15 s: on a machine at load
    # 44, 450 of 500; with the requests' threads in this process, 451-459 on a quiet machine
    # and 370 in stop 49's CI; from a process of their own, 473-500 quiet and 386 with other
    # jobs running. Opening a socket waits for the pool like any request: a busy machine
    # makes it slow, not refused (socket_attempts: every failed attempt timed out).
    trial.check(sum(opened) == sockets, f"only {sum(opened)} of {sockets} sockets opened "
                                        f"within {SOCKET_WITHIN:.0f} s")
    trial.check(again == [200] * 20, f"after the load: {again}")
    return trial
