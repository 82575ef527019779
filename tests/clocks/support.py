"""Helpers for clock tests: timed games through the services, and time passing for a
game's running clock (its `since`, `flag_at` and the players' absence moved back), so no
test waits minutes or patches the time."""

import datetime as dt

from django.db.models import F

from games import services
from games.models import Game, Seat, Turn
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
