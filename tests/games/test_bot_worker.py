"""CargoBot with a real Celery worker on the Redis broker (as in production): whole games at
every level over WebSockets, a duplicated task, a task after a resign, and the sweep.

The worker runs in a thread of the test process (`celery.contrib.testing.worker
.start_worker`) against the test database, so tests commit their data
(`transaction=True`). Without REDIS_URL and DATABASE_URL (PostgreSQL) they skip; the same
behaviours run in-process in test_bot_games.py. The queue is purged when the worker starts:
do not run these while a development worker consumes the same Redis database.
"""

import asyncio
import logging
import os
import time
from datetime import timedelta

import pytest
from celery.signals import task_postrun
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from games import services, tasks
from games.models import Game
from rankings.models import BotRatingChange
from tests.games.bot_support import bot_turns, human_token, lost_tasks, play_as_human
from tests.games.support import SIDES, Actor, new_bot_game, winner_of

__all__ = ["lost_tasks"]

pytestmark = [
    pytest.mark.skipif(not os.environ.get("REDIS_URL"),
                       reason="REDIS_URL not set: a real Celery worker needs the Redis broker "
                              "(test_bot_games.py runs the same behaviours eagerly)"),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="DATABASE_URL is not PostgreSQL: the worker thread needs a "
                              "database it can share with the test (not in-memory SQLite)"),
    pytest.mark.django_db(transaction=True),
]

GAME_TIMEOUT = 120  # seconds for a whole 5×5 game (Hard thinks about 0.1 s a turn)


@pytest.fixture
def worker(transactional_db):
    import celery.contrib.testing.tasks  # noqa: F401  (the ping task start_worker checks)
    from celery.contrib.testing.worker import start_worker

    from cargosite.celery import app

    assert not app.conf.task_always_eager
    app.control.purge()  # tasks left by earlier runs

    def close_connections(**kwargs):  # each pool thread's, so the test database can go
        connections.close_all()

    task_postrun.connect(close_connections, weak=False)
    root_level = logging.getLogger().level  # the worker sets the root logger's level
    try:
        # Celery's ping check waits 10 s by default: a worker thread starting beside the
        # other xdist worker's browser tests on two loaded cores took longer (all six tests
        # of one worker failed in set-up once, issue #43). A ready worker answers at once.
        with start_worker(app, pool="threads", concurrency=2, perform_ping_check=True,
                          ping_task_timeout=60, shutdown_timeout=30) as w:
            yield w
    finally:
        task_postrun.disconnect(close_connections)
        logging.getLogger().setLevel(root_level)  # later tests' warnings still reach caplog


def result_of(task, *args, timeout: float = 30):
    """Send a task to the worker and wait for what it returned."""
    return task.apply_async(args, ignore_result=False).get(timeout=timeout)


def wait_for(predicate, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.asyncio
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
async def test_it_plays_a_whole_game_against_each_level(worker, users, connect, level):
    alice = users["alice"]
    game = await database_sync_to_async(new_bot_game)(
        user=alice, guest_key=None, level=level, size=5, color="blue")
    comm = await connect(game.id, "alice")
    state = comm.first["state"]
    assert state["you"] == "blue" and state["players"]["orange"]["bot"] == level

    async def play() -> dict:
        nonlocal state
        while not state["over"]:
            ply = state["ply"]
            # at most a socket's 20 frames a second (games/sockets/runtime.py): a fast worker's
            # CargoBot answers within milliseconds, and a script would otherwise be throttled
            await asyncio.sleep(0.06)
            await comm.send_json_to({"type": "turn", "ply": ply, "token": human_token(state)})
            frame = await comm.receive_json_from(timeout=10)
            assert (frame["type"], frame["ply"], frame.get("side")) == ("turn", ply, "blue"), frame
            if not frame["state"]["over"]:
                frame = await comm.receive_json_from(timeout=30)  # CargoBot, via the worker
                assert (frame["type"], frame["ply"], frame.get("side")) == (
                    "turn", ply + 1, "orange"), frame
            state = {**frame["state"], "you": "blue"}
        return state

    final = await asyncio.wait_for(play(), GAME_TIMEOUT)
    assert final["status"] == "finished"
    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert row.status == "finished" and row.bot_waiting_since is None
    sides = await database_sync_to_async(
        lambda: [SIDES[s] for s in row.turns.order_by("ply").values_list("seat", flat=True)])()
    assert sides == ["blue", "orange"] * (row.ply // 2) + ["blue"] * (row.ply % 2)
    assert await database_sync_to_async(
        BotRatingChange.objects.filter(game=row, user=alice).count)() == 1
    assert await comm.receive_nothing(timeout=0.5)  # no turn played twice or late
    await comm.disconnect()


def test_a_duplicated_task_plays_once(worker, users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="medium", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    assert lost_tasks == [(game.id, 1)]
    sent = [tasks.bot_turn.apply_async((game.id, 1), ignore_result=False) for _ in range(4)]
    outcomes = sorted(r.get(timeout=30) for r in sent)
    assert outcomes.count("played") == 1, outcomes
    assert set(outcomes) <= {"played", "stale_ply", "duplicate"}
    game.refresh_from_db()
    assert game.ply == 2 and len(bot_turns(game)) == 1


def test_a_task_arriving_after_the_player_resigned_does_nothing(worker, users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="hard", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    services.resign(game.id, actor=Actor.of_user(alice), ply=1)
    assert result_of(tasks.bot_turn, game.id, 1) == "game_over"
    game.refresh_from_db()
    assert game.ply == 1 and bot_turns(game) == [] and winner_of(game) == "orange"


def test_the_sweep_picks_up_a_game_whose_task_was_lost(worker, users, lost_tasks,
                                                       monkeypatch):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    assert lost_tasks == [(game.id, 1)]  # never reached the broker
    monkeypatch.undo()
    Game.objects.filter(id=game.id).update(
        bot_waiting_since=timezone.now() - services.BOT_SWEEP_AFTER - timedelta(seconds=1))

    assert result_of(tasks.sweep_bot_games) == [game.id]
    wait_for(lambda: Game.objects.get(id=game.id).ply == 2)
    game.refresh_from_db()
    assert len(bot_turns(game)) == 1 and game.bot_waiting_since is None
    assert result_of(tasks.sweep_bot_games) == []
