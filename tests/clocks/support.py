"""Helpers for clock tests: timed games through the services, and time passing for a
game's running clock (its `since`, `flag_at` and the players' absence moved back), so no
test waits minutes or patches the time."""

import contextlib
import datetime as dt
from collections.abc import Iterator
from unittest import mock

from django.db.models import F
from django.utils import timezone

from games import services
from games.models import Game, Seat, Turn
from games.timing import timeouts
from tests.games.support import member

BLUE, ORANGE = 0, 1


def timed_game(blue, orange, time_control="5+3", size=5, **kwargs):
    return services.create_game(game_type="cargo-connect", options={"size": size},
                                seats=[member(blue), member(orange)],
                                time_control=time_control, **kwargs)


def legal(game_id):
    game = services.get_game(game_id)
    return services.state_of(game, viewer=None)["legal"]


def play(game_id, user, token=None):
    """`user` plays a legal turn (the first drop offered, or `token`) at the current ply."""
    game = services.get_game(game_id)
    token = token or next(t for t in legal(game_id) if len(t) == 1)
    return services.apply_turn(game_id, actor=member(user), ply=game.ply, token=token)


def start(game, users):
    """Blue and Orange each make their first turn: from now on Blue's clock runs."""
    play(game.id, users["alice"])
    play(game.id, users["bob"])
    return services.get_game(game.id)


def pass_time(game_id, seconds: float) -> None:
    """As if `seconds` had passed for the running clock and for absent players."""
    delta = dt.timedelta(seconds=seconds)
    Game.objects.filter(id=game_id, clock_since__isnull=False).update(
        clock_since=F("clock_since") - delta, flag_at=F("flag_at") - delta)
    Game.objects.filter(id=game_id).update(created_at=F("created_at") - delta)
    Seat.objects.filter(game_id=game_id, left_at__isnull=False).update(
        left_at=F("left_at") - delta)
    Turn.objects.filter(game_id=game_id).update(created_at=F("created_at") - delta)


def left_ms(game_id):
    return services.get_game(game_id).clock["left"]


class FrozenTime:
    """The moment every `timezone.now()` answers (the `frozen` fixture)."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@contextlib.contextmanager
def frozen_time() -> Iterator[FrozenTime]:
    """Every `timezone.now()` answers the clock's moment, which only `advance` moves; and
    this process's flag watcher is told of no game. The watcher sleeps in real time until
    a flag it knows of is due by `timezone.now()`: with time frozen it would wake at some
    moment of the test (later the busier the machine) and race the test's own flag check
    (seen: `tasks.flag_clocks()` finding the game already flagged, under load). Frozen
    tests make flags fall through the beat's task or the game's own check; the watcher's
    tests (tests/clocks/test_flag_watcher.py) run in real time."""
    clock = FrozenTime(timezone.now().replace(microsecond=0))
    with mock.patch.object(timezone, "now", side_effect=lambda: clock.now), \
            mock.patch.object(timeouts.watcher, "add", lambda game_id, when, revision=0: None):
        yield clock
