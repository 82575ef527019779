"""A game's past: turn frames from a ply (catch-up after a gap, a resent turn's answer),
the replay (the state at every ply) and the record for download.

Each replays from the start through the game kind; the state after each turn is the one its
broadcast had (a later resignation or rematch offer is in the current state, sent after).
A turn's frame never changes once its turn is stored, so catch-up keeps the frames of recent
games in a per-process cache (`recent`) and replays only from the first ply it lacks.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.db import connection

from .models import Game
from .protocol import player_info, public_state, state_of, turn_frame
from .store import get_game, live, replayed


class RecentFrames:
    """Turn frames of the most recently caught-up games, by game and ply (per process,
    bounded by games; a game's frames are only ever added to)."""

    def __init__(self, games: int = 512) -> None:
        self.games = games
        self.frames: OrderedDict[str, dict[int, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, game_id: str, plies: range) -> list[dict[str, Any]] | None:
        with self.lock:
            known = self.frames.get(game_id)
            if known is None:
                return None
            self.frames.move_to_end(game_id)
            if any(ply not in known for ply in plies):
                return None
            return [known[ply] for ply in plies]

    def put(self, game_id: str, frames: list[dict[str, Any]]) -> None:
        with self.lock:
            known = self.frames.setdefault(game_id, {})
            self.frames.move_to_end(game_id)
            for frame in frames:
                known[frame["ply"]] = frame
            while len(self.frames) > self.games:
                self.frames.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.frames.clear()


recent = RecentFrames()


def turn_frames(game: Game, after: int, before: int | None = None) -> list[dict[str, Any]]:
    """Every turn frame for plies >= after (and < before), each with the state after it."""
    after = max(0, after)
    end = game.ply if before is None else min(before, game.ply)
    if after >= end:
        return []
    cached = recent.get(game.id, range(after, end))
    if cached is not None:
        return cached
    rows = list(game.turns.filter(ply__gte=after, ply__lt=end).order_by("ply"))
    if not rows:
        return []
    lg = replayed(game, upto=after)
    frames = []
    for turn in rows:
        lg.apply(turn.seat, turn.token)
        frames.append(turn_frame(game, turn, public_state(game, lg, final=False), lg))
    recent.put(game.id, frames)
    return frames


def catch_up(game_id: str, *, after: int, viewer: int | None = None) -> dict[str, Any]:
    """For `sync` and `GET /g/<id>/events`: turn frames for plies >= after, then the state."""
    game = get_game(game_id)
    return {"turns": turn_frames(game, after), "state": state_of(game, viewer=viewer)}


def current_ply(game_id: str) -> int | None:
    """The game's ply, in one query (None: no such game); a socket's check on `ping`."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:  # no ORM query to compile: sockets ping often
        cursor.execute(f"SELECT {quote('ply')} FROM {quote(Game._meta.db_table)} "
                       f"WHERE {quote('id')} = %s", [game_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def replay_data(game_id: str) -> dict[str, Any]:
    """`GET /g/<id>/replay.json`: the state at every ply and every turn with its events."""
    game = get_game(game_id)
    lg = replayed(game, upto=0)
    states = [public_state(game, lg, final=False)]
    turns = []
    kind = game.kind
    for turn in game.turns.order_by("ply"):
        lg.apply(turn.seat, turn.token)
        states.append(public_state(game, lg, final=False))
        turns.append({"ply": turn.ply, "token": turn.token, "seat": turn.seat,
                      "side": kind.seat_key(turn.seat), "events": lg.events_for(turn.events,
                                                                                 None)})
    if game.is_over:  # the last state says how it ended, and what it did to the ratings
        states[-1] = public_state(game, live(game))
    resigned = game.resigned_seats
    return {"id": game.id, "states": states, "turns": turns,
            "resigned": kind.seat_key(resigned[0]) if resigned else None,
            "result": states[-1]["result"]}


def record_text(game_id: str, site: str) -> tuple[Game, str]:
    """The game as a record in its notation, with the players' names, Date, Result, Site."""
    game = get_game(game_id)
    kind = game.kind
    lg = replayed(game)
    for seat in game.resigned_seats:
        lg.resign(seat)
    headers = {kind.seat_label(s.index): (player_info(game, s) or {"name": "?"})["name"]
               for s in game.seat_list}
    result = lg.result()
    places = result.places if result else None
    if places is None and game.status == Game.Status.FINISHED:  # a draw called by the site
        places = tuple(s.place or 1 for s in game.seat_list)
    headers.update(Date=game.created_at.strftime("%Y.%m.%d"),
                   Result=_result_header(places), Site=site)
    return game, lg.record(headers)


def _result_header(places: tuple[int, ...] | None) -> str:
    """`1-0`, `0-1`, `1/2-1/2` for two seats; `*` while the game goes on."""
    if places is None:
        return "*"
    if len(places) != 2:
        return "-".join(map(str, places))
    return {(1, 2): "1-0", (2, 1): "0-1"}.get(places, "1/2-1/2")
