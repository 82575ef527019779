"""Golden games, written as records, where the losing turn is known: the review marks it
with the expected reason; a game of CargoBot Hard against itself marks nothing above an
inaccuracy. These use the review's real node budget."""

from engine import Game, parse_record
from engine.bot import choose
from engine.notation import format_position, start_position
from engine.review import review_game

# Blue holds an L (a1 a2 a3 b1) and the Purge; purging row 1 destroys it.
PURGED_OWN_L = """[Start "...../...../B..../B..../BB... b P - - - - 0 0 4 0.92"]

P1 c
"""

# Orange's a2 b2 c2 wait for d2; Blue's drop in d props it up.
PROPPED_UP_I = """[Start "...../...../xxx../OOO../xxx.B b - - - - - 0 0 4 0.92"]

d d+a2b2c2d2
"""

# Blue holds an I (a1 a2 a3 a4) it could unload now; it drops in e instead, and Orange's
# Cargo Damage on a2 a3 breaks it (a5 and e5 were the only empty cells).
HELD_I = """[Start ".xxx./Bxxxx/Bxxxx/Bxxxx/Bxxxx b - D - - - 0 0 4 0.92"]

e Da2a3
"""


def review_of(text):
    record = parse_record(text)
    return review_game(format_position(record.start), record.tokens)


def test_the_purge_that_destroyed_ones_own_l_is_marked_with_its_reason():
    review = review_of(PURGED_OWN_L)
    first = review.turns[0]
    assert first.grade == "mistake"
    assert first.loss >= 400
    assert first.reason == "Corridor Purge on row 1 destroyed your own L (a1 a2 a3 b1)."
    assert first.cells == ["a1", "a2", "a3", "b1"]
    assert first.before[-1] == "BB..." and first.after_played[-1] == "B...."
    assert review.turns[1].grade == ""


def test_the_drop_that_let_orange_unload_is_marked_with_its_reason():
    review = review_of(PROPPED_UP_I)
    first = review.turns[0]
    assert first.grade == "mistake"
    assert first.reason == ("This drop in d let Orange unload an I (a2 b2 c2 d2) for 8 next "
                            "turn; Dropping in a instead leaves Orange nothing to unload (a).")
    assert first.cells == ["a2", "b2", "c2", "d2"]
    # the suggested turn's board: Blue in a4, d1 still open
    assert first.after_best[1][0] == "B" and first.after_best[-1][3] == "."
    # Orange's turn took what it was given: no mark
    assert review.turns[1].grade == ""


def test_holding_an_appcon_that_orange_then_broke_is_marked_with_its_reason():
    review = review_of(HELD_I)
    first = review.turns[0]
    assert first.grade == "blunder"
    assert first.best == "a+a1a2a3a4"
    assert first.reason == ("Holding the I (a1 a2 a3 a4) for later let Orange's Cargo Damage "
                            "break it (Da2a3).")
    assert first.cells == ["a1", "a2", "a3", "a4"]
    # the boards: the I on the bay before and after the turn played, unloaded after the best
    assert [row[0] for row in first.before] == [".", "B", "B", "B", "B"]
    assert first.after_played[0] == ".xxxB" and first.after_played[-1] == "Bxxxx"
    assert [row[0] for row in first.after_best] == ["B", "x", "x", "x", "x"]
    assert review.turns[1].grade == ""


def test_the_broken_appcon_is_gone_after_orange_s_damage():
    """Replaying the record: after Da2a3 column a holds only two Blue cores, no I."""
    game = Game.from_record(HELD_I)
    assert format_position(game.position).split()[0] == ".xxxB/.xxxx/.xxxx/Bxxxx/Bxxxx"
    assert game.position.points[0] == 0


def test_the_facts_of_the_reason_hold_on_the_board():
    """Replaying the turn played and Orange's reply scores the I for 8, as the reason says."""
    game = Game.from_record(PROPPED_UP_I)
    assert game.position.points[1] == 8  # 6 for the I, 2 for its Gold chit


def test_hard_against_itself_marks_nothing_above_an_inaccuracy():
    p = start_position(6)
    start = format_position(p)
    tokens = []
    while not p.is_over():
        turn = choose(p, "hard", 1)
        tokens.append(turn.token)
        p.play(turn.action, turn.unload)
    review = review_game(start, tokens)
    assert len(review.turns) == len(tokens) > 40
    for side in ("blue", "orange"):
        assert review.marks[side]["mistake"] == review.marks[side]["blunder"] == 0
