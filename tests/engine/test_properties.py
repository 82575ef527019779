"""Property tests over random legal play, every bay size and every rules version."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import EngineError, Game, format_position, parse_position
from engine.geometry import SHAPE_VALUE, geometry
from engine.notation import action_token, interpret_turn
from engine.position import Position
from tests.engine.support import RULES, SIZES, random_start

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True)


def modules(p: Position) -> int:
    return p.occupied.bit_count()


def assert_nothing_floats(p: Position) -> None:
    n, g = p.n, p.g
    for x in range(n):
        column = [(p.occupied >> g.cell(x, y)) & 1 for y in range(n)]
        assert column == sorted(column, reverse=True), format_position(p)
        assert p.heights[x] == sum(column)


def assert_appcon_cache(p: Position) -> None:
    for side in (0, 1):
        mine = p.cores[side]
        brute = [a for a in p.g.appcons if a.mask & mine == a.mask]
        assert p.appcons(side) == brute, format_position(p)


def expected_module_change(before: Position, token: str) -> int | None:
    phase1 = token.split("+")[0]
    if len(phase1) == 1 and phase1 != "-":
        return 1
    if phase1[0] == "P":
        g = before.g
        k = g.corridor_names.index(phase1[1:])
        return -(g.corridor_masks[k] & before.occupied).bit_count()
    if phase1[0] == "D" and before.rules != "0.88":
        return -2
    return 0


def choose(rng: random.Random, game: Game) -> str:
    """A random whole turn: mostly drops, sometimes a card, an unload when one is there."""
    legal = game.legal()
    drops = [t for t in legal if len(t) == 1 and t != "-"]
    cards = [t for t in legal if t not in drops]
    pick = rng.choice(drops) if drops and (not cards or rng.random() < 0.75) else \
        rng.choice(cards or drops)
    p = game.position
    after = p.copy()
    after.apply_action(interpret_turn(pick, p)[0])
    options = after.appcons(after.side)
    if options and rng.random() < 0.7:
        return pick + "+" + p.g.names(rng.choice(options).mask)
    return pick


def play_random(seed: int, n: int, rules: str, start: str | None = None):
    rng = random.Random(seed)
    game = Game.from_position(start) if start else Game.new(n, rules)
    while not game.over:
        before = game.position.copy()
        if rng.random() < 0.005:
            game.play("resign")
            break
        token = choose(rng, game)
        events = game.play(token)
        yield before, token, events, game


@SETTINGS
@given(st.integers(0, 10**9), st.sampled_from(SIZES), st.sampled_from(RULES))
def test_random_play_keeps_every_invariant(seed: int, n: int, rules: str) -> None:
    for before, token, events, game in play_random(seed, n, rules):
        p = game.position
        assert_nothing_floats(p)
        assert_appcon_cache(p)
        # the number of modules changes only as the rules say (an unload changes none)
        assert modules(p) - modules(before) == expected_module_change(before, token)
        # scores change only by unload values and Gold chit bonuses
        mover = before.side
        unloads = [e for e in events if e["type"] == "unload"]
        gain = sum(SHAPE_VALUE[e["shape"]] + (2 if e["chit"] == "gold" else 0)
                   for e in unloads)
        assert p.points[mover] - before.points[mover] == gain
        assert p.points[mover ^ 1] == before.points[mover ^ 1]
        # position text round-trips both ways
        text = format_position(p)
        assert format_position(parse_position(text)) == text
        assert parse_position(text) == p


@SETTINGS
@given(st.integers(0, 10**9), st.sampled_from(SIZES), st.sampled_from(RULES))
def test_every_listed_action_applies_and_unlisted_ones_are_rejected(
        seed: int, n: int, rules: str) -> None:
    rng = random.Random(seed)
    g = geometry(n)
    corridors = g.corridor_names
    cells = list(g.cell_index)
    for _before, _token, _events, game in play_random(seed, n, rules):
        p = game.position
        legal = game.legal()
        if rng.random() < 0.3:
            for token in legal:
                action, _ = interpret_turn(token, p)
                assert action_token(action, p) == token
                q = p.copy()
                q.play(action)
                assert_nothing_floats(q)
        candidates = [c for c in "abcdefgh"[:n]] + ["-", "S<", "S>"]
        candidates += ["L" + rng.choice(corridors), "P" + rng.choice(corridors)]
        candidates += ["R" + rng.choice(cells), "D" + rng.choice(cells),
                       "D" + "".join(sorted(rng.sample(cells, 2)))]
        before = format_position(p)
        for token in candidates:
            if token in legal:
                continue
            try:
                game.play(token)
            except EngineError:
                pass
            else:
                raise AssertionError(f"{token!r} is not listed but was accepted in {before}")
            assert format_position(game.position) == before


@SETTINGS
@given(st.integers(0, 10**9))
def test_replaying_a_record_reproduces_the_position(seed: int) -> None:
    rng = random.Random(seed)
    start = random_start(rng)
    last = None
    for _before, _token, _events, game in play_random(seed, 0, "", start=start):
        last = game
    if last is None:
        return
    again = Game.from_record(last.record())
    assert again.position == last.position
    assert again.summary() == last.summary()


@SETTINGS
@given(st.integers(0, 10**9))
def test_invariants_hold_from_random_starts_too(seed: int) -> None:
    rng = random.Random(seed)
    start = random_start(rng)
    assert_appcon_cache(parse_position(start))
    for before, token, _events, game in play_random(seed, 0, "", start=start):
        p = game.position
        assert_nothing_floats(p)
        assert_appcon_cache(p)
        assert modules(p) - modules(before) == expected_module_change(before, token)
