"""Against CargoBot only the player has a clock: CargoBot's turns cost nothing, the
player's clock runs from CargoBot's turn frame, and losing on time counts for the vs
CargoBot rating like any loss."""

import pytest

from accounts.models import Player
from games import services, tasks
from rankings.models import BotRatingChange
from tests.clocks.support import pass_time
from tests.games.bot_support import play_as_human
from tests.games.support import member

pytestmark = pytest.mark.django_db


def test_the_player_flags_against_cargobot_and_the_rating_counts_it(users):
    game = services.create_bot_game(actor=member(users["alice"]), level="easy",
                                    options={"size": 5}, seat="blue", time_control="3+2")
    play_as_human(game.id, users["alice"])
    assert services.play_bot_turn(game.id, 1) == "played"
    game = services.get_game(game.id)
    assert game.clock["left"] == [180_000, None] and game.clock["running"] == [0]
    pass_time(game.id, 120)
    play_as_human(game.id, users["alice"])  # charged 119 s, +2
    assert 180_000 - 119_000 + 2_000 - 1_500 <= services.get_game(game.id).clock["left"][0]
    pass_time(game.id, 600)  # CargoBot's turn is pending: no clock of its own runs
    assert tasks.flag_clocks() == []
    assert services.play_bot_turn(game.id, 3) == "played"
    pass_time(game.id, 200)
    assert tasks.flag_clocks() == [game.id]
    game = services.get_game(game.id)
    assert (game.termination, game.seat_list[0].outcome) == ("timed_out", "loss")
    change = BotRatingChange.objects.get(game=game)
    assert change.score == 0.0
    assert Player.objects.get(user=users["alice"]).bot_rating == change.after < change.before
