"""Exact puzzle solver: the fewest turns that solve a Weekly Puzzle, with a proof.

API (what the site calls)::

    from engine.solver import solve
    sol = solve(record_text_or_Record_or_Game, limit=None)
    sol.solvable, sol.fewest, sol.line, sol.needs_card, sol.valid, sol.nodes, sol.seconds
    sol.as_dict()   # the JSON of ``python -m engine solve`` (notation.md)

``solvable`` means solvable *within the turn limit* (the record's ``Turns``, or ``limit``);
``fewest`` is then the fewest turns (``None`` if unsolvable), ``line`` one solution of
exactly that many tokens, ``needs_card`` whether every solution within the limit plays a
card, ``valid`` whether ``fewest`` equals the limit (rules.md 25; the weekend "needs a card"
rule is the caller's to add). ``nodes`` counts searched nodes, ``seconds`` wall time.

How: iterative deepening on the number of turns, depth-first, with a transposition table
shared by every pass (a state that failed with r turns left fails with fewer). Because pass
d-1 was exhaustive and failed, a solution found in pass d proves ``fewest == d``. The search
uses its own bitboard state (Blue, Orange, Empty Cans, hand, lock, shelf, goal still
needed), the engine's action integers, and the engine's geometry; tokens come from
:func:`engine.notation.turn_token` on a replayed :class:`Position`, and the tests replay
every line in :class:`engine.game.Game` and compare ``fewest`` with an unpruned
breadth-first search over :class:`Position`. Pruning rules and their proofs are in
docs/puzzles.md; each one is named in the code where it is used.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.errors import EngineError
from engine.geometry import SHAPE_CELLS, SHAPE_ORDER, bits, find_appcons, geometry, orientations
from engine.notation import Goal, Record, parse_record, turn_token
from engine.position import (
    BLUE,
    DAMAGE,
    DAMAGE_CARD,
    LOCK,
    LOCKDOWN,
    NO_CELL,
    NO_LOCK,
    PURGE,
    PURGE_CARD,
    REROUTE,
    REROUTE_CARD,
    ROTATE_LEFT,
    ROTATE_RIGHT,
    ROTATION,
    SHAPE_VALUES,
    Position,
)

GOLD = 2
#: Cards that move modules (the others only add a Blue core or change the lock).
MOVING_CARDS = ROTATION | PURGE_CARD | DAMAGE_CARD

Move = tuple[int, int]  # (Phase 1 action, unload mask or 0)
# A search state: Blue, Orange, Empty Cans, hand, lock, shelf (completed shapes), need.
State = tuple[int, int, int, int, int, int, int]


@dataclass(frozen=True)
class Solution:
    """What the solver found, with the size of the proof."""

    solvable: bool
    fewest: int | None
    line: list[str] | None
    needs_card: bool
    valid: bool
    nodes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``python -m engine solve``."""
        return {
            "solvable": self.solvable,
            "fewest": self.fewest,
            "line": self.line,
            "needs_card": self.needs_card,
            "valid": self.valid,
        }


# --- geometry tables -------------------------------------------------------------------


@dataclass
class _Tables:
    n: int
    s: int
    full: int
    col: list[int]
    colbits: int
    above: dict[int, int]  # cells strictly above a cell in its column
    below_row: list[int]  # every cell in rows < y
    above_row: list[int]  # every cell in rows > y
    # per shape: list of (anchor mask, shifts) for each orientation
    patterns: list[list[tuple[int, tuple[int, ...]]]]
    row_cells: list[list[int]]
    # Rotation lookups: a row as an n-bit number (bit x = column x) from the board shifted
    # right by y and masked with row0; then the cells of a kind among the occupied ones,
    # compacted from x = 0 up (left) or from x = n-1 down (right), keyed occupied << n | kind.
    row0: int
    gather: dict[int, int]
    pack_left: dict[int, int]
    pack_right: dict[int, int]


@cache
def _tables(n: int) -> _Tables:
    g = geometry(n)
    s = g.stride
    above = {}
    for x in range(n):
        for y in range(n):
            above[g.cell(x, y)] = sum(1 << g.cell(x, yy) for yy in range(y + 1, n))
    below_row = [sum(g.row_masks[:y]) for y in range(n)]
    above_row = [sum(g.row_masks[y + 1:]) for y in range(n)]
    patterns = []
    for shape in SHAPE_ORDER:
        pats = []
        for o in orientations(SHAPE_CELLS[shape]):
            w = max(x for x, _ in o)
            h = max(y for _, y in o)
            anchors = sum(1 << g.cell(x, y) for x in range(n - w) for y in range(n - h))
            pats.append((anchors, tuple(dx * s + dy for dx, dy in o)))
        patterns.append(pats)
    row_cells = [[g.cell(x, y) for x in range(n)] for y in range(n)]
    row0 = sum(1 << (x * s) for x in range(n))
    gather = {}
    for v in range(1 << n):
        gather[sum(1 << (x * s) for x in range(n) if v >> x & 1)] = v
    pack_left, pack_right = {}, {}
    for occ in range(1 << n):
        xs = [x for x in range(n) if occ >> x & 1]
        for sub in range(1 << len(xs)):
            kind = sum(1 << x for i, x in enumerate(xs) if sub >> i & 1)
            pack_left[occ << n | kind] = sub
            pack_right[occ << n | kind] = sum(1 << i for i, x in enumerate(reversed(xs))
                                              if kind >> x & 1)
    return _Tables(n, s, g.full, g.column_masks, (1 << n) - 1, above, below_row, above_row,
                   patterns, row_cells, row0, gather, pack_left, pack_right)


def _hit(t: _Tables, blue: int, shapes: int) -> int:
    """The mask of one AppCon of an allowed shape (7-bit mask) within blue, or 0."""
    for shape in range(7):
        if not shapes >> shape & 1:
            continue
        for anchors, shifts in t.patterns[shape]:
            a = anchors
            for sh in shifts:
                a &= blue >> sh
                if not a:
                    break
            if a:
                low = (a & -a).bit_length() - 1
                return sum(1 << (low + sh) for sh in shifts)
    return 0


def _remove(t: _Tables, boards: tuple[int, int, int], cells: list[int]) -> tuple[int, int, int]:
    """Remove the modules in cells (any order) and let the columns settle."""
    b, o, e = boards
    for c in sorted(cells, reverse=True):
        up = t.above[c]
        keep = ~(up | 1 << c)
        b = (b & keep) | ((b & up) >> 1)
        o = (o & keep) | ((o & up) >> 1)
        e = (e & keep) | ((e & up) >> 1)
    return b, o, e


def _rotate(t: _Tables, b: int, o: int, e: int, right: bool) -> tuple[int, int, int]:
    """Station Rotation (rules.md 5): turn the bay and settle.

    Right: (x, y) goes to (y, n-1-x), so after settling column y holds row y read from
    x = n-1 down; left: (x, y) goes to (n-1-y, x), column n-1-y holds row y from x = 0 up.
    """
    n, s, row0, gather = t.n, t.s, t.row0, t.gather
    pack = t.pack_right if right else t.pack_left
    occ = b | o | e
    nb = no = ne = 0
    for y in range(n):
        ro = gather[(occ >> y) & row0]
        if not ro:
            continue
        key = ro << n
        shift = (y if right else n - 1 - y) * s
        bb = pack[key | gather[(b >> y) & row0]]
        oo = pack[key | gather[(o >> y) & row0]]
        nb |= bb << shift
        no |= oo << shift
        ne |= ((1 << ro.bit_count()) - 1 & ~(bb | oo)) << shift
    return nb, no, ne


@cache
def _best_gains(done: int, u: int) -> int:
    """B3: the most u more unloads can gain with the shelf done (Gold once per shape)."""
    gains = sorted((SHAPE_VALUES[i] + GOLD for i in range(7) if not done >> i & 1),
                   reverse=True)[:u]
    gains += [6] * u
    gains.sort(reverse=True)
    return sum(gains[:u])


@cache
def _fewest_unloads(done: int, need: int) -> int:
    """The fewest unloads that could gain need points with the shelf done (at least 1)."""
    gains = sorted((SHAPE_VALUES[i] + (0 if done >> i & 1 else GOLD) for i in range(7)),
                   reverse=True)
    total, u = 0, 0
    while total < need:
        total += gains[u] if u < len(gains) else 6
        u += 1
    return u


# --- the search ------------------------------------------------------------------------


class _Search:
    """Depth-first search for a solution within r turns, with a shared transposition table."""

    def __init__(self, start: Position, goal: Goal, cards: bool) -> None:
        self.t = _tables(start.n)
        self.g = start.g
        self.old_damage = start.rules == "0.88"
        self.goal = goal
        self.kind = goal.kind
        done = start.gold[BLUE] | start.steel[BLUE]
        hand = start.cards[BLUE] if cards else 0
        need = 1 if goal.kind == "unload" else goal.amount
        self.root: State = (start.cores[0], start.cores[1], start.empty, hand, start.lock,
                            done if goal.kind == "score" else 0, need)
        self.tt: dict[State, int] = {}
        self.nodes = 0
        self._found: dict[int, list[Any]] = {}  # Blue board -> its AppCons

    def appcons(self, blue: int) -> list[Any]:
        """find_appcons(blue), remembered (many children share a Blue board)."""
        found = self._found.get(blue)
        if found is None:
            if len(self._found) > 200_000:
                self._found.clear()
            found = find_appcons(self.g, blue) if blue.bit_count() >= 4 else []
            self._found[blue] = found
        return found

    # bounds ---------------------------------------------------------------------------

    def _possible(self, st: State, r: int) -> bool:
        """Sound bounds (docs/puzzles.md, B1-B3): False only if no solution in r turns."""
        blue, need = st[0], st[6]
        cores = blue.bit_count() + r  # B1: at most one Blue core more per turn
        kind = self.kind
        if kind == "unload":
            return cores >= 4
        if kind == "appcons":  # B2
            return need <= r and cores >= 4 * need
        # B3: the u best gains, u = unloads still possible
        u = min(r, cores // 4)
        return u > 0 and _best_gains(st[5], u) >= need

    def _shapes(self, st: State) -> int:
        """Shapes whose unload alone would meet the goal from this state (7-bit mask)."""
        kind = self.kind
        if kind == "unload":
            return 1 << self.goal.shape
        need = st[6]
        if kind == "appcons":
            return 127 if need <= 1 else 0
        done = st[5]
        mask = 0
        for i in range(7):
            gain = SHAPE_VALUES[i] + (0 if done >> i & 1 else GOLD)
            if gain >= need:
                mask |= 1 << i
        return mask

    # Phase 1 -----------------------------------------------------------------------------

    def _min_unloads(self, st: State) -> int:
        """The fewest unloads that could still meet the goal (B3's gains, at least 1)."""
        kind, need = self.kind, st[6]
        if kind == "unload":
            return 1
        if kind == "appcons":
            return need
        return _fewest_unloads(st[5], need)

    def _drop_cells(self, occ: int, lock: int) -> list[tuple[int, int]]:
        """(column, cell where the module comes to rest) for every legal drop (rules.md 4)."""
        t = self.t
        n, s = t.n, t.s
        out = []
        for x in range(n):
            if x == lock:
                continue
            h = ((occ >> (x * s)) & t.colbits).bit_length()
            if h >= n or (lock >= n and h == lock - n):
                continue
            out.append((x, x * s + h))
        return out

    def _phase1(self, st: State, adding_only: bool = False
                ) -> list[tuple[int, int, int, int, int, int]]:
        """Every legal Phase 1 action with its result (action, B, O, E, hand, lock).

        ``adding_only``: only the actions that add a Blue core (drops, Re-Routing); the
        caller knows by B1 that no other action can lead to a solution.
        """
        t = self.t
        n, s = t.n, t.s
        b, o, e, hand, lock = st[0], st[1], st[2], st[3], st[4]
        occ = b | o | e
        out = [(x, b | 1 << c, o, e, hand, lock) for x, c in self._drop_cells(occ, lock)]
        if not hand:
            return out
        if hand & REROUTE_CARD:
            h2 = hand & ~REROUTE_CARD
            for c in bits(o):
                bit = 1 << c
                out.append((REROUTE + c, b | bit, o & ~bit, e, h2, lock))
        if adding_only:
            return out
        if hand & LOCKDOWN:
            h2 = hand & ~LOCKDOWN
            for k in range(2 * n):
                out.append((LOCK + k, b, o, e, h2, NO_LOCK if k == lock else k))
        if hand & PURGE_CARD:
            h2 = hand & ~PURGE_CARD
            for k in range(2 * n):
                if k == lock:
                    continue
                if k < n:
                    keep = ~t.col[k]
                    out.append((PURGE + k, b & keep, o & keep, e & keep, h2, lock))
                else:
                    y = k - n
                    lo, hi = t.below_row[y], t.above_row[y]
                    out.append((PURGE + k, (b & lo) | ((b & hi) >> 1), (o & lo) | ((o & hi) >> 1),
                                (e & lo) | ((e & hi) >> 1), h2, lock))
        if hand & DAMAGE_CARD:
            h2 = hand & ~DAMAGE_CARD
            if self.old_damage:
                # Old Cargo Damage turns Orange cores into Empty Cans where they stand. One
                # cell dominates two (docs/puzzles.md, D2), so only single cells are tried.
                for c in bits(o):
                    bit = 1 << c
                    out.append((DAMAGE | c << 8 | NO_CELL, b, o & ~bit, e | bit, h2, lock))
            else:
                free = occ
                if lock != NO_LOCK:
                    free &= ~self.g.corridor_masks[lock]
                pairs = [(c, c + s) for c in bits(free & (free >> s))]
                pairs += [(c, c + 1) for c in bits(free & (free >> 1))]
                for c1, c2 in pairs:
                    nb, no, ne = _remove(t, (b, o, e), [c1, c2])
                    out.append((DAMAGE | c1 << 8 | c2, nb, no, ne, h2, lock))
        if hand & ROTATION:
            h2 = hand & ~ROTATION
            for a in (ROTATE_LEFT, ROTATE_RIGHT):
                nb, no, ne = _rotate(t, b, o, e, a == ROTATE_RIGHT)
                out.append((a, nb, no, ne, h2, NO_LOCK))
        return out

    # search ----------------------------------------------------------------------------

    def within(self, st: State, r: int) -> list[Move] | None:
        """A solution of at most r turns from st (not yet solved), or None."""
        if not self._possible(st, r):
            return None
        if st[0] | st[1] | st[2] == self.t.full:  # rules.md 26: a full bay takes no turn
            return None
        if self.tt.get(st, 0) >= r:
            return None
        self.nodes += 1
        found = self._last(st) if r == 1 else self._expand(st, r)
        if found is None and self.tt.get(st, 0) < r:
            self.tt[st] = r
        return found

    def _last(self, st: State) -> list[Move] | None:
        """One turn left: some Phase 1 action must leave an AppCon that meets the goal."""
        shapes = self._shapes(st)
        if not shapes:
            return None
        t = self.t
        b = st[0]
        cores = b.bit_count()
        if cores < 3:
            return None
        if _hit(t, b, shapes):
            # An AppCon is there already: the first action that keeps it (or makes one) wins.
            for act, nb, *_ in self._phase1(st):
                m = _hit(t, nb, shapes)
                if m:
                    return [(act, m)]
            return None
        # B4: none is there now, so Phase 1 must leave Blue a core it did not have before;
        # actions that leave Blue's cores a subset of the cores before are not tried.
        # Same order as _phase1 (drops, Re-Routing, Purge, Damage, Rotation).
        o, e, hand, lock = st[1], st[2], st[3], st[4]
        n, s = t.n, t.s
        occ = b | o | e
        near = self.g.neighbours
        for x, c in self._drop_cells(occ, lock):
            nb = b | 1 << c
            # A new AppCon must hold the new core, so it needs a Blue neighbour.
            if near[c] & b:
                m = _hit(t, nb, shapes)
                if m:
                    return [(x, m)]
        if not hand:
            return None
        if hand & REROUTE_CARD:
            for c in bits(o):
                nb = b | 1 << c
                if near[c] & b:
                    m = _hit(t, nb, shapes)
                    if m:
                        return [(REROUTE + c, m)]
        if cores < 4:  # B1: only a turn that adds a core can unload
            return None
        # Lockdown and column purges leave Blue a subset; so does old Cargo Damage.
        if hand & PURGE_CARD:
            for k in range(n, 2 * n):
                y = k - n
                hi = t.above_row[y]
                if k == lock or not b & hi:
                    continue  # nothing Blue above the row: a subset
                nb = (b & t.below_row[y]) | ((b & hi) >> 1)
                m = _hit(t, nb, shapes)
                if m:
                    return [(PURGE + k, m)]
        if hand & DAMAGE_CARD and not self.old_damage:
            free = occ
            if lock != NO_LOCK:
                free &= ~self.g.corridor_masks[lock]
            above = t.above
            pairs = [(c, c + s) for c in bits(free & (free >> s))]
            pairs += [(c, c + 1) for c in bits(free & (free >> 1))]
            for c1, c2 in pairs:
                if not b & (above[c1] | above[c2]) & ~(1 << c1 | 1 << c2):
                    continue  # no Blue core moves: a subset
                up1, up2 = above[c1], above[c2]
                if c2 == c1 + 1:  # one column: everything above both falls two cells
                    nb = (b & ~(up1 | 1 << c1)) | ((b & up2) >> 2)
                else:
                    nb = ((b & ~(up1 | up2 | 1 << c1 | 1 << c2))
                          | ((b & up1) >> 1) | ((b & up2) >> 1))
                m = _hit(t, nb, shapes)
                if m:
                    return [(DAMAGE | c1 << 8 | c2, m)]
        if hand & ROTATION:
            for a in (ROTATE_LEFT, ROTATE_RIGHT):
                nb = _rotate(t, b, o, e, a == ROTATE_RIGHT)[0]
                m = _hit(t, nb, shapes)
                if m:
                    return [(a, m)]
        return None

    def _expand(self, st: State, r: int) -> list[Move] | None:
        kind = self.kind
        done, need = st[5], st[6]
        # B1 for the children: one that adds no Blue core has at most b cores and r-1 turns.
        adding_only = st[0].bit_count() + r - 1 < 4 * self._min_unloads(st)
        for act, nb, no, ne, hand, lock in self._phase1(st, adding_only):
            if kind == "unload":
                m = _hit(self.t, nb, 1 << self.goal.shape)
                if m:
                    return [(act, m)]
                # D1: an unload of another shape is dominated by not unloading.
                sub = self.within((nb, no, ne, hand, lock, 0, need), r - 1)
                if sub is not None:
                    return [(act, 0), *sub]
                continue
            appcons = self.appcons(nb)
            for a in appcons:
                if kind == "appcons":
                    left = need - 1
                    ndone = 0
                else:
                    bit = 1 << a.shape
                    left = need - SHAPE_VALUES[a.shape] - (0 if done & bit else GOLD)
                    ndone = done | bit
                if left <= 0:
                    return [(act, a.mask)]
                sub = self.within((nb & ~a.mask, no, ne | a.mask, hand, lock, ndone, left), r - 1)
                if sub is not None:
                    return [(act, a.mask), *sub]
            sub = self.within((nb, no, ne, hand, lock, done, need), r - 1)
            if sub is not None:
                return [(act, 0), *sub]
        return None

    def fewest(self, limit: int) -> list[Move] | None:
        """The shortest solution within limit turns (iterative deepening), or None."""
        for d in range(1, limit + 1):
            line = self.within(self.root, d)
            if line is not None:
                return line
        return None


# --- the API ------------------------------------------------------------------------------


def _puzzle(puzzle: Any) -> tuple[Position, Goal, int]:
    """Start, goal and limit of a puzzle given as record text, a Record or a Game."""
    from engine.game import Game

    if isinstance(puzzle, str):
        puzzle = parse_record(puzzle)
    if isinstance(puzzle, Record):
        if puzzle.goal is None or puzzle.limit is None:
            raise EngineError("not a puzzle record: it needs Goal and Turns headers")
        # Fine point 5: any turns present must be legal.
        Game.from_record(puzzle)
        return puzzle.start, puzzle.goal, puzzle.limit
    if isinstance(puzzle, Game):
        if puzzle.goal is None or puzzle.limit is None:
            raise EngineError("not a puzzle: the game has no goal and turn limit")
        return puzzle.start, puzzle.goal, puzzle.limit
    raise TypeError(f"cannot solve a {type(puzzle).__name__}")


def _tokens(start: Position, line: list[Move]) -> list[str]:
    p = start.copy()
    p.solo = True
    out = []
    for action, unload in line:
        out.append(turn_token(action, unload, p))
        p.play(action, unload)
    return out


def _start_over(p: Position) -> bool:
    q = p.copy()
    q.solo = True
    return q.is_over()


def solve(puzzle: Any, *, limit: int | None = None) -> Solution:
    """Solve a puzzle (record text, Record or Game) from its Start; see the module doc."""
    began = time.perf_counter()
    start, goal, record_limit = _puzzle(puzzle)
    if limit is None:
        limit = record_limit
    if limit < 1:
        raise EngineError(f"a turn limit must be at least 1, not {limit}")
    nodes = 0
    line: list[Move] | None = None
    needs_card = False
    if not _start_over(start):
        search = _Search(start, goal, cards=True)
        line = search.fewest(limit)
        nodes = search.nodes
        if line is not None and start.cards[BLUE]:
            # Holding a card never changes which drops are legal, so "without a card" is
            # the same puzzle with an empty hand.
            bare = _Search(start, goal, cards=False)
            needs_card = bare.fewest(limit) is None
            nodes += bare.nodes
        elif line is not None:
            needs_card = False
    seconds = time.perf_counter() - began
    if line is None:
        return Solution(False, None, None, False, False, nodes, seconds)
    fewest = len(line)
    return Solution(True, fewest, _tokens(start, line), needs_card, fewest == limit, nodes,
                    seconds)
