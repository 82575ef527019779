"""Open challenges (`POST /api/challenge/open`, api.endpoints.challenges): a table by link
its maker sits at, for both games (a Cargo Express table with its seat count), that anyone
with its link takes; every bad input a JSON error with nothing made; the answer fits the
OpenAPI description."""

from __future__ import annotations

import pytest

from api.scopes import Scope
from games import services
from games.models import Challenge, Game
from tests.api.support import bot_account, token_for
from tests.api.test_challenges import described_answer, post, state

pytestmark = pytest.mark.django_db
OPEN = "/api/challenge/open"


def test_a_two_seat_table_by_link_is_taken_by_whoever_has_it(people, client):
    answer = post(people["marta"], OPEN, {"options": {"size": 6}, "time_control": "5+3",
                                          "color": "blue"})
    assert answer.status_code == 200, answer.content
    table = answer.json()
    assert (table["status"], table["dest"], table["public"], table["free"]) == (
        "open", None, False, 1)
    assert table["options"] == {"size": 6} and table["time_control"] == "5+3"
    assert [s["name"] for s in table["seats"]] == ["marta", None]
    assert table["url"].startswith("http://testserver/")
    assert table["id"] not in {seek["id"] for seek in services.open_seeks()}  # not listed
    described_answer(client, "challengeOpen").validate(table)
    taken = post(bot_account(), f"/api/challenge/{table['id']}/accept")
    assert taken.status_code == 200, taken.content
    game = Game.objects.get(pk=taken.json()["game_id"])
    assert [s.user.get_username() for s in game.seat_list] == ["marta", "cargo-bot"]


def test_an_express_table_waits_for_its_seat_count(people):
    answer = post(people["marta"], OPEN, {"game": "cargo-express", "seats": 3,
                                          "rated": False})
    assert answer.status_code == 200, answer.content
    table = answer.json()
    assert (table["seat_count"], table["free"], table["rated"]) == (3, 2, False)
    first = post(people["kofi"], f"/api/table/{table['id']}/join")
    assert first.status_code == 200 and first.json()["game_id"] is None
    last = post(people["ines"], f"/api/table/{table['id']}/join", {"seat": 2}
                if table["color"] != "random" else None)
    assert last.status_code == 200, last.content
    game = Game.objects.get(pk=last.json()["game_id"])
    assert sorted(s.user.get_username() for s in game.seat_list) == ["ines", "kofi", "marta"]
    assert game.game_type == "cargo-express"


def test_a_casual_express_table_may_seat_bots(people):
    answer = post(people["marta"], OPEN, {"game": "cargo-express", "seats": 4,
                                          "rated": False, "color": "seat1",
                                          "bots": {"2": "easy", "3": "easy"}})
    assert answer.status_code == 200, answer.content
    table = answer.json()
    assert table["free"] == 1
    assert [s["holder"] for s in table["seats"]] == ["member", None, "bot", "bot"]


@pytest.mark.parametrize("body", [
    {"game": "chess"}, {"options": {"colour": "red"}}, {"options": {"size": 99}},
    {"time_control": "1+0"}, {"color": "purple"}, {"game": "cargo-express", "seats": 5},
    {"game": "cargo-express", "seats": 3, "bots": {"2": "easy"}},  # rated: no bots
    {"seats": "three"}, "{not json", "[1, 2]",
])
def test_every_bad_body_is_a_clear_error_and_makes_nothing(people, body):
    before = state()
    answer = post(people["marta"], OPEN, body)
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_request"), body
    assert answer.json()["error"]
    assert state() == before


def test_the_maker_cannot_take_their_own_table_and_may_cancel_it(people):
    table = post(people["marta"], OPEN, None).json()
    before = state()
    own = post(people["marta"], f"/api/challenge/{table['id']}/accept")
    assert (own.status_code, own.json()["code"]) == (400, "own_challenge")
    assert state() == before
    other = post(people["kofi"], f"/api/challenge/{table['id']}/cancel")
    assert (other.status_code, other.json()["code"]) == (403, "not_a_player")
    assert post(people["marta"], f"/api/challenge/{table['id']}/cancel").status_code == 200
    assert Challenge.objects.get(pk=table["id"]).status == Challenge.Status.CANCELLED
    late = post(people["kofi"], f"/api/challenge/{table['id']}/accept")
    assert (late.status_code, late.json()["code"]) == (409, "gone")


def test_it_needs_the_challenge_scope(people):
    answer = post(token_for(people["marta"], Scope.READ), OPEN, None)
    assert (answer.status_code, answer.json()["code"]) == (403, "missing_scope")
    assert not Challenge.objects.exists()
