"""A tiny game of our own, only for tests: three seats share a pile of counters and take
1, 2 or 3 in turn (a seat that resigned is skipped); whoever takes the last one wins, the
others share second place. It shows a second game kind plays through the same services,
seats and sockets as Cargo Connect, with no engine of the site's."""

from __future__ import annotations

from typing import Any

from games.kinds import (
    EVERYTHING,
    Event,
    GameKind,
    KindError,
    LiveGame,
    OptionField,
    Result,
    Viewer,
)

SEATS = ("red", "green", "yellow")


class PileGame(LiveGame):
    def __init__(self, left: int, to_move: int, resigned: set[int], winner: int | None,
                 tokens: list[str]) -> None:
        self.left, self.to_move, self.out, self.winner = left, to_move, resigned, winner
        self.tokens = tokens

    def acting(self) -> list[int]:
        return [] if self.over else [self.to_move]

    def _advance(self) -> None:
        for step in range(1, 4):
            seat = (self.to_move + step) % 3
            if seat not in self.out:
                self.to_move = seat
                return

    def apply(self, seat: int, token: str) -> list[Event]:
        if seat not in self.acting():
            raise KindError(f"it is {SEATS[self.to_move]}'s turn")
        if token not in ("1", "2", "3") or int(token) > self.left:
            raise KindError(f"{token!r}: take 1, 2 or 3, at most {self.left}")
        ply = self.ply
        self.left -= int(token)
        self.tokens.append(token)
        events: list[Event] = [{"type": "take", "seat": seat, "took": int(token),
                                "left": self.left, "ply": ply}]
        if self.left == 0:
            self.winner = seat
            events.append({"type": "over", "ply": ply})
        else:
            self._advance()
        return events

    def resign(self, seat: int) -> list[Event]:
        if self.over or seat in self.out:
            raise KindError("that seat cannot resign now")
        self.out.add(seat)
        standing = [s for s in range(3) if s not in self.out]
        if len(standing) == 1:
            self.winner = standing[0]
        elif seat == self.to_move:
            self._advance()
        return [{"type": "resigned", "seat": seat, "ply": self.ply}]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def resigned(self) -> list[int]:
        return sorted(self.out)

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result(scores=tuple(int(s == self.winner) for s in range(3)),
                      places=tuple(1 if s == self.winner else 2 for s in range(3)))

    def position(self) -> str:
        out = "".join(str(s) for s in sorted(self.out)) or "-"
        return f"{self.left} {self.to_move} {out}"

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return {"left": self.left, "to_move": SEATS[self.to_move],
                "legal": [] if self.over else [t for t in "123" if int(t) <= self.left],
                "over": self.over, "result": None if self.winner is None else
                {"winner": SEATS[self.winner]}}

    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        return events

    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING) -> str:
        return " ".join(self.tokens)


class Pile(GameKind):
    key = "pile"
    name = "Pile"
    seat_counts = (3,)
    rules_version = "1"
    bot_levels = ("easy",)
    bot_version = "pile-1"
    view_template = "games/cargo-connect/view.html"
    view_module = "js/cargo-connect/view.js"

    def seat_key(self, seat: int) -> str:
        return SEATS[seat]

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        counters = options.get("counters", 7)
        if not isinstance(counters, int) or not 1 <= counters <= 50:
            raise KindError("counters must be 1 to 50")
        return {"counters": counters}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        return f"{options['counters']} 0 -"

    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        left, to_move, out = position.split()
        game = PileGame(int(left), int(to_move), set(resigned), None, list(tokens))
        if game.left == 0:  # the last take does not move the turn on: the taker won
            game.winner = game.to_move
        standing = [s for s in range(3) if s not in game.out]
        if len(standing) == 1:
            game.winner = standing[0]
        return game

    def replay(self, start: str, tokens: list[str], seats: list[int]) -> LiveGame:
        game = self.resume(start, [], [])
        for seat, token in zip(seats, tokens, strict=True):
            game.apply(seat, token)
        return game

    def bot_decision(self, game: LiveGame, seat: int, level: str, seed: int) -> str:
        return "1"



class LobbyPile(Pile):
    """Pile as the lobby offers it (docs/tables.md): its one option described for the seek
    form. Registered only by the tests that ask for it."""

    in_lobby = True
    option_fields = (OptionField("counters", "Counters",
                                 choices=((7, "7 counters"), (11, "11 counters")), default=7),)

    def describe_options(self, options: dict[str, Any]) -> str:
        return f"{options['counters']} counters"
