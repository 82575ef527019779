"""The vs CargoBot rating: Elo against the levels' fixed ratings (easy 800, medium 1200, hard
1600; docs/bot-games.md), updated once per finished casual game against CargoBot, in the
transaction that records the result; history kept; shown on the profile. Guests have none;
the rating between people does not move."""

import pytest

from accounts.models import Player
from games import services
from games.kinds import get_kind
from games.models import Game
from rankings.models import BotRatingChange
from tests.games.bot_support import lost_tasks
from tests.games.support import Actor, bot_of, new_bot_game, new_game, rate_vs_bot
from tests.rankings.support import set_rating

BOT_RATINGS = get_kind("cargo-connect").bot_ratings  # CargoBot levels' fixed ratings

__all__ = ["lost_tasks"]

pytestmark = pytest.mark.django_db


def finished_game(user, level: str, result: str, color: str = "blue") -> Game:
    """A game against CargoBot that `user` wins, loses or draws (`result`)."""
    game = new_bot_game(user=user, guest_key=None, level=level, size=5,
                                    color=color)
    if result == "win":
        services.resign(game.id, actor=bot_of(game))
    elif result == "loss":
        services.resign(game.id, actor=Actor.of_user(user))
    else:  # a draw: no shift ends drawn quickly, so record one as the finish seam would
        from django.db import transaction

        from games.models import Seat

        with transaction.atomic():
            game = Game.objects.select_for_update().get(id=game.id)
            game.status = Game.Status.FINISHED
            game.save()
            Seat.objects.filter(game=game).update(place=1, outcome=Seat.Outcome.DRAW)
            rate_vs_bot(game)
    return Game.objects.get(id=game.id)


def test_the_levels_ratings_are_fixed():
    assert BOT_RATINGS == {"easy": 800, "medium": 1200, "hard": 1600}


def test_it_updates_with_exact_numbers_and_keeps_history(users, lost_tasks):
    alice = users["alice"]
    # Beats Easy at 1200: expected 1/(1+10^(-400/400)) = 0.9091; +40 * 0.0909 = +3.6 -> +4.
    won = finished_game(alice, "easy", "win")
    # Loses to Medium at 1204: expected 0.5058; 40 * -0.5058 = -20.2 -> -20.
    lost = finished_game(alice, "medium", "loss", color="orange")
    # Draws with Hard at 1184: expected 1/(1+10^(416/400)) = 0.0836; 40 * 0.4164 = 16.7 -> +17.
    drawn = finished_game(alice, "hard", "draw")
    history = [(c.game_id, c.level, c.bot_rating, c.score, c.before, c.after)
               for c in BotRatingChange.objects.filter(user=alice).order_by("id")]
    assert history == [
        (won.id, "easy", 800, 1.0, 1200, 1204),
        (lost.id, "medium", 1200, 0.0, 1204, 1184),
        (drawn.id, "hard", 1600, 0.5, 1184, 1201),
    ]
    player = Player.objects.get(user=alice)
    assert (player.bot_rating, player.bot_games) == (1201, 3)
    assert (player.rating, player.rated_games) == (1200, 0)  # the rating between people


def test_after_thirty_games_k_is_twenty_and_a_loss_to_easy_costs_plenty(users, lost_tasks):
    alice, bob = users["alice"], users["bob"]
    set_rating(alice, "vs_cargobot", 1500, 30)
    finished_game(alice, "hard", "win")
    # Expected against 1600 from 1500: 0.3599; 20 * 0.6401 = 12.8 -> +13.
    assert Player.objects.get(user=alice).bot_rating == 1513
    finished_game(bob, "easy", "loss")
    # Expected against 800 from 1200: 0.9091; 40 * -0.9091 = -36.4 -> -36.
    assert Player.objects.get(user=bob).bot_rating == 1164


def test_once_per_game_and_the_state_shows_the_new_rating(users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    frame = services.resign(game.id, actor=bot_of(game))
    blue = frame["state"]["players"]["blue"]
    assert (blue["rating"], blue["rating_change"]) == (1200, 4)  # before the game, and +4
    rate_vs_bot(Game.objects.get(id=game.id))  # again: nothing
    assert BotRatingChange.objects.filter(game=game).count() == 1
    assert Player.objects.get(user=alice).bot_rating == 1204


def test_guest_games_rate_nobody(lost_tasks):
    game = new_bot_game(user=None, guest_key="k" * 32, level="easy", size=5)
    services.resign(game.id, actor=bot_of(game))
    assert BotRatingChange.objects.count() == 0 and Player.objects.count() == 0


def test_the_profile_lists_bot_games_and_the_rating(users, lost_tasks, client):
    alice = users["alice"]
    won = finished_game(alice, "easy", "win")
    playing = new_bot_game(user=alice, guest_key=None, level="hard", size=6,
                                       color="orange")
    human = new_game(alice, users["bob"], size=5)

    response = client.get("/@/alice")
    ctx = response.context
    elo, bot = ctx["ratings"]
    assert (bot["label"], bot["rating"], bot["games"], elo["rating"]) == (
        "vs CargoBot rating", 1204, 1, 1200)
    rows = [(r["game"].id, [o["name"] for o in r["opponents"]], r["outcome"], r["side"])
            for r in ctx["recent"] if r["mode"] == "vs CargoBot"]
    assert rows == [(playing.id, ["CargoBot Hard"], "playing", "orange"),
                    (won.id, ["CargoBot Easy"], "win", "blue")]
    assert {r["game"].id for r in ctx["recent"]} == {won.id, playing.id, human.id}
    html = response.content.decode()
    assert "vs CargoBot rating" in html and "from 1200 to 1204" in html
    assert f'href="/g/{playing.id}"' in html and "CargoBot Hard" in html
