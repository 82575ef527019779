"""The game page's state after a rated game: each player's rating change (the field
`rating_change` of `players[side]` and `seats[i]`) and which rating it is (`rating_kind`);
nothing while the game goes on, nothing for unrated games."""

import pytest

from games import services
from games.actors import Actor
from rankings.models import BotRatingChange, RatingChange
from tests.games.support import new_game

pytestmark = pytest.mark.django_db


def state(game):
    return services.state_of(services.get_game(game.id))


def test_a_rated_game_shows_both_changes(users, play):
    alice, bob = users["alice"], users["bob"]
    game = play.commit(new_game, alice, bob)
    before = state(game)["players"]
    assert before["blue"]["rating_change"] is None
    assert before["blue"]["rating_kind"] == "elo"
    game = play.game(alice, bob, seed=8)
    after = state(game)
    changes = {c.user_id: c.delta for c in RatingChange.objects.filter(game=game)}
    assert after["players"]["blue"]["rating_change"] == changes[alice.pk]
    assert after["players"]["orange"]["rating_change"] == changes[bob.pk]
    assert after["seats"][0]["rating_change"] == changes[alice.pk]
    assert after["players"]["blue"]["rating"] == RatingChange.objects.get(
        game=game, user=alice).after


def test_the_last_turns_frame_carries_them(users, play):
    alice, bob = users["alice"], users["bob"]
    game = play.commit(new_game, alice, bob)
    frame = play.commit(services.resign, game.id, actor=Actor.member(bob))
    assert frame["state"]["players"]["blue"]["rating_change"] > 0
    assert frame["state"]["players"]["orange"]["rating_change"] < 0


def test_against_cargobot_it_is_the_vs_cargobot_rating(users, play):
    game = play.bot(users["alice"], resign=True)
    players = state(game)["players"]
    change = BotRatingChange.objects.get(game=game)
    assert players["blue"]["rating_kind"] == "vs_cargobot"
    assert players["blue"]["rating_change"] == change.delta < 0
    assert players["orange"]["rating_kind"] == "bot_level"
    assert players["orange"]["rating_change"] is None


def test_an_unrated_game_shows_no_change(users, play):
    game = play.resign(users["alice"], users["bob"], rated=False)
    players = state(game)["players"]
    assert players["blue"]["rating_change"] is None is players["orange"]["rating_change"]
