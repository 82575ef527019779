"""A Cargo Connect Swiss round paired by the FIDE Dutch system (C.04.3, from February 2026).

The pairing itself is caissify-pairings' (docs/tournaments.md: why that library, and the
published examples it was checked against). This module turns :class:`Entrant` records into
the library's input, reads its answer back, and checks the answer against the rules the site
promises whatever the library does: every entrant still in is paired once, a withdrawn one
never, nobody meets an opponent twice, nobody gets the bye twice, and before the last round
nobody gets a third first (or second) seat in a row or a seat difference above two.
Blue, who moves first, plays FIDE's White.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from caissify_pairings import generate_pairings

from tournaments.swiss.records import Entrant, Outcome, Seat


@dataclass(frozen=True)
class Board:
    """One game: ``first`` takes the first seat (Blue, moves first), ``second`` the other."""

    first: int
    second: int


@dataclass(frozen=True)
class Pairing:
    """A round's boards, top board first, and the entrant given the bye (None if even)."""

    boards: tuple[Board, ...]
    bye: int | None


class PairingError(Exception):
    """No pairing keeps the absolute rules (no rematch, no second bye): the organiser decides,
    as FIDE leaves it to the arbiter."""


def pair_round(
    entrants: Sequence[Entrant],
    round_number: int,
    rounds_total: int,
    *,
    initial_seat: Seat = Seat.FIRST,
) -> Pairing:
    """Pair round ``round_number`` (from 1) of ``rounds_total``.

    ``entrants`` holds everyone who ever entered, withdrawn ones too, each with exactly
    ``round_number - 1`` records (a late joiner's missed rounds are :func:`absent_rounds`).
    ``initial_seat`` is the seat of the top-ranked entrant in round 1 (FIDE draws it by lot);
    pass the same one every round: later rounds fall back on it to settle equal claims.
    Raises ValueError for records that do not fit together, PairingError when no legal
    pairing came back.
    """
    by_id = _checked(entrants, round_number, rounds_total)
    active = [entrant for entrant in entrants if not entrant.withdrawn]
    if not active:
        return Pairing((), None)
    ranks = _ranks(entrants)
    rows = _run_library(
        [_library_player(entrant, by_id, ranks) for entrant in active],
        _met(entrants),
        round_number,
        rounds_total,
        "white" if initial_seat is Seat.FIRST else "black",
    )
    pairing = _read(rows)
    _enforce(pairing, active, final_round=round_number == rounds_total)
    return Pairing(_board_order(pairing.boards, by_id, ranks), pairing.bye)


def _checked(
    entrants: Sequence[Entrant], round_number: int, rounds_total: int
) -> dict[int, Entrant]:
    """The entrants by id, once their records are known to fit the round."""
    if not 1 <= round_number <= rounds_total:
        raise ValueError(f"round {round_number} is not one of 1..{rounds_total}")
    by_id = {entrant.id: entrant for entrant in entrants}
    if len(by_id) != len(entrants):
        raise ValueError("two entrants share an id")
    for entrant in entrants:
        if len(entrant.history) != round_number - 1:
            raise ValueError(f"entrant {entrant.id} has {len(entrant.history)} records, "
                             f"round {round_number} needs {round_number - 1}")
        unknown = {r.opponent for r in entrant.history if r.opponent is not None} - set(by_id)
        if unknown:
            raise ValueError(f"entrant {entrant.id} met unknown entrants {sorted(unknown)}")
    return by_id


def _ranks(entrants: Sequence[Entrant]) -> dict[int, int]:
    """FIDE's tournament pairing numbers: by rating, highest first, then by id."""
    ordered = sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.id))
    return {entrant.id: rank for rank, entrant in enumerate(ordered, start=1)}


def _met(entrants: Sequence[Entrant]) -> set[tuple[int, int]]:
    """Every pair that has played a game (forfeits excluded, as FIDE does)."""
    return {(min(e.id, o), max(e.id, o)) for e in entrants for o in e.opponents}


def _library_player(
    entrant: Entrant, by_id: dict[int, Entrant], ranks: dict[int, int]
) -> dict[str, object]:
    """The library's player: its engine ranks by rating then ``starting_number``, so passing
    our pairing number keeps its order ours (its own pairing numbers count active entrants)."""
    return {
        "id": entrant.id,
        "score": entrant.score,
        "rating": entrant.rating,
        "starting_number": ranks[entrant.id],
        "color_hist": ["white" if c == "W" else "black" for c in entrant.colours if c != "-"],
        "float_history": _floats(entrant, by_id),
        "bye_count": sum(r.outcome is Outcome.BYE for r in entrant.history),
        "forfeit_win_count": entrant.forfeit_wins,
    }


def _floats(entrant: Entrant, by_id: dict[int, Entrant]) -> list[str]:
    """FIDE's floats, one a round (C.04.3 1.4): after a game between different scores the
    higher one floated down, the lower up; a bye or a win without playing is a downfloat."""
    floats = []
    for index, record in enumerate(entrant.history):
        if record.outcome in (Outcome.BYE, Outcome.FORFEIT_WIN):
            floats.append("down")
        elif record.played and record.opponent is not None:
            mine = entrant.score_after(index)
            theirs = by_id[record.opponent].score_after(index)
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        else:
            floats.append("none")
    return floats


def _run_library(
    players: list[dict[str, object]],
    met: set[tuple[int, int]],
    round_number: int,
    rounds_total: int,
    initial_colour: str,
) -> list[dict[str, object]]:
    """The one call into caissify-pairings (tests replace it to check the guards)."""
    rows: list[dict[str, Any]] = generate_pairings(
        system="dutch",
        players=players,
        previous_pairings=met,
        round_number=round_number,
        total_rounds=rounds_total,
        initial_color=initial_colour,
        bye_value=1.0,
        max_byes_per_player=1,
    )
    return [dict(row) for row in rows]


def _read(rows: list[dict[str, object]]) -> Pairing:
    """The library's rows as a Pairing, in its board order (bye rows come last)."""
    boards = [Board(_id(row["white_id"]), _id(row["black_id"]))
              for row in rows if not row.get("bye")]
    byes = [_id(row["white_id"]) for row in rows if row.get("bye")]
    if len(byes) > 1:
        raise PairingError(f"no pairing leaves one bye at most (the library gave {byes})")
    return Pairing(tuple(boards), byes[0] if byes else None)


def _board_order(
    boards: tuple[Board, ...], by_id: dict[int, Entrant], ranks: dict[int, int]
) -> tuple[Board, ...]:
    """FIDE's board order (General Handling Rules): the higher player's score, the sum of
    both scores, then the higher player's pairing number. caissify-pairings 0.5.0 puts the
    sum first; bbpPairings and the published pairings put the higher score first."""

    def key(board: Board) -> tuple[float, float, int]:
        players = [by_id[board.first], by_id[board.second]]
        higher = min(players, key=lambda entrant: (-entrant.score, ranks[entrant.id]))
        return (-higher.score, -sum(entrant.score for entrant in players), ranks[higher.id])

    return tuple(sorted(boards, key=key))


def _id(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise PairingError(f"the pairing library returned {value!r} for an entrant")


def _enforce(pairing: Pairing, active: list[Entrant], *, final_round: bool) -> None:
    """Refuse an answer that breaks the site's absolute rules (the module docstring)."""
    by_id = {entrant.id: entrant for entrant in active}
    seated = [player for board in pairing.boards for player in (board.first, board.second)]
    placed = seated + ([pairing.bye] if pairing.bye is not None else [])
    if sorted(placed) != sorted(by_id):
        raise PairingError(f"the pairing places {sorted(placed)}, not the entrants in "
                           f"{sorted(by_id)} once each")
    for board in pairing.boards:
        if board.second in by_id[board.first].opponents:
            raise PairingError(f"{board.first} and {board.second} have already played")
    if pairing.bye is not None and (by_id[pairing.bye].had_bye or by_id[pairing.bye].forfeit_wins):
        raise PairingError(f"entrant {pairing.bye} has had a bye or a win without playing: "
                           "no second bye")
    if not final_round:
        for board in pairing.boards:
            _check_seat(by_id[board.first], "W")
            _check_seat(by_id[board.second], "B")


def _check_seat(entrant: Entrant, colour: str) -> None:
    """FIDE's absolute colour rule, outside the last round's topscorer exception."""
    played = entrant.colours.replace("-", "") + colour
    if played.endswith(colour * 3) or abs(played.count("W") - played.count("B")) > 2:
        raise PairingError(f"entrant {entrant.id} would take seat {colour} against the "
                           "absolute colour rule")
