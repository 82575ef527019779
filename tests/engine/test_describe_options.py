"""`describe`'s legal tokens and options (what the page offers after each Phase 1 token:
the bay then and the AppCons on offer) against tests/engine/reference.py, worked out cell
by cell.

The site sends these with every turn, so the engine computes them cheaply (the AppCons
known before the trial drops, the bay's text written cell by occupied cell); the
reference applies every legal token to a copy and brute-forces the unloads."""

from __future__ import annotations

import random

import pytest

from engine import Game, format_position, parse_position
from engine.describe import describe
from tests.engine.reference import RefGame, State
from tests.engine.support import RULES, SIZES, choose_turn


def expected_options(state: State) -> dict[str, dict]:
    options = {}
    for token in state.legal():
        after = state.clone()
        after.apply_phase1(token)
        found = after.unloads()
        if found:
            options[token] = {"rows": after.format().split(" ")[0].split("/"),
                              "lock": after.lock,
                              "unloads": sorted([names, shape] for names, shape in found)}
    return options


def offered(game: Game) -> dict[str, dict]:
    options = describe(game)["options"]
    for option in options.values():
        option["unloads"] = sorted([names, shape] for names, shape, _ in option["unloads"])
    return options


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", SIZES)
def test_the_options_agree_with_the_reference_through_random_games(n: int, rules: str
                                                                    ) -> None:
    rng = random.Random(f"options-{n}-{rules}")
    game = Game.new(n, rules)
    ref = RefGame(State.parse(format_position(game.position)))
    while not ref.over:
        # a fresh copy too: its AppCons are not yet known when the options are asked
        fresh = Game(parse_position(format_position(game.position)))
        assert offered(game) == offered(fresh) == expected_options(ref.state)
        assert describe(game)["legal"] == sorted(ref.legal())
        token = choose_turn(rng, ref, ref.legal())
        ref.play(token)
        game.play(token)
