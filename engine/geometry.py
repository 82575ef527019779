"""Bay geometry: bit layout, cell and corridor names, and the AppCon masks of each size.

A bay of size N is stored as Python integers used as bitboards. Cell (x, y) (column x
from the left, row y from the bottom, both from 0) is bit ``x * STRIDE + y`` with
``STRIDE = N + 1``: each column is a run of N bits followed by one guard bit that is
never set, so shifting a board by one row or one column never wraps a cell into a
neighbouring column. Column-major order also makes "sorted by cell name" the same as
"sorted by bit index" (``a1 < a2 < ... < b1``), which the notation relies on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from engine.errors import EngineError

SIZES = (5, 6, 7, 8)
COLUMN_LETTERS = "abcdefgh"
ROW_DIGITS = "12345678"

#: The seven AppCon shapes in chit order, as rules.md item 13 draws them (y grows upward).
SHAPE_ORDER = "OTJLSZI"
SHAPE_CELLS: dict[str, tuple[tuple[int, int], ...]] = {
    "O": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "T": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "L": ((0, 0), (0, 1), (0, 2), (1, 0)),
    "J": ((1, 0), (1, 1), (1, 2), (0, 0)),
    "S": ((0, 0), (1, 0), (1, 1), (2, 1)),
    "Z": ((0, 1), (1, 1), (1, 0), (2, 0)),
}
SHAPE_VALUE = {"O": 3, "T": 4, "J": 4, "L": 4, "S": 5, "Z": 5, "I": 6}
#: Shape index (position in SHAPE_ORDER) to its chit bit and value.
SHAPE_BIT = {s: 1 << i for i, s in enumerate(SHAPE_ORDER)}
ALL_SHAPES = (1 << len(SHAPE_ORDER)) - 1


def orientations(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations (never mirror images) of a shape, normalised to (0, 0)."""
    found: list[tuple[tuple[int, int], ...]] = []
    current = list(cells)
    for _ in range(4):
        min_x = min(x for x, _ in current)
        min_y = min(y for _, y in current)
        norm = tuple(sorted((x - min_x, y - min_y) for x, y in current))
        if norm not in found:
            found.append(norm)
        current = [(y, -x) for x, y in current]
    return found


@dataclass(frozen=True)
class AppConMask:
    """One placement of one shape on the bay."""

    mask: int
    shape: int  # index into SHAPE_ORDER
    cells: tuple[int, ...]  # bit indices, ascending (= notation order)
    rank: int  # position of this placement among all placements, in notation order
    names: str = ""  # the cells in notation, ``a1a2a3b1`` (what `Geometry.names` gives)


@dataclass
class Geometry:
    """Everything about an N×N bay that does not depend on what is in it."""

    n: int
    stride: int = 0
    full: int = 0
    column_masks: list[int] = field(default_factory=list)
    row_masks: list[int] = field(default_factory=list)
    corridor_masks: list[int] = field(default_factory=list)
    corridor_names: list[str] = field(default_factory=list)
    cell_names: dict[int, str] = field(default_factory=dict)
    cell_index: dict[str, int] = field(default_factory=dict)
    appcons: list[AppConMask] = field(default_factory=list)
    appcons_by_cell: dict[int, list[AppConMask]] = field(default_factory=dict)
    appcons_by_anchor: dict[int, list[AppConMask]] = field(default_factory=dict)
    #: per cell (indexed by bit), the mask of its orthogonal neighbours on the bay.
    neighbours: list[int] = field(default_factory=list)
    #: each row's cell bits, left to right, the top row first (the order of the notation).
    board_rows: list[list[int]] = field(default_factory=list)
    #: the bay's notation with every cell empty, and per cell (indexed by bit) where its
    #: character stands in that text.
    empty_board: str = ""
    board_offsets: list[int] = field(default_factory=list)
    #: `appcons_through`'s answers by (cell, the cores within three steps of it): the
    #: searches ask the same question of the same neighbourhood again and again.
    through_memo: dict[tuple[int, int], list[AppConMask]] = field(
        default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        n = self.n
        self.stride = s = n + 1
        self.column_masks = [((1 << n) - 1) << (x * s) for x in range(n)]
        self.row_masks = [sum(1 << (x * s + y) for x in range(n)) for y in range(n)]
        self.full = sum(self.column_masks)
        self.corridor_masks = self.column_masks + self.row_masks
        self.corridor_names = list(COLUMN_LETTERS[:n]) + list(ROW_DIGITS[:n])
        self.board_rows = [[1 << (x * s + y) for x in range(n)] for y in range(n - 1, -1, -1)]
        self.empty_board = "/".join(["." * n] * n)
        self.board_offsets = [0] * (n * s)
        for x in range(n):
            for y in range(n):
                self.board_offsets[x * s + y] = (n - 1 - y) * (n + 1) + x
                name = COLUMN_LETTERS[x] + ROW_DIGITS[y]
                self.cell_names[x * s + y] = name
                self.cell_index[name] = x * s + y
        self.neighbours = [0] * (n * s)
        for cell in self.cell_names:
            around = 1 << cell + 1 | 1 << cell + s | (1 << cell - 1 if cell else 0)
            around |= 1 << cell - s if cell >= s else 0
            self.neighbours[cell] = around & self.full
        self._build_appcons()

    def _build_appcons(self) -> None:
        n, s = self.n, self.stride
        placements: list[tuple[tuple[int, ...], int]] = []
        for shape_index, shape in enumerate(SHAPE_ORDER):
            for orientation in orientations(SHAPE_CELLS[shape]):
                width = max(x for x, _ in orientation) + 1
                height = max(y for _, y in orientation) + 1
                for ox in range(n - width + 1):
                    for oy in range(n - height + 1):
                        cells = tuple(sorted((ox + x) * s + oy + y for x, y in orientation))
                        placements.append((cells, shape_index))
        placements.sort()
        for rank, (cells, shape_index) in enumerate(placements):
            mask = sum(1 << c for c in cells)
            appcon = AppConMask(mask, shape_index, cells, rank, self.names(mask))
            self.appcons.append(appcon)
            self.appcons_by_anchor.setdefault(cells[0], []).append(appcon)
            for c in cells:
                self.appcons_by_cell.setdefault(c, []).append(appcon)
        self.appcon_by_mask = {a.mask: a for a in self.appcons}

    # --- names -------------------------------------------------------------------------

    def name(self, cell: int) -> str:
        return self.cell_names[cell]

    def names(self, mask: int) -> str:
        """The cells of a mask as one sorted notation string: ``a1b1c1``."""
        return "".join(self.cell_names[c] for c in bits(mask))

    def xy(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.stride)

    def cell(self, x: int, y: int) -> int:
        return x * self.stride + y


def bits(mask: int) -> list[int]:
    """The indices of the set bits of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@cache
def geometry(n: int) -> Geometry:
    """The (shared, read-only) geometry of an N×N bay."""
    if n not in SIZES:
        raise EngineError(f"bay size must be 5 to 8, not {n}")
    return Geometry(n)


# --- finding AppCons on a board -------------------------------------------------------------


def find_appcons(g: Geometry, mine: int) -> list[AppConMask]:
    """Every AppCon within a board of one side's cores, in notation order."""
    s = g.stride
    # Only cells in groups of four or more can be part of an AppCon.
    rest, big = mine, 0
    while rest:
        group = rest & -rest
        while True:
            grown = (group | group << 1 | group >> 1 | group << s | group >> s) & mine
            if grown == group:
                break
            group = grown
        rest &= ~group
        if group.bit_count() >= 4:
            big |= group
    found = []
    for anchor in bits(big):
        for appcon in g.appcons_by_anchor.get(anchor, ()):
            if appcon.mask & big == appcon.mask:
                found.append(appcon)
    return found


THROUGH_MEMO_SIZE = 1 << 18  # answers kept per bay size (then forgotten all at once)


def appcons_through(g: Geometry, mine: int, cell: int) -> list[AppConMask]:
    """The AppCons within mine that contain cell.

    A connected group of four or more cores that contains the cell always contains a
    tetromino through it (take the first four cells of a breadth-first walk from it), and
    those cells are all within three steps; so three steps of growth decide quickly
    whether there is anything to look for.
    """
    if not g.neighbours[cell] & mine:
        return []
    s = g.stride
    reach = 1 << cell
    for _ in range(3):
        reach = (reach | reach << 1 | reach >> 1 | reach << s | reach >> s) & mine
    if reach.bit_count() < 4:
        return []
    memo = g.through_memo
    found = memo.get((cell, reach))
    if found is None:
        if len(memo) >= THROUGH_MEMO_SIZE:
            memo.clear()
        found = memo[cell, reach] = [a for a in g.appcons_by_cell[cell]
                                     if a.mask & reach == a.mask]
    return found
