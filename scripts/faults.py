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
Then: no traceback in the ASGI processes' logs of the whole run.

Every piece is stopped at the end, whatever happened. Exit status 1 if a trial failed.
docs/production.md records the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import functools
import http.cookiejar
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from live_client import GameRun, Player, Stats, check_game, insecure_context, stored_turns
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
TOPOLOGY = ROOT / "scripts" / "topology.sh"
THINK = 0.3  # seconds a scripted player waits before its turn
PING_EVERY = 5.0  # seconds between a player's pings (the server pushes missed turns on one)
BOT_TASK_RECEIVED = re.compile(r"Task games\.bot_turn\[[^]]+\] received")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check: Callable[[], bool], timeout: float = 30.0,
             every: float = 0.05) -> float:
    """Poll `check` until it is true; the seconds it took. Raises on timeout."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(Exception):
            if check():
                return time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def as_postgres(cmd: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/" + name))
    if not versions:
        raise SystemExit(f"{name} not found (install PostgreSQL's server package)")
    return str(versions[-1])


class OwnRedis:
    """redis-server on a free loopback port, without persistence (a restart loses its data,
    as a crashed Redis without a snapshot would)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")

    def start(self) -> None:
        log = open(self.dir / "redis.log", "ab")  # noqa: SIM115 (kept open by the child)
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=log, stderr=log, start_new_session=True)
        wait_for("Redis", self.ping, 15)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class OwnPostgres:
    """A PostgreSQL cluster of its own under the work directory, trust auth, on a free port."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.dir = workdir / "pg"
        self.data = self.dir / "data"
        self.dir.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        subprocess.run(as_postgres([pg_bin("initdb"), "-D", str(self.data), "-A", "trust",
                                    "-U", "postgres", "--no-sync", "-E", "UTF8"]),
                       check=True, stdout=subprocess.DEVNULL)
        self.started = False

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/cargo"

    def ctl(self, *args: str) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                   "-c fsync=off -c max_connections=100")
        subprocess.run(as_postgres([pg_bin("pg_ctl"), "-D", str(self.data), "-l",
                                    str(self.dir / "postgres.log"), "-o", options, "-w",
                                    *args]), check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        self.ctl("start")
        self.started = True

    def stop(self) -> None:
        if self.started:
            self.ctl("stop", "-m", "fast")
            self.started = False

    def create_database(self) -> None:
        subprocess.run([pg_bin("psql"), "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", "-c", "CREATE DATABASE cargo"], check=True)


class Topology:
    """scripts/topology.sh with this run's environment."""

    def __init__(self, workdir: Path, database_url: str, redis_url: str) -> None:
        self.dir = workdir / "topology"
        self.port = free_port()
        self.asgi_ports = [free_port(), free_port()]
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url, "REDIS_URL": redis_url,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "TOPOLOGY_DIR": str(self.dir), "TOPOLOGY_PORT": str(self.port),
            "TOPOLOGY_ASGI_PORTS": " ".join(map(str, self.asgi_ports)),
            "DJANGO_LOG_LEVEL": "INFO", "UVICORN_LOG_LEVEL": "warning",
        }
        self.base = f"https://127.0.0.1:{self.port}"

    def run(self, *args: str) -> None:
        subprocess.run([str(TOPOLOGY), *args], env=self.env, check=True,
                       stdout=subprocess.DEVNULL if args[0] == "stop" else None)

    def pid(self, piece: str) -> int:
        return int((self.dir / "pids" / f"{piece}.pid").read_text())

    def kill9(self, piece: str) -> float:
        """kill -9 the piece's whole process group; when it happened."""
        os.killpg(self.pid(piece), signal.SIGKILL)
        return time.perf_counter()

    def busiest_asgi(self) -> str:
        """The ASGI process ("asgi-1" or "asgi-2") holding more established connections
        now: nginx hashes game sockets by URL, so six games may all land on one process."""
        counts = {port: 0 for port in self.asgi_ports}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with open(table) as rows:
                for row in list(rows)[1:]:
                    _, local, _, state, *_ = row.split()
                    port = int(local.rsplit(":", 1)[1], 16)
                    if state == "01" and port in counts:   # 01: ESTABLISHED
                        counts[port] += 1
        busiest = max(range(2), key=lambda index: counts[self.asgi_ports[index]])
        return f"asgi-{busiest + 1}"

    def log(self, piece: str) -> str:
        path = self.dir / "logs" / f"{piece}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def get_json(self, path: str) -> tuple[int, str, Any]:
        return self.get(path, accept="application/json")

    def get(self, path: str, timeout: float = 5.0,
            accept: str = "text/html") -> tuple[int, str, Any]:
        """GET through nginx: status, body, headers (case-insensitive; an HTTP error is an
        answer too)."""
        request = urllib.request.Request(self.base + path, headers={"Accept": accept})
        try:
            with urllib.request.urlopen(request, timeout=timeout,
                                        context=insecure_context()) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers


# --- the site's side: games and rows, read and written in this process ------------------


def django_setup(env: dict[str, str]) -> None:
    for key in ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        os.environ[key] = env[key]
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_SETTINGS_MODULE"] = "cargosite.settings"
    # This script reads and writes rows between awaits, one thing at a time: the ORM's
    # guard against use from an event loop's thread does not apply.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def fresh(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run `func` on a connection that is not one PostgreSQL's restart left broken (these
    helpers run on worker threads of this process, each with its own connection)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from django.db import connection

        connection.close_if_unusable_or_obsolete()
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        return func(*args, **kwargs)

    return wrapper


@fresh
def people_games(count: int) -> list[dict[str, str]]:
    """`count` games between two signed-in members: [{"id", "blue", "orange"}] (sessions)."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("load_setup", games=count, size=8, force=True, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def member(name: str) -> tuple[Any, str]:
    from django.contrib.auth import get_user_model

    from games.management.commands.load_setup import signed_in_session

    user, _ = get_user_model().objects.get_or_create(username=name)
    return user, signed_in_session(user)


@fresh
def bot_game(name: str, level: str) -> tuple[str, str]:
    """A casual 8×8 game of a new member (Blue, to move first) against CargoBot: (id,
    session)."""
    from games import bot_games, services

    user, session = member(name)
    game = bot_games.create_bot_game(actor=services.Actor.member(user), level=level,
                                options={"size": 8}, seat="blue")
    return game.id, session


@fresh
def game_row(game_id: str) -> Any:
    from games.models import Game

    return Game.objects.get(id=game_id)


@fresh
def turn_rows(game_id: str, ply: int) -> int:
    from games.models import Turn

    return Turn.objects.filter(game_id=game_id, ply=ply).count()


# --- trials ---------------------------------------------------------------------------


class Trial:
    def __init__(self, name: str) -> None:
        self.name = name
        self.figures: dict[str, Any] = {}
        self.failures: list[str] = []

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.failures.append(what)

    def report(self) -> dict[str, Any]:
        return {"trial": self.name, "passed": not self.failures, "failures": self.failures,
                **self.figures}


class Table:
    """Players of several games through nginx, all reconnecting."""

    def __init__(self, top: Topology, seed: int) -> None:
        self.top, self.stats, self.stop = top, Stats(), asyncio.Event()
        self.rng = random.Random(seed)
        self.players: dict[str, list[Player]] = {}
        self.tasks: list[asyncio.Task[None]] = []

    def seat(self, game_id: str, side: str, session: str) -> Player:
        runs = self.players.setdefault(game_id, [])
        run = runs[0].run if runs else GameRun(game_id)
        player = Player(run, side, session, self.top.base, think=THINK, stats=self.stats,
                        stop=self.stop, rng=random.Random(self.rng.random()), reconnect=True,
                        ping_every=PING_EVERY)
        runs.append(player)
        self.tasks.append(asyncio.create_task(player.play()))
        return player

    def seat_people(self, games: list[dict[str, str]]) -> None:
        for g in games:
            for side in ("blue", "orange"):
                self.seat(g["id"], side, g[side])

    async def opened(self, timeout: float = 60.0) -> float:
        """Wait until every player's socket is open (its first state arrived); seconds."""
        start = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(p.opened.wait() for ps in
                                                self.players.values() for p in ps)), timeout)
        return round(time.perf_counter() - start, 2)

    def acked(self) -> int:
        return sum(len(p.acked) for ps in self.players.values() for p in ps)

    async def finish(self) -> dict[str, Any]:
        self.stop.set()
        results = await asyncio.wait_for(asyncio.gather(*self.tasks, return_exceptions=True),
                                         60)
        failures = [repr(r) for r in results if isinstance(r, BaseException)]
        totals = {"stored": 0, "acknowledged": 0, "lost": 0, "unacknowledged": 0,
                  "behind": 0}
        for game_id, players in self.players.items():
            checked = check_game(stored_turns(self.top.base, game_id), players)
            for key in totals:
                totals[key] += checked[key]
        drops = [p for ps in self.players.values() for p in ps if p.drops]
        gaps = [reopen - drop for p in drops for drop, reopen in zip(p.drops, p.reopens,
                                                                      strict=False)]
        return {**totals, "client_failures": failures, "errors": self.stats.errors,
                "players": sum(map(len, self.players.values())),
                "players_dropped": len(drops), "reconnects": self.stats.reconnects,
                "resent_turns": self.stats.resent, "syncs_on_gap": self.stats.syncs,
                "reconnect_s": {"max": round(max(gaps, default=0), 2),
                                "median": round(sorted(gaps)[len(gaps) // 2], 2)
                                if gaps else 0}}


def check_play(trial: Trial, result: dict[str, Any], *, people_only: bool) -> None:
    trial.check(result["lost"] == 0, f"{result['lost']} acknowledged turns lost")
    if people_only:
        trial.check(result["unacknowledged"] == 0,
                    f"{result['unacknowledged']} stored turns never acknowledged")
    trial.check(result["behind"] == 0, f"{result['behind']} players ended behind the game")
    trial.check(not result["client_failures"], f"clients failed: {result['client_failures']}")


async def trial_kill_asgi(top: Topology) -> Trial:
    trial = Trial("kill -9 one ASGI process mid-game")
    table = Table(top, seed=1)
    table.seat_people(await asyncio.to_thread(people_games, 6))
    trial.figures["sockets_open_s"] = await table.opened()
    await asyncio.sleep(4)
    before = table.acked()
    killed = trial.figures["killed"] = top.busiest_asgi()
    top.kill9(killed)
    await asyncio.sleep(6)
    after = table.acked()
    trial.figures["turns_acknowledged_in_6s_after_the_kill"] = after - before
    restart = time.perf_counter()
    await asyncio.to_thread(top.run, "start", killed)
    trial.figures["asgi_restart_s"] = round(time.perf_counter() - restart, 1)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    trial.figures["killed_after_play_s"] = 4
    check_play(trial, result, people_only=True)
    trial.check(result["players_dropped"] > 0, "no player was on the killed process")
    trial.check(after > before, "no turn was acknowledged after the kill")
    return trial


async def first_frame_after(player: Player, plies: int, since: float,
                            timeout: float) -> float | None:
    """Seconds after `since` until `player` knows more than `plies` turns, or None."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if player.ply > plies:
            return round(time.perf_counter() - since, 2)
        await asyncio.sleep(0.02)
    return None


async def trial_restart_redis(top: Topology, redis: OwnRedis) -> Trial:
    trial = Trial("Redis restarted mid-game (no persistence)")
    table = Table(top, seed=2)
    table.seat_people(await asyncio.to_thread(people_games, 4))
    bots = [await asyncio.to_thread(bot_game, f"redis-bot-{i}", "easy") for i in range(2)]
    worker_log = len(top.log("worker"))
    bot_players = [table.seat(game_id, "blue", session) for game_id, session in bots]
    await table.opened()
    await asyncio.sleep(4)
    before = table.acked()
    # Stop Redis just as the worker takes a CargoBot task, so that the task's
    # acknowledgement is due while the broker is gone (the worker's hardest case).
    await asyncio.to_thread(wait_for, "a CargoBot task",
                            functools.partial(bot_task_received, top, len(top.log("worker"))),
                            10, 0.005)
    down_at = time.perf_counter()
    await asyncio.to_thread(redis.stop)
    await asyncio.sleep(1)
    status, body, _ = await asyncio.to_thread(top.get, "/healthz")
    trial.figures["healthz_while_down"] = f"{status} {body.strip()}"
    trial.check(status == 503 and "channel_layer" in body,
                "/healthz did not name the channel layer while Redis was down")
    await asyncio.sleep(2)
    trial.figures["turns_acknowledged_while_down"] = table.acked() - before
    plies = [p.ply for p in bot_players]
    await asyncio.to_thread(redis.start)
    up_at = time.perf_counter()
    trial.figures["redis_down_s"] = round(up_at - down_at, 1)
    # Each game against CargoBot must go on soon after Redis is back: two more turns (one of
    # them CargoBot's) reach its player.
    waits = await asyncio.gather(*(first_frame_after(p, ply + 1, up_at, 25)
                                   for p, ply in zip(bot_players, plies, strict=True)))
    trial.figures["cargobot_turn_after_redis_back_s"] = waits
    trial.check(all(w is not None and w < 10 for w in waits),
                f"CargoBot's turns did not resume within 10 s of Redis returning: {waits}")
    healthy = await asyncio.to_thread(wait_for, "healthz",
                                      lambda: top.get("/healthz")[0] == 200, 30)
    trial.figures["healthz_ok_after_s"] = round(healthy, 2)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=False)
    trial.check(trial.figures["turns_acknowledged_while_down"] > 0,
                "no turn was acknowledged while Redis was down")
    log = top.log("worker")[worker_log:]
    trial.figures["worker_exits_restarted_by_supervisor"] = log.count("[topology] worker exited")
    trial.figures["worker_unrecoverable_errors"] = log.count("Unrecoverable error")
    trial.figures["worker_lost_connection_not_closed_cleanly"] = log.count(
        "could not be closed cleanly")
    trial.figures["worker_acks_over_the_lost_connection"] = log.count("Couldn't ack")
    return trial


async def trial_restart_postgres(top: Topology, pg: OwnPostgres) -> Trial:
    trial = Trial("PostgreSQL restarted mid-game")
    table = Table(top, seed=3)
    games = await asyncio.to_thread(people_games, 4)
    table.seat_people(games)
    pids = {piece: top.pid(piece) for piece in ("asgi-1", "asgi-2", "worker")}
    await table.opened()
    await asyncio.sleep(4)
    down_at = time.perf_counter()
    await asyncio.to_thread(pg.stop)
    await asyncio.sleep(1)
    game_page = f"/g/{games[0]['id']}"
    page = await asyncio.to_thread(top.get, game_page)
    text = re.sub(r"(<[^>]+>|\s)+", " ", page[1]).strip()
    trial.figures["game_page_while_down"] = f"{page[0]} {text[:200]}"
    trial.check(page[0] == 503 and "database" in page[1].lower(),
                f"GET {game_page} while PostgreSQL was down answered {page[0]}")
    events = await asyncio.to_thread(top.get_json, f"{game_page}/events?after=0")
    trial.figures["events_json_while_down"] = f"{events[0]} {events[1].strip()[:200]}"
    trial.check(events[0] == 503 and '"unavailable"' in events[1],
                "the JSON fallback did not answer 503 unavailable")
    trial.check(page[2].get("Retry-After") is not None, "no Retry-After on the 503")
    health = await asyncio.to_thread(top.get, "/healthz")
    trial.figures["healthz_while_down"] = f"{health[0]} {health[1].strip()[:200]}"
    trial.check(health[0] == 503 and '"database"' in health[1].split('"failed"')[-1],
                "/healthz did not name the database")
    await asyncio.sleep(2)
    await asyncio.to_thread(pg.start)
    up_at = time.perf_counter()
    trial.figures["postgres_down_s"] = round(up_at - down_at, 1)
    recovered = await asyncio.to_thread(wait_for, "the game page",
                                        lambda: top.get(game_page)[0] == 200, 30)
    trial.figures["pages_ok_after_s"] = round(recovered, 2)
    before = table.acked()
    resumed = await asyncio.to_thread(wait_for, "a turn", lambda: table.acked() > before, 30)
    trial.figures["first_turn_after_s"] = round(resumed, 2)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=True)
    trial.check(pids == {piece: top.pid(piece) for piece in pids},
                "a process was restarted (the site must recover by itself)")
    trial.figures["unavailable_errors_to_sockets"] = result["errors"].get("unavailable", 0)
    return trial


def bot_task_received(top: Topology, after: int) -> bool:
    return BOT_TASK_RECEIVED.search(top.log("worker"), after) is not None


async def trial_kill_worker(top: Topology) -> Trial:
    trial = Trial("the worker killed (kill -9) mid CargoBot turn")
    table = Table(top, seed=4)
    game_id, session = await asyncio.to_thread(bot_game, "worker-kill", "hard")
    player = table.seat(game_id, "blue", session)
    attempts = 0
    killed_ply = None
    log_seen = len(top.log("worker"))
    while attempts < 6 and killed_ply is None:
        attempts += 1
        # Wait for CargoBot's task to be received, then kill the worker at once.
        await asyncio.to_thread(wait_for, "the bot task",
                                functools.partial(bot_task_received, top, log_seen), 30, 0.005)
        top.kill9("worker")
        log_seen = len(top.log("worker"))
        row = await asyncio.to_thread(game_row, game_id)
        bot_to_move = row.bot_waiting_since is not None
        if bot_to_move:
            killed_ply = row.ply
        await asyncio.to_thread(top.run, "start", "worker")
        ready_at = time.perf_counter()
        if killed_ply is not None:
            wait = await first_frame_after(player, killed_ply, ready_at, 20)
            trial.figures["cargobot_turn_after_worker_ready_s"] = wait
            trial.check(wait is not None and wait < 5,
                        f"CargoBot's turn came {wait} s after the worker was back")
        log_seen = len(top.log("worker"))
        await asyncio.sleep(0.5)
    trial.figures["attempts_to_kill_mid_turn"] = attempts
    trial.check(killed_ply is not None, "the worker was never killed mid-turn")
    await asyncio.sleep(2)
    result = await table.finish()
    if killed_ply is not None:
        trial.figures["turn_rows_at_killed_ply"] = await asyncio.to_thread(
            turn_rows, game_id, killed_ply)
        trial.check(trial.figures["turn_rows_at_killed_ply"] == 1, "the turn was not stored once")
        row = await asyncio.to_thread(game_row, game_id)
        seats = [s.bot_level is not None for s in row.seat_list]
        trial.check(row.ply > killed_ply and seats[killed_ply % 2],
                    "the killed ply was not CargoBot's or was not played")
    trial.figures.update(result)
    check_play(trial, result, people_only=False)
    return trial


@fresh
def stale_daily_and_stalled_bot_game() -> tuple[str, str]:
    """A ranked Daily Challenge game started yesterday and still running, and a game against
    CargoBot whose task was lost (never sent) a minute ago: their ids."""
    from games import bot_games, bots, services
    from games.models import Game
    from puzzles.daily import clock
    from puzzles.daily import services as daily
    from puzzles.daily.models import DailyGame

    user, _ = member("beat-daily")
    game = daily.start(services.Actor.member(user), "easy")
    DailyGame.objects.filter(game_id=game.id).update(day=clock.today() - dt.timedelta(days=1))
    bot_user, _ = member("beat-sweep")
    original, bots.send_task_on_commit = bots.send_task_on_commit, lambda game: None
    try:
        stalled = bot_games.create_bot_game(actor=services.Actor.member(bot_user), level="easy",
                                       options={"size": 6}, seat="orange")
    finally:
        bots.send_task_on_commit = original
    Game.objects.filter(id=stalled.id).update(
        bot_waiting_since=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    return game.id, stalled.id


@fresh
def beat_outcome(daily_id: str, stalled_id: str) -> dict[str, Any]:
    from rankings.models import DailyBoardEntry

    daily_row, stalled_row = game_row(daily_id), game_row(stalled_id)
    return {"daily_termination": daily_row.termination,
            "daily_board_rows": DailyBoardEntry.objects.filter(game_id=daily_id).count(),
            "swept_game_ply": stalled_row.ply,
            "swept_turn_rows_at_ply_0": turn_rows(stalled_id, 0)}


async def trial_second_beat(top: Topology) -> Trial:
    trial = Trial("a second beat doubles no scheduled job")
    worker_log = len(top.log("worker"))
    await asyncio.to_thread(top.run, "start", "beat-2")
    beat_logs = [len(top.log("beat")), len(top.log("beat-2"))]
    daily_id, stalled_id = await asyncio.to_thread(stale_daily_and_stalled_bot_game)
    # Both beats send the minute's end-of-day task (the worker runs the two at once), and
    # each sends the 30 s sweep: wait for both (at most 100 s), then for the worker.
    def both_beats_sent() -> bool:
        logs = [top.log("beat")[beat_logs[0]:], top.log("beat-2")[beat_logs[1]:]]
        return all("daily-end-of-day" in b and "sweep-bot-games" in b for b in logs)

    await asyncio.to_thread(wait_for, "both beats' end-of-day and sweep", both_beats_sent, 100,
                            0.5)
    await asyncio.sleep(5)
    outcome = await asyncio.to_thread(beat_outcome, daily_id, stalled_id)
    trial.figures.update(outcome)
    trial.check(outcome["daily_termination"] == "day_ended", "the daily game was not resigned")
    trial.check(outcome["daily_board_rows"] == 1, "not one board row for the daily game")
    trial.check(outcome["swept_game_ply"] == 1 and outcome["swept_turn_rows_at_ply_0"] == 1,
                "the stalled game's CargoBot turn was not played exactly once")
    worker = top.log("worker")
    beats = [top.log("beat")[beat_logs[0]:], top.log("beat-2")[beat_logs[1]:]]
    trial.figures["end_of_day_sends_per_beat"] = [b.count("daily-end-of-day") for b in beats]
    trial.figures["sweep_sends_per_beat"] = [b.count("sweep-bot-games") for b in beats]
    trial.check(all(n > 0 for n in trial.figures["end_of_day_sends_per_beat"]),
                "a beat did not send the end-of-day task")
    trial.figures["end_of_day_task_results"] = re.findall(
        r"Task daily\.resign_expired\[[^]]+\] succeeded in [0-9.]+s: (\[[^]]*\])",
        worker[worker_log:])
    trial.figures["daily_resign_log_lines"] = worker.count(f"resigned daily game {daily_id}")
    trial.check(trial.figures["daily_resign_log_lines"] == 1, "the daily game resigned twice")
    trial.figures["sweep_resends_logged"] = worker.count(f"game(s): {stalled_id}")
    await asyncio.to_thread(top.run, "stop", "beat-2")
    return trial


async def fresh_sockets(top: Topology, games: list[dict[str, str]], count: int,
                        timeout: float = 5.0) -> int:
    """How many of `count` new game sockets (members' sessions, spread over the games)
    open and get their first `state` frame within `timeout` seconds."""

    async def one(n: int) -> bool:
        game = games[n % len(games)]
        url = top.base.replace("https", "wss", 1) + f"/ws/game/{game['id']}/"
        try:
            async with asyncio.timeout(timeout):
                async with ws_connect(url, origin=Origin(top.base), ssl=insecure_context(),
                                      additional_headers={
                                          "Cookie": f"sessionid={game['blue']}"}) as ws:
                    return json.loads(await ws.recv()).get("type") == "state"
        except Exception:
            return False

    return sum(await asyncio.gather(*(one(n) for n in range(count))))


async def trial_double_failover(top: Topology) -> Trial:
    """Issue #28, point 1: each ASGI process killed in turn, twice. nginx's game-socket
    upstream used to mark a process down for 5 s per failure, and a WebSocket 'finishes'
    only when it closes: after the second failure every game socket was refused (502,
    "no live upstreams") although both processes were up."""
    trial = Trial("each ASGI process killed in turn, twice (failover that stays up)")
    table = Table(top, seed=6)
    games = await asyncio.to_thread(people_games, 6)
    table.seat_people(games)
    trial.figures["sockets_open_s"] = await table.opened()
    players = [p for ps in table.players.values() for p in ps]
    error_log = len(top.log("nginx-error"))
    await asyncio.sleep(3)
    rounds = []
    for piece in ("asgi-1", "asgi-2", "asgi-1", "asgi-2"):
        seen = {id(p): len(p.drops) for p in players}
        top.kill9(piece)
        await asyncio.sleep(5)
        dropped = [p for p in players if len(p.drops) > seen[id(p)]]
        gaps = [round(p.reopens[seen[id(p)]] - p.drops[seen[id(p)]], 2)
                if len(p.reopens) > seen[id(p)] else None for p in dropped]
        restart = time.perf_counter()
        await asyncio.to_thread(top.run, "start", piece)
        restarted_s = round(time.perf_counter() - restart, 1)
        await asyncio.sleep(1)
        rounds.append({"killed": piece, "dropped": len(dropped),
                       "back_before_restart": sum(g is not None for g in gaps),
                       "back_s_max": max((g for g in gaps if g is not None), default=0),
                       "restart_s": restarted_s})
        trial.check(all(g is not None and g <= 5 for g in gaps),
                    f"after killing {piece}: players back {gaps} (each must be back ≤ 5 s)")
    trial.figures["rounds"] = rounds
    trial.figures["players_dropped_in_all"] = sum(r["dropped"] for r in rounds)
    trial.check(trial.figures["players_dropped_in_all"] > 0, "no player was on a killed process")
    await asyncio.sleep(2)  # both processes healthy (start waits for /healthz)
    opened = await fresh_sockets(top, games, 20)
    trial.figures["fresh_sockets_opened_of_20"] = opened
    trial.check(opened == 20, f"only {opened} of 20 fresh game sockets opened")
    refused = top.log("nginx-error")[error_log:].count("no live upstreams")
    trial.figures["nginx_no_live_upstreams"] = refused
    trial.check(refused == 0, f"nginx refused {refused} sockets with no live upstreams")
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=True)
    return trial


class Browser:
    """A browser's cookies and CSRF token against the topology, through nginx."""

    def __init__(self, top: Topology) -> None:
        self.top = top
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar),
            urllib.request.HTTPSHandler(context=insecure_context()), NoRedirect())

    def request(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = None
        headers = {"Accept": "text/html"}
        if form is not None:
            token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": token}).encode()
            headers.update({"Origin": self.top.base, "Referer": self.top.base + path})
        request = urllib.request.Request(self.top.base + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=15) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def post(self, path: str, form: dict[str, str]) -> int:
        self.request(path)  # the form page: its CSRF cookie
        return self.request(path, form)[0]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


@fresh
def verified_member(name: str, password: str) -> None:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, f"{name}@example.com", password)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)


def account_flows(top: Topology, tag: str) -> dict[str, int]:
    """Sign-in (a wrong password, then the right one), sign-up and a password reset, each
    from a fresh browser through nginx: their HTTP statuses."""
    password = "a-long-cargo-pass"
    name = f"acct-{tag}"
    verified_member(name, password)
    return {
        "sign_in_wrong_password": Browser(top).post(
            "/accounts/login/", {"login": name, "password": "wrong"}),
        "sign_in": Browser(top).post("/accounts/login/", {"login": name, "password": password}),
        "sign_up": Browser(top).post("/accounts/signup/", {
            "username": f"new-{tag}", "email": f"new-{tag}@example.com",
            "password1": password, "password2": password}),
        "password_reset": Browser(top).post("/accounts/password/reset/",
                                            {"email": f"{name}@example.com"}),
    }


async def trial_accounts_without_redis(top: Topology, redis: OwnRedis) -> Trial:
    """Issue #28, point 3: allauth's rate limits live in the cache; with Redis down sign-in
    answered 500. Each flow must answer as it does with Redis up."""
    trial = Trial("sign-in, sign-up and password reset while Redis is down")
    up = await asyncio.to_thread(account_flows, top, "up")
    trial.figures["with_redis"] = up
    await asyncio.to_thread(redis.stop)
    try:
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        down = await asyncio.to_thread(account_flows, top, "down")
        trial.figures["flows_while_down_s"] = round(time.perf_counter() - started, 2)
    finally:
        await asyncio.to_thread(redis.start)
    trial.figures["with_redis_down"] = down
    trial.check(down == up, f"while Redis was down: {down}, with Redis up: {up}")
    trial.check(not [s for s in down.values() if s >= 500], f"a 5xx while Redis was down: {down}")
    await asyncio.to_thread(wait_for, "healthz", lambda: top.get("/healthz")[0] == 200, 30)
    return trial


def tls_and_headers(top: Topology) -> dict[str, Any]:
    """Issue #28, point 11: the protocols nginx offers, and the headers on what nginx
    answers itself (a static file, its own 404)."""
    found: dict[str, Any] = {}
    for name, version in (("TLSv1.3", ssl.TLSVersion.TLSv1_3), ("TLSv1.2", ssl.TLSVersion.TLSv1_2),
                          ("TLSv1.1", ssl.TLSVersion.TLSv1_1)):
        context = insecure_context()
        with warnings.catch_warnings():  # TLS 1.1 is deprecated: asked for on purpose
            warnings.simplefilter("ignore", DeprecationWarning)
            context.minimum_version = context.maximum_version = version
        if version < ssl.TLSVersion.TLSv1_2:
            context.set_ciphers("DEFAULT:@SECLEVEL=0")
        try:
            with socket.create_connection(("127.0.0.1", top.port), timeout=5) as raw, \
                    context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                found[name] = tls.version()
        except (ssl.SSLError, OSError) as error:
            found[name] = f"refused ({error})"
    wanted = ("Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
              "X-Content-Type-Options")
    for label, path in (("static_file", "/static/favicon.svg"), ("nginx_404", "/static/nope.css")):
        status, _, headers = top.get(path)
        found[label] = {"status": status,
                        **{h: headers.get(h) for h in wanted}}
    # A page of the site keeps its own headers, once each (nginx adds none beside them).
    status, _, headers = top.get("/accounts/login/")
    found["site_page_header_counts"] = {h: len(headers.get_all(h) or []) for h in wanted}
    return found


async def trial_tls_and_headers(top: Topology) -> Trial:
    trial = Trial("TLS protocols and security headers on nginx's own answers")
    found = await asyncio.to_thread(tls_and_headers, top)
    trial.figures.update(found)
    trial.check(found["TLSv1.3"] == "TLSv1.3", "TLS 1.3 is not offered")
    trial.check(found["TLSv1.2"] == "TLSv1.2", "TLS 1.2 is not offered")
    trial.check(str(found["TLSv1.1"]).startswith("refused"), "TLS 1.1 was accepted")
    for label in ("static_file", "nginx_404"):
        missing = [h for h, v in found[label].items() if h != "status" and not v]
        trial.check(not missing, f"{label}: no {missing}")
    counts = found["site_page_header_counts"]
    trial.check(all(n == 1 for n in counts.values()), f"a site page's headers: {counts}")
    return trial


def client_tracebacks(top: Topology) -> dict[str, int]:
    """Tracebacks in the logs of the processes clients talk to (the ASGI processes) and
    nginx's own errors: a whole run must hold none (issue #28, acceptance)."""
    return {piece: top.log(piece).count("Traceback (most recent call last)")
            for piece in ("asgi-1", "asgi-2")}


# --- the run --------------------------------------------------------------------------


@contextlib.contextmanager
def servers(workdir: Path) -> Iterator[tuple[OwnRedis, OwnPostgres, Topology]]:
    redis = OwnRedis(workdir)
    pg = OwnPostgres(workdir)
    top: Topology | None = None
    try:
        redis.start()
        pg.start()
        pg.create_database()
        top = Topology(workdir, pg.url, redis.url)
        yield redis, pg, top
    finally:
        if top is not None:
            with contextlib.suppress(Exception):
                top.run("stop")
        with contextlib.suppress(Exception):
            pg.stop()
        redis.stop()


async def trials(redis: OwnRedis, pg: OwnPostgres, top: Topology,
                 only: list[int] | None = None) -> list[Trial]:
    """The trials in order (or the 1-based numbers in `only`, to repeat one)."""
    done = []
    runs = (lambda: trial_kill_asgi(top), lambda: trial_restart_redis(top, redis),
            lambda: trial_restart_postgres(top, pg), lambda: trial_kill_worker(top),
            lambda: trial_second_beat(top), lambda: trial_double_failover(top),
            lambda: trial_accounts_without_redis(top, redis),
            lambda: trial_tls_and_headers(top))
    for number, run in enumerate(runs, 1):
        if only and number not in only:
            continue
        started = time.perf_counter()
        trial = await run()
        trial.figures["trial_s"] = round(time.perf_counter() - started, 1)
        print(json.dumps(trial.report(), indent=2, default=str), flush=True)
        done.append(trial)
    logs = Trial("no traceback a client could cause in the ASGI logs of the whole run")
    logs.figures["tracebacks"] = client_tracebacks(top)
    logs.check(not any(logs.figures["tracebacks"].values()),
               f"tracebacks in the ASGI logs: {logs.figures['tracebacks']}")
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
