"""Aborts and claims through the play doors (api.endpoints.play): the socket's `abort` and
`claim` over HTTP, down the games app's own services (games.timing.abandonment), for both
games and through both doors; every refusal a JSON error with its status that changes
nothing; the answers fit the OpenAPI description."""

from __future__ import annotations

from unittest import mock

import pytest

from api.scopes import Scope
from games import services
from games.actors import Actor
from games.models import Game, Seat
from tests.api.support import bot_account, token_for
from tests.api.test_openapi import schema_checker
from tests.api.test_play import post, seat_decision, unchanged
from tests.clocks.support import pass_time, start, timed_game
from tests.games.support import new_game

pytestmark = pytest.mark.django_db
DOORS = [("board", Scope.BOARD_PLAY), ("bot", Scope.BOT_PLAY)]


def player_for(door: str, people: dict, name: str = "marta"):
    return people[name] if door == "board" else bot_account(f"bot-{name}")


def seats_of(game_id: str):
    return list(Seat.objects.filter(game_id=game_id).order_by("index")
                .values_list("stand_in", "resigned", "outcome"))


@pytest.mark.parametrize("door,scope", DOORS)
def test_a_seat_aborts_a_game_nobody_started_then_nothing_more(people, door, scope):
    player = player_for(door, people)
    game = new_game(player, people["kofi"])
    answer = post(token_for(player, scope), f"/api/{door}/game/{game.id}/abort", "")
    assert answer.status_code == 200, answer.content
    frame = answer.json()["frame"]
    assert (frame["type"], frame["termination"], frame["seat"]) == ("ended", "aborted", 0)
    row = Game.objects.get(pk=game.id)
    assert (row.status, row.termination) == (Game.Status.ABORTED, "aborted")
    before = unchanged(game.id)
    again = post(token_for(player, scope), f"/api/{door}/game/{game.id}/abort", "")
    assert (again.status_code, again.json()["code"]) == (409, "game_over")
    assert unchanged(game.id) == before


def test_an_express_table_is_aborted_by_any_of_its_seats(people):
    names = ("marta", "kofi", "ines")
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(people[n]) for n in names])
    answer = post(token_for(people["ines"], Scope.BOARD_PLAY),
                  f"/api/board/game/{game.id}/abort", "")
    assert answer.status_code == 200, answer.content
    assert answer.json()["frame"]["seat"] == 2
    assert Game.objects.get(pk=game.id).status == Game.Status.ABORTED


def test_an_abort_is_refused_once_every_seat_moved_and_changes_nothing(people):
    game = start(timed_game(people["marta"], people["kofi"]),
                 {"alice": people["marta"], "bob": people["kofi"]})
    marta = token_for(people["marta"], Scope.BOARD_PLAY)
    for who, where, status, code in (
            (marta, f"/api/board/game/{game.id}/abort", 400, "bad_request"),
            (token_for(people["ines"], Scope.BOARD_PLAY), f"/api/board/game/{game.id}/abort",
             403, "not_a_player"),
            (marta, "/api/board/game/NoSuchGame/abort", 404, "not_found"),
            (token_for(people["marta"], Scope.READ), f"/api/board/game/{game.id}/abort",
             403, "missing_scope"),
            (token_for(people["marta"], Scope.BOT_PLAY), f"/api/bot/game/{game.id}/abort",
             403, "not_a_bot")):
        before = unchanged(game.id)
        answer = post(who, where, "")
        assert (answer.status_code, answer.json()["code"]) == (status, code), where
        assert answer.json()["error"]
        assert unchanged(game.id) == before
    refused = post(marta, f"/api/board/game/{game.id}/abort", "").json()
    assert "resign instead" in refused["error"] and refused["state"]["ply"] == 2


def orange_left(game) -> None:
    """Both players opened the game; then Orange's page closed."""
    game = services.get_game(game.id)
    for seat in range(2):
        services.player_arrived(game, seat)
    services.player_went_away(game.id, 1)


@pytest.mark.parametrize("door,scope", DOORS)
def test_a_claim_waits_60_s_then_wins_the_game(people, door, scope):
    player = player_for(door, people)
    game = start(timed_game(player, people["kofi"]), {"alice": player, "bob": people["kofi"]})
    orange_left(game)
    pass_time(game.id, 50)
    url, token = f"/api/{door}/game/{game.id}/claim", token_for(player, scope)
    before = unchanged(game.id)
    early = post(token, url, {"result": "win"})
    assert (early.status_code, early.json()["code"]) == (400, "bad_request")
    assert "wait 10 s more" in early.json()["error"] and "state" in early.json()
    assert unchanged(game.id) == before
    pass_time(game.id, 11)
    answer = post(token, url, {"result": "win"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["frame"]["type"] == "ended"
    row = services.get_game(game.id)
    assert (row.termination, [s.outcome for s in row.seat_list]) == ("abandoned",
                                                                      ["win", "loss"])


def test_a_claim_may_call_it_a_draw_and_bad_claims_change_nothing(people):
    game = start(timed_game(people["marta"], people["kofi"]),
                 {"alice": people["marta"], "bob": people["kofi"]})
    orange_left(game)
    pass_time(game.id, 61)
    url, token = f"/api/board/game/{game.id}/claim", token_for(people["marta"],
                                                               Scope.BOARD_PLAY)
    for body, status, code in (("", 400, "bad_request"), ({}, 400, "bad_request"),
                               ({"result": "lose"}, 400, "bad_request"),
                               ({"seat": 1}, 400, "bad_request"),  # two seats: win or draw
                               ("{not json", 400, "bad_request"), ("[1]", 400, "bad_request")):
        before = unchanged(game.id)
        answer = post(token, url, body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
        assert unchanged(game.id) == before
    kofi = post(token_for(people["kofi"], Scope.BOARD_PLAY), url, {"result": "win"})
    assert (kofi.status_code, kofi.json()["code"]) == (400, "bad_request")  # marta is here
    answer = post(token, url, {"result": "draw"})
    assert answer.status_code == 200, answer.content
    assert [s.outcome for s in services.get_game(game.id).seat_list] == ["draw", "draw"]


def test_an_express_seat_whose_player_left_is_claimed_for_its_stand_in(people):
    names = ("marta", "kofi", "ines")
    game = services.create_game(game_type="cargo-express", options={}, time_control="5+0",
                                seats=[Actor.member(people[n]) for n in names])
    for _ in range(3):  # every seat plans once: the game has started for all
        seat, ply, token = seat_decision(game.id)
        services.apply_turn(game.id, actor=Actor.member(people[names[seat]]), ply=ply,
                            token=token)
    game = services.get_game(game.id)
    for seat in range(3):
        services.player_arrived(game, seat)
    services.player_went_away(game.id, 2)
    pass_time(game.id, 61)
    url, token = f"/api/board/game/{game.id}/claim", token_for(people["marta"],
                                                               Scope.BOARD_PLAY)
    before = (unchanged(game.id), seats_of(game.id))
    for body in ({"result": "win"}, {"seat": 0}, {"seat": 1}, {"seat": 5}):
        answer = post(token, url, body)
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_request"), body
        assert (unchanged(game.id), seats_of(game.id)) == before
    with mock.patch("games.botplay.bots.enqueue_bot_turn"):
        answer = post(token, url, {"seat": 2})
    assert answer.status_code == 200, answer.content
    assert seats_of(game.id)[2][0]  # the seat's stand-in plays it now
    assert services.get_game(game.id).status == Game.Status.ACTIVE


def test_the_answers_and_refusals_fit_the_description(people, client):
    described = client.get("/api/openapi.json").json()
    ops = {op["operationId"]: op for methods in described["paths"].values()
           for op in methods.values()}
    game = new_game(people["marta"], people["kofi"])
    aborted = post(token_for(people["marta"], Scope.BOARD_PLAY),
                   f"/api/board/game/{game.id}/abort", "")
    content = ops["boardAbort"]["responses"]["200"]["content"]["application/json"]
    schema_checker(described, content["schema"]).validate(aborted.json())
    refused = post(token_for(people["marta"], Scope.BOARD_PLAY),
                   f"/api/board/game/{game.id}/claim", {"result": "win"})
    assert str(refused.status_code) in ops["boardClaim"]["responses"]
    schema_checker(described, {"$ref": "#/components/schemas/ErrorOut"}).validate(
        refused.json())
