"""The review of a 64-turn 8×8 game has 64 graded turns, in order, that add up to the
review's marks, accuracy, graph and node count.

A behaviour test at a small search budget (depth 3, 2,000 nodes a turn; a few seconds). The
time target, a 64-turn 8×8 review within a minute of CPU on one core at the review's real
budget (`REVIEW_DEPTH`, `REVIEW_BUDGET`), is the benchmark's: `python -m
engine.review_bench` (docs/review.md, "Timing"), whose figures are recorded there. A timed
test measured the machine, not the code: it failed at 80 s on a slow shared machine (#43).
"""

from engine.bot import choose
from engine.notation import format_position, start_position
from engine.review import REVIEW_VERSION, THRESHOLDS, grade, review_game, turn_accuracy

DEPTH, BUDGET = 3, 2_000


def test_a_64_turn_8x8_review_has_64_graded_turns():
    p = start_position(8)
    start = format_position(p)
    tokens = []
    while len(tokens) < 64 and not p.is_over():
        turn = choose(p, "medium" if len(tokens) % 2 else "easy", 3)
        tokens.append(turn.token)
        p.play(turn.action, turn.unload)
    assert len(tokens) == 64
    assert not p.is_over()  # a shift still running: the graph ends on a searched value

    review = review_game(start, tokens, depth=DEPTH, budget=BUDGET)

    assert (review.version, review.size, review.depth, review.budget) == (
        REVIEW_VERSION, 8, DEPTH, BUDGET)
    assert [t.ply for t in review.turns] == list(range(64))
    assert [t.token for t in review.turns] == tokens
    assert [t.side for t in review.turns] == ["blue", "orange"] * 32
    for t in review.turns:
        assert t.loss == max(0, t.best_value - t.played_value)
        assert t.grade == grade(t.loss)
        assert 1 <= t.depth <= DEPTH
        assert 0 < t.nodes
        assert t.best
        assert bool(t.reason) == bool(t.grade)  # every marked turn says why
    assert review.nodes >= sum(t.nodes for t in review.turns)
    assert len(review.graph) == 65
    for side in ("blue", "orange"):
        mine = [t for t in review.turns if t.side == side]
        assert review.marks[side] == {
            name: sum(t.grade == name for t in mine) for name, _ in THRESHOLDS}
        assert review.accuracy[side] == sum(turn_accuracy(t.loss) for t in mine) // 32
    # the easy side (blue) loses points somewhere at any depth; the review finds it
    assert sum(review.marks["blue"].values()) > 0
