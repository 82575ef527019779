"""Two turns for the same ply at once: exactly one applies."""

import asyncio
import os
import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from engine import Game as EngineGame
from games import services
from games.models import Game, Turn
from tests.games.support import Actor, drain

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_two_connections_racing_for_one_ply_apply_exactly_once(game, connect):
    one, two = await connect(game.id, "alice"), await connect(game.id, "alice")
    await asyncio.gather(
        one.send_json_to({"type": "turn", "ply": 0, "token": "a"}),
        two.send_json_to({"type": "turn", "ply": 0, "token": "b"}),
    )
    frames = await drain(one) + await drain(two)
    turns = [f for f in frames if f["type"] == "turn"]
    errors = [f for f in frames if f["type"] == "error"]
    assert len(turns) == 2 and turns[0] == turns[1]  # one turn, heard on both sockets
    assert [e["code"] for e in errors] == ["stale_ply"]  # the loser is told, with the state
    assert [f["state"]["ply"] for f in frames if f["type"] == "state"] == [1]
    rows = await database_sync_to_async(lambda: list(Turn.objects.filter(game=game)))()
    assert [(t.ply, t.token) for t in rows] == [(0, turns[0]["token"])]
    for comm in (one, two):
        await comm.disconnect()


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
def test_threads_on_their_own_connections_apply_exactly_once(game, users):
    """Eight threads, each with its own PostgreSQL connection, race for ply 0."""
    barrier = threading.Barrier(8)
    outcomes = []

    def play(token):
        try:
            barrier.wait()
            result = services.apply_turn(game.id, actor=Actor.of_user(users["alice"]), ply=0,
                                         token=token)
            outcomes.append(("ok", result.frame["token"]))
        except services.GameError as refused:
            outcomes.append((refused.code, token))
        finally:
            connection.close()

    tokens = EngineGame.new(5).legal()[:8]  # eight different legal turns
    threads = [threading.Thread(target=play, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    applied = [o for o in outcomes if o[0] == "ok"]
    assert len(outcomes) == 8
    assert len(applied) == 1, outcomes
    assert sorted(code for code, _ in outcomes if code != "ok") == ["stale_ply"] * 7
    assert Turn.objects.filter(game=game).count() == 1
    assert Game.objects.get(id=game.id).ply == 1
