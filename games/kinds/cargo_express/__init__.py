"""Cargo Express as a game kind: the site's only door to `express/` (issue #26).

Seats are 0-based here as everywhere on the site (the engine numbers them 1..n). A site
decision is a pick (`Lo`), a plan (`A2A1A3`), a step of a turn (several joined by `.`, or a
whole turn `CARD:STEPS`: a bot's, a timed-out seat's), or a swap (`R5`): docs/live-protocol.md,
"Cargo Express". The table's rules (plans held until every seat commits, a turn a step at a
time, lost and dormant turns, timeouts' fallbacks, pre-turns, plan hashes and salts) are the
engine's, `express.table` and `express.live_table`; this kind adapts them to the platform:
its events (seats 0-based, `only` a list of seats, the `ply`), `KindError`, the viewers
(`Viewer`, `EVERYTHING`), the row's cache, and each viewer's state (`view.ExpressView`).

The row's cache (never sent anywhere) is the engine's full position at the start of the turn
in progress, then a line of JSON: the table's `Ledger` (the seed, each seat's count of
decisions, the steps of the turn in progress, the plans committed while planning is open,
each seat's stack this round, where each plan token stands in the decisions with how many
of its cards are revealed (what `tokens_for` hides), the log of the round). The start
(`Game.start`) has the same form.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from typing import Any

import orjson

from express import ExpressError, format_position, parse_position
from express import Game as EngineGame
from express.describe import CHARACTER_NAMES
from express.events import Event as EngineEvent
from express.levels import LEVELS
from express.live_table import REVEALING, LiveTable
from express.position import start_position
from express.rules import CURRENT_RULES, RULES_VERSIONS
from express.table import Ledger, seed_hash
from games.kinds import EVERYTHING, Event, GameKind, KindError, LiveGame, Result, Viewer, register
from games.kinds.cargo_express import howto
from games.kinds.cargo_express.view import ExpressView

SEAT_KEYS = ("seat1", "seat2", "seat3", "seat4")
BOT_VERSION = "express-1"
# A whole turn's token is at most about 40 characters (`C6:^.>>t<<<*.f01.f03.s1.f16`); a
# plan 6, a step 8.
MAX_TOKEN = 64


class Meta(Ledger):
    """The table's ledger as the row's cache stores it, as compact JSON (orjson: the log
    makes it about 13 KB by a round's end, and `json.dumps` was 5 % of a decision's CPU
    under load, py-spy 2026-12-03)."""

    @classmethod
    def load(cls, text: str) -> Meta:
        return cls(**orjson.loads(text))

    def dump(self) -> str:
        return orjson.dumps(self.as_dict()).decode()


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


class ExpressGame(LiveTable, LiveGame):
    """One Cargo Express game: the table (`express.live_table.LiveTable`: who decides, the
    rules of each decision, pre-turns, timeouts) seen by the platform. `engine` is the engine's
    whole game when this one was replayed from the start (records need it)."""

    def _site(self, play: Callable[[], list[EngineEvent]]) -> list[Event]:
        """A decision or a resignation: its events for the site, kept in the round's log;
        the table's refusal as the platform's."""
        ply = self.ply
        try:
            events = [_event(e, ply) for e in play()]
        except ExpressError as e:
            raise KindError(str(e)) from None
        self.keep_log(events)
        return events

    def apply(self, seat: int, token: str) -> list[Event]:
        return self._site(lambda: self.decide(seat, token))

    def resign(self, seat: int) -> list[Event]:
        return self._site(lambda: self.resign_seat(seat))

    def check_queue(self, seat: int, steps: list[str]) -> None:
        try:
            super().check_queue(seat, steps)
        except ExpressError as e:
            raise KindError(str(e)) from None

    def reveals(self, events: list[Event]) -> bool:
        return any(e["kind"] in REVEALING for e in events)

    def seat_left(self, seat: int, left: dict[str, Any]) -> list[Event]:
        """A bot plays `seat` on from now (its holder left, games.turns.play): a public event,
        kept in the log of the round like the engine's (`seat-handed`; the platform's
        `type: left` and `stand_in` kept for the shell)."""
        event: Event = {"type": "left", "kind": "seat-handed", "seat": seat,
                        "stand_in": left["bot"], "bot": left["bot"], "name": left["name"],
                        "reason": left["reason"], "why": left["why"],
                        "round": left["round"], "only": None, "ply": left["ply"]}
        self.keep_log([event])
        return [event]

    def result(self) -> Result | None:
        if not self.p.over:
            return None
        r = self.p.result()
        return Result(scores=r.scores, places=r.places)

    # --- what a viewer sees ----------------------------------------------------------------

    def position(self) -> str:
        return format_position(self.p) + "\n" + orjson.dumps(self.meta.as_dict()).decode()

    def events_for(self, events: list[Event], viewer: Viewer) -> list[Event]:
        if viewer == EVERYTHING:
            return events
        return [e for e in events if e.get("only") is None or viewer in e["only"]]

    def log(self, viewer: Viewer) -> list[Event]:
        """The log of the round (`Table.round_log`) as `viewer` may see it (`events_for`,
        as its frames carried them), without `only` and `ply`, which the page's sentences
        do not need."""
        events = self.events_for(self.round_log(), viewer)
        return [{k: v for k, v in e.items() if k not in ("only", "ply")} for e in events]

    def tokens_for(self, viewer: Viewer) -> list[str]:
        if viewer == EVERYTHING:
            return list(self.tokens)
        seat = viewer if isinstance(viewer, int) else None
        return list(self.shared(("tokens", viewer), lambda: self.shown_tokens(seat)))

    def redacted(self, seat: int) -> LiveGame:
        """What `seat`'s bot may know: the seat's view and its own plan, nothing else."""
        return self.for_seat(seat)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        return ExpressView(self, viewer).build()

    def record(self, headers: dict[str, str], viewer: Viewer = EVERYTHING,
               notes: dict[int, str] | None = None) -> str:
        """The engine's record as `viewer` may see it; each seat's `notes` (who played it
        after its holder left) as a comment after its `SeatK` header."""
        try:
            return self.write_record(headers, viewer if isinstance(viewer, int) else None,
                                     viewer == EVERYTHING, notes)
        except ExpressError as e:
            raise KindError(str(e)) from None


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
    howto_template = "howto_express.html"
    replay_module = "js/cargo-express/replay.js"
    home_play_template = "games/cargo-express/home_play.html"
    home_hero_template = "games/cargo-express/home_hero.html"
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
        """No option in the lobby; `first` (`first_seat_options`): the stationmaster's seat."""
        unknown = sorted(set(options) - {"first"})
        if unknown:
            raise KindError(f"Cargo Express has no option {unknown[0]!r}")
        first = options.get("first", 1)
        if type(first) is not int or not 1 <= first <= 4:  # a bool is no seat
            raise KindError("the first stationmaster is a seat, 1 to 4")
        return {"first": first} if "first" in options else {}

    def first_seat_options(self) -> dict[str, Any]:
        return {"first": 1}

    def new(self, options: dict[str, Any], seats: int, rules: str) -> str:
        if seats not in self.seat_counts:
            raise KindError("Cargo Express is played by 2, 3 or 4")
        if rules not in RULES_VERSIONS:
            raise KindError(f"unknown rules version {rules!r}")
        first = options.get("first")
        if first is not None and first > seats:
            raise KindError(f"the first stationmaster is a seat, 1 to {seats}")
        return self.start_from_seed(seats, secrets.randbits(63), rules, first)

    def howto(self) -> dict[str, Any]:
        start = self.start_from_seed(howto.SEATS, howto.HOWTO_SEED, self.rules_version)
        return {"boards": howto.boards(self, start), "fair": howto.fair_play_example()}

    def start_from_seed(self, seats: int, seed: int, rules: str = CURRENT_RULES,
                        first: int | None = None) -> str:
        """The start of a game dealt from `seed`: for pages that show the same example
        every time (How to play); a game played on the site draws its seed secretly
        (`new`), never from its options, which are public. `first`: the seat (1-based)
        given the stationmaster card, else the seed's draw."""
        p = start_position(seats, seed, rules, first)
        return format_position(p) + "\n" + Meta.new(str(seed), seats).dump()

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
        # The start's stationmaster: the seed's draw, or `first` (recorded as the Start).
        engine = EngineGame.new(p.n, int(meta.seed), rules=p.rules, first=p.sm)
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
