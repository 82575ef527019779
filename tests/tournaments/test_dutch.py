"""tournaments.swiss.dutch: the site's rules around the library (withdrawals, byes, late
joiners, seats) and the guards that refuse an answer breaking them."""

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.swiss import (
    Board,
    Entrant,
    Outcome,
    Pairing,
    PairingError,
    RoundRecord,
    Seat,
    absent_rounds,
    dutch,
    pair_round,
)

ROOT = Path(__file__).resolve().parents[2]


def field(count, first_id=1):
    """Entrants rated 2000, 1990, ... so their ids are their pairing numbers."""
    return [Entrant(id_, 2000 - 10 * (id_ - first_id)) for id_ in range(first_id, first_id + count)]


def result(first, second):
    """The better rated wins; within 25 points it is a draw."""
    if abs(first.rating - second.rating) <= 25:
        return Outcome.DRAW, Outcome.DRAW
    return (Outcome.WIN, Outcome.LOSS) if first.rating > second.rating else (Outcome.LOSS,
                                                                             Outcome.WIN)


def play(entrants, pairing):
    """The entrants with the round played: results by rating, the bye, absences."""
    by_id = {entrant.id: entrant for entrant in entrants}
    records = {entrant.id: RoundRecord(Outcome.ABSENT) for entrant in entrants}
    for board in pairing.boards:
        first, second = by_id[board.first], by_id[board.second]
        mine, theirs = result(first, second)
        records[first.id] = RoundRecord(mine, second.id, Seat.FIRST)
        records[second.id] = RoundRecord(theirs, first.id, Seat.SECOND)
    if pairing.bye is not None:
        records[pairing.bye] = RoundRecord(Outcome.BYE)
    return [Entrant(e.id, e.rating, (*e.history, records[e.id]), e.withdrawn) for e in entrants]


def withdraw(entrants, id_):
    return [Entrant(e.id, e.rating, e.history, e.withdrawn or e.id == id_) for e in entrants]


def run(entrants, rounds_total, before_round=lambda number, entrants: entrants):
    """Pair and play every round; returns each round's pairing and the final entrants."""
    pairings = []
    for number in range(1, rounds_total + 1):
        entrants = before_round(number, entrants)
        pairings.append(pair_round(entrants, number, rounds_total))
        entrants = play(entrants, pairings[-1])
    return pairings, entrants


def test_round_one_pairs_the_top_half_with_the_bottom_half_blue_first_on_top():
    assert pair_round(field(6), 1, 5) == Pairing(
        (Board(1, 4), Board(5, 2), Board(3, 6)), None)
    assert pair_round(field(6), 1, 5, initial_seat=Seat.SECOND).boards[0] == Board(4, 1)


def test_an_odd_first_round_gives_the_lowest_the_bye():
    assert pair_round(field(5), 1, 4).bye == 5


def test_a_whole_tournament_keeps_the_absolute_rules():
    """Seven entrants, six rounds: nobody meets twice, nobody has two byes, and nobody
    takes a seat three times running or two more of one seat than the other."""
    pairings, entrants = run(field(7), 6)
    byes = [pairing.bye for pairing in pairings]
    assert None not in byes and len(set(byes)) == len(byes)
    games = [frozenset((b.first, b.second)) for pairing in pairings for b in pairing.boards]
    assert len(set(games)) == len(games) == 6 * 3
    for entrant in entrants:
        colours = entrant.colours.replace("-", "")
        assert "WWW" not in colours[:-1] and "BBB" not in colours[:-1]
        assert abs(colours[:-1].count("W") - colours[:-1].count("B")) <= 2


def test_a_withdrawn_entrant_is_never_paired_again():
    def after_round_two(number, entrants):
        return withdraw(entrants, 2) if number == 3 else entrants

    pairings, entrants = run(field(8), 5, after_round_two)
    for pairing in pairings[2:]:
        seated = {p for board in pairing.boards for p in (board.first, board.second)}
        assert 2 not in seated and pairing.bye != 2
        assert len(seated) + (pairing.bye is not None) == 7
    assert [r.outcome for r in entrants[1].history[2:]] == [Outcome.ABSENT] * 3


def test_a_late_joiner_enters_on_no_points_and_is_paired():
    def join_in_round_three(number, entrants):
        if number != 3:
            return entrants
        return [*entrants, Entrant(9, 1995, absent_rounds(2))]

    pairings, entrants = run(field(8), 5, join_in_round_three)
    late = entrants[-1]
    assert [r.outcome for r in late.history[:2]] == [Outcome.ABSENT, Outcome.ABSENT]
    assert all(any(9 in (b.first, b.second) for b in p.boards) or p.bye == 9
               for p in pairings[2:])


def test_when_every_entrant_has_had_the_bye_the_organiser_decides():
    """Three entrants: after three rounds each has met both others and had a bye."""
    pairings, entrants = run(field(3), 3)
    assert sorted(pairing.bye for pairing in pairings) == [1, 2, 3]
    with pytest.raises(PairingError):
        pair_round(entrants, 4, 5)


def library_answers(monkeypatch, *rows):
    monkeypatch.setattr(dutch, "_run_library", lambda *args: [dict(row) for row in rows])


def game(first, second):
    return {"white_id": first, "black_id": second}


def bye(id_):
    return {"white_id": id_, "black_id": None, "bye": True}


def after_one_round():
    """Four entrants after round 1 (1-3, 4-2), 5 had the bye."""
    return play(field(5), Pairing((Board(1, 3), Board(4, 2)), 5))


@pytest.mark.parametrize("rows", [
    [game(1, 2), game(3, 4), bye(5)],  # 5 had the bye in round 1
    [game(1, 3), game(2, 5), bye(4)],  # 1 and 3 met in round 1
    [game(1, 2), bye(3), bye(4), bye(5)],  # one bye at most
    [game(1, 2), game(3, 5)],  # 4 is left out
    [game(1, 2), game(3, 5), game(4, 6), bye(4)],  # 6 never entered
], ids=["second bye", "rematch", "two byes", "one left out", "an unknown entrant"])
def test_an_answer_against_the_rules_is_refused(monkeypatch, rows):
    library_answers(monkeypatch, *rows)
    with pytest.raises(PairingError):
        pair_round(after_one_round(), 2, 5)


def test_a_withdrawn_entrant_in_the_answer_is_refused(monkeypatch):
    library_answers(monkeypatch, game(1, 2), game(3, 4), bye(5))
    with pytest.raises(PairingError):
        pair_round(withdraw(after_one_round(), 2), 2, 5)


def test_a_third_seat_in_a_row_is_refused_before_the_last_round(monkeypatch):
    entrants = play(play(field(4), Pairing((Board(1, 3), Board(2, 4)), None)),
                    Pairing((Board(1, 4), Board(2, 3)), None))
    library_answers(monkeypatch, game(1, 2), game(3, 4))
    with pytest.raises(PairingError):
        pair_round(entrants, 3, 4)
    assert pair_round(entrants, 3, 3).boards == (Board(1, 2), Board(3, 4))


@pytest.mark.parametrize("entrants, round_number", [
    (field(4), 2),  # no records for round 1
    (field(4), 0),
    ([Entrant(1, 1500), Entrant(1, 1400)], 1),
    ([Entrant(1, 1500, (RoundRecord(Outcome.WIN, 7, Seat.FIRST),)), Entrant(2, 1400, (
        RoundRecord(Outcome.BYE),))], 2),  # 7 is nobody
], ids=["short history", "round 0", "same id", "unknown opponent"])
def test_records_that_do_not_fit_are_refused(entrants, round_number):
    with pytest.raises(ValueError):
        pair_round(entrants, round_number, 5)


def test_nobody_left_means_no_boards():
    assert pair_round(withdraw(field(1), 1), 1, 3) == Pairing((), None)


def test_records_say_what_was_played():
    history = (RoundRecord(Outcome.WIN, 2, Seat.FIRST), RoundRecord(Outcome.FORFEIT_WIN, 3),
               RoundRecord(Outcome.BYE), RoundRecord(Outcome.LOSS, 4, Seat.SECOND))
    entrant = Entrant(1, 1500, history)
    assert (entrant.score, entrant.colours, entrant.opponents) == (3.0, "W--B", {2, 4})
    assert entrant.had_bye and entrant.forfeit_wins == 1
    with pytest.raises(ValueError):
        RoundRecord(Outcome.DRAW, 2)  # a game needs its seat
    with pytest.raises(ValueError):
        RoundRecord(Outcome.BYE, 2)


def test_the_package_imports_without_django():
    code = ("import sys, tournaments.swiss, tournaments.swiss.tiebreaks; "
            "sys.exit(any(m.split('.')[0] == 'django' for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
