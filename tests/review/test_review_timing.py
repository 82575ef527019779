"""A review of a 64-turn 8×8 game finishes within a minute of CPU time on one core.

Measured with time.process_time (the machine is shared, so wall time would mislead); the
figure in docs/review.md came from `python -m engine.review_bench`."""

import time

from engine.bot import choose
from engine.notation import format_position, start_position
from engine.review import review_game


def test_a_64_turn_8x8_review_takes_under_a_minute_of_cpu():
    p = start_position(8)
    start = format_position(p)
    tokens = []
    while len(tokens) < 64 and not p.is_over():
        turn = choose(p, "hard" if len(tokens) % 2 else "medium", 3)
        tokens.append(turn.token)
        p.play(turn.action, turn.unload)
    assert len(tokens) == 64
    started = time.process_time()
    review = review_game(start, tokens)
    cpu = time.process_time() - started
    assert len(review.turns) == 64
    assert cpu < 60, f"{cpu:.1f} s of CPU"
