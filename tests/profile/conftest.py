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
from django.db import models, transaction
from django.utils import timezone

from games import services
from games.models import Game, new_id
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

    @staticmethod
    def copies(game: Game, count: int) -> list[str]:
        return copies(game, count)


def copies(game: Game, count: int) -> list[str]:
    """`count` copies of a finished `game`, in bulk: the game row and every row that belongs
    to it (CASCADE: its seats, turns, stats, rating changes...), each exactly as the finish
    seam wrote it but for the game's id. What a member earned once (achievements) and a
    rematch are not copied. For data of a size the services would take minutes to write;
    the rows copied are the services' own, never an imitation. Returns the copies' ids."""
    game = Game.objects.get(pk=game.pk)
    belongs = [rel for rel in Game._meta.related_objects
               if rel.on_delete is models.CASCADE and rel.related_model is not Game]
    rows = {rel: list(rel.related_model._default_manager.filter(**{rel.field.name: game}))
            for rel in belongs}
    ids = [new_id() for _ in range(count)]
    assert len(set(ids)) == count

    def clone(row: models.Model) -> models.Model:
        return type(row)(**{f.attname: getattr(row, f.attname)
                            for f in type(row)._meta.concrete_fields})

    games = []
    for gid in ids:
        copy = clone(game)
        copy.pk, copy.rematch_id = gid, None  # type: ignore[attr-defined]
        games.append(copy)
    with transaction.atomic():
        Game.objects.bulk_create(games)
        for rel, originals in rows.items():
            made = []
            for gid in ids:
                for row in originals:
                    new = clone(row)
                    if not rel.field.primary_key:
                        new.pk = None
                    setattr(new, rel.field.attname, gid)
                    made.append(new)
            rel.related_model._default_manager.bulk_create(made)
    return ids


@pytest.fixture
def play(django_capture_on_commit_callbacks, eager):
    """CargoBot's tasks run in-process whatever REDIS_URL says (tests.games.bot_support)."""
    return Plays(django_capture_on_commit_callbacks)
