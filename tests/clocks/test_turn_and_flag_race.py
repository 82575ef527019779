"""A last-second turn and the flag's check racing give exactly one outcome: either the turn
is applied and the game goes on (the check then finds time left), or the game ends on time
and the turn is refused. Never both, never a second ending."""

import datetime as dt
import os
import threading

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Game, Turn
from games.timing import timeouts
from rankings.models import RatingChange
from tests.clocks.support import legal, start, timed_game
from tests.games.support import member

pytestmark = pytest.mark.django_db(transaction=True)


def set_flag_in(game_id, ms):
    """Blue's clock falls `ms` from now (its time left made to fit)."""
    game = services.get_game(game_id)
    since = timezone.now() - dt.timedelta(minutes=1)
    left = 60_000 + ms - 1000  # less the lag allowance
    clock = {**game.clock, "left": [left, game.clock["left"][1]]}
    Game.objects.filter(id=game_id).update(
        clock=clock, clock_since=since, flag_at=since + dt.timedelta(milliseconds=left + 1000))


def one_outcome(game_id, turn_outcome):
    game = services.get_game(game_id)
    turns = Turn.objects.filter(game_id=game_id).count()
    if turn_outcome == "ok":
        assert (game.status, turns) == ("active", 3), (game.status, turns)
        assert timeouts.flag(game_id) is None  # Orange's clock runs now, with time left
    else:
        assert turn_outcome == "game_over"
        assert (game.status, game.termination, turns) == ("finished", "timed_out", 2)
        assert RatingChange.objects.filter(game_id=game_id).count() == 2


def test_one_after_the_other_either_way(users):
    for flag_first in (True, False):
        game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
        token = next(t for t in legal(game.id) if len(t) == 1)
        set_flag_in(game.id, -5 if flag_first else 5_000)
        if flag_first:
            assert timeouts.flag(game.id) == 0
        try:
            services.apply_turn(game.id, actor=member(users["alice"]), ply=2, token=token)
            outcome = "ok"
        except services.GameError as refused:
            outcome = refused.code
        assert outcome == ("game_over" if flag_first else "ok")
        one_outcome(game.id, outcome)


def race(game_id, alice, token):
    """Blue's turn and five flag checks (the watcher, the beat, pages opening) start
    together, each on its own connection: what each got."""
    barrier = threading.Barrier(6)
    outcomes, flags, errors = [], [], []

    def turn():
        try:
            barrier.wait()
            services.apply_turn(game_id, actor=member(alice), ply=2, token=token)
            outcomes.append("ok")
        except services.GameError as refused:
            outcomes.append(refused.code)
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    def check():
        try:
            barrier.wait()
            flags.append(timeouts.flag(game_id))
        except Exception as e:  # pragma: no cover - shown by the assertion
            errors.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=turn)] + [threading.Thread(target=check)
                                                 for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and len(outcomes) == 1 and len(flags) == 5
    return outcomes[0], [f for f in flags if f is not None]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
def test_threads_racing_a_turn_against_flag_checks(users):
    """Rounds with the flag due just before, at, and just after the race starts."""
    for offset in (-30, 0, 15, 30, 60):
        game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
        token = next(t for t in legal(game.id) if len(t) == 1)
        set_flag_in(game.id, offset)
        outcome, ended_on_time = race(game.id, users["alice"], token)
        if outcome == "ok":
            assert ended_on_time == []
        else:
            assert len(ended_on_time) <= 1  # or the turn itself made it fall
        one_outcome(game.id, outcome)
