"""Games with bot seats: creating a casual game against CargoBot, and a bot's decision (the
Celery task's body, `play_bot_turn`), played through `games.play.apply_turn` like anyone's
(docs/bot-games.md). A bot decides from its own seat's view only: the kind is handed
`LiveGame.redacted(seat)`. Sending the tasks is `games.bots`.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from django.db.models import Q

from . import clocks, metrics, play
from .actors import Actor
from .bots import RANDOM
from .kinds import get_kind
from .models import Game
from .protocol import Code, GameError

log = logging.getLogger(__name__)


def create_bot_game(*, actor: Actor | None, level: str, options: dict[str, Any],
                    seat: str = RANDOM, game_type: str = "cargo-connect",
                    time_control: str = "") -> Game:
    """A casual game against CargoBot at `level`: `actor` (a member or a guest with a
    browser session) takes the seat named `seat` ("blue", "orange" or "random"). A
    member's game counts for the vs CargoBot rating; a guest's counts nowhere. With a live
    `time_control` the player has a clock (CargoBot has none); correspondence is refused."""
    kind = get_kind(game_type)
    try:
        control = clocks.parse(time_control)
    except ValueError as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    if control is not None and not control.live:
        raise GameError(Code.BAD_REQUEST, "a game against CargoBot is untimed or live, "
                        f"not {control.label}")
    if level not in kind.bot_levels:
        raise GameError(Code.BAD_REQUEST,
                        f"level must be {', '.join(kind.bot_levels)}, not {level!r}")
    keys = [kind.seat_key(i) for i in range(2)]
    if seat != RANDOM and seat not in keys:
        raise GameError(Code.BAD_REQUEST,
                        f"colour must be random, {' or '.join(keys)}, not {seat!r}")
    if actor is None or actor.kind == "bot":
        raise GameError(Code.NOT_A_PLAYER, "a game against CargoBot needs a member or a "
                        "guest with a browser session")
    human = keys.index(seat) if seat != RANDOM else random.SystemRandom().randrange(2)
    seats: list[Actor | None] = [Actor.bot(level), Actor.bot(level)]
    seats[human] = actor
    return play.create_game(game_type=game_type, seats=seats, options=options,
                            mode=Game.Mode.BOT, rated=actor.kind == "member",
                            time_control=control.code if control else "")


def active_bot_games(actor: Actor | None) -> list[Game]:
    """The games against CargoBot a member or a guest is still playing."""
    if actor is None or actor.kind == "bot":
        return []
    holder = Q(seats__user_id=actor.user_id) if actor.kind == "member" \
        else Q(seats__guest_key=actor.guest_key)
    games = Game.objects.filter(holder, mode=Game.Mode.BOT, status=Game.Status.ACTIVE)
    return list(games.order_by("-created_at").prefetch_related("seats")[:10])


def play_bot_turn(game_id: str, ply: int, *, quick: bool = False, seat: int | None = None
                  ) -> str:
    """The bot's decision at `ply`, through `apply_turn`. Does nothing if the game is gone,
    over, or no longer at `ply` with a bot to move. Returns what happened: "played", or why
    nothing was ("stale_ply", "game_over", "duplicate", ...). `quick` thinks at the kind's
    quick level instead of the seat's (the task's fallback when time runs short). With
    `seat` (games whose seats decide at the same time), that bot seat decides, if its own
    count of decisions is still `ply`."""
    from .store import get_game, live

    try:
        game = get_game(game_id)
    except GameError:
        return "not_found"
    if not game.bot_seats:
        return "not_a_bot_game"
    if game.is_over:
        return "game_over"
    lg = live(game)
    if seat is None:
        if game.ply != ply:
            return "stale_ply"
        seat = next((s for s in lg.acting() if s in game.bot_seats), None)
        if seat is None:
            return "not_your_turn"
    elif seat not in game.bot_seats:
        return "not_a_bot_seat"
    elif lg.sequence(seat) != ply:
        return "stale_ply"
    elif seat not in lg.acting():
        return "not_your_turn"
    seat_level = game.seat_list[seat].playing_level
    assert seat_level is not None
    # Thinking happens outside the transaction: no row lock is held meanwhile; the bot
    # sees only what its seat may see.
    level = game.kind.quick_bot_level if quick and game.kind.quick_bot_level else seat_level
    token = game.kind.bot_decision(lg.redacted(seat), seat, level, game.bot_seed or 0)
    try:
        result = play.apply_turn(game_id, actor=Actor.bot(seat_level, seat), ply=ply,
                                 token=token)
    except GameError as refused:  # the game moved on (a resign, another copy of this task)
        if refused.error == Code.ILLEGAL:
            log.error("CargoBot chose an illegal turn %r in game %s at ply %s: %s",
                      token, game_id, ply, refused.message)
        return refused.code
    if result.duplicate:
        return "duplicate"
    metrics.bot_played(game.bot_waiting_since)
    return "played"
