"""A deliberately simple reference implementation of the Cargo Connect rules.

Written straight from /work/shared/spec/rules.md and notation.md, *not* from the engine:
2D lists of characters, no bitboards, no caches, brute force everywhere. It is slow and
that is fine; its only job is to disagree with the engine when the engine is wrong.

The board is ``grid[x][y]`` (x the column from the left, y the row from the bottom, both
from 0) holding one of ``.`` (nothing), ``B`` (Blue core), ``O`` (Orange core) or ``x``
(an Empty Can), the same characters as the position notation.
"""

from __future__ import annotations

import copy
import itertools

LETTERS = "abcdefgh"
DIGITS = "12345678"
CARDS = "SLPDR"
SHAPES = "OTJLSZI"
VALUES = {"O": 3, "T": 4, "J": 4, "L": 4, "S": 5, "Z": 5, "I": 6}
# rules.md 13, y growing upward.
SHAPE_CELLS = {
    "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "I": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "T": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "L": [(0, 0), (0, 1), (0, 2), (1, 0)],
    "J": [(1, 0), (1, 1), (1, 2), (0, 0)],
    "S": [(0, 0), (1, 0), (1, 1), (2, 1)],
    "Z": [(0, 1), (1, 1), (1, 0), (2, 0)],
}
VERSIONS = ("0.88", "0.89", "0.92")


class RefError(Exception):
    pass


def _normalise(cells):
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return frozenset((x - mx, y - my) for x, y in cells)


def _shape_table():
    """normalised cell set -> shape letter, over the four rotations of each shape."""
    table = {}
    for shape, cells in SHAPE_CELLS.items():
        current = list(cells)
        for _ in range(4):
            key = _normalise(current)
            assert table.get(key, shape) == shape, "two shapes share a form"
            table[key] = shape
            current = [(y, -x) for x, y in current]  # a quarter turn; never a mirror
    return table


SHAPE_OF = _shape_table()


def shape_of(cells):
    """The shape four (x, y) cells form, or None."""
    if len(set(cells)) != 4:
        return None
    return SHAPE_OF.get(_normalise(cells))


def cell_name(x, y):
    return LETTERS[x] + DIGITS[y]


def cell_xy(name, n):
    if len(name) != 2 or name[0] not in LETTERS[:n] or name[1] not in DIGITS[:n]:
        raise RefError(f"no cell {name}")
    return LETTERS.index(name[0]), DIGITS.index(name[1])


class State:
    def __init__(self, n=8, rules="0.92"):
        self.n = n
        self.grid = [["."] * n for _ in range(n)]
        self.side = "b"
        self.hands = {"b": "SLPDR", "o": "SLPDR"}
        self.lock = None  # "a".. or "1".. or None
        self.shelf = {"b": {}, "o": {}}  # shape -> "gold" | "steel"
        self.points = {"b": 0, "o": 0}
        self.turns = 0
        self.rules = rules
        self.solo = False

    def clone(self):
        return copy.deepcopy(self)

    # --- notation ---------------------------------------------------------------------

    def format(self):
        n = self.n
        rows = ["".join(self.grid[x][y] for x in range(n)) for y in range(n - 1, -1, -1)]

        def shelf(side):
            out = ""
            for s in SHAPES:
                if s in self.shelf[side]:
                    out += s if self.shelf[side][s] == "gold" else s.lower()
            return out or "-"

        return " ".join([
            "/".join(rows), self.side, self.hands["b"] or "-", self.hands["o"] or "-",
            self.lock or "-", shelf("b"), shelf("o"), str(self.points["b"]),
            str(self.points["o"]), str(self.turns), self.rules,
        ])

    @staticmethod
    def parse(text):
        fields = text.split(" ")
        if len(fields) != 11:
            raise RefError("fields")
        rows = fields[0].split("/")
        n = len(rows)
        if n < 5 or n > 8 or fields[10] not in VERSIONS:
            raise RefError("size or rules")
        st = State(n, fields[10])
        for r, row in enumerate(rows):
            if len(row) != n:
                raise RefError("row")
            for x, ch in enumerate(row):
                if ch not in ".BOx":
                    raise RefError("cell")
                st.grid[x][n - 1 - r] = ch
        for x in range(n):
            col = st.grid[x]
            for y in range(1, n):
                if col[y] != "." and col[y - 1] == ".":
                    raise RefError("floats")
        if fields[1] not in ("b", "o"):
            raise RefError("side")
        st.side = fields[1]
        for side, text_ in (("b", fields[2]), ("o", fields[3])):
            hand = "" if text_ == "-" else text_
            if not hand or any(c not in CARDS for c in hand) or hand != "".join(
                    c for c in CARDS if c in hand):
                if text_ != "-":
                    raise RefError("cards")
            st.hands[side] = hand
        if fields[4] != "-" and fields[4] not in LETTERS[:n] + DIGITS[:n]:
            raise RefError("lock")
        st.lock = None if fields[4] == "-" else fields[4]
        for side, text_ in (("b", fields[5]), ("o", fields[6])):
            if text_ == "-":
                continue
            if any(c not in SHAPES + SHAPES.lower() for c in text_):
                raise RefError("shape")
            order = [SHAPES.index(c.upper()) for c in text_]
            if order != sorted(set(order)):
                raise RefError("shape order")
            for c in text_:
                st.shelf[side][c.upper()] = "gold" if c.isupper() else "steel"
        for s in SHAPES:
            if st.shelf["b"].get(s) == "gold" and st.shelf["o"].get(s) == "gold":
                raise RefError("two golds")
        for f in fields[7:10]:
            if not f or any(c not in "0123456789" for c in f):
                raise RefError("number")
        st.points = {"b": int(fields[7]), "o": int(fields[8])}
        st.turns = int(fields[9])
        return st

    # --- facts ------------------------------------------------------------------------

    def height(self, x):
        return sum(1 for y in range(self.n) if self.grid[x][y] != ".")

    def is_full(self):
        return all(self.grid[x][y] != "." for x in range(self.n) for y in range(self.n))

    def in_lock(self, x, y):
        if self.lock is None:
            return False
        if self.lock in LETTERS:
            return LETTERS.index(self.lock) == x
        return DIGITS.index(self.lock) == y

    def corridors(self):
        return list(LETTERS[: self.n]) + list(DIGITS[: self.n])

    def cells_of(self, ch):
        return [(x, y) for x in range(self.n) for y in range(self.n) if self.grid[x][y] == ch]

    def phase1_tokens(self, side):
        """Every legal Phase 1 token of a side if it were to move (no pass)."""
        n = self.n
        other = "o" if side == "b" else "b"
        out = []
        for x in range(n):  # rules.md 4
            h = self.height(x)
            if h >= n or self.lock == LETTERS[x]:
                continue
            if self.lock is not None and self.lock in DIGITS and DIGITS.index(self.lock) == h:
                continue
            out.append(LETTERS[x])
        hand = self.hands[side]
        if "S" in hand:
            out += ["S<", "S>"]
        if "L" in hand:
            out += ["L" + c for c in self.corridors()]
        if "P" in hand:
            out += ["P" + c for c in self.corridors() if c != self.lock]
        theirs = sorted(cell_name(x, y) for x, y in self.cells_of("B" if other == "b" else "O"))
        if "D" in hand:
            if self.rules == "0.88":
                out += ["D" + c for c in theirs]
                out += ["D" + a + b for a, b in itertools.combinations(theirs, 2)]
            else:
                for x in range(n):
                    for y in range(n):
                        for dx, dy in ((1, 0), (0, 1)):
                            x2, y2 = x + dx, y + dy
                            if x2 >= n or y2 >= n:
                                continue
                            if self.grid[x][y] == "." or self.grid[x2][y2] == ".":
                                continue
                            if self.in_lock(x, y) or self.in_lock(x2, y2):
                                continue
                            a, b = sorted([cell_name(x, y), cell_name(x2, y2)])
                            out.append("D" + a + b)
        if "R" in hand:
            out += ["R" + c for c in theirs]
        return out

    def is_over(self):
        if self.is_full():
            return True
        if self.solo:
            return not self.phase1_tokens("b")
        return not self.phase1_tokens("b") and not self.phase1_tokens("o")

    def legal(self):
        """rules.md 16 and notation.md: sorted tokens; ['-'] when the mover must pass."""
        if self.is_over():
            return []
        mine = self.phase1_tokens(self.side)
        return sorted(mine) if mine else ["-"]

    def unloads(self):
        """Every (sorted cell string, shape) the side to move could unload, sorted."""
        core = "B" if self.side == "b" else "O"
        n = self.n
        out = []
        # brute force: every rotation of every shape at every offset where it fits on the
        # bay (a form's cells start at 0, 0: `_normalise`)
        for form, shape in SHAPE_OF.items():
            width, height = 1 + max(x for x, _ in form), 1 + max(y for _, y in form)
            for ox in range(n - width + 1):
                for oy in range(n - height + 1):
                    if all(self.grid[ox + x][oy + y] == core for x, y in form):
                        out.append(("".join(sorted(cell_name(ox + x, oy + y) for x, y in form)),
                                    shape))
        return sorted(out)

    # --- changes ----------------------------------------------------------------------

    def settle(self):
        for x in range(self.n):
            col = [c for c in self.grid[x] if c != "."]
            self.grid[x] = col + ["."] * (self.n - len(col))

    def rotate(self, right):
        n = self.n
        new = [["."] * n for _ in range(n)]
        for x in range(n):
            for y in range(n):
                if right:
                    new[y][n - 1 - x] = self.grid[x][y]
                else:
                    new[n - 1 - y][x] = self.grid[x][y]
        self.grid = new
        self.settle()
        self.lock = None

    def apply_phase1(self, token):
        """Apply a Phase 1 token, which must be in legal()."""
        side = self.side
        other = "o" if side == "b" else "b"
        n = self.n
        if token == "-":
            return
        if len(token) == 1:
            x = LETTERS.index(token)
            self.grid[x][self.height(x)] = "B" if side == "b" else "O"
            return
        card = token[0]
        self.hands[side] = self.hands[side].replace(card, "")
        arg = token[1:]
        if card == "S":
            self.rotate(arg == ">")
        elif card == "L":
            self.lock = None if self.lock == arg else arg
        elif card == "P":
            if arg in LETTERS:
                x = LETTERS.index(arg)
                self.grid[x] = ["."] * n
            else:
                y = DIGITS.index(arg)
                for x in range(n):
                    self.grid[x][y] = "."
                self.settle()
        elif card == "D":
            cells = [cell_xy(arg[i:i + 2], n) for i in range(0, len(arg), 2)]
            for x, y in cells:
                if self.rules == "0.88":
                    self.grid[x][y] = "x"
                else:
                    self.grid[x][y] = "."
            self.settle()
        elif card == "R":
            x, y = cell_xy(arg, n)
            self.grid[x][y] = "B" if side == "b" else "O"
        del other

    def apply_unload(self, cells):
        """Unload four cells (which must be an AppCon of the mover). Returns points gained."""
        side = self.side
        other = "o" if side == "b" else "b"
        shape = shape_of(cells)
        for x, y in cells:
            self.grid[x][y] = "x"
        gained = VALUES[shape]
        if shape not in self.shelf[side]:
            if shape in self.shelf[other]:
                self.shelf[side][shape] = "steel"
            else:
                self.shelf[side][shape] = "gold"
                gained += 2
        self.points[side] += gained
        return shape, gained

    def end_turn(self):
        self.turns += 1
        if not self.solo:
            self.side = "o" if self.side == "b" else "b"

    # --- the Final Audit ----------------------------------------------------------------

    def audit(self):
        """(winner, blue final, orange final) by rules.md 18-19."""
        rust = {s: 7 - len(self.shelf[s]) for s in "bo"}
        gold = {s: sum(1 for v in self.shelf[s].values() if v == "gold") for s in "bo"}
        final = {s: self.points[s] - 2 * rust[s] for s in "bo"}
        if final["b"] != final["o"]:
            w = "blue" if final["b"] > final["o"] else "orange"
        elif gold["b"] != gold["o"]:
            w = "blue" if gold["b"] > gold["o"] else "orange"
        elif self.rules != "0.92":
            w = None
        elif rust["b"] != rust["o"]:
            w = "blue" if rust["b"] < rust["o"] else "orange"
        else:
            w = "orange"
        return w, final["b"], final["o"]


class RefGame:
    """A shift or puzzle run in the reference: start state, goal, limit, resign."""

    def __init__(self, start, goal=None, limit=None):
        self.state = start.clone()
        self.state.solo = goal is not None
        self.goal = goal  # ("unload", "S") / ("score", 12) / ("appcons", 2)
        self.limit = limit
        self.ply = 0
        self.gained = 0
        self.unloaded = 0
        self.solved = False
        self.resigned = None

    @property
    def over(self):
        if self.resigned or self.solved:
            return True
        if self.goal is not None and self.ply >= self.limit:
            return True
        return self.state.is_over()

    def legal(self):
        return [] if self.over else self.state.legal()

    def result(self):
        if not self.over:
            return None
        st = self.state
        if self.goal is not None:
            return {"winner": "blue" if self.solved else None, "blue": st.points["b"],
                    "orange": 0}
        w, b, o = st.audit()
        if self.resigned:
            w = "orange" if self.resigned == "b" else "blue"
        return {"winner": w, "blue": b, "orange": o}

    def summary(self):
        return {"position": self.state.format(), "legal": self.legal(), "over": self.over,
                "result": self.result()}

    def play(self, token):
        """Play a whole turn token; raise RefError if it is not legal."""
        if token == "resign":
            if self.over:
                raise RefError("over")
            self.resigned = self.state.side
            return
        if self.over:
            raise RefError("over")
        phase1, _, unload = token.partition("+")
        if phase1.startswith("D") and len(phase1) == 5:
            # cell lists are written sorted, but readers accept any order (notation.md)
            phase1 = "D" + "".join(sorted([phase1[1:3], phase1[3:5]]))
        if phase1 not in self.state.legal():
            raise RefError(f"illegal {token}")
        after = self.state.clone()
        after.apply_phase1(phase1)
        if "+" in token:
            if len(unload) != 8:
                raise RefError("unload")
            cells = [cell_xy(unload[i:i + 2], after.n) for i in range(0, 8, 2)]
            names = "".join(sorted(unload[i:i + 2] for i in range(0, 8, 2)))
            if (names, shape_of(cells)) not in after.unloads():
                raise RefError("not an unload")
            shape, gained = after.apply_unload(cells)
            if self.goal is not None:
                self.gained += gained
                self.unloaded += 1
                kind, arg = self.goal
                if kind == "unload":
                    self.solved = shape == arg
                elif kind == "score":
                    self.solved = self.gained >= arg
                else:
                    self.solved = self.unloaded >= arg
        after.end_turn()
        self.state = after
        self.ply += 1
