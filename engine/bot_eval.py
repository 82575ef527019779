"""CargoBot's evaluation of a position, in centipoints, from one side's point of view.

Integers only (no floats), so that every machine computes exactly the same numbers.
The evaluation estimates each side's score *after the Final Audit*:

- points so far, minus 2 per Rust chit still held (the Final Audit as if it ran now);
- what each side can take soon: an AppCon already on the bay, or a drop that completes one
  ("a threat"). The side to move takes its best one this very turn (drop then unload), so
  it counts almost in full; the other side's count less, because the side to move can
  break an AppCon with a card or block a threat column with a drop;
- the cards each side still holds (a card in hand can break an AppCon later);
- a little for cores that touch each other (shapes to come).

A finished shift is worth ``WIN`` plus the final margin, so a won shift beats any
unfinished one.
"""

from __future__ import annotations

from engine.geometry import ALL_SHAPES, appcons_through
from engine.position import (
    DAMAGE_CARD,
    PURGE_CARD,
    REROUTE_CARD,
    ROTATION,
    SHAPE_VALUES,
    Position,
)

WIN = 1_000_000
#: Cards that can break an AppCon already on the bay.
BREAKERS = ROTATION | PURGE_CARD | DAMAGE_CARD | REROUTE_CARD


class Weights:
    """The evaluation's knobs, in centipoints or per mille. One instance per level."""

    __slots__ = ("mover_take", "safe_appcon", "unsafe_appcon", "threat", "double_threat",
                 "second", "cards", "touch", "rust", "endgame_cards")

    def __init__(self, *, mover_take: int = 900, safe_appcon: int = 850,
                 unsafe_appcon: int = 450, threat: int = 350, double_threat: int = 650,
                 second: int = 250, cards: tuple[int, int, int, int, int] = (90, 40, 110, 130, 170),
                 touch: int = 12, rust: int = 200, endgame_cards: bool = True) -> None:
        self.mover_take = mover_take  # per mille of the best gain the side to move takes
        self.safe_appcon = safe_appcon  # per mille: the other side's AppCon, unbreakable
        self.unsafe_appcon = unsafe_appcon  # per mille: the other side's AppCon, breakable
        self.threat = threat  # per mille: the other side's best completing drop
        self.double_threat = double_threat  # per mille: ... when two columns complete one
        self.second = second  # per mille: a second, different opportunity
        self.cards = cards  # centipoints per card held, in the order S L P D R
        self.touch = touch  # centipoints per pair of touching own cores
        self.rust = rust  # centipoints per Rust chit held
        self.endgame_cards = endgame_cards  # cards are worth less as the bay fills


def gain(p: Position, side: int, shape: int) -> int:
    """What unloading a shape now is worth to a side after the Final Audit, in centipoints.

    Its value, +2 for the Gold chit if nobody has the shape, +2 for the Rust chit it clears
    if the side has not completed it.
    """
    bit = 1 << shape
    done = p.gold[side] | p.steel[side]
    value = SHAPE_VALUES[shape] * 100
    if not done & bit:
        value += 200
        other = p.gold[side ^ 1] | p.steel[side ^ 1]
        if not other & bit:
            value += 200
    return value


def _gains_on_bay(p: Position, side: int) -> list[int]:
    """Gains of the AppCons a side could unload now, best first (one per shape)."""
    best: dict[int, int] = {}
    for a in p.appcons(side):
        if a.shape not in best:
            best[a.shape] = gain(p, side, a.shape)
    return sorted(best.values(), reverse=True)


def drop_cells(p: Position) -> list[int]:
    """The cells where a drop would come to rest now, for the legal drop columns."""
    stride = p.g.stride
    return [x * stride + p.heights[x] for x in p.drops()]


def threats(p: Position, side: int, cells: list[int]) -> list[int]:
    """For each drop cell, the best gain a side would get by dropping there and unloading."""
    g = p.g
    mine = p.cores[side]
    s = g.stride
    out = []
    for cell in cells:
        bit = 1 << cell
        if not (bit << 1 | bit >> 1 | bit << s | bit >> s) & mine:
            continue
        found = appcons_through(g, mine | bit, cell)
        if found:
            out.append(max(gain(p, side, a.shape) for a in found))
    return out


def touching(p: Position, side: int) -> int:
    """Pairs of orthogonally adjacent cores of a side."""
    c = p.cores[side]
    return (c & (c >> 1)).bit_count() + (c & (c >> p.g.stride)).bit_count()


def final_margin(p: Position, side: int) -> int:
    """The Final Audit margin of a side if the shift ended now, in centipoints."""
    rust_me = 7 - ((p.gold[side] | p.steel[side]) & ALL_SHAPES).bit_count()
    rust_op = 7 - ((p.gold[side ^ 1] | p.steel[side ^ 1]) & ALL_SHAPES).bit_count()
    return (p.points[side] - p.points[side ^ 1]) * 100 - 200 * (rust_me - rust_op)


def terminal_value(p: Position, side: int) -> int:
    """The value of a finished shift for a side: WIN or -WIN, plus the final margin."""
    audit = p.audit()
    margin = final_margin(p, side)
    winner = audit.winner
    if winner is None:
        return margin
    won = (winner == "blue") == (side == 0)
    return (WIN if won else -WIN) + margin


def _card_value(p: Position, side: int, w: Weights, fill: int) -> int:
    hand = p.cards[side]
    if not hand:
        return 0
    total = 0
    for i, v in enumerate(w.cards):
        if hand >> i & 1:
            total += v
    if w.endgame_cards:
        # fill: per mille of the bay occupied. Cards keep most of their value until the
        # bay is nearly full, when little time is left to use them.
        total = total * (1000 - fill // 2) // 1000
    return total


def evaluate(p: Position, side: int, w: Weights, over: bool | None = None) -> int:
    """The value of a position for a side, in centipoints (higher is better for side)."""
    if over is None:
        over = p.is_over()
    if over:
        return terminal_value(p, side)
    mover = p.side
    other = mover ^ 1
    # The Final Audit as if it ran now (rust weighted: it can still be cleared).
    rust_m = 7 - ((p.gold[mover] | p.steel[mover]) & ALL_SHAPES).bit_count()
    rust_o = 7 - ((p.gold[other] | p.steel[other]) & ALL_SHAPES).bit_count()
    score = (p.points[mover] - p.points[other]) * 100 - w.rust * (rust_m - rust_o)

    cells = drop_cells(p)
    # The side to move: its best AppCon or completing drop, taken this turn.
    mine = _gains_on_bay(p, mover)
    mine_t = threats(p, mover, cells)
    best = max(mine[:1] + mine_t) if mine or mine_t else 0
    score += best * w.mover_take // 1000
    if len(mine) > 1:  # a second AppCon, for a later turn (the first may share its cores)
        score += mine[1] * w.second // 1000
    # The other side: what it holds now may be broken or blocked before its turn.
    # An AppCon and a completing drop often share cores: count the better of the two.
    theirs = _gains_on_bay(p, other)
    held = 0
    if theirs:
        safe = not p.cards[mover] & BREAKERS
        held = theirs[0] * (w.safe_appcon if safe else w.unsafe_appcon) // 1000
        if len(theirs) > 1:
            score -= theirs[1] * w.second // 1000
    theirs_t = threats(p, other, cells)
    if theirs_t:
        theirs_t.sort(reverse=True)
        share = w.double_threat if len(theirs_t) > 1 else w.threat
        held = max(held, theirs_t[0] * share // 1000)
    score -= held

    fill = p.occupied.bit_count() * 1000 // (p.n * p.n)
    score += _card_value(p, mover, w, fill) - _card_value(p, other, w, fill)
    if w.touch:
        score += w.touch * (touching(p, mover) - touching(p, other))
    return score if side == mover else -score
