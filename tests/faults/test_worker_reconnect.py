"""A worker that lost Redis tries it again every second (Celery's own consumer waits 2, 4, 6
... up to 30 s between tries), and does not exit when the lost connection cannot be closed
cleanly, so CargoBot's waiting turns are taken within a second or two of Redis returning.
Back on the broker, it re-sends the
CargoBot turns that were waiting (Celery dropped the tasks it had prefetched). scripts/faults.py
measures it against a real Redis restart."""

import threading

from cargosite import celery as worker
from cargosite.celery import BROKER_RETRY_SECONDS, PromptConsumer, app


class Broker:
    """A broker connection that records how the consumer asks it to retry."""

    def __init__(self):
        self.asked = {}

    def ensure_connection(self, errback=None, max_retries=None, callback=None, **intervals):
        self.asked = intervals
        return self


def test_the_worker_uses_the_prompt_consumer():
    assert app.conf.worker_consumer == "cargosite.celery:PromptConsumer"


def test_a_lost_broker_is_tried_again_every_second():
    consumer = object.__new__(PromptConsumer)  # no worker around it: only the retry policy
    consumer.app = app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    broker = Broker()
    assert consumer.ensure_connected(broker) is broker
    assert broker.asked == {"interval_start": BROKER_RETRY_SECONDS, "interval_step": 0,
                            "interval_max": BROKER_RETRY_SECONDS}
    assert BROKER_RETRY_SECONDS <= 1.0


def test_a_connection_that_cannot_be_closed_cleanly_does_not_stop_the_worker(monkeypatch):
    import logging

    from celery.worker.consumer import Consumer

    from tests.faults.conftest import Records

    logger = logging.getLogger("cargosite.celery")  # a worker's setup may have reconfigured it
    records = Records()
    logger.addHandler(records)
    monkeypatch.setattr(logger, "disabled", False)
    monkeypatch.setattr(logger, "level", logging.INFO)

    def close_collected(self, exc):  # what Celery 5.7.0 + kombu 5.7 do when Redis goes away
        raise AttributeError("'NoneType' object has no attribute 'hostname'")

    monkeypatch.setattr(Consumer, "on_connection_error_after_connected", close_collected)
    consumer = object.__new__(PromptConsumer)
    try:
        consumer.on_connection_error_after_connected(
            ConnectionError("Connection closed by server."))
    finally:
        logger.removeHandler(records)
    assert len(records.records) == 1 and "reconnecting" in records.records[0].getMessage()


def test_an_ack_over_a_lost_connection_is_logged_not_raised(monkeypatch):
    from celery.worker.consumer import Consumer

    seen = []
    monkeypatch.setattr(Consumer, "update_strategies",
                        lambda self: seen.append(self.connection_errors))
    consumer = object.__new__(PromptConsumer)
    consumer.connection_errors = (ConnectionError,)
    consumer.update_strategies()
    assert seen == [(ConnectionError, AttributeError)]  # what the strategies' acks catch
    assert consumer.connection_errors == (ConnectionError,)  # the consumer's own: unchanged


def reconnecting_consumer(monkeypatch, lost: bool) -> tuple[PromptConsumer, threading.Event]:
    """A consumer that connects (again, after losing the broker, if `lost`), with the
    re-send after an outage replaced by an event."""
    from celery.worker.consumer import Consumer

    resent = threading.Event()
    monkeypatch.setattr(worker, "resend_after_outage", resent.set)
    monkeypatch.setattr(Consumer, "on_connection_error_after_connected", lambda self, exc: None)
    consumer = object.__new__(PromptConsumer)
    consumer.app = app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    if lost:
        consumer.on_connection_error_after_connected(ConnectionError("Connection closed."))
    consumer.ensure_connected(Broker())
    return consumer, resent


def test_back_on_the_broker_the_waiting_cargobot_turns_are_sent_again(monkeypatch):
    consumer, resent = reconnecting_consumer(monkeypatch, lost=True)
    assert resent.wait(5)
    assert consumer.lost_broker is False  # once per outage
    resent.clear()
    consumer.ensure_connected(Broker())
    assert not resent.wait(0.2)


def test_a_first_connection_sends_nothing_again(monkeypatch):
    _, resent = reconnecting_consumer(monkeypatch, lost=False)
    assert not resent.wait(0.2)  # worker_ready's sweep does that at start


def test_the_resend_after_an_outage_sends_every_waiting_game(monkeypatch, db):
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.botplay import bots
    from games.models import Game
    from tests.games.support import new_bot_game

    sent = []
    monkeypatch.setattr(bots, "enqueue_bot_turn",
                        lambda game_id, ply, **options: sent.append((game_id, ply)))
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)  # the test's own
    game = new_bot_game(get_user_model().objects.create_user("waits"), color="orange")
    sent.clear()  # CargoBot's first turn, sent as the game was made
    just_now = timezone.now() - timedelta(milliseconds=1)
    Game.objects.filter(id=game.id).update(bot_waiting_since=just_now)
    worker.resend_after_outage()
    assert sent == [(game.id, 0)]
