"""The components of rules.md 1–8 as constants: pieces, cards, engines, contracts."""

from __future__ import annotations

#: The rules versions the engine knows (rules.md "Rules versions"). A game keeps the one it
#: started with (``Position.rules``): x0.1 and x0.2 differ only in rule 46, the Engineer.
RULES_VERSIONS = ("x0.1", "x0.2")
#: The version ``start`` writes and new games use.
CURRENT_RULES = "x0.2"
RULES_VERSION = CURRENT_RULES  # the older name, kept for callers
SPACES = 14
MAX_ROUNDS = 30

COLOURS = "rbgnw"  # red, blue, green, brown, white: the order car lists are written in
CARS_PER_COLOUR = 9
CAR_RANK = {c: i for i, c in enumerate(COLOURS)}

COMPLEXES = ("X1", "X2", "X3", "X4")
FACTORIES = ("Fr", "Fb", "Fg", "Fn", "Fw")
TUNNELS = ("T1", "T2")
REFIT = "R"
#: Every piece on the board, once each (tunnel pieces twice), rules.md 3.
PIECES = (*COMPLEXES, *FACTORIES, "T1", "T1", "T2", "T2", REFIT)
FACTORY_SPACES = (0, 3, 6, 9, 11)
OTHER_SPACES = (1, 2, 4, 5, 7, 8, 10, 12, 13)
#: Rules.md 14.3: the list shuffled onto OTHER_SPACES.
OTHER_PIECES = ("X1", "X2", "X3", "X4", "T1", "T1", "T2", "T2", "R")

CARDS = ("A1", "A2", "A3", "B3", "B4", "C4", "C5", "C6", "D")
CARD_SET = frozenset(CARDS)
#: A card's class as an engine index (A 0 … D 3).
CARD_CLASS = {c: "ABCD".index(c[0]) for c in CARDS}
#: The step counts a card allows (the D card "1/2").
CARD_STEPS: dict[str, tuple[int, ...]] = {c: ((1, 2) if c == "D" else (int(c[1]),))
                                          for c in CARDS}

ENGINES = "ABCD"
CAPACITY = (1, 2, 3, 4)

CHARACTERS = ("Dr", "En", "Lo", "Ma", "Me")  # sorted, as `legal` lists them
LOGISTICIAN, ENGINEER, MECHANIC, DRIVER, MANAGER = "Lo", "En", "Me", "Dr", "Ma"

#: Contract id -> (cars, sorted in COLOURS order; value), rules.md 7.
CONTRACTS: dict[str, tuple[str, int]] = {}
for _i, _cars in enumerate(("rr", "bb", "gg", "nn", "ww"), 1):
    CONTRACTS[f"{_i:02d}"] = (_cars, 3)
for _i, _cars in enumerate(("rbg", "bgn", "gnw", "rnw", "rbw"), 6):
    CONTRACTS[f"{_i:02d}"] = (_cars, 5)
for _i, _cars in enumerate(("rrbb", "bbgg", "ggnn", "nnww", "rrww"), 11):
    CONTRACTS[f"{_i:02d}"] = (_cars, 7)
for _i in (16, 17, 18):
    CONTRACTS[f"{_i:02d}"] = ("rbgnw", 9)
CONTRACT_IDS = tuple(CONTRACTS)


def sort_cars(cars: str) -> str:
    """A car list in the written order rbgnw."""
    return "".join(sorted(cars, key=CAR_RANK.__getitem__))


def counts(cars: str) -> list[int]:
    """How many cars of each colour, in COLOURS order."""
    return [cars.count(c) for c in COLOURS]


def one_substitution_apart(card: str, placed: str) -> bool:
    """Rule 52: placed is the card's cars with exactly one car swapped for another colour."""
    if len(card) != len(placed):
        return False
    diff = sum(abs(a - b) for a, b in zip(counts(card), counts(placed), strict=True))
    return diff == 2


def engineer_any_colour(rules: str) -> bool:
    """Rule 46 in ``rules``: whether the Engineer uncouples cars of any colour (x0.1), or
    only cars of the factory's colour, wherever they stand in the train (x0.2)."""
    return rules == "x0.1"
