"""Only the side to move may play; spectators and outsiders may not."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Turn
from tests.games.support import Actor

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_it_refuses_a_turn_by_the_player_not_to_move(game, connect):
    bob = await connect(game.id, "bob")
    await bob.send_json_to({"type": "turn", "ply": 0, "token": "a"})
    frame = await bob.receive_json_from(timeout=5)
    assert frame == {"type": "error", "code": "not_your_turn", "message": "it is blue's turn",
                     "ply": 0}
    assert await database_sync_to_async(Turn.objects.count)() == 0
    await bob.disconnect()


async def test_it_refuses_turns_from_spectators_and_anonymous_viewers(game, connect):
    for name in ("carol", None):
        watcher = await connect(game.id, name)
        assert watcher.first["state"]["you"] is None
        await watcher.send_json_to({"type": "turn", "ply": 0, "token": "a"})
        frame = await watcher.receive_json_from(timeout=5)
        assert frame["code"] == "not_a_player"
        await watcher.send_json_to({"type": "resign", "ply": 0})
        assert (await watcher.receive_json_from(timeout=5))["code"] == "not_a_player"
        await watcher.disconnect()
    assert await database_sync_to_async(Turn.objects.count)() == 0


async def test_the_service_refuses_an_outsider(game, users):
    with pytest.raises(services.GameError) as refused:
        await database_sync_to_async(services.apply_turn)(
            game.id, actor=Actor.of_user(users["carol"]), ply=0, token="a")
    assert refused.value.code == "not_a_player"


async def test_a_bot_actor_plays_only_for_a_bot_seat(game):
    with pytest.raises(services.GameError) as refused:
        await database_sync_to_async(services.apply_turn)(
            game.id, actor=Actor.bot("easy"), ply=0, token="a")
    assert refused.value.code == "not_a_player"
