"""Cargo Express as a game kind: the site's only door to `express/` (issue #26).

Seats are 0-based here as everywhere on the site; the engine numbers them 1..n. A site
decision is one of (docs/live-protocol.md, "Cargo Express"):

- a pick (`Lo`), a swap (`R5`): the engine's tokens;
- a plan (`A2A1A3`): kept by the kind, not the engine, while planning is open, so that a seat
  may replace it until every active seat has committed (web.md 3.2); then all go to the
  engine in turn order at once;
- in the action phase, the turn of the seat to move **a step at a time** (web.md 3.3): `^`,
  a path, an action (`a12`, `u`, `x`, `d23`, `o7=nrg`, `e>`; a sign is `s`, which shows that
  seat alone the two cards drawn, then `s1`/`s2`/`s0`), fulfils (`f06`), `end`. Several steps
  may go in one decision joined by `.` (a bot's or a timed-out seat's turn), and a whole turn
  `CARD:STEPS` may be sent before any step of it. Each step is checked against the engine's
  legal turns of the turn's start (`express.legal_turns`: the steps so far must begin one of
  them) and applied by the engine (`express.moves.play_partial`); the turn ends at `end` or by
  itself when no step may follow, and the engine then plays it whole (the record's token).
  A turn that is lost (an unusable card, no path) or a dormant seat's is played by the kind
  itself, and the next turn's card is revealed to everyone at once.

The row's cache (never sent anywhere) is the engine's full position at the start of the turn
in progress, then a line of JSON: the seed, each seat's count of decisions, the steps of the
turn in progress, the plans committed while planning is open, each seat's stack this round,
and where each plan token stands in the decisions with how many of its cards are revealed
(what `tokens_for` hides). The start (`Game.start`) has the same form.

What a viewer sees is built for that viewer from the engine's public form (rules 72–76):
another seat's stack, hand, open contracts and drawn cards, the bag and deck order and the
seed never enter a spectator's or another seat's state, event or token; once the game is over
everything is public.
"""

from __future__ import annotations

import functools
import hashlib
import random
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from express import ExpressError, Position, format_position, parse_position
from express import Game as EngineGame
from express.bot import LEVELS, choose
from express.decisions import parse_plan
from express.determinize import determinize
from express.events import Event as EngineEvent
from express.events import GameOver
from express.moves import legal, legal_turns, movements, play, play_partial, walk_path
from express.position import start_position, tunnel_twins
from express.rules import (
    CAPACITY,
    CARD_STEPS,
    CARDS,
    CHARACTERS,
    COLOURS,
    CONTRACTS,
    CURRENT_RULES,
    ENGINES,
    RULES_VERSIONS,
)

from . import (
    EVERYTHING,
    Event,
    GameKind,
    KindError,
    LiveGame,
    Result,
    Viewer,
    register,
)

SEAT_KEYS = ("seat1", "seat2", "seat3", "seat4")
CHARACTER_NAMES = {"Dr": "Driver", "En": "Engineer", "Lo": "Logistician", "Ma": "Manager",
                   "Me": "Mechanic"}
COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "n": "brown", "w": "white"}
PHASES = {"c": "pick", "p": "plan", "a": "turn", "r": "swap", "o": "over"}
PLAN = re.compile(r"(?:[ABC][1-6]|D){3}")
PATH = re.compile(r"[<>t]+\*?")
TIMEOUT_PICKS = ("Lo", "En", "Me", "Dr", "Ma")  # web.md 4: a timed-out pick's fallback
BOT_VERSION = "express-1"
# A whole turn's token is at most about 40 characters (`C6:^.>>t<<<*.f01.f03.s1.f16`); a
# plan 6, a step 8.
MAX_TOKEN = 64
MAX_QUEUE = 12  # steps in a pre-turn: a whole turn is at most about 8
# Events that show something new partway through a turn (a refill's cars, the bag running
# dry, the contracts a sign draws): a queued turn stops after the step that made one.
REVEALING = frozenset({"refilled", "bag-empty", "last-round", "contracts-offered",
                       "contracts-drawn"})


def seed_hash(game_id: str, seed: str) -> str:
    """web.md 5: published at the start, checked against the seed after the game."""
    return hashlib.sha256(f"cargo-express:{game_id}:{seed}".encode()).hexdigest()


def plan_salt(seed: str, round_: int, seat: int) -> str:
    """web.md 2: the salt of `seat`'s (0-based) plan of a round, from the game's secret
    seed: unknown to everyone until the seed is published after the game (the full
    record's `Seed`), then anyone's to recompute."""
    text = f"cargo-express-plan-salt:{seed}:{round_}:{seat + 1}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def plan_hash(seat: int, round_: int, plan: str, salt: str) -> str:
    """web.md 2: sha256 of "<seat 1..n>:<round>:<plan>:<salt>", published when planning
    closes, so that anyone may check after the game that no plan changed after closing."""
    return hashlib.sha256(f"{seat + 1}:{round_}:{plan}:{salt}".encode()).hexdigest()


@dataclass
class Meta:
    """The kind's part of the cache beside the engine position (see the module's doc)."""

    seed: str
    seqs: list[int]
    steps: list[str] = field(default_factory=list)
    pending: list[str | None] = field(default_factory=list)
    stacks: list[list[str]] = field(default_factory=list)
    # [decision index, seat, cards revealed] of each plan token; -1: replaced, never shown
    plans: list[list[int]] = field(default_factory=list)
    # [round, event] of every event of this round and the last (each with its audience,
    # `only`): what `ExpressView.log` gives each viewer as much of as it may see
    log: list[list[Any]] = field(default_factory=list)

    @classmethod
    def load(cls, text: str) -> Meta:
        return cls(**orjson.loads(text))

    def dump(self) -> str:
        """As compact JSON (by hand: `dataclasses.asdict` copies deeply, and every decision
        writes the cache; orjson: the log makes it about 13 KB by a round's end, and
        `json.dumps` was 5 % of a decision's CPU under load, py-spy 2026-12-03)."""
        return orjson.dumps({"seed": self.seed, "seqs": self.seqs, "steps": self.steps,
                             "pending": self.pending, "stacks": self.stacks,
                             "plans": self.plans, "log": self.log}).decode()


def _event(e: EngineEvent, ply: int) -> Event:
    """An engine event for the site: seats 0-based (None: no seat), `only` a list of seats."""
    d: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v
                         for k, v in e.as_dict().items()}
    d["seat"] = e.seat - 1 if e.seat else None
    d["only"] = None if e.only is None else [s - 1 for s in e.only]
    if "stationmaster" in d:
        d["stationmaster"] -= 1
    if d["kind"] == "over":
        d["result"] = dict(d["result"], winners=[s - 1 for s in d["result"]["winners"]])
    d["ply"] = ply
    return d


def _steps_of(turn: str) -> tuple[str, ...]:
    """A written turn's steps as a seat sends them: the sign split in two (`s`, `s1`)."""
    out: list[str] = []
    for step in turn.partition(":")[2].split("."):
        if step[0] == "s":
            out.append("s")
        out.append(step)
    return tuple(out)


def _until_sign(steps: tuple[str, ...]) -> tuple[str, ...]:
    """A turn's steps up to a sign's `s`: the choice after it needs the cards drawn."""
    return steps[:steps.index("s") + 1] if "s" in steps else steps


def _written(steps: list[str]) -> list[str]:
    """Steps as the engine writes them: a sign's `s` goes (a pending one too)."""
    return [s for s in steps if s != "s"]


class ExpressGame(LiveGame):
    """One Cargo Express game: the engine's position at the start of the turn in progress
    and the kind's `Meta`. `engine` is the engine's whole game when this one was replayed
    from the start (records need it); a resumed game has none."""

    def __init__(self, p: Position, meta: Meta, tokens: list[str],
                 engine: EngineGame | None = None) -> None:
        self.p = p
        self.meta = meta
        self.tokens = tokens
        self.engine = engine
        self._turns: list[tuple[str, ...]] | None = None
        self._partial: tuple[tuple[str, ...], Position, list[EngineEvent]] | None = None
        self._changes = 0  # decisions and resignations applied: the views' memo's key
        self._memo: tuple[int, dict[Any, Any]] = (-1, {})

    def shared(self, key: Any, make: Callable[[], Any]) -> Any:
        """A part of the viewers' states that is the same for each (a frame is built for
        every seat and the spectators, games.audiences), made once per change of the game
        and kept until the next `apply` or `resign`. Callers never mutate what it gives."""
        changes, memo = self._memo
        if changes != self._changes:
            memo = {}
            self._memo = (self._changes, memo)
        if key not in memo:
            memo[key] = make()
        return memo[key]

    @property
    def n(self) -> int:
        return self.p.n

    # --- who decides ---------------------------------------------------------------------

    def acting(self) -> list[int]:
        p = self.p
        if p.phase == "c":
            return [p.seat_to_pick() - 1]
        if p.phase == "p":
            return [s for s in range(self.n) if not p.resigned[s] and
                    self.meta.pending[s] is None]
        if p.phase == "a":
            return [p.turn_seat() - 1]
        if p.phase == "r":
            return [p.sm - 1]
        return []

    def deciding(self, seat: int) -> bool:
        """In planning a committed seat may still replace its stack."""
        if self.p.phase == "p":
            return not self.p.resigned[seat]
        return seat in self.acting()

    def mid_decision(self, seat: int) -> bool:
        """`seat` has sent steps of a turn it has not ended: its clock runs on, uncharged."""
        return self.p.phase == "a" and bool(self.meta.steps) and \
            self.p.turn_seat() - 1 == seat

    def sequence(self, seat: int) -> int:
        return self.meta.seqs[seat]

    # --- applying decisions --------------------------------------------------------------

    def apply(self, seat: int, token: str) -> list[Event]:
        if self.over:
            raise KindError("the game is over")
        if not self.deciding(seat):
            raise KindError(f"{SEAT_KEYS[seat]} has no decision to make now")
        self._changes += 1  # before: a refused decision may have changed part of the game
        ply = self.ply
        phase = self.p.phase
        try:
            if phase == "p":
                events = self._plan(seat, token, ply)
            elif phase == "a":
                events = self._turn(seat, token, ply)
            else:
                events = self._engine_play(token, ply)
                if phase == "r":
                    self.meta.stacks = [[] for _ in range(self.n)]
        except ExpressError as e:
            raise KindError(str(e)) from None
        self.tokens.append(token)
        self.meta.seqs[seat] += 1
        self._logged(events)
        return events

    def _logged(self, events: list[Event]) -> None:
        """Keep a decision's events for the log of the round (`ExpressView.log`), each
        with the round it belongs to (a `phase` event begins a round); rounds before the
        last one are dropped."""
        log = self.meta.log
        at = log[-1][0] if log else self.p.round
        for e in events:
            if e["kind"] == "phase":
                at = e["round"]
            log.append([at, e])
        if log and log[0][0] < at - 1:
            self.meta.log = [entry for entry in log if entry[0] >= at - 1]

    def _engine_play(self, token: str, ply: int, seat: int | None = None) -> list[Event]:
        """A decision the engine applies whole (a pick, a swap, a whole turn)."""
        events: list[EngineEvent] = []
        q = self.p.copy()
        play(q, token, seat, events)
        if self.engine is not None:
            self.engine.play(token, seat)
        self._moved_to(q, events)
        return [_event(e, ply) for e in events]

    def _moved_to(self, q: Position, events: list[EngineEvent]) -> None:
        if q.over and not self.p.over:
            events.append(GameOver(0, result=q.result().as_dict()))
        self.p = q
        self._turns = self._partial = None

    def _plan(self, seat: int, token: str, ply: int) -> list[Event]:
        if not PLAN.fullmatch(token):
            raise KindError(f"{token!r}: a plan is three different cards, top first "
                            f"(A2A1A3)")
        parse_plan(token)  # three different cards
        meta = self.meta
        replaced = meta.pending[seat] is not None
        self._withdraw_plan(seat)
        meta.pending[seat] = token
        meta.plans.append([len(self.tokens), seat, 0])
        events: list[Event] = [
            {"kind": "plan-committed", "seat": seat, "replaced": replaced, "only": None,
             "ply": ply},
            {"kind": "plan-chosen", "seat": seat, "cards": _cards(token), "only": [seat],
             "ply": ply},
        ]
        return events + self._close_planning(ply)

    def _withdraw_plan(self, seat: int) -> None:
        """The seat's plan committed while planning is open is replaced or taken back: its
        token is never revealed (`tokens_for` shows it as `???`)."""
        pending = self.meta.pending[seat]
        if pending is None:
            return
        for entry in self.meta.plans:
            if entry[1] == seat and entry[2] == 0 and self.tokens[entry[0]] == pending:
                entry[2] = -1

    def _close_planning(self, ply: int) -> list[Event]:
        """Every active seat has committed: the plans go to the engine in turn order."""
        p, meta = self.p, self.meta
        if p.phase != "p" or any(not p.resigned[s] and meta.pending[s] is None
                                 for s in range(self.n)):
            return []
        hashed: Event = {
            "kind": "plan-hashes", "seat": None, "round": p.round, "only": None, "ply": ply,
            "hashes": [None if plan is None else
                       plan_hash(s, p.round, plan, plan_salt(meta.seed, p.round, s))
                       for s, plan in enumerate(meta.pending)]}
        q = p.copy()
        engine_events: list[EngineEvent] = []
        for s1 in q.order():
            plan = meta.pending[s1 - 1]
            if plan is None:
                continue
            play(q, plan, s1, engine_events)
            if self.engine is not None:
                self.engine.commit(s1, plan)
            meta.stacks[s1 - 1] = _cards(plan)
        meta.pending = [None] * self.n
        self._moved_to(q, engine_events)
        events = [_event(e, ply) for e in engine_events
                  if e.kind not in ("plan-committed", "plan-chosen")]
        return [hashed, *events, *self._advance(ply)]

    # --- the action phase, a step at a time ------------------------------------------------

    def _legal_steps(self) -> list[tuple[str, ...]]:
        """The legal turns of the turn in progress, as steps (from its start)."""
        if self._turns is None:  # until the position changes (`_moved_to`)
            self._turns = [_steps_of(t) for t in legal_turns(self.p)]
        return self._turns

    def _next_steps(self, steps: list[str]) -> list[str]:
        n = len(steps)
        prefix = tuple(steps)
        return sorted({t[n] for t in self._legal_steps() if len(t) > n and t[:n] == prefix})

    def _complete(self, steps: list[str]) -> bool:
        return tuple(steps) in set(self._legal_steps())

    def _canonical(self, steps: list[str], step: str) -> str:
        """A path the seat wrote another way (or a step as sent): its canonical form, the
        first legal path to the same space with the same use of the Driver."""
        if not PATH.fullmatch(step) or any(s != "^" for s in steps) or \
                step in self._next_steps(steps):
            return step
        q = self.partial(steps)[0]
        seat = q.turn_seat()
        driver = step.endswith("*")
        walked = walk_path(q, seat, step.rstrip("*"))
        if isinstance(walked, str):
            raise KindError(f"{step!r}: {walked}")
        card = q.plans[seat - 1][0]
        if len(step) - driver not in CARD_STEPS[card]:
            raise KindError(f"{step!r}: {card} moves {' or '.join(map(str, CARD_STEPS[card]))}"
                            f" spaces")
        for end, path, uses in movements(q, seat, card):
            if end == walked[0] and uses == driver:
                return path + ("*" if uses else "")
        return step

    def partial(self, steps: list[str] | None = None
                ) -> tuple[Position, list[EngineEvent]]:
        """The position with the turn in progress played as far as `steps` (the meta's by
        default), and the events that took it there; the start itself outside a turn."""
        steps = self.meta.steps if steps is None else steps
        if self.p.phase != "a":
            return self.p, []
        key = tuple(steps)
        if self._partial is not None and self._partial[0] == key:
            return self._partial[1], self._partial[2]
        q = self.p.copy()
        events: list[EngineEvent] = []
        play_partial(q, _written(steps), events)
        self._partial = (key, q, events)
        return q, events

    def _turn(self, seat: int, token: str, ply: int) -> list[Event]:
        steps = list(self.meta.steps)
        card, colon, rest = token.rpartition(":")
        if colon:
            top = self.p.plans[seat][0] if self.p.plans[seat] else "-"
            if steps:
                raise KindError(f"{token!r}: the turn has begun; send its next step")
            if card != top:
                raise KindError(f"{token!r}: the card revealed is {top}")
            parts = rest.split(".")
        else:
            parts = token.split(".")
        ended = False
        for step in parts:
            if ended:
                raise KindError(f"{token!r}: the turn is over before {step!r}")
            if step == "end":
                if not self._complete(steps):
                    raise KindError("the turn cannot end here: "
                                    + ("choose the contract to keep" if steps[-1:] == ["s"]
                                       else "a step must follow"))
                ended = True
                continue
            if steps[-1:] != ["s"] and re.fullmatch(r"s[012]", step):
                self._check(steps, "s")
                steps.append("s")
            step = self._canonical(steps, step)
            self._check(steps, step)
            steps.append(step)
            if self._complete(steps) and not self._next_steps(steps):
                ended = True
        if colon and not ended:  # a whole turn ends with its last step
            if not self._complete(steps):
                raise KindError(f"{token!r} is not a whole turn")
            ended = True
        return self._made(seat, steps, ended, ply)

    def _check(self, steps: list[str], step: str) -> None:
        allowed = self._next_steps(steps)
        if step not in allowed:
            if not steps and PATH.fullmatch(step):
                raise KindError(f"{step!r}: no such path for this card")
            raise KindError(f"{step!r} is not a step that may follow now"
                            + (f" (one of {', '.join(allowed[:12])}"
                               f"{', …' if len(allowed) > 12 else ''})" if allowed else ""))

    def _made(self, seat: int, steps: list[str], ended: bool, ply: int) -> list[Event]:
        """The steps just checked: their events; the whole turn to the engine once ended."""
        before = len(self.partial()[1])
        if not ended:
            _, events = self.partial(steps)
            out = [_event(e, ply) for e in events[before:]]
            self.meta.steps = steps
            if steps[-1] == "s":
                drawn = self.partial(steps)[0].deck[:2]
                out.append({"kind": "contracts-offered", "seat": seat, "cards": list(drawn),
                            "only": [seat], "ply": ply})
            return out
        written = _written(steps)
        card = self.p.plans[seat][0]
        token = f"{card}:" + ".".join(written)
        q = self.p.copy()
        engine_events: list[EngineEvent] = []
        play(q, token, None, engine_events)
        if self.engine is not None:
            self.engine.play(token)
        self.meta.steps = []
        self._moved_to(q, engine_events)
        return [_event(e, ply) for e in engine_events[before:]] + self._advance(ply)

    def _advance(self, ply: int) -> list[Event]:
        """The turns the kind plays itself (lost, dormant), then the next card revealed."""
        out: list[Event] = []
        while self.p.phase == "a":
            turns = legal_turns(self.p)
            seat = self.p.turn_seat() - 1
            if len(turns) == 1 and turns[0].endswith(":~"):
                if not self.p.resigned[seat]:
                    self._revealed(seat)
                out += self._engine_play(turns[0], ply)
                continue
            self._revealed(seat)
            out += [_event(e, ply) for e in self.partial([])[1]]
            break
        return out

    def _revealed(self, seat: int) -> None:
        """A card of `seat`'s stack is revealed: its plan token shows one card more."""
        for entry in reversed(self.meta.plans):
            if entry[1] == seat and entry[2] >= 0:
                entry[2] += 1
                return

    # --- pre-turns (web.md 3.3; games.preturns) -------------------------------------------

    def _key(self, seat: int) -> str:
        """A seat's turn of this round, by the cards it has left then (its card counted)."""
        return f"{self.p.round}.{len(self.p.plans[seat])}"

    def queue_key(self, seat: int) -> str | None:
        """In the action phase, a seat waiting for a turn of this round (a card of its
        stack still unrevealed): the key of that next turn. Not in planning (the stack
        may still be replaced) nor during its own turn."""
        p = self.p
        if p.phase != "a" or p.resigned[seat] or not p.plans[seat] or \
                p.turn_seat() - 1 == seat:
            return None
        return self._key(seat)

    def turn_key(self) -> tuple[int, str] | None:
        p = self.p
        if p.phase != "a" or self.meta.steps:
            return None
        seat = p.turn_seat() - 1
        if p.resigned[seat] or not p.plans[seat]:
            return None
        return seat, self._key(seat)

    def in_turn(self, seat: int, key: str) -> bool:
        p = self.p
        return p.phase == "a" and p.turn_seat() - 1 == seat and bool(p.plans[seat]) and \
            self._key(seat) == key

    def next_turn(self, seat: int) -> dict[str, Any] | None:
        """The choices of `seat`'s next turn as if its card were revealed now, from the
        seat's own view (`format_position(…, seat)`): the key, the card, the step
        sequences it may queue (`legal_turns(…, blind=True)`, each cut after a sign's `s`,
        whose choice needs the cards drawn) and the card's moves. None if it may not
        queue now."""
        key = self.queue_key(seat)
        if key is None:
            return None
        return self.shared(("next", seat), lambda: self._next_turn(seat, key))

    def _next_turn(self, seat: int, key: str) -> dict[str, Any]:
        now = self.partial()[0].copy()
        mover = now.turn_seat() - 1  # its card, taken up by the turn in progress, put back
        now.plans[mover] = list(self.p.plans[mover])  # so that the position is well formed
        # Its view with the hidden parts drawn (a sign needs a deck to draw from): the
        # blind turns are the same whatever is drawn (`legal_turns`), which the kind's
        # indistinguishability test checks.
        view = determinize(format_position(now, seat + 1), random.Random(0))
        view.k += (seat + 1 - view.turn_seat()) % view.n  # as if its turn were now
        card = view.plans[seat][0]
        turns = [t for t in legal_turns(view, blind=True) if not t.endswith(":~")]
        queueable = sorted({".".join(_until_sign(_steps_of(t))) for t in turns})
        moves = [{"path": path + ("*" if driver else ""), "end": end, "driver": driver}
                 for end, path, driver in movements(view, seat + 1, card)] if turns else []
        return {"key": key, "card": card, "turns": queueable, "moves": moves}

    def check_queue(self, seat: int, steps: list[str]) -> None:
        """`steps` must begin one of the seat's queueable sequences (`next_turn`), or be
        one whole with `end` after it; canonical paths only (the ones offered)."""
        choices = self.next_turn(seat)
        if choices is None:
            raise KindError("you may queue your next turn while you wait for it in the "
                            "action phase")
        if not steps or len(steps) > MAX_QUEUE:
            raise KindError(f"a queued turn is 1 to {MAX_QUEUE} steps")
        ended = steps[-1] == "end"
        body = steps[:-1] if ended else steps
        if "end" in body:
            raise KindError("'end' is the last step of a queued turn")
        turns = [tuple(t.split(".")) for t in choices["turns"]]
        n = len(body)
        if ended:
            if tuple(body) not in turns or body[-1:] == ["s"]:
                raise KindError(f"{'.'.join(body) or 'nothing'} is not a whole turn of "
                                f"{choices['card']}: it cannot end there")
        elif not any(t[:n] == tuple(body) for t in turns):
            raise KindError(f"{'.'.join(body)!r} does not begin a turn of "
                            f"{choices['card']} now")

    def reveals(self, events: list[Event]) -> bool:
        return any(e["kind"] in REVEALING for e in events)

    # --- leaving -------------------------------------------------------------------------

    def resign(self, seat: int) -> list[Event]:
        if self.over or self.p.resigned[seat]:
            raise KindError("that seat cannot resign now")
        self._changes += 1
        ply = self.ply
        meta = self.meta
        self._withdraw_plan(seat)
        meta.pending[seat] = None
        hidden = len(self.p.plans[seat])  # its cards go back to the hand unrevealed
        its_turn = self.p.phase == "a" and self.p.turn_seat() - 1 == seat
        if its_turn:
            meta.steps = []
            hidden = max(0, hidden - 1)  # the card of its turn was revealed
        if meta.stacks[seat]:
            meta.stacks[seat] = meta.stacks[seat][:len(meta.stacks[seat]) - hidden]
        token = f"resign{seat + 1}"
        events = self._engine_play(token, ply)
        if self.p.phase == "p":  # the others may all have committed: planning closes
            events += self._close_planning(ply)
        elif its_turn:  # its own turn in progress is now a dormant seat's: played, and the
            events += self._advance(ply)  # next card revealed
        self._logged(events)
        return events

    @property
    def over(self) -> bool:
        return self.p.over

    @property
    def resigned(self) -> list[int]:
        return [s - 1 for s in self.p.resign_order]

    def result(self) -> Result | None:
        if not self.p.over:
            return None
        r = self.p.result()
        return Result(scores=r.scores, places=r.places)

    def standing(self) -> tuple[int, ...] | None:
        return self.p.result().scores

    # --- a decision made for a seat ------------------------------------------------------

    def timeout_decision(self, seat: int) -> str | None:
        """web.md 4: the Easy bot decides from the seat's view; if it cannot, the fallbacks
        (the first character of Lo En Me Dr Ma left; the three lowest usable cards; the
        first legal path and no action; the lowest space that qualifies)."""
        if self.meta.steps:
            return self.completion(seat)
        try:
            return self.bot_token(seat, "easy", 0)
        except ExpressError:
            return self.fallback(seat)

    def completion(self, seat: int) -> str:
        """The rest of a turn begun: `end` if it may end, else the shortest way on."""
        steps = tuple(self.meta.steps)
        if self._complete(self.meta.steps):
            return "end"
        n = len(steps)
        ways = [t for t in self._legal_steps() if t[:n] == steps]
        best = min(ways, key=lambda t: (len(t), t))
        more = any(len(t) > len(best) and t[:len(best)] == best for t in ways)
        return ".".join([*best[n:], *(["end"] if more else [])])

    def fallback(self, seat: int) -> str:
        p = self.p
        if p.phase == "c":
            left = legal(p)
            return next(c for c in TIMEOUT_PICKS if c in left)
        if p.phase == "p":
            usable = [c for c in CARDS if p.usable(seat + 1, c)]
            cards = (usable + [c for c in CARDS if c not in usable])[:3]
            return "".join(cards)
        if p.phase == "a":  # the first legal path, no action
            path = min(t[0] for t in self._legal_steps() if len(t) == 1)
            return f"{p.plans[seat][0]}:{path}"
        return min(legal(p), key=lambda t: int(t[1:]))

    def bot_token(self, seat: int, level: str, seed: int) -> str:
        """`seat`'s decision by the engine's bot at `level`, from that seat's view only."""
        if self.meta.steps:
            return self.completion(seat)
        view = format_position(self.p, seat + 1)
        return choose(view, level, seed, seat + 1)

    # --- what a viewer sees ----------------------------------------------------------------

    def position(self) -> str:
        return format_position(self.p) + "\n" + self.meta.dump()

    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        if viewer == EVERYTHING:
            return events
        return [e for e in events if e.get("only") is None or viewer in e["only"]]

    def log(self, viewer: Viewer) -> list[Event]:
        """The log of the round: this round's events as `viewer` may see them (the kind's
        per-viewer events, `events_for`, as its frames carried them), and the last round's
        too while this one's characters are picked, so that a page loaded just after a
        round's end still tells it. Without `only` and `ply`, which the page's sentences
        do not need."""
        q = self.p
        rounds = (q.round - 1, q.round) if q.phase == "c" else (q.round,)
        logged = self.shared("log", lambda: [e for at, e in self.meta.log if at in rounds])
        events = self.events_for(logged, viewer)
        return [{k: v for k, v in e.items() if k not in ("only", "ply")} for e in events]

    def tokens_for(self, viewer: Viewer) -> list[str]:
        return list(self.shared(("tokens", viewer), lambda: self._tokens_for(viewer)))

    def _tokens_for(self, viewer: Viewer) -> list[str]:
        if viewer == EVERYTHING or self.over:
            return list(self.tokens)
        shown = list(self.tokens)
        for index, seat, revealed in self.meta.plans:
            if seat != viewer:
                cards = _cards(shown[index])
                k = max(revealed, 0)
                shown[index] = "".join(cards[:k]) + "?" * (3 - k)
        return shown

    def redacted(self, seat: int) -> LiveGame:
        """What `seat`'s bot may know: the seat's view and its own plan, nothing else."""
        public = parse_position(format_position(self.p, seat + 1))
        meta = Meta(seed="", seqs=list(self.meta.seqs), steps=list(self.meta.steps),
                    pending=[m if s == seat else None for s, m in enumerate(self.meta.pending)],
                    stacks=[st if s == seat else [] for s, st in enumerate(self.meta.stacks)])
        return RedactedExpress(public, meta, self.tokens_for(seat), self, seat)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return ExpressView(self, viewer).build()

    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING) -> str:
        if self.engine is None:
            raise KindError("a record needs the game replayed from its start")
        heads = dict(self.engine.headers)
        for key, value in headers.items():
            if key.startswith("Seat ") and key[5:].isdigit():
                heads[f"Seat{key[5:]}"] = value.replace('"', "'")
            elif key in ("Date", "SeedHash"):
                heads[key] = value
        result = self.p.result() if self.p.over else None
        if result is not None:
            heads["Scores"] = " ".join(map(str, result.scores))
            heads["Winner"] = " ".join(map(str, result.winners))
        if self.p.resign_order:
            heads["Resigned"] = " ".join(map(str, self.p.resign_order))
        self.engine.headers = heads
        full = viewer == EVERYTHING or self.over
        return self.engine.record(None if full else (viewer + 1 if isinstance(viewer, int)
                                                     else 0))


class RedactedExpress(ExpressGame):
    """A seat's bot's game: its public view (`p` has `hidden`) and its own plan. Only the
    bot's decision is asked of it; the whole game stays on the server (`_whole`) for the
    steps of a turn already begun, whose completion reads nothing hidden."""

    def __init__(self, p: Position, meta: Meta, tokens: list[str], whole: ExpressGame,
                 seat: int) -> None:
        super().__init__(p, meta, tokens)
        self._whole = whole
        self.seat = seat

    def bot_token(self, seat: int, level: str, seed: int) -> str:
        if seat != self.seat:
            raise KindError("a bot decides for its own seat only")
        if self.meta.steps:
            return self._whole.completion(seat)
        return choose(format_position(self.p), level, seed, seat + 1)


def _cars_and_sets(q: Position, seat: int) -> tuple[str, int]:
    """The cars that score for a seat (0-based) and its full sets of the five colours."""
    cars = q.scored_cars(seat + 1)
    return cars, min(cars.count(c) for c in COLOURS)


def _cards(plan: str) -> list[str]:
    """`A2DB4` → ["A2", "D", "B4"]."""
    return re.findall(r"[ABC][1-6]|D|\?", plan)


# The catalogue every state carries, made once (never mutated: states are only encoded).
CONTRACT_CATALOGUE = {cid: {"cars": cars, "value": value}
                      for cid, (cars, value) in CONTRACTS.items()}
CARD_LIST = list(CARDS)


class ExpressView:
    """One viewer's state of a game (the shape in docs/live-protocol.md, "Cargo Express").
    Its keys never clash with the platform's (`seats`, `players`, `acting`, ...): each
    seat's part is in `areas`."""

    def __init__(self, game: ExpressGame, viewer: Viewer) -> None:
        self.game = game
        self.viewer = viewer
        self.seat = viewer if isinstance(viewer, int) else None
        self.all = viewer == EVERYTHING or game.over
        self.q = game.shared("partial", lambda: game.partial()[0])

    def sees(self, seat: int) -> bool:
        return self.all or seat == self.seat

    def build(self) -> dict[str, Any]:
        g, q = self.game, self.q
        return {
            "game": "cargo-express", "rules": q.rules, "player_count": q.n, "over": g.over,
            "ply": g.ply,
            "round": q.round, "phase": PHASES[q.phase], "phase_token": q.phase_token,
            "stationmaster": q.sm - 1, "order": [s - 1 for s in q.order()],
            "spaces": g.shared("spaces", self.spaces), "bag": len(q.bag),
            "deck": len(q.deck), "bag_empty": q.flag_e, "last_round": q.flag_l,
            "characters": g.shared("characters", self.characters),
            "contracts": CONTRACT_CATALOGUE, "cards": CARD_LIST, "colours": COLOUR_NAMES,
            "areas": [self.area(s) for s in range(q.n)],
            "turn": g.shared("turn", self.turn),
            "drawn": self.drawn(),
            "legal": self.legal() if self.seat is not None and not g.over else {},
            "result": g.shared("result", self.result),
        }

    def characters(self) -> list[dict[str, Any]]:
        q = self.q
        return [{"key": c, "name": CHARACTER_NAMES[c],
                 "holder": q.chars.index(c) if c in q.chars else None,
                 "used": c == "Dr" and q.driver_used} for c in CHARACTERS]

    def spaces(self) -> list[dict[str, Any]]:
        q = self.q
        twins = tunnel_twins(q.board)
        out: list[dict[str, Any]] = []
        for space, piece in enumerate(q.board):
            entry: dict[str, Any] = {"space": space, "piece": piece}
            if piece[0] == "X":
                owner = int(piece[1]) - 1
                entry.update(kind="complex", cars=q.cars.get(piece, ""),
                             owner=owner if owner < q.n else None)
            elif piece[0] == "F":
                entry.update(kind="factory", colour=piece[1])
            elif piece[0] == "T":
                entry.update(kind="tunnel", twin=twins[space])
            else:
                entry.update(kind="refit")
            out.append(entry)
        return out

    def area(self, s: int) -> dict[str, Any]:
        """What lies in front of seat `s`: engine, train, yard, contracts, cards (the
        public part made once for every viewer, `ExpressGame.shared`)."""
        public, secret = self.game.shared(("area", s), lambda: self.public_area(s))
        if not self.sees(s):
            return {**public, "open": None, "plan": None, "hand": None}
        return {**public, "open": list(self.q.open[s]), "plan": secret,
                "hand": [c for c in CARDS if c not in secret]}

    def public_area(self, s: int) -> tuple[dict[str, Any], list[str]]:
        """Seat `s`'s area as everyone sees it, and its unrevealed cards (its stack, or
        the plan committed in planning), for the viewers who may see them."""
        g, q, p0 = self.game, self.q, self.game.p
        meta = g.meta
        unrevealed = list(p0.plans[s])
        in_turn = p0.phase == "a" and p0.turn_seat() - 1 == s and bool(unrevealed)
        if in_turn:
            unrevealed = unrevealed[1:]
        stack = meta.stacks[s]
        played = stack[:len(stack) - len(unrevealed)] if stack else []
        pending = meta.pending[s] if meta.pending else None
        secret = _cards(pending) if pending else unrevealed
        total, tiebreak = q.score(s + 1)
        cars, sets = _cars_and_sets(q, s)
        return {
            "seat": s, "engine": ENGINES[q.engine[s]], "capacity": CAPACITY[q.engine[s]],
            "space": q.loc[s], "train": q.train[s], "yard": q.yard[s],
            "fulfilled": [{"id": cid, "cars": placed, "value": CONTRACTS[cid][1]}
                          for cid, placed in q.done[s]],
            "open_count": len(q.open[s]),
            "character": q.chars[s], "dormant": q.resigned[s],
            "committed": q.phase == "p" and pending is not None,
            "played": played, "stack": len(secret),
            "score": {"cars": len(cars), "sets": sets, "set_points": 5 * sets,
                      "contracts": sum(CONTRACTS[c][1] for c, _ in q.done[s]),
                      "open_penalty": -2 * len(q.open[s]), "total": total,
                      "tiebreak": tiebreak},
        }, secret

    def turn(self) -> dict[str, Any] | None:
        p0 = self.game.p
        if p0.phase != "a":
            return None
        seat = p0.turn_seat() - 1
        card = p0.plans[seat][0] if p0.plans[seat] else "-"
        return {"seat": seat, "card": card, "number": p0.k + 1, "of": 3 * p0.n,
                "steps": list(self.game.meta.steps)}

    def drawn(self) -> list[str] | None:
        g = self.game
        steps = g.meta.steps
        if not steps or steps[-1] != "s":
            return None
        seat = g.p.turn_seat() - 1
        return list(self.q.deck[:2]) if self.sees(seat) else None

    def legal(self) -> dict[str, Any]:
        g, seat = self.game, self.seat
        assert seat is not None
        if not g.deciding(seat):
            upcoming = g.next_turn(seat)  # a pre-turn's choices (games.preturns)
            return {"next": upcoming} if upcoming is not None else {}
        q = g.p
        if q.phase == "c":
            return {"picks": legal(q)}
        if q.phase == "p":
            pending = g.meta.pending[seat]
            return {"hand": list(CARDS), "usable": [c for c in CARDS if q.usable(seat + 1, c)],
                    "committed": _cards(pending) if pending else None}
        if q.phase == "r":
            return {"swaps": [{"token": t, "space": int(t[1:])}
                              for t in sorted(legal(q), key=lambda t: int(t[1:]))]}
        steps = g.meta.steps
        nxt = g._next_steps(steps)
        out: dict[str, Any] = {"steps": [s for s in nxt if not re.fullmatch(r"s[012]", s)],
                               "end": g._complete(steps)}
        if steps[-1:] == ["s"]:
            out["sign"] = nxt
        paths = [s for s in nxt if PATH.fullmatch(s)]
        if paths:
            here = self.q
            card = q.plans[seat][0]
            ends = {path + ("*" if driver else ""): end
                    for end, path, driver in movements(here, seat + 1, card)}
            out["moves"] = [{"path": path, "end": ends.get(path), "driver": path.endswith("*")}
                            for path in paths]
        return out

    def result(self) -> dict[str, Any] | None:
        q = self.game.p
        if not q.over:
            return None
        r = q.result()
        breakdown = []
        for s in range(q.n):
            cars, sets = _cars_and_sets(q, s)
            breakdown.append({
                "cars": len(cars), "sets": sets, "set_points": 5 * sets,
                "contracts": [{"id": cid, "value": CONTRACTS[cid][1]} for cid, _ in q.done[s]],
                "open": list(q.open[s]), "open_penalty": -2 * len(q.open[s]),
                "total": r.scores[s], "tiebreak": r.tiebreak[s]})
        return {"scores": list(r.scores), "tiebreak": list(r.tiebreak),
                "places": list(r.places), "winners": [w - 1 for w in r.winners],
                "breakdown": breakdown}


class CargoExpress(GameKind):
    key = "cargo-express"
    name = "Cargo Express"
    seat_counts = (2, 3, 4)
    rules_version = CURRENT_RULES
    rules_versions = RULES_VERSIONS
    bot_levels = LEVELS
    bots_name = "ExpressBots"
    bot_version = BOT_VERSION
    quick_bot_level = "easy"
    max_token_length = MAX_TOKEN
    leaver_stand_in = "medium"  # web.md 4 (a): a bot plays a leaver's seat on (3-4 seats)
    hidden_information = True
    seat_sequences = True
    history_in_frames = False
    rating_method = "openskill"
    in_lobby = True
    lobby_hint = "The stationmaster, who goes first, is drawn from the game's secret seed."
    view_template = "games/cargo-express/view.html"
    view_module = "js/cargo-express/view.js"
    replay_template = "games/cargo-express/replay.html"
    replay_module = "js/cargo-express/replay.js"
    # About 50 decision points per seat (10 rounds of a pick, a plan, three turns and a
    # swap now and then): 3+2 leaves 6 s a decision, too short for a plan (docs/clocks.md).
    # The live ones only: every kind offers the platform's correspondence days and untimed.
    time_presets = ("5+3", "10+5", "15+10")

    def seat_key(self, seat: int) -> str:
        return SEAT_KEYS[seat]

    def seat_label(self, seat: int) -> str:
        return f"Seat {seat + 1}"

    def bot_name(self, level: str) -> str:
        return f"ExpressBot {level.title()}"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(options)
        if unknown:
            raise KindError(f"Cargo Express has no option {unknown[0]!r}")
        return {}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        if seats not in self.seat_counts:
            raise KindError("Cargo Express is played by 2, 3 or 4")
        if rules not in RULES_VERSIONS:
            raise KindError(f"unknown rules version {rules!r}")
        return self.start_from_seed(seats, secrets.randbits(63), rules)

    def start_from_seed(self, seats: int, seed: int, rules: str = CURRENT_RULES) -> str:
        """The start of a game dealt from `seed`: for pages that show the same example
        every time (How to play); a game played on the site draws its seed secretly
        (`new`), never from its options, which are public."""
        p = start_position(seats, seed, rules)
        meta = Meta(seed=str(seed), seqs=[0] * seats, pending=[None] * seats,
                    stacks=[[] for _ in range(seats)])
        return format_position(p) + "\n" + meta.dump()

    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        text, _, meta = position.partition("\n")
        try:
            p = parse_position(text)
        except ExpressError as e:
            raise KindError(str(e)) from None
        return ExpressGame(p, Meta.load(meta), list(tokens))

    def replay(self, start: str, tokens: list[str], seats: list[int]) -> LiveGame:
        text, _, meta_text = start.partition("\n")
        meta = Meta.load(meta_text)
        p = parse_position(text)
        engine = EngineGame.new(p.n, int(meta.seed), rules=p.rules)
        game = ExpressGame(p, meta, [], engine)
        for seat, token in zip(seats, tokens, strict=True):
            game.apply(seat, token)
        return game

    def bot_decision(self, game: LiveGame, seat: int, level: str, seed: int) -> str:
        assert isinstance(game, ExpressGame)
        if level not in LEVELS:
            raise KindError(f"unknown ExpressBot level {level!r}")
        try:
            return game.bot_token(seat, level, (seed * 31 + seat) % 2 ** 63)
        except ExpressError as e:
            raise KindError(str(e)) from None

    def seat_summary(self, start: str, tokens: list[str], seats: list[int]
                     ) -> list[dict[str, dict[str, int]]]:
        """Each seat's character picks by name (a pick's token is the character's key;
        the picks the kind makes for a dormant seat are no seat's decision)."""
        n = parse_position(start.partition("\n")[0]).n
        out: list[dict[str, dict[str, int]]] = [{"character": {}} for _ in range(n)]
        for seat, token in zip(seats, tokens, strict=True):
            if token in CHARACTER_NAMES:
                picks = out[seat]["character"]
                name = CHARACTER_NAMES[token]
                picks[name] = picks.get(name, 0) + 1
        return out

    def facts(self, game_id: str, start: str, over: bool) -> dict[str, Any]:
        """The seed's hash from the start; the seed itself once the game is over."""
        seed, hashed = _seed_and_hash(game_id, start)
        return {"seed_hash": hashed, "seed": seed if over else None}

    def record_headers(self, game_id: str, start: str, over: bool) -> dict[str, str]:
        return {"SeedHash": self.facts(game_id, start, over)["seed_hash"]}


@functools.lru_cache(maxsize=4096)
def _seed_and_hash(game_id: str, start: str) -> tuple[str, str]:
    """A game's seed (read from its start) and its published hash: every state of every
    viewer carries the hash, and the start never changes."""
    seed = Meta.load(start.partition("\n")[2]).seed
    return seed, seed_hash(game_id, seed)


CARGO_EXPRESS = CargoExpress()
register(CARGO_EXPRESS)
