"""A decision once applied, by either path (the locked one in games.turns.play, the fast path's
warm copy in games.fast.turns): the game row's fields it advances, the turn's frame for
each audience sent once committed, and the result a socket or view answers with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import signals
from games.botplay import bots
from games.frames import broadcast
from games.frames.audiences import send_on_commit_to_all
from games.frames.broadcast import Delivery
from games.frames.protocol import TurnLike, turn_frame
from games.frames.states import frame_state
from games.kinds import LiveGame
from games.models import Game
from games.timing import timeouts


@dataclass
class TurnResult:
    frame: dict[str, Any]
    duplicate: bool = False  # a resent turn: answer the sender only
    delivery: Delivery | None = None  # the group broadcast of a fresh turn
    # A duplicate of a decision the site made for the seat in this same call (a flag that
    # fell as the decision arrived, games.timing.timeouts.flag_when_fallen): its frame went to
    # the seat's audience with the call's own frames, so the sender hears it there.
    heard: bool = False

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
    signals.turn_passed.send(__name__, game=game, live=lg, decided=turn.seat)
    return TurnResult(sent.frame(turn.seat), delivery=sent.to(turn.seat))


def made(turn: TurnLike) -> broadcast.TurnMade:
    """What the group message carries of a turn, for other processes to follow it."""
    return turn.ply, turn.seat, turn.token


def frame_of(game: Game, turn: TurnLike, lg: LiveGame, viewer: int | None
           ) -> dict[str, Any]:
    return turn_frame(game, turn, frame_state(game, lg, viewer), lg, viewer)
