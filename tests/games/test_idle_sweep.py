"""The idle sweep (games.timing.abandonment.sweep_idle_games, Celery beat): an untimed game nobody
has moved in for IDLE_AFTER is aborted, no result; a game with a recent decision, a timed
game and a finished one are left alone."""

import datetime as dt

import pytest
from django.utils import timezone

from games import services, tasks
from games.actors import Actor
from games.models import Game
from games.timing import abandonment
from tests.games.support import new_game

pytestmark = pytest.mark.django_db


def express(users):
    return services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(users[n]) for n in ("alice", "bob")])


def test_an_untimed_game_nobody_moves_in_is_aborted_after_three_days(users):
    idle = express(users)
    recent = new_game(users["alice"], users["bob"], rated=False)
    timed = new_game(users["alice"], users["bob"], time_control="10+5")
    later = timezone.now() + abandonment.IDLE_AFTER + dt.timedelta(minutes=1)
    Game.objects.filter(id=recent.id).update(created_at=timezone.now())
    services.apply_turn(recent.id, actor=Actor.member(users["alice"]), ply=0,
                        token=services.state_of(recent, viewer=0)["legal"][0])
    from games.models import Turn

    Turn.objects.filter(game_id=recent.id).update(created_at=later - dt.timedelta(hours=1))
    assert abandonment.sweep_idle_games(later) == [idle.id]
    row = services.get_game(idle.id)
    assert (row.status, row.termination, row.ended_by) == ("aborted", "aborted", None)
    assert all(s.place is None for s in row.seat_list)
    for other in (recent, timed):
        assert services.get_game(other.id).status == Game.Status.ACTIVE
    assert abandonment.sweep_idle_games(later) == []  # once
    assert "Game aborted" in services.state_of(row)["ending"]["text"]


def test_the_beat_task_runs_the_sweep(users, monkeypatch):
    monkeypatch.setattr(abandonment, "IDLE_AFTER", dt.timedelta(seconds=-1))
    game = express(users)
    assert tasks.sweep_idle_games() == [game.id]
