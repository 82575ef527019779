"""Buchholz and Sonneborn–Berger, on a small tournament worked by hand and on FIDE's
published examples of the virtual opponent."""

import pytest

from tests.tournaments.examples import parse_rounds
from tournaments.swiss import Entrant
from tournaments.swiss.tiebreaks import (
    adjusted_score,
    buchholz,
    sonneborn_berger,
    virtual_opponent_score,
)


def small_tournament():
    """Five entrants, three rounds, every kind of round (TRF codes, examples.py):

    round 1: 1-4 1-0, 2-5 ½-½, 3 the bye; round 2: 3-1 ½-½, 2-4 won by forfeit (4 did not
    come), 5 the bye; round 3: 4 withdrawn, 1-5 1-0, 2-3 0-1.
    Scores: 1 2½, 2 1½, 3 2½, 4 0, 5 1½.
    """
    rounds = {1: "4w1 3b= 5w1", 2: "5w= 4w+ 3w0", 3: "U 1w= 2b1", 4: "1b0 2b- Z", 5: "2b= U 1b0"}
    return [Entrant(id_, 2000 - id_, parse_rounds(text)) for id_, text in rounds.items()]


# By hand. An opponent's score counts unplayed rounds as ½: 1 2½; 2 ½+½+0 = 1; 3 ½+½+1 = 2;
# 4 0+½+½ = 1; 5 ½+½+0 = 1. Virtual opponents (n = 3): 2 in round 2: ½ + (1-1) + ½ = 1;
# 3 in round 1: 0 + (1-1) + 1 = 1; 4 in round 2: 0 + 1 + ½ = 1½, in round 3: 0 + 1 + 0 = 1;
# 5 in round 2: ½ + 0 + ½ = 1.
BUCHHOLZ = {1: 1 + 2 + 1, 2: 1 + 1 + 2, 3: 1 + 2.5 + 1, 4: 2.5 + 1.5 + 1, 5: 1 + 1 + 2.5}
SONNEBORN_BERGER = {1: 1 + 0.5 * 2 + 1, 2: 0.5 * 1 + 1 * 1 + 0, 3: 1 * 1 + 0.5 * 2.5 + 1 * 1,
                    4: 0.0, 5: 0.5 * 1 + 1 * 1 + 0}


def test_buchholz_by_hand():
    assert buchholz(small_tournament()) == pytest.approx(BUCHHOLZ)


def test_sonneborn_berger_by_hand():
    assert sonneborn_berger(small_tournament()) == pytest.approx(SONNEBORN_BERGER)


def test_without_unplayed_rounds_they_are_the_textbook_sums():
    """Round robin of three, all played: 1 beat 2 and 3, 2 drew 3."""
    entrants = [Entrant(id_, 1500, parse_rounds(rounds))
                for id_, rounds in ((1, "2w1 3b1"), (2, "1b0 3w="), (3, "2b= 1w0"))]
    assert buchholz(entrants) == {1: 0.5 + 0.5, 2: 2 + 0.5, 3: 0.5 + 2}
    assert sonneborn_berger(entrants) == {1: 0.5 + 0.5, 2: 0.5 * 0.5, 3: 0.5 * 0.5}


def nine_rounds(text):
    return Entrant(1, 1500, parse_rounds(text))


@pytest.mark.parametrize("history, round_number, expected", [
    # P did not show up in round 3 of 9, with 1.5 after 2 rounds: 1.5 + (1 - 0) + 0.5 * 6
    ("11w1 12b= 13w- 14b1 15w0 16b1 17w= 18b0 19w1", 3, 5.5),
    # P's opponent did not show up in round 6 of 9, P had 3.5 after 5: 3.5 + (1 - 1) + 1.5
    ("11w1 12b1 13w= 14b1 15w0 16b+ 17w= 18b0 19w1", 6, 5.0),
])
def test_fide_examples_of_the_virtual_opponent(history, round_number, expected):
    """FIDE Handbook C.02 13.15 (the tie-break rules in force 2017–2022,
    https://handbook.fide.com/chapter/TieBreakRegulations2022), examples 1 and 2."""
    assert virtual_opponent_score(nine_rounds(history), round_number - 1) == expected


@pytest.mark.parametrize("history, round_number, own, for_opponents", [
    # A: 6 points with a win by default in round 3, 2 points after round 2
    ("11w1 12b1 13w+ 14b1 15w0 16b1 17w= 18b0 19w=", 3, 5.0, 5.5),
    # B: absent in round 7, 4 points after round 6 and 6 at the end
    ("11w1 12b1 13w= 14b1 15w0 16b= Z 18b1 19w1", 7, 6.0, 6.5),
])
def test_fide_2009_examples_both_sides(history, round_number, own, for_opponents):
    """The Swiss Pairings Programs Committee's minutes, 80th FIDE Congress (Kallithea 2009),
    point 7, as quoted in the Vega manual's appendix I
    (https://viewer.joomag.com/manual-de-vega-chess-2016/0285652001480692392/p69): the round's
    contribution to the entrant's own Buchholz, and the entrant's score for their opponents'."""
    entrant = nine_rounds(history)
    assert entrant.score == 6.0
    assert virtual_opponent_score(entrant, round_number - 1) == own
    assert adjusted_score(entrant) == for_opponents


def test_histories_must_cover_the_same_rounds():
    with pytest.raises(ValueError):
        buchholz([nine_rounds("11w1"), Entrant(2, 1400)])
