"""Game kinds: the one door from the site to a rules engine.

Each game the site hosts registers a `GameKind` (Cargo Connect in `games.kinds.cargo_connect`;
a test registers a three-seat dummy). Everything the site asks of an engine goes through it:
check a new game's options, make its start, load a stored game (`LiveGame`), apply a seat's
decision (returning events), the state a viewer may see, over and result, the record text,
a bot's decision. Nothing else in the site imports an engine, so a second game is one
registration plus its pages (`view_template`, `view_module`).

A stored game is its start plus its decisions; `resume` rebuilds it from the cached position
(cheap, every turn), `replay` from the start and each decision's seat (history, catch-up).

Viewers. Everything a kind shows is shown to one viewer: a seat (its index), a spectator
(`None`), or, once a game is over, `EVERYTHING` (the replay's "everything" and the full
record). A kind that hides information (`hidden_information`) builds each viewer's state,
events, tokens and record from what that viewer may see; the site sends each seat and the
spectators their own frames (games.frames.audiences) and never filters a frame after it is built.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal

from django.conf import settings
from django.urls import reverse

Event = dict[str, Any]

EVERYTHING: Final = "everything"  # a viewer who may see all: a finished game's replay and record
Viewer = int | None | Literal["everything"]


@dataclass(frozen=True)
class OptionField:
    """One option of a new game, as the lobby offers it (docs/tables.md): the option's key
    in the options dict, its label, the kind of field ("choice": one of `choices`, drawn
    as a row of radio pills), its choices as (value, label) and the value first checked.
    `clean` turns what a form posted into the value `check_options` expects (a posted
    "7" becomes the choice 7); anything else is left for `check_options` to refuse."""

    name: str
    label: str
    kind: str = "choice"
    choices: tuple[tuple[Any, str], ...] = ()
    default: Any = None
    hint: str = ""

    def clean(self, posted: str | None) -> Any:
        if posted is None or posted == "":
            return self.default
        for value, _ in self.choices:
            if str(value) == posted:
                return value
        return posted


class KindError(ValueError):
    """A decision or option the engine refuses; the message names what is wrong."""


@dataclass(frozen=True)
class Result:
    """A finished game's outcome, in seat order: scores and places (1 = first; seats that
    tie share a place). `winners` are the seats in first place, unless every seat is."""

    scores: tuple[int, ...]
    places: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        if all(place == 1 for place in self.places):
            return ()
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def outcome(self, seat: int) -> str:
        """"win", "draw" or "loss" for one seat."""
        if self.places[seat] > 1:
            return "loss"
        return "win" if self.winners else "draw"


class LiveGame(ABC):
    """One game in memory, between loading it from its row and saving the row again."""

    tokens: list[str]

    @property
    def ply(self) -> int:
        """Decisions applied so far (a resignation is not one)."""
        return len(self.tokens)

    def sequence(self, seat: int) -> int:
        """The number `seat`'s next decision carries: the game's ply when one seat acts at
        a time; with `GameKind.seat_sequences`, the count of the seat's own decisions so
        far (which the kind keeps in its position)."""
        return self.ply

    @abstractmethod
    def acting(self) -> list[int]:
        """The seats that may decide now, in seat order ([] when over)."""

    def deciding(self, seat: int) -> bool:
        """May `seat` send a decision now? The acting seats, and a kind may let others too
        (Cargo Express: a seat that has committed its plan may replace it until planning
        closes, while only the seats still to commit are `acting`: awaited, clocks running,
        bots asked)."""
        return seat in self.acting()

    def mid_decision(self, seat: int) -> bool:
        """Is `seat`'s last decision part of a larger one it has not finished (a step of a
        turn)? Its clock then runs on, neither charged nor given its increment, until the
        decision point is over (docs/clocks.md)."""
        return False

    @abstractmethod
    def apply(self, seat: int, token: str) -> list[Event]:
        """Apply `seat`'s decision; its events, each with `ply`. Raises KindError and
        changes nothing when the decision is malformed or illegal."""

    @abstractmethod
    def resign(self, seat: int) -> list[Event]:
        """`seat` resigns; its events."""

    @property
    @abstractmethod
    def over(self) -> bool: ...

    @property
    @abstractmethod
    def resigned(self) -> list[int]:
        """The seats that have resigned, in seat order."""

    @abstractmethod
    def result(self) -> Result | None:
        """None while the game goes on."""

    def timeout_decision(self, seat: int) -> str | None:
        """What becomes of an acting seat's decision when its clock falls: the token the
        site plays for it (applied like any decision, and counted as a timeout on the
        seat), or None: the seat loses on time (it is resigned for; a game of several
        seats may go on without it). Cargo Connect: None."""
        return None

    def standing(self) -> tuple[int, ...] | None:
        """The seats' scores as they stand now, for a result the site decides while the
        game goes on (a draw called when the opponent left); None if the kind has none."""
        return None

    @abstractmethod
    def position(self) -> str:
        """The position in the engine's notation: the row's cache."""

    @abstractmethod
    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The game-specific part of the state a viewer may see (None: a spectator)."""

    @abstractmethod
    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        """The events a viewer may see (hidden information stays on the server)."""

    def redacted(self, seat: int) -> LiveGame:
        """The game as `seat` may know it, for its bot (games.botplay.bots): a kind that hides
        information returns a copy without the other seats' secrets; one that hides
        nothing, the game itself."""
        return self

    def log(self, viewer: Viewer) -> list[Event] | None:
        """The recent events `viewer` was told (Cargo Express: those of the round), which
        the current state carries (`log`) so that a page loaded again tells what it had
        told; the states of earlier decisions (replays, catch-up's turns) carry none.
        Built from `events_for`, so nothing hidden from the viewer. None: the kind keeps
        no log."""
        return None

    def round_now(self) -> int | None:
        """The round the game is in, for a kind played in rounds (Cargo Express): when a
        seat changed hands is told by it ("since round 4"); None for a kind without."""
        return None

    def seat_left(self, seat: int, left: dict[str, Any]) -> list[Event]:
        """`seat`'s holder left and a bot plays the seat on (games.turns.play): the public
        event that says so (`left`: `ply`, `reason`, `round`, the bot's `bot` level and
        `name`). A kind that keeps a log (`log`) adds it there; by default only the
        platform's `left` event."""
        return [{"type": "left", "seat": seat, "stand_in": left["bot"], "ply": left["ply"]}]

    def tokens_for(self, viewer: Viewer) -> list[str]:
        """The decisions so far as `viewer` may see them, one entry per decision (a hidden
        one as the kind writes an unrevealed decision, e.g. "?"). A kind that hides no
        decision shows them all."""
        return list(self.tokens)

    @abstractmethod
    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING,
               notes: dict[int, str] | None = None) -> str:
        """The game as a record in the engine's notation, as `viewer` may see it (a kind
        that hides information writes its public form for anyone but `EVERYTHING`).
        `notes`: by seat, a fact of the game the notation has no field for (who played
        a seat after its holder left), written as the kind's notation allows comments."""

    # --- pre-turns (games.turns.preturns): steps a waiting seat queues for its next turn -----

    def queue_key(self, seat: int) -> str | None:
        """The key of the next turn `seat` may queue steps for now (it waits for that turn
        and its card is known to it), or None: it may not queue now. A kind without
        pre-turns: None."""
        return None

    def turn_key(self) -> tuple[int, str] | None:
        """A turn that has just begun and has no step yet: its seat and key (as
        `queue_key` gave it while the seat waited); None otherwise."""
        return None

    def in_turn(self, seat: int, key: str) -> bool:
        """Is `seat`'s turn `key` still in progress (a queued step may follow)?"""
        return False

    def check_queue(self, seat: int, steps: list[str]) -> None:
        """Raise KindError unless `steps` may be queued for `seat`'s next turn now (each
        step one the seat could send if the turn began now; `end` last, if at all)."""
        raise KindError("this game has no pre-turns")

    def reveals(self, events: list[Event]) -> bool:
        """Did a step's events show something new (the choice after them needs it): a
        queued turn stops after such a step."""
        return False


class GameKind(ABC):
    """A game the site hosts. Class attributes say what the rest of the site may offer."""

    key: str  # stored in Game.game_type
    name: str
    seat_counts: tuple[int, ...]
    rules_version: str  # the current rules, stored on new games
    bot_levels: tuple[str, ...] = ()
    bots_name: str = "bots"  # the kind's bots together, for people ("ExpressBots")
    # Each bot level's fixed rating: a kind with them gives a member a vs-bot rating from
    # casual games against its bots (rankings.ratings); a kind without shows no rating there.
    bot_ratings: Mapping[str, int] = MappingProxyType({})
    # The longest decision token the kind writes (a socket refuses a longer one unread);
    # at most `MAX_TOKEN_LENGTH`, the width of the stored token.
    max_token_length: int = 32
    # What becomes of a seat whose holder leaves (resigns, or the site resigns for them) a
    # game of more than two seats: "" (the seat goes dormant: `LiveGame.resign`, and the
    # others play on as the kind says) or a bot level that plays the seat on (the holder
    # takes last place; games.turns.play). With two seats a leaver loses the game.
    leaver_stand_in: str = ""
    bot_version: str = ""
    quick_bot_level: str = ""  # a level that decides in milliseconds (a task short of time)
    view_template: str  # the game's part of the game page
    view_module: str  # its ES module (a static path), driven by the live-game shell
    # The replay page's part (templates/games/replay.html includes it in `#replay`) and its
    # ES module, which exports `mountReplay(root, data)` (static/js/live/replay.js loads it
    # and hands it the replay built for the viewer). "": the kind has no replay page (a
    # 404 that says so; `replay.json` and the record still answer).
    replay_template: str = ""
    replay_module: str = ""
    # Does a viewer see less than the whole game (hands, secret plans, a deck's order)?
    # Then every frame is built per viewer and sent to that viewer's audience only
    # (games.frames.audiences); a kind that hides nothing sends one frame to the whole game.
    hidden_information: bool = False
    # How a seat's decision says which decision it is (docs/live-protocol.md, "seq"):
    # False, the game's ply (one seat acts at a time); True, the seat's own count of its
    # decisions so far, so that seats deciding at the same time are each accepted.
    seat_sequences: bool = False
    # Do the states that frames carry (a decision's, a resignation's, an ending's) repeat
    # the game's history: its decision tokens (`turns`) and the round's log (`log`)? True:
    # every state is whole. False: only snapshots carry them (the page, a `state` frame,
    # a reconnect, replays); a page keeps them from the frames' tokens and events, which
    # it gets anyway (Cargo Express: 2-3 KB of each 8 KB frame, sent to every audience at
    # every decision; docs/live-protocol.md, "Cargo Express").
    history_in_frames: bool = True
    # How a rated online game of this kind moves its members' ratings (rankings.ratings,
    # docs/ratings.md): "elo", two seats (a game of any other seat count is not rated);
    # "openskill", OpenSkill's Plackett-Luce model over the finishing places, for 2-4 seats
    # with shared places. Each game type keeps its own ratings either way.
    rating_method: str = "elo"

    @abstractmethod
    def seat_key(self, seat: int) -> str:
        """The seat's name in frames and CSS ("blue"); `seat_label` is for people."""

    def seat_label(self, seat: int) -> str:
        return self.seat_key(seat).title()

    @abstractmethod
    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options of a new game, validated and completed; KindError if bad."""

    @abstractmethod
    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        """The start position of a new game."""

    @abstractmethod
    def resume(self, position: str, tokens: list[str], resigned: list[int]) -> LiveGame:
        """A stored game from its cached position (no replay)."""

    @abstractmethod
    def replay(self, start: str, tokens: list[str], seats: list[int]) -> LiveGame:
        """A game replayed from its start through `tokens`, each decided by the seat at
        the same index of `seats`."""

    def bot_name(self, level: str) -> str:
        return f"Bot {level.title()}"

    def bot_decision(self, game: LiveGame, seat: int, level: str, seed: int) -> str:
        """`seat`'s decision at `level`; `game` is `LiveGame.redacted(seat)`: what that
        seat may know, and no more."""
        raise KindError(f"{self.name} has no bots")

    def facts(self, game_id: str, start: str, over: bool) -> dict[str, Any]:
        """Public facts of a game from its start, added to every viewer's state (Cargo
        Express: the seed's hash, and the seed once the game is over). None by default."""
        return {}

    def record_headers(self, game_id: str, start: str, over: bool) -> dict[str, str]:
        """Headers the kind adds to a game's record (Cargo Express: `SeedHash`)."""
        return {}

    def first_seat_options(self) -> dict[str, Any]:
        """Options that make a new game's first seat (seat 0) the one who starts, for a
        tournament that rotates its players through the seats (docs/tournaments.md);
        {} where seat 0 always starts, as Cargo Connect's Blue does. `check_options`
        accepts them; the lobby never offers them."""
        return {}

    def describe_options(self, options: dict[str, Any]) -> str:
        """A few words for lists ("6×6"); the lobby adds the player count when the kind
        has several (games.tables.lobby.describe_table)."""
        return ""

    # The live time controls the lobby offers for this kind's tables (`games.timing.clocks` codes),
    # in the order shown; () offers the platform's. Every kind is then offered the same
    # correspondence days and untimed (games.tables.forms.seek_choices). A kind whose game has
    # many more decision points than Cargo Connect's offers longer clocks (docs/clocks.md).
    time_presets: tuple[str, ...] = ()
    default_time_control: str = "10+5"

    def seat_summary(self, start: str, tokens: list[str], seats: list[int]
                     ) -> list[dict[str, dict[str, int]]]:
        """What each seat did in a finished game, for profiles (accounts.stats): per seat,
        named tallies of what it chose, e.g. `{"character": {"Logistician": 4}}` (the
        profile shows each tally's most chosen entry as the member's favourite). `tokens`
        and `seats` as for `replay`. None by default."""
        return [{} for _ in range(max(seats, default=-1) + 1)]

    # The lobby (games.tables.lobby, docs/tables.md). A kind the lobby offers says so with
    # `in_lobby`; its seeks and tables take the options `option_fields` describe (each
    # drawn by the lobby as a field of the seek form, none hard-coded there) and a seat
    # count from `seat_counts` (a choice of "Players" when there are several).
    in_lobby: bool = False
    option_fields: tuple[OptionField, ...] = ()
    lobby_hint: str = ""  # a line under the seek form ("Blue moves first.")
    seat_markers: bool = False  # the site's CSS draws its seats' markers (.side-dot.<key>)

    @property
    def default_seat_count(self) -> int:
        """The seat count a new table starts with: the largest the kind allows."""
        return max(self.seat_counts)

    def options_from(self, posted: Any) -> dict[str, Any]:
        """A new game's options from a form's fields (`posted.get(name)`), by
        `option_fields`; unchecked (`check_options` does that)."""
        return {f.name: f.clean(posted.get(f.name)) for f in self.option_fields}

    # The game review (docs/review.md): kinds that can review say so with `review_version`
    # (it changes whenever a review of the same game could come out differently).
    review_version: str = ""
    # The review page's part (templates/games/review.html includes it) and its ES module,
    # for a kind with `review_version`; another kind's review page is a 404 that says so.
    review_template: str = ""
    review_module: str = ""

    # How to play (cargosite.howto, /how-to-play/<key>; the default game's also at
    # /how-to-play): the page's template, which extends base.html, and what it draws
    # (`howto`, the kind's worked examples). A kind without a template has no page (404).
    howto_template: str = ""

    def howto(self) -> dict[str, Any]:
        """The How to play page's context: the kind's own examples."""
        return {}

    # The home page (cargosite.home, templates/home.html), which names no game: each kind
    # shows itself there in templates of its own, in `first_kinds_first` order. A member's
    # home has the kind's Play section (`home_play_template`, drawn with `play`:
    # `home_play()` plus the platform's time controls for its tables); the visitor's
    # landing page has its card in the hero (`home_hero_template`, drawn with `hero`:
    # `home_hero()`). Each is included into the page, so it also sees the page's context
    # (`daily`). "": the kind has no section there.
    home_play_template: str = ""
    home_hero_template: str = ""

    def lobby_url(self) -> str:
        """The lobby with this kind's seek form and tables (the default game's is the
        lobby's own, without `?game=`)."""
        url = reverse("games:index")
        return url if self.key == settings.DEFAULT_GAME_KIND else f"{url}?game={self.key}"

    def bot_choices(self) -> list[dict[str, Any]]:
        """Its bot levels as buttons offer them: `level`, `name` and the fixed `rating`
        (None for a kind whose bots have none)."""
        return [{"level": level, "name": self.bot_name(level),
                 "rating": self.bot_ratings.get(level)} for level in self.bot_levels]

    def home_play(self) -> dict[str, Any]:
        """The context of its Play section on a member's home: the kind, its lobby and its
        bots. A kind adds what its section offers besides (Cargo Connect: quick pairing
        by bay size)."""
        return {"kind": self, "lobby_url": self.lobby_url(), "bot_levels": self.bot_choices()}

    def home_hero(self) -> dict[str, Any]:
        """The context of its card on the visitor's landing page: the kind and its lobby
        (where a guest may play its bots)."""
        return {"kind": self, "lobby_url": self.lobby_url()}

    def review(self, start: str, tokens: list[str],
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """A finished game's review, JSON-ready; `progress(done, total)` after each turn."""
        raise KindError(f"{self.name} has no game review")

    def analyse(self, start: str, tokens: list[str], line: list[str]) -> dict[str, Any]:
        """The analysis board: after the game's first `tokens`, the viewer's trial turns
        `line` (each checked by the engine); the state reached, the last trial turn scored
        and the bot's suggestion. KindError names a refused trial turn."""
        raise KindError(f"{self.name} has no analysis board")


_KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Make a game kind available to the site (apps call this from `ready()`)."""
    _KINDS[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    _KINDS.pop(key, None)


def get_kind(key: str) -> GameKind:
    try:
        return _KINDS[key]
    except KeyError:
        raise KindError(f"unknown game type {key!r}") from None


def all_kinds() -> list[GameKind]:
    return list(_KINDS.values())


def default_kind() -> GameKind:
    """The game the site offers first (settings.DEFAULT_GAME_KIND)."""
    return get_kind(settings.DEFAULT_GAME_KIND)


def first_kinds_first(kinds: list[GameKind]) -> list[GameKind]:
    """These kinds with the default one first, the others by name."""
    return sorted(kinds, key=lambda k: (k.key != settings.DEFAULT_GAME_KIND, k.name))


MAX_TOKEN_LENGTH = 64  # `Turn.token`'s width: no kind's token may be longer


def longest_token() -> int:
    """The longest token any registered kind writes: what a request is checked against
    before its game is known (the HTTP fallback)."""
    return max((kind.max_token_length for kind in _KINDS.values()), default=32)
