"""CargoBot only ever plays legal whole turns: every size, every rules version, positions
where the only actions are cards or a pass. Checked by the engine and by the reference."""

from __future__ import annotations

import random

import pytest

from engine import EngineError, Game, parse_position
from engine.bot import BOT_LEVELS, choose, choose_turn
from tests.engine.reference import RefGame, State
from tests.engine.support import RULES, SIZES, pos, random_start

# Column e is locked and every other column is full: no drops for anybody. No AppCons in
# STUCK; in STUCK_ROWS rows 1, 3 and 5 hold Blue Is along a..d.
STUCK = "BOBO./OBOB./BOBO./OBOB./BOBO."
STUCK_ROWS = "BBBB./OOOO./BBBB./OOOO./BBBB."


def assert_legal(text: str, token: str) -> None:
    phase1, plus, cells = token.partition("+")
    if plus:
        pieces = [cells[i:i + 2] for i in range(0, len(cells), 2)]
        assert pieces == sorted(pieces) and len(pieces) == 4, token
    Game.from_position(text).play(token)  # raises EngineError if illegal
    RefGame(State.parse(text)).play(token)  # raises RefError if illegal


def playable_starts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        text = random_start(rng, n=SIZES[len(out) % 4], rules=RULES[len(out) % 3])
        if not parse_position(text).is_over():
            out.append(text)
    return out


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_it_plays_legal_turns_in_random_positions(level: str) -> None:
    for i, text in enumerate(playable_starts(11 if level == "easy" else 12, 48)):
        assert_legal(text, choose_turn(parse_position(text), level, i))


def test_hard_plays_legal_turns_in_a_few_random_positions() -> None:
    for i, text in enumerate(playable_starts(13, 6)):
        if parse_position(text).n > 6:
            continue
        assert_legal(text, choose_turn(parse_position(text), "hard", i))


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("size", [5, 6])
def test_it_plays_legal_turns_through_whole_shifts(size: int, rules: str) -> None:
    game = Game.new(size, rules)
    levels = ("easy", "medium")
    while not game.over:
        from engine import format_position

        text = format_position(game.position)
        token = choose_turn(game.position, levels[game.ply % 2], game.ply)
        assert_legal(text, token)
        game.play(token)


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_it_passes_when_passing_is_the_only_action(level: str) -> None:
    text = pos(STUCK, lock="e", blue="-", orange="L")
    assert Game.from_position(text).legal() == ["-"]
    assert choose_turn(parse_position(text), level, 1) == "-"


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_a_passing_bot_still_unloads(level: str) -> None:
    text = pos(STUCK_ROWS, lock="e", blue="-", orange="L")
    token = choose_turn(parse_position(text), level, 1)
    assert token.startswith("-+")  # an I is worth 6 and its Gold chit
    assert_legal(text, token)


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize("rules", RULES)
def test_it_plays_a_card_when_cards_are_the_only_actions(level: str, rules: str) -> None:
    text = pos(STUCK, lock="e", blue="SLPDR", orange="-", rules=rules)
    token = choose_turn(parse_position(text), level, 5)
    assert token[0] in "SLPDR"
    assert_legal(text, token)


@pytest.mark.parametrize("hand", ["S", "L", "P", "D", "R"])
def test_it_plays_any_single_card_when_it_is_all_it_has(hand: str) -> None:
    text = pos(STUCK, lock="e", blue=hand, orange="-")
    for level in BOT_LEVELS:
        token = choose_turn(parse_position(text), level, 2)
        assert token[0] == hand
        assert_legal(text, token)


def test_it_refuses_a_shift_that_is_over() -> None:
    full = pos("BOBOB/OBOBO/BOBOB/OBOBO/BOBOB")
    with pytest.raises(EngineError, match="over"):
        choose(parse_position(full), "easy", 1)


def test_it_refuses_an_unknown_level() -> None:
    with pytest.raises(EngineError, match="level"):
        choose(parse_position(pos("...../...../...../...../.....")), "expert", 1)


def test_it_leaves_the_position_unchanged() -> None:
    p = Game.new(6).position
    p.play(2)
    before = p.copy()
    for level in BOT_LEVELS:
        choose(p, level, 1)
    assert p == before and p.appcons(0) == before.appcons(0)
