"""What every fault trial shares: a trial's result (`Trial`: its figures and failed
checks), the table of scripted players of several games through nginx (`Table`, with
scripts/live_client.py's players) and the check of what they played (`check_play`), the
wait for a player's next frame, fresh game sockets, and the worker log's sign that it took
a CargoBot task."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections import Counter
from typing import Any

from live_client import GameRun, Player, Stats, check_game, insecure_context, stored_turns
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from .servers import Topology

THINK = 0.3  # seconds a scripted player waits before its turn
PING_EVERY = 5.0  # seconds between a player's pings (the server pushes missed turns on one)
BOT_TASK_RECEIVED = re.compile(r"Task games\.bot_turn\[[^]]+\] received")


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


async def first_frame_after(player: Player, plies: int, since: float,
                            timeout: float) -> float | None:
    """Seconds after `since` until `player` knows more than `plies` turns, or None."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if player.ply > plies:
            return round(time.perf_counter() - since, 2)
        await asyncio.sleep(0.02)
    return None


def bot_task_received(top: Topology, after: int) -> bool:
    return BOT_TASK_RECEIVED.search(top.log("worker"), after) is not None


async def fresh_sockets(top: Topology, games: list[dict[str, str]], count: int,
                        timeout: float = 5.0, outcomes: Counter[str] | None = None) -> int:
    """How many of `count` new game sockets (members' sessions, spread over the games)
    open and get their first `state` frame within `timeout` seconds. `outcomes`, if given,
    counts how each attempt ended: "state", "timeout", "closed CODE", or the error's name."""

    def ended(how: str, ok: bool) -> bool:
        if outcomes is not None:
            outcomes[how] += 1
        return ok

    async def one(n: int) -> bool:
        game = games[n % len(games)]
        url = top.base.replace("https", "wss", 1) + f"/ws/game/{game['id']}/"
        phase, kind = "opening", None
        try:
            async with asyncio.timeout(timeout):
                async with ws_connect(url, origin=Origin(top.base), ssl=insecure_context(),
                                      additional_headers={
                                          "Cookie": f"sessionid={game['blue']}"}) as ws:
                    phase = "open"
                    kind = json.loads(await ws.recv()).get("type")
                    phase = "closing"
            return ended("state" if kind == "state" else f"first frame {kind}",
                         kind == "state")
        except TimeoutError:
            if kind == "state":  # it opened: only its closing handshake ran out of time
                return ended("state", True)
            return ended(f"timeout ({phase})", False)
        except ConnectionClosed as closed:
            return ended(f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}",
                         False)
        except Exception as error:
            return ended(type(error).__name__, False)

    return sum(await asyncio.gather(*(one(n) for n in range(count))))
