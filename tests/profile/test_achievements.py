"""Achievements: a data-driven list, each awarded once (with the game and the date) by the
finish seam after commit, including when two games finish at once; what they look at is
the games played through the services."""

import os
import re
import threading
from pathlib import Path

import pytest
from django.db import connection

from accounts.achievements import ACHIEVEMENTS, Facts
from accounts.models import EarnedAchievement, GameStats
from games import services
from games.actors import Actor
from tests.games.support import new_game

ICONS = (Path(__file__).resolve().parents[2] / "templates/accounts/_icons.html").read_text()


def held(user):
    return set(EarnedAchievement.objects.filter(user=user).values_list("key", flat=True))


def test_the_list_is_data_with_names_descriptions_and_icons():
    assert len(ACHIEVEMENTS) >= 20
    assert len({a.key for a in ACHIEVEMENTS}) == len(ACHIEVEMENTS)
    symbols = set(re.findall(r'<symbol id="i-([a-z]+)"', ICONS))
    for a in ACHIEVEMENTS:
        assert re.fullmatch(r"[a-z0-9_]{3,32}", a.key)
        assert a.name and a.description.endswith(".") and "\n" not in a.description
        assert a.icon in symbols, a.key


@pytest.mark.django_db
def test_each_is_awarded_once_with_the_game_that_earned_it(users, play):
    alice, bob = users["alice"], users["bob"]
    first = play.resign(alice, bob)
    play.resign(alice, bob)
    earned = EarnedAchievement.objects.filter(user=alice)
    assert sorted(e.key for e in earned) == ["first_online_win", "first_shift", "first_win"]
    assert all(e.game_id == first.id and e.earned_at == first.finished_at for e in earned)
    assert held(bob) == {"first_shift"}


@pytest.mark.django_db
def test_what_is_held_is_what_the_games_earned(users, play):
    """Over whole games: a member holds a per-game achievement exactly when one of their
    games' rows passes its test (the record ones are tested one by one below)."""
    alice, bob = users["alice"], users["bob"]
    for seed in (1, 5, 17, 33, 60):
        play.game(alice, bob, seed=seed, size=6)
    for level in ("easy", "medium"):
        play.bot(alice, level=level, seed=3)
    for user in (alice, bob):
        rows = [Facts(r) for r in GameStats.objects.filter(user=user)]
        for a in ACHIEVEMENTS:
            if not a.record and not a.tournament:  # a tournament's: its end earns it
                assert (a.key in held(user)) == any(a.test(f) for f in rows), (user, a.key)


@pytest.mark.django_db
def test_record_achievements_come_with_the_game_that_completes_the_record(users, play):
    alice, bob = users["alice"], users["bob"]
    for _ in range(9):
        play.resign(alice, bob)
    assert "ten_online_wins" not in held(alice)
    assert "win_streak_5" in held(alice)
    tenth = play.resign(alice, bob)
    assert EarnedAchievement.objects.get(user=alice, key="ten_online_wins").game_id == tenth.id

    for size in (5, 6, 7):
        play.resign(alice, bob, size=size)
    assert "every_size" not in held(alice)
    last = play.resign(alice, bob, size=8)
    assert EarnedAchievement.objects.get(user=alice, key="every_size").game_id == last.id
    assert "standard_shift" in held(alice)


@pytest.mark.django_db
def test_a_voided_game_takes_back_what_it_earned(users, play):
    alice, bob = users["alice"], users["bob"]
    game = play.resign(alice, bob)
    play.commit(services.void_game, game.id, "a test")
    assert held(alice) == set()
    play.resign(bob, alice)
    assert held(alice) == {"first_shift"}


@pytest.mark.django_db
def test_two_games_finishing_in_one_commit_award_once(users, play):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    one = play.commit(new_game, alice, bob)
    two = play.commit(new_game, alice, carol)

    def both():
        services.resign(one.id, actor=Actor.member(bob))
        services.resign(two.id, actor=Actor.member(carol))

    play.commit(both)  # both handlers run after the commit and see both games' rows
    assert EarnedAchievement.objects.filter(user=alice, key="first_win").count() == 1


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
@pytest.mark.django_db(transaction=True)
def test_two_games_finishing_at_once_on_two_connections_award_once(users):
    """Eight games of alice's, each resigned by its opponent in its own thread and
    connection at the same moment: each achievement is stored once."""
    alice, bob = users["alice"], users["bob"]
    games = [new_game(alice, bob) for _ in range(8)]
    barrier = threading.Barrier(len(games))
    failures = []

    def resign(game):
        try:
            barrier.wait()
            services.resign(game.id, actor=Actor.member(bob))
        except Exception as e:  # pragma: no cover - reported below
            failures.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=resign, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert failures == []
    assert GameStats.objects.filter(user=alice).count() == 8
    keys = list(EarnedAchievement.objects.filter(user=alice).values_list("key", flat=True))
    assert sorted(keys) == sorted(set(keys))
    assert {"first_win", "first_online_win", "first_shift", "win_streak_5"} <= set(keys)


@pytest.mark.django_db
def test_the_cabinet_shows_earned_and_open(users, play, client):
    play.resign(users["alice"], users["bob"])
    html = client.get("/@/alice").content.decode()
    assert html.count('class="achievement is-earned"') == 3
    assert html.count('class="achievement is-open"') == len(ACHIEVEMENTS) - 3
    assert "Not yet" in html and "Earned" in html
