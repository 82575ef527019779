"""The bay and everything a turn changes: the one board type of the engine.

A :class:`Position` is mutable and cheap to copy. Phase 1 actions are small integers
(see the ``DROP``..``DAMAGE`` constants) so that the bot and the puzzle solver can
generate and apply them quickly; :mod:`engine.notation` turns them into tokens and back.
Applying never validates: callers either take actions from :meth:`Position.actions` or
check with :meth:`Position.is_legal` first (the :class:`engine.game.Game` API does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.geometry import (
    ALL_SHAPES,
    SHAPE_ORDER,
    SHAPE_VALUE,
    AppConMask,
    Geometry,
    appcons_through,
    bits,
    find_appcons,
    geometry,
)

BLUE, ORANGE = 0, 1
SIDE_NAMES = ("blue", "orange")
RULES_VERSIONS = ("0.88", "0.89", "0.92")
CURRENT_RULES = "0.92"

# Cards, as bits of a hand, in the notation's order SLPDR.
CARD_ORDER = "SLPDR"
ROTATION, LOCKDOWN, PURGE_CARD, DAMAGE_CARD, REROUTE_CARD = 1, 2, 4, 8, 16
FULL_HAND = 31

# Phase 1 actions as integers.
#   0..7          drop into column x
#   ROTATE_LEFT / ROTATE_RIGHT
#   PASS
#   LOCK + k      Corridor Lockdown on corridor k (0..N-1 columns, N..2N-1 rows)
#   PURGE + k     Corridor Purge on corridor k
#   REROUTE + c   Re-Routing Order on the opponent core at cell c
#   DAMAGE | c1 << 8 | c2   Cargo Damage on cells c1 < c2 (c2 = NO_CELL: one cell, old rule)
ROTATE_LEFT, ROTATE_RIGHT, PASS = 8, 9, 10
LOCK, PURGE, REROUTE, DAMAGE = 16, 32, 64, 0x10000
NO_CELL = 0xFF
NO_LOCK = -1

SHAPE_VALUES = tuple(SHAPE_VALUE[s] for s in SHAPE_ORDER)
GOLD_BONUS = 2
RUST_PENALTY = 2

# Kinds of module, for settling columns.
_BLUE_CORE, _ORANGE_CORE, _EMPTY_CAN = 0, 1, 2

Event = dict[str, Any]


def card_of(action: int) -> int:
    """The card an action plays (0 for a drop or a pass)."""
    if action < ROTATE_LEFT or action == PASS:
        return 0
    if action <= ROTATE_RIGHT:
        return ROTATION
    if action >= DAMAGE:
        return DAMAGE_CARD
    if action >= REROUTE:
        return REROUTE_CARD
    if action >= PURGE:
        return PURGE_CARD
    return LOCKDOWN


@dataclass(frozen=True)
class SideAudit:
    """One player's Final Audit."""

    points: int
    rust: int  # shapes never completed
    penalty: int
    gold: int
    final: int


@dataclass(frozen=True)
class FinalAudit:
    """The Final Audit of a position, with the winner and what decided it.

    ``decided_by`` is ``score``, ``gold``, ``rust`` or ``orange`` (the last tiebreak of
    rules 0.92), or ``draw`` (rules before 0.92, equal scores and Gold chits).
    """

    blue: SideAudit
    orange: SideAudit
    winner: str | None
    decided_by: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "blue": vars(self.blue),
            "orange": vars(self.orange),
            "winner": self.winner,
            "decided_by": self.decided_by,
        }


class Position:
    """A bay, both hands, the MagLock, both shelves, points, turn count and rules version.

    Boards are bitboards laid out by :mod:`engine.geometry`. ``cores[side]`` are the
    cores of each side, ``empty`` the Empty Cans; ``heights[x]`` is the number of
    modules in column x (nothing floats, so a column is always filled from row 1).
    ``solo`` is puzzle mode: Blue moves every turn.
    """

    __slots__ = (
        "g", "n", "cores", "empty", "heights", "cards", "lock", "gold", "steel",
        "points", "turns", "side", "rules", "solo", "_appcons", "_drops",
    )

    def __init__(self, n: int = 8, rules: str = CURRENT_RULES) -> None:
        self.g: Geometry = geometry(n)
        self.n = n
        self.cores = [0, 0]
        self.empty = 0
        self.heights = [0] * n
        self.cards = [FULL_HAND, FULL_HAND]
        self.lock = NO_LOCK
        self.gold = [0, 0]
        self.steel = [0, 0]
        self.points = [0, 0]
        self.turns = 0
        self.side = BLUE
        self.rules = rules
        self.solo = False
        # Per side, the AppCons it could unload now (sorted by rank), or None if unknown.
        self._appcons: list[list[AppConMask] | None] = [None, None]
        # The droppable columns, or None if they must be worked out again.
        self._drops: tuple[int, ...] | None = None

    # --- copying and comparing ------------------------------------------------------------

    def copy(self) -> Position:
        p = Position.__new__(Position)
        p.g, p.n = self.g, self.n
        p.cores = self.cores[:]
        p.empty = self.empty
        p.heights = self.heights[:]
        p.cards = self.cards[:]
        p.lock = self.lock
        p.gold = self.gold[:]
        p.steel = self.steel[:]
        p.points = self.points[:]
        p.turns, p.side, p.rules, p.solo = self.turns, self.side, self.rules, self.solo
        p._appcons = self._appcons[:]
        p._drops = self._drops
        return p

    def key(self) -> tuple[int, ...]:
        """Everything that decides the future of the shift (not the turn count)."""
        return (
            self.cores[0], self.cores[1], self.empty, self.cards[0], self.cards[1],
            self.lock, self.gold[0], self.gold[1], self.steel[0], self.steel[1],
            self.points[0], self.points[1], self.side,
        )

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.n == other.n
            and self.key() == other.key()
            and self.turns == other.turns
            and self.rules == other.rules
        )

    def __repr__(self) -> str:
        return f"Position({format_position(self)!r})"

    # --- derived facts ---------------------------------------------------------------

    @property
    def occupied(self) -> int:
        return self.cores[0] | self.cores[1] | self.empty

    def is_full(self) -> bool:
        return self.occupied == self.g.full

    def completed(self, side: int) -> int:
        """The shapes a side has completed (Gold or Steel), as a 7-bit mask."""
        return self.gold[side] | self.steel[side]

    def invalidate(self) -> None:
        """Forget cached facts; call after assigning boards, heights or lock directly."""
        self._appcons = [None, None]
        self._drops = None

    def lock_mask(self) -> int:
        return 0 if self.lock == NO_LOCK else self.g.corridor_masks[self.lock]

    # --- Phase 1: what is legal ------------------------------------------------------------

    def drops(self) -> tuple[int, ...]:
        """Columns the side to move may drop into (rules.md item 4)."""
        found = self._drops
        if found is None:
            n, h, lock = self.n, self.heights, self.lock
            if lock == NO_LOCK:
                found = tuple(x for x in range(n) if h[x] < n)
            elif lock < n:
                found = tuple(x for x in range(n) if h[x] < n and x != lock)
            else:
                found = tuple(x for x in range(n) if h[x] < n and h[x] != lock - n)
            self._drops = found
        return found

    def damage_pairs(self) -> list[tuple[int, int]]:
        """Rules 0.89+: orthogonally adjacent occupied pairs outside the locked corridor."""
        occ = self.occupied & ~self.lock_mask()
        s = self.g.stride
        pairs = [(c, c + s) for c in bits(occ & (occ >> s))]
        pairs += [(c, c + 1) for c in bits(occ & (occ >> 1))]
        pairs.sort()
        return pairs

    def _has_damage_pair(self) -> bool:
        occ = self.occupied & ~self.lock_mask()
        return bool(occ & (occ >> self.g.stride) or occ & (occ >> 1))

    def card_actions(self, side: int) -> list[int]:
        """Every legal card play of a side, in no particular order."""
        hand = self.cards[side]
        if not hand:
            return []
        acts: list[int] = []
        corridors = 2 * self.n
        if hand & ROTATION:
            acts += (ROTATE_LEFT, ROTATE_RIGHT)
        if hand & LOCKDOWN:
            acts += range(LOCK, LOCK + corridors)
        if hand & PURGE_CARD:
            acts += [PURGE + k for k in range(corridors) if k != self.lock]
        theirs = self.cores[side ^ 1]
        if hand & DAMAGE_CARD:
            if self.rules == "0.88":
                cells = bits(theirs)
                for i, a in enumerate(cells):
                    acts.append(DAMAGE | a << 8 | NO_CELL)
                    acts += [DAMAGE | a << 8 | b for b in cells[i + 1:]]
            else:
                acts += [DAMAGE | a << 8 | b for a, b in self.damage_pairs()]
        if hand & REROUTE_CARD:
            acts += [REROUTE + c for c in bits(theirs)]
        return acts

    def has_action(self, side: int) -> bool:
        """Whether a side would have a legal Phase 1 action if it were to move."""
        if self.drops():
            return True
        hand = self.cards[side]
        if hand & (ROTATION | LOCKDOWN | PURGE_CARD):
            return True
        theirs = self.cores[side ^ 1]
        if hand & REROUTE_CARD and theirs:
            return True
        if hand & DAMAGE_CARD:
            return bool(theirs) if self.rules == "0.88" else self._has_damage_pair()
        return False

    def is_over(self) -> bool:
        """Whether the shift (or puzzle run) cannot go on from here (rules.md 17, 26)."""
        if self.is_full():
            return True
        if self.solo:
            return not self.has_action(BLUE)
        return not self.has_action(self.side) and not self.has_action(self.side ^ 1)

    def actions(self) -> list[int]:
        """Every legal Phase 1 action of the side to move; [PASS] if it must pass."""
        drops = self._drops
        if drops is None:
            drops = self.drops()
        if drops:  # the bay is not full and the side to move can act: not over
            if self.cards[self.side]:
                return [*drops, *self.card_actions(self.side)]
            return [*drops]
        if self.is_over():
            return []
        return self.card_actions(self.side) or [PASS]

    def is_legal(self, action: int) -> bool:
        return action in self.actions()

    # --- Phase 2: unloading ------------------------------------------------------------

    def appcons(self, side: int | None = None) -> list[AppConMask]:
        """The AppCons a side (default: the side to move) could unload, in notation order."""
        if side is None:
            side = self.side
        found = self._appcons[side]
        if found is None:
            found = self._appcons[side] = find_appcons(self.g, self.cores[side])
        return found

    def unload_shape(self, mask: int) -> int | None:
        """The shape index of an unload the side to move may make, or None if it may not."""
        appcon = self.g.appcon_by_mask.get(mask)
        if appcon is None or self.cores[self.side] & mask != mask:
            return None
        return appcon.shape

    # --- applying a turn ---------------------------------------------------------------

    def play(self, action: int, unload: int = 0, events: list[Event] | None = None) -> None:
        """Apply a whole turn: a Phase 1 action (or PASS), then an optional unload mask.

        The action and unload must be legal (see :meth:`actions`, :meth:`unload_shape`).
        """
        self.apply_action(action, events)
        if unload:
            self.apply_unload(unload, events)
        self.turns += 1
        if not self.solo:
            self.side ^= 1

    def apply_action(self, action: int, events: list[Event] | None = None) -> None:
        """Phase 1 only."""
        side = self.side
        if action < ROTATE_LEFT:
            self._drop(action, events)
            return
        if action == PASS:
            if events is not None:
                events.append({"type": "pass", "side": SIDE_NAMES[side]})
            return
        self.cards[side] &= ~card_of(action)
        if action <= ROTATE_RIGHT:
            self._rotate(action == ROTATE_RIGHT, events)
        elif action < PURGE:
            self._lockdown(action - LOCK, events)
        elif action < REROUTE:
            self._purge(action - PURGE, events)
        elif action < DAMAGE:
            self._reroute(action - REROUTE, events)
        else:
            self._damage((action >> 8) & 0xFF, action & 0xFF, events)

    def _drop(self, x: int, events: list[Event] | None) -> None:
        side = self.side
        y = self.heights[x]
        cell = x * self.g.stride + y
        self.heights[x] = y + 1
        if y + 1 == self.n or self.lock >= self.n:
            self._drops = None
        mine = self.cores[side] | 1 << cell
        self.cores[side] = mine
        found = self._appcons[side]
        if found is not None:
            added = appcons_through(self.g, mine, cell)
            if added:
                self._appcons[side] = sorted(found + added, key=_rank)
        if events is not None:
            events.append({"type": "drop", "side": SIDE_NAMES[side], "cell": self.g.name(cell)})

    def _lockdown(self, corridor: int, events: list[Event] | None) -> None:
        self.lock = NO_LOCK if self.lock == corridor else corridor
        self._drops = None
        if events is not None:
            events.append({
                "type": "lockdown",
                "side": SIDE_NAMES[self.side],
                "corridor": self.g.corridor_names[corridor],
                "locked": None if self.lock == NO_LOCK else self.g.corridor_names[self.lock],
            })

    def _reroute(self, cell: int, events: list[Event] | None) -> None:
        side = self.side
        bit = 1 << cell
        self.cores[side ^ 1] &= ~bit
        self.cores[side] |= bit
        theirs = self._appcons[side ^ 1]
        if theirs is not None:
            self._appcons[side ^ 1] = [a for a in theirs if not a.mask & bit]
        mine = self._appcons[side]
        if mine is not None:
            added = appcons_through(self.g, self.cores[side], cell)
            if added:
                self._appcons[side] = sorted(mine + added, key=_rank)
        if events is not None:
            events.append({"type": "reroute", "side": SIDE_NAMES[side], "cell": self.g.name(cell)})

    def _damage(self, a: int, b: int, events: list[Event] | None) -> None:
        side = self.side
        cells = [a] if b == NO_CELL else [a, b]
        mask = sum(1 << c for c in cells)
        names = [self.g.name(c) for c in cells]
        if self.rules == "0.88":
            # Old Cargo Damage: the opponent's cores become Empty Cans where they stand.
            self.cores[side ^ 1] &= ~mask
            self.empty |= mask
            theirs = self._appcons[side ^ 1]
            if theirs is not None:
                self._appcons[side ^ 1] = [x for x in theirs if not x.mask & mask]
            if events is not None:
                events.append({"type": "damage", "side": SIDE_NAMES[side], "cells": names,
                               "emptied": names, "destroyed": [], "moves": []})
            return
        moves = self._remove_and_settle(mask, events is not None)
        if events is not None:
            events.append({"type": "damage", "side": SIDE_NAMES[side], "cells": names,
                           "emptied": [], "destroyed": names, "moves": moves})

    def _purge(self, corridor: int, events: list[Event] | None) -> None:
        mask = self.g.corridor_masks[corridor] & self.occupied
        if events is None:
            self._remove_and_settle(mask, False)
            return
        destroyed = [self.g.name(c) for c in bits(mask)]
        moves = self._remove_and_settle(mask, True)
        events.append({"type": "purge", "side": SIDE_NAMES[self.side],
                       "corridor": self.g.corridor_names[corridor],
                       "destroyed": destroyed, "moves": moves})

    def _rotate(self, right: bool, events: list[Event] | None) -> None:
        n = self.n
        kinds = self._kinds()
        columns: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        stride = self.g.stride
        for y in range(n):
            xs = range(n - 1, -1, -1) if right else range(n)
            column = columns[y if right else n - 1 - y]
            for x in xs:
                cell = x * stride + y
                kind = kinds.get(cell)
                if kind is not None:
                    column.append((kind, cell))
        final = self._rebuild(columns)
        released = self.lock != NO_LOCK
        self.lock = NO_LOCK
        if events is not None:
            g = self.g

            def turned(cell: int) -> int:  # where the turn itself took a module
                x, y = g.xy(cell)
                return g.cell(y, n - 1 - x) if right else g.cell(n - 1 - y, x)

            events.append({
                "type": "rotate",
                "side": SIDE_NAMES[self.side],
                "direction": "right" if right else "left",
                "moves": [[g.name(c), g.name(turned(c)), g.name(final[c])] for c in sorted(final)],
            })
            if released:
                events.append({"type": "lock_released", "side": SIDE_NAMES[self.side]})

    def _kinds(self) -> dict[int, int]:
        kinds = {c: _BLUE_CORE for c in bits(self.cores[0])}
        kinds.update((c, _ORANGE_CORE) for c in bits(self.cores[1]))
        kinds.update((c, _EMPTY_CAN) for c in bits(self.empty))
        return kinds

    def _remove_and_settle(self, mask: int, moves: bool) -> list[list[str]]:
        """Remove the modules in mask, let every column settle; the moves as [from, to]
        names if asked for (for events)."""
        kinds = self._kinds()
        columns: list[list[tuple[int, int]]] = []
        stride = self.g.stride
        for x in range(self.n):
            base = x * stride
            columns.append([(kinds[cell], cell) for cell in range(base, base + self.heights[x])
                            if not mask >> cell & 1])
        final = self._rebuild(columns)
        if not moves:
            return []
        name = self.g.name
        return [[name(c), name(t)] for c, t in sorted(final.items()) if c != t]

    def _rebuild(self, columns: list[list[tuple[int, int]]]) -> dict[int, int]:
        """Lay each column's modules (bottom first) from row 1 up; old cell -> new cell."""
        boards = [0, 0, 0]
        final: dict[int, int] = {}
        stride, heights = self.g.stride, self.heights
        for x, column in enumerate(columns):
            heights[x] = len(column)
            cell = x * stride  # row 1 of column x, then up
            for kind, old in column:
                boards[kind] |= 1 << cell
                final[old] = cell
                cell += 1
        self.cores = [boards[_BLUE_CORE], boards[_ORANGE_CORE]]
        self.empty = boards[_EMPTY_CAN]
        self._appcons = [None, None]
        self._drops = None
        return final

    def apply_unload(self, mask: int, events: list[Event] | None = None) -> None:
        """Phase 2: unload the AppCon in mask (which must be legal) and take its chit."""
        side = self.side
        shape = self.g.appcon_by_mask[mask].shape
        self.cores[side] &= ~mask
        self.empty |= mask
        found = self._appcons[side]
        if found is not None:
            self._appcons[side] = [a for a in found if not a.mask & mask]
        bit = 1 << shape
        value = SHAPE_VALUES[shape]
        chit = None
        if not (self.gold[side] | self.steel[side]) & bit:
            if (self.gold[side ^ 1] | self.steel[side ^ 1]) & bit:
                self.steel[side] |= bit
                chit = "steel"
            else:
                self.gold[side] |= bit
                value += GOLD_BONUS
                chit = "gold"
        self.points[side] += value
        if events is not None:
            events.append({
                "type": "unload", "side": SIDE_NAMES[side], "cells": self.g.names(mask),
                "shape": SHAPE_ORDER[shape], "value": SHAPE_VALUES[shape], "chit": chit,
                "gained": value, "points": self.points[side],
            })

    # --- the end of the shift ----------------------------------------------------------

    def audit(self) -> FinalAudit:
        """The Final Audit of this position (rules.md 18, 19)."""
        sides = []
        for side in (BLUE, ORANGE):
            rust = 7 - (self.completed(side) & ALL_SHAPES).bit_count()
            gold = self.gold[side].bit_count()
            points = self.points[side]
            sides.append(SideAudit(points, rust, RUST_PENALTY * rust, gold,
                                   points - RUST_PENALTY * rust))
        blue, orange = sides
        winner: str | None
        if blue.final != orange.final:
            winner, decided = ("blue" if blue.final > orange.final else "orange"), "score"
        elif blue.gold != orange.gold:
            winner, decided = ("blue" if blue.gold > orange.gold else "orange"), "gold"
        elif self.rules != "0.92":
            winner, decided = None, "draw"
        elif blue.rust != orange.rust:
            winner, decided = ("blue" if blue.rust < orange.rust else "orange"), "rust"
        else:
            winner, decided = "orange", "orange"
        return FinalAudit(blue, orange, winner, decided)


def _rank(appcon: AppConMask) -> int:
    return appcon.rank


# --- the position written in notation (spec/notation.md; read back by engine.notation) ---


def format_board(p: Position) -> str:
    """The bay part of a position's notation: rows top first, joined by ``/``. (Written
    cell by occupied cell into the empty bay's text: the site describes a dozen bays a
    turn.)"""
    g = p.g
    chars = list(g.empty_board)
    offsets = g.board_offsets
    for mask, char in ((p.cores[BLUE], "B"), (p.cores[ORANGE], "O"), (p.empty, "x")):
        for cell in bits(mask):
            chars[offsets[cell]] = char
    return "".join(chars)


def format_position(p: Position) -> str:
    """The one-line notation of a position."""
    g = p.g
    lock = "-" if p.lock == NO_LOCK else g.corridor_names[p.lock]
    return " ".join([
        format_board(p),
        "bo"[p.side],
        _format_hand(p.cards[BLUE]),
        _format_hand(p.cards[ORANGE]),
        lock,
        _format_shelf(p.gold[BLUE], p.steel[BLUE]),
        _format_shelf(p.gold[ORANGE], p.steel[ORANGE]),
        str(p.points[BLUE]),
        str(p.points[ORANGE]),
        str(p.turns),
        p.rules,
    ])


def _format_hand(hand: int) -> str:
    return "".join(c for i, c in enumerate(CARD_ORDER) if hand >> i & 1) or "-"


def _format_shelf(gold: int, steel: int) -> str:
    out = []
    for i, s in enumerate(SHAPE_ORDER):
        if gold >> i & 1:
            out.append(s)
        elif steel >> i & 1:
            out.append(s.lower())
    return "".join(out) or "-"
