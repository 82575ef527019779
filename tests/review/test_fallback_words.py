"""Issue #27, item 14: when no checked fact explains a marked turn, the review's reason was
two opaque search margins ("finds a final margin of -0.12 … against -2.5"). It now says in
words what the better turn gains, and where each turn leaves the player."""

from engine.notation import interpret_turn, start_position
from engine.review_words import _margin_words, _points_words, explain


def test_the_fallback_reason_says_what_the_better_turn_gains_in_words():
    p = start_position(5)
    played, better = interpret_turn("a", p), interpret_turn("c", p)
    text, cells = explain(p, *played, *better, played_value=-250, best_value=-12, depth=6)
    assert text == (
        "Dropping in c instead (c) is worth about 2.4 points more to you by the Final Audit: "
        "looking 6 turns ahead, CargoBot expects you to finish 0.1 points behind after it, "
        "and to finish 2.5 points behind after the turn played. No single unload in the next "
        "turns makes the difference; it is the position: try both on the analysis board.")
    assert "final margin of" not in text and cells == []


def test_margins_in_words():
    assert _margin_words(250) == "finish 2.5 points ahead"
    assert _margin_words(-100) == "finish 1 point behind"
    assert _margin_words(5) == "finish level"
    assert _points_words(50) == "half a point"
    assert _points_words(-712) == "7.1 points"
