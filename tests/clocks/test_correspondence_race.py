"""A missed correspondence deadline found at once by the beat task and by the game being
opened (its page, its HTTP fallback's JSON), each on its own connection: the timeout is
applied exactly once (one ending, one rating change each), whoever locks the row first."""

import datetime as dt
import os
import threading

import pytest
from django.db import connection
from django.test import Client

from games import services, tasks
from games.models import Game
from rankings.models import RatingChange
from tests.clocks.support import start, timed_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="real concurrent transactions need PostgreSQL"),
]


def missed(game_id):
    """Blue's 3-day deadline passed a second ago."""
    game = services.get_game(game_id)
    ago = dt.timedelta(days=3, seconds=2)
    Game.objects.filter(id=game_id).update(clock_since=game.clock_since - ago,
                                           flag_at=game.flag_at - ago)


def race(game_id, users):
    """Two beats, the page and the JSON start together: what the beats returned."""
    barrier = threading.Barrier(4)
    beats, errors = [], []

    def beat():
        try:
            barrier.wait()
            beats.append(tasks.flag_clocks())
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    def opens(user, url):
        try:
            client = Client()
            client.force_login(user)
            barrier.wait()
            assert client.get(url).status_code == 200
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=beat), threading.Thread(target=beat),
               threading.Thread(target=opens, args=(users["bob"], f"/g/{game_id}")),
               threading.Thread(target=opens, args=(users["alice"],
                                                    f"/g/{game_id}/events?after=0"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    return beats


def test_the_beat_and_the_lazy_checks_racing_apply_the_timeout_once(users):
    for _ in range(3):
        game = start(timed_game(users["alice"], users["bob"], "3d"), users)
        missed(game.id)
        beats = race(game.id, users)
        assert sum(game.id in b for b in beats) <= 1
        row = services.get_game(game.id)
        assert (row.status, row.termination) == ("finished", "timed_out")
        assert [s.outcome for s in row.seat_list] == ["loss", "win"]
        assert RatingChange.objects.filter(game=row).count() == 2
