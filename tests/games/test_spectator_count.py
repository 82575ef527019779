"""The spectator count: every open game socket of a viewer without a seat counts once; a
socket that asks (`{"type": "spectators"}`) gets the count and each change; the page shows
the count and, to a spectator, the "watching" label."""

import pytest
from channels.db import database_sync_to_async

from games.frames import presence
from tests.games.support import receive_type


async def counts_seen(comm, want: int) -> int:
    while True:
        frame = await receive_type(comm, "spectators")
        if frame["count"] == want:
            return frame["count"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_two_spectator_sockets_count_two_and_players_count_none(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "spectators"})
    assert await receive_type(alice, "spectators") == {
        "type": "spectators", "game": game.id, "count": 0}
    bob = await connect(game.id, "bob")  # a player: not counted
    carol = await connect(game.id, "carol")  # a member watching
    assert await counts_seen(alice, 1) == 1
    anonymous = await connect(game.id, None)
    assert await counts_seen(alice, 2) == 2
    assert await database_sync_to_async(presence.spectators)(game.id) == 2

    await carol.send_json_to({"type": "spectators"})  # spectators may ask too
    assert (await receive_type(carol, "spectators"))["count"] == 2

    await anonymous.disconnect()
    assert await counts_seen(alice, 1) == 1
    assert (await receive_type(carol, "spectators"))["count"] == 1
    await carol.disconnect()
    assert await counts_seen(alice, 0) == 0
    assert await database_sync_to_async(presence.spectators)(game.id) == 0
    await bob.disconnect()
    await alice.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_never_asks_gets_no_count_frames(game, connect):
    alice = await connect(game.id, "alice")
    carol = await connect(game.id, "carol")
    assert await alice.receive_nothing(timeout=0.3)
    await carol.disconnect()
    assert await alice.receive_nothing(timeout=0.3)
    await alice.disconnect()


@pytest.mark.django_db
def test_the_page_shows_the_count_and_the_watching_label(game, users, client):
    presence.watch(game.id, "socket-1")
    presence.watch(game.id, "socket-2")
    client.force_login(users["carol"])
    html = client.get(f"/g/{game.id}").content.decode()
    assert 'data-spectators data-count="2">2 spectators<' in html
    assert '<span class="watching-label">Watching</span>' in html
    client.force_login(users["alice"])
    html = client.get(f"/g/{game.id}").content.decode()
    assert "2 spectators" in html and "watching-label" not in html


def test_an_entry_not_refreshed_expires(monkeypatch):
    """A process that died leaves entries; they stop counting after SPECTATOR_TTL."""
    clock = [1000.0]
    monkeypatch.setattr(presence, "now", lambda: clock[0])
    presence.watch("g1", "a")
    clock[0] += presence.SPECTATOR_TTL / 2
    presence.watch("g1", "b")
    assert presence.spectators("g1") == 2
    clock[0] += presence.SPECTATOR_TTL / 2 + 1
    assert presence.spectators("g1") == 1
    presence.watch("g1", "b")  # a ping refreshes it
    clock[0] += presence.SPECTATOR_TTL - 1
    assert presence.spectators("g1") == 1
