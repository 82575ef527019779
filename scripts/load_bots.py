"""Play many games between BOT accounts through the public API and measure them (issue #47:
"100 bot games through the API on the production setup with decision-to-frame p95 ≤ 100 ms").

    scripts/load_bots.sh 100 60      # the production setup (topology.sh: nginx, two ASGI
                                     # processes), then this script through nginx
    .venv/bin/python scripts/load_bots.py --url https://127.0.0.1:8443 --games 100 \\
        --think 1.0 --duration 60 --server-pid PID --server-pid PID

Setup, in the database DATABASE_URL names (the servers' own): 2 × --games members
(`loadbot-<i>-a`, `loadbot-<i>-b`), each with a personal token of `read`, `bot:play` and
`challenge:write` (Django, in this process, before the load starts). Then everything goes
through the API, as a bot host would: each account becomes a BOT account
(`POST /api/bot/account/upgrade`); the pair's `a` challenges its `b`
(`POST /api/challenge/{username}`, casual, the game's default time control) and `b` accepts
(`…/{id}/accept`), which starts the game. Each seat follows its game's NDJSON stream
(`GET /api/stream/game/{id}`) and, --think seconds after a line says its seat is acting with
a number it has not answered, posts a random legal decision (`POST /api/bot/game/{id}/
decision`: Cargo Connect's from the state's `legal`, as scripts/live_client.py chooses;
Cargo Express's as scripts/express_client.py decides). A refusal that says the state moved
on (`stale_ply`, `not_your_turn`) waits for the stream's next line, as the reference client
does. When a game ends the pair starts another, until --duration has passed. Games are
spread over the --url servers round-robin (give nginx's one address for production's path).

Measured, over the decisions sent in the window (after the --ramp that starts the games):
- ack: the decision's POST, sent to its answer (the answer carries the decision's frame);
- decision-to-frame: the POST sent to the first line of a game stream whose state's `rev`
  is at least the one the answer's frame carries, on the deciding seat's stream (`own`) and
  on the other seat's (`opponent`); a stream line can come before the POST's answer;
- the turns by the path that stored them (the warm copy or the locked path) and the
  collector's pauses, from each --metrics-url's /metrics (METRICS_ENABLED), whole run;
- server CPU per decision: the --server-pid processes (and their descendants: topology.sh's
  pid files hold the supervising shell) plus PostgreSQL and Redis, from /proc, over the
  window (scripts/load_live.py's `cpu_seconds`).
At the end: every game's `Turn` rows are read from DATABASE_URL: every acknowledged decision
must be stored as sent at the ply its frame named, every stored row acknowledged to its
seat, and every decision's frame seen on both seats' streams. Exit status 1 if not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from express_client import decide as express_decision
from live_client import choose as connect_decision
from live_client import insecure_context
from load_live import (
    CONNECT,
    EXPRESS,
    cpu_seconds,
    cpu_used,
    descendants,
    gc_pauses,
    latency,
    machine_cpu,
    stored_rows,
    turns_by_path,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "clients"))
from cargo_client.held import HeldState  # noqa: E402  (the reference client: pure)

RETRIED = ("stale_ply", "not_your_turn")  # the state moved on: wait for the stream's


# --- the pure parts (tests/api/test_load_bots.py) ---------------------------------------

@dataclass
class StreamLog:
    """When each line of one seat's game stream arrived, by its state's revision."""

    game: str
    seat: int
    arrivals: list[tuple[int, float]] = field(default_factory=list)

    def take(self, line: dict[str, Any], now: float) -> None:
        state = line.get("state")
        if isinstance(state, dict) and isinstance(state.get("rev"), int):
            self.arrivals.append((state["rev"], now))

    def first_at(self, rev: int) -> float | None:
        """When the first line at revision `rev` or later arrived (None: none did)."""
        return next((t for r, t in self.arrivals if r >= rev), None)


@dataclass
class Decision:
    """One decision posted: its game, seat, number and token, when it was sent and answered,
    and, accepted, the ply and revision its frame carries (None: refused, `code`)."""

    game: str
    seat: int
    number: int
    token: str
    sent: float
    answered: float = 0.0
    ply: int | None = None
    rev: int | None = None
    code: str | None = None


def decide(game_type: str, state: dict[str, Any], rng: random.Random) -> str | None:
    """A random legal decision for the seat whose state this is (None: nothing to decide)."""
    if game_type == EXPRESS:
        made = express_decision(state, rng)
        return None if made is None else made[1]
    return connect_decision(state, rng) if state.get("legal") else None


def frame_times(decisions: list[Decision], logs: list[StreamLog]
                ) -> tuple[list[float], list[float], int]:
    """Decision-to-frame for accepted decisions: on the deciding seat's stream, on the other
    seats' streams, and how many (decision, stream) pairs never saw the frame."""
    by_game: dict[str, list[StreamLog]] = {}
    for log in logs:
        by_game.setdefault(log.game, []).append(log)
    own: list[float] = []
    other: list[float] = []
    missing = 0
    for d in decisions:
        if d.rev is None:
            continue
        for log in by_game.get(d.game, []):
            at = log.first_at(d.rev)
            if at is None:
                missing += 1
            else:
                (own if log.seat == d.seat else other).append(max(0.0, at - d.sent))
    return own, other, missing


def check_stored(accepted: list[Decision], stored: list[tuple[int, int, str]]
                 ) -> tuple[list[dict[str, Any]], list[int]]:
    """One game's accepted decisions against its stored rows (ply, seat, token): those not
    stored as sent at their ply, and the stored plies no decision was acknowledged for."""
    by_ply = {ply: (seat, token) for ply, seat, token in stored}
    lost = [{"ply": d.ply, "seat": d.seat, "token": d.token, "stored": by_ply.get(d.ply)}
            for d in accepted if d.ply is None or by_ply.get(d.ply) != (d.seat, d.token)]
    acked = {d.ply for d in accepted}
    return lost, sorted(set(by_ply) - acked)


# --- setup -----------------------------------------------------------------------------

def make_accounts(pairs: int) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """(username, token) of each pair's two members, made in DATABASE_URL (migrated first):
    a fresh personal token each, the previous run's revoked."""
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from api import tokens
    from api.models import AccessToken
    from api.scopes import Scope

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    scopes = [Scope.READ, Scope.BOT_PLAY, Scope.CHALLENGE_WRITE]
    made = []
    for i in range(pairs):
        pair = []
        for side in ("a", "b"):
            user, _ = users.get_or_create(username=f"loadbot-{i}-{side}")
            AccessToken.objects.filter(user=user, name="bot load").delete()
            pair.append((user.username, tokens.create(user, "bot load", scopes, None).token))
        made.append((pair[0], pair[1]))
    return made


# --- the load ----------------------------------------------------------------------------

@dataclass
class Run:
    """What every seat shares: the decisions, the streams' logs, the games, the counts."""

    think: float
    game_type: str
    stop: asyncio.Event
    decisions: list[Decision] = field(default_factory=list)
    logs: list[StreamLog] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    finished: int = 0
    refusals: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    in_flight: int = 0
    thinking: set[asyncio.Task[None]] = field(default_factory=set)  # seats deciding now
    failures: list[str] = field(default_factory=list)


class Bot:
    """One BOT account's door: its token on one server."""

    def __init__(self, http: aiohttp.ClientSession, base: str, username: str, token: str
                 ) -> None:
        self.http, self.base, self.username = http, base.rstrip("/"), username
        self.headers = {"Authorization": f"Bearer {token}"}

    async def post(self, path: str, body: dict[str, Any] | None = None
                   ) -> tuple[int, dict[str, Any]]:
        async with self.http.post(self.base + path, json=body or {},
                                  headers=self.headers) as answer:
            return answer.status, await answer.json(content_type=None)

    async def upgrade(self) -> None:
        status, body = await self.post("/api/bot/account/upgrade")
        if status != 200 and body.get("code") != "already_bot":
            raise RuntimeError(f"{self.username}: upgrade refused {status} {body}")


async def start_game(a: Bot, b: Bot, game_type: str, options: dict[str, Any]) -> str:
    """`a` challenges `b` to a casual game of two, `b` accepts: the game's id."""
    status, made = await a.post(f"/api/challenge/{b.username}",
                                {"game": game_type, "options": options, "rated": False,
                                 "seats": 2})
    if status != 200:
        raise RuntimeError(f"challenge refused {status} {made}")
    status, taken = await b.post(f"/api/challenge/{made['id']}/accept")
    if status != 200 or not taken.get("game_id"):
        raise RuntimeError(f"accept refused {status} {taken}")
    return str(taken["game_id"])


class Seat:
    """One bot's seat of one game: follows the stream and decides after --think seconds."""

    def __init__(self, bot: Bot, game: str, run: Run, rng: random.Random) -> None:
        self.bot, self.game, self.run, self.rng = bot, game, run, rng
        self.held = HeldState()
        self.answered = -1
        self.thinking: asyncio.Task[None] | None = None
        self.log: StreamLog | None = None

    async def play(self) -> None:
        """Until the game ends (or the run's drain cancels it); a stream that closes before
        the end is opened again (its first line is the whole state)."""
        while not self.held.over:
            self.held.reset()
            try:
                async with self.bot.http.get(
                        f"{self.bot.base}/api/stream/game/{self.game}", headers={
                            **self.bot.headers, "Accept": "application/x-ndjson"}) as stream:
                    if stream.status != 200:
                        raise RuntimeError(f"stream {stream.status}: {await stream.text()}")
                    async for raw in stream.content:
                        if raw.strip():
                            self.take(json.loads(raw), time.perf_counter())
            except (TimeoutError, aiohttp.ClientError) as e:
                self.run.failures.append(f"{self.game} {self.bot.username}: {e!r}")
            if not self.held.over:
                self.run.reconnects += 1
                await asyncio.sleep(0.5)
        if self.thinking is not None:
            await asyncio.gather(self.thinking, return_exceptions=True)

    def take(self, line: dict[str, Any], now: float) -> None:
        self.held.take(line)
        if self.log is None and self.held.seat is not None:
            self.log = StreamLog(self.game, self.held.seat)
            self.run.logs.append(self.log)
        if self.log is not None:
            self.log.take(line, now)
        if self._owes() and (self.thinking is None or self.thinking.done()):
            self.thinking = asyncio.create_task(self.decide())
            self.run.thinking.add(self.thinking)
            self.thinking.add_done_callback(self.run.thinking.discard)

    def _owes(self) -> bool:
        """The seat is acting with a number it has not answered, and the run goes on."""
        return (self.held.must_decide and self.held.number > self.answered
                and not self.run.stop.is_set())

    async def decide(self) -> None:
        """Decide while the seat owes a decision: a line that came while the last one was
        posted (a Cargo Express seat's next step, its own frame) wakes no new task."""
        while self._owes():
            await asyncio.sleep(self.run.think)
            state, seat = self.held.state, self.held.seat
            if state is None or seat is None or not self._owes():
                return
            token = decide(self.run.game_type, state, self.rng)
            if token is None:
                return
            await self.post(seat, self.held.number, token)

    async def post(self, seat: int, number: int, token: str) -> None:
        self.answered = number
        d = Decision(self.game, seat, number, token, time.perf_counter())
        self.run.in_flight += 1
        try:
            status, body = await self.bot.post(f"/api/bot/game/{self.game}/decision",
                                               {"ply": number, "token": token})
        except (TimeoutError, aiohttp.ClientError) as e:  # unanswered: decided again
            self.run.failures.append(f"{self.game} {self.bot.username} decision: {e!r}")
            self.answered = number - 1
            return
        finally:
            self.run.in_flight -= 1
        d.answered = time.perf_counter()
        if status == 200:
            frame = body["frame"]
            d.ply, d.rev = int(frame["ply"]), int(frame["state"]["rev"])
        else:
            d.code = str(body.get("code", status))
            self.run.refusals[d.code] = self.run.refusals.get(d.code, 0) + 1
            if d.code in RETRIED:
                self.answered = number - 1
        self.run.decisions.append(d)


async def pair_games(a: Bot, b: Bot, run: Run, options: dict[str, Any],
                     rng: random.Random) -> None:
    """The pair's games, one after another, until the run stops."""
    while not run.stop.is_set():
        game = await start_game(a, b, run.game_type, options)
        run.games.append(game)
        seats = [Seat(bot, game, run, random.Random(rng.random())) for bot in (a, b)]
        await asyncio.gather(*(seat.play() for seat in seats))
        run.finished += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", action="append", help="server base URL (repeat for several)")
    ap.add_argument("--games", type=int, default=100, help="games at once (bot pairs)")
    ap.add_argument("--game", choices=(CONNECT, EXPRESS), default=CONNECT)
    ap.add_argument("--size", type=int, default=8, help="Cargo Connect's grid")
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to start every game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-pid", type=int, action="append", default=[],
                    help="an ASGI server process (or its supervisor) to count (repeat)")
    ap.add_argument("--metrics-url", action="append", default=[],
                    help="an ASGI process's own address, for its /metrics (repeat)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    accounts = make_accounts(args.games)  # Django's ORM: before the event loop
    print(f"setup: {2 * len(accounts)} members and tokens in {time.perf_counter() - t0:.1f} s "
          f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'SQLite')})", flush=True)
    return asyncio.run(load(args, accounts))


async def load(args: argparse.Namespace,
               accounts: list[tuple[tuple[str, str], tuple[str, str]]]) -> int:
    """The games, the window, the drain; then the report."""
    urls = args.url or ["http://127.0.0.1:8000"]
    options = {"size": args.size} if args.game == CONNECT else {}
    run = Run(args.think, args.game, asyncio.Event())
    rng = random.Random(args.seed)
    connector = aiohttp.TCPConnector(limit=0, ssl=insecure_context())
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout,
                                     read_bufsize=2 ** 20) as http:
        pairs = [(Bot(http, urls[i % len(urls)], *a), Bot(http, urls[i % len(urls)], *b))
                 for i, (a, b) in enumerate(accounts)]
        for a, b in pairs:
            await asyncio.gather(a.upgrade(), b.upgrade())
        tasks = []
        for a, b in pairs:
            tasks.append(asyncio.create_task(pair_games(a, b, run, options,
                                                        random.Random(rng.random()))))
            await asyncio.sleep(args.ramp / len(pairs))
        servers = descendants(args.server_pid)
        started = time.perf_counter()
        cpu_before, machine_before = cpu_seconds(servers), machine_cpu()
        client_before = time.process_time()
        await asyncio.sleep(args.duration)
        cpu_after, machine = cpu_seconds(servers), machine_cpu() - machine_before
        client_cpu = time.process_time() - client_before
        ended = time.perf_counter()
        run.stop.set()
        for _ in range(300):  # the decisions in flight answered, their lines delivered
            if run.in_flight == 0:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(2.0)
        for task in [*tasks, *run.thinking]:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    crashed = [r for r in results if isinstance(r, BaseException)
               and not isinstance(r, asyncio.CancelledError)]
    return report(args, urls, run, (started, ended), cpu_used(cpu_before, cpu_after),
                  client_cpu, machine, crashed)


def report(args: argparse.Namespace, urls: list[str], run: Run,
           window: tuple[float, float], cpu: dict[str, float], client_cpu: float,
           machine: float, crashed: list[BaseException]) -> int:
    started, ended = window
    elapsed = ended - started
    in_window = [d for d in run.decisions if started <= d.sent < ended]
    accepted = [d for d in in_window if d.rev is not None]
    own, other, unseen = frame_times(accepted, run.logs)
    rows = stored_rows(run.games)
    lost: list[dict[str, Any]] = []
    unacknowledged = 0
    every_accepted = [d for d in run.decisions if d.rev is not None]
    for game in run.games:
        bad, extra = check_stored([d for d in every_accepted if d.game == game], rows[game])
        lost.extend({"game": game, **b} for b in bad)
        unacknowledged += len(extra)
    _, _, unseen_all = frame_times(every_accepted, run.logs)
    counted = max(len(accepted), 1)
    print(json.dumps({
        "game": args.game, "games_at_once": args.games, "servers": urls,
        "think_s": args.think, "window_s": round(elapsed, 1),
        "games_started": len(run.games), "games_finished": run.finished,
        "decisions": len(accepted), "decisions_per_s": round(len(accepted) / elapsed, 1),
        "ack_ms": latency([d.answered - d.sent for d in accepted]),
        "decision_to_frame_ms": {"own": latency(own), "opponent": latency(other),
                                 "both": latency(own + other)},
        "frames_not_seen_in_window": unseen,
        "server_cpu_ms_per_decision": {
            "decisions_counted": len(accepted),
            **{name: round(1000 * s / counted, 3) for name, s in cpu.items()},
            "total": round(1000 * sum(cpu.values()) / counted, 3),
            "load_client": round(1000 * client_cpu / counted, 3),
        } if args.server_pid else None,
        "machine_cores": {"all": round(machine / elapsed, 2),
                          "ours": round((sum(cpu.values()) + client_cpu) / elapsed, 2),
                          "others": round((machine - sum(cpu.values()) - client_cpu)
                                          / elapsed, 2)},
        "turns_by_path": turns_by_path(args.metrics_url),
        "gc_pauses": gc_pauses(args.metrics_url),
        "refusals": run.refusals, "stream_reconnects": run.reconnects,
        "decisions_acknowledged": len(every_accepted),
        "stored_rows": sum(len(r) for r in rows.values()),
        "acknowledged_not_stored_as_sent": len(lost),
        "stored_not_acknowledged": unacknowledged,
        "frames_not_seen": unseen_all,
        "failures": run.failures[:5], "failure_count": len(run.failures),
        "crashed": [repr(c) for c in crashed[:5]],
        "lost": lost[:10],
    }, indent=2))
    return 1 if (lost or unacknowledged or unseen_all or crashed) else 0


if __name__ == "__main__":
    sys.exit(main())
