"""The legal decisions of a position, listed: every one in canonical written form.

- :func:`legal` lists every legal decision now, sorted by code point (notation.md fine
  point 6, the CLI's ``legal``); :func:`legal_turns` the action phase's turns, with
  ``blind`` for bots that decide on a determinized view.
- The fulfils a seat can make from its yard (:func:`placements`, :func:`take`,
  :func:`fulfil_options`, the Manager's one replaced car of rules 51–52) and the other
  orders of a complex's cars (:func:`reorders`, rule 53), which the lists are built from
  and the checks in :mod:`express.moves` and the playouts in :mod:`express.fast` read.

The lists are generated apart from the checks (:mod:`express.moves`); the property tests
check that exactly the listed tokens are accepted.
"""

from __future__ import annotations

from itertools import permutations

from express.memo import Memo
from express.movement import movements
from express.position import Position
from express.rules import (
    CHARACTERS,
    COLOURS,
    CONTRACTS,
    SPACES,
    engineer_any_colour,
    sort_cars,
)

_PLACEMENTS: dict[tuple[str, bool], list[tuple[str, str]]] = {}


def placements(contract: str, manager: bool) -> list[tuple[str, str]]:
    """(cars placed, written step) for every way to fulfil a contract (rules 51–52)."""
    key = (contract, manager)
    out = _PLACEMENTS.get(key)
    if out is None:
        card = CONTRACTS[contract][0]
        out = [(card, f".f{contract}")]
        if manager:
            seen = {card}
            for x in sorted(set(card)):
                base = card.replace(x, "", 1)
                for y in COLOURS:
                    cars = sort_cars(base + y)
                    if y != x and cars not in seen:
                        seen.add(cars)
                        out.append((cars, f".f{contract}={cars}"))
        _PLACEMENTS[key] = out
    return out


def take(yard: str, cars: str) -> str | None:
    """The yard without these cars, or None if it does not hold them."""
    for c in cars:
        j = yard.find(c)
        if j < 0:
            return None
        yard = yard[:j] + yard[j + 1:]
    return yard


def fulfil_options(yard: str, contracts: list[str], manager: bool) -> list[tuple[str, str]]:
    """(written fulfil steps, yard left) for every choice of fulfils, none included."""
    return list(_fulfil_table(yard, tuple(contracts), manager))


#: At most this many fulfil tables are kept; the memo then starts over.
FULFIL_CACHE = 20_000
_FULFILS: Memo[tuple[str, tuple[str, ...], bool], tuple[tuple[str, str], ...]] = \
    Memo(FULFIL_CACHE)


def _fulfil_table(yard: str, contracts: tuple[str, ...],
                  manager: bool) -> tuple[tuple[str, str], ...]:
    """:func:`fulfil_options` as a tuple, remembered: it depends on its (immutable)
    arguments alone, and every legal list asks it several times for the same yard."""
    key = (yard, contracts, manager)
    found = _FULFILS.get(key)
    if found is not None:
        return found
    opts = [("", yard)]
    if len(yard) >= 2 and contracts:
        for cid in sorted(contracts):
            more = []
            for steps, y in opts:
                for cars, step in placements(cid, manager):
                    left = take(y, cars)
                    if left is not None:
                        more.append((steps + step, left))
            opts += more
    return _FULFILS.keep(key, tuple(opts))


_REORDERS: dict[str, list[str]] = {}


def reorders(cars: str) -> list[str]:
    """Every other order of a complex's cars (rule 53), sorted."""
    out = _REORDERS.get(cars)
    if out is None:
        out = sorted({"".join(q) for q in permutations(cars)} - {cars})
        _REORDERS[cars] = out
    return out


def legal(p: Position) -> list[str]:
    """Every legal decision now, canonical and sorted (the CLI's ``legal``)."""
    ph = p.phase
    if ph == "c":
        held = p.held_characters()
        return [c for c in CHARACTERS if c not in held]
    if ph == "a":
        return legal_turns(p)
    if ph == "r":
        return sorted(f"R{s}" for s in p.swap_spaces())
    return []


def legal_turns(p: Position, *, blind: bool = False) -> list[str]:
    """Every legal turn of the seat to move in the action phase (fine point 6).

    ``blind`` (for bots that decide on a determinized view) leaves out the turns whose
    legality hangs on what the view hides: reorders (their cars may have come from the
    bag), any sign but ``s1`` (``s2`` is the same blind draw, ``s0`` does nothing) and
    fulfils after a sign (they name the card drawn). The rest keep their sorted order:
    the list is exactly the full one without those.
    """
    seat = p.turn_seat()
    i = seat - 1
    if p.resigned[i]:
        return ["-:~"]
    card = p.plans[i][0]
    if not p.usable(seat, card):
        return [card + ":~"]
    moves = movements(p, seat, card)
    if not moves:
        return [card + ":~"]
    out: list[str] = []
    _turns_from(p, seat, moves, card + ":", out, blind)
    piece = p.board[p.loc[i]]
    if piece[0] == "X" and p.cars[piece] and len(p.train[i]) < p.capacity(seat):
        q = p.copy()
        q.attach(seat, (1,), True)
        _turns_from(q, seat, moves, card + ":^.", out, blind)
    out.sort()
    return out


def _turns_from(p: Position, seat: int, moves: list[tuple[int, str, bool]], prefix: str,
                out: list[str], blind: bool = False) -> None:
    i = seat - 1
    board = p.board
    train = p.train[i]
    length = len(train)
    room = p.capacity(seat) - length
    yard = p.yard[i]
    held = p.open[i]
    char = p.chars[i]
    manager = char == "Ma"
    logistician = char == "Lo"
    engineer = char == "En"
    any_colour = engineer_any_colour(p.rules)
    own = f"X{seat}"
    can_upgrade = p.engine[i] < 3
    common = [""]
    for s, piece in enumerate(board if not blind else ()):
        cars = p.cars.get(piece)
        if cars and len(cars) >= 2:
            common += [f".o{s}={order}" for order in reorders(cars)]
    held_t = tuple(held)
    options = _fulfil_table(yard, held_t, manager)
    fulfils = [steps for steps, _ in options]
    deck = p.deck
    signs: list[str] = []
    if deck:
        choices: tuple[tuple[int, str], ...] = ((1, ""),) if blind else \
            ((1, deck[0]), (2, deck[1])) if len(deck) >= 2 else ((1, deck[0]), (0, ""))
        for steps, left in options:
            if len(held) - steps.count(".f") > 1:
                continue
            for choice, kept in choices:
                signed = f"{steps}.s{choice}"
                signs.append(signed)
                if kept:
                    signs += [signed + more for more, _ in
                              _fulfil_table(left, (kept,), manager)[1:]]
    # Suffixes open at every end space, with their fulfils: none, reorders, signs.
    shared = [a + f for a in common for f in fulfils] + signs
    for end, path, _driver in moves:
        head = prefix + path
        piece = board[end]
        out += [head + s for s in shared]
        acts: list[str] = []
        if board[end - 1] != "R":
            acts.append(".e<")
        if board[(end + 1) % SPACES] != "R":
            acts.append(".e>")
        kind = piece[0]
        if kind == "T":
            acts.append(".et")
        elif kind == "X":
            cars = p.cars[piece]
            m = len(cars)
            for j in range(1, min(m, room) + 1):
                if logistician:
                    acts += [".a" + "".join(map(str, q)) for q in permutations(range(1, m + 1), j)]
                else:
                    acts.append(".a" + "123"[:j])
            if piece == own and can_upgrade:
                acts.append(".u")
            if m and length:
                acts.append(".x")
        elif kind == "F" and length:
            colour = piece[1]
            if engineer and any_colour:  # rule 46 in x0.1: any cars, any colour
                subsets = [tuple(b + 1 for b in range(length) if mask >> b & 1)
                           for mask in range(1, 1 << length)]
            elif engineer:  # rule 46 in x0.2: any cars of the factory's colour
                same = [b + 1 for b in range(length) if train[b] == colour]
                subsets = [tuple(q for j, q in enumerate(same) if mask >> j & 1)
                           for mask in range(1, 1 << len(same))]
            else:
                run = length - len(train.rstrip(colour))
                subsets = [tuple(range(length - j + 1, length + 1)) for j in range(1, run + 1)]
            for pos in subsets:
                off = "".join(train[q - 1] for q in pos)
                step = head + ".d" + "".join(map(str, pos))
                new_yard = sort_cars(yard + off)
                out += [step + more for more, _ in _fulfil_table(new_yard, held_t, manager)]
        out += [head + a + f for a in acts for f in fulfils]
