"""The yardstick (express.yardstick): a determinized Monte Carlo player from its seat's view
alone, for measuring the bots (issue #31)."""

import pytest

from express import yardstick
from express.errors import ExpressError
from express.game import Game
from express.moves import legal
from express.tournament import check_pairing, play_game


def test_it_plays_a_whole_game_with_legal_decisions_from_its_view():
    game = Game.new(2, 11)
    while not game.over:
        p = game.position
        seat = p.to_move()[0]
        token = yardstick.choose(game.view(seat), seat, 3, playouts=4)
        if p.phase == "p":
            game.commit(seat, token)  # refuses anything but three different own cards
        else:
            assert p.phase != "c" or token in legal(p)
            game.play(token)  # refuses an illegal decision
    assert game.position.result().winners


def test_the_same_view_and_seed_give_the_same_decision():
    game = Game.new(3, 5)
    seat = game.position.to_move()[0]
    view = game.view(seat)
    assert yardstick.choose(view, seat, 9, playouts=30) == \
        yardstick.choose(view, seat, 9, playouts=30)


def test_a_seat_without_a_decision_or_a_finished_game_is_refused():
    game = Game.new(2, 5)
    idle = 3 - game.position.to_move()[0]
    with pytest.raises(ExpressError, match="no decision"):
        yardstick.choose(game.view(idle), idle, 1, playouts=4)


def test_tournaments_take_it_as_mc(monkeypatch):
    monkeypatch.setattr(yardstick, "PLAYOUTS", 4)  # the rules, not the strength
    assert check_pairing("hard-mc") == "hard-mc"
    result = play_game(("mc", "easy"), 7)
    assert result.levels == ("mc", "easy") and result.cpu["mc"]
