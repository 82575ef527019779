"""Decision tokens, syntax only: picks, plans, turns, swaps and ``resignK`` (notation.md).

The first of three layers, as in the Cargo Connect engine: :func:`parse_decision` and
friends read a token's form and nothing else; :mod:`express.moves` checks it against a
position and applies it. Every error is an :class:`ExpressError` that quotes the token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from express.errors import ExpressError
from express.rules import CARD_SET, CHARACTERS, CONTRACTS, sort_cars


@dataclass(frozen=True)
class Pick:
    character: str

    def __str__(self) -> str:
        return self.character


@dataclass(frozen=True)
class Plan:
    """Three different planning cards, top (first turn) first; ``cards`` empty for ``-``."""

    cards: tuple[str, ...]

    def __str__(self) -> str:
        return "".join(self.cards) or "-"


@dataclass(frozen=True)
class Fulfil:
    """``f06`` (``cars`` None: the card's own cars) or ``f06=rbn`` (the Manager's cars)."""

    contract: str
    cars: str | None = None

    def __str__(self) -> str:
        return f"f{self.contract}" + (f"={self.cars}" if self.cars is not None else "")


@dataclass(frozen=True)
class Action:
    """One action step: ``kind`` is a u x d s o e; the other fields by kind.

    ``a``: ``spots`` in the order taken; ``d``: ``spots`` are train positions, rising;
    ``s``: ``choice`` 1, 2 or 0; ``o``: ``space`` and ``cars``; ``e``: ``step`` < > t.
    """

    kind: str
    spots: tuple[int, ...] = ()
    choice: int = 0
    space: int = -1
    cars: str = ""
    step: str = ""

    def __str__(self) -> str:
        k = self.kind
        if k in "ad":
            return k + "".join(map(str, self.spots))
        if k == "s":
            return f"s{self.choice}"
        if k == "o":
            return f"o{self.space}={self.cars}"
        if k == "e":
            return "e" + self.step
        return k


@dataclass(frozen=True)
class Turn:
    """``CARD:STEPS``. ``card`` is ``-`` for a dormant seat's turn; ``lost`` for ``~``.

    ``path`` holds the movement characters without the Driver's ``*`` (``driver``).
    ``pre`` are the fulfils written before a sign, ``post`` those at the end.
    """

    card: str
    lost: bool = False
    special: bool = False
    path: str = ""
    driver: bool = False
    pre: tuple[Fulfil, ...] = ()
    action: Action | None = None
    post: tuple[Fulfil, ...] = ()

    def __str__(self) -> str:
        if self.lost:
            return f"{self.card}:~"
        parts = ["^"] if self.special else []
        parts.append(self.path + ("*" if self.driver else ""))
        parts += [str(f) for f in self.pre]
        if self.action is not None:
            parts.append(str(self.action))
        parts += [str(f) for f in self.post]
        return f"{self.card}:" + ".".join(parts)


@dataclass(frozen=True)
class Swap:
    space: int

    def __str__(self) -> str:
        return f"R{self.space}"


@dataclass(frozen=True)
class Resign:
    seat: int

    def __str__(self) -> str:
        return f"resign{self.seat}"


Decision = Pick | Plan | Turn | Swap | Resign

_CARD = re.compile(r"[ABC][1-6]|D")
_PATH = re.compile(r"([<>t]+)(\*?)")
_FULFIL = re.compile(r"f(\d\d)(?:=([rbgnw]+))?")
_SPACE = re.compile(r"0|[1-9][0-9]?")
_RESIGN = re.compile(r"resign([1-9][0-9]*)")
_SWAP = re.compile(r"R(0|[1-9][0-9]*)")


def _err(token: str, why: str) -> ExpressError:
    return ExpressError(f"bad decision {token!r}: {why}")


def parse_pick(token: str) -> Pick:
    if token not in CHARACTERS:
        raise _err(token, "a pick is a character: Dr En Lo Ma Me")
    return Pick(token)


def parse_plan(token: str) -> Plan:
    """A plan (three different cards) or ``-`` (no plan in this record)."""
    if token == "-":
        return Plan(())
    if "?" in token:
        raise _err(token, "a hidden (public) plan cannot be replayed; a record to replay "
                          "writes every plan in full")
    cards = _CARD.findall(token)
    if "".join(cards) != token or not all(c in CARD_SET for c in cards):
        raise _err(token, "a plan is three planning cards (A1 A2 A3 B3 B4 C4 C5 C6 D)")
    if len(cards) != 3:
        raise _err(token, f"a plan holds exactly 3 cards, not {len(cards)}")
    if len(set(cards)) != 3:
        raise _err(token, "a plan holds 3 different cards")
    return Plan(tuple(cards))


def parse_swap(token: str) -> Swap:
    m = _SWAP.fullmatch(token)
    if not m or int(m.group(1)) > 13:
        raise _err(token, "a swap is R and a space 0..13, as R5")
    return Swap(int(m.group(1)))


def parse_resign(token: str) -> Resign:
    m = _RESIGN.fullmatch(token)
    if not m:
        raise _err(token, "expected resignK")
    return Resign(int(m.group(1)))


def _parse_fulfil(token: str, step: str) -> Fulfil:
    m = _FULFIL.fullmatch(step)
    if not m or m.group(1) not in CONTRACTS:
        raise _err(token, f"{step!r} is not a fulfil step (f06 or f06=rbn)")
    cid, cars = m.group(1), m.group(2)
    if cars is not None:
        cars = sort_cars(cars)
        if cars == CONTRACTS[cid][0]:
            raise _err(token, f"{step!r} places the card's own cars, which is written f{cid}")
    return Fulfil(cid, cars)


def _parse_action(token: str, step: str) -> Action | None:
    """The action in ``step``, or None if it is not an action step."""
    k, rest = step[:1], step[1:]
    if k == "a" and rest:
        if not all(c in "123" for c in rest) or len(set(rest)) != len(rest):
            raise _err(token, f"{step!r}: attach spots are 1 2 3, each at most once")
        return Action("a", spots=tuple(int(c) for c in rest))
    if step in ("u", "x"):
        return Action(step)
    if k == "d" and rest:
        if not all(c in "1234" for c in rest) or list(rest) != sorted(set(rest)):
            raise _err(token, f"{step!r}: uncouple positions are 1..4, each once, rising")
        return Action("d", spots=tuple(int(c) for c in rest))
    if step in ("s0", "s1", "s2"):
        return Action("s", choice=int(step[1]))
    if k == "o":
        space, eq, cars = rest.partition("=")
        if not eq or not _SPACE.fullmatch(space) or int(space) > 13 or \
                not re.fullmatch(r"[rbgnw]{2,3}", cars):
            raise _err(token, f"{step!r}: a reorder is oS=CARS, as o7=nrg")
        return Action("o", space=int(space), cars=cars)
    if step in ("e<", "e>", "et"):
        return Action("e", step=step[1])
    return None


def parse_turn(token: str) -> Turn:
    """Read ``CARD:STEPS`` (notation.md "Turns"), checking only its form."""
    card, colon, steps = token.partition(":")
    if not colon:
        raise _err(token, "a turn is CARD:STEPS")
    if card != "-" and card not in CARD_SET:
        raise _err(token, f"{card!r} is not a planning card (A1 A2 A3 B3 B4 C4 C5 C6 D) or -")
    if steps == "~":
        return Turn(card, lost=True)
    if card == "-":
        raise _err(token, "a dormant seat's turn is written -:~")
    parts = steps.split(".")
    i = 0
    special = parts[0] == "^"
    if special:
        i = 1
    if i >= len(parts):
        raise _err(token, "the turn has no movement")
    m = _PATH.fullmatch(parts[i])
    if not m:
        raise _err(token, f"{parts[i]!r} is not a movement path (> < t, then * for the Driver)")
    path, driver = m.group(1), m.group(2) == "*"
    before: list[Fulfil] = []
    after: list[Fulfil] = []
    action: Action | None = None
    for step in parts[i + 1:]:
        if step.startswith("f"):
            (after if action is not None else before).append(_parse_fulfil(token, step))
            continue
        a = _parse_action(token, step)
        if a is None:
            raise _err(token, f"{step!r} is not a step (^ PATH a u x d s o e f)")
        if action is not None:
            raise _err(token, f"{step!r}: a turn has at most one action")
        action = a
    pre: tuple[Fulfil, ...] = ()
    if action is not None and action.kind == "s":
        pre = tuple(before)
        post = tuple(after)
    else:
        if before and action is not None:
            raise _err(token, "fulfils stand at the end of the turn (before the action only "
                              "when it is a sign)")
        post = tuple(before + after)
    for group in (pre, post):
        ids = [f.contract for f in group]
        if ids != sorted(set(ids)):
            raise _err(token, "fulfil steps are sorted by contract id, each at most once")
    return Turn(card, special=special, path=path, driver=driver, pre=pre, action=action,
                post=post)


def parse_decision(token: str) -> Decision:
    """Any decision, told apart by its form (a plan wins over a turn; ``-`` is a plan)."""
    if token.startswith("resign"):
        return parse_resign(token)
    if token in CHARACTERS:
        return Pick(token)
    if ":" in token:
        return parse_turn(token)
    if token.startswith("R"):
        return parse_swap(token)
    return parse_plan(token)
