"""The analysis board: trial turns from any position of a finished game, checked by the
engine and scored against CargoBot's suggestion; nothing is stored."""

import pytest
from django.test import Client

from games.models import Game, GameReview, Turn

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_trial_turn_is_scored_against_the_suggestion(finished):
    turns = Turn.objects.count()
    body = Client().get(f"/g/{finished.id}/analysis.json", {"ply": 4, "line": ""}).json()
    suggestion = body["suggestion"]
    assert body["last"] is None and body["state"]["ply"] == 0
    assert suggestion["token"] in body["state"]["legal"] or "+" in suggestion["token"]
    token = body["state"]["legal"][0]
    tried = Client().get(f"/g/{finished.id}/analysis.json", {"ply": 4, "line": token}).json()
    assert tried["last"]["token"] == token
    assert tried["last"]["loss"] >= 0 and tried["last"]["best"]
    assert tried["state"]["to_move"] != body["state"]["to_move"]
    assert Turn.objects.count() == turns and not GameReview.objects.exists()
    assert Game.objects.get(pk=finished.id).ply == finished.ply


def test_an_illegal_trial_turn_is_refused_with_its_reason(finished):
    response = Client().get(f"/g/{finished.id}/analysis.json", {"ply": 0, "line": "a zz"})
    assert response.status_code == 400
    assert response.json()["message"].startswith("trial turn 2:")


def test_bad_arguments_are_refused(finished):
    client = Client()
    assert client.get(f"/g/{finished.id}/analysis.json", {"line": "a"}).status_code == 400
    assert client.get(f"/g/{finished.id}/analysis.json",
                      {"ply": finished.ply + 1, "line": ""}).status_code == 400
