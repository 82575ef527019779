"""Reviews of Daily Challenge games are not available before the day ends (Pacific time):
not the page, not the status, not the button, not the analysis board."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games import review
from games.models import Game, GameReview

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_daily_game_is_shielded_until_its_pacific_day_ends(finished):
    Game.objects.filter(pk=finished.id).update(mode=Game.Mode.DAILY)
    game = Game.objects.get(pk=finished.id)
    assert review.spoiler_shielded(game)
    client = Client()
    page = client.get(f"/g/{game.id}/review")
    assert page.status_code == 403
    assert b"once its day has ended" in page.content
    assert client.get(f"/g/{game.id}/review.json").status_code == 403
    assert client.get(f"/g/{game.id}/analysis.json", {"ply": 0, "line": ""}).status_code == 403
    client.post(f"/g/{game.id}/review")
    assert not GameReview.objects.filter(game_id=game.id).exists()
    # the day after, Pacific time
    tomorrow = game.created_at.astimezone(review.site_day_tz()) + dt.timedelta(days=1)
    assert not review.spoiler_shielded(game, now=tomorrow.replace(hour=0, minute=1))
    assert review.spoiler_shielded(game, now=tomorrow.replace(hour=0, minute=0) -
                                   dt.timedelta(minutes=1))


def test_a_daily_game_of_an_earlier_day_can_be_reviewed(finished):
    Game.objects.filter(pk=finished.id).update(
        mode=Game.Mode.DAILY, created_at=timezone.now() - dt.timedelta(days=2))
    assert Client().get(f"/g/{finished.id}/review").status_code == 200


def test_an_unfinished_game_has_no_review(users, quick_review):
    from tests.games.support import new_game

    game = new_game(users["alice"], users["bob"], size=5)
    assert Client().get(f"/g/{game.id}/review").status_code == 400
