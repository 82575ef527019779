"""Two beat processes' ticks at once start a round once: the tournament's advisory lock
(`pg_try_advisory_xact_lock`) lets one in, and the other finds the round started when it
looks again under the row lock. PostgreSQL only (SQLite has one writer and one process)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game
from tests.tournaments.at_once import twice_at_once
from tests.tournaments.test_swiss_services import members, swiss
from tournaments import rounds, services
from tournaments.models import Round, Table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="needs PostgreSQL: two connections and its advisory locks"),
]


def test_two_ticks_at_once_start_each_round_once():
    t = swiss()
    for member in members(5):
        services.join(t, member)
    answers = twice_at_once(rounds.tick)
    assert sorted(map(str, answers)) == sorted(["[]", f"['{t.id}: round 1 started']"])
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.filter(round__tournament=t).count() == 3
    assert Game.objects.count() == 2
