"""Positions in the notation of notation.md: full and public forms, written and read.

:func:`format_position` writes the full form, or with ``viewer`` the public form a seat
(0: a spectator) may be sent. :func:`parse_position` reads either form and rejects every
malformed position of notation.md's list with an :class:`ExpressError` naming the field.
"""

from __future__ import annotations

import re

from express.errors import ExpressError
from express.position import Hidden, Position
from express.position import format_position as format_position  # written beside Position
from express.rules import (
    CAPACITY,
    CARD_SET,
    CARS_PER_COLOUR,
    CHARACTERS,
    COLOURS,
    CONTRACT_IDS,
    CONTRACTS,
    ENGINES,
    FACTORY_SPACES,
    MAX_ROUNDS,
    PIECES,
    RULES_VERSIONS,
    SPACES,
    one_substitution_apart,
    sort_cars,
)

# --- writing ------------------------------------------------------------------------------
# A position writes itself (express.position.format_position, as python-chess's Board writes
# its FEN), so that the two modules import one way; offered here beside the reading.


# --- reading ------------------------------------------------------------------------------

_PIECE = re.compile(r"(X[1-4]|F[rbgnw]|T[12]|R)([rbgnw]*)")
_SEAT = re.compile(r"([ABCD])@(0|[1-9][0-9]*):([^:]*):([^:]*):([^:]*):([^:!]*)(!?)")
_CARS = re.compile(r"[rbgnw]+")
_COUNT = re.compile(r"\?(0|[1-9][0-9]*)")
_NUMBER = re.compile(r"0|[1-9][0-9]*")
_DONE = re.compile(r"(\d\d)=([rbgnw]+)")
_PHASE = re.compile(r"([ca])(0|[1-9][0-9]*)|[pro]")


def _bad(why: str) -> ExpressError:
    return ExpressError(f"malformed position: {why}")


def _cars(text: str, what: str) -> str:
    if text == "-":
        return ""
    if not _CARS.fullmatch(text):
        raise _bad(f"{what} {text!r} is not a list of cars (r b g n w) or -")
    return text


def _contract(cid: str, what: str) -> str:
    if cid not in CONTRACTS:
        raise _bad(f"{what}: {cid!r} is not a contract id (01..18)")
    return cid


def parse_position(text: str) -> Position:
    """Read a full or public position; raise ExpressError naming what is malformed."""
    if not isinstance(text, str):
        raise ExpressError("malformed position: a position is text")
    fields = text.split(" ")
    if len(fields) != 11:
        raise _bad(f"expected 11 fields separated by single spaces, found {len(fields)}")
    board_f, bag_f, deck_f, seats_f, chars_f, plans_f, sm_f, round_f, phase_f, flags_f, ver = \
        fields
    if ver not in RULES_VERSIONS:
        raise _bad(f"rules version {ver!r} is neither x0.2 nor x0.1")
    seat_texts = seats_f.split("/")
    n = len(seat_texts)
    if not 2 <= n <= 4:
        raise _bad(f"{n} seats (a game has 2 to 4)")
    p = Position(n, ver)
    hidden = Hidden(0, 0, [None] * n, [None] * n)
    public = False

    # board
    squares = board_f.split("/")
    if len(squares) != SPACES:
        raise _bad(f"the board has {len(squares)} spaces, not {SPACES}")
    board = []
    for s, sq in enumerate(squares):
        m = _PIECE.fullmatch(sq)
        if not m:
            raise _bad(f"space {s}: {sq!r} is not a piece (X1..X4, Fr Fb Fg Fn Fw, "
                             f"T1 T2, R)")
        piece, cars = m.group(1), m.group(2)
        if cars and piece[0] != "X":
            raise _bad(f"space {s}: {sq!r}: only a complex holds cars")
        if len(cars) > 3:
            raise _bad(f"space {s}: complex {sq!r} holds more than 3 cars")
        board.append(piece)
        if piece[0] == "X":
            p.cars[piece] = cars
    if sorted(board) != sorted(PIECES):
        raise _bad(f"board {board_f!r} does not hold exactly the 14 pieces of rules.md 3")
    p.board = tuple(board)

    # bag and deck
    if bag_f.startswith("?"):
        m = _COUNT.fullmatch(bag_f)
        if not m:
            raise _bad(f"bag {bag_f!r} is not a list of cars, - or ?N")
        hidden.bag, public = int(m.group(1)), True
    else:
        p.bag = _cars(bag_f, "bag")
    if deck_f.startswith("?"):
        m = _COUNT.fullmatch(deck_f)
        if not m:
            raise _bad(f"contract deck {deck_f!r} is not ids joined by ., - or ?N")
        hidden.deck, public = int(m.group(1)), True
    elif deck_f != "-":
        p.deck = [_contract(c, "contract deck") for c in deck_f.split(".")]

    # seats
    for i, st in enumerate(seat_texts):
        seat = i + 1
        m = _SEAT.fullmatch(st)
        if not m:
            raise _bad(f"seat {seat} {st!r} is not E@S:TRAIN:YARD:OPEN:DONE")
        eng, loc, train, yard, opened, done, bang = m.groups()
        p.engine[i] = ENGINES.index(eng)
        if int(loc) >= SPACES:
            raise _bad(f"seat {seat}: space {loc} is not on the board (0..13)")
        p.loc[i] = int(loc)
        p.train[i] = _cars(train, f"seat {seat}'s train")
        p.yard[i] = sort_cars(_cars(yard, f"seat {seat}'s yard"))
        if opened.startswith("?"):
            mc = _COUNT.fullmatch(opened)
            if not mc:
                raise _bad(f"seat {seat}: open contracts {opened!r} are not ids, - or ?N")
            hidden.open[i], public = int(mc.group(1)), True
        elif opened != "-":
            p.open[i] = [_contract(c, f"seat {seat}'s open contracts")
                         for c in opened.split(",")]
        if done != "-":
            for item in done.split(","):
                md = _DONE.fullmatch(item)
                if not md:
                    raise _bad(f"seat {seat}: fulfilled contract {item!r} is not id=cars")
                cid = _contract(md.group(1), f"seat {seat}'s fulfilled contracts")
                p.done[i].append((cid, sort_cars(md.group(2))))
        p.resigned[i] = bang == "!"

    # characters and plans
    chars = chars_f.split("/")
    if len(chars) != n:
        raise _bad(f"{len(chars)} characters for {n} seats")
    for i, c in enumerate(chars):
        if c == "-":
            continue
        if c == "Dr*":
            p.driver_used = True
            c = "Dr"
        elif c not in CHARACTERS:
            raise _bad(f"character {c!r} is not Lo En Me Dr Dr* Ma or -")
        if c in p.chars:
            raise _bad(f"character {c} is held twice")
        p.chars[i] = c
    plans = plans_f.split("/")
    if len(plans) != n:
        raise _bad(f"{len(plans)} plans for {n} seats")
    for i, pl in enumerate(plans):
        if pl == "-":
            continue
        if set(pl) == {"?"}:
            if len(pl) > 3:
                raise _bad(f"plan {pl!r} holds more than 3 cards")
            hidden.plans[i], public = len(pl), True
            continue
        cards = re.findall(r"[ABC][1-6]|D", pl)
        if "".join(cards) != pl or not all(c in CARD_SET for c in cards):
            raise _bad(f"plan {pl!r} is not planning cards (A1 A2 A3 B3 B4 C4 C5 C6 D)")
        if len(set(cards)) != len(cards):
            raise _bad(f"plan {pl!r} holds a card twice")
        if len(cards) > 3:
            raise _bad(f"plan {pl!r} holds more than 3 cards")
        p.plans[i] = cards

    # stationmaster, round, phase, flags
    if not _NUMBER.fullmatch(sm_f) or not 1 <= int(sm_f) <= n:
        raise _bad(f"stationmaster {sm_f!r} is not a seat (1..{n})")
    p.sm = int(sm_f)
    if not _NUMBER.fullmatch(round_f) or not 1 <= int(round_f) <= MAX_ROUNDS:
        raise _bad(f"round {round_f!r} is not 1..{MAX_ROUNDS}")
    p.round = int(round_f)
    mp = _PHASE.fullmatch(phase_f)
    if not mp:
        raise _bad(f"phase {phase_f!r} is not cK, p, aK, r or o")
    p.phase = phase_f[0]
    p.k = int(mp.group(2)) if mp.group(2) is not None else 0
    if flags_f not in ("-", "e", "l", "el"):
        raise _bad(f"flags {flags_f!r} are not -, e, l or el")
    p.flag_e, p.flag_l = "e" in flags_f, "l" in flags_f
    if public:
        p.hidden = hidden
    _check(p)
    p.resign_order = [s for s in range(1, n + 1) if p.resigned[s - 1]]
    return p


def _check(p: Position) -> None:
    """The consistency checks of notation.md's list (grammar is already checked)."""
    n, h = p.n, p.hidden
    if p.round == 1:
        for s, piece in enumerate(p.board):
            if piece[0] == "F" and s not in FACTORY_SPACES:
                raise _bad(f"factory {piece} stands on space {s} in round 1 (factories "
                               f"start on 0, 3, 6, 9, 11)")
    for i in range(n):
        if len(p.train[i]) > CAPACITY[p.engine[i]]:
            raise _bad(f"seat {i + 1}'s train {p.train[i]!r} is longer than engine "
                           f"{ENGINES[p.engine[i]]} can haul")
    shown = p.shown_cars()
    per = [shown.count(c) + p.bag.count(c) for c in COLOURS]
    if h is None:
        if per != [CARS_PER_COLOUR] * 5:
            raise _bad("the cars do not add up to 9 of each colour (" + ", ".join(
                f"{k} {c}" for c, k in zip(COLOURS, per, strict=True)) + ")")
    else:
        if max(per) > CARS_PER_COLOUR or len(shown) + h.bag != 5 * CARS_PER_COLOUR:
            raise _bad("the cars shown and the bag count do not make 45, 9 of each colour")
    ids = list(p.deck) + [c for o in p.open for c in o] + [c for d in p.done for c, _ in d]
    if len(set(ids)) != len(ids):
        dup = next(c for c in ids if ids.count(c) > 1)
        raise _bad(f"contract {dup} is found twice")
    if h is None:
        missing = [c for c in CONTRACT_IDS if c not in ids]
        if missing:
            raise _bad(f"contract {missing[0]} is missing")
    else:
        total = len(ids) + h.deck + sum(x or 0 for x in h.open)
        if total != len(CONTRACT_IDS):
            raise _bad(f"the contracts shown and counted make {total}, not 18")
    for i in range(n):
        count = len(p.open[i]) if h is None or h.open[i] is None else h.open[i]
        if count is not None and count > 2:
            raise _bad(f"seat {i + 1} holds more than 2 open contracts")
        for cid, cars in p.done[i]:
            if cars != CONTRACTS[cid][0] and not one_substitution_apart(CONTRACTS[cid][0], cars):
                raise _bad(f"fulfilled contract {cid}={cars} differs from its card "
                               f"{CONTRACTS[cid][0]} by more than one car")
        if p.board[p.loc[i]] == "R":
            raise _bad(f"seat {i + 1}'s locomotive stands on the refit piece")
    if p.round == MAX_ROUNDS and not p.flag_l:
        raise _bad("round 30 is always the last round (flag l)")
    bag_len = len(p.bag) if h is None else h.bag
    if p.flag_e and bag_len:
        raise _bad("flag e is set while the bag is not empty")
    if p.flag_l and not p.flag_e and p.round < MAX_ROUNDS:
        raise _bad("flag l is set without e before round 30")
    if p.flag_e and p.complex_cars() <= n and not p.flag_l:
        raise _bad("flag e is set and the complexes hold at most n cars, but l is not set")
    active = [i for i in range(n) if not p.resigned[i]]
    ph = p.phase
    if len(active) < 2 and ph != "o":
        raise _bad("fewer than 2 seats are not dormant, so the game must be over (o)")

    def plan_len(i: int) -> int:
        x = h.plans[i] if h is not None else None
        return len(p.plans[i]) if x is None else x

    held = [c is not None for c in p.chars]
    if p.driver_used and ph not in "ao":
        raise _bad("Dr* (the Driver used) outside the action phase")
    if ph == "c":
        if p.k != sum(held):
            raise _bad(f"phase c{p.k} but {sum(held)} characters are held")
        if all(held[i] for i in active):
            raise _bad("character selection is over: every seat holds a character")
        if any(plan_len(i) for i in range(n)):
            raise _bad("a plan is held during character selection")
    elif ph in "pa":
        if any(not held[i] for i in active):
            raise _bad("a seat that is not dormant holds no character")
        if ph == "p":
            for i in range(n):
                if plan_len(i) not in (0, 3):
                    raise _bad(f"seat {i + 1}'s plan in planning is neither - nor 3 cards")
                if p.resigned[i] and plan_len(i):
                    raise _bad(f"dormant seat {i + 1} holds a plan")
            if all(plan_len(i) for i in active):
                raise _bad("planning is over: every seat has committed")
        else:
            if p.k >= 3 * n:
                raise _bad(f"phase a{p.k} but a round has only {3 * n} turns")
            order = p.order()
            for j, s in enumerate(order):
                taken = p.k // n + (1 if j < p.k % n else 0)
                want = 0 if p.resigned[s - 1] else 3 - taken
                if plan_len(s - 1) != want:
                    raise _bad(f"seat {s} should hold {want} unrevealed cards in phase "
                                   f"a{p.k}, not {plan_len(s - 1)}")
    elif ph == "r":
        if p.flag_l:
            raise _bad("the refit swap is due in the last round")
        if any(held) or any(plan_len(i) for i in range(n)):
            raise _bad("a character or plan is held while the refit swap is due")
        if p.resigned[p.sm - 1]:
            raise _bad("the stationmaster who must swap is dormant")
