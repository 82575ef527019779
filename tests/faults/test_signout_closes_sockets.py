"""A socket opened before sign-out cannot act after it: signing out (and a password change
elsewhere, and deactivation) closes that member's sockets, and a turn is checked against
the session even when the closing message never arrived."""

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import Client

from games.models import Turn
from games.sockets import runtime
from tests.games.support import scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def client_of(session_cookie, name):
    client = Client()
    client.cookies["sessionid"] = session_cookie(name).decode().split("=", 1)[1]
    return client


async def closed_with(comm, timeout=5):
    while True:
        message = await comm.receive_output(timeout=timeout)
        if message["type"] == "websocket.close":
            return message.get("code")


async def turns(game):
    return await database_sync_to_async(Turn.objects.filter(game_id=game.id).count)()


async def test_signing_out_closes_the_sockets_of_that_session(game, connect, session_cookie):
    alice = await connect(game.id, "alice")
    lobby = await connect("/ws/lobby/", "alice")
    response = await database_sync_to_async(
        lambda: client_of(session_cookie, "alice").post("/accounts/logout/"))()
    assert response.status_code == 302
    assert await closed_with(alice) == runtime.CLOSE_SIGNED_OUT
    assert await closed_with(lobby) == runtime.CLOSE_SIGNED_OUT


async def test_a_turn_after_sign_out_is_refused_even_if_the_close_never_came(
        game, connect, session_cookie, monkeypatch):
    alice = await connect(game.id, "alice")
    layer = get_channel_layer()

    async def lost(*args, **kwargs):
        raise ConnectionError("redis down")

    monkeypatch.setattr(layer, "group_send", lost)
    await database_sync_to_async(
        lambda: client_of(session_cookie, "alice").post("/accounts/logout/"))()
    await alice.send_json_to({"type": "turn", "ply": 0, "token": scripted_tokens(5)[0]})
    frame = await alice.receive_json_from(timeout=5)
    assert (frame["type"], frame["code"]) == ("error", "not_a_player")
    assert await closed_with(alice) == runtime.CLOSE_SIGNED_OUT
    assert await turns(game) == 0


async def test_a_password_change_closes_the_other_sessions_sockets(game, users, connect):
    alice = await connect(game.id, "alice")

    def change():
        user = users["alice"]
        user.set_password("another-long-cargo-pass")
        user.save()

    await database_sync_to_async(change)()
    assert await closed_with(alice) == runtime.CLOSE_SIGNED_OUT


async def test_deactivation_closes_the_members_sockets(game, users, connect):
    bob = await connect(game.id, "bob")
    carol = await connect(game.id, "carol")

    def deactivate():
        user = users["bob"]
        user.is_active = False
        user.save(update_fields=["is_active"])

    await database_sync_to_async(deactivate)()
    assert await closed_with(bob) == runtime.CLOSE_SIGNED_OUT
    await carol.send_json_to({"type": "ping"})  # another member's socket stays
    assert await carol.receive_json_from(timeout=5) == {"type": "pong"}
    await carol.disconnect()


async def test_a_signed_in_member_still_plays(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": scripted_tokens(5)[0]})
    assert (await alice.receive_json_from(timeout=5))["type"] == "turn"
    await alice.disconnect()
