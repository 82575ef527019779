"""Cargo Express at a table: the rules of a game played live, a decision at a time.

The engine (`express.moves`, `express.game`) plays whole decisions: a pick, a plan, a whole
turn, a swap. A table played live needs more (web.md 3), and this module owns it:

- **planning held until all commit**: a seat's plan is kept here, not in the position, and
  may be replaced until every active seat has committed; then every plan goes to the engine
  at once in turn order, and each plan's hash is published (web.md 3.2);
- **the action phase a step at a time**: each step is checked against the legal turns of
  the turn's start (its steps so far must begin one of them) and played by the engine
  (`play_partial`); the turn ends at `end`, or by itself when no step may follow, and the
  engine then plays it whole. A step refused raises `ExpressError` and changes nothing;
- **turns the table plays itself**: a lost turn (an unusable card, no path) and a dormant
  seat's, after which the next card is revealed to everyone;
- **a seat that leaves** goes dormant (rule 77), its hidden cards unseen;
- **fairness**: the seed's hash, each plan's salt and hash (web.md 2 and 5);
- the log of the round, which the host shapes and this module keeps.

What a host needs beyond (a decision made for a seat whose clock fell, a bot's table,
pre-turns, the record, the decisions as a seat may know them) is `express.live_table`,
built on this.

Seats. A seat is its index here, 0 to n-1, as in the ledger's lists and the host's seats;
the engine's positions, tokens and events number them 1 to n. The events returned are the
engine's (`express.events`) and number seats as it does (0: no seat).

The `Ledger` is what the table keeps beside the position at the start of the turn in
progress; the host stores the two together and gives them back (`Table(p, ledger, ...)`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

from express.decisions import parse_plan
from express.errors import ExpressError
from express.events import Event, GameOver, PlanChosen
from express.game import Game
from express.legal_decisions import legal_turns
from express.movement import movements, walk_path
from express.moves import play, play_partial
from express.position import Position
from express.rules import CARD_STEPS

PLAN = re.compile(r"(?:[ABC][1-6]|D){3}")
PATH = re.compile(r"[<>t]+\*?")
SIGN_CHOICE = re.compile(r"s[012]")


# --- fairness (web.md 2 and 5) -------------------------------------------------------------


def seed_hash(game_id: str, seed: str) -> str:
    """web.md 5: published at the start, checked against the seed after the game."""
    return hashlib.sha256(f"cargo-express:{game_id}:{seed}".encode()).hexdigest()


def plan_salt(seed: str, round_: int, seat: int) -> str:
    """web.md 2: the salt of `seat`'s (an index) plan of a round, from the game's secret
    seed: unknown to everyone until the seed is published after the game (the full
    record's `Seed`), then anyone's to recompute."""
    text = f"cargo-express-plan-salt:{seed}:{round_}:{seat + 1}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def plan_hash(seat: int, round_: int, plan: str, salt: str) -> str:
    """web.md 2: sha256 of "<seat 1..n>:<round>:<plan>:<salt>", published when planning
    closes, so that anyone may check after the game that no plan changed after closing."""
    return hashlib.sha256(f"{seat + 1}:{round_}:{plan}:{salt}".encode()).hexdigest()


def plan_cards(plan: str) -> list[str]:
    """`A2DB4` → ["A2", "D", "B4"] (a hidden card, `?`, too)."""
    return re.findall(r"[ABC][1-6]|D|\?", plan)


# --- the table's own events (beside the engine's) -------------------------------------------


@dataclass(frozen=True)
class PlanKept(Event):
    """Public: the seat committed a plan, or replaced the one it had (`replaced`); the
    table keeps it until planning closes."""

    replaced: bool
    kind = "plan-committed"


@dataclass(frozen=True)
class PlanHashes(Event):
    """Public, when planning closes: each seat's plan hash (None: no plan, a dormant seat)."""

    round: int
    hashes: tuple[str | None, ...]
    kind = "plan-hashes"


@dataclass(frozen=True)
class ContractsOffered(Event):
    """Private to the signer: the two contracts a sign's `s` drew, before its choice."""

    cards: tuple[str, ...]
    kind = "contracts-offered"


# --- the ledger ----------------------------------------------------------------------------


@dataclass
class Ledger:
    """What the table keeps beside the position: the seed, each seat's count of decisions,
    the steps of the turn in progress, the plans committed while planning is open, each
    seat's stack this round, where each plan token stands in the decisions with how many of
    its cards are revealed, and the log of this round and the last."""

    seed: str
    seqs: list[int]
    steps: list[str] = field(default_factory=list)
    pending: list[str | None] = field(default_factory=list)
    stacks: list[list[str]] = field(default_factory=list)
    # [decision index, seat, cards revealed] of each plan token; -1: replaced, never shown
    plans: list[list[int]] = field(default_factory=list)
    # [round, event] of every event of this round and the last, as the host shaped them
    # (a dict with `kind`; a `phase` one with its `round`): the table keeps them, the host
    # decides who may see each
    log: list[list[Any]] = field(default_factory=list)

    @classmethod
    def new(cls, seed: str, seats: int) -> Self:
        return cls(seed=seed, seqs=[0] * seats, pending=[None] * seats,
                   stacks=[[] for _ in range(seats)])

    def as_dict(self) -> dict[str, Any]:
        """The fields as a dict, for storing (by hand: `dataclasses.asdict` copies deeply,
        and every decision stores the ledger)."""
        return {"seed": self.seed, "seqs": self.seqs, "steps": self.steps,
                "pending": self.pending, "stacks": self.stacks, "plans": self.plans,
                "log": self.log}


def steps_of(turn: str) -> tuple[str, ...]:
    """A written turn's steps as a seat sends them: the sign split in two (`s`, `s1`)."""
    out: list[str] = []
    for step in turn.partition(":")[2].split("."):
        if step[0] == "s":
            out.append("s")
        out.append(step)
    return tuple(out)


def _written(steps: list[str]) -> list[str]:
    """Steps as the engine writes them: a sign's `s` goes (a pending one too)."""
    return [s for s in steps if s != "s"]


class Table:
    """One game at the table: the engine's position `p` at the start of the turn in
    progress, the `Ledger`, and the decisions so far (`tokens`, one per decision, a plan
    token where it was committed). `engine` is the engine's whole game when this one was
    replayed from the start (records need it)."""

    def __init__(self, p: Position, meta: Ledger, tokens: list[str],
                 engine: Game | None = None) -> None:
        self.p = p
        self.meta = meta
        self.tokens = tokens
        self.engine = engine
        self._turns: list[tuple[str, ...]] | None = None
        self._partial: tuple[tuple[str, ...], Position, list[Event]] | None = None
        self._changes = 0  # decisions, resignations and log entries: the memo's key
        self._memo: tuple[int, dict[Any, Any]] = (-1, {})

    def shared(self, key: Any, make: Callable[[], Any]) -> Any:
        """Something made from the table that is the same for every viewer (the host builds
        a state for every seat and the spectators), made once per change of the table and
        kept until the next. Callers never mutate what it gives."""
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

    @property
    def ply(self) -> int:
        """Decisions applied so far (a resignation is not one)."""
        return len(self.tokens)

    @property
    def over(self) -> bool:
        return self.p.over

    @property
    def resigned(self) -> list[int]:
        """The seats that have resigned, in the order they did."""
        return [s - 1 for s in self.p.resign_order]

    def round_now(self) -> int | None:
        return self.p.round

    def standing(self) -> tuple[int, ...] | None:
        """The seats' scores as the Final Audit of the position now would give them."""
        return self.p.result().scores

    # --- who decides ---------------------------------------------------------------------

    def acting(self) -> list[int]:
        """The seats awaited now: in planning, every active seat yet to commit."""
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
        """`seat` has sent steps of a turn it has not ended."""
        return self.p.phase == "a" and bool(self.meta.steps) and \
            self.p.turn_seat() - 1 == seat

    def sequence(self, seat: int) -> int:
        """The count of `seat`'s decisions so far: the number its next one carries."""
        return self.meta.seqs[seat]

    # --- deciding ------------------------------------------------------------------------

    def decide(self, seat: int, token: str) -> list[Event]:
        """Apply `seat`'s decision: a pick, a plan, a step (or steps joined by `.`, or a
        whole turn `CARD:STEPS`), a swap. Its events, and those of the turns the table then
        plays itself. ExpressError, and nothing changed, if the decision is refused."""
        if self.over:
            raise ExpressError("the game is over")
        if not self.deciding(seat):
            raise ExpressError(f"seat{seat + 1} has no decision to make now")
        self._changes += 1  # before: a refused decision may have changed part of the table
        phase = self.p.phase
        if phase == "p":
            events = self._plan(seat, token)
        elif phase == "a":
            events = self._turn(seat, token)
        else:
            events = self._engine_play(token)
            if phase == "r":
                self.meta.stacks = [[] for _ in range(self.n)]
        self.tokens.append(token)
        self.meta.seqs[seat] += 1
        return events

    def resign_seat(self, seat: int) -> list[Event]:
        """`seat` goes dormant (rule 77): its plan kept in planning is withdrawn unseen, its
        unrevealed cards go back to its hand unseen, its turn in progress is dropped and
        played as a dormant seat's. Planning closes if every other seat has committed."""
        if self.over or self.p.resigned[seat]:
            raise ExpressError("that seat cannot resign now")
        self._changes += 1
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
        events = self._engine_play(f"resign{seat + 1}")
        if self.p.phase == "p":  # the others may all have committed: planning closes
            events += self._close_planning()
        elif its_turn:  # its own turn in progress is now a dormant seat's: played, and the
            events += self._advance()  # next card revealed
        return events

    def _engine_play(self, token: str, seat: int | None = None) -> list[Event]:
        """A decision the engine applies whole (a pick, a swap, a whole turn)."""
        events: list[Event] = []
        q = self.p.copy()
        play(q, token, seat, events)
        if self.engine is not None:
            self.engine.play(token, seat)
        self._moved_to(q, events)
        return events

    def _moved_to(self, q: Position, events: list[Event]) -> None:
        if q.over and not self.p.over:
            events.append(GameOver(0, result=q.result().as_dict()))
        self.p = q
        self._turns = self._partial = None

    # --- planning, held until all commit -------------------------------------------------

    def _plan(self, seat: int, token: str) -> list[Event]:
        if not PLAN.fullmatch(token):
            raise ExpressError(f"{token!r}: a plan is three different cards, top first "
                               f"(A2A1A3)")
        parse_plan(token)  # three different cards
        meta = self.meta
        replaced = meta.pending[seat] is not None
        self._withdraw_plan(seat)
        meta.pending[seat] = token
        meta.plans.append([len(self.tokens), seat, 0])
        events: list[Event] = [
            PlanKept(seat + 1, replaced=replaced),
            PlanChosen(seat + 1, cards=tuple(plan_cards(token)), only=(seat + 1,)),
        ]
        return events + self._close_planning()

    def _withdraw_plan(self, seat: int) -> None:
        """The seat's plan committed while planning is open is replaced or taken back: its
        token is never revealed (`LiveTable.shown_tokens` shows it as `???`)."""
        pending = self.meta.pending[seat]
        if pending is None:
            return
        for entry in self.meta.plans:
            if entry[1] == seat and entry[2] == 0 and self.tokens[entry[0]] == pending:
                entry[2] = -1

    def _close_planning(self) -> list[Event]:
        """Every active seat has committed: the plans go to the engine in turn order."""
        p, meta = self.p, self.meta
        if p.phase != "p" or any(not p.resigned[s] and meta.pending[s] is None
                                 for s in range(self.n)):
            return []
        hashed = PlanHashes(0, round=p.round, hashes=tuple(
            None if plan is None else
            plan_hash(s, p.round, plan, plan_salt(meta.seed, p.round, s))
            for s, plan in enumerate(meta.pending)))
        q = p.copy()
        engine_events: list[Event] = []
        for s1 in q.order():
            plan = meta.pending[s1 - 1]
            if plan is None:
                continue
            play(q, plan, s1, engine_events)
            if self.engine is not None:
                self.engine.commit(s1, plan)
            meta.stacks[s1 - 1] = plan_cards(plan)
        meta.pending = [None] * self.n
        self._moved_to(q, engine_events)
        events = [e for e in engine_events if e.kind not in ("plan-committed", "plan-chosen")]
        return [hashed, *events, *self._advance()]

    # --- the action phase, a step at a time ----------------------------------------------

    def legal_steps(self) -> list[tuple[str, ...]]:
        """The legal turns of the turn in progress, as steps (from its start)."""
        if self._turns is None:  # until the position changes (`_moved_to`)
            self._turns = [steps_of(t) for t in legal_turns(self.p)]
        return self._turns

    def next_steps(self, steps: list[str]) -> list[str]:
        """The steps that may follow `steps` in the turn in progress, sorted."""
        n = len(steps)
        prefix = tuple(steps)
        return sorted({t[n] for t in self.legal_steps() if len(t) > n and t[:n] == prefix})

    def complete(self, steps: list[str]) -> bool:
        """May the turn in progress end after `steps`?"""
        return tuple(steps) in set(self.legal_steps())

    def _canonical(self, steps: list[str], step: str) -> str:
        """A path the seat wrote another way (or a step as sent): its canonical form, the
        first legal path to the same space with the same use of the Driver."""
        if not PATH.fullmatch(step) or any(s != "^" for s in steps) or \
                step in self.next_steps(steps):
            return step
        q = self.partial(steps)[0]
        seat = q.turn_seat()
        driver = step.endswith("*")
        walked = walk_path(q, seat, step.rstrip("*"))
        if isinstance(walked, str):
            raise ExpressError(f"{step!r}: {walked}")
        card = q.plans[seat - 1][0]
        if len(step) - driver not in CARD_STEPS[card]:
            raise ExpressError(f"{step!r}: {card} moves "
                               f"{' or '.join(map(str, CARD_STEPS[card]))} spaces")
        for end, path, uses in movements(q, seat, card):
            if end == walked[0] and uses == driver:
                return path + ("*" if uses else "")
        return step

    def partial(self, steps: list[str] | None = None) -> tuple[Position, list[Event]]:
        """The position with the turn in progress played as far as `steps` (the ledger's by
        default), and the events that took it there; the start itself outside a turn."""
        steps = self.meta.steps if steps is None else steps
        if self.p.phase != "a":
            return self.p, []
        key = tuple(steps)
        if self._partial is not None and self._partial[0] == key:
            return self._partial[1], self._partial[2]
        q = self.p.copy()
        events: list[Event] = []
        play_partial(q, _written(steps), events)
        self._partial = (key, q, events)
        return q, events

    def _turn(self, seat: int, token: str) -> list[Event]:
        steps = list(self.meta.steps)
        card, colon, rest = token.rpartition(":")
        if colon:
            top = self.p.plans[seat][0] if self.p.plans[seat] else "-"
            if steps:
                raise ExpressError(f"{token!r}: the turn has begun; send its next step")
            if card != top:
                raise ExpressError(f"{token!r}: the card revealed is {top}")
            parts = rest.split(".")
        else:
            parts = token.split(".")
        ended = False
        for step in parts:
            if ended:
                raise ExpressError(f"{token!r}: the turn is over before {step!r}")
            if step == "end":
                if not self.complete(steps):
                    raise ExpressError("the turn cannot end here: "
                                       + ("choose the contract to keep" if steps[-1:] == ["s"]
                                          else "a step must follow"))
                ended = True
                continue
            if steps[-1:] != ["s"] and SIGN_CHOICE.fullmatch(step):
                self._check(steps, "s")
                steps.append("s")
            step = self._canonical(steps, step)
            self._check(steps, step)
            steps.append(step)
            if self.complete(steps) and not self.next_steps(steps):
                ended = True
        if colon and not ended:  # a whole turn ends with its last step
            if not self.complete(steps):
                raise ExpressError(f"{token!r} is not a whole turn")
            ended = True
        return self._made(seat, steps, ended)

    def _check(self, steps: list[str], step: str) -> None:
        allowed = self.next_steps(steps)
        if step not in allowed:
            if not steps and PATH.fullmatch(step):
                raise ExpressError(f"{step!r}: no such path for this card")
            raise ExpressError(f"{step!r} is not a step that may follow now"
                               + (f" (one of {', '.join(allowed[:12])}"
                                  f"{', …' if len(allowed) > 12 else ''})" if allowed else ""))

    def _made(self, seat: int, steps: list[str], ended: bool) -> list[Event]:
        """The steps just checked: their events; the whole turn to the engine once ended."""
        before = len(self.partial()[1])
        if not ended:
            _, events = self.partial(steps)
            out = events[before:]
            self.meta.steps = steps
            if steps[-1] == "s":
                drawn = self.partial(steps)[0].deck[:2]
                out.append(ContractsOffered(seat + 1, cards=tuple(drawn), only=(seat + 1,)))
            return out
        card = self.p.plans[seat][0]
        token = f"{card}:" + ".".join(_written(steps))
        q = self.p.copy()
        engine_events: list[Event] = []
        play(q, token, None, engine_events)
        if self.engine is not None:
            self.engine.play(token)
        self.meta.steps = []
        self._moved_to(q, engine_events)
        return engine_events[before:] + self._advance()

    def _advance(self) -> list[Event]:
        """The turns the table plays itself (lost, dormant), then the next card revealed."""
        out: list[Event] = []
        while self.p.phase == "a":
            turns = legal_turns(self.p)
            seat = self.p.turn_seat() - 1
            if len(turns) == 1 and turns[0].endswith(":~"):
                if not self.p.resigned[seat]:
                    self._revealed(seat)
                out += self._engine_play(turns[0])
                continue
            self._revealed(seat)
            out += self.partial([])[1]
            break
        return out

    def _revealed(self, seat: int) -> None:
        """A card of `seat`'s stack is revealed: its plan token shows one card more."""
        for entry in reversed(self.meta.plans):
            if entry[1] == seat and entry[2] >= 0:
                entry[2] += 1
                return

    def unrevealed(self, seat: int) -> tuple[list[str], list[str]]:
        """Seat `seat`'s cards this round: those played (revealed), and those its owner
        alone may see (its stack's unrevealed cards, or the plan kept in planning)."""
        p0, meta = self.p, self.meta
        hidden = list(p0.plans[seat])
        if p0.phase == "a" and p0.turn_seat() - 1 == seat and hidden:
            hidden = hidden[1:]  # the card of its turn is revealed
        stack = meta.stacks[seat]
        played = stack[:len(stack) - len(hidden)] if stack else []
        pending = meta.pending[seat] if meta.pending else None
        return played, plan_cards(pending) if pending else hidden

    # --- the log of the round --------------------------------------------------------------

    def keep_log(self, events: list[dict[str, Any]]) -> None:
        """Keep a decision's events (as the host shaped them) for the log of the round, each
        with the round it belongs to (a `phase` event begins a round); rounds before the
        last one are dropped."""
        self._changes += 1
        log = self.meta.log
        at = log[-1][0] if log else self.p.round
        for e in events:
            if e["kind"] == "phase":
                at = e["round"]
            log.append([at, e])
        if log and log[0][0] < at - 1:
            self.meta.log = [entry for entry in log if entry[0] >= at - 1]

    def round_log(self) -> list[dict[str, Any]]:
        """The events of this round, and of the last one too while this one's characters
        are picked (so that a page loaded just after a round's end still tells it)."""
        q = self.p
        rounds = (q.round - 1, q.round) if q.phase == "c" else (q.round,)
        found: list[dict[str, Any]] = self.shared(
            "log", lambda: [e for at, e in self.meta.log if at in rounds])
        return found
