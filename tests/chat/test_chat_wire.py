"""The chat on the wire: two players and spectators on real game sockets. Who receives
which frame, the spectators' room kept from the players until the end, catch-up after a
reconnect, guests who read but never write, mutes, the rate limit, the admin's hiding."""

import json

import pytest
from channels.db import database_sync_to_async

from chat import services
from chat.models import Message
from games import services as games
from games.actors import Actor
from tests.games.support import drain, receive_type

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def chat_frames(comm, quiet=0.4):
    """Every chat frame until the socket is quiet (other frames skipped)."""
    return [f for f in await drain(comm, quiet) if f["type"].startswith("chat")]


async def say(comm, text):
    await comm.send_json_to({"type": "chat", "text": text})


async def sync(comm, after=None):
    await comm.send_json_to({"type": "chat_sync", "after": after or {}})
    return await receive_type(comm, "chat_state")


async def test_the_players_room_reaches_everyone_and_the_spectators_room_only_watchers(
        game, connect, users):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    carol, anonymous = await connect(game.id, "carol"), await connect(game.id, None)
    await say(alice, "good luck <b>bob</b>")
    for comm in (alice, bob, carol, anonymous):
        frame = await receive_type(comm, "chat")
        assert frame == {"type": "chat", "room": "players", "seq": 1, "author": "alice",
                         "text": "good luck <b>bob</b>", "at": frame["at"]}
    await say(carol, "Blue should drop in a1")
    for comm in (carol, anonymous):
        assert (await receive_type(comm, "chat"))["room"] == "spectators"
    for player in (alice, bob):  # on the wire: nothing of the spectators' room
        frames = await drain(player, 0.5)
        assert not any("drop in a1" in json.dumps(f) for f in frames)
        state = await sync(player)
        assert [r["room"] for r in state["rooms"]] == ["players"]
        assert "drop in a1" not in json.dumps(state)
        assert state["write"] == "players"
    watcher = await sync(carol)
    assert [r["room"] for r in watcher["rooms"]] == ["players", "spectators"]
    assert watcher["write"] == "spectators"

    await database_sync_to_async(games.resign)(game.id, actor=Actor.member(users["bob"]))
    state = await sync(alice)  # over: both rooms, for everyone
    assert [m["text"] for m in state["rooms"][1]["messages"]] == ["Blue should drop in a1"]
    await say(carol, "well played")
    for comm in (alice, bob, carol, anonymous):
        frame = await receive_type(comm, "chat")
        assert (frame["room"], frame["seq"], frame["text"]) == ("spectators", 2, "well played")
    for comm in (alice, bob, carol, anonymous):
        await comm.disconnect()


async def test_chat_and_game_frames_never_mix(game, connect, users):
    alice, carol = await connect(game.id, "alice"), await connect(game.id, "carol")
    await say(alice, "hello")
    chat = await receive_type(carol, "chat")
    assert set(chat) == {"type", "room", "seq", "author", "text", "at"}
    await alice.send_json_to({"type": "turn", "ply": 0, "token": "a"})
    turn = await receive_type(carol, "turn")
    assert "hello" not in json.dumps(turn) and "chat" not in json.dumps(turn["state"])
    for comm in (alice, carol):
        await comm.disconnect()


async def test_a_reconnected_page_catches_up_from_its_last_number(game, connect):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await say(alice, "one")
    assert (await receive_type(alice, "chat"))["seq"] == 1
    await alice.disconnect()
    await say(bob, "two")
    await say(bob, "three")
    await chat_frames(bob)
    again = await connect(game.id, "alice")
    state = await sync(again, {"players": 1})
    [players] = state["rooms"]
    assert [(m["seq"], m["text"]) for m in players["messages"]] == [(2, "two"), (3, "three")]
    assert players["seq"] == 3
    for comm in (again, bob):
        await comm.disconnect()


async def test_guests_read_but_never_write(game, connect):
    alice, anonymous = await connect(game.id, "alice"), await connect(game.id, None)
    await say(anonymous, "hi from nobody")
    error = await receive_type(anonymous, "chat_error")
    assert error["code"] == "sign_in"
    assert await alice.receive_nothing(timeout=0.3)
    state = await sync(anonymous)
    assert state["write"] is None and "Sign in" in state["reason"]
    for frame in ({"type": "chat_mute", "name": "alice"},
                  {"type": "chat_report", "room": "players", "seq": 1}):
        await anonymous.send_json_to(frame)
        assert (await receive_type(anonymous, "chat_error"))["code"] == "sign_in"
    assert not await database_sync_to_async(Message.objects.exists)()
    for comm in (alice, anonymous):
        await comm.disconnect()


async def test_a_muted_members_messages_reach_none_of_the_muters_sockets(game, connect):
    alice, other_tab = await connect(game.id, "alice"), await connect(game.id, "alice")
    bob, carol = await connect(game.id, "bob"), await connect(game.id, "carol")
    await alice.send_json_to({"type": "chat_mute", "name": "bob", "mute": True})
    assert (await receive_type(alice, "chat_muted"))["names"] == ["bob"]
    await say(bob, "you will lose")
    assert (await receive_type(carol, "chat"))["text"] == "you will lose"
    assert (await receive_type(bob, "chat"))["text"] == "you will lose"
    assert await chat_frames(alice) == [] and await chat_frames(other_tab) == []
    for comm in (alice, other_tab, bob, carol):
        await comm.disconnect()


async def test_the_rate_limit_answers_with_a_chat_error_and_keeps_the_pending_turn(
        game, connect):
    alice = await connect(game.id, "alice")
    for n in range(5):
        await say(alice, f"spam {n}")
    await say(alice, "spam 5")
    frames = await chat_frames(alice, 0.6)
    # The refusal is the socket's own answer and the messages come through the channel
    # layer's group: on Redis the refusal may overtake the last messages.
    assert sorted(f["type"] for f in frames) == ["chat"] * 5 + ["chat_error"]
    assert [f["text"] for f in frames if f["type"] == "chat"] == [f"spam {n}" for n in range(5)]
    assert next(f for f in frames if f["type"] == "chat_error")["code"] == "rate_limited"
    assert not any(f["type"] == "error" for f in frames)  # not a game error
    await alice.disconnect()


async def test_a_hidden_message_is_taken_away_live_from_its_readers_only(game, connect, users):
    alice, carol = await connect(game.id, "alice"), await connect(game.id, "carol")
    await say(carol, "spoiler for the players")
    await receive_type(carol, "chat")
    message = await database_sync_to_async(Message.objects.get)()
    await database_sync_to_async(services.hide)([message])
    assert await receive_type(carol, "chat_hidden") == {
        "type": "chat_hidden", "room": "spectators", "seq": 1, "version": 1}
    assert await chat_frames(alice) == []  # a player never heard of it
    for comm in (alice, carol):
        await comm.disconnect()


async def test_bad_chat_frames_are_refused_plainly(game, connect):
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "chat_sync", "after": {"lobby": 1}})
    assert (await receive_type(alice, "chat_error"))["code"] == "bad_frame"
    await alice.send_json_to({"type": "chat", "text": "x" * 200})
    assert (await receive_type(alice, "chat_error"))["code"] == "too_long"
    await alice.disconnect()


async def test_a_cargo_express_tables_seats_share_the_players_room(users, connect):
    from tests.games.express_support import express_game

    game = await database_sync_to_async(express_game)([users["alice"], users["bob"]])
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    carol = await connect(game.id, "carol")
    await say(bob, "shall we race for the factories?")
    for comm in (alice, bob, carol):
        assert (await receive_type(comm, "chat"))["author"] == "bob"
    await say(carol, "bob has the Engineer in mind")
    assert (await receive_type(carol, "chat"))["room"] == "spectators"
    for comm in (alice, bob):
        assert await chat_frames(comm) == []
    for comm in (alice, bob, carol):
        await comm.disconnect()


async def test_the_admins_hide_and_show_actions_reach_open_pages(
        game, connect, users):
    from django.test import Client

    alice, carol = await connect(game.id, "alice"), await connect(game.id, "carol")
    await say(alice, "<script>alert(1)</script> rude")
    await receive_type(carol, "chat")

    def moderate():
        admin = users["carol"].__class__.objects.filter(username="root").first() or \
            users["carol"].__class__.objects.create_superuser(
                "root", "root@example.com", "a-long-cargo-pass")
        client = Client()
        client.force_login(admin)
        listing = client.get("/admin/chat/message/").content.decode()
        assert "&lt;script&gt;alert(1)&lt;/script&gt; rude" in listing
        assert "<script>alert(1)</script>" not in listing
        message = Message.objects.get()
        client.post("/admin/chat/message/", {"action": action,
                                             "_selected_action": [message.pk]})
        return Message.objects.get().hidden

    action = "hide_selected"
    assert await database_sync_to_async(moderate)()
    for comm in (alice, carol):
        assert await receive_type(comm, "chat_hidden") == {
            "type": "chat_hidden", "room": "players", "seq": 1, "version": 1}
        state = await sync(comm)
        assert state["rooms"][0]["messages"] == [] and state["rooms"][0]["version"] == 1
    action = "show_selected"  # the moderator changes their mind: back on every page
    assert not await database_sync_to_async(moderate)()
    for comm in (alice, carol):
        shown = await receive_type(comm, "chat_shown")
        assert {k: shown[k] for k in ("room", "version", "seq", "author", "text")} == {
            "room": "players", "version": 2, "seq": 1, "author": "alice",
            "text": "<script>alert(1)</script> rude"}
        state = await sync(comm)
        assert [m["seq"] for m in state["rooms"][0]["messages"]] == [1]
        assert state["rooms"][0]["version"] == 2 and state["rooms"][0]["hidden"] == []
    for comm in (alice, carol):
        await comm.disconnect()


async def test_a_member_who_signed_out_elsewhere_writes_nothing(game, connect):
    from django.contrib.sessions.models import Session

    alice = await connect(game.id, "alice")
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    await say(alice, "still here?")
    assert (await receive_type(alice, "chat_error"))["code"] == "sign_in"
    assert (await alice.receive_output(timeout=2))["code"] == 4401
    assert not await database_sync_to_async(Message.objects.exists)()
