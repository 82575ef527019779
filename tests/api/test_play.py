"""Board and bot play (api.endpoints.play): a token's member decides and resigns for their
own seat down the games app's apply path, under `board:play` (`/api/board/…`, a person's
account) or `bot:play` (`/api/bot/…`, a BOT account's); each door refuses the other's
accounts; every bad input is a JSON error with its status and changes nothing; the answers
fit the OpenAPI description."""

from __future__ import annotations

import json

import pytest

from api.scopes import Scope
from games import services
from games.actors import Actor
from games.models import Game, Turn
from games.turns.store import live
from tests.api.support import bearer_client, bot_account, token_for
from tests.api.test_openapi import schema_checker
from tests.games.support import new_game


def post(token: str | None, url: str, body) -> object:
    data = body if isinstance(body, str) else json.dumps(body)
    return bearer_client(token).post(url, data=data, content_type="application/json")


def seat_decision(game_id: str) -> tuple[int, int, str]:
    game = services.get_game(game_id)
    lg = live(game)
    seat = lg.acting()[0]
    return seat, lg.sequence(seat), game.kind.bot_decision(lg.redacted(seat), seat, "easy", 5)


def unchanged(game_id: str):
    row = Game.objects.get(pk=game_id)
    return row.ply, row.revision, row.status, Turn.objects.filter(game_id=game_id).count()


@pytest.fixture
def running(people):
    return new_game(people["marta"], people["kofi"])


@pytest.mark.django_db
@pytest.mark.parametrize("door,scope", [("board", Scope.BOARD_PLAY), ("bot", Scope.BOT_PLAY)])
def test_a_decision_through_either_door_is_the_sockets_turn(people, door, scope):
    player = people["marta"] if door == "board" else bot_account()
    running = new_game(player, people["kofi"])
    seat, ply, token = seat_decision(running.id)
    assert seat == 0
    answer = post(token_for(player, scope), f"/api/{door}/game/{running.id}/decision",
                  {"ply": ply, "token": token})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["ok"] is True and body["frame"]["type"] == "turn"
    assert body["frame"]["ply"] == 0 and body["frame"]["token"] == token
    assert services.get_game(running.id).ply == 1
    # The same decision again is a resend: its frame again, nothing more written.
    again = post(token_for(player, scope), f"/api/{door}/game/{running.id}/decision",
                 {"ply": ply, "token": token})
    assert again.status_code == 200 and again.json()["frame"]["ply"] == 0
    assert services.get_game(running.id).ply == 1


@pytest.mark.django_db
def test_each_door_needs_its_own_scope(people, running):
    seat, ply, token = seat_decision(running.id)
    for door, scope in (("bot", Scope.BOARD_PLAY), ("board", Scope.BOT_PLAY),
                        ("board", Scope.READ)):
        before = unchanged(running.id)
        answer = post(token_for(people["marta"], scope),
                      f"/api/{door}/game/{running.id}/decision", {"ply": ply, "token": token})
        assert (answer.status_code, answer.json()["code"]) == (403, "missing_scope")
        assert unchanged(running.id) == before


@pytest.mark.django_db
def test_each_door_refuses_the_other_doors_accounts_and_changes_nothing(people):
    """A person's `bot:play` token: `not_a_bot` on every bot endpoint; a BOT account's
    `board:play` token: `bot_account` on every board endpoint; before the body is read."""
    bot = bot_account()
    game = new_game(people["marta"], bot)
    seat, ply, token = seat_decision(game.id)
    for who, door, scope, code in ((people["marta"], "bot", Scope.BOT_PLAY, "not_a_bot"),
                                   (bot, "board", Scope.BOARD_PLAY, "bot_account")):
        for what, body in (("decision", {"ply": ply, "token": token}), ("resign", {}),
                           ("queue", "{not json")):
            before = unchanged(game.id)
            answer = post(token_for(who, scope), f"/api/{door}/game/{game.id}/{what}", body)
            assert (answer.status_code, answer.json()["code"]) == (403, code), (door, what)
            assert "/api/" in answer.json()["error"]
            assert unchanged(game.id) == before
    # each through its own door: marta's decision, then the BOT's resignation
    assert post(token_for(people["marta"], Scope.BOARD_PLAY),
                f"/api/board/game/{game.id}/decision",
                {"ply": ply, "token": token}).status_code == 200
    assert post(token_for(bot, Scope.BOT_PLAY), f"/api/bot/game/{game.id}/resign",
                {}).json()["frame"]["type"] == "resigned"


@pytest.mark.django_db
def test_bad_input_is_a_clear_json_error_and_changes_nothing(people, running):
    seat, ply, token = seat_decision(running.id)
    url = f"/api/board/game/{running.id}/decision"
    marta = token_for(people["marta"], Scope.BOARD_PLAY)
    cases = [
        (marta, "/api/board/game/NoSuchGame/decision", {"ply": 0, "token": token},
         404, "not_found"),
        (marta, "/api/board/game/nope/decision", {"ply": 0, "token": token}, 404, "not_found"),
        (token_for(people["kofi"], Scope.BOARD_PLAY), url, {"ply": ply, "token": token},
         409, "not_your_turn"),
        (token_for(people["ines"], Scope.BOARD_PLAY), url, {"ply": ply, "token": token},
         403, "not_a_player"),
        (marta, url, {"ply": ply, "token": "zz-not-a-move"}, 400, "illegal"),
        (marta, url, {"ply": ply + 3, "token": token}, 409, "stale_ply"),
        (marta, url, '{"ply": 0, "token": ', 400, "bad_request"),
        (marta, url, "[1, 2]", 400, "bad_request"),
        (marta, url, {"token": token}, 400, "bad_request"),
        (marta, url, {"ply": "zero", "token": token}, 400, "bad_request"),
        (marta, url, {"ply": -1, "token": token}, 400, "bad_request"),
        (marta, url, {"ply": ply, "token": ""}, 400, "bad_request"),
        (marta, url, {"ply": ply, "token": "a" * 200}, 400, "bad_request"),
    ]
    for who, where, body, status, code in cases:
        before = unchanged(running.id)
        answer = post(who, where, body)
        assert answer["Content-Type"].startswith("application/json"), (body, answer.content)
        got = answer.json()
        assert (answer.status_code, got["code"]) == (status, code), (body, got)
        assert got["error"], body
        assert unchanged(running.id) == before, body
    stale = post(marta, url, {"ply": ply + 3, "token": token}).json()
    assert stale["state"]["ply"] == 0  # the seat's state comes with a stale decision


@pytest.mark.django_db
def test_resigning_ends_a_two_seat_game_then_nothing_more(people, running):
    kofi = token_for(people["kofi"], Scope.BOARD_PLAY)
    answer = post(kofi, f"/api/board/game/{running.id}/resign", {})
    assert answer.status_code == 200 and answer.json()["frame"]["type"] == "resigned"
    assert services.get_game(running.id).status == Game.Status.FINISHED
    before = unchanged(running.id)
    again = post(kofi, f"/api/board/game/{running.id}/resign", "")
    assert again.status_code == 409 and again.json()["code"] == "game_over"
    late = post(token_for(people["marta"], Scope.BOARD_PLAY),
                f"/api/board/game/{running.id}/decision", {"ply": 0, "token": "a"})
    assert late.status_code == 409 and late.json()["code"] == "game_over"
    assert unchanged(running.id) == before


@pytest.mark.django_db
def test_an_express_seat_commits_its_plan_and_its_answer_is_its_own(people):
    names = ("bot-a", "bot-b", "bot-c")
    people = {name: bot_account(name) for name in names}  # the bot door: BOT accounts
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(people[n]) for n in names])
    lg = live(game)
    seat = lg.acting()[0]
    token = game.kind.bot_decision(lg.redacted(seat), seat, "easy", 5)
    answer = post(token_for(people[names[seat]], Scope.BOT_PLAY),
                  f"/api/bot/game/{game.id}/decision", {"ply": lg.sequence(seat),
                                                        "token": token})
    assert answer.status_code == 200, answer.content
    state = answer.json()["frame"]["state"]
    assert state["viewer"] == seat and state["areas"][seat]["hand"] is not None
    for other in {0, 1, 2} - {seat}:  # the others' hands and plans are not the seat's to see
        assert state["areas"][other]["plan"] is None and state["areas"][other]["hand"] is None


@pytest.mark.django_db
def test_the_answers_and_refusals_fit_the_description(people, running, client):
    described = client.get("/api/openapi.json").json()
    ops = {op["operationId"]: op for methods in described["paths"].values()
           for op in methods.values()}
    seat, ply, token = seat_decision(running.id)
    marta = token_for(people["marta"], Scope.BOARD_PLAY)
    answers = {"boardDecision": post(marta, f"/api/board/game/{running.id}/decision",
                                     {"ply": ply, "token": token}),
               "boardResign": post(token_for(people["kofi"], Scope.BOARD_PLAY),
                                   f"/api/board/game/{running.id}/resign", {})}
    for key, answer in answers.items():
        content = ops[key]["responses"]["200"]["content"]["application/json"]
        schema_checker(described, content["schema"]).validate(answer.json())
    refused = post(marta, f"/api/board/game/{running.id}/decision", {"ply": 9, "token": "a"})
    assert str(refused.status_code) in ops["boardDecision"]["responses"]
    schema_checker(described, {"$ref": "#/components/schemas/ErrorOut"}).validate(
        refused.json())


@pytest.mark.django_db(transaction=True)
def test_a_waiting_express_seat_queues_its_next_turn_for_itself_alone(people):
    from tests.platform.test_express_preturns import to_a_waiting_seat

    names = ("marta", "kofi", "ines")
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(people[n]) for n in names])
    mover, waiting, choices, steps = to_a_waiting_seat(game.id)
    url = f"/api/board/game/{game.id}/queue"
    token = token_for(people[names[waiting]], Scope.BOARD_PLAY)
    before = unchanged(game.id)
    for body, status, code in (({"key": "0.zz", "steps": steps}, 409, "stale_ply"),
                               ({"key": choices["key"], "steps": ["zz"]}, 400, "illegal"),
                               ({"key": choices["key"], "steps": ["a"] * 13}, 400,
                                "bad_request"),
                               ({"key": choices["key"]}, 400, "bad_request")):
        answer = post(token, url, body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    other = post(token_for(people["omar"], Scope.BOARD_PLAY), url,
                 {"key": choices["key"], "steps": steps})
    assert (other.status_code, other.json()["code"]) == (403, "not_a_player")
    assert unchanged(game.id) == before
    answer = post(token, url, {"key": choices["key"], "steps": steps})
    assert answer.status_code == 200, answer.content
    assert answer.json()["frame"] == {"type": "queued", "key": choices["key"], "steps": steps}
    seen = bearer_client(token_for(people[names[waiting]])).get(f"/api/game/{game.id}")
    assert seen.json()["state"]["queued"] == {"key": choices["key"], "steps": steps}
    watcher = bearer_client(token_for(people["omar"])).get(f"/api/game/{game.id}")
    assert "queued" not in watcher.json()["state"] or watcher.json()["state"]["queued"] is None
