"""Decisions on one game from one event loop wait for each other (games.fast.queue) instead
of falling to the locked path: Cargo Express's seats commit their plans at the same moment."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from prometheus_client import REGISTRY

from games import services
from games.actors import Actor
from games.fast import queue
from games.models import Turn
from games.turns.store import live
from tests.games.test_warm_express import PLANS, decide

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.fast_path,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the loop's connections are PostgreSQL's"),
]
NAMES = ("alice", "bob", "carol")


def applied(path):
    return REGISTRY.get_sample_value("cargo_turns_applied_total", {"path": path}) or 0.0


@pytest.fixture
def express(users):
    members = [users[name] for name in NAMES]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(u) for u in members])
    while live(services.get_game(game.id)).p.phase != "p":
        decide(game.id, members, live(services.get_game(game.id)).acting()[0])
    return game


async def own_turn_frame(comm, seat):
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == "turn" and frame["seat"] == seat:
            return frame


async def test_plans_committed_at_once_are_all_decided_on_the_loop(express, connect,
                                                                   threaded_turns):
    comms = [await connect(express.id, name) for name in NAMES]
    seqs = comms[0].first["state"]["seqs"]
    loop, locked = applied("loop"), applied("locked")
    await asyncio.gather(*(comm.send_json_to({"type": "turn", "ply": seqs[k],
                                              "token": PLANS[k]})
                           for k, comm in enumerate(comms)))
    frames = [await own_turn_frame(comm, k) for k, comm in enumerate(comms)]
    assert [f["seq"] for f in frames] == seqs
    assert threaded_turns == []  # none fell to the threads' locked path
    assert applied("loop") - loop == 3 and applied("locked") == locked

    def stored():
        return sorted(Turn.objects.filter(game_id=express.id).values_list("ply", flat=True))
    plies = await database_sync_to_async(stored)()
    assert plies == list(range(len(plies)))  # one row a ply, none twice
    assert queue.waiting(express.id) == 0  # the game's turn is dropped once nobody waits
    for comm in comms:
        await comm.disconnect()


async def test_the_game_s_turn_serves_decisions_in_order():
    order = []

    async def decision(k, hold):
        async with queue.turn_of("g"):
            order.append(("in", k))
            await asyncio.sleep(hold)
            order.append(("out", k))

    await asyncio.gather(decision(0, 0.05), decision(1, 0), decision(2, 0))
    assert order == [("in", 0), ("out", 0), ("in", 1), ("out", 1), ("in", 2), ("out", 2)]
    assert queue.waiting("g") == 0
