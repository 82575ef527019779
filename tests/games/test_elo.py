"""Elo: start 1200; K = 40 for a player's first 30 rated games, then 20; once per game,
with a RatingChange row per player."""

import pytest

from accounts.models import Player
from games import services
from rankings.elo import new_rating
from rankings.models import RatingChange
from tests.games.support import Actor, new_game
from tests.rankings.support import set_rating


def test_the_formula_with_k40_and_k20():
    assert new_rating(1200, 1200, 1.0, rated_games=0) == 1220
    assert new_rating(1200, 1200, 0.0, rated_games=29) == 1180
    assert new_rating(1200, 1200, 0.5, rated_games=0) == 1200
    # 1400 vs 1200: expected 0.7597
    assert new_rating(1400, 1200, 1.0, rated_games=30) == 1405  # +4.81
    assert new_rating(1200, 1400, 0.0, rated_games=30) == 1195  # -4.81
    assert new_rating(1200, 1400, 1.0, rated_games=30) == 1215  # +15.19
    assert new_rating(1200, 1400, 1.0, rated_games=3) == 1230  # +30.39


@pytest.mark.django_db
def test_a_first_game_moves_both_ratings_by_20(game, users):
    services.resign(game.id, actor=Actor.of_user(users["bob"]))
    alice, bob = (Player.objects.get(user=users[n]) for n in ("alice", "bob"))
    assert (alice.rating, alice.rated_games) == (1220, 1)
    assert (bob.rating, bob.rated_games) == (1180, 1)
    changes = {c.user.username: (c.before, c.after) for c in RatingChange.objects.all()}
    assert changes == {"alice": (1200, 1220), "bob": (1200, 1180)}


@pytest.mark.django_db
def test_established_players_use_k20(game, users):
    set_rating(users["alice"], "elo", 1400, 30)
    set_rating(users["bob"], "elo", 1200, 45)
    services.resign(game.id, actor=Actor.of_user(users["bob"]))
    assert Player.objects.get(user=users["alice"]).rating == 1405
    assert Player.objects.get(user=users["bob"]).rating == 1195


@pytest.mark.django_db
def test_a_provisional_player_against_an_established_one(game, users):
    set_rating(users["alice"], "elo", 1400, 30)  # K 20
    services.resign(game.id, actor=Actor.of_user(users["alice"]))  # bob (K 40, 1200) wins
    assert Player.objects.get(user=users["alice"]).rating == 1385
    assert Player.objects.get(user=users["bob"]).rating == 1230


@pytest.mark.django_db
def test_an_unrated_game_changes_nothing(users):
    game = new_game(users["alice"], users["bob"], size=5, rated=False)
    services.resign(game.id, actor=Actor.of_user(users["bob"]))
    assert not RatingChange.objects.exists()


@pytest.mark.django_db
def test_the_state_shows_the_ratings_before_the_game_and_the_change(game, users):
    """As lichess: "1200 +20", the rating the game was played at and what it did (#27)."""
    frame = services.resign(game.id, actor=Actor.of_user(users["bob"]))
    players = frame["state"]["players"]
    assert (players["blue"]["rating"], players["orange"]["rating"]) == (1200, 1200)
    assert (players["blue"]["rating_change"], players["orange"]["rating_change"]) == (20, -20)
