"""The full state of a Cargo Express game between two decisions: the engine's one state type.

A :class:`Position` is mutable and cheap to copy. Seats are numbered 1..n as in the
notation; the per-seat lists are indexed ``seat - 1``. Applying a step never validates:
:mod:`express.moves` checks a decision first (or takes it from the legal list).

A position read from a PUBLIC view has ``hidden`` set (the counts that replace the bag, the
contract deck, other seats' open contracts and plans); such a position can be shown but not
played until :func:`express.determinize.determinize` fills the hidden parts in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import express.events as ev
from express.memo import Memo
from express.rng import SplitMix64
from express.rules import (
    CAPACITY,
    CAR_RANK,
    CARD_CLASS,
    CARS_PER_COLOUR,
    COLOURS,
    CONTRACT_IDS,
    CONTRACTS,
    CURRENT_RULES,
    ENGINES,
    FACTORY_SPACES,
    MAX_ROUNDS,
    OTHER_PIECES,
    OTHER_SPACES,
    REFIT,
    RULES_VERSIONS,
    SPACES,
    sort_cars,
)

Events = list[ev.Event] | None


@dataclass
class Hidden:
    """The ``?`` counts of a public position (None where the part is shown)."""

    bag: int
    deck: int
    open: list[int | None] = field(default_factory=list)
    plans: list[int | None] = field(default_factory=list)


@dataclass(frozen=True)
class Result:
    """Scores, tiebreak cars, places and winners, each in seat order (rules 66–71)."""

    scores: tuple[int, ...]
    tiebreak: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]

    def as_dict(self) -> dict[str, list[int]]:
        return {"scores": list(self.scores), "tiebreak": list(self.tiebreak),
                "places": list(self.places), "winners": list(self.winners)}


class Position:
    """Board, bag, deck, seats, characters, plans, stationmaster, round, phase and flags.

    - ``board``: 14 piece names for spaces 0..13 (``X1`` … ``R``); ``cars[p]`` the cars on
      complex ``p`` from spot 1.
    - ``bag``: the draw order, next first; ``deck``: contract ids, top first.
    - per seat: ``engine`` (0..3 = A..D), ``loc``, ``train`` (from the engine back),
      ``yard`` (sorted), ``open`` (unfulfilled ids in the order received), ``done``
      ((id, cars) in the order fulfilled), ``resigned``, ``chars`` (None or a character),
      ``plans`` (unrevealed cards, top first).
    - ``driver_used`` marks the Driver card face down (``Dr*``).
    - ``phase`` is one of ``c p a r o`` with ``k`` the picks made (``c``) or turns taken
      (``a``); ``flag_e``/``flag_l`` the flags of rules 62–64.
    - ``resign_order``: seats in the order they resigned (rule 71; not in the notation, a
      parsed position lists its dormant seats in seat order).
    - ``rules``: the rules version the game keeps (``x0.1`` or ``x0.2``, notation field 11):
      it decides rule 46, the Engineer. It is part of the position, never a global switch.
    """

    __slots__ = (
        "n", "board", "cars", "bag", "deck", "engine", "loc", "train", "yard", "open",
        "done", "resigned", "chars", "driver_used", "plans", "sm", "round", "phase", "k",
        "flag_e", "flag_l", "resign_order", "hidden", "rules",
    )

    def __init__(self, n: int, rules: str = CURRENT_RULES) -> None:
        self.n = n
        self.rules = rules
        self.board: tuple[str, ...] = ()
        self.cars: dict[str, str] = {}
        self.bag = ""
        self.deck: list[str] = []
        self.engine = [0] * n
        self.loc = [0] * n
        self.train = [""] * n
        self.yard = [""] * n
        self.open: list[list[str]] = [[] for _ in range(n)]
        self.done: list[list[tuple[str, str]]] = [[] for _ in range(n)]
        self.resigned = [False] * n
        self.chars: list[str | None] = [None] * n
        self.driver_used = False
        self.plans: list[list[str]] = [[] for _ in range(n)]
        self.sm = 1
        self.round = 1
        self.phase = "c"
        self.k = 0
        self.flag_e = False
        self.flag_l = False
        self.resign_order: list[int] = []
        self.hidden: Hidden | None = None

    # --- copying and comparing ----------------------------------------------------------

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.n = self.n
        p.rules = self.rules
        p.board = self.board
        p.cars = dict(self.cars)
        p.bag = self.bag
        p.deck = self.deck[:]
        p.engine = self.engine[:]
        p.loc = self.loc[:]
        p.train = self.train[:]
        p.yard = self.yard[:]
        p.open = [o[:] for o in self.open]
        p.done = [d[:] for d in self.done]
        p.resigned = self.resigned[:]
        p.chars = self.chars[:]
        p.driver_used = self.driver_used
        p.plans = [q[:] for q in self.plans]
        p.sm, p.round, p.phase, p.k = self.sm, self.round, self.phase, self.k
        p.flag_e, p.flag_l = self.flag_e, self.flag_l
        p.resign_order = self.resign_order[:]
        p.hidden = None if self.hidden is None else Hidden(
            self.hidden.bag, self.hidden.deck, self.hidden.open[:], self.hidden.plans[:])
        return p

    def key(self) -> tuple[object, ...]:
        return (
            self.n, self.board, tuple(sorted(self.cars.items())), self.bag, tuple(self.deck),
            tuple(self.engine), tuple(self.loc), tuple(self.train), tuple(self.yard),
            tuple(map(tuple, self.open)), tuple(map(tuple, self.done)), tuple(self.resigned),
            tuple(self.chars), self.driver_used, tuple(map(tuple, self.plans)), self.sm,
            self.round, self.phase, self.k, self.flag_e, self.flag_l,
            tuple(self.resign_order), self.rules, self.hidden,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key()[:-1])

    def __repr__(self) -> str:
        return f"Position({format_position(self)!r})"

    # --- derived facts ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "o"

    @property
    def phase_token(self) -> str:
        return self.phase + str(self.k) if self.phase in "ca" else self.phase

    def order(self) -> list[int]:
        """The round's turn order, seat numbers from the stationmaster clockwise (rule 18)."""
        n, sm = self.n, self.sm
        return [(sm - 1 + i) % n + 1 for i in range(n)]

    def active(self, seat: int) -> bool:
        return not self.resigned[seat - 1]

    def active_count(self) -> int:
        return self.resigned.count(False)

    def capacity(self, seat: int) -> int:
        return CAPACITY[self.engine[seat - 1]]

    def complex_cars(self) -> int:
        return sum(map(len, self.cars.values()))

    def seat_to_pick(self) -> int:
        """Rule 19: the first seat in turn order that is not dormant and holds no character."""
        for s in self.order():
            if not self.resigned[s - 1] and self.chars[s - 1] is None:
                return s
        raise AssertionError("no seat left to pick")

    def turn_seat(self) -> int:
        """The seat whose turn it is in the action phase."""
        return (self.sm - 1 + self.k) % self.n + 1

    def to_move(self) -> list[int]:
        """The seats with a decision to make now (notation.md, ``to_move``)."""
        ph = self.phase
        if ph == "c":
            return [self.seat_to_pick()]
        if ph == "p":
            return [s for s in range(1, self.n + 1)
                    if not self.resigned[s - 1] and not self.plans[s - 1]]
        if ph == "a":
            return [self.turn_seat()]
        if ph == "r":
            return [self.sm]
        return []

    def held_characters(self) -> set[str]:
        return {c for c in self.chars if c is not None}

    def has(self, seat: int, character: str) -> bool:
        return self.chars[seat - 1] == character

    def driver_ready(self, seat: int) -> bool:
        return self.chars[seat - 1] == "Dr" and not self.driver_used

    def usable(self, seat: int, card: str) -> bool:
        """Rule 22: the card's letter is at most the seat's engine now."""
        return CARD_CLASS[card] <= self.engine[seat - 1]

    def twin(self, space: int) -> int:
        """The other tunnel piece of the one on ``space`` (rule 10)."""
        return tunnel_twins(self.board)[space]

    def space_of(self, piece: str) -> int:
        return self.board.index(piece)

    def swap_spaces(self) -> list[int]:
        """Rule 59: spaces the refit piece may trade with (no locomotive, no cars, not R)."""
        locs = set(self.loc)
        return [s for s, piece in enumerate(self.board)
                if piece != REFIT and s not in locs and not self.cars.get(piece)]

    # --- steps (no validation) ----------------------------------------------------------

    def refill(self, piece: str, events: Events = None, seat: int = 0) -> None:
        """Rule 38: fill the complex from the bag, left to right; flag ``e`` if it runs dry.
        ``seat`` is the seat whose action emptied the spots (0: none, as at the setup)."""
        cars = self.cars[piece]
        need = 3 - len(cars)
        if need <= 0:
            return
        take = self.bag[:need]
        if take:
            self.bag = self.bag[len(take):]
            cars += take
            self.cars[piece] = cars
            if events is not None:
                events.append(ev.Refilled(seat, space=self.space_of(piece), cars=take,
                                          bag=len(self.bag)))
        if len(take) < need and not self.flag_e:
            self.flag_e = True
            if events is not None:
                events.append(ev.BagEmpty(0))
        self.check_last_round(events)

    def check_last_round(self, events: Events = None) -> None:
        """Rule 63: with the bag-empty flag set, at most n cars on the complexes ends it."""
        if self.flag_e and not self.flag_l and self.complex_cars() <= self.n:
            self.flag_l = True
            if events is not None:
                events.append(ev.LastRound(0, round=self.round))

    def attach(self, seat: int, spots: tuple[int, ...], special: bool,
               events: Events = None) -> None:
        """Rules 36, 41–42: the cars at these spots (1-based, in this order) go on the rear."""
        i = seat - 1
        piece = self.board[self.loc[i]]
        cars = self.cars[piece]
        taken = "".join(cars[s - 1] for s in spots)
        self.train[i] += taken
        self.cars[piece] = "".join(c for j, c in enumerate(cars, 1) if j not in spots)
        if events is not None:
            events.append(ev.CarsAttached(seat, space=self.loc[i], spots=spots, cars=taken,
                                          special=special))
        self.refill(piece, events, seat)

    def exchange(self, seat: int, events: Events = None) -> None:
        """Rule 44: the rear car for the complex's leftmost; it goes in the first empty spot."""
        i = seat - 1
        piece = self.board[self.loc[i]]
        cars, train = self.cars[piece], self.train[i]
        given, taken = train[-1], cars[0]
        self.train[i] = train[:-1] + taken
        self.cars[piece] = cars[1:] + given
        if events is not None:
            events.append(ev.Exchanged(seat, space=self.loc[i], given=given, taken=taken))

    def uncouple(self, seat: int, positions: tuple[int, ...], events: Events = None) -> None:
        """Rules 45–46: the cars at these train positions (1-based) go to the yard."""
        i = seat - 1
        train = self.train[i]
        off = "".join(train[p - 1] for p in positions)
        self.train[i] = "".join(c for j, c in enumerate(train, 1) if j not in positions)
        self.yard[i] = sort_cars(self.yard[i] + off)
        if events is not None:
            events.append(ev.Uncoupled(seat, positions=positions, cars=off))

    def sign(self, seat: int, choice: int, events: Events = None) -> None:
        """Rule 48: draw two (or the last one), keep ``choice`` (0: put the one card back)."""
        i = seat - 1
        deck = self.deck
        drawn = tuple(deck[:2])
        del deck[:2]
        kept = drawn[choice - 1] if choice else None
        back = [c for c in drawn if c != kept]
        deck.extend(back)
        if kept is not None:
            self.open[i].append(kept)
        if events is not None:
            events.append(ev.ContractSigned(seat, choice=choice, deck=len(deck)))
            events.append(ev.ContractsDrawn(seat, drawn=drawn, kept=kept,
                                            returned=back[0] if back else None, only=(seat,)))

    def fulfil(self, seat: int, contract: str, cars: str, events: Events = None) -> None:
        """Rule 51: these cars (sorted) go from the yard onto the contract."""
        i = seat - 1
        yard = self.yard[i]
        for c in cars:
            yard = yard.replace(c, "", 1)
        self.yard[i] = yard
        self.open[i].remove(contract)
        self.done[i].append((contract, cars))
        if events is not None:
            events.append(ev.Fulfilled(seat, contract=contract, cars=cars,
                                       value=CONTRACTS[contract][1]))

    def reorder(self, space: int, cars: str, events: Events = None, seat: int = 0) -> None:
        """The Engineer's reorder: the complex on ``space`` now holds ``cars`` in this
        order; ``seat`` is the seat that reordered it."""
        piece = self.board[space]
        before = self.cars[piece]
        self.cars[piece] = cars
        if events is not None:
            events.append(ev.Reordered(seat, space=space, before=before, after=cars))

    # --- phase changes ------------------------------------------------------------------

    def next_active_after(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is not dormant."""
        for d in range(1, self.n + 1):
            s = (seat - 1 + d) % self.n + 1
            if not self.resigned[s - 1]:
                return s
        return seat

    def end_turn(self, events: Events = None) -> None:
        """One turn of the action phase is over; rules 56–58 and 65 after the last."""
        self.k += 1
        if self.k < 3 * self.n:
            return
        self.k = 0
        if self.flag_l:
            self.phase = "o"
        else:
            self.chars = [None] * self.n
            self.driver_used = False
            self.sm = self.next_active_after(self.sm)
            self.phase = "r"
            if events is not None:
                events.append(ev.RoundEnded(0, round=self.round, stationmaster=self.sm))
        if events is not None:
            events.append(ev.PhaseChanged(0, round=self.round, phase=self.phase_token))

    def swap(self, space: int, events: Events = None) -> None:
        """Rule 60: the refit piece and the piece on ``space`` trade places; next round."""
        board = list(self.board)
        r = board.index(REFIT)
        piece = board[space]
        board[r], board[space] = piece, REFIT
        self.board = tuple(board)
        if events is not None:
            events.append(ev.Swapped(self.sm, refit_from=r, refit_to=space, piece=piece))
        self.round += 1
        self.phase, self.k = "c", 0
        if self.round >= MAX_ROUNDS and not self.flag_l:
            self.flag_l = True
            if events is not None:
                events.append(ev.LastRound(0, round=self.round))
        if events is not None:
            events.append(ev.PhaseChanged(0, round=self.round, phase="c0"))

    def pick(self, character: str, events: Events = None) -> None:
        seat = self.seat_to_pick()
        self.chars[seat - 1] = character
        self.k += 1
        if events is not None:
            events.append(ev.Picked(seat, character=character))
        self._selection_over(events)

    def _selection_over(self, events: Events) -> None:
        if all(r or c is not None for r, c in zip(self.resigned, self.chars, strict=True)):
            self.phase, self.k = "p", 0
            if events is not None:
                events.append(ev.PhaseChanged(0, round=self.round, phase="p"))

    def commit(self, seat: int, cards: tuple[str, ...], events: Events = None) -> None:
        self.plans[seat - 1] = list(cards)
        if events is not None:
            events.append(ev.PlanCommitted(seat))
            events.append(ev.PlanChosen(seat, cards=cards, only=(seat,)))
        self._planning_over(events)

    def _planning_over(self, events: Events) -> None:
        if all(r or bool(p) for r, p in zip(self.resigned, self.plans, strict=True)):
            self.phase, self.k = "a", 0
            if events is not None:
                events.append(ev.PhaseChanged(0, round=self.round, phase="a0"))

    def resign(self, seat: int, events: Events = None) -> None:
        """Rule 77: the seat goes dormant; the game ends if only one seat is left."""
        i = seat - 1
        self.resigned[i] = True
        self.resign_order.append(seat)
        self.plans[i] = []
        if events is not None:
            events.append(ev.Resigned(seat))
        if self.active_count() <= 1:
            self.phase, self.k = "o", 0
            if events is not None:
                events.append(ev.PhaseChanged(0, round=self.round, phase="o"))
        elif self.phase == "c":
            self._selection_over(events)
        elif self.phase == "p":
            self._planning_over(events)
        elif self.phase == "r" and self.sm == seat:
            self.sm = self.next_active_after(seat)

    # --- scoring ------------------------------------------------------------------------

    def scored_cars(self, seat: int) -> str:
        i = seat - 1
        return self.yard[i] + "".join(cars for _, cars in self.done[i])

    def score(self, seat: int) -> tuple[int, int]:
        """Rules 66–69: (total, tiebreak cars) of a seat."""
        i = seat - 1
        cars = self.scored_cars(seat)
        sets = min(cars.count(c) for c in COLOURS)
        total = len(cars) + 5 * sets
        total += sum(CONTRACTS[c][1] for c, _ in self.done[i]) - 2 * len(self.open[i])
        return total, len(cars) + len(self.train[i])

    def result(self) -> Result:
        """Scores, tiebreak, places and winners (rules 66–71), whether or not the game is over."""
        n = self.n
        st = [self.score(s) for s in range(1, n + 1)]
        places = [0] * n
        live = [s for s in range(1, n + 1) if not self.resigned[s - 1]]
        for s in live:
            places[s - 1] = 1 + sum(1 for t in live if st[t - 1] > st[s - 1])
        for k, s in enumerate(self.resign_order, 1):
            places[s - 1] = n - k + 1
        return Result(
            scores=tuple(t for t, _ in st),
            tiebreak=tuple(b for _, b in st),
            places=tuple(places),
            winners=tuple(s for s in live if places[s - 1] == 1),
        )

    # --- the cars, for checks -----------------------------------------------------------

    def shown_cars(self) -> str:
        """Every car outside the bag."""
        parts = list(self.cars.values()) + self.train + self.yard
        parts += [cars for d in self.done for _, cars in d]
        return "".join(parts)


_TWINS: Memo[tuple[str, ...], dict[int, int]] = Memo(1_000)


def tunnel_twins(board: tuple[str, ...]) -> dict[int, int]:
    """Space of each tunnel piece -> the space of its twin (rule 10), cached per board."""
    twins = _TWINS.get(board)
    if twins is None:
        where: dict[str, list[int]] = {}
        for s, piece in enumerate(board):
            if piece[0] == "T":
                where.setdefault(piece, []).append(s)
        twins = {}
        for a, b in where.values():
            twins[a], twins[b] = b, a
        _TWINS.keep(board, twins)
    return twins


def start_position(players: int, seed: int, rules: str = CURRENT_RULES,
                   first: int | None = None) -> Position:
    """The start of rules 13–16 for 2..4 players and an unsigned 64-bit seed, in rules
    version ``rules`` (the setup is the same in every version).

    ``first`` (1..players) is the seat given the stationmaster card, the start player the
    players determine (setup step 9: a tournament seats its players so that each table's
    seat 1 starts); None draws it from the seed. The rest of the deal is the seed's
    either way."""
    if not 2 <= players <= 4:
        raise ValueError("Cargo Express has 2 to 4 players")
    if first is not None and not 1 <= first <= players:
        raise ValueError(f"the first stationmaster is a seat 1..{players}, not {first!r}")
    if rules not in RULES_VERSIONS:
        raise ValueError(f"unknown rules version {rules!r}")
    rng = SplitMix64(seed)
    p = Position(players, rules)
    ids = rng.shuffle(list(CONTRACT_IDS))
    for i in range(players):
        p.open[i] = [ids[i]]
    p.deck = ids[players:]
    board: list[str] = [""] * SPACES
    for space, piece in zip(FACTORY_SPACES, rng.shuffle(["Fr", "Fb", "Fg", "Fn", "Fw"]),
                            strict=True):
        board[space] = piece
    for space, piece in zip(OTHER_SPACES, rng.shuffle(list(OTHER_PIECES)), strict=True):
        board[space] = piece
    p.board = tuple(board)
    bag = rng.shuffle([c for c in COLOURS for _ in range(CARS_PER_COLOUR)])
    p.bag = "".join(bag)
    for piece in board:
        if piece[0] == "X":
            p.cars[piece] = ""
    for piece in board:
        if piece[0] == "X":
            p.refill(piece)
    drawn = rng.next() % players + 1
    p.sm = drawn if first is None else first
    p.loc = [board.index(f"X{s}") for s in range(1, players + 1)]
    return p


def car_key(cars: str) -> tuple[int, ...]:
    return tuple(CAR_RANK[c] for c in cars)


# --- the position written in notation (notation.md; read back by express.notation) -------


def format_position(p: Position, viewer: int | None = None) -> str:
    """The one-line position: full (``viewer`` None), or as seat ``viewer`` sees it.

    Seat 0 is a spectator. Once the game is over every view is the full form (rule 76).
    A position read from a public view (``p.hidden``) is written with its ``?`` counts.
    """
    h = p.hidden
    if viewer is not None and p.phase == "o" and h is None:
        viewer = None
    n = p.n
    board = "/".join(piece + p.cars.get(piece, "") for piece in p.board)
    if h is not None:
        bag, deck = f"?{h.bag}", f"?{h.deck}"
    elif viewer is not None:
        bag, deck = f"?{len(p.bag)}", f"?{len(p.deck)}"
    else:
        bag, deck = p.bag or "-", ".".join(p.deck) or "-"
    seats = []
    plans = []
    for i in range(n):
        seat = i + 1
        own = viewer is None or viewer == seat
        hidden_open = h.open[i] if h is not None else None
        if hidden_open is not None:
            opened = f"?{hidden_open}"
        elif own:
            opened = ",".join(p.open[i]) or "-"
        else:
            opened = f"?{len(p.open[i])}"
        done = ",".join(f"{c}={cars}" for c, cars in p.done[i]) or "-"
        seats.append(f"{ENGINES[p.engine[i]]}@{p.loc[i]}:{p.train[i] or '-'}:"
                     f"{p.yard[i] or '-'}:{opened}:{done}{'!' if p.resigned[i] else ''}")
        hidden_plan = h.plans[i] if h is not None else None
        if hidden_plan is not None:
            plans.append("?" * hidden_plan or "-")
        elif own:
            plans.append("".join(p.plans[i]) or "-")
        else:
            plans.append("?" * len(p.plans[i]) or "-")
    chars = "/".join(("Dr*" if c == "Dr" and p.driver_used else c) if c else "-"
                     for c in p.chars)
    flags = ("e" if p.flag_e else "") + ("l" if p.flag_l else "") or "-"
    return " ".join([board, bag, deck, "/".join(seats), chars, "/".join(plans), str(p.sm),
                     str(p.round), p.phase_token, flags, p.rules])
