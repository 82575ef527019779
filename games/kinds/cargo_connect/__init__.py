"""Cargo Connect as a game kind: the site's only door to `engine/` for play (`howto.py`:
How to play's worked examples; `bays.py`: a bay drawn for a page, as the home page's demo).

Blue and Orange are seats 0 and 1. A decision is a whole turn token of the notation
(`a+a1a2a3a4`); the state a viewer sees is `engine.describe.describe` (nothing in Cargo
Connect is hidden) plus the card names, so the page keeps no copy of them.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from engine import CURRENT_RULES, RULES_VERSIONS, EngineError
from engine import Game as EngineGame
from engine.bot import BOT_LEVELS, BOT_VERSION, choose_turn
from engine.describe import CARD_NAMES, describe
from engine.geometry import SIZES
from engine.notation import format_position, start_position
from engine.position import CARD_ORDER, SIDE_NAMES
from engine.review import REVIEW_VERSION, analyse, review_game
from games.kinds import (
    EVERYTHING,
    Event,
    GameKind,
    KindError,
    LiveGame,
    OptionField,
    Result,
    Viewer,
    register,
)
from games.kinds.cargo_connect.bays import board
from games.kinds.cargo_connect.howto import examples

DEFAULT_SIZE = 6
STANDARD_SIZE = 8  # the standard shift's bay
# The landing page's demo bay: a shift in progress, rows from the top in the notation's
# letters ("B" Blue core, "O" Orange core, "x" an Empty Can, "." open space).
DEMO_SHIFT = ["......", "......", "..O...", ".BOB..", "xxOB.O", "xxBOBO"]


class CargoConnectGame(LiveGame):
    def __init__(self, game: EngineGame) -> None:
        self.game = game
        self._formatted: tuple[int, str] | None = None  # (ply, the position's notation)

    @property
    def tokens(self) -> list[str]:  # type: ignore[override]
        return self.game.tokens

    @property
    def ply(self) -> int:
        return self.game.ply

    def acting(self) -> list[int]:
        return [] if self.game.over else [self.game.position.side]

    def apply(self, seat: int, token: str) -> list[Event]:
        if seat not in self.acting():
            raise KindError(f"it is {SIDE_NAMES[self.game.position.side]}'s turn")
        try:
            return self.game.play(token)
        except EngineError as e:
            raise KindError(str(e)) from None

    def resign(self, seat: int) -> list[Event]:
        try:
            return self.game.resign(seat)
        except EngineError as e:
            raise KindError(str(e)) from None

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def resigned(self) -> list[int]:
        return [] if self.game.resigned is None else [self.game.resigned]

    def result(self) -> Result | None:
        result = self.game.result()
        if result is None:
            return None
        winner = result["winner"]
        places = (1, 1) if winner is None else (1, 2) if winner == "blue" else (2, 1)
        return Result(scores=(result["blue"], result["orange"]), places=places)

    def standing(self) -> tuple[int, ...] | None:
        audit = self.game.audit()  # the Final Audit of the position now, as on resigning
        return (audit.blue.final, audit.orange.final)

    def position(self) -> str:
        """The position's notation, formatted once per ply: a turn wants it for the row's
        cache and again for the state. Only `apply` changes the position here, and every
        turn adds a ply (a resign leaves the position as it was)."""
        ply = self.game.ply
        if self._formatted is None or self._formatted[0] != ply:
            self._formatted = (ply, format_position(self.game.position))
        return self._formatted[1]

    def view(self, viewer: Viewer) -> dict[str, Any]:
        state = describe(self.game, self.position())
        state["card_names"] = [[card, CARD_NAMES[card]] for card in CARD_ORDER]
        return state

    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        return events  # nothing in Cargo Connect is hidden

    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING,
               notes: dict[int, str] | None = None) -> str:
        self.game.headers.update(headers)  # two seats: a seat never changes hands
        return self.game.record()


class CargoConnect(GameKind):
    key = "cargo-connect"
    name = "Cargo Connect"
    seat_counts = (2,)
    rules_version = CURRENT_RULES
    rules_versions = RULES_VERSIONS
    sizes = SIZES
    bot_levels = BOT_LEVELS
    bot_ratings = MappingProxyType({"easy": 800, "medium": 1200, "hard": 1600})  # fixed: the
    # vs CargoBot rating plays each level as a player of this rating (docs/bot-games.md)
    bots_name = "CargoBot"
    bot_version = BOT_VERSION
    quick_bot_level = "medium"  # one turn ahead: milliseconds (docs/bot.md)
    in_lobby = True
    lobby_hint = "Blue moves first."
    seat_markers = True
    rating_method = "elo"  # unchanged: K 40 then 20 (rankings.elo)
    option_fields = (
        OptionField("size", "Bay size", choices=tuple((n, f"{n}×{n}") for n in SIZES),
                    default=DEFAULT_SIZE),
    )
    view_template = "games/cargo-connect/view.html"
    view_module = "js/cargo-connect/view.js"
    replay_template = "games/cargo-connect/replay.html"
    howto_template = "howto.html"
    replay_module = "js/cargo-connect/replay.js"
    home_play_template = "games/cargo-connect/home_play.html"
    home_hero_template = "games/cargo-connect/home_hero.html"

    def seat_key(self, seat: int) -> str:
        return SIDE_NAMES[seat]

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        size = options.get("size", DEFAULT_SIZE)
        try:
            size = int(size)
        except (TypeError, ValueError):
            raise KindError(
                f"bay size must be a number from {SIZES[0]} to {SIZES[-1]}") from None
        if size not in SIZES:
            raise KindError(f"bay size must be {SIZES[0]} to {SIZES[-1]}, not {size}")
        return {"size": size}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        if seats != 2:
            raise KindError("Cargo Connect is played by two")
        try:
            return format_position(start_position(options["size"], rules))
        except EngineError as e:
            raise KindError(str(e)) from None

    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        game = EngineGame.from_position(position)
        game.tokens = list(tokens)
        if resigned:
            game.resigned = resigned[0]
        return CargoConnectGame(game)

    def replay(self, start: str, tokens: list[str], seats: list[int]) -> LiveGame:
        game = EngineGame.from_position(start)  # the seats alternate: the tokens suffice
        for token in tokens:
            game.play(token)
        return CargoConnectGame(game)

    def bot_name(self, level: str) -> str:
        return f"CargoBot {level.title()}"

    def bot_decision(self, game: LiveGame, seat: int, level: str, seed: int) -> str:
        assert isinstance(game, CargoConnectGame)
        if level not in BOT_LEVELS:
            raise KindError(f"unknown CargoBot level {level!r}")
        return choose_turn(game.game.position, level, seed)

    def howto(self) -> dict[str, Any]:
        return examples()  # the page's boards, made by the engine once

    def home_play(self) -> dict[str, Any]:
        """Besides the lobby and CargoBot, quick pairing: a button per bay size, posting
        its options (a time control is one more key and a row of pills above them)."""
        quick = [{"label": f"{n}×{n}", "options": {"size": n}, "standard": n == STANDARD_SIZE}
                 for n in SIZES]
        return {**super().home_play(), "quick_play": quick}

    def home_hero(self) -> dict[str, Any]:
        """Besides the lobby, the landing page's demo bay, drawn by the server like How to
        play's boards (`bays.board`, templates/games/_mini_bay.html, game.css's modules,
        which home.html loads for visitors), so its pieces are the game's: Blue round,
        Orange a diamond (issue #27). It asks nothing of the database."""
        demo = board(DEMO_SHIFT, label="A 6×6 Cargo Bay mid-shift: Blue and Orange cores "
                                       "and Empty Cans")
        return {**super().home_hero(), "demo": demo}

    review_version = REVIEW_VERSION
    review_template = "games/cargo-connect/review.html"
    review_module = "js/cargo-connect/review.js"

    def review(self, start: str, tokens: list[str],
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        try:
            return review_game(start, tokens, progress=progress).as_dict()
        except EngineError as e:
            raise KindError(str(e)) from None

    def analyse(self, start: str, tokens: list[str], line: list[str]) -> dict[str, Any]:
        try:
            found = analyse(start, tokens, line)
        except EngineError as e:
            where = f"trial turn {e.at + 1}: " if e.at is not None else ""
            raise KindError(where + str(e)) from None
        state = describe(EngineGame(found["position"]))
        state["card_names"] = [[card, CARD_NAMES[card]] for card in CARD_ORDER]
        return {"state": state, "last": found["last"], "suggestion": found["suggestion"]}

    def describe_options(self, options: dict[str, Any]) -> str:
        size = options.get("size")
        return f"{size}×{size}" if size else ""


CARGO_CONNECT = register(CargoConnect())
