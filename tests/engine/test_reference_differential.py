"""The engine against tests/engine/reference.py, a cell-by-cell rewrite of the rules.

Random games (every size, every rules version, empty and nearly full starts, locks, passes,
resigns, puzzle runs) are played through both; after every turn they must agree on the
position, the legal tokens, over and result (what `python -m engine replay` prints), and
on the unloads available. Random tokens the reference rejects must be rejected by the
engine without changing anything.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine import EngineError, Game, format_position, parse_position
from engine.notation import format_record
from tests.engine.reference import LETTERS, RefError, RefGame, State
from tests.engine.support import REPO, RULES, SIZES, choose_turn, puzzle_goal, random_start


def _candidates(rng: random.Random, st: State) -> list[str]:
    """Syntactically fine tokens, mostly illegal ones, to try against both."""
    n = st.n
    cells = [LETTERS[x] + str(y + 1) for x in range(n) for y in range(n)]
    corr = list(LETTERS[:n]) + [str(i) for i in range(1, n + 1)]
    out = list(LETTERS[:n]) + ["S<", "S>", "-"]
    out += ["L" + rng.choice(corr), "P" + rng.choice(corr)]
    if st.lock:
        out.append("P" + st.lock)
    out += ["R" + rng.choice(cells) for _ in range(3)]
    out += ["D" + rng.choice(cells) for _ in range(2)]
    out += ["D" + rng.choice(cells) + rng.choice(cells) for _ in range(4)]
    a = rng.choice(cells)
    x, y = LETTERS.index(a[0]), int(a[1]) - 1
    if x + 1 < n:
        out.append("D" + a + LETTERS[x + 1] + str(y + 1))
    if y + 1 < n:
        out.append("D" + a + a[0] + str(y + 2))
    # unloads of random four cells, and of a real shape in the wrong colour
    out.append(rng.choice(out) + "+" + "".join(rng.sample(cells, 4)))
    return out


def _check_rejects(rng: random.Random, game: Game, ref: RefGame) -> None:
    before = format_position(game.position)
    for token in _candidates(rng, ref.state):
        try:
            probe = RefGame(ref.state)
            probe.goal, probe.limit, probe.ply = ref.goal, ref.limit, ref.ply
            probe.solved = ref.solved
            probe.state.solo = ref.state.solo
            probe.play(token)
            legal_in_ref = True
        except (RefError, ValueError):
            legal_in_ref = False
        if legal_in_ref:
            continue
        with pytest.raises(EngineError):
            game.play(token)
        assert format_position(game.position) == before, token
        assert game.ply == ref.ply


def _run(rng: random.Random, game: Game, ref: RefGame, max_turns: int = 200,
         resign_p: float = 0.01, reject_every: int = 7) -> list[str]:
    tokens: list[str] = []
    assert game.summary() == ref.summary()
    for i in range(max_turns):
        if ref.over:
            break
        assert game.unloads() == ref.state.unloads()
        if i % reject_every == 0:
            _check_rejects(rng, game, ref)
        if rng.random() < resign_p:
            token = "resign"
        else:
            token = choose_turn(rng, ref, ref.legal())
        ref.play(token)
        game.play(token)
        tokens.append(token)
        assert game.summary() == ref.summary(), (tokens, game.summary(), ref.summary())
    if ref.over:
        with pytest.raises(EngineError):
            game.play("a")
    return tokens


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", SIZES)
def test_it_agrees_on_random_games_from_the_empty_bay(n: int, rules: str) -> None:
    rng = random.Random(f"empty-{n}-{rules}")
    for _ in range(4):
        game = Game.new(n, rules)
        ref = RefGame(State(n, rules))
        _run(rng, game, ref)


@pytest.mark.parametrize("seed", range(60))
def test_it_agrees_from_random_nearly_full_starts(seed: int) -> None:
    rng = random.Random(f"start-{seed}")
    text = random_start(rng)
    game = Game.from_position(text)
    ref = RefGame(State.parse(text))
    assert format_position(game.position) == text
    _run(rng, game, ref, resign_p=0.02)


@pytest.mark.parametrize("seed", range(40))
def test_it_agrees_on_random_puzzle_runs(seed: int) -> None:
    rng = random.Random(f"puzzle-{seed}")
    text = random_start(rng, fill=rng.choice((0.3, 0.5, 0.8, 0.95)), puzzle=True)
    goal_text, goal = puzzle_goal(rng)
    limit = rng.randint(1, 6)
    record = format_record({"Goal": goal_text, "Turns": str(limit), "Start": text}, [])
    game = Game.from_record(record)
    ref = RefGame(State.parse(text), goal, limit)
    tokens = _run(rng, game, ref, resign_p=0.05)
    # the whole record replays to the same summary
    replayed = Game.from_record(format_record(
        {"Goal": goal_text, "Turns": str(limit), "Start": text}, tokens))
    assert replayed.summary() == ref.summary()


def test_it_agrees_through_the_command_line() -> None:
    """A few random records replayed by `python -m engine replay`, prefix by prefix."""
    rng = random.Random("cli")
    for n, rules in ((5, "0.88"), (6, "0.89"), (7, "0.92")):
        ref = RefGame(State(n, rules))
        tokens: list[str] = []
        expected = []
        while not ref.over and len(tokens) < 60:
            token = choose_turn(rng, ref, ref.legal())
            ref.play(token)
            tokens.append(token)
            expected.append(ref.summary())
        for k in sorted({1, len(tokens) // 2, len(tokens)}):
            record = format_record({"Size": str(n), "Rules": rules}, tokens[:k])
            out = subprocess.run([sys.executable, "-m", "engine", "replay"], cwd=REPO,
                                 input=record, capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stdout + out.stderr
            assert json.loads(out.stdout) == expected[k - 1]


def test_reference_and_engine_read_the_same_positions() -> None:
    rng = random.Random("parse")
    for _ in range(200):
        text = random_start(rng)
        assert State.parse(text).format() == text
        assert format_position(parse_position(text)) == text


@pytest.mark.parametrize("seed", range(60))
def test_it_agrees_on_passes_locks_and_stuck_endings(seed: int) -> None:
    """Nearly full bays, a lock, few cards: passes and 'no legal move' endings are common."""
    rng = random.Random(f"pass-{seed}")
    st = State.parse(random_start(rng, fill=rng.choice((0.9, 1.0))))
    for side in "bo":
        st.hands[side] = rng.choice(("", "", "L", "D", "R", "LD", "P", "S"))
    corridors = list(LETTERS[: st.n]) + [str(i) for i in range(1, st.n + 1)]
    st.lock = rng.choice(corridors)
    text = st.format()
    game = Game.from_position(text)
    ref = RefGame(State.parse(text))
    _run(rng, game, ref, resign_p=0.0, reject_every=1)
