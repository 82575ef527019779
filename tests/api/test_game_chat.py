"""A game's chat through the play doors (api.endpoints.gamechat): posting and reading down
the chat app's own services (the page's cleaning, length limit, silences and rate limit;
its rooms' readers), through both doors and for both games; every refusal a JSON error
that stores nothing; the chat's lines in the game stream only for the viewers its rooms'
rules let read them; the answers fit the OpenAPI description."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from api.scopes import Scope
from chat import services as chat
from chat.models import MAX_LENGTH, Message, Silence
from games import services
from games.actors import Actor
from tests.api.streams import open_stream
from tests.api.support import bearer_client, bot_account, token_for
from tests.api.test_openapi import schema_checker
from tests.api.test_play import post
from tests.games.support import new_game


def say(user, game_id: str, text, door: str = "board") -> object:
    scope = Scope.BOARD_PLAY if door == "board" else Scope.BOT_PLAY
    return post(token_for(user, scope), f"/api/{door}/game/{game_id}/chat", {"text": text})


def read(user, game_id: str, door: str = "board", query: str = "") -> dict:
    scope = Scope.BOARD_PLAY if door == "board" else Scope.BOT_PLAY
    answer = bearer_client(token_for(user, scope)).get(
        f"/api/{door}/game/{game_id}/chat{query}")
    assert answer.status_code == 200, answer.content
    return answer.json()


def texts(state: dict) -> dict[str, list[str]]:
    return {room["room"]: [m["text"] for m in room["messages"]] for room in state["rooms"]}


@pytest.mark.django_db
@pytest.mark.parametrize("door", ["board", "bot"])
def test_a_player_says_something_and_the_players_read_it(people, door):
    player = people["marta"] if door == "board" else bot_account()
    game = new_game(player, people["kofi"])
    answer = say(player, game.id, "  Good\u200b   luck\n have fun ", door)
    assert answer.status_code == 200, answer.content
    frame = answer.json()["frame"]
    assert (frame["type"], frame["room"], frame["seq"], frame["text"]) == (
        "chat", "players", 1, "Good luck have fun")  # cleaned as the page's chat cleans
    assert frame["author"] == player.get_username()
    assert list(Message.objects.values_list("text", flat=True)) == ["Good luck have fun"]
    state = read(people["kofi"], game.id)
    assert texts(state) == {"players": ["Good luck have fun"]}
    assert (state["write"], state["you"], state["limit"]) == ("players", "kofi", MAX_LENGTH)


@pytest.mark.django_db
def test_an_express_seat_chats_too(people):
    names = ("marta", "kofi", "ines")
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(people[n]) for n in names])
    assert say(people["ines"], game.id, "hello table").status_code == 200
    assert texts(read(people["marta"], game.id)) == {"players": ["hello table"]}


@pytest.mark.django_db
def test_every_refusal_is_a_json_error_and_stores_nothing(people):
    game = new_game(people["marta"], people["kofi"])
    marta = token_for(people["marta"], Scope.BOARD_PLAY)
    url = f"/api/board/game/{game.id}/chat"
    Silence.objects.create(member=people["ines"], until=timezone.now() + dt.timedelta(hours=1))
    other = new_game(people["ines"], people["omar"])
    cases = [
        (marta, url, {"text": "   \u200b "}, 400, "empty"),
        (marta, url, {"text": "x" * (MAX_LENGTH + 1)}, 400, "too_long"),
        (marta, url, {"text": 5}, 400, "bad_request"),
        (marta, url, {}, 400, "bad_request"),
        (marta, url, "{not json", 400, "bad_request"),
        (marta, "/api/board/game/NoSuchGame/chat", {"text": "hi"}, 404, "not_found"),
        (token_for(people["omar"], Scope.BOARD_PLAY), url, {"text": "hi"}, 403,
         "not_a_player"),
        (token_for(people["ines"], Scope.BOARD_PLAY), f"/api/board/game/{other.id}/chat",
         {"text": "hi"}, 403, "silenced"),
        (token_for(people["marta"], Scope.READ), url, {"text": "hi"}, 403, "missing_scope"),
        (token_for(people["marta"], Scope.BOT_PLAY), f"/api/bot/game/{game.id}/chat",
         {"text": "hi"}, 403, "not_a_bot"),
    ]
    for who, where, body, status, code in cases:
        answer = post(who, where, body)
        got = answer.json()
        assert (answer.status_code, got["code"]) == (status, code), (body, got)
        assert got["error"], body
        assert not Message.objects.exists(), body


@pytest.mark.django_db
def test_the_chats_rate_limit_answers_429_with_retry_after(people):
    game = new_game(people["marta"], people["kofi"])
    for n in range(chat.RATE_COUNT):
        assert say(people["marta"], game.id, f"line {n}").status_code == 200
    answer = say(people["marta"], game.id, "one too many")
    assert (answer.status_code, answer.json()["code"]) == (429, "rate_limited")
    assert answer["Retry-After"] == str(chat.RATE_SECONDS)
    assert Message.objects.count() == chat.RATE_COUNT


@pytest.mark.django_db
def test_each_reader_reads_the_rooms_its_role_may_read(people):
    game = new_game(people["marta"], people["kofi"])
    assert say(people["marta"], game.id, "to my opponent").status_code == 200
    chat.post(game.id, chat.Reader(Actor.member(people["omar"]), False), "from the rail")
    # a player reads the players' room only while the game goes on; a spectator both
    assert texts(read(people["kofi"], game.id)) == {"players": ["to my opponent"]}
    assert texts(read(people["ines"], game.id)) == {"players": ["to my opponent"],
                                                   "spectators": ["from the rail"]}
    # numbers already held are not sent again; a muted member's lines are left out
    assert texts(read(people["ines"], game.id, query="?players_after=1")) == {
        "players": [], "spectators": ["from the rail"]}
    chat.mute(chat.Reader(Actor.member(people["ines"]), False), "omar", True)
    assert texts(read(people["ines"], game.id))["spectators"] == []
    bad = bearer_client(token_for(people["ines"], Scope.BOARD_PLAY)).get(
        f"/api/board/game/{game.id}/chat?players_after=-1")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_request")
    services.resign(game.id, actor=Actor.member(people["kofi"]))
    assert texts(read(people["kofi"], game.id)) == {"players": ["to my opponent"],
                                                    "spectators": ["from the rail"]}


@pytest.mark.django_db
def test_the_answers_fit_the_description(people, client):
    described = client.get("/api/openapi.json").json()
    ops = {op["operationId"]: op for methods in described["paths"].values()
           for op in methods.values()}
    game = new_game(people["marta"], people["kofi"])
    said = say(people["marta"], game.id, "gl")
    for key, body in (("boardChatPost", said.json()), ("boardChatRead",
                                                       read(people["kofi"], game.id))):
        content = ops[key]["responses"]["200"]["content"]["application/json"]
        schema_checker(described, content["schema"]).validate(body)
    refused = say(people["marta"], game.id, "")
    assert str(refused.status_code) in ops["boardChatPost"]["responses"]
    schema_checker(described, {"$ref": "#/components/schemas/ErrorOut"}).validate(
        refused.json())


async def next_chat(stream) -> dict:
    while True:
        frame = await stream.frame()
        if frame["type"].startswith("chat"):
            return frame


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_stream_carries_the_chat_its_viewer_may_read(people):
    """A player's stream gets the players' room; a spectator's both rooms; a line of the
    spectators' room never reaches a player's stream while the game goes on; a muted
    member's lines are dropped once the mute is made, as on the socket."""
    game = await database_sync_to_async(new_game)(people["marta"], people["kofi"])
    streams = {}
    for name in ("kofi", "ines"):
        token = await database_sync_to_async(token_for)(people[name])
        streams[name] = await open_stream(f"/api/stream/game/{game.id}", token)
        assert (await streams[name].frame())["type"] == "state"
    try:
        answer = await database_sync_to_async(say)(people["marta"], game.id, "hi kofi")
        assert answer.status_code == 200
        for name in ("kofi", "ines"):
            got = await next_chat(streams[name])
            assert (got["room"], got["text"], got["author"]) == ("players", "hi kofi",
                                                                 "marta")
        rail = chat.Reader(Actor.member(people["omar"]), False)
        await database_sync_to_async(chat.post)(game.id, rail, "from the rail")
        got = await next_chat(streams["ines"])
        assert (got["room"], got["text"]) == ("spectators", "from the rail")
        ines = chat.Reader(Actor.member(people["ines"]), False)
        await database_sync_to_async(chat.mute)(ines, "omar", True)
        await database_sync_to_async(chat.post)(game.id, rail, "muted now")
        await database_sync_to_async(say)(people["kofi"], game.id, "thanks")
        got = await next_chat(streams["ines"])
        assert got["text"] == "thanks"  # omar's line was left out
        got = await next_chat(streams["kofi"])  # the spectators' lines never came
        assert (got["room"], got["text"]) == ("players", "thanks")
    finally:
        for stream in streams.values():
            await stream.close()


@pytest.fixture
def users(db):
    from tests.api.support import member

    return {"kofi": member("kofi"), "bot": bot_account("chat-bot")}


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_bot_account_chats_through_the_bot_door_and_its_browser_reads(users,
                                                                              connect):
    """A BOT account's socket on the site watches its games (games.sockets.game), so its
    chat part reads as a spectator's and writes nothing; the bot door is where it chats."""
    game = await database_sync_to_async(new_game)(users["bot"], users["kofi"])
    sock = await connect(game.id, "bot")
    await sock.send_json_to({"type": "chat", "text": "from the browser"})
    answer = await sock.receive_json_from(timeout=5)
    while answer["type"] in ("presence", "spectators"):
        answer = await sock.receive_json_from(timeout=5)
    assert (answer["type"], answer["code"]) == ("chat_error", "sign_in")
    said = await database_sync_to_async(say)(users["bot"], game.id, "from the API", "bot")
    assert said.status_code == 200
    assert await database_sync_to_async(
        lambda: list(Message.objects.values_list("text", flat=True)))() == ["from the API"]
