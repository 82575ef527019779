"""The correspondence cap under concurrency (issue #29): two creations of one member at
one instant, each on its own connection, make one game past the last free place, not
two. Each counts only after the other's transaction ended (the member's user row is
locked by the check); without that lock both would count the same number and both pass,
which the barrier below makes happen every time."""

import os
import threading

import pytest
from django.db import connection

from games import services
from games.models import Challenge
from games.timing import correspondence

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="real concurrent transactions need PostgreSQL"),
]


def test_two_tables_at_one_instant_stay_within_the_cap(users, monkeypatch):
    monkeypatch.setattr(correspondence, "NEW_MEMBER_CAP", 2)
    alice = users["alice"]
    services.create_challenge(alice, options={"size": 5}, time_control="3d")  # one of two
    counted = threading.Barrier(2)
    counting = correspondence.in_progress

    def in_progress_then_wait(user_id):
        """Count, then wait (a short while) for the other thread to have counted too: it
        can only if nothing keeps it from counting before this one's table is made."""
        n = counting(user_id)
        try:
            counted.wait(timeout=1.5)
        except threading.BrokenBarrierError:
            pass
        return n

    monkeypatch.setattr(correspondence, "in_progress", in_progress_then_wait)
    made, refused, errors = [], [], []
    start = threading.Barrier(2)

    def create():
        try:
            start.wait()
            made.append(services.create_challenge(alice, options={"size": 5},
                                                  time_control="5d"))
        except services.GameError as e:
            refused.append(e.message)
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert errors == []
    assert len(made) == 1 and len(refused) == 1
    assert "you already have 2 correspondence games in progress" in refused[0]
    assert Challenge.objects.filter(creator=alice).count() == 2
