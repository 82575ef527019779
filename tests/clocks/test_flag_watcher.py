"""The scheduled check in the server's own process: after a turn commits, the watcher
knows when the running clock falls; when that moment comes it sends the flag's task (in the
embedded default the task runs at once, in the watcher's thread) and the game ends on time
with nobody sending anything."""

import datetime as dt
import time

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from games.timing import timeouts
from games.timing.clocks import LAG_ALLOWANCE_MS
from tests.clocks.support import play, start, timed_game
from tests.games.bot_support import eager

__all__ = ["eager"]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def own_watcher(monkeypatch):
    """A watcher of this test's alone in the module's place (`watch_on_commit` reads the
    module's `watcher` when a change commits): neither an earlier test's entries and
    thread nor a patch of the shared one reach it. Twice in loaded runs (sessions 26 and
    27) the shared watcher's heap was found empty right after a turn committed; cause
    not found (docs/testing.md, "Seen failing")."""
    watcher = timeouts.Watcher()
    monkeypatch.setattr(timeouts, "watcher", watcher)
    return watcher


def test_the_watcher_makes_the_flag_fall_on_time(users, eager, own_watcher):
    assert timeouts.watcher is own_watcher and "add" not in vars(own_watcher)
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    play(game.id, users["alice"])  # committed: Orange's clock runs
    flag_at = services.get_game(game.id).flag_at
    # Blue's clock (after Orange's first turn), then Orange's: an older entry only
    # makes a harmless second check.
    assert (flag_at + timeouts.WATCH_MARGIN, game.id) in timeouts.watcher.pending()

    # Orange's clock made to fall in half a second, and the watcher told (as after a turn).
    game = services.get_game(game.id)
    since = timezone.now() - dt.timedelta(milliseconds=LAG_ALLOWANCE_MS)
    left = [game.clock["left"][0], 500]
    soon = since + dt.timedelta(milliseconds=500 + LAG_ALLOWANCE_MS)
    Game.objects.filter(id=game.id).update(clock={**game.clock, "left": left},
                                           clock_since=since, flag_at=soon)
    timeouts.watcher.clear()
    checked = timeouts.watcher.checked
    timeouts.watcher.add(game.id, soon)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and timeouts.watcher.checked == checked:
        time.sleep(0.05)  # no query meanwhile: SQLite's shared memory database would lock
    game = services.get_game(game.id)
    assert (game.status, game.termination) == ("finished", "timed_out")
    assert [s.outcome for s in game.seat_list] == ["win", "loss"]


class Unstarted(timeouts.Watcher):
    """A watcher whose thread ends at once: the test pops what is due itself."""

    def run(self) -> None:
        pass


def test_only_a_games_latest_flag_is_checked():
    """Each turn moves the flag and tells the watcher again: the entries it superseded are
    passed over when their time comes, so a game sends one check, not one a turn."""
    watcher = Unstarted()
    now = timezone.now()
    first, second, third = (now - dt.timedelta(seconds=s) for s in (3, 2, 1))
    watcher.add("g1", first, revision=1)
    watcher.add("g1", third, revision=2)
    watcher.add("g2", second, revision=7)
    assert watcher.pending() == [(second + timeouts.WATCH_MARGIN, "g2"),
                                 (third + timeouts.WATCH_MARGIN, "g1")]
    assert watcher._pop_due(now + timeouts.WATCH_MARGIN) == ["g2", "g1"]
    assert watcher.superseded == 1 and watcher.pending() == [] and not watcher.heap


def test_a_flag_told_late_does_not_replace_a_later_revisions():
    """Two commits of one game can call back out of order: the higher revision wins."""
    watcher = Unstarted()
    now = timezone.now()
    watcher.add("g1", now + dt.timedelta(seconds=30), revision=5)
    watcher.add("g1", now + dt.timedelta(seconds=10), revision=4)  # the older change
    assert watcher.pending() == [(now + dt.timedelta(seconds=30) + timeouts.WATCH_MARGIN, "g1")]
    assert watcher._pop_due(now + dt.timedelta(seconds=20)) == []
    assert watcher._pop_due(now + dt.timedelta(seconds=31)) == ["g1"]


def test_a_game_whose_flag_is_gone_is_not_checked(users, own_watcher,
                                                  django_capture_on_commit_callbacks):
    """A change that leaves no flag (the last turn ended the game, no clock runs) makes the
    watcher forget the game when it commits."""
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    play(game.id, users["alice"])
    assert [g for _, g in own_watcher.pending()] == [game.id]
    game = services.get_game(game.id)
    game.flag_at = None
    with django_capture_on_commit_callbacks(execute=True):
        timeouts.watch_on_commit(game)
    assert own_watcher.pending() == []
    assert own_watcher._pop_due(timezone.now() + dt.timedelta(hours=1)) == []
