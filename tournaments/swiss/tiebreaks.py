"""Buchholz and Sonneborn–Berger, with FIDE's rule for rounds not played over the board.

A round is unplayed when there was no game: a bye, a forfeit (won or lost) or an absence
(withdrawn, excused, not yet entered). FIDE's rule (the tie-break regulations of 2017–2023,
from the Swiss Pairings commission's 2009 decision) looks at such a round from two sides:

- the entrant's own: they are taken to have met a *virtual opponent* who had their score
  before the round, got the opposite of their result in it, and drew every later round:
  ``Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`` (score before round R, points in R, n rounds
  played so far);
- their opponents': an opponent's score counts each of the opponent's unplayed rounds as a
  draw, so a bye or a forfeit neither helps nor hurts the people they met.

Buchholz adds, over the rounds, the (so adjusted) score of each opponent met over the board
and ``Svon`` for each unplayed round. Sonneborn–Berger adds the same numbers weighted by the
points taken in that round (1, ½, 0): a bye or a forfeit win counts ``Svon`` once, a loss or
an absence nothing. No cut (Buchholz Cut-1 and the like): docs/tournaments.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tournaments.swiss.records import Entrant, RoundRecord


def buchholz(entrants: Sequence[Entrant]) -> dict[int, float]:
    """Each entrant's Buchholz, by id."""
    return _weighted(entrants, weigh=lambda record: 1.0)


def sonneborn_berger(entrants: Sequence[Entrant]) -> dict[int, float]:
    """Each entrant's Sonneborn–Berger, by id."""
    return _weighted(entrants, weigh=lambda record: record.points)


def adjusted_score(entrant: Entrant) -> float:
    """The score an opponent counts: points from games played, ½ for every unplayed round."""
    return sum(record.points if record.played else 0.5 for record in entrant.history)


def virtual_opponent_score(entrant: Entrant, round_index: int) -> float:
    """``Svon`` for the entrant's unplayed round ``round_index`` (0 for round 1), after all
    the rounds in their history."""
    before = entrant.score_after(round_index)
    taken = entrant.history[round_index].points
    later = len(entrant.history) - round_index - 1
    return before + (1.0 - taken) + 0.5 * later


def _weighted(
    entrants: Sequence[Entrant], weigh: Callable[[RoundRecord], float]
) -> dict[int, float]:
    _check(entrants)
    adjusted = {entrant.id: adjusted_score(entrant) for entrant in entrants}
    totals: dict[int, float] = {}
    for entrant in entrants:
        total = 0.0
        for index, record in enumerate(entrant.history):
            if record.played and record.opponent is not None:
                value = adjusted[record.opponent]
            else:
                value = virtual_opponent_score(entrant, index)
            total += weigh(record) * value
        totals[entrant.id] = total
    return totals


def _check(entrants: Sequence[Entrant]) -> None:
    """Every history covers the same rounds (absences recorded) and meets known entrants."""
    lengths = {len(entrant.history) for entrant in entrants}
    if len(lengths) > 1:
        raise ValueError(f"histories of different lengths {sorted(lengths)}: record absences")
    ids = {entrant.id for entrant in entrants}
    for entrant in entrants:
        for record in entrant.history:
            if record.opponent is not None and record.opponent not in ids:
                raise ValueError(f"entrant {entrant.id} met unknown entrant {record.opponent}")
