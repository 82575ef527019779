"""A small game of our own with hidden, simultaneous decisions, only for tests: 2 to 4 seats
bid each round at the same time, secretly; when every seat still in has bid, the bids are
revealed together and each seat scores its bid unless another seat bid the same number.
After the last round the highest score wins (ties share a place).

A bid is `b<digit>`, optionally with a private note `b<digit>:<letters>` (which the tests use
as a marker no other connection may ever see before the reveal). It proves the platform's
view per viewer (games.frames.audiences): a seat sees its own bid at once, the others and the
spectators only "seat K is ready" until the reveal, and after the game everything.

Its position (the row's cache, never sent): `round/rounds scores bids order seqs out`,
e.g. `1/3 0,0,0 b5:x,-,- 0 1,0,0 -`: the bids of the round so far, the seats in the order
they bid this round, each seat's count of decisions, the seats that resigned.

The rounds, resigning, the end and the places are the shared kind of rounds'
(tests/platform/rounds_kind.py, which the clocks' Picks kind shares too).
"""

from __future__ import annotations

import re
from typing import Any

from games.kinds import EVERYTHING, Event, KindError, LiveGame, Viewer
from tests.platform.rounds_kind import RoundsGame, RoundsKind

SEATS = ("north", "east", "south", "west")
BID = re.compile(r"b([0-9])(?::([a-z]{1,16}))?")
HIDDEN = "?"


class BidGame(RoundsGame):
    def __init__(self, n: int, rounds: int, tokens: list[str]) -> None:
        self.n, self.rounds, self.tokens = n, rounds, tokens
        self.round = 1
        self.scores = [0] * n
        self.bids: list[str | None] = [None] * n
        self.order: list[int] = []  # this round's bidders, in order
        self.seqs = [0] * n
        self.out: set[int] = set()

    # --- the rules -----------------------------------------------------------------------

    @property
    def decided(self) -> list[str | None]:
        return self.bids

    def sequence(self, seat: int) -> int:
        return self.seqs[seat]

    def apply(self, seat: int, token: str) -> list[Event]:
        if seat not in self.acting():
            raise KindError(f"{SEATS[seat]} has already bid this round")
        match = BID.fullmatch(token)
        if match is None:
            raise KindError(f"{token!r}: a bid is b0 to b9 (with an optional :note)")
        ply = self.ply
        self.tokens.append(token)
        self.bids[seat] = token
        self.order.append(seat)
        self.seqs[seat] += 1
        events: list[Event] = [
            {"type": "bid", "seat": seat, "bid": int(match.group(1)), "token": token,
             "only": [seat], "ply": ply},
            {"type": "ready", "seat": seat, "ply": ply},
        ]
        return events + self.reveal_if_complete(ply)

    def complete(self) -> bool:
        """Every seat still in has bid (and someone bid this round)."""
        return not self.acting() and bool(self.order)

    def reveal(self, ply: int) -> Event:
        """Each seat scores its bid unless another seat bid the same number."""
        values = [None if b is None else int(b[1]) for b in self.bids]
        for seat, value in enumerate(values):
            if value is not None and values.count(value) == 1:
                self.scores[seat] += value
        return {"type": "reveal", "round": self.round, "bids": list(self.bids),
                "scores": list(self.scores), "ply": ply}

    def new_round(self) -> None:
        self.bids = [None] * self.n
        self.order = []

    def ranking(self) -> list[int]:
        """The score; a seat that resigned comes last."""
        return [-1 if s in self.out else self.scores[s] for s in range(self.n)]

    # --- what each viewer sees -------------------------------------------------------------

    def _sees(self, viewer: Viewer, seat: int) -> bool:
        return viewer == EVERYTHING or viewer == seat or self.over

    def tokens_for(self, viewer: Viewer) -> list[str]:
        hidden = len(self.order)  # this round's bids: the last tokens, in `order`
        shown = list(self.tokens[:len(self.tokens) - hidden])
        shown += [t if self._sees(viewer, s) else HIDDEN
                  for s, t in zip(self.order, self.tokens[len(self.tokens) - hidden:],
                                  strict=True)]
        return shown

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return {
            "round": min(self.round, self.rounds), "rounds": self.rounds,
            "scores": list(self.scores),
            "bids": [b if b is None or self._sees(viewer, s) else HIDDEN
                     for s, b in enumerate(self.bids)],
            "ready": [b is not None for b in self.bids],
            "legal": [f"b{d}" for d in range(10)] if isinstance(viewer, int)
            and viewer in self.acting() else [],
            "over": self.over,
            "result": None if not self.over else {"places": list(self.result().places)}
            if self.result() else None,
        }

    def redacted(self, seat: int) -> LiveGame:
        copy = BidGame(self.n, self.rounds, self.tokens_for(seat))
        copy.round, copy.scores, copy.order = self.round, list(self.scores), list(self.order)
        copy.bids = [b if b is None or s == seat else HIDDEN for s, b in enumerate(self.bids)]
        copy.seqs, copy.out = list(self.seqs), set(self.out)
        return copy

    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        return [e for e in events if "only" not in e or viewer == EVERYTHING
                or viewer in e["only"]]

    def position(self) -> str:
        bids = ",".join(b or "-" for b in self.bids)
        order = ",".join(map(str, self.order)) or "-"
        out = ",".join(map(str, sorted(self.out))) or "-"
        return (f"{self.round}/{self.rounds} {','.join(map(str, self.scores))} {bids} "
                f"{order} {','.join(map(str, self.seqs))} {out}")

    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING) -> str:
        return " ".join(self.tokens_for(viewer))


class Bid(RoundsKind):
    key = "bid"
    name = "Bid"
    bot_levels = ("easy",)
    bot_version = "bid-1"
    # Its own view, test-only (tests/platform/web/, found by the test run alone:
    # tests/conftest.py `test_only_views`).
    view_template = "games/bid/view.html"
    view_module = "js/bid/view.js"
    replay_template = "games/bid/replay.html"
    replay_module = "js/bid/replay.js"
    hidden_information = True
    seat_sequences = True
    leaver_stand_in = "easy"  # a seat whose holder leaves (3-4 seats) is played on by a bot
    seat_names = SEATS

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return {"rounds": self.rounds_option(options, 9)}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        game = BidGame(seats, options["rounds"], [])
        return game.position()

    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        rounds, scores, bids, order, seqs, out = position.split()
        now, total = (int(x) for x in rounds.split("/"))
        game = BidGame(len(scores.split(",")), total, list(tokens))
        game.round = now
        game.scores = [int(x) for x in scores.split(",")]
        game.bids = [None if b == "-" else b for b in bids.split(",")]
        game.order = [] if order == "-" else [int(x) for x in order.split(",")]
        game.seqs = [int(x) for x in seqs.split(",")]
        game.out = set(resigned) | (set() if out == "-" else {int(x) for x in out.split(",")})
        return game

    def replay(self, start: str, tokens: list[str], seats: list[int]) -> LiveGame:
        game = self.resume(start, [], [])
        for seat, token in zip(seats, tokens, strict=True):
            game.apply(seat, token)
        return game

    def bot_decision(self, game: LiveGame, seat: int, level: str, seed: int) -> str:
        assert isinstance(game, BidGame)
        SEEN.append((seat, list(game.tokens), list(game.bids)))
        return f"b{(seed + seat) % 10}"


SEEN: list[tuple[int, list[str], list[str | None]]] = []  # what each bot decision saw
