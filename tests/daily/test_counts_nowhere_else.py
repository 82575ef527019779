"""Daily Challenge games count only on its boards: not in the Elo rating, the vs CargoBot
rating, or the profile's stats and lists."""

import pytest

from accounts.models import GameStats
from accounts.profile import profile
from games.actors import Actor
from puzzles.daily import services as daily
from rankings.models import BotRatingChange, DailyBoardEntry, RatingChange
from tests.daily.conftest import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_ranked_daily_game_changes_only_the_board(frozen, users, eager):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_out(game.id, alice)
    assert DailyBoardEntry.objects.filter(game_id=game.id).exists()
    assert not RatingChange.objects.exists() and not BotRatingChange.objects.exists()
    page = profile(users["alice"])
    assert all(mode["played"] == 0 for mode in page["modes"])
    assert page["recent"] == [] and not GameStats.objects.filter(user=users["alice"]).exists()
    assert [r["rating"] for r in page["ratings"]] == [1200, 1200]
