"""The daily seed never reaches a client: no page, frame, replay or record of a daily game
contains it."""

import pytest

from games import services
from games.actors import Actor
from puzzles.daily import clock
from puzzles.daily import services as daily
from tests.daily.conftest import pacific, play_out, play_turns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_no_frame_or_page_contains_the_seed(frozen, users, eager, client, connect):
    from channels.db import database_sync_to_async

    seed = str(clock.daily_seed(clock.today()))
    alice = Actor.member(users["alice"])

    def setup():
        game = daily.start(alice, "medium")
        play_turns(game.id, alice, 1)
        return game

    game = await database_sync_to_async(setup)()
    comm = await connect(game.id, "alice")
    await comm.send_json_to({"type": "sync", "after": 0})
    frames = [await comm.receive_output(timeout=5) for _ in range(3)]
    await comm.disconnect()
    assert all(seed not in str(f) for f in frames)

    def pages():
        client.force_login(users["alice"])
        out = [client.get(p).content.decode() for p in (
            "/puzzles/daily/", f"/g/{game.id}", f"/g/{game.id}/replay",
            f"/g/{game.id}/replay.json", f"/g/{game.id}.ccn", f"/g/{game.id}/events?after=0",
            "/puzzles/daily/2026-03-08/", "/puzzles/daily/archive/")]
        play_out(game.id, alice)
        out.append(client.get("/puzzles/daily/").content.decode())
        out.append(client.get("/rankings/?tab=daily&month=2026-03").content.decode())
        frozen.set(pacific(2026, 3, 10, 1, 0))
        out.append(client.get(f"/g/{game.id}/replay.json").content.decode())
        return out

    for text in await database_sync_to_async(pages)():
        assert seed not in text
    stored = await database_sync_to_async(lambda: services.get_game(game.id).bot_seed)()
    assert stored == int(seed)  # kept on the server only
