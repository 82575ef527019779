"""Per-game facts for profiles: once a finished game's result has committed, one
`GameStats` row per member seat, computed from the game's stored turns (their events, as
docs/live-protocol.md lists them: `unload` with its shape and chit, `reroute`, the `over`
event's Final Audit) and its seats. The profile, the streaks and the achievements read these
rows; nothing replays a game per page view.

Which games count (`counts`): finished Cargo Connect games played online or casually against
CargoBot. Daily Challenge games and puzzles count nowhere. A voided game's rows are deleted.

Other kinds (Cargo Express): one `SeatStats` row per member seat of a finished online game,
rated or casual (`seat_rows_for`): the seat count, the place, the score and the kind's
tallies of what the seat chose (`GameKind.seat_summary`, from the stored decisions).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from django.db import transaction

from common.timezones import pacific_today
from games.kinds import get_kind
from games.kinds.cargo_connect import CARGO_CONNECT
from games.models import Game, Seat, Turn
from games.results import Ending, Stage, on_game_end

from .models import GameStats, SeatStats

GAME_TYPE = CARGO_CONNECT.key  # GameStats rows are Cargo Connect's: AppCons, chits, cards
COUNTED_MODES = (Game.Mode.ONLINE, Game.Mode.BOT)
SHAPES = "OTJLSZI"  # the seven AppCons, in the rulebook's order
CARDS = "SLPDR"  # the five Shipping Protocols, by their notation letter
SHAPE_FIELDS = [f"shape_{s.lower()}" for s in SHAPES]
CARD_FIELDS = [f"card_{c.lower()}" for c in CARDS]


@functools.cache
def card_names() -> dict[str, str]:
    """The cards' names by letter, as the game kind's state gives them to the page."""
    kind = get_kind(GAME_TYPE)
    start = kind.new(kind.check_options({}), 2, kind.rules_version)
    return {card: name for card, name in kind.resume(start, [], []).view(None)["card_names"]}


def counts(game: Game) -> bool:
    return (game.game_type == GAME_TYPE and game.mode in COUNTED_MODES
            and game.status == Game.Status.FINISHED)


def _cells(cells: str) -> set[str]:
    """'a1b1b2c1' -> {'a1', 'b1', 'b2', 'c1'} (a column letter and a row digit each)."""
    return {cells[i:i + 2] for i in range(0, len(cells), 2)}


def seat_facts(seat_keys: list[str], turns: Iterable[tuple[int, str, list[dict[str, Any]]]]
               ) -> list[dict[str, Any]]:
    """Each seat's facts from the turns (seat, token, events) in ply order: AppCons by
    shape, chits, cards played, the audit's Rust, and whether its last unload re-routed one
    of the four cores in the same turn."""
    facts: list[dict[str, Any]] = [
        {**{f: 0 for f in SHAPE_FIELDS + CARD_FIELDS}, "unloads": 0, "gold_chits": 0,
         "steel_chits": 0, "rust": None, "reroute_finish": False}
        for _ in seat_keys
    ]
    index = {key: i for i, key in enumerate(seat_keys)}
    for seat, token, events in turns:
        mine = facts[seat]
        if token[:1] in CARDS:
            mine[f"card_{token[0].lower()}"] += 1
        rerouted = {e["cell"] for e in events if e.get("type") == "reroute"}
        for event in events:
            if event.get("type") == "unload" and event.get("side") in index:
                who = facts[index[event["side"]]]
                who[f"shape_{event['shape'].lower()}"] += 1
                who["unloads"] += 1
                if event.get("chit") == "gold":
                    who["gold_chits"] += 1
                elif event.get("chit") == "steel":
                    who["steel_chits"] += 1
                who["reroute_finish"] = bool(rerouted & _cells(event["cells"]))
            elif event.get("type") == "over" and event.get("audit"):
                for key, i in index.items():
                    if key in event["audit"]:
                        facts[i]["rust"] = int(event["audit"][key]["rust"])
    for mine in facts:
        if mine["rust"] is None:  # resigned or timed out: no audit among the turns' events
            mine["rust"] = sum(1 for f in SHAPE_FIELDS if not mine[f])
        mine["perfect"] = mine["rust"] == 0
    return facts


def rows_for(game: Game) -> list[GameStats]:
    """The rows a finished counting game gives (none for a member in two seats)."""
    if not counts(game) or game.finished_at is None:
        return []
    seats = game.seat_list
    members = [s.user_id for s in seats if s.user_id is not None]
    if not members or len(set(members)) != len(members):
        return []
    kind = game.kind
    turns = Turn.objects.filter(game=game).order_by("ply").values_list("seat", "token", "events")
    facts = seat_facts([kind.seat_key(s.index) for s in seats], turns)
    day = pacific_today(game.finished_at)
    rows = []
    for seat in seats:
        if seat.user_id is None:
            continue
        other = _opponent(seats, seat)
        rows.append(GameStats(
            game=game, user_id=seat.user_id, seat=seat.index, mode=game.mode,
            rated=game.rated and game.mode == Game.Mode.ONLINE, size=game.size,
            opponent_id=other.user_id if other else None,
            opponent_bot=(other.bot_level or "") if other else "",
            outcome=seat.outcome, score=seat.score or 0,
            opponent_score=other.score if other else None,
            resigned=seat.resigned, opponent_resigned=bool(other and other.resigned),
            termination=game.termination, finished_at=game.finished_at, day=day,
            **facts[seat.index]))
    return rows


def _opponent(seats: list[Seat], seat: Seat) -> Seat | None:
    others = [s for s in seats if s.index != seat.index]
    return others[0] if len(others) == 1 else None


def write(game: Game) -> list[GameStats]:
    """Store the game's rows once (a second call, or a race, adds nothing); the rows."""
    rows = rows_for(game)
    if rows:
        GameStats.objects.bulk_create(rows, ignore_conflicts=True)
    return rows


def counts_seats(game: Game) -> bool:
    """Does a game give `SeatStats` rows? Finished online games of the other kinds."""
    return (game.game_type != GAME_TYPE and game.mode == Game.Mode.ONLINE
            and game.status == Game.Status.FINISHED)


def seat_rows_for(game: Game) -> list[SeatStats]:
    """The rows a finished online game of another kind gives, one per member seat (none
    for a member in two seats)."""
    if not counts_seats(game) or game.finished_at is None:
        return []
    seats = game.seat_list
    members = [s.user_id for s in seats if s.user_id is not None]
    if not members or len(set(members)) != len(members):
        return []
    turns = list(Turn.objects.filter(game=game).order_by("ply").values_list("seat", "token"))
    summary = game.kind.seat_summary(game.start, [t for _, t in turns],
                                     [s for s, _ in turns])
    return [SeatStats(game=game, user_id=seat.user_id, game_type=game.game_type,
                      seat=seat.index, seat_count=len(seats), rated=game.rated,
                      place=seat.place, score=seat.score or 0, resigned=seat.resigned,
                      tallies=summary[seat.index] if seat.index < len(summary) else {},
                      finished_at=game.finished_at)
            for seat in seats if seat.user_id is not None]


@on_game_end("accounts.stats", Stage.AFTER_FRAMES, order=10)
def record_stats(ending: Ending) -> None:
    if ending.voided:
        with transaction.atomic():
            GameStats.objects.filter(game=ending.game).delete()
            SeatStats.objects.filter(game=ending.game).delete()
        return
    write(ending.game)
    rows = seat_rows_for(ending.game)
    if rows:
        SeatStats.objects.bulk_create(rows, ignore_conflicts=True)
