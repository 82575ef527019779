"""A game from its start: decisions in, events out; records, views and the result.

This is the API the site uses. It speaks tokens, validates everything, never changes
the position when a decision is refused, and returns what each decision did as a list of
:mod:`express.events` (each saying which seats may see it).
"""

from __future__ import annotations

from typing import Any

import express.events as ev
from express.decisions import parse_plan, parse_resign
from express.errors import ExpressError
from express.legal_decisions import legal
from express.moves import play, play_plan, play_resign
from express.notation import format_position, parse_position
from express.position import Position, Result, start_position
from express.record import ROUND, Entry, format_record, parse_record
from express.rules import CURRENT_RULES, RULES_VERSIONS

_FIELD_OF_PHASE = {"c": "picks", "p": "plans", "a": "turns", "r": "swap"}


class Game:
    """A game: its start position, the decisions played and the position reached."""

    def __init__(self, start: Position, headers: dict[str, str] | None = None,
                 start_given: bool = True) -> None:
        if start.hidden is not None:
            raise ExpressError("a game starts from a full position, not a public view")
        if headers and headers.get("Rules", start.rules) != start.rules:
            raise ExpressError(f"the Rules header {headers['Rules']!r} differs from the "
                               f"start position's rules version {start.rules}")
        self.start = start.copy()
        self.position = start.copy()
        self.headers = dict(headers or {})
        self.start_given = start_given
        self.entries: list[Entry] = []
        self.orders: dict[int, list[int]] = {start.round: start.order()}

    # --- making games -------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, headers: dict[str, str] | None = None,
            rules: str = CURRENT_RULES, first: int | None = None) -> Game:
        """A new game from a seed, in rules version ``rules`` (the current one, x0.2, unless
        told); the game keeps that version (its ``Rules`` header and every position).
        ``first``: the seat given the stationmaster card (``start_position``); when it is
        not the seed's own draw, the seed no longer fixes the setup, so the record carries
        the start as its ``Start`` header (notation.md), beside the ``Seed`` it was dealt
        from."""
        if rules not in RULES_VERSIONS:
            raise ExpressError(f"unknown rules version {rules!r} (x0.2 or x0.1)")
        heads = {"Game": "cargo-express", "Rules": rules, "Players": str(players),
                 "Seed": str(seed)} | dict(headers or {})
        try:
            start = start_position(players, seed, rules, first)
        except ValueError as e:
            raise ExpressError(str(e)) from None
        given = first is not None and first != start_position(players, seed, rules).sm
        return cls(start, heads, start_given=given)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """A game from a full position; it keeps the position's rules version."""
        p = parse_position(text)
        return cls(p, {"Game": "cargo-express", "Rules": p.rules, "Players": str(p.n)})

    @classmethod
    def from_record(cls, text: str) -> Game:
        """Replay a full record; an error carries the bad decision's index in ``at``."""
        record = parse_record(text)
        if record.start is None:
            raise ExpressError("the record has neither a Seed nor a Start header, so it "
                               "cannot be replayed")
        heads = {k: v for k, v in record.headers.items() if k != "Start"}
        game = cls(record.start, heads, start_given="Start" in record.headers)
        game._walk(record.tokens)
        return game

    def _walk(self, tokens: list[str]) -> None:
        """Play the round tokens of a record (notation.md "Reading a round")."""
        p = self.position
        at = 0
        field: str | None = None  # None: before the first N.; "next": after a swap
        slot = 0
        for tok in tokens:
            p = self.position
            try:
                if ROUND.fullmatch(tok):
                    if field not in (None, "next"):
                        raise ExpressError(f"round number {tok!r} stands in the middle of "
                                           f"round {p.round}")
                    if p.over:
                        raise ExpressError(f"{tok!r}: nothing may follow the end of the game")
                    if int(tok[:-1]) != p.round:
                        raise ExpressError(f"round number {tok!r}: round {p.round} comes next")
                    field = "picks"
                    continue
                if tok == "|":
                    if field in (None, "next"):
                        raise ExpressError("'|' before the round number N.")
                    if p.over:
                        raise ExpressError("'|': nothing may follow the end of the game")
                    if field == "picks":
                        if p.phase == "c":
                            raise ExpressError("'|' ends PICKS before character selection "
                                               "is over")
                        field, slot = "plans", 0
                    elif field == "plans":
                        if p.phase in "cp":
                            raise ExpressError("'|' ends PLANS before planning is over")
                        field = "turns"
                    elif field == "turns":
                        if p.phase != "r":
                            raise ExpressError("'|' ends TURNS before the round's turns are "
                                               "all played")
                        field = "swap"
                    else:
                        raise ExpressError("'|' after the swap: a round has four fields")
                    continue
                if field is None:
                    raise ExpressError(f"{tok!r} comes before the first round number N.")
                if p.over:
                    raise ExpressError(f"{tok!r}: nothing may follow the end of the game")
                if field == "next" and not tok.startswith("resign"):
                    raise ExpressError(f"{tok!r}: the next round starts with its number "
                                       f"{p.round}.")
                if tok.startswith("resign"):
                    self.resign(parse_resign(tok).seat)
                elif field == "plans":
                    self._plan_entry(tok, slot)
                    slot += 1
                else:
                    want = {"picks": "c", "turns": "a", "swap": "r"}[field]
                    if p.phase != want:
                        raise ExpressError(f"{tok!r} does not belong in {field.upper()} "
                                           f"(the game is in phase {p.phase_token})")
                    self.play(tok)
                    if field == "swap":
                        field = "next"
            except ExpressError as e:
                raise e.with_at(at) from None
            at += 1

    def _plan_entry(self, tok: str, slot: int) -> None:
        p = self.position
        if slot >= p.n:
            raise ExpressError(f"{tok!r}: PLANS has one entry for each of the {p.n} seats")
        plan = parse_plan(tok)
        if not plan.cards:
            return
        seat = p.order()[slot]
        if p.phase != "p":
            raise ExpressError(f"{tok!r}: planning is over (phase {p.phase_token})")
        self.play(tok, seat)

    # --- what may happen next -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.position.over

    def legal(self) -> list[str]:
        """The CLI's ``legal``: picks, turns or swaps in canonical form, sorted."""
        return legal(self.position)

    def to_move(self) -> list[int]:
        return self.position.to_move()

    # --- playing ------------------------------------------------------------------------

    def play(self, token: str, seat: int | None = None) -> list[ev.Event]:
        """Check and play one decision (a plan needs its seat); return what happened.

        Raises ExpressError and changes nothing if the decision is not legal.
        """
        if token.startswith("resign"):
            return self.resign(parse_resign(token).seat)
        before = self.position
        if before.over:
            raise ExpressError(f"{token!r}: the game is over")
        if before.phase == "p" and seat is None:
            raise ExpressError(f"{token!r}: say which seat commits this plan")
        p = before.copy()
        events: list[ev.Event] = []
        play(p, token, seat, events)
        self._record(before, token, seat or 0)
        return self._finish(p, events)

    def commit(self, seat: int, plan: str) -> list[ev.Event]:
        """Seat ``seat`` commits ``plan`` (three different cards, top first)."""
        before = self.position
        p = before.copy()
        events: list[ev.Event] = []
        play_plan(p, seat, parse_plan(plan), plan, events)
        self._record(before, plan, seat)
        return self._finish(p, events)

    def resign(self, seat: int) -> list[ev.Event]:
        """Rule 77: the seat goes dormant (the game ends if one seat is left)."""
        before = self.position
        p = before.copy()
        events: list[ev.Event] = []
        token = f"resign{seat}"
        play_resign(p, parse_resign(token), token, events)
        self._record(before, token, seat)
        return self._finish(p, events)

    def _record(self, before: Position, token: str, seat: int) -> None:
        if before.phase == "a" and not token.startswith("resign"):
            seat = before.turn_seat()
        self.entries.append(Entry(before.round, _FIELD_OF_PHASE[before.phase], token, seat))

    def _finish(self, p: Position, events: list[ev.Event]) -> list[ev.Event]:
        self.position = p
        self.orders.setdefault(p.round, p.order())
        if p.over:
            events.append(ev.GameOver(0, result=p.result().as_dict()))
        return events

    # --- the outcome and the forms ------------------------------------------------------

    def result(self) -> Result | None:
        return self.position.result() if self.over else None

    def view(self, seat: int) -> str:
        """The position as seat ``seat`` sees it (0: a spectator); full once over."""
        if not 0 <= seat <= self.position.n:
            raise ExpressError(f"there is no seat {seat} (0 is a spectator, 1..{self.position.n}"
                               f" the players)")
        return format_position(self.position, seat)

    def summary(self) -> dict[str, Any]:
        """The ``replay`` JSON of notation.md."""
        p = self.position
        result = self.result()
        return {
            "position": format_position(p),
            "phase": p.phase_token,
            "round": p.round,
            "to_move": p.to_move(),
            "legal": self.legal(),
            "over": p.over,
            "result": None if result is None else result.as_dict(),
        }

    def record(self, viewer: int | None = None) -> str:
        """The record: full (``viewer`` None, or once the game is over), or as a seat sees it.

        The full record has ``Start`` when the game did not begin from a seed. The public
        record for seat ``viewer`` (0: a spectator) drops ``Seed``, writes a ``Start`` in
        its public form and every plan but the viewer's own as its revealed cards then
        ``?`` (``A2??``), as notation.md's "Plans and picks" shows.
        """
        if viewer is None or self.over:
            return format_record(self.headers, self.start, self.entries, self.orders,
                                 self.start_given)
        heads = {k: v for k, v in self.headers.items() if k != "Seed"}
        if self.start_given:
            heads["Start"] = format_position(self.start, viewer)
        turns: dict[tuple[int, int], int] = {}
        for e in self.entries:
            if e.field == "turns":
                turns[e.round, e.seat] = turns.get((e.round, e.seat), 0) + 1
        entries = []
        for e in self.entries:
            if e.field == "plans" and e.seat != viewer and not e.token.startswith("resign"):
                shown = turns.get((e.round, e.seat), 0)
                cards = parse_plan(e.token).cards
                e = Entry(e.round, e.field, "".join(cards[:shown]) + "?" * (3 - shown),
                          e.seat)
            entries.append(e)
        return format_record(heads, self.start, entries, self.orders, False)
