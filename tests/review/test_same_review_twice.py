"""The same review twice gives the same marks, values and reasons (node budgets, not time;
integer values; no seeded choice), also in a fresh process with another hash seed.

At a smaller budget than the review's (depth 4, 8,000 nodes a turn, against REVIEW_DEPTH
and REVIEW_BUDGET): what is checked is that a review depends on nothing but the game and
its budget, which holds at any budget; three reviews at the real one took a minute on a
slow machine (#43). The budget still grades turns (asserted), so there is something to
agree on."""

import json
import os
import subprocess
import sys

from engine.bot import choose
from engine.notation import format_position, start_position
from engine.review import review_game

CODE = """
import json, sys
from engine.review import review_game
start, tokens = json.loads(sys.stdin.read())
print(json.dumps(review_game(start, tokens, depth=4, budget=8000).as_dict(), sort_keys=True))
"""
DEPTH, BUDGET = 4, 8000


def a_game():
    p = start_position(5)
    start = format_position(p)
    tokens = []
    while not p.is_over():
        turn = choose(p, "easy" if len(tokens) % 2 else "medium", 7)
        tokens.append(turn.token)
        p.play(turn.action, turn.unload)
    return start, tokens


def test_the_same_review_twice():
    start, tokens = a_game()
    first = review_game(start, tokens, depth=DEPTH, budget=BUDGET).as_dict()
    assert (first["depth"], first["budget"]) == (DEPTH, BUDGET)
    assert review_game(start, tokens, depth=DEPTH, budget=BUDGET).as_dict() == first
    assert any(t["grade"] for t in first["turns"])  # there is something to agree on
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "PYTHONHASHSEED": "4242", "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", CODE], input=json.dumps([start, tokens]),
                         capture_output=True, text=True, env=env, cwd=root, timeout=120,
                         check=True)
    assert json.loads(out.stdout) == json.loads(json.dumps(first, sort_keys=True))
