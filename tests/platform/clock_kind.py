"""A tiny game of our own, only for the clock tests: 2 to 4 seats decide at the same time.
Each round every seat still in secretly picks 1, 2 or 3, in any order; when every one has
picked, the picks are revealed together and added to the seats' scores. After `rounds`
rounds the highest score wins (ties share the place; a seat that resigned comes last).

A decision's token names its seat and its pick, `"<seat>:<pick>"` ("1:3": the second seat
picks 3), so a replay knows who made each one whatever order they came in. A pick of 0
("think again") is a decision that leaves the seat still to pick: its clock is charged and
starts again while the others' run on, so running clocks can have different starts.

The kind says what a timed-out decision becomes (`timeout` option): `"pick"` (default) has
the site pick 1 for a seat whose clock fell; `"lose"` makes no decision (the seat loses and
leaves, as in Cargo Connect). Registered by the `picks_kind` fixture (tests/platform and
tests/clocks conftests). The rounds, resigning, the end and the places are the shared kind of
rounds' (tests/platform/rounds_kind.py, which the hidden Bid kind shares too)."""

from __future__ import annotations

from typing import Any

from games.kinds import Event, KindError, LiveGame
from tests.platform.rounds_kind import RoundsGame, RoundsKind

SEATS = ("red", "green", "yellow", "purple")
PICKS = ("0", "1", "2", "3")  # 0: think again (still to pick)
POLICIES = ("pick", "lose")


class PicksGame(RoundsGame):
    def __init__(self, round_: int, rounds: int, picks: list[int | None], scores: list[int],
                 policy: str, resigned: set[int], tokens: list[str]) -> None:
        self.round, self.rounds, self.picks, self.scores = round_, rounds, picks, scores
        self.policy, self.out, self.tokens = policy, resigned, tokens
        self.n = len(picks)

    @property
    def decided(self) -> list[int | None]:
        return self.picks

    def timeout_decision(self, seat: int) -> str | None:
        return f"{seat}:1" if self.policy == "pick" else None

    def apply(self, seat: int, token: str) -> list[Event]:
        if seat not in self.acting():
            raise KindError(f"{SEATS[seat]} has picked this round")
        who, _, pick = token.partition(":")
        if who != str(seat) or pick not in PICKS:
            raise KindError(f"{token!r}: send {seat}:1, {seat}:2 or {seat}:3 ({seat}:0 to "
                            f"think again)")
        ply = self.ply
        self.tokens.append(token)
        if pick == "0":
            return [{"type": "thinking", "seat": seat, "ply": ply}]
        self.picks[seat] = int(pick)
        events: list[Event] = [{"type": "picked", "seat": seat, "pick": int(pick),
                                "only": seat, "ply": ply}]
        return events + self.reveal_if_complete(ply)

    def complete(self) -> bool:
        """Every seat still in has picked (a game already over reveals nothing more)."""
        return not self.over and all(self.picks[s] is not None for s in self.playing)

    def reveal(self, ply: int) -> Event:
        """Each seat still in adds its pick to its score."""
        revealed = list(self.picks)
        for s in self.playing:
            self.scores[s] += self.picks[s] or 0
        return {"type": "revealed", "picks": revealed, "scores": list(self.scores), "ply": ply}

    def new_round(self) -> None:
        self.picks = [None] * self.n

    def ranking(self) -> list[tuple[bool, int]]:
        """Still in first, then by score."""
        return [(s not in self.out, self.scores[s]) for s in range(self.n)]

    def position(self) -> str:
        picks = "".join("-" if p is None else str(p) for p in self.picks)
        return f"{self.round} {self.rounds} {picks} {','.join(map(str, self.scores))} " \
               f"{self.policy}"

    def view(self, viewer: int | None) -> dict[str, Any]:
        return {"round": self.round, "rounds": self.rounds, "scores": list(self.scores),
                "ready": [p is not None for p in self.picks],
                "mine": None if viewer is None else self.picks[viewer],
                "legal": [] if viewer not in self.acting() else [f"{viewer}:{p}" for p in PICKS],
                "over": self.over}

    def events_for(self, events: list[Event], viewer: int | None) -> list[Event]:
        return [e if e.get("only") in (None, viewer) else
                {k: v for k, v in e.items() if k != "pick"} for e in events]

    def record(self, headers: dict[str, str]) -> str:
        return " ".join(self.tokens)


class Picks(RoundsKind):
    key = "picks"
    name = "Picks"
    seat_names = SEATS
    view_template = "games/cargo-connect/view.html"
    view_module = "js/cargo-connect/view.js"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        rounds, policy = self.rounds_option(options, 20), options.get("timeout", "pick")
        if policy not in POLICIES:
            raise KindError(f"timeout is one of {', '.join(POLICIES)}")
        return {"rounds": rounds, "timeout": policy}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        return f"1 {options['rounds']} {'-' * seats} {','.join('0' * seats)} " \
               f"{options['timeout']}"

    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        round_, rounds, picks, scores, policy = position.split()
        return PicksGame(int(round_), int(rounds),
                         [None if p == "-" else int(p) for p in picks],
                         [int(s) for s in scores.split(",")], policy, set(resigned),
                         list(tokens))

    def replay(self, start: str, tokens: list[str]) -> LiveGame:
        game = self.resume(start, [], [])
        for token in tokens:
            game.apply(int(token.partition(":")[0]), token)
        return game
