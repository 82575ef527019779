"""CargoBot's turn is not left to the sweep: a task the broker refused is sent again as soon
as the broker answers, and a worker that starts sends every waiting game's task at once."""

import logging
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from games.botplay import bots
from games.models import Game
from tests.games.support import new_bot_game, scripted_tokens


@pytest.fixture
def broker(monkeypatch):
    """A broker that refuses while `down` is set; records what it was sent."""
    state = {"down": True, "sent": []}

    def enqueue(game_id, ply, **options):
        if state["down"]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        state["sent"].append((game_id, ply))

    monkeypatch.setattr(bots, "enqueue_bot_turn", enqueue)
    monkeypatch.setattr(bots.resender, "every", 0.05)
    # as in a fresh process: an earlier test's refused task must not be pending still (the
    # outage's one warning is logged when the first task is kept)
    with bots.resender.lock:
        bots.resender.pending.clear()
    return state


@pytest.mark.django_db(transaction=True)
def test_a_refused_bot_task_is_sent_when_the_broker_answers(users, broker, caplog):
    caplog.set_level(logging.WARNING, logger="games.botplay.bots")  # whatever ran before set
    game = new_bot_game(users["alice"], color="blue")  # alice moves first; no task yet
    from games import services
    from tests.games.support import member

    services.apply_turn(game.id, actor=member(users["alice"]), ply=0,
                        token=scripted_tokens(5)[0])  # committed although the broker is down
    assert Game.objects.get(id=game.id).ply == 1
    time.sleep(0.3)
    assert broker["sent"] == []
    broker["down"] = False
    deadline = time.monotonic() + 5
    while not broker["sent"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert broker["sent"] == [(game.id, 1)]  # well before the sweep's 20 s
    refusals = [r for r in caplog.records if "refused CargoBot" in r.getMessage()]
    assert len(refusals) == 1 and not refusals[0].exc_info


@pytest.mark.django_db
def test_a_starting_worker_sends_every_waiting_game_at_once(users, monkeypatch):
    sent = []
    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda g, p, **o: sent.append((g, p)))
    game = new_bot_game(users["alice"], color="orange")  # CargoBot (Blue) to move
    Game.objects.filter(id=game.id).update(bot_waiting_since=timezone.now()
                                           - timedelta(seconds=1))  # just now: not stalled
    sent.clear()
    from cargosite.celery import resend_waiting_bot_turns

    resend_waiting_bot_turns(sender=None)
    assert sent == [(game.id, 0)]
