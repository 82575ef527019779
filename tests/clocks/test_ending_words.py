"""Issue #27, item 3: each ending has its own words wherever a finished game is shown (the
state's `ending`, which the status line, the turn list, the Final Audit, the replay and the
review read). A loss on time was shown as a resignation ("Orange resigned … as if the Final
Audit ran at the resignation")."""

import pytest

from games import services
from games.models import Game
from games.timing import timeouts
from tests.clocks.support import BLUE, ORANGE, pass_time, start, timed_game
from tests.games.support import member

pytestmark = pytest.mark.django_db


def final_state(game_id):
    return services.state_of(services.get_game(game_id), viewer=None)


def test_a_loss_on_time_is_not_a_resignation(users):
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    services.apply_turn(game.id, actor=member(users["alice"]), ply=game.ply,
                        token=services.state_of(game)["legal"][0])
    pass_time(game.id, 200)  # Orange's clock runs out
    assert timeouts.flag(game.id) == ORANGE
    for state in (final_state(game.id), services.replay_data(game.id)["states"][-1]):
        assert state["resigned"] is None
        ending = state["ending"]
        assert ending["termination"] == "timed_out" and ending["out"] == ["orange"]
        assert ending["reason"] == "Orange ran out of time"
        assert ending["text"] == "Orange (bob) ran out of time: Blue (alice) wins"
        assert "resign" not in ending["text"]


def test_a_resignation(users):
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    services.resign(game.id, actor=member(users["alice"]))
    state = final_state(game.id)
    assert state["resigned"] == "blue"
    assert state["ending"] == {"termination": "resigned", "out": ["blue"], "by": None,
                               "reason": "Blue resigned",
                               "text": "Blue (alice) resigned: Orange (bob) wins"}


def test_the_end_of_the_day(users):
    game = start(timed_game(users["alice"], users["bob"], ""), users)
    services.resign_seat(game.id, BLUE, Game.Termination.DAY_ENDED)
    state = final_state(game.id)
    assert state["resigned"] is None
    assert state["ending"]["termination"] == "day_ended"
    assert state["ending"]["reason"] == "the day ended before the shift was over"
    assert state["ending"]["text"] == ("The Daily Challenge's day ended before Blue (alice) "
                                       "finished: Orange (bob) wins")


def test_a_claimed_game_and_an_aborted_one(users):
    game = start(timed_game(users["alice"], users["bob"], "5+3"), users)
    fresh = services.get_game(game.id)
    services.player_arrived(fresh, BLUE)
    services.player_arrived(fresh, ORANGE)
    services.player_went_away(game.id, ORANGE)
    pass_time(game.id, 61)
    services.claim_game(game.id, actor=member(users["alice"]), result="win")
    ending = final_state(game.id)["ending"]
    assert (ending["termination"], ending["reason"], ending["by"]) == (
        "abandoned", "Orange left the game", "blue")
    assert final_state(game.id)["resigned"] is None

    other = timed_game(users["alice"], users["bob"], "5+3")
    services.abort_game(other.id, actor=member(users["bob"]))
    ending = final_state(other.id)["ending"]
    assert ending["termination"] == "aborted" and ending["reason"] == "aborted by Orange"
    assert ending["text"].startswith("Game aborted by Orange (bob) before every player")


def test_a_voided_game_and_a_game_played_out(users):
    game = start(timed_game(users["alice"], users["bob"], "5+3"), users)
    services.void_game(game.id, "a test of the words")
    ending = final_state(game.id)["ending"]
    assert ending["termination"] == "voided"
    assert ending["text"] == "Game voided (a test of the words): no result, no rating change"
    state = services.state_of(services.get_game(game.id))
    assert state["over"]


def test_a_game_played_out_leaves_its_words_to_the_view(users):
    from tests.games.support import new_game

    game = new_game(users["alice"], users["bob"], size=5)
    actors = [member(users["alice"]), member(users["bob"])]
    while not services.get_game(game.id).is_over:
        row = services.get_game(game.id)
        lg = services.live(row)
        seat = lg.acting()[0]
        token = row.kind.bot_decision(lg, seat, "easy", row.ply)
        services.apply_turn(game.id, actor=actors[seat], ply=row.ply, token=token)
    ending = final_state(game.id)["ending"]
    assert ending == {"termination": "played_out", "text": None, "reason": None, "out": [],
                      "by": None}
