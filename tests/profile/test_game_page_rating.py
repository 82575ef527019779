"""The game page's state after a rated game: each player's rating change (the field
`rating_change` of `players[side]` and `seats[i]`) and which rating it is (`rating_kind`);
nothing while the game goes on, nothing for unrated games."""

import pytest

from accounts.models import Player
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
        game=game, user=alice).before  # the rating before the game, beside its change


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


def test_a_finished_game_shows_the_ratings_before_it_not_todays(users, play):
    """Issue #27, item 2: "(Elo 1182) +22" where 1182 came from later games. The game page,
    the replay (every ply, and its last state with the changes) and so the review show the
    rating before the game and the change it made, whatever came after."""
    alice, bob = users["alice"], users["bob"]
    game = play.game(alice, bob, seed=8)  # played out to its Final Audit
    blue = RatingChange.objects.get(game=game, user=alice)
    orange = RatingChange.objects.get(game=game, user=bob)
    assert blue.before == orange.before == 1200 and blue.delta
    play.resign(alice, bob)  # later games move today's ratings
    play.resign(bob, alice, loser_seat=0)
    assert Player.objects.get(user=alice).rating != 1200 + blue.delta
    replay = services.replay_data(game.id)
    for players in (state(game)["players"], replay["states"][-1]["players"]):
        assert (players["blue"]["rating"], players["blue"]["rating_change"]) == (
            1200, blue.delta)
        assert (players["orange"]["rating"], players["orange"]["rating_change"]) == (
            1200, orange.delta)
    first = replay["states"][0]["players"]
    assert (first["blue"]["rating"], first["blue"]["rating_change"]) == (1200, None)


def test_a_finished_game_without_a_change_shows_no_rating_of_today(users, play):
    game = play.resign(users["alice"], users["bob"], rated=False)
    play.resign(users["alice"], users["bob"])
    players = state(game)["players"]
    assert players["blue"]["rating"] is None is players["orange"]["rating"]


def test_against_cargobot_the_vs_cargobot_rating_before_the_game(users, play):
    game = play.bot(users["alice"], resign=True)
    play.bot(users["alice"], resign=True)
    players = state(game)["players"]
    change = BotRatingChange.objects.get(game=game)
    assert (players["blue"]["rating"], players["blue"]["rating_change"]) == (
        change.before, change.delta)
    assert players["orange"]["rating_kind"] == "bot_level" and players["orange"]["rating"]
