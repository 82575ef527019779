"""A scripted Cargo Express seat over a real WebSocket, for the load script
(scripts/load_live.py --game cargo-express).

`ExpressSeat` holds one seat's socket to one game. It decides only from its own frames'
`state.legal` (docs/live-protocol.md; the kind's `ExpressView.legal`), `think` seconds after a
decision becomes its own:

- a pick: one of `legal.picks`;
- planning: three cards of `legal.hand`, the usable ones (`legal.usable`) first, once (a seat
  whose `legal.committed` is set has planned; it does not replace its stack);
- the action phase, one step at a time: after a sign (`legal.sign`) one of its answers, else one
  of `legal.steps` (its paths are `legal.moves`), or `end` when `legal.end`, uniformly;
- a refit swap: one of `legal.swaps[*].token`.

Each decision carries the seat's own sequence number (`state.seqs[seat]`) in the frame's `ply`
field. The seat keeps the game's `turn` frames in ply order (a gap sends `sync`), measures each
of its decisions' acknowledgement (sent → the `turn` frame with its `seq` back on its socket)
and the other seats' delivery (sent → that frame on this socket), and checks, in every frame it
gets, that nothing of another seat's is in it before the game is over: another seat's `plan`,
`hand` and `open` are null in `state.areas`, `state.drawn` is null unless the turn is its own,
every event's `only` names it, `plan-chosen`, `contracts-offered` and `contracts-drawn` events
are its own, and another seat's plan decision shows at most one card (`"A2??"`, `"???"`).

No reconnection: a socket that drops fails the seat (the load script reports it).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from live_client import Held, Stats, _ws_url, insecure_context
from websockets.asyncio.client import connect
from websockets.typing import Origin

SECRET_EVENTS = ("plan-chosen", "contracts-offered", "contracts-drawn")


@dataclass
class ExpressStats(Stats):
    leaks: list[str] = field(default_factory=list)  # the first few, in words
    leak_count: int = 0
    own_secrets: int = 0  # frames that showed the receiving seat its own hand (the check reads)
    gaps: int = 0  # turn frames that arrived ahead of one not yet seen (repaired by sync)
    kinds: dict[str, int] = field(default_factory=dict)  # decisions acknowledged, by kind
    acks_by_kind: dict[str, list[float]] = field(default_factory=dict)  # their seconds


@dataclass
class Table:
    """What a game's seats share: when each decision was sent, by (seat, seq)."""

    id: str
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)
    outstanding: int = 0  # decisions sent, not yet acknowledged or refused
    top: int = -1  # the highest ply a seat of this table has seen a frame of
    over: bool = False


def decide(state: dict[str, Any], rng: random.Random) -> tuple[str, str] | None:
    """(kind, token) of this seat's decision from its state's `legal`, or None."""
    legal = state.get("legal") or {}
    if legal.get("picks"):
        return "pick", rng.choice(legal["picks"])
    if "hand" in legal:
        if legal.get("committed"):
            return None
        hand = list(legal["hand"])
        usable = [c for c in legal.get("usable", []) if c in hand]
        cards = rng.sample(usable, min(3, len(usable)))
        rest = [c for c in hand if c not in cards]
        rng.shuffle(rest)
        return "plan", "".join((cards + rest)[:3])
    if legal.get("swaps"):
        return "swap", rng.choice(legal["swaps"])["token"]
    if legal.get("sign"):
        return "step", rng.choice(legal["sign"])
    if "steps" in legal:
        moves = [m["path"] for m in legal.get("moves", [])]
        others = [s for s in legal["steps"] if s not in moves]
        options = ([rng.choice(moves)] if moves else []) + others \
            + (["end"] if legal.get("end") else [])
        if options:
            return ("end" if options == ["end"] else "step"), rng.choice(options)
    return None


class ExpressSeat:
    def __init__(self, table: Table, seat: int, session: str, base: str, *, think: float,
                 stats: ExpressStats, stop: asyncio.Event, rng: random.Random) -> None:
        self.table, self.seat, self.session, self.base = table, seat, session, base
        self.think, self.stats, self.stop, self.rng = think, stats, stop, rng
        self.ply = 0                         # the next turn frame expected, in ply order
        self.seen: set[int] = set()          # plies whose turn frame reached this socket
        self.state: dict[str, Any] | None = None  # the latest state, in ply order
        self.acked: dict[int, tuple[int, str]] = {}  # seq -> (ply, token), acknowledged
        self.sent: dict[int, str] = {}       # seq -> token, every decision sent
        self.pending: tuple[int, str, str] | None = None  # (seq, token, kind) in flight
        self.syncing = False
        self.over = False
        self.refused = 0                     # decisions answered with an error
        self._think: asyncio.Task[None] | None = None
        self._ws: Any = None

    async def play(self) -> None:
        async with connect(_ws_url(self.base, self.table.id), origin=Origin(self.base),
                           additional_headers={"Cookie": f"sessionid={self.session}"},
                           ssl=insecure_context() if self.base.startswith("https") else None,
                           compression=None, max_size=2**22, open_timeout=30) as ws:
            self._ws = ws
            closing = asyncio.create_task(self._close_when_stopped(ws))
            held = Held()
            try:
                async for text in ws:
                    await self._handle(held.read(text), time.perf_counter())
                    if self.over:
                        return
            finally:
                closing.cancel()
                if self._think is not None:
                    self._think.cancel()

    async def _close_when_stopped(self, ws: Any) -> None:
        await self.stop.wait()
        # Every decision sent at this table acknowledged, and every frame any seat of it saw
        # seen here too (at most 20 s).
        deadline = time.perf_counter() + 20
        while time.perf_counter() < deadline and (
                self.table.outstanding > 0 or self.ply <= self.table.top or self.syncing):
            await asyncio.sleep(0.05)
        await ws.close()

    async def _send(self, frame: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(frame))

    def _leak(self, what: str) -> None:
        self.stats.leak_count += 1
        if len(self.stats.leaks) < 10:
            self.stats.leaks.append(f"{self.table.id} seat {self.seat}: {what}")

    def _check(self, state: dict[str, Any], events: list[dict[str, Any]],
               frame: dict[str, Any] | None) -> None:
        """Nothing of another seat's in what this seat was sent (before the game is over)."""
        if state.get("over"):
            return
        me = self.seat
        if state.get("viewer") != me:
            self._leak(f"a state for viewer {state.get('viewer')!r}")
        areas = state.get("areas")
        if not isinstance(areas, list) or len(areas) != len(state.get("seats", [])):
            self._leak("a state without every seat's area")  # the check would see nothing
            areas = []
        for s in areas:
            if s.get("seat") == me and s.get("hand") is not None:
                self.stats.own_secrets += 1
            if s.get("seat") != me and any(s.get(k) is not None for k in ("plan", "hand",
                                                                           "open")):
                self._leak(f"seat {s.get('seat')}'s plan, hand or open contracts at ply "
                           f"{state.get('ply')}")
        turn = state.get("turn") or {}
        if state.get("drawn") is not None and turn.get("seat") != me:
            self._leak(f"seat {turn.get('seat')}'s drawn contracts")
        for e in events:
            only = e.get("only")
            if only is not None and me not in only:
                self._leak(f"an event for {only}: {e.get('kind')}")
            if e.get("kind") in SECRET_EVENTS and e.get("seat") != me:
                self._leak(f"seat {e.get('seat')}'s {e.get('kind')}")
        if frame is not None and frame.get("seat") != me and any(
                e.get("kind") == "plan-committed" for e in events) \
                and frame.get("token", "").count("?") < 2:
            self._leak(f"seat {frame.get('seat')}'s plan {frame.get('token')!r}")

    async def _handle(self, frame: dict[str, Any], now: float) -> None:
        kind = frame["type"]
        if kind == "state":
            state = frame["state"]
            self._check(state, [], None)
            self.syncing = False
            ply = state["ply"]
            if ply > self.ply:  # a state ahead of the frames (after a refusal)
                self.syncing = True
                self.stats.syncs += 1
                await self._send({"type": "sync", "after": self.ply})
                return
            if ply == self.ply:
                self.state = state
                self._consider()
        elif kind == "turn":
            p = frame["ply"]
            self._check(frame["state"], frame.get("events", []), frame)
            self.seen.add(p)
            self.table.top = max(self.table.top, p)
            if p < self.ply:
                return  # a duplicate (catch-up)
            if p > self.ply:  # a gap: ask for what we missed
                self.stats.gaps += 1
                if not self.syncing:
                    self.syncing = True
                    self.stats.syncs += 1
                    await self._send({"type": "sync", "after": self.ply})
                return
            self.ply += 1
            self.state = frame["state"]
            seat, seq = frame["seat"], frame.get("seq")
            sent = self.table.sent_at.get((seat, seq)) if isinstance(seq, int) else None
            if seat == self.seat:
                pending = self.pending
                if pending is not None and pending[0] == seq and pending[1] == frame["token"]:
                    if sent is not None:
                        self.stats.acks.append(now - sent)
                        self.stats.acks_by_kind.setdefault(pending[2], []).append(now - sent)
                    self.stats.turns += 1
                    self.stats.kinds[pending[2]] = self.stats.kinds.get(pending[2], 0) + 1
                    self.acked[seq] = (p, frame["token"])
                    self.pending = None
                    self.table.outstanding -= 1
            elif sent is not None:
                self.stats.deliveries.append(now - sent)
            self._consider()
        elif kind == "error":
            code = frame.get("code", "?")
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1
            if self.pending is not None:  # refused: choose again from the next state
                self.pending = None
                self.refused += 1
                self.table.outstanding -= 1
        elif kind in ("resigned", "ended", "voided"):
            self.state = frame["state"]
            self._consider()

    def _consider(self) -> None:
        state = self.state
        if state is None:
            return
        if state.get("over"):
            self.over = self.table.over = True
            return
        if self.pending is not None or self.stop.is_set():
            return
        if (self._think is None or self._think.done()) and decide(state, self.rng):
            self._think = asyncio.create_task(self._decide())

    async def _decide(self) -> None:
        await asyncio.sleep(self.think)
        state = self.state  # the latest (in planning others commit meanwhile)
        if self.stop.is_set() or self.pending is not None or state is None \
                or self.syncing or state.get("over"):
            return
        chosen = decide(state, self.rng)
        if chosen is None:
            return
        kind, token = chosen
        seq = state["seqs"][self.seat]
        self.pending = (seq, token, kind)
        self.sent[seq] = token
        self.table.outstanding += 1
        self.table.sent_at[self.seat, seq] = time.perf_counter()
        await self._send({"type": "turn", "ply": seq, "token": token})
