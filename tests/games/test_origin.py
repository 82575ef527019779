"""WebSockets from a foreign Origin are refused (AllowedHostsOriginValidator)."""

import pytest

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_it_refuses_a_foreign_origin(game, connect):
    comm = await connect(game.id, "alice", origin=b"https://evil.example")
    assert not getattr(comm, "connected", False)


async def test_it_accepts_the_sites_own_origin(game, connect):
    comm = await connect(game.id, "alice")
    assert comm.connected
    await comm.disconnect()


async def test_it_closes_a_socket_for_an_unknown_game(users, connect):
    comm = await connect("ZZZZZZZZZZ", "alice")
    assert not getattr(comm, "connected", False)
