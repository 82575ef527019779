"""Two devices starting today's ranked game at once make one ranked game: the database's
constraint decides, and both devices are sent to that game."""

import os
import threading

import pytest
from django.db import connection

from games.actors import Actor
from puzzles.daily import services as daily
from puzzles.daily.models import DailyGame

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
def test_devices_racing_make_one_ranked_game(frozen, users):
    devices = 6
    barrier = threading.Barrier(devices)
    got, errors = [], []

    def start():
        try:
            barrier.wait()
            got.append(daily.start(Actor.member(users["alice"]), "medium").id)
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    ranked = DailyGame.objects.filter(user=users["alice"], ranked=True)
    assert ranked.count() == 1
    assert set(got) == {ranked.get().game_id}  # every device continues the same game
    assert DailyGame.objects.count() == 1  # the losers' games were rolled back


def test_the_same_race_one_after_the_other(frozen, users):
    """What each loser sees, without threads: the winner's game."""
    first = daily.start(Actor.member(users["alice"]), "medium")
    assert daily.start(Actor.member(users["alice"]), "medium").id == first.id
