"""Games with bot seats: creating a game of one person against bots (CargoBot's two-seat
game, `create_bot_game`; a table of several seats, one person and 1-3 bots,
`create_game_against_bots`: Cargo Express against ExpressBots), how many of those a person
may start in a while (`check_pace`), and a bot's decision (the Celery task's body,
`play_bot_turn`), played through `games.turns.play.apply_turn` like anyone's (docs/bot-games.md).
A bot decides from its own seat's view only: the kind is handed `LiveGame.redacted(seat)`.
Sending the tasks is `games.botplay.bots`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.actors import Actor
from games.botplay.bots import RANDOM
from games.frames import metrics
from games.frames.protocol import Code, GameError
from games.kinds import default_kind, get_kind
from games.models import Game
from games.timing import clocks, correspondence
from games.turns import play

log = logging.getLogger(__name__)

# How many games against bots one member or one guest's browser session may start in a
# while (both kinds together): enough to try every level and seat, not a flood of games
# left for the beat's sweeps to carry (docs/bot-games.md).
BOT_GAMES_PER_WINDOW = 10
BOT_GAMES_WINDOW = timedelta(minutes=10)


def create_bot_game(*, actor: Actor | None, level: str, options: dict[str, Any],
                    seat: str = RANDOM, game_type: str | None = None,
                    time_control: str = "") -> Game:
    """A casual game against CargoBot at `level`: `actor` (a member or a guest with a
    browser session) takes the seat named `seat` ("blue", "orange" or "random"). A
    member's game counts for the vs CargoBot rating; a guest's counts nowhere. With a live
    `time_control` the player has a clock (CargoBot has none); correspondence is refused.
    `game_type`: a kind's key (default: the default game's)."""
    kind = get_kind(game_type) if game_type else default_kind()
    game_type = kind.key
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
    _check_person(actor, "a game against CargoBot")
    assert actor is not None
    check_pace(actor)
    human = keys.index(seat) if seat != RANDOM else random.SystemRandom().randrange(2)
    seats: list[Actor | None] = [Actor.bot(level), Actor.bot(level)]
    seats[human] = actor
    return play.create_game(game_type=game_type, seats=seats, options=options,
                            mode=Game.Mode.BOT, rated=actor.kind == "member",
                            time_control=control.code if control else "")


def create_game_against_bots(*, actor: Actor | None, game_type: str, levels: Sequence[str],
                             seat: str = RANDOM, time_control: str = "",
                             options: dict[str, Any] | None = None) -> Game:
    """One person against bots at a table of several seats (Cargo Express: 1-3
    ExpressBots): `levels` has one level per bot seat (the table's size is one more), in
    seat order around the person's seat, which is `seat` (a seat key) or drawn at random.
    Casual only (a rating needs people); a guest with a browser session may play, but not
    over days (a correspondence game takes members only, and counts in their cap). The game
    starts at once, its bots deciding through the same Celery path as any bot seat's.
    Anything refused changes nothing."""
    kind = get_kind(game_type)
    count = len(levels) + 1
    counts = [n for n in kind.seat_counts if n > 1]
    if not kind.bot_levels or count not in counts:
        bots = ", ".join(str(n - 1) for n in counts) or "no"
        raise GameError(Code.BAD_REQUEST, f"{kind.name} against bots takes {bots} bots, "
                        f"not {len(levels)}")
    for level in levels:
        if level not in kind.bot_levels:
            raise GameError(Code.BAD_REQUEST, f"a bot's level is {', '.join(kind.bot_levels)}"
                            f", not {level!r}")
    keys = [kind.seat_key(i) for i in range(count)]
    if seat != RANDOM and seat not in keys:
        raise GameError(Code.BAD_REQUEST, f"with {count} players you sit at random or at "
                        f"{', '.join(kind.seat_label(i) for i in range(count))} "
                        f"({', '.join(keys)}), not {seat!r}")
    try:
        control = clocks.parse(time_control)
    except ValueError as e:
        raise GameError(Code.BAD_REQUEST, str(e)) from None
    _check_person(actor, f"a game against {kind.name}'s bots")
    assert actor is not None
    code = control.code if control else ""
    correspondence.refuse_guest(actor.kind, code)
    check_pace(actor)
    human = keys.index(seat) if seat != RANDOM else random.SystemRandom().randrange(count)
    others = iter(levels)
    seats = [actor if i == human else Actor.bot(next(others)) for i in range(count)]
    with transaction.atomic():
        if actor.user_id is not None:
            correspondence.refuse_past_cap(actor.user_id, code)
        return play.create_game(game_type=game_type, seats=seats, options=options or {},
                                mode=Game.Mode.BOT, rated=False, time_control=code)


def _check_person(actor: Actor | None, what: str) -> None:
    if actor is None or actor.kind == "bot":
        raise GameError(Code.NOT_A_PLAYER, f"{what} needs a member or a guest with a browser "
                        "session")


def _holder(actor: Actor) -> Q:
    return Q(seats__user_id=actor.user_id) if actor.kind == "member" \
        else Q(seats__guest_key=actor.guest_key)


def check_pace(actor: Actor) -> None:
    """Refuse, changing nothing, a person who has started `BOT_GAMES_PER_WINDOW` games
    against bots (any kind) within `BOT_GAMES_WINDOW`."""
    since = timezone.now() - BOT_GAMES_WINDOW
    started = Game.objects.filter(_holder(actor), mode=Game.Mode.BOT,
                                  created_at__gte=since).count()
    if started >= BOT_GAMES_PER_WINDOW:
        minutes = int(BOT_GAMES_WINDOW.total_seconds() // 60)
        raise GameError(Code.THROTTLED, f"you have started {started} games against bots in "
                        f"the last {minutes} minutes: finish one of them, or wait a few "
                        "minutes before starting another")


def bots_in_words(game: Game) -> str:
    """The game's bots by name: "CargoBot Easy", "ExpressBot Easy and ExpressBot Hard";
    "" without one."""
    bots = [game.kind.bot_name(s.bot_level) for s in game.seat_list if s.bot_level]
    return bots[0] if len(bots) < 2 else f"{', '.join(bots[:-1])} and {bots[-1]}"


def active_bot_games(actor: Actor | None) -> list[Game]:
    """The games against bots (CargoBot, ExpressBots) a member or a guest is still
    playing."""
    if actor is None or actor.kind == "bot":
        return []
    games = Game.objects.filter(_holder(actor), mode=Game.Mode.BOT, status=Game.Status.ACTIVE)
    return list(games.order_by("-created_at").prefetch_related("seats")[:10])


def play_bot_turn(game_id: str, ply: int, *, quick: bool = False, seat: int | None = None
                  ) -> str:
    """The bot's decision at `ply`, through `apply_turn`. Does nothing if the game is gone,
    over, or no longer at `ply` with a bot to move. Returns what happened: "played", or why
    nothing was ("stale_ply", "game_over", "duplicate", ...). `quick` thinks at the kind's
    quick level instead of the seat's (the task's fallback when time runs short). With
    `seat` (games whose seats decide at the same time), that bot seat decides, if its own
    count of decisions is still `ply`."""
    from games.turns.store import get_game, live

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
