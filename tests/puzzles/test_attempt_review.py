"""The solver's review of a finished puzzle attempt (engine.puzzle_review.review_puzzle):
golden attempts where the losing turn is known are marked with the expected reason, cells
and boards; a solved attempt marks nothing; on generated puzzles every failed attempt has
exactly the one marked turn, and the solver confirms the fact it states."""

import pytest

from engine import EngineError, Game, parse_record
from engine.puzzle_review import review_puzzle, still_needed
from engine.solver import solve

from .conftest import COLUMN, generated_records, record

# Blue holds an L (a1 a2 a3 b1) and the Purge; the goal is to unload an L in 1 turn.
HELD_L = "...../...../B..../B..../BB... b P - - - - 0 0 0 0.92"
# Two Blue cores in column a, two turns to unload an I: drop twice in a.
TWO_IN_A = "...../...../...../B..../B.... b - - - - - 0 0 0 0.92"


def review_of(text, tokens):
    r = parse_record(text)
    return review_puzzle(r.start, r.goal, r.limit, tokens)


def test_the_drop_beside_the_i_is_marked_with_its_reason():
    review = review_of(record(), ["b"])
    assert review.outcome == "out_of_turns" and review.lost_at == 0
    turn = review.turns[0]
    assert (turn.grade, turn.best, turn.fewest_before, turn.fewest_after) == (
        "blunder", "a+a1a2a3a4", 1, None)
    assert turn.reason == ("Dropping in a would have completed your I (a1 a2 a3 a4) and met "
                           "the goal (a+a1a2a3a4). It was the last turn, and it did not unload "
                           "an I. The solver's line from before the turn meets the goal in 1 "
                           "turn: a+a1a2a3a4.")
    assert turn.cells == ["a1", "a2", "a3", "a4"]
    assert turn.before == COLUMN.split()[0].split("/")
    assert turn.after_played[-1] == "BB..."
    assert [row[0] for row in turn.after_best] == [".", "x", "x", "x", "x"]  # unloaded


def test_the_purge_that_destroyed_ones_own_l_is_marked_with_its_reason():
    review = review_of(record(HELD_L, "unload:L", 1), ["P1"])
    turn = review.turns[0]
    assert turn.grade == "blunder"
    assert turn.reason == ("Corridor Purge on row 1 destroyed your own L (a1 a2 a3 b1). It was "
                           "the last turn, and it did not unload an L. The solver's line from "
                           "before the turn meets the goal in 1 turn: a+a1a2a3b1.")
    assert turn.cells == ["a1", "a2", "a3", "b1"]
    assert turn.after_played[-1] == "B...."


def test_a_turn_that_leaves_too_few_turns_is_marked_with_the_solvers_proof():
    review = review_of(record(TWO_IN_A, "unload:I", 2), ["b", "a"])
    first, second = review.turns
    assert first.grade == "blunder" and first.best == "a" and first.line == ["a", "a+a1a2a3a4"]
    assert first.reason == ("After it, no line can unload an I in the 1 turn left (the solver "
                            "searched them all: 1 position). The solver's line from before the "
                            "turn meets the goal in 2 turns: a a+a1a2a3a4.")
    # the second turn had nothing left to lose: not marked
    assert second.grade == "" and second.fewest_before is None and second.best == ""


def test_a_solved_attempt_marks_nothing():
    review = review_of(record(TWO_IN_A, "unload:I", 2), ["a", "a+a1a2a3a4"])
    assert review.outcome == "solved" and review.lost_at is None
    assert [(t.fewest_before, t.fewest_after, t.grade) for t in review.turns] == [
        (2, 1, ""), (1, 0, "")]


def test_an_attempt_in_progress_is_not_reviewed():
    with pytest.raises(EngineError, match="not over"):
        review_of(record(TWO_IN_A, "unload:I", 2), ["a"])
    with pytest.raises(EngineError) as bad:
        review_of(record(), ["z"])
    assert bad.value.at == 0


@pytest.mark.parametrize("day", range(7))
def test_a_failed_attempt_has_one_marked_turn_and_the_solver_confirms_it(day):
    text = generated_records()[day]
    r = parse_record(text)
    game = Game(r.start, r.goal, r.limit)
    while not game.over:  # the last legal drop or card each turn: never the solution here
        game.play(game.legal()[-1])
    review = review_of(text, list(game.tokens))
    if review.outcome == "solved":
        assert review.lost_at is None
        return
    marked = [t for t in review.turns if t.grade]
    assert len(marked) == 1 and marked[0].ply == review.lost_at
    lost = marked[0]
    # before it the solver's line meets the goal in time; after it nothing does
    before = Game(r.start, r.goal, r.limit)
    for token in game.tokens[:lost.ply]:
        before.play(token)
    for token in lost.line:
        before.play(token)
    assert before.solved
    after = Game(r.start, r.goal, r.limit)
    for token in game.tokens[:lost.ply + 1]:
        after.play(token)
    left = r.limit - lost.ply - 1
    if left and not after.over:
        assert not solve(Game(after.position, still_needed(after), left)).solvable
    assert lost.reason.endswith(f"meets the goal in {lost.fewest_before} turn"
                                f"{'s' if lost.fewest_before != 1 else ''}: "
                                f"{' '.join(lost.line)}.")
