"""A game's audiences: which connections get which frame of a game.

A kind that hides nothing (`GameKind.hidden_information` False: Cargo Connect) has one
audience, the game's group `game.<id>`: every seat and every spectator gets the same frame,
built as a spectator sees it (each page keeps its own seat). A kind that hides information
has one audience per seat (`game.<id>.seat.<k>`) and one for everyone without a seat
(`game.<id>.watch`). Each of its frames is built once per audience, by a function of the
viewer, from the kind's view and events for that viewer (events carry their audience:
`LiveGame.events_for`), and sent to that audience's group only. A socket joins the one
group of its viewer (games.sockets.game), catch-up and the HTTP fallback build their frames
for the asking viewer (games.records.history): no code path builds one frame and filters it for
several viewers, so a seat's secret cannot reach another connection by a missed filter.

Every frame of a game is versioned: its channel-layer message carries `revision`, the game
row's revision once the change that made it was written (turn, resign, end, rematch, void),
beside the frame's text. A socket keeps the highest revision it has passed to its client,
and on a `ping` (or when the layer answers again) a row further on than that makes it catch
its client up: the turns it lacks and the state, which says any resignation, ending,
rematch or void (games.sockets.game). A turn frame also carries its ply, which the client uses
to see a gap itself.

A socket's audience follows who holds its seat (issue #42). When a seat changes hands during
play (its holder resigned, timed out twice, ran out of time, or was claimed away, and a bot
plays it on: `games.turns.play`), `seat_changed_on_commit` sends `seat.changed` to that seat's
group once committed, after the change's own frames and before anything later (a bot's
decision for the seat can only come after it). Every socket of the seat, on every process,
then leaves the seat's group, joins the audience its viewer has now (a spectator's) and is
sent that audience's state; a frame built for the old audience that was already on its way
to the socket is dropped (each frame's message names its group), so nothing private of
the seat reaches its former holder after the change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.frames.broadcast import Delivery, TurnMade, game_group, send_message, send_on_commit
from games.kinds import GameKind, Viewer
from games.models import Game

Frame = dict[str, Any]


def seat_group(game_id: str, seat: int) -> str:
    """The sockets of one seat of a game whose kind hides information."""
    return f"game.{game_id}.seat.{seat}"


def watch_group(game_id: str) -> str:
    """The sockets without a seat (spectators) of a game whose kind hides information."""
    return f"game.{game_id}.watch"


def audiences(game: Game) -> list[tuple[str, int | None]]:
    """Each audience of the game: its group and the viewer its frames are built for."""
    return _audiences(game.id, game.kind, len(game.seat_list))


def _audiences(game_id: str, kind: GameKind, seats: int) -> list[tuple[str, int | None]]:
    if not kind.hidden_information:
        return [(game_group(game_id), None)]
    return [*((seat_group(game_id, seat), seat) for seat in range(seats)),
            (watch_group(game_id), None)]


def send_public_on_commit(game_id: str, kind: GameKind, seats: int, frame: Frame) -> None:
    """A frame with nothing of any seat's in it (who is away), the same for every
    audience, sent to each once committed. It changes no game row: no `rev`."""
    for group, _ in _audiences(game_id, kind, seats):
        send_on_commit(group, frame)


SEAT_CHANGED = "seat.changed"  # the channel-layer message a seat's sockets move on


def seat_changed_on_commit(game: Game, seat: int) -> None:
    """`seat` of `game` changed hands in this transaction: once committed (in order with the
    change's frames), tell every socket of the seat to find its audience again. A kind
    that hides nothing has one audience for everyone: nothing to move."""
    if not game.kind.hidden_information:
        return
    group, message = seat_group(game.id, seat), {"type": SEAT_CHANGED, "seat": seat,
                                                 "revision": game.revision}
    transaction.on_commit(lambda: send_message(group, message))


def group_of(game: Game, viewer: int | None) -> str:
    """The one group a socket of `viewer` joins."""
    if not game.kind.hidden_information:
        return game_group(game.id)
    return watch_group(game.id) if viewer is None else seat_group(game.id, viewer)


def frame_viewer(game: Game, viewer: int | None) -> int | None:
    """Whom a frame for `viewer` is built for: the viewer itself, or, for a kind that hides
    nothing, the spectator (the one frame every connection of the game gets)."""
    return viewer if game.kind.hidden_information else None


class Sent:
    """One change's frames and their deliveries, by the viewer of each audience."""

    def __init__(self) -> None:
        self.frames: dict[Viewer, Frame] = {}
        self.deliveries: dict[Viewer, Delivery] = {}

    def _audience(self, viewer: int | None) -> Viewer:
        return viewer if viewer in self.frames else None

    def frame(self, viewer: int | None) -> Frame:
        """The frame `viewer`'s connections get."""
        return self.frames[self._audience(viewer)]

    def to(self, viewer: int | None) -> Delivery:
        """The delivery that reaches `viewer`'s connections."""
        return self.deliveries[self._audience(viewer)]


def send_on_commit_to_all(game: Game, build: Callable[[int | None], Frame],
                          turn: TurnMade | None = None) -> Sent:
    """Build the change's frame for each audience now (the state is the one after the
    change) and send each to its own group once committed, with the row's revision (for
    the processes' warm copies, games.fast.turns.follow) and, for a turn, the turn."""
    sent = Sent()
    for group, viewer in audiences(game):
        frame = sent.frames[viewer] = build(viewer)
        sent.deliveries[viewer] = send_on_commit(group, frame, game.revision, turn)
    return sent
