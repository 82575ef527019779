"""Cargo Express at a table, as a host runs it live: beyond the rules of the table
(`express.table`), what the host asks of it for a seat that is not deciding itself now.

- **a decision made for a seat** (web.md 4): when its clock falls, the rest of a turn begun,
  else the Easy bot's decision from the seat's own view, else the fallbacks (the first
  character of Lo En Me Dr Ma left; the three lowest usable cards; the first legal path and
  no action; the lowest space that qualifies);
- **a bot's table**: the seat's view of the position, its own plan, nothing else;
- **pre-turns** (web.md 3.3): the steps a seat waiting for its turn may queue, checked
  against that turn's legal steps as the seat's own view gives them;
- **what a seat may know of the decisions**: another seat's plan token as its revealed
  cards then `?`, and the record as the seat may read it.

Seats are indexes, 0 to n-1, as in `express.table`.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Any, Self

from express.bot import choose
from express.determinize import determinize
from express.errors import ExpressError
from express.legal_decisions import legal, legal_turns
from express.movement import movements
from express.notation import format_position, parse_position
from express.rules import CARDS
from express.table import Table, plan_cards, steps_of

TIMEOUT_PICKS = ("Lo", "En", "Me", "Dr", "Ma")  # web.md 4: a timed-out pick's fallback
MAX_QUEUE = 12  # steps in a pre-turn: a whole turn is at most about 8
# Events that show something new partway through a turn (a refill's cars, the bag running
# dry, the contracts a sign draws): a queued turn stops after the step that made one.
REVEALING = frozenset({"refilled", "bag-empty", "last-round", "contracts-offered",
                       "contracts-drawn"})


def _until_sign(steps: tuple[str, ...]) -> tuple[str, ...]:
    """A turn's steps up to a sign's `s`: the choice after it needs the cards drawn."""
    return steps[:steps.index("s") + 1] if "s" in steps else steps


class LiveTable(Table):
    """A table a host runs live. A bot's table (`for_seat`) knows the table it was made
    from (`whole`) and the seat it decides for (`bot_seat`)."""

    whole: LiveTable | None = None
    bot_seat: int | None = None

    # --- pre-turns (web.md 3.3) ------------------------------------------------------------

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
        """A turn just begun, no step sent yet: its seat and key."""
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
        found: dict[str, Any] = self.shared(("next", seat), lambda: self._next_turn(seat, key))
        return found

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
        queueable = sorted({".".join(_until_sign(steps_of(t))) for t in turns})
        moves = [{"path": path + ("*" if driver else ""), "end": end, "driver": driver}
                 for end, path, driver in movements(view, seat + 1, card)] if turns else []
        return {"key": key, "card": card, "turns": queueable, "moves": moves}

    def check_queue(self, seat: int, steps: list[str]) -> None:
        """ExpressError unless `steps` begin one of the seat's queueable sequences
        (`next_turn`), or are one whole with `end` after it; canonical paths only."""
        choices = self.next_turn(seat)
        if choices is None:
            raise ExpressError("you may queue your next turn while you wait for it in the "
                               "action phase")
        if not steps or len(steps) > MAX_QUEUE:
            raise ExpressError(f"a queued turn is 1 to {MAX_QUEUE} steps")
        ended = steps[-1] == "end"
        body = steps[:-1] if ended else steps
        if "end" in body:
            raise ExpressError("'end' is the last step of a queued turn")
        turns = [tuple(t.split(".")) for t in choices["turns"]]
        n = len(body)
        if ended:
            if tuple(body) not in turns or body[-1:] == ["s"]:
                raise ExpressError(f"{'.'.join(body) or 'nothing'} is not a whole turn of "
                                   f"{choices['card']}: it cannot end there")
        elif not any(t[:n] == tuple(body) for t in turns):
            raise ExpressError(f"{'.'.join(body)!r} does not begin a turn of "
                               f"{choices['card']} now")

    # --- a decision made for a seat (web.md 4) -------------------------------------------

    def timeout_decision(self, seat: int) -> str:
        """The Easy bot decides from the seat's view; if it cannot, the fallbacks (the
        first character of Lo En Me Dr Ma left; the three lowest usable cards; the first
        legal path and no action; the lowest space that qualifies). A turn begun: its rest."""
        if self.meta.steps:
            return self.completion(seat)
        try:
            return self.bot_token(seat, "easy", 0)
        except ExpressError:
            return self.fallback(seat)

    def completion(self, seat: int) -> str:
        """The rest of a turn begun: `end` if it may end, else the shortest way on."""
        steps = tuple(self.meta.steps)
        if self.complete(self.meta.steps):
            return "end"
        n = len(steps)
        ways = [t for t in self.legal_steps() if t[:n] == steps]
        best = min(ways, key=lambda t: (len(t), t))
        more = any(len(t) > len(best) and t[:len(best)] == best for t in ways)
        return ".".join([*best[n:], *(["end"] if more else [])])

    def fallback(self, seat: int) -> str:
        """web.md 4's fallback for the decision `seat` has to make."""
        p = self.p
        if p.phase == "c":
            left = legal(p)
            return next(c for c in TIMEOUT_PICKS if c in left)
        if p.phase == "p":
            usable = [c for c in CARDS if p.usable(seat + 1, c)]
            return "".join((usable + [c for c in CARDS if c not in usable])[:3])
        if p.phase == "a":  # the first legal path, no action
            path = min(t[0] for t in self.legal_steps() if len(t) == 1)
            return f"{p.plans[seat][0]}:{path}"
        return min(legal(p), key=lambda t: int(t[1:]))

    def bot_token(self, seat: int, level: str, seed: int) -> str:
        """`seat`'s decision by the engine's bot at `level`, from that seat's view only. A
        bot's table (`for_seat`) decides for its own seat only; the rest of a turn begun is
        read from the whole table, and reads nothing hidden."""
        if self.bot_seat is not None and seat != self.bot_seat:
            raise ExpressError("a bot decides for its own seat only")
        if self.meta.steps:
            return (self.whole or self).completion(seat)
        view = format_position(self.p) if self.whole is not None else \
            format_position(self.p, seat + 1)
        return choose(view, level, seed, seat + 1)

    # --- what a seat may know --------------------------------------------------------------

    def shown_tokens(self, seat: int | None) -> list[str]:
        """The decisions as `seat` may know them (None: a spectator): every other seat's
        plan as its revealed cards then `?` (`A2??`); all of them once the game is over."""
        if self.over:
            return list(self.tokens)
        shown = list(self.tokens)
        for index, owner, revealed in self.meta.plans:
            if owner != seat:
                cards = plan_cards(shown[index])
                k = max(revealed, 0)
                shown[index] = "".join(cards[:k]) + "?" * (3 - k)
        return shown

    def for_seat(self, seat: int) -> Self:
        """What `seat`'s bot may know: the seat's view of the position, its own plan and
        stack, the decisions as it knows them; no seed, no log. Only `bot_token` is asked
        of it."""
        public = parse_position(format_position(self.p, seat + 1))
        meta = replace(self.meta, seed="", seqs=list(self.meta.seqs),
                       steps=list(self.meta.steps),
                       pending=[m if s == seat else None
                                for s, m in enumerate(self.meta.pending)],
                       stacks=[st if s == seat else [] for s, st in enumerate(self.meta.stacks)],
                       plans=[], log=[])
        table = type(self)(public, meta, self.shown_tokens(seat))
        table.whole, table.bot_seat = self, seat
        return table

    # --- the record ------------------------------------------------------------------------

    def write_record(self, headers: dict[str, str], seat: int | None, full: bool,
                     notes: dict[int, str] | None = None) -> str:
        """The engine's record: `full` (also once the game is over), else as `seat` may know
        it (None: a spectator). `headers` are the host's: `Seat K` (a seat's holder),
        `Date` and `SeedHash` are written; `notes`, by seat, a comment after its `SeatK`
        header, which notation.md allows and every reader skips."""
        if self.engine is None:
            raise ExpressError("a record needs the game replayed from its start")
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
        full = full or self.over
        text = self.engine.record(None if full else (0 if seat is None else seat + 1))
        for s, note in sorted((notes or {}).items()):
            line = re.compile(rf'^(\[Seat{s + 1} "[^"]*"\])$', re.M)
            comment = " ".join(note.split()).replace("\\", "/")  # one line, no escapes
            text = line.sub(rf"\1 # {comment}", text, count=1)
        return text
