"""The yardstick (express.yardstick): a determinized Monte Carlo player from its seat's view
alone, for measuring the bots (issue #31)."""

import pytest

from express import yardstick
from express.errors import ExpressError
from express.game import Game
from express.legal_decisions import legal
from express.tournament import check_pairing, play_game


def test_it_plays_a_whole_game_with_legal_decisions_from_its_view(monkeypatch):
    monkeypatch.setattr(yardstick, "MAX_CANDIDATES", 6)  # the rules, not the strength
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
    monkeypatch.setattr(yardstick, "MAX_CANDIDATES", 4)
    assert check_pairing("hard-mc") == "hard-mc"
    result = play_game(("mc", "easy"), 7)
    assert result.levels == ("mc", "easy") and result.cpu["mc"]


def _busy_positions(players: int, seed: int, rules: str):
    """Action-phase positions met in a game of busy playout turns."""
    import random

    from express.fast import random_step

    rng = random.Random(seed)
    game = Game.new(players, seed, rules=rules)
    p = game.position.copy()
    while p.phase != "o":
        if p.phase == "a":
            yield p.copy()
            yardstick.busy_turn(p, rng)
        else:
            random_step(p, rng)


@pytest.mark.parametrize("rules", ["x0.1", "x0.2"])
def test_a_busy_playout_turn_is_one_of_the_legal_turns(rules):
    """Whatever busy_turn does, some legal turn does the same (all but the deck's order,
    which a sign reads: the same, since both draw the top card)."""
    import random

    from express.moves import play

    rng = random.Random(4)
    checked = 0
    for p in _busy_positions(2, 17, rules):
        after = p.copy()
        yardstick.busy_turn(after, rng)
        matches = []
        for token in legal(p):
            q = p.copy()
            play(q, token)
            if q == after:
                matches.append(token)
        assert matches, f"busy_turn did what no legal turn does in {p}"
        checked += 1
    assert checked > 40


def test_busy_playouts_finish_games_and_score_where_random_ones_do_not():
    """Why the playouts are busy: uniformly random play reaches round 30 near 0 points."""
    import random

    from express.fast import playout

    rng = random.Random(2)
    start = Game.new(2, 8).position
    busy = [playout(start.copy(), rng, turn_policy=yardstick.busy_turn) for _ in range(20)]
    idle = [playout(start.copy(), rng) for _ in range(20)]
    assert sum(max(r.scores) for r in busy) / 20 > 40
    assert sum(max(r.scores) for r in idle) / 20 < 20


def test_halving_keeps_the_best_candidate_and_spends_about_its_budget():
    import random

    rng = random.Random(1)
    means = {f"c{j}": j / 40 for j in range(40)}
    spent = []

    def value(token: str) -> float:
        spent.append(token)
        return means[token] + rng.gauss(0, 0.05)

    assert yardstick.halving(sorted(means), 700, value) == "c39"
    assert 600 <= len(spent) <= 760
    # the better half gets the later rounds: the best was sampled far more than the worst
    assert spent.count("c39") > 5 * spent.count("c0")


def test_it_reads_only_its_view():
    """Two full positions with the same view for the seat get the same decision."""
    game = Game.new(2, 21)
    while game.position.phase != "a":
        p = game.position
        seat = p.to_move()[0]
        token = yardstick.choose(game.view(seat), seat, 3, playouts=4)
        if p.phase == "p":
            game.commit(seat, token)
        else:
            game.play(token)
    seat = game.position.turn_seat()
    other = game.position.copy()
    other.bag = other.bag[::-1]  # the bag's order is hidden from every seat
    from express.notation import format_position

    assert other != game.position and format_position(other, seat) == game.view(seat)
    assert yardstick.choose(format_position(other, seat), seat, 5, playouts=40) == \
        yardstick.choose(game.view(seat), seat, 5, playouts=40)


def test_the_novice_is_the_yardstick_on_a_newcomers_budget(monkeypatch):
    monkeypatch.setattr(yardstick, "MAX_CANDIDATES", 8)
    calls = []
    value = yardstick._playout_value
    monkeypatch.setattr(yardstick, "_playout_value",
                        lambda *args: calls.append(1) or value(*args))
    game = Game.new(2, 5)
    seat = game.position.to_move()[0]
    yardstick.choose(game.view(seat), seat, 1, playouts=yardstick.NOVICE_PLAYOUTS)
    novice, calls[:] = len(calls), []
    yardstick.choose(game.view(seat), seat, 1)
    assert novice <= yardstick.NOVICE_PLAYOUTS < len(calls) <= yardstick.PLAYOUTS
    assert check_pairing("novice-easy") == "novice-easy"
