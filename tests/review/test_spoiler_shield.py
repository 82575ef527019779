"""Reviews of Daily Challenge games are not available before the day ends (Pacific time):
not the page, not the status, not the button, not the analysis board; not even for the
player. The review asks the site's access hook (`games.access`), the same check that hides
the day's games from other people, so one piece of code decides."""

import datetime as dt

import pytest
from django.test import Client

from games import access
from games.actors import Actor
from games.models import Game, GameReview
from games.records import review
from puzzles.daily import clock
from puzzles.daily import services as daily
from puzzles.daily.models import DailyGame
from tests.daily.conftest import frozen, pacific, play_out  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def refused_everywhere(client, game_id):
    page = client.get(f"/g/{game_id}/review")
    assert page.status_code == 403
    assert b"once the day ends (midnight Pacific)" in page.content
    assert client.get(f"/g/{game_id}/review.json").status_code == 403
    assert client.get(f"/g/{game_id}/analysis.json", {"ply": 0, "line": ""}).status_code == 403
    client.post(f"/g/{game_id}/review")
    assert not GameReview.objects.filter(game_id=game_id).exists()


def test_a_daily_game_is_reviewed_only_once_its_day_has_ended(frozen, users,  # noqa: F811
                                                              quick_review, eager):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_out(game.id, alice)
    game = Game.objects.get(pk=game.id)
    assert game.is_over
    assert access.hidden_reason(game, alice) is None  # she may watch her own game ...
    assert review.spoiler_shielded(game)  # ... but nobody may review it yet
    player = Client()
    player.force_login(users["alice"])
    for client in (Client(), player):
        refused_everywhere(client, game.id)
    frozen.set(pacific(2026, 3, 9, 23, 59, 59))  # the last second of the day
    refused_everywhere(player, game.id)

    frozen.set(pacific(2026, 3, 10, 0, 0, 0))  # midnight Pacific: the day has ended
    assert not review.spoiler_shielded(game)
    assert Client().post(f"/g/{game.id}/review").status_code == 302
    review.wait_for_background(game.id)  # the embedded default reviews on a thread
    assert GameReview.objects.get(game_id=game.id).status == GameReview.Status.DONE
    page = Client().get(f"/g/{game.id}/review")
    assert page.status_code == 200 and b"Accuracy" in page.content
    assert Client().get(f"/g/{game.id}/review.json").json()["status"] == "done"


def test_a_game_of_an_earlier_days_challenge_played_today_can_be_reviewed(
        finished, frozen, users):  # noqa: F811
    """The day that counts is the challenge's (the archive's practice games), not the
    day the game was played on."""
    Game.objects.filter(pk=finished.id).update(mode=Game.Mode.DAILY)
    DailyGame.objects.create(game_id=finished.id, day=clock.today() - dt.timedelta(days=2),
                             difficulty="easy", user=users["alice"])
    assert Client().get(f"/g/{finished.id}/review").status_code == 200
    DailyGame.objects.filter(game_id=finished.id).update(day=clock.today())
    assert Client().get(f"/g/{finished.id}/review").status_code == 403


def test_the_review_asks_the_access_hook_of_the_games_mode(finished):
    """Any mode's viewer check hides the review: here a test-only check on online games."""
    access.viewer_check("test.hidden", mode=Game.Mode.ONLINE)(
        lambda game, actor: "Hidden for the test.")
    try:
        page = Client().get(f"/g/{finished.id}/review")
        assert page.status_code == 403 and b"Hidden for the test." in page.content
        assert Client().get(f"/g/{finished.id}/review.json").status_code == 403
    finally:
        access.unregister("test.hidden")
    assert Client().get(f"/g/{finished.id}/review").status_code == 200


def test_an_unfinished_game_has_no_review(users, quick_review):
    from tests.games.support import new_game

    game = new_game(users["alice"], users["bob"], size=5)
    assert Client().get(f"/g/{game.id}/review").status_code == 400
