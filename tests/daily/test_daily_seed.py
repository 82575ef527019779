"""The daily seed: one per date, from the date and the server's secret, shared by the
three difficulties, the seed of CargoBot's choices; everyone at a difficulty meets the same
CargoBot."""

import datetime as dt

import pytest

from games import services
from games.actors import Actor
from puzzles.daily import clock
from puzzles.daily import services as daily

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_seed_per_date_and_it_needs_the_secret(settings):
    monday, tuesday = dt.date(2026, 3, 9), dt.date(2026, 3, 10)
    assert clock.daily_seed(monday) == clock.daily_seed(monday)
    assert clock.daily_seed(monday) != clock.daily_seed(tuesday)
    assert 0 <= clock.daily_seed(monday) < 2 ** 48
    before = clock.daily_seed(monday)
    settings.DAILY_SEED_SECRET = "another secret"
    assert clock.daily_seed(monday) != before
    settings.SECRET_KEY = "another key"
    settings.DAILY_SEED_SECRET = ""
    assert clock.daily_seed(monday) != before


def test_every_difficulty_uses_the_days_seed(frozen, users, eager):
    seed = clock.daily_seed(dt.date(2026, 3, 9))
    games = [daily.start(Actor.member(users["alice"]), level)
             for level in ("easy", "medium", "hard")]
    assert {services.get_game(g.id).bot_seed for g in games} == {seed}
    assert {g.size for g in games} == {5}
    assert all(g.mode == "daily" and not g.rated for g in games)


def test_the_same_moves_meet_the_same_cargobot(frozen, users, eager):
    from tests.daily.conftest import play_turns

    a = daily.start(Actor.member(users["alice"]), "hard")
    b = daily.start(Actor.member(users["bob"]), "hard")
    c = daily.start(Actor.guest("a-guest-session-key"), "hard")
    for game, actor in ((a, Actor.member(users["alice"])), (b, Actor.member(users["bob"])),
                        (c, Actor.guest("a-guest-session-key"))):
        play_turns(game.id, actor, 3)
    tokens = [services.get_game(g.id).tokens for g in (a, b, c)]
    assert len(tokens[0]) == 6
    assert tokens[0] == tokens[1] == tokens[2]
