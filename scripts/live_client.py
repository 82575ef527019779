"""A scripted player of docs/live-protocol.md over a real WebSocket, for the load script
(scripts/load_live.py) and the fault trials (scripts/faults.py).

`Player` holds one seat's socket to one game. It sends a random legal turn `think` seconds
after it sees it is its turn, keeps the turns it knows in order (from `turn` frames, and
from `sync` when it sees a gap), and measures each of its turns' acknowledgement and the
opponent's delivery. With `reconnect`, a socket that drops is opened again (backoff with
jitter, like the page's `static/js/live/socket.js`): on open it sends `sync` with the ply it
has and sends its unacknowledged turn again, which the server answers with the original
frame if it had applied it (a turn is never applied twice).

`check_game` compares what the players saw and were acknowledged with the stored turns.
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from games.frames.diffs import apply  # noqa: E402  (pure: no Django)

REFUSED_CLOSE_CODES = range(4400, 4500)  # the server refuses this socket: do not reconnect


class Held:
    """The state a socket's client holds, as the page's socket.js keeps it: a frame that
    carries a diff (`base`, `diff`: docs/live-protocol.md, "Frames that carry what changed")
    gets its `state` rebuilt from it; every frame with a whole state sets it."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def read(self, text: str) -> dict[str, Any]:
        frame = json.loads(text)
        if "diff" in frame:
            if self.state is None or self.state.get("rev") != frame["base"]:
                raise ValueError(f"a diff from rev {frame['base']}, the client holds "
                                 f"{None if self.state is None else self.state.get('rev')}")
            self.state = apply(self.state, frame.pop("diff"))
            del frame["base"]
            frame["state"] = self.state
        elif isinstance(frame.get("state"), dict):
            self.state = frame["state"]
        return frame


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    turns: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    syncs: int = 0
    reconnects: int = 0
    resent: int = 0


@dataclass
class GameRun:
    """What both players of a game share: when each ply was sent (for delivery latency)."""

    id: str
    sent_at: dict[int, float] = field(default_factory=dict)
    over: bool = False


def choose(state: dict[str, Any], rng: random.Random) -> str:
    token = rng.choice(state["legal"])
    option = state["options"].get(token)
    if option and option["unloads"] and rng.random() < 0.8:
        token += "+" + rng.choice(option["unloads"])[0]
    return token


def insecure_context() -> ssl.SSLContext:
    """TLS without verification: the trial topology's certificate is self-signed."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _ws_url(base: str, game_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/game/{game_id}/"


class Player:
    def __init__(self, run: GameRun, side: str, session: str, base: str, *, think: float,
                 stats: Stats, stop: asyncio.Event, rng: random.Random,
                 reconnect: bool = False, ping_every: float = 25.0) -> None:
        self.run, self.side, self.session, self.base = run, side, session, base
        self.think, self.stats, self.stop, self.rng = think, stats, stop, rng
        self.reconnect, self.ping_every = reconnect, ping_every
        self.turns: list[str] = []          # the game's turns as this player knows them
        self.frames: set[int] = set()       # plies whose `turn` frame reached this player
        self.acked: dict[int, str] = {}     # this player's turns, acknowledged
        self.sent: dict[int, str] = {}      # every turn this player sent, by ply
        self.pending: tuple[int, str] | None = None  # sent, not yet acknowledged
        self.over = False
        self.bot_to_move = False            # the last state said a bot seat is to move
        self.opened = asyncio.Event()       # the first `state` frame arrived
        self.closed_by: int | None = None   # the close code that ended it, if refused
        self.drops: list[float] = []        # when each drop happened (perf_counter)
        self.reopens: list[float] = []      # when the socket opened again after each drop
        self._think: asyncio.Task | None = None
        self._ws: Any = None

    @property
    def ply(self) -> int:
        return len(self.turns)

    async def play(self) -> None:
        """Play until the game ends or `stop` is set (then wait for outstanding frames)."""
        attempt = 0
        while True:
            try:
                async with connect(_ws_url(self.base, self.run.id), origin=Origin(self.base),
                                   additional_headers={"Cookie": f"sessionid={self.session}"},
                                   ssl=insecure_context() if self.base.startswith("https")
                                   else None,
                                   compression=None, max_size=2**22, open_timeout=30) as ws:
                    self._ws = ws
                    if self.drops and len(self.reopens) < len(self.drops):
                        self.reopens.append(time.perf_counter())
                        await self._send({"type": "sync", "after": self.ply})
                        if self.pending is not None:
                            self.stats.resent += 1
                            await self._send({"type": "turn", "ply": self.pending[0],
                                              "token": self.pending[1]})
                    attempt = 0
                    finished = await self._serve(ws)
                    if finished:
                        return
                    code = ws.close_code
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                if not self.reconnect:
                    raise
                code = getattr(getattr(error, "rcvd", None), "code", None)
            finally:
                self._ws = None
            if code in REFUSED_CLOSE_CODES:
                self.closed_by = code
                return
            if self.stop.is_set() and self.pending is None:
                return
            if not self.reconnect:
                raise ConnectionError(f"{self.side}'s socket closed (code {code})")
            if len(self.drops) == len(self.reopens):
                self.drops.append(time.perf_counter())
                self.stats.reconnects += 1
            ceiling = min(2.0, 0.2 * 2 ** attempt)
            attempt += 1
            await asyncio.sleep(ceiling / 2 + self.rng.random() * ceiling / 2)

    async def _send(self, frame: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(frame))

    async def _serve(self, ws: Any) -> bool:
        """Handle frames until the game is over or we close after `stop` (True), or the
        socket drops (False)."""
        closing = asyncio.create_task(self._close_when_stopped(ws))
        pinger = asyncio.create_task(self._ping(ws))
        held = Held()
        try:
            async for text in ws:
                await self._handle(held.read(text), time.perf_counter())
                if self.over:
                    return True
            return closing.done()
        finally:
            closing.cancel()
            pinger.cancel()
            if self._think is not None:
                self._think.cancel()

    async def _ping(self, ws: Any) -> None:
        while True:
            await asyncio.sleep(self.ping_every)
            await ws.send(json.dumps({"type": "ping"}))

    async def _close_when_stopped(self, ws: Any) -> None:
        await self.stop.wait()
        # Let every turn sent in this game, and a bot's answer, reach this player (at most
        # 15 s).
        deadline = time.perf_counter() + 15
        while time.perf_counter() < deadline and (
                self.pending is not None or self.ply <= max(self.run.sent_at, default=-1)
                or self.bot_to_move):
            await asyncio.sleep(0.05)
        await ws.close()

    async def _handle(self, frame: dict[str, Any], now: float) -> None:
        kind = frame["type"]
        if kind == "state":
            self.opened.set()
            state = frame["state"]
            if len(state["turns"]) > self.ply and state["turns"][:self.ply] == self.turns:
                self.turns = list(state["turns"])
            self._acknowledge_from_turns()
            self._consider(state)
        elif kind == "turn":
            p = frame["ply"]
            self.frames.add(p)
            if p > self.ply:  # a gap: ask for what we missed
                self.stats.syncs += 1
                await self._send({"type": "sync", "after": self.ply})
                return
            if p == self.ply:
                self.turns.append(frame["token"])
            sent = self.run.sent_at.get(p)
            if frame["side"] == self.side:
                if p not in self.acked and self.sent.get(p) == frame["token"]:
                    if sent is not None:
                        self.stats.acks.append(now - sent)
                    self.stats.turns += 1
                    self.acked[p] = frame["token"]
                if self.pending is not None and self.pending[0] == p:
                    self.pending = None
            elif sent is not None and p == self.ply - 1:
                self.stats.deliveries.append(now - sent)
            self._consider(frame["state"])
        elif kind == "resigned":
            self.over = self.run.over = True
        elif kind == "error":
            code = frame.get("code", "?")
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            if code != "stale_ply":  # refused (or the database did not answer): like the
                self.pending = None  # page, choose again from the next state

    def _acknowledge_from_turns(self) -> None:
        """A turn of ours the state shows applied was acknowledged (its frame was missed,
        or its answer was an error sent when the database failed at commit)."""
        for p, token in self.sent.items():
            if p < self.ply and p not in self.acked and self.turns[p] == token:
                self.stats.turns += 1
                self.acked[p] = token
        if self.pending is not None and self.pending[0] < self.ply:
            self.pending = None

    def _consider(self, state: dict[str, Any]) -> None:
        if state["ply"] == self.ply:
            mover = state.get("players", {}).get(state.get("to_move") or "", {})
            self.bot_to_move = not state["over"] and bool(mover.get("bot"))
        if state["over"]:
            self.over = self.run.over = True
            return
        if state["ply"] != self.ply or state["to_move"] != self.side:
            return
        if self.pending is None and not self.stop.is_set():
            if self._think is None or self._think.done():
                self._think = asyncio.create_task(self._take_turn(state))

    async def _take_turn(self, state: dict[str, Any]) -> None:
        await asyncio.sleep(self.think)
        if self.stop.is_set() or state["ply"] != self.ply or self.pending is not None:
            return
        token = choose(state, self.rng)
        self.pending = (state["ply"], token)
        self.sent[state["ply"]] = token
        self.run.sent_at[state["ply"]] = time.perf_counter()
        try:
            await self._send({"type": "turn", "ply": state["ply"], "token": token})
        except ConnectionClosed:  # it is sent again when the socket reopens
            pass


def stored_turns(base: str, game_id: str) -> list[str]:
    """The game's stored turns, read over HTTP (`/g/<id>/events?after=0`)."""
    context = insecure_context() if base.startswith("https") else None
    with urllib.request.urlopen(f"{base}/g/{game_id}/events?after=0", timeout=30,
                                context=context) as response:
        return json.load(response)["state"]["turns"]


def check_game(stored: list[str], players: list[Player]) -> dict[str, Any]:
    """Lost: an acknowledged turn not stored as sent. Unacknowledged: stored turns no player
    was acknowledged. Behind: a player whose view of the game differs from the stored
    turns at the end."""
    acked: dict[int, str] = {}
    for player in players:
        acked.update(player.acked)
    lost = sum(1 for p, token in acked.items() if p >= len(stored) or stored[p] != token)
    return {"stored": len(stored), "acknowledged": len(acked), "lost": lost,
            # stored plies no player was acknowledged: a bot seat's, or (between people) a
            # turn applied without its sender knowing, which must not happen
            "unacknowledged": len(stored) - len(acked),
            "behind": sum(1 for player in players if player.turns != stored)}
