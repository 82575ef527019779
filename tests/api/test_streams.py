"""The live streams (api.live): a game's stream carries, line for line, the texts a socket
of the same viewer gets, after the viewer's state; it keeps alive, closes when the game
ends or its token is revoked, and follows a seat that changes hands; the event stream
opens with the member's games in progress and carries their tables' and notifications'
frames. Under WSGI a stream sends its opening lines only."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from api.models import AccessToken
from games import services
from games.actors import Actor
from games.turns.store import live
from tests.api.streams import open_stream
from tests.api.support import bearer_client, token_for
from tests.games.support import new_game

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def users(db):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in ("alice", "bob", "carol", "dave")}


@pytest.fixture
def quick_keep_alive(settings):
    settings.API_STREAM_KEEPALIVE = 0.2


def bot_token(game_id: str) -> tuple[int, int, str]:
    """(seat, ply, token): the acting seat's decision as its Easy bot makes it."""
    game = services.get_game(game_id)
    lg = live(game)
    seat = lg.acting()[0]
    return seat, lg.sequence(seat), game.kind.bot_decision(lg.redacted(seat), seat, "easy", 3)


def play_one(game_id: str, users: dict, names: tuple[str, ...]) -> None:
    seat, ply, token = bot_token(game_id)
    services.apply_turn(game_id, actor=Actor.member(users[names[seat]]), ply=ply, token=token)


async def socket_text(comm) -> str:
    """The socket's next frame other than presence, as its text (a diff's state rebuilt:
    tests/games/conftest.StateCommunicator)."""
    while True:
        text = await comm.receive_from(timeout=5)
        if json.loads(text)["type"] not in ("presence", "spectators"):
            return text


@pytest.mark.asyncio
@pytest.mark.parametrize("viewer", ["alice", "carol"])
async def test_a_game_stream_carries_the_socket_texts_of_its_viewer(users, connect,
                                                                    viewer):
    game = await database_sync_to_async(new_game)(users["alice"], users["bob"])
    token = await database_sync_to_async(token_for)(users[viewer])
    comm = await connect(game.id, viewer)
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    assert stream.status == 200
    assert stream.response["Content-Type"] == "application/x-ndjson"
    first = await stream.frame()
    assert first == {"type": "state", "state": first["state"]}
    assert first["state"]["ply"] == 0
    for _ in range(4):
        await database_sync_to_async(play_one)(game.id, users, ("alice", "bob"))
        want = await socket_text(comm)
        got = await stream.line()
        while json.loads(got)["type"] == "presence":
            got = await stream.line()
        # the socket sends a diff of the state its client holds (issue #45), which the
        # test's communicator rebuilds; the stream sends each frame whole, the same frame
        assert json.loads(got) == json.loads(want)
    await stream.close()
    await comm.disconnect()


@pytest.mark.asyncio
async def test_an_express_seat_stream_opens_with_that_seats_state_only(users, connect):
    names = ("alice", "bob", "carol")
    game = await database_sync_to_async(services.create_game)(
        game_type="cargo-express", options={}, rated=False,
        seats=[Actor.member(users[n]) for n in names])
    token = await database_sync_to_async(token_for)(users["bob"])
    comm = await connect(game.id, "bob")
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    first = await stream.frame()
    assert first["state"]["viewer"] == comm.first["state"]["viewer"] == 1
    assert first["state"]["areas"] == comm.first["state"]["areas"]
    assert first["state"]["areas"][1]["hand"] is not None
    assert first["state"]["areas"][0]["hand"] is None and first["state"]["areas"][2]["hand"] is None
    await stream.close()
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_finished_game_streams_its_whole_state_then_ends(users):
    def made():
        game = new_game(users["alice"], users["bob"])
        services.resign(game.id, actor=Actor.member(users["bob"]))
        return game, token_for(users["carol"])

    game, token = await database_sync_to_async(made)()
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    first = await stream.frame()
    assert first["state"]["status"] == "finished"
    assert await stream.ended()


@pytest.mark.asyncio
async def test_the_stream_ends_with_the_frame_that_ends_the_game(users):
    game = await database_sync_to_async(new_game)(users["alice"], users["bob"])
    token = await database_sync_to_async(token_for)(users["alice"])
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    await stream.frame()
    await database_sync_to_async(services.resign)(game.id, actor=Actor.member(users["bob"]))
    frame = await stream.frame()
    while frame["type"] == "presence":
        frame = await stream.frame()
    assert frame["type"] == "resigned" and frame["state"]["status"] == "finished"
    assert await stream.ended()


@pytest.mark.asyncio
async def test_keep_alive_lines_and_a_revoked_token_closes_the_stream(users,
                                                                     quick_keep_alive):
    game = await database_sync_to_async(new_game)(users["alice"], users["bob"])
    token = await database_sync_to_async(token_for)(users["carol"])
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    await stream.frame()
    assert await stream.line() == b""  # an empty line after a quiet spell
    await database_sync_to_async(
        AccessToken.objects.filter(user=users["carol"]).update)(revoked_at=timezone.now())
    assert await stream.ended()


@pytest.mark.asyncio
async def test_a_frame_lost_on_the_way_comes_back_as_catch_up(users, quick_keep_alive,
                                                              monkeypatch):
    game = await database_sync_to_async(new_game)(users["alice"], users["bob"])
    token = await database_sync_to_async(token_for)(users["carol"])
    stream = await open_stream(f"/api/stream/game/{game.id}", token)
    await stream.frame()
    # The layer loses the turn's frame (Redis down a moment): nothing reaches the group.
    monkeypatch.setattr("games.frames.broadcast.send_message",
                        lambda group, message, delivery=None: False)
    await database_sync_to_async(play_one)(game.id, users, ("alice", "bob"))
    monkeypatch.undo()
    frames = [await stream.frame(), await stream.frame()]
    assert [f["type"] for f in frames] == ["turn", "state"]
    assert frames[0]["ply"] == 0 and frames[1]["state"]["ply"] == 1


def test_under_wsgi_a_stream_sends_its_opening_lines_and_closes(users):
    game = new_game(users["alice"], users["bob"])
    answer = bearer_client(token_for(users["alice"])).get(f"/api/stream/game/{game.id}")
    lines = b"".join(answer.streaming_content).splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["state"]["ply"] == 0
    answer = bearer_client(token_for(users["alice"])).get("/api/stream/event")
    (line,) = b"".join(answer.streaming_content).splitlines()
    assert json.loads(line)["game"]["id"] == game.id


@pytest.mark.parametrize("game_id,status,code", [("nope", 404, "not_found"),
                                                 ("abcdefghij", 404, "not_found")])
def test_an_unknown_game_is_a_json_refusal(users, game_id, status, code):
    answer = bearer_client(token_for(users["alice"])).get(f"/api/stream/game/{game_id}")
    assert (answer.status_code, answer.json()["code"]) == (status, code)


@pytest.mark.asyncio
async def test_the_event_stream_opens_with_games_in_progress_then_tables(users,
                                                                         quick_keep_alive):
    def made():
        game = new_game(users["alice"], users["bob"])
        challenge = services.create_challenge(users["alice"], options={"size": 5},
                                              public=False, time_control="10+5")
        return game, challenge, token_for(users["alice"])

    game, challenge, token = await database_sync_to_async(made)()
    stream = await open_stream("/api/stream/event", token)
    first = await stream.frame()
    assert first["type"] == "gameStart" and first["game"]["id"] == game.id
    assert first["game"]["your_turn"] is True and first["game"]["seats"] == [0]
    assert await stream.line() == b""
    started = await database_sync_to_async(services.join_table)(
        Actor.member(users["bob"]), challenge.id)
    frame = await stream.frame()
    while frame["type"] != "notification":  # any table's news comes first
        frame = await stream.frame()
    assert frame["url"] == f"/g/{started.id}"  # the table that started, after keep-alives
    await stream.close()
