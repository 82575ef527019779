"""Challenges and tables under `challenge:write` (api.endpoints.challenges over
games.tables): a challenge to a member (a person or a BOT account) made, accepted, declined,
cancelled, a seat taken at an open Cargo Express table; each answer fits the description;
each member's event stream carries `challenge`, `challengeDeclined`, `challengeCanceled` and
`gameStart` to the right account only; every bad input is a JSON error with its status and
changes nothing; the site's page of a challenge to a member, and its notification."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from api.scopes import Scope
from games import services
from games.actors import Actor
from games.models import Challenge, Game, TableSeat
from notifications.models import Kind, Notification
from tests.api.streams import open_stream
from tests.api.support import bearer_client, bot_account, member, token_for
from tests.api.test_openapi import schema_checker
from tests.games.support import new_game

WRITE = Scope.CHALLENGE_WRITE


def post(user_or_token, url: str, body=None):
    token = user_or_token if isinstance(user_or_token, str) else token_for(user_or_token, WRITE)
    data = "" if body is None else body if isinstance(body, str) else json.dumps(body)
    return bearer_client(token).post(url, data=data, content_type="application/json")


def state() -> tuple:
    """What a refusal must leave as it was."""
    return (list(Challenge.objects.order_by("id").values_list("id", "status", "game_id",
                                                              "decline_reason")),
            list(TableSeat.objects.order_by("challenge_id", "index").values_list(
                "challenge_id", "index", "user_id")),
            Game.objects.count())


def described_answer(client, operation: str) -> object:
    described = client.get("/api/openapi.json").json()
    for methods in described["paths"].values():
        for op in methods.values():
            if op["operationId"] == operation:
                schema = op["responses"]["200"]["content"]["application/json"]["schema"]
                return schema_checker(described, schema)
    raise KeyError(operation)


# --- the flows, synchronously ---------------------------------------------------------------


def test_a_challenge_to_a_bot_is_made_and_accepted_into_a_game(people, client):
    bot = bot_account()
    answer = post(people["marta"], "/api/challenge/cargo-bot",
                  {"game": "cargo-connect", "options": {"size": 6}, "time_control": "5+3",
                   "rated": True, "color": "blue"})
    assert answer.status_code == 200, answer.content
    made = answer.json()
    described_answer(client, "challengeCreate").validate(made)
    assert made["status"] == "open" and made["public"] is False and made["rated"] is True
    assert made["challenger"] == {"username": "marta", "title": None, "rating": 1200}
    assert made["dest"] == {"username": "cargo-bot", "title": "BOT"}
    assert made["options"] == {"size": 6} and made["time_control"] == "5+3"
    assert made["color"] == "blue" and made["free"] == 1
    assert made["url"].startswith("http://testserver/challenge/")
    assert made["id"] not in {s["id"] for s in services.open_seeks()}  # not in the lobby
    # only the member it is to takes it; kofi may not, marta may not accept her own
    for who, code in ((people["kofi"], "not_a_player"), (people["marta"], "own_challenge")):
        before = state()
        refused = post(who, f"/api/challenge/{made['id']}/accept")
        assert refused.json()["code"] == code
        assert state() == before
    taken = post(bot, f"/api/challenge/{made['id']}/accept")
    assert taken.status_code == 200, taken.content
    body = taken.json()
    described_answer(client, "challengeAccept").validate(body)
    game = services.get_game(body["game_id"])
    assert body["game_url"] == f"http://testserver/g/{game.id}"
    assert body["challenge"]["status"] == "accepted" and body["challenge"]["game_id"] == game.id
    assert [s.user_id for s in game.seat_list] == [people["marta"].pk, bot.pk]  # marta: blue
    assert game.rated and game.time_control == "5+3" and game.options == {"size": 6}
    # the BOT plays its seat through the bot door once it is its turn
    again = post(bot, f"/api/challenge/{made['id']}/accept")
    assert (again.status_code, again.json()["code"]) == (409, "gone")


def test_a_bot_challenges_a_person_who_declines_it(people, client):
    bot = bot_account()
    made = post(bot, "/api/challenge/marta", {}).json()
    assert made["challenger"]["title"] == "BOT" and made["dest"]["username"] == "marta"
    assert made["game"] == "cargo-connect" and made["time_control"] == "10+5"
    # the site told marta, with the challenge's page
    note = Notification.objects.get(user=people["marta"], kind=Kind.CHALLENGED)
    assert note.text.startswith("BOT cargo-bot challenges you to Cargo Connect")
    assert note.url == f"/challenge/{made['id']}"
    for who in (bot, people["kofi"]):
        before = state()
        refused = post(who, f"/api/challenge/{made['id']}/decline", {"reason": "later"})
        assert (refused.status_code, refused.json()["code"]) == (403, "not_a_player")
        assert state() == before
    before = state()
    bad = post(people["marta"], f"/api/challenge/{made['id']}/decline", {"reason": "bored"})
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_request")
    assert "tooFast" in bad.json()["error"] and state() == before
    answer = post(people["marta"], f"/api/challenge/{made['id']}/decline", {"reason": "tooFast"})
    assert answer.status_code == 200, answer.content
    described_answer(client, "challengeDecline").validate(answer.json())
    assert answer.json()["challenge"]["status"] == "declined"
    assert answer.json()["challenge"]["decline_reason"] == "tooFast"
    late = post(people["marta"], f"/api/challenge/{made['id']}/accept")
    assert (late.status_code, late.json()["code"]) == (409, "gone")
    page = Client().get(f"/challenge/{made['id']}")  # a challenge page: members only
    assert page.status_code == 302
    browser = Client()
    browser.force_login(people["kofi"])
    assert "This is not the right time" not in browser.get(
        f"/challenge/{made['id']}").content.decode()
    assert "too fast for me" in browser.get(f"/challenge/{made['id']}").content.decode()


def test_its_maker_cancels_a_challenge_and_no_one_else(people, client):
    bot = bot_account()
    made = post(people["marta"], "/api/challenge/cargo-bot", {"rated": False}).json()
    for who in (bot, people["kofi"]):
        before = state()
        refused = post(who, f"/api/challenge/{made['id']}/cancel")
        assert (refused.status_code, refused.json()["code"]) == (403, "not_a_player")
        assert state() == before
    answer = post(people["marta"], f"/api/challenge/{made['id']}/cancel")
    assert answer.status_code == 200, answer.content
    described_answer(client, "challengeCancel").validate(answer.json())
    assert answer.json()["challenge"]["status"] == "cancelled"
    again = post(people["marta"], f"/api/challenge/{made['id']}/cancel")
    assert (again.status_code, again.json()["code"]) == (409, "gone")


def test_an_express_challenge_to_a_bot_fills_the_other_seats_with_bots(people):
    bot = bot_account()
    refused = post(people["marta"], "/api/challenge/cargo-bot",
                   {"game": "cargo-express", "seats": 3, "rated": False})
    assert refused.json()["code"] == "bad_request" and "one seat" in refused.json()["error"]
    made = post(people["marta"], "/api/challenge/cargo-bot",
                {"game": "cargo-express", "seats": 3, "rated": False,
                 "time_control": "untimed", "bots": {"2": "easy"}}).json()
    assert [s["holder"] for s in made["seats"]][1:] == [None, "bot"] or \
        [s["holder"] for s in made["seats"]].count("bot") == 1
    taken = post(bot, f"/api/challenge/{made['id']}/accept").json()
    game = services.get_game(taken["game_id"])
    assert sorted(s.user_id or 0 for s in game.seat_list) == sorted(
        [people["marta"].pk, bot.pk, 0])


def test_a_bot_takes_a_seat_at_an_open_express_table(people, client):
    bot = bot_account()
    table = services.create_challenge(people["marta"], game_type="cargo-express", options={},
                                      seats=3, time_control="10+5", rated=True)
    first = post(bot, f"/api/table/{table.id}/join", {})
    assert first.status_code == 200, first.content
    described_answer(client, "tableJoin").validate(first.json())
    assert first.json()["game_id"] is None and first.json()["challenge"]["free"] == 1
    assert [s["title"] for s in first.json()["challenge"]["seats"]] == [None, "BOT", None]
    before = state()
    twice = post(bot, f"/api/table/{table.id}/join", {})
    assert (twice.status_code, twice.json()["code"]) == (400, "bad_request")
    assert state() == before
    # the last seat starts it: a rated game between people and a BOT account
    last = post(people["kofi"], f"/api/table/{table.id}/join", {"seat": None})
    game = services.get_game(last.json()["game_id"])
    assert game.rated and bot.pk in {s.user_id for s in game.seat_list}


# --- bad input: each a JSON error with its status, nothing changed --------------------------


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"game": "chess"}, "bad_request", "game"),
    ({"options": {"size": 99}}, "bad_request", ""),
    ({"options": {"colour": "red"}}, "bad_request", "options"),
    ({"time_control": "1+0"}, "bad_request", "time_control"),
    ({"time_control": 5}, "bad_request", "time_control"),
    ({"color": "green"}, "bad_request", "colour"),
    ({"seats": 3}, "bad_request", ""),
    ({"seats": 1}, "bad_request", "seats"),
    ({"bots": {"1": "easy"}}, "bad_request", "bot"),
    ({"rated": "perhaps"}, "bad_request", "rated"),
    ("{not json", "bad_request", "JSON"),
    ("[1, 2]", "bad_request", ""),
])
def test_a_bad_challenge_is_a_clear_json_error_and_makes_nothing(people, body, code, words):
    bot_account()
    before = state()
    answer = post(people["marta"], "/api/challenge/cargo-bot", body)
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["code"] == code and words in answer.json()["error"]
    assert state() == before


@pytest.mark.parametrize(("url", "status", "code"), [
    ("/api/challenge/nobody-here", 404, "not_found"),
    ("/api/challenge/marta", 400, "own_challenge"),
    ("/api/challenge/NOPE000000/accept", 404, "not_found"),
    ("/api/challenge/short/accept", 404, "not_found"),
    ("/api/challenge/NOPE000000/decline", 404, "not_found"),
    ("/api/challenge/NOPE000000/cancel", 404, "not_found"),
    ("/api/table/NOPE000000/join", 404, "not_found"),
    ("/api/table/a.b;c-d_e!/join", 404, "not_found"),
])
def test_an_unknown_member_or_challenge_and_oneself_are_refused(people, url, status, code):
    before = state()
    answer = post(people["marta"], url, {})
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert state() == before


def test_the_challenges_need_the_challenge_write_scope(people):
    bot_account()
    made = services.create_challenge(people["kofi"], options={"size": 5},
                                     invited=people["marta"])
    for scope in (Scope.READ, Scope.BOARD_PLAY, Scope.BOT_PLAY):
        token = token_for(people["marta"], scope)
        for url in ("/api/challenge/cargo-bot", f"/api/challenge/{made.id}/accept",
                    f"/api/challenge/{made.id}/decline", f"/api/challenge/{made.id}/cancel",
                    f"/api/table/{made.id}/join"):
            before = state()
            answer = post(token, url, {})
            assert (answer.status_code, answer.json()["code"]) == (403, "missing_scope")
            assert state() == before


def test_a_malformed_body_on_decline_and_join_changes_nothing(people):
    made = services.create_challenge(people["kofi"], options={"size": 5},
                                     invited=people["marta"])
    for url in (f"/api/challenge/{made.id}/decline", f"/api/table/{made.id}/join"):
        before = state()
        answer = post(people["marta"], url, "{not json")
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_request")
        assert state() == before
    seat = post(people["marta"], f"/api/table/{made.id}/join", {"seat": 9})
    assert (seat.status_code, seat.json()["code"]) == (400, "bad_request")


def test_a_table_anyone_may_take_is_not_declined(people):
    table = services.create_challenge(people["kofi"], options={"size": 5})
    before = state()
    answer = post(people["marta"], f"/api/challenge/{table.id}/decline")
    assert (answer.status_code, answer.json()["code"]) == (403, "not_a_player")
    assert "nothing to decline" in answer.json()["error"]
    assert state() == before


# --- the site's side of a challenge to a member ---------------------------------------------


def test_the_member_it_is_to_accepts_or_declines_on_the_site(people):
    made = services.create_challenge(people["kofi"], options={"size": 5},
                                     invited=people["marta"])
    marta, omar = Client(), Client()
    marta.force_login(people["marta"])
    omar.force_login(people["omar"])
    page = marta.get(f"/challenge/{made.id}").content.decode()
    assert "A challenge to you" in page and "Decline" in page and "Accept and play" in page
    other = omar.get(f"/challenge/{made.id}").content.decode()
    assert "This challenge is not to you" in other and "Accept and play" not in other
    before = state()
    assert omar.post(f"/challenge/{made.id}/accept").status_code == 302
    assert omar.post(f"/challenge/{made.id}/decline").status_code == 302
    assert state() == before
    answer = marta.post(f"/challenge/{made.id}/decline", {"reason": "casual"})
    assert answer.status_code == 302
    made.refresh_from_db()
    assert (made.status, made.decline_reason) == ("declined", "casual")


# --- the event streams: each event to the right account only --------------------------------


@pytest.fixture
def users(transactional_db):
    """For the streams and sockets (`connect` signs them in by these names)."""
    return {"marta": member("marta"), "kofi": member("kofi"), "bot": bot_account("cargo-bot")}


async def told(stream, seconds: float = 1.5) -> list[dict]:
    """Every event a stream carries until it has been quiet for `seconds` (keep-alives
    only), in order."""
    import asyncio

    frames = []
    loop = asyncio.get_running_loop()
    quiet_since = loop.time()
    while loop.time() - quiet_since < seconds:
        line = await stream.line(timeout=seconds)
        if line:
            frames.append(json.loads(line))
            quiet_since = loop.time()
    return frames


async def all_told(streams: dict, seconds: float = 1.5) -> dict[str, list[dict]]:
    """`told` of every stream, heard at once (one quiet wait, not one a stream)."""
    import asyncio

    heard = await asyncio.gather(*(told(stream, seconds) for stream in streams.values()))
    return dict(zip(streams, heard, strict=True))


def kinds(frames: list[dict]) -> list[str]:
    """The events' types, the site's notifications aside (they reach every account's
    sockets and streams alike: tests/api/test_streams.py)."""
    return [f["type"] for f in frames if f["type"] != "notification"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_events_reach_the_accounts_they_are_for_only(users, settings):
    settings.API_STREAM_KEEPALIVE = 0.3
    tokens = await database_sync_to_async(lambda: {
        name: token_for(user, Scope.READ) for name, user in users.items()})()
    streams = {name: await open_stream("/api/stream/event", token)
               for name, token in tokens.items()}
    assert await all_told(streams, 0.6) == {name: [] for name in streams}

    async def after(action) -> dict[str, list[dict]]:
        await database_sync_to_async(action)()
        return await all_told(streams)

    def challenge(body):
        return post(users["marta"], "/api/challenge/cargo-bot", body).json()

    # made: the BOT hears `challenge` (and the site's notification); no one else anything
    made = {}
    heard = await after(lambda: made.update(challenge({"rated": False})))
    assert {name: kinds(f) for name, f in heard.items()} == {
        "marta": [], "kofi": [], "bot": ["challenge"]}
    event = next(f for f in heard["bot"] if f["type"] == "challenge")
    assert event["challenge"]["id"] == made["id"]
    assert event["challenge"]["challenger"]["username"] == "marta"
    assert event["challenge"]["dest"] == {"username": "cargo-bot", "title": "BOT"}
    assert [f["kind"] for f in heard["bot"] if f["type"] == "notification"] == ["challenged"]
    assert heard["kofi"] == [] and heard["marta"] == []
    # declined: marta hears `challengeDeclined`, with the reason
    heard = await after(lambda: post(users["bot"], f"/api/challenge/{made['id']}/decline",
                                     {"reason": "casual"}))
    assert {name: kinds(f) for name, f in heard.items()} == {
        "marta": ["challengeDeclined"], "kofi": [], "bot": []}
    assert heard["marta"][0]["challenge"]["decline_reason"] == "casual"
    # cancelled: the BOT hears `challengeCanceled`
    second: dict = {}
    await after(lambda: second.update(challenge({"rated": True})))
    heard = await after(lambda: post(users["marta"], f"/api/challenge/{second['id']}/cancel"))
    assert {name: kinds(f) for name, f in heard.items()} == {
        "marta": [], "kofi": [], "bot": ["challengeCanceled"]}
    assert heard["bot"][0]["challenge"]["id"] == second["id"]
    # accepted: both players hear `gameStart` for the game (marta the table's
    # `seek_accepted` too, as the site's lobby has it); kofi nothing
    third = {}
    await after(lambda: third.update(challenge({"rated": True})))
    taken = {}
    heard = await after(lambda: taken.update(post(
        users["bot"], f"/api/challenge/{third['id']}/accept").json()))
    assert {name: sorted(kinds(f)) for name, f in heard.items()} == {
        "marta": ["gameStart", "seek_accepted"], "kofi": [], "bot": ["gameStart"]}
    for name in ("marta", "bot"):
        start = next(f for f in heard[name] if f["type"] == "gameStart")
        assert start["game"]["id"] == taken["game_id"] and len(start["game"]["seats"]) == 1
    # the game ends: each of its members hears `gameFinish` once it commits (an abort, a
    # resignation, a void), no one else
    heard = await after(lambda: post(token_for(users["bot"], Scope.BOT_PLAY),
                                     f"/api/bot/game/{taken['game_id']}/abort"))
    assert {name: kinds(f) for name, f in heard.items()} == {
        "marta": ["gameFinish"], "kofi": [], "bot": ["gameFinish"]}
    finish = heard["marta"][0]["game"]
    assert (finish["id"], finish["status"], finish["termination"], finish["outcome"]) == (
        taken["game_id"], "aborted", "aborted", "")
    played: dict = {}
    await after(lambda: played.update(game=new_game(users["marta"], users["kofi"])))
    heard = await after(lambda: services.resign(played["game"].id,
                                                actor=Actor.member(users["kofi"])))
    assert {name: kinds(f) for name, f in heard.items()} == {
        "marta": ["gameFinish"], "kofi": ["gameFinish"], "bot": []}
    assert [(heard[n][0]["game"]["outcome"], heard[n][0]["game"]["seats"])
            for n in ("marta", "kofi")] == [("win", [0]), ("loss", [1])]
    assert heard["marta"][0]["game"]["status"] == "finished"
    heard = await after(lambda: services.void_game(played["game"].id, "a test's void"))
    assert [heard[n][0]["game"]["status"] for n in ("marta", "kofi")] == ["voided"] * 2
    assert heard["bot"] == []
    for stream in streams.values():
        await stream.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_bot_accounts_game_socket_on_the_site_is_a_spectators(users, connect):
    game = await database_sync_to_async(
        lambda: services.create_game(game_type="cargo-connect", options={"size": 5},
                                     seats=[Actor.member(users["bot"]),
                                            Actor.member(users["kofi"])]))()
    sock = await connect(game.id, "bot")
    assert sock.first["state"]["viewer"] is None  # watched, not played
    await sock.send_json_to({"type": "turn", "ply": 0, "token": "a"})
    answer = await sock.receive_json_from(timeout=5)
    while answer["type"] in ("presence", "spectators"):
        answer = await sock.receive_json_from(timeout=5)
    assert answer["type"] == "error" and answer["code"] == "not_a_player"
    assert (await database_sync_to_async(services.get_game)(game.id)).ply == 0
