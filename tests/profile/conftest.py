"""Games for profile tests, always played through the services (never rows written by
hand): whole games where each seat plays CargoBot's choice, resignations, games against
CargoBot. Every service call runs its after-commit callbacks (the stats and achievements
handlers, CargoBot's task) as a real commit would."""

from __future__ import annotations

import contextlib
import datetime as dt
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from tests.games.bot_support import eager
from tests.games.support import Actor, new_bot_game, new_game

__all__ = ["eager"]

User = get_user_model()


@pytest.fixture
def users(db):
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in ("alice", "bob", "carol")}


@contextlib.contextmanager
def at(when: dt.datetime):
    """Every `timezone.now()` (finish time, rating history) answers `when`."""
    with mock.patch.object(timezone, "now", return_value=when):
        yield


class Plays:
    def __init__(self, capture):
        self.capture = capture

    def commit(self, call, *args, **kwargs):
        with self.capture(execute=True):
            return call(*args, **kwargs)

    def out(self, game, actors, level="easy", seed=0):
        """Play `game` to its Final Audit, each human seat choosing CargoBot's turn at
        `level` (`actors` by seat; None for a bot seat, which its task plays)."""
        while True:
            row = services.get_game(game.id)
            if row.is_over:
                return row
            lg = services.live(row)
            seat = lg.acting()[0]
            assert actors[seat] is not None, "a bot seat's task should have moved"
            token = row.kind.bot_decision(lg, seat, level, seed + row.ply)
            self.commit(services.apply_turn, game.id, actor=actors[seat], ply=row.ply,
                        token=token)

    def game(self, blue, orange, *, size=5, level="easy", seed=0, **kwargs):
        """A whole online game between two members, played out."""
        game = self.commit(new_game, blue, orange, size=size, **kwargs)
        return self.out(game, [Actor.member(blue), Actor.member(orange)], level, seed)

    def resign(self, winner, loser, *, size=5, loser_seat=1, **kwargs):
        """An online game the loser resigns at once (Blue is seat 0)."""
        blue, orange = (winner, loser) if loser_seat == 1 else (loser, winner)
        game = self.commit(new_game, blue, orange, size=size, **kwargs)
        self.commit(services.resign, game.id, actor=Actor.member(loser))
        return services.get_game(game.id)

    def bot(self, user, *, level="easy", size=5, seed=0, resign=False, color="blue"):
        """A casual game against CargoBot: the member plays CargoBot Easy's choice (the
        bot's own turns come from its task), or resigns at once."""
        game = self.commit(new_bot_game, user, level=level, size=size, color=color)
        if resign:
            self.commit(services.resign, game.id, actor=Actor.member(user))
            return services.get_game(game.id)
        seats = services.get_game(game.id).seat_list
        actors = [Actor.member(user) if s.user_id == user.pk else None for s in seats]
        return self.out(game, actors, "easy", seed)


@pytest.fixture
def play(django_capture_on_commit_callbacks, eager):
    """CargoBot's tasks run in-process whatever REDIS_URL says (tests.games.bot_support)."""
    return Plays(django_capture_on_commit_callbacks)
