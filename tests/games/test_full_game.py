"""A whole 5×5 game between two signed-in players over WebSockets, to the Final Audit."""

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Turn
from tests.games.support import receive_type, scripted_tokens, winner_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_it_plays_a_whole_game_to_the_final_audit(game, connect):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    carol = await connect(game.id, "carol")
    assert alice.first["state"]["you"] == "blue"
    assert bob.first["state"]["you"] == "orange"
    assert carol.first["state"]["you"] is None
    assert alice.first["state"]["ply"] == 0 and alice.first["state"]["v"] == 3

    tokens = scripted_tokens(5)
    for ply, token in enumerate(tokens):
        mover = alice if ply % 2 == 0 else bob
        await mover.send_json_to({"type": "turn", "ply": ply, "token": token})
        for comm in (alice, bob, carol):
            frame = await receive_type(comm, "turn")
            assert (frame["ply"], frame["token"]) == (ply, token)
            assert frame["side"] == ("blue" if ply % 2 == 0 else "orange")
            assert all(event["ply"] == ply for event in frame["events"])
            assert frame["state"]["ply"] == ply + 1
            assert "you" not in frame["state"]

    last = frame["state"]
    assert last["over"] and last["status"] == "finished"
    assert last["audit"]["decided_by"]
    assert frame["events"][-1]["type"] == "over"
    assert last["turns"] == tokens

    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert row.status == "finished" and row.ply == len(tokens)
    assert await database_sync_to_async(winner_of)(row) == last["result"]["winner"]
    stored = await database_sync_to_async(
        lambda: list(Turn.objects.filter(game=game).values_list("token", flat=True))
    )()
    assert stored == tokens
    for comm in (alice, bob, carol):
        await comm.disconnect()
