"""The end of the day: a ranked game still running at midnight Pacific is resigned (a loss
scored by the Final Audit then) by the beat task, scheduled in UTC every minute, and by the
lazy check when it is opened or a turn arrives; each way applies exactly once."""

import datetime as dt

import pytest
from celery.schedules import crontab
from django.conf import settings

from games import services
from games.actors import Actor
from games.models import Game
from puzzles.daily import services as daily
from puzzles.daily import tasks
from rankings.models import DailyBoardEntry
from tests.daily.conftest import pacific, play_turns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running(frozen, users, eager):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_turns(game.id, alice, 2)
    return game


def _ended(game):
    return services.get_game(game.id)


def test_the_beat_task_is_scheduled_every_minute_in_utc():
    entry = settings.CELERY_BEAT_SCHEDULE["daily-end-of-day"]
    assert entry["task"] == "daily.resign_expired"
    assert entry["schedule"] == crontab(minute="*")
    assert settings.CELERY_TIMEZONE == "UTC"


def test_the_beat_task_resigns_once_at_midnight(running, frozen):
    frozen.set(pacific(2026, 3, 9, 23, 59, 59))
    assert tasks.resign_expired() == []
    assert _ended(running).status == Game.Status.ACTIVE
    frozen.set(pacific(2026, 3, 10, 0, 0, 0))
    assert tasks.resign_expired() == [running.id]
    assert tasks.resign_expired() == []  # idempotent
    game = _ended(running)
    assert game.status == Game.Status.FINISHED
    assert game.termination == Game.Termination.DAY_ENDED
    me, bot = game.seat_list
    assert me.outcome == "loss" and me.resigned
    # the Final Audit at that moment: each shape not completed costs its Rust Chit
    lg = services.replayed(game)
    lg.resign(0)
    assert lg.result().scores == (me.score, bot.score)
    assert DailyBoardEntry.objects.filter(game_id=game.id).count() == 1
    # the lazy check afterwards changes nothing
    assert daily.refresh(game) is False


def test_opening_the_game_after_its_day_resigns_it_once(running, frozen, client, users):
    frozen.set(pacific(2026, 3, 10, 0, 0, 1))
    client.force_login(users["alice"])
    page = client.get(f"/g/{running.id}")
    assert page.status_code == 200
    game = _ended(running)
    assert game.termination == Game.Termination.DAY_ENDED
    client.get(f"/g/{running.id}")
    assert tasks.resign_expired() == []  # the beat task finds nothing left to do
    assert DailyBoardEntry.objects.filter(game_id=game.id).count() == 1


def test_a_turn_arriving_after_the_day_is_refused_and_the_game_resigned(running, frozen,
                                                                      client, users):
    frozen.set(pacific(2026, 3, 10, 0, 3))
    client.force_login(users["alice"])
    state = services.state_of(services.get_game(running.id), viewer=0)
    answer = client.post(f"/g/{running.id}/turn", {"ply": state["ply"],
                                                   "token": state["legal"][0]})
    assert answer.status_code == 409 and answer.json()["code"] == "game_over"
    assert _ended(running).termination == Game.Termination.DAY_ENDED
    assert _ended(running).ply == 4


@pytest.mark.asyncio
async def test_a_turn_over_the_socket_after_the_day(running, frozen, connect):
    from channels.db import database_sync_to_async

    comm = await connect(running.id, "alice")
    frozen.set(pacific(2026, 3, 10, 0, 0, 5))
    await comm.send_json_to({"type": "turn", "ply": 4, "token": "a"})
    frames = []
    while len(frames) < 2:
        frames.append(await comm.receive_json_from(timeout=5))
    assert sorted(f["type"] for f in frames) == ["error", "resigned"]
    assert next(f for f in frames if f["type"] == "error")["code"] == "game_over"
    game = await database_sync_to_async(_ended)(running)
    assert game.termination == Game.Termination.DAY_ENDED
    await comm.disconnect()


def test_across_the_autumn_change_the_25_hour_day_is_kept(frozen, users, eager):
    frozen.set(pacific(2026, 11, 1, 0, 30))  # Sunday 1 Nov 2026, 25 hours long
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    assert game.size == 8
    # 24 hours later it is still 1 November (23:30 PST): not resigned
    # (in UTC: aware arithmetic within one zone would add wall-clock hours)
    frozen.set(pacific(2026, 11, 1, 0, 30).astimezone(dt.UTC) + dt.timedelta(hours=24))
    assert tasks.resign_expired() == []
    frozen.set(pacific(2026, 11, 2, 0, 0, 30))
    assert tasks.resign_expired() == [game.id]


def test_practice_games_are_not_resigned(frozen, users, eager):
    guest = Actor.guest("guest-session")
    game = daily.start(guest, "easy")
    frozen.set(pacific(2026, 3, 11, 1, 0))
    assert tasks.resign_expired() == []
    assert daily.refresh(services.get_game(game.id)) is False


def test_resigning_from_the_puzzles_page(running, client, users):
    client.force_login(users["bob"])
    client.post(f"/puzzles/daily/resign/{running.id}")  # not bob's
    assert _ended(running).status == Game.Status.ACTIVE
    client.force_login(users["alice"])
    client.post(f"/puzzles/daily/resign/{running.id}")
    game = _ended(running)
    assert game.termination == Game.Termination.RESIGNED
    assert DailyBoardEntry.objects.get(game_id=game.id).score == game.seat_list[0].score
