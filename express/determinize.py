"""Full positions consistent with a seat's public view: for bots that see only their view.

A bot reads ``view --seat K`` (a public position: the bag, the deck, other seats' open
contracts and plans replaced by ``?`` counts). :func:`determinize` samples those hidden
parts, uniformly among the fillings the view allows (with the optional knowledge a seat
has from its own history), and returns a full :class:`Position` that can be played with
:func:`express.legal_decisions.legal` and :func:`express.moves.play`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from express.errors import ExpressError
from express.notation import parse_position
from express.position import Position
from express.rules import CARDS, CARS_PER_COLOUR, COLOURS, CONTRACT_IDS


def hidden_cars(view: Position) -> list[str]:
    """The cars not shown in the view, that is the bag's contents (sorted rbgnw)."""
    shown = view.shown_cars()
    return [c for c in COLOURS for _ in range(CARS_PER_COLOUR - shown.count(c))]


def hidden_contracts(view: Position) -> list[str]:
    """The contract ids not shown: in the deck or other seats' open contracts."""
    seen = set(view.deck) | {c for o in view.open for c in o}
    seen |= {c for d in view.done for c, _ in d}
    return [c for c in CONTRACT_IDS if c not in seen]


def determinize(view: Position | str, rng: random.Random, *,
                deck_bottom: Sequence[str] = (),
                not_in_plan: Mapping[int, Iterable[str]] | None = None) -> Position:
    """A full position the view allows, its hidden parts drawn at random.

    - ``view``: a public position (text or parsed); a full one is returned as a copy.
    - ``deck_bottom``: contract ids the viewer knows lie at the bottom of the deck, bottom
      last (for instance the card it put back when signing, if no one has drawn it since).
    - ``not_in_plan``: per seat, cards known not to be in its unrevealed plan (for instance
      the cards it revealed earlier this round).
    """
    p = parse_position(view) if isinstance(view, str) else view.copy()
    h = p.hidden
    if h is None:
        return p
    cars = hidden_cars(p)
    if len(cars) != h.bag:
        raise ExpressError(f"the view's bag count {h.bag} does not match the {len(cars)} "
                           f"cars it does not show")
    rng.shuffle(cars)
    p.bag = "".join(cars)
    ids = hidden_contracts(p)
    bottom = list(deck_bottom)
    if any(c not in ids for c in bottom) or len(bottom) > h.deck:
        raise ExpressError("deck_bottom names a contract the view shows, or too many")
    ids = [c for c in ids if c not in bottom]
    rng.shuffle(ids)
    for i, count in enumerate(h.open):
        if count is not None:
            p.open[i], ids = ids[:count], ids[count:]
    rest = h.deck - len(bottom)
    if len(ids) != rest:
        raise ExpressError("the view's contract counts do not add up to 18")
    p.deck = ids + bottom
    excluded = not_in_plan or {}
    for i, count in enumerate(h.plans):
        if count is not None:
            pool = [c for c in CARDS if c not in set(excluded.get(i + 1, ()))]
            if len(pool) < count:
                raise ExpressError(f"too few cards left for seat {i + 1}'s plan")
            p.plans[i] = rng.sample(pool, count)
    p.hidden = None
    return p
