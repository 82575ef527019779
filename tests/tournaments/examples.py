"""Published pairing examples (tests/tournaments/data/*.toml) read into the module's values.

A file holds one round to pair and the published answer:

- ``title``, ``source`` (the tournament as published), ``expected_from`` (the published
  pairing) and ``rules`` (the FIDE text the answer follows) say where it comes from;
- ``round`` is the round to pair, ``rounds_total`` the tournament's length;
- ``not_paired`` lists entrants absent from that round (paired as withdrawn);
- ``boards`` lists the published games, first seat (FIDE's White) first, top board first;
  ``bye`` the entrant with the bye, if any;
- ``entrants`` holds ``[id, rating, rounds]``: ``rounds`` one token a round, oldest first:
  ``<opponent><w|b><result>`` with result ``1``, ``=``, ``0`` for a game, ``+`` or ``-`` for a
  forfeit won or lost; ``U`` a bye; ``Z`` absent. These are the TRF's codes (FIDE's data
  exchange format), so a file can be checked against its source by eye.

A *whole tournament* file has no ``round``, ``not_paired``, ``boards`` or ``bye``: every
round of its entrants' records is a published pairing, and :func:`rounds_of` makes each
round a case (the records before it in, the round itself out; board order is not
published in the TRF). ``initial_seat`` (``"first"`` unless given) is entrant 1's round-1
seat.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournaments.swiss import Board, Entrant, Outcome, Pairing, RoundRecord, Seat

DATA = Path(__file__).resolve().parent / "data"
GAME = re.compile(r"(?P<opponent>\d+)(?P<seat>[wb])(?P<result>[10=+-])")
RESULTS = {"1": Outcome.WIN, "=": Outcome.DRAW, "0": Outcome.LOSS,
           "+": Outcome.FORFEIT_WIN, "-": Outcome.FORFEIT_LOSS}
ALONE = {"U": Outcome.BYE, "Z": Outcome.ABSENT}


@dataclass(frozen=True)
class Example:
    title: str
    source: str
    round: int
    rounds_total: int
    entrants: tuple[Entrant, ...]
    expected: Pairing
    initial_seat: Seat = Seat.FIRST


def read(name: str) -> dict[str, Any]:
    return tomllib.loads((DATA / f"{name}.toml").read_text("utf-8"))


def load(name: str) -> Example:
    """The one-round example in ``data/<name>.toml``."""
    data = read(name)
    absent = set(data["not_paired"])
    entrants = tuple(
        Entrant(id=id_, rating=rating, history=parse_rounds(rounds), withdrawn=id_ in absent)
        for id_, rating, rounds in data["entrants"])
    expected = Pairing(tuple(Board(first, second) for first, second in data["boards"]),
                       data.get("bye"))
    return Example(data["title"], data["source"], data["round"], data["rounds_total"],
                   entrants, expected)


def rounds_of(name: str) -> list[Example]:
    """Each round of the whole tournament in ``data/<name>.toml`` as a one-round example."""
    data = read(name)
    played = [(id_, rating, parse_rounds(rounds)) for id_, rating, rounds in data["entrants"]]
    seat = Seat(data.get("initial_seat", "first"))
    return [_round_case(data, played, number, seat)
            for number in range(1, data["rounds_total"] + 1)]


def _round_case(data: dict[str, Any], played: list[tuple[int, int, tuple[RoundRecord, ...]]],
                number: int, seat: Seat) -> Example:
    entrants = tuple(Entrant(id_, rating, history[:number - 1],
                             withdrawn=history[number - 1].outcome is Outcome.ABSENT)
                     for id_, rating, history in played)
    boards = tuple(Board(id_, record.opponent) for id_, _, history in played
                   if (record := history[number - 1]).seat is Seat.FIRST
                   and record.opponent is not None)
    byes = [id_ for id_, _, history in played if history[number - 1].outcome is Outcome.BYE]
    return Example(f"{data['title']}, round {number}", data["source"], number,
                   data["rounds_total"], entrants, Pairing(boards, byes[0] if byes else None),
                   seat)


def parse_rounds(text: str) -> tuple[RoundRecord, ...]:
    """``"4w1 2b= U"`` as records."""
    return tuple(parse_round(token) for token in text.split())


def parse_round(token: str) -> RoundRecord:
    if token in ALONE:
        return RoundRecord(ALONE[token])
    game = GAME.fullmatch(token)
    if game is None:
        raise ValueError(f"not a round: {token!r}")
    seat = Seat.FIRST if game["seat"] == "w" else Seat.SECOND
    return RoundRecord(RESULTS[game["result"]], int(game["opponent"]), seat)
