"""notation.md, records and turns: headers, comments, tokens; fine points 1, 3 and 8."""

from __future__ import annotations

import pytest

from engine import EngineError, Game, format_position
from engine.notation import decode, parse_token
from tests.engine.support import board_of, field, replay


def test_defaults_are_an_8x8_bay_under_0_92() -> None:
    game = replay("")
    assert format_position(game.position).endswith(" 0.92")
    assert len(board_of(game).split("/")) == 8


def test_comments_odd_spacing_and_other_headers_are_fine() -> None:
    text = ('\ufeff[Size "5"]  # a comment after a header\n'
            '[Blue "alice # not a comment"]\n[Date "2025-01-01"]\n\n'
            '  a\tb   # comment\n# a whole line of comment [Size "6"]\nc\r\nd\n')
    game = replay(text)
    assert board_of(game) == "...../...../...../...../BOBO."
    assert game.headers["Blue"] == "alice # not a comment"


@pytest.mark.parametrize("text", [
    '[Size "5"]\n[Size "5"]\n',  # repeated header
    '[Size "5"]\na\n[Rules "0.92"]\n',  # header after the first turn
    '[Size "5"] a\n',  # a header does not share its line
    '[Size 5]\n',
    '[Size "5"\n',
    '[Size "4"]\n',
    '[Size "five"]\n',
    '[Rules "1.0"]\n',
    '[Size "6"]\n[Start "...../...../...../...../..... b SLPDR SLPDR - - - 0 0 0 0.92"]\n',
    '[Rules "0.88"]\n[Start "...../...../...../...../..... b SLPDR SLPDR - - - 0 0 0 0.92"]\n',
    '[Start "...../...../...../...../..... b SLPDR SLPDR - - - 0 0 0"]\n',
    '[Goal "unload:I"]\n',  # Goal without Turns
    '[Turns "2"]\n',  # Turns without Goal
])
def test_bad_headers_are_errors_with_no_turn_index(text: str) -> None:
    with pytest.raises(EngineError) as info:
        replay(text)
    assert info.value.at is None


def test_non_utf8_input_is_an_error_and_a_bom_is_ignored() -> None:
    with pytest.raises(EngineError, match="UTF-8"):
        decode(b"a \xff b")
    assert decode(b"\xef\xbb\xbfa b") == "a b"


@pytest.mark.parametrize("token", ["Q", "s>", "a+", "S", "SS", "D", "Da", "Da1b", "Rab",
                                   "a+a1a2a3", "a+a1a2a3a4a5", "L", "Lab", "A", "aa", "-a",
                                   "d\n", " d", "resign+a1a2a3a4", "+a1a2a3a4", "a++a1a2a3a4"])
def test_unknown_tokens_are_rejected_naming_the_token(token: str) -> None:
    with pytest.raises(EngineError):
        parse_token(token)
    game = Game.new(5)
    with pytest.raises(EngineError) as info:
        game.play(token)
    assert repr(token) in str(info.value) or token.strip() in str(info.value)
    assert game.ply == 0


def test_the_error_index_names_the_bad_token() -> None:
    # fine point 3: 0-based among the turn tokens, resign counted
    with pytest.raises(EngineError) as info:
        replay('[Size "5"]\na b # c d\nQ')
    assert info.value.at == 2
    with pytest.raises(EngineError) as info:
        replay('[Size "5"]\na resign b')
    assert info.value.at == 2


def test_resign_is_not_a_turn() -> None:
    # fine point 1
    game = replay('[Size "5"]\na b resign')
    assert field(game, 1) == "b" and field(game, 9) == "2"
    assert game.over and game.legal() == []
    assert game.result() == {"winner": "orange", "blue": -14, "orange": -14}
    with pytest.raises(EngineError):
        game.play("c")
    with pytest.raises(EngineError):
        game.play("resign")


def test_resign_by_orange_names_blue() -> None:
    game = replay('[Size "5"]\na resign')
    assert game.result()["winner"] == "blue" and field(game, 1) == "o"


def test_side_and_turn_count_change_after_every_turn() -> None:
    game = replay('[Size "5"]\na b c')
    assert field(game, 1) == "o" and field(game, 9) == "3"


def test_a_start_that_is_over_is_over_from_the_beginning() -> None:
    # fine point 2: bay full, or neither side has an action
    game = replay('[Start "BBBBB/OOOOO/BBBBB/OOOOO/BBBBB b SLPDR SLPDR - - - 3 0 9 0.92"]')
    assert game.over and game.legal() == []
    assert game.result() == {"winner": "blue", "blue": 3 - 14, "orange": -14}
    game = replay('[Start "BBBB./OOOO./BBBB./OOOO./BBBB. o - - e - - 0 0 0 0.89"]')
    assert game.over and game.result()["winner"] is None


def test_the_record_of_a_game_replays_to_the_same_position() -> None:
    game = replay('[Size "6"]\n[Rules "0.88"]\n[Blue "x"]\na b Lc d resign')
    again = Game.from_record(game.record())
    assert again.summary() == game.summary()
    assert again.headers["Blue"] == "x"


def test_legal_lists_pass_only_when_it_is_the_one_action() -> None:
    game = replay('[Start "BBBB./OOOO./BBBB./OOOO./BBBB. b - L e - - 0 0 0 0.92"]')
    assert game.legal() == ["-"]
    game = Game.new(5)
    assert "-" not in game.legal() and game.legal() == sorted(game.legal())
