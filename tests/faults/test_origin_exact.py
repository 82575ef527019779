"""The WebSocket Origin check compares scheme, host and port (cargosite/origins.py)."""

import pytest

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("origin", [
    b"http://127.0.0.1:9999",   # an allowed host name, another port
    b"http://localhost:9999",
    b"https://localhost",       # another scheme
    b"ws://localhost",
    b"http://localhost.evil.example",
    b"null",
])
async def test_it_refuses_an_origin_that_differs_in_scheme_host_or_port(game, connect, origin):
    comm = await connect(game.id, "alice", origin=origin)
    assert not getattr(comm, "connected", False), origin


@pytest.mark.parametrize("origin", [b"http://localhost", b"http://localhost:80",
                                    b"HTTP://LOCALHOST"])
async def test_it_accepts_the_sockets_own_origin(game, connect, origin):
    comm = await connect(game.id, "alice", origin=origin)
    assert comm.connected, origin
    await comm.disconnect()


async def test_it_accepts_a_trusted_origin_exactly(game, connect, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example:8443"]
    comm = await connect(game.id, "alice", origin=b"https://play.example:8443")
    assert comm.connected
    await comm.disconnect()
    comm = await connect(game.id, "alice", origin=b"https://play.example")
    assert not getattr(comm, "connected", False)
