"""Two pairing passes of one arena at once (a game's end and the beat's tick, or two beat
processes) put nobody in two games: the tournament's advisory lock lets one in, and the
other, or any pass after it, reads who is busy again under the row lock. PostgreSQL only
(SQLite has one writer and one process)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game
from tests.tournaments.at_once import twice_at_once
from tests.tournaments.test_arena_site import arena, entered, in_two_games
from tests.tournaments.test_swiss_services import members
from tournaments import arenas
from tournaments.models import Pairing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL: two connections and its advisory locks"),
]


def test_two_passes_at_once_put_nobody_in_two_games():
    t = arena()
    entered(t, members(6))
    answers = twice_at_once(lambda: arenas.pair(t.id))
    assert sorted(map(str, answers)) == ["", "started, 3 game(s) started"]
    assert Pairing.objects.filter(tournament=t).count() == Game.objects.count() == 3
    assert not in_two_games(t)
    later = timezone.now() + dt.timedelta(seconds=5)
    assert twice_at_once(lambda: arenas.pair(t.id, later)) == ["", ""]  # all busy
    assert Pairing.objects.filter(tournament=t).count() == 3


def test_a_pass_waiting_behind_another_reads_who_is_busy_again(monkeypatch):
    """Without the advisory lock (a second pass blocks on the row lock instead of
    skipping), the second pass sees the first one's games and pairs nobody twice."""
    from tournaments import rounds

    def row_lock_only(tournament_id):
        from tournaments.models import Tournament
        return Tournament.objects.select_for_update().filter(pk=tournament_id).first()

    monkeypatch.setattr(arenas, "locked", row_lock_only)
    assert rounds.locked is not row_lock_only
    t = arena()
    entered(t, members(4))
    answers = twice_at_once(lambda: arenas.pair(t.id))
    assert sorted(map(str, answers)) == ["", "started, 2 game(s) started"]
    assert Pairing.objects.filter(tournament=t).count() == 2
    assert not in_two_games(t)
