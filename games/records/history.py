"""A game's past: turn frames from a ply (catch-up after a gap, a resent turn's answer),
the replay (the state at every ply) and the record for download.

Each replays from the start through the game kind; the state after each turn is the one its
broadcast had (a later resignation or rematch offer is in the current state, sent after).
Each is built for one viewer (games.frames.audiences): a seat, a spectator, or once the game is
over everything; a kind that hides nothing builds them all as a spectator sees them.
A turn's frame never changes once its turn is stored, so catch-up keeps the frames of recent
games in a per-process cache (`recent`, by game and viewer) and replays only from the first
ply it lacks. A finished game's replay changes only with its row (a void, a rematch offer:
a new revision), so the replays of recently asked finished games are kept too
(`finished_replays`, by game, revision and viewer, bounded in bytes, for a few minutes: a
renamed member's name is seen at the latest then).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

import orjson
from django.conf import settings
from django.db import connection

from games.frames.audiences import frame_viewer
from games.frames.protocol import turn_frame
from games.frames.states import frame_state, left_info, player_info, state_of
from games.kinds import EVERYTHING, Viewer
from games.models import Game
from games.turns import preturns
from games.turns.store import get_game, live, replayed

FramesKey = tuple[str, Viewer]  # a game and the viewer its frames were built for


class RecentFrames:
    """Turn frames of the most recently caught-up games, by game and viewer, then ply (per
    process, bounded by games and viewers; a game's frames are only ever added to)."""

    def __init__(self, games: int = 512) -> None:
        self.games = games
        self.frames: OrderedDict[FramesKey, dict[int, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, game_id: FramesKey, plies: range) -> list[dict[str, Any]] | None:
        with self.lock:
            known = self.frames.get(game_id)
            if known is None:
                return None
            self.frames.move_to_end(game_id)
            if any(ply not in known for ply in plies):
                return None
            return [known[ply] for ply in plies]

    def put(self, game_id: FramesKey, frames: list[dict[str, Any]]) -> None:
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


def turn_frames(game: Game, after: int, before: int | None = None, *,
                viewer: int | None = None) -> list[dict[str, Any]]:
    """Every turn frame for plies >= after (and < before), each with the state after it,
    as the live frames of `viewer`'s audience had them (games.frames.audiences)."""
    after = max(0, after)
    end = game.ply if before is None else min(before, game.ply)
    if after >= end:
        return []
    viewer = frame_viewer(game, viewer)
    key = (game.id, viewer)
    cached = recent.get(key, range(after, end))
    if cached is not None:
        return cached
    rows = list(game.turns.filter(ply__gte=after, ply__lt=end).order_by("ply"))
    if not rows:
        return []
    lg = replayed(game, upto=after)
    frames = []
    for turn in rows:
        lg.apply(turn.seat, turn.token)
        frames.append(turn_frame(game, turn, frame_state(game, lg, viewer, final=False), lg,
                                 viewer))
    recent.put(key, frames)
    return frames


def catch_up(game_id: str, *, after: int, viewer: int | None = None) -> dict[str, Any]:
    """For `sync` and `GET /g/<id>/events`: turn frames for plies >= after, then the state,
    for `viewer` (a seat, None for a spectator)."""
    game = get_game(game_id)
    return {"turns": turn_frames(game, after, viewer=viewer),
            "state": preturns.with_queue(state_of(game, viewer=viewer), game, viewer),
            "rev": game.revision}


def current_ply(game_id: str) -> int | None:
    """The game's ply, in one query (None: no such game); a socket's check on `ping`."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:  # no ORM query to compile: sockets ping often
        cursor.execute(f"SELECT {quote('ply')} FROM {quote(Game._meta.db_table)} "
                       f"WHERE {quote('id')} = %s", [game_id])
        row = cursor.fetchone()
    return None if row is None else row[0]


def current_revision(game_id: str) -> tuple[int, int] | None:
    """The game's ply and row revision, in one query (None: no such game); a socket's
    check on `ping` that its client has every frame (games.frames.audiences: frames carry `rev`)."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {quote('ply')}, {quote('revision')} "
                       f"FROM {quote(Game._meta.db_table)} WHERE {quote('id')} = %s",
                       [game_id])
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def replay_viewer(game: Game, seat: int | None, asked: str | None = None) -> Viewer:
    """Whom a replay is built for. A kind that hides nothing: anyone (None). One that hides
    information: while the game goes on, the asker's seat (None: a spectator); once it is
    over, everything is public (rule 76 of Cargo Express), so the replay shows everything,
    or as seat K saw it when `asked` is "K" (0-based)."""
    if not game.kind.hidden_information:
        return None
    if not game.is_over:
        return seat
    if asked is not None and asked.isdigit() and int(asked) < len(game.seat_list):
        return int(asked)
    return EVERYTHING


def record_viewer(game: Game) -> Viewer:
    """The record's viewer: the public form while the game goes on, all once it is over."""
    return EVERYTHING if game.is_over else None


ReplayKey = tuple[str, int, Viewer]  # a finished game, its revision, the replay's viewer


class FinishedReplays:
    """The replays of recently asked finished games as JSON text (per process, the least
    recently asked dropped first past `REPLAY_CACHE_BYTES`; 0 keeps none). A finished
    two-seat Cargo Express game's replay is about 4 MB and took 1.8 s to build (the
    replay page's whole cost but the browser's); the browser tests ask for one about 20
    times, and a shared game's page is opened by many."""

    TTL = 300.0  # seconds

    def __init__(self) -> None:
        self.texts: OrderedDict[ReplayKey, tuple[float, bytes]] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    def get(self, key: ReplayKey) -> bytes | None:
        with self.lock:
            found = self.texts.get(key)
            if found is None:
                return None
            if time.monotonic() - found[0] > self.TTL:
                self._drop(key)
                return None
            self.texts.move_to_end(key)
            return found[1]

    def put(self, key: ReplayKey, text: bytes) -> None:
        budget = settings.REPLAY_CACHE_BYTES
        if len(text) > budget:
            return
        with self.lock:
            if key in self.texts:
                self._drop(key)
            self.texts[key] = (time.monotonic(), text)
            self.size += len(text)
            while self.size > budget:
                self._drop(next(iter(self.texts)))

    def clear(self) -> None:
        with self.lock:
            self.texts.clear()
            self.size = 0

    def _drop(self, key: ReplayKey) -> None:
        self.size -= len(self.texts.pop(key)[1])


finished_replays = FinishedReplays()


def replay_data(game_id: str, *, viewer: Viewer = None) -> dict[str, Any]:
    """`GET /g/<id>/replay.json`: the state at every ply and every turn with its events,
    as `viewer` may see them (`replay_viewer`); a finished game's from `finished_replays`
    when it was asked for lately (a fresh copy each time: callers may change it)."""
    game = get_game(game_id)
    if not game.is_over:
        return _replay_data(game, viewer)
    key = (game.id, game.revision, viewer)
    text = finished_replays.get(key)
    if text is None:  # kept as JSON reads it back (keys are text), the first time too
        text = orjson.dumps(_replay_data(game, viewer), option=orjson.OPT_NON_STR_KEYS)
        finished_replays.put(key, text)
    loaded: dict[str, Any] = orjson.loads(text)
    return loaded


def _replay_data(game: Game, viewer: Viewer) -> dict[str, Any]:
    lg = replayed(game, upto=0)
    states = [_replay_state(game, lg, viewer)]
    turns = []
    kind = game.kind
    for turn in game.turns.order_by("ply"):
        lg.apply(turn.seat, turn.token)
        states.append(_replay_state(game, lg, viewer))
        token = lg.tokens_for(viewer)[turn.ply] if kind.hidden_information else turn.token
        turns.append({"ply": turn.ply, "token": token, "seat": turn.seat,
                      "side": kind.seat_key(turn.seat),
                      "events": lg.events_for(turn.events, viewer)})
    if game.is_over:  # the last state says how it ended, and what it did to the ratings
        states[-1] = _replay_state(game, live(game), viewer, final=True)
    resigned = game.resigned_seats
    return {"id": game.id, "states": states, "turns": turns,
            "viewer": viewer if isinstance(viewer, int) else None,
            "everything": viewer == EVERYTHING,
            "resigned": kind.seat_key(resigned[0]) if resigned else None,
            "result": states[-1]["result"]}


def _replay_state(game: Game, lg: Any, viewer: Viewer, final: bool = False
                  ) -> dict[str, Any]:
    if not game.kind.hidden_information:
        return frame_state(game, lg, None, final=final)
    state = state_of(game, lg, viewer=viewer, final=final)
    if not isinstance(viewer, int):
        del state["you"], state["viewer"]
    return state


def record_text(game_id: str, site: str) -> tuple[Game, str]:
    """The game as a record in its notation, with the players' names, Date, Result, Site:
    its public form while the game goes on (`record_viewer`), everything once it is over."""
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
    headers.update(kind.record_headers(game.id, game.start, game.is_over))
    notes = {s.index: note for s in game.seat_list if (note := left_note(game, s))}
    if notes:
        return game, lg.record(headers, record_viewer(game), notes)
    return game, lg.record(headers, record_viewer(game))


def left_note(game: Game, seat: Any) -> str | None:
    """A seat whose holder left, in a sentence for the record: "kofi timed out twice in a
    row in round 4; ExpressBot Medium played the seat from then"; None if no one left."""
    left = left_info(game, seat)
    if left is None:
        return None
    name = seat.holder_name(game.kind) or game.kind.seat_label(seat.index)
    when = f" in round {left['round']}" if left["round"] else ""
    then = f"{left['name']} played the seat from then" if left["name"] else \
        "the last person at the table: the game ended on the standings"
    return f"{name} {left['why']}{when}; {then}"


def _result_header(places: tuple[int, ...] | None) -> str:
    """`1-0`, `0-1`, `1/2-1/2` for two seats; `*` while the game goes on."""
    if places is None:
        return "*"
    if len(places) != 2:
        return "-".join(map(str, places))
    return {(1, 2): "1-0", (2, 1): "0-1"}.get(places, "1/2-1/2")
