"""A decision once applied, by either path (the locked one in games.play, the fast path's
warm copy in games.fast.turns): the game row's fields it advances, the turn's frame for
each audience sent once committed, and the result a socket or view answers with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from notifications import notify

from . import bots, broadcast, timeouts
from .audiences import send_on_commit_to_all
from .broadcast import Delivery
from .kinds import LiveGame
from .models import Game
from .protocol import TurnLike, turn_frame
from .states import frame_state


@dataclass
class TurnResult:
    frame: dict[str, Any]
    duplicate: bool = False  # a resent turn: answer the sender only
    delivery: Delivery | None = None  # the group broadcast of a fresh turn

    @property
    def delivered(self) -> bool:
        """Did the game's group get the frame? (If not, the sender is answered directly.)"""
        return self.delivery is not None and self.delivery.sent is True


def advanced(game: Game, lg: LiveGame, seat: int) -> list[str]:
    """After `seat`'s decision was applied to `lg`: the row's cache of the replay, whether
    it now waits on a bot, its clocks; the fields to save (by either path)."""
    game.position = lg.position()
    game.ply = lg.ply
    game.tokens = list(lg.tokens)
    return ["position", "ply", "tokens", *bots.after_change(game, lg),
            *timeouts.charge(game, seat, lg)]


def sent(game: Game, turn: TurnLike, lg: LiveGame) -> TurnResult:
    """The turn's frame for each audience, sent once committed, then the bot's task; the
    result holds the frame and delivery of the seat that decided."""
    sent = send_on_commit_to_all(game, lambda viewer: frame_of(game, turn, lg, viewer),
                                 made(turn))
    bots.send_task_on_commit(game)  # after the frame: the page sees this turn first
    notify.your_turn(game, lg, turn.seat)  # correspondence games only
    return TurnResult(sent.frame(turn.seat), delivery=sent.to(turn.seat))


def made(turn: TurnLike) -> broadcast.TurnMade:
    """What the group message carries of a turn, for other processes to follow it."""
    return turn.ply, turn.seat, turn.token


def frame_of(game: Game, turn: TurnLike, lg: LiveGame, viewer: int | None
           ) -> dict[str, Any]:
    return turn_frame(game, turn, frame_state(game, lg, viewer), lg, viewer)
