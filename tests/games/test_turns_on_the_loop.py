"""The common turn on PostgreSQL is written from the socket's event loop (games.fast.loopdb,
`games.fast.turns.apply_turn_on_loop`), without a thread; whatever that path cannot decide goes to
the threads' `apply_turn`, with nothing lost or applied twice."""

import asyncio

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.db import connection
from prometheus_client import REGISTRY

from games import services
from games.fast import loopdb, warm
from games.models import Game, Turn
from tests.games.support import receive_type, scripted_tokens

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.fast_path,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the loop's connections are PostgreSQL's"),
]

TOKENS = scripted_tokens(5)


def loop_turns():
    return REGISTRY.get_sample_value("cargo_turns_applied_total", {"path": "loop"}) or 0.0


async def play_plies(alice, bob, plies):
    for ply in plies:
        comm = (alice, bob)[ply % 2]
        await comm.send_json_to({"type": "turn", "ply": ply, "token": TOKENS[ply]})
        for each in (alice, bob):
            frame = await receive_type(each, "turn")
            assert frame["ply"] == ply


async def stored(game):
    def read():
        row = Game.objects.get(id=game.id)
        return row.ply, row.tokens, list(Turn.objects.filter(game=game).order_by("ply")
                                         .values_list("ply", "token"))
    return await database_sync_to_async(read)()


async def test_a_warm_game_s_turns_do_not_leave_the_loop(game, connect, threaded_turns):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    before = loop_turns()
    await play_plies(alice, bob, range(4))
    assert threaded_turns == []  # opening the game warmed it: every turn on the loop
    assert loop_turns() - before == 4
    assert await stored(game) == (4, TOKENS[:4], list(enumerate(TOKENS[:4])))
    for comm in (alice, bob):
        await comm.disconnect()


async def test_the_loop_s_frame_is_the_one_the_threads_send(game, connect, threaded_turns):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": TOKENS[0]})
    on_loop = await receive_type(bob, "turn")
    await receive_type(alice, "turn")
    assert threaded_turns == []
    rebuilt = (await database_sync_to_async(
        lambda: services.turn_frames(services.get_game(game.id), 0, before=1))())[0]
    assert on_loop["events"] == rebuilt["events"]
    for key in ("position", "rows", "ply", "to_move", "legal", "options", "points"):
        assert on_loop["state"][key] == rebuilt["state"][key]
    for comm in (alice, bob):
        await comm.disconnect()


async def test_a_refused_turn_is_worded_by_the_threads(game, connect, threaded_turns):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "z"})
    frame = await alice.receive_json_from(timeout=5)
    assert (frame["code"], frame["ply"]) == ("illegal", 0)
    assert threaded_turns == [0]
    assert await stored(game) == (0, [], [])
    await alice.send_json_to({"type": "turn", "ply": 0, "token": TOKENS[0]})
    assert (await receive_type(alice, "turn"))["ply"] == 0
    assert threaded_turns == [0, 0]  # the refusal dropped the copy; this commit warms it
    assert await stored(game) == (1, TOKENS[:1], [(0, TOKENS[0])])
    await alice.disconnect()


async def test_a_failing_write_goes_to_the_threads_and_applies_once(game, connect,
                                                                    threaded_turns,
                                                                    monkeypatch):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")

    async def broken(sql, params):
        raise psycopg.OperationalError("the server closed the connection")

    monkeypatch.setattr(loopdb, "execute", broken)
    await play_plies(alice, bob, [0])
    assert threaded_turns == [0]
    assert await stored(game) == (1, TOKENS[:1], [(0, TOKENS[0])])
    for comm in (alice, bob):
        await comm.disconnect()


async def test_a_copy_another_process_moved_on_writes_nothing(game, users, connect,
                                                              threaded_turns):
    """The stored game is a revision ahead of this process's copy: the loop's write
    matches no row, and the threads refuse the stale ply with the state."""
    alice = await connect(game.id, "alice")

    def elsewhere():
        services.apply_turn(game.id, actor=services.Actor.of_user(users["alice"]), ply=0,
                            token=TOKENS[0])

    copy = warm.get(game.id)
    await database_sync_to_async(elsewhere)()
    await receive_type(alice, "turn")
    warm.keep(copy.game, copy.lg)  # as if this process had not heard of it
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "b"})
    error = await alice.receive_json_from(timeout=5)
    assert (error["code"], error["ply"]) == ("stale_ply", 1)
    assert await stored(game) == (1, TOKENS[:1], [(0, TOKENS[0])])
    await alice.disconnect()


async def test_two_racing_turns_on_the_loop_apply_exactly_once(game, connect):
    """Two sockets of the same player send ply 0 at once, different decisions."""
    alice, again, bob = (await connect(game.id, "alice"), await connect(game.id, "alice"),
                         await connect(game.id, "bob"))
    await asyncio.gather(alice.send_json_to({"type": "turn", "ply": 0, "token": TOKENS[0]}),
                         again.send_json_to({"type": "turn", "ply": 0, "token": "b"}))
    assert (await receive_type(bob, "turn"))["ply"] == 0
    assert await bob.receive_nothing(timeout=0.5)  # one turn frame, not two
    ply, tokens, turns = await stored(game)
    assert ply == 1 and len(turns) == 1 and tokens == [turns[0][1]]
    for comm in (alice, again, bob):
        await comm.disconnect()
