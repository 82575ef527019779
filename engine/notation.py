"""The notation of spec/notation.md: positions, turn tokens, game and puzzle records.

Three layers, as in python-chess: :func:`parse_token` reads a token's syntax only,
:func:`interpret_turn` checks it against a position, and :class:`engine.game.Game`
applies it. Every error is an :class:`EngineError` whose message quotes the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.geometry import COLUMN_LETTERS, SHAPE_ORDER, SIZES, Geometry
from engine.position import (
    BLUE,
    CARD_ORDER,
    CURRENT_RULES,
    DAMAGE,
    LOCK,
    NO_CELL,
    NO_LOCK,
    ORANGE,
    PASS,
    PURGE,
    REROUTE,
    ROTATE_LEFT,
    ROTATE_RIGHT,
    RULES_VERSIONS,
    Position,
    card_of,
)
from engine.position import format_board as format_board  # written beside Position
from engine.position import format_position as format_position

_BOARD_CHARS = {".": None, "B": 0, "O": 1, "x": 2}

# --- positions ------------------------------------------------------------------------
# Written by engine.position (format_position, format_board: a position writes itself, as
# python-chess's Board writes its FEN, so the two modules import one way), read here.


def parse_position(text: str) -> Position:
    """Read a position; raise EngineError naming the bad field if it is malformed."""
    if not isinstance(text, str):
        raise EngineError("a position must be text")
    fields = text.split(" ")
    if len(fields) != 11 or any(f == "" for f in fields):
        raise EngineError(
            f"malformed position {text!r}: expected 11 fields separated by single spaces, "
            f"found {len([f for f in fields if f])}"
        )
    board, side, blue_hand, orange_hand, lock, blue_shelf, orange_shelf, *rest = fields
    blue_points, orange_points, turns, rules = rest
    rows = board.split("/")
    n = len(rows)
    if n not in SIZES:
        raise EngineError(f"malformed position board {board!r}: a bay has 5 to 8 rows, not {n}")
    if rules not in RULES_VERSIONS:
        raise EngineError(f"malformed position: unknown rules version {rules!r} "
                          f"(expected one of {', '.join(RULES_VERSIONS)})")
    p = Position(n, rules)
    g = p.g
    boards = [0, 0, 0]
    for r, row in enumerate(rows):
        y = n - 1 - r
        if len(row) != n:
            raise EngineError(f"malformed position board {board!r}: row {y + 1} is {row!r}, "
                              f"which is not {n} cells")
        for x, ch in enumerate(row):
            if ch not in _BOARD_CHARS:
                raise EngineError(f"malformed position board {board!r}: unknown cell {ch!r} "
                                  f"at {g.name(g.cell(x, y))} (expected . B O x)")
            kind = _BOARD_CHARS[ch]
            if kind is not None:
                boards[kind] |= 1 << g.cell(x, y)
    p.cores = [boards[0], boards[1]]
    p.empty = boards[2]
    occupied = p.occupied
    for x in range(n):
        column = (occupied >> (x * g.stride)) & ((1 << n) - 1)
        height = column.bit_length()
        if column != (1 << height) - 1:
            floating = next(y for y in range(height) if not column >> y & 1)
            raise EngineError(f"malformed position board {board!r}: a module floats over the "
                              f"empty cell {g.name(g.cell(x, floating))}")
        p.heights[x] = height
    if side not in ("b", "o"):
        raise EngineError(f"malformed position: side to move must be b or o, not {side!r}")
    p.side = BLUE if side == "b" else ORANGE
    p.cards = [_parse_hand(blue_hand, "Blue"), _parse_hand(orange_hand, "Orange")]
    p.lock = _parse_lock(lock, g)
    p.gold[BLUE], p.steel[BLUE] = _parse_shelf(blue_shelf, "Blue")
    p.gold[ORANGE], p.steel[ORANGE] = _parse_shelf(orange_shelf, "Orange")
    both = p.gold[BLUE] & p.gold[ORANGE]
    if both:
        shape = SHAPE_ORDER[(both & -both).bit_length() - 1]
        raise EngineError(f"malformed position: both players hold the Gold chit of {shape}")
    p.points = [_parse_number(blue_points, "Blue's points"),
                _parse_number(orange_points, "Orange's points")]
    p.turns = _parse_number(turns, "turn count")
    return p


def _parse_hand(text: str, who: str) -> int:
    if text == "-":
        return 0
    hand, last = 0, -1
    for ch in text:
        i = CARD_ORDER.find(ch)
        if i < 0:
            raise EngineError(f"malformed position: {who}'s cards {text!r} have an unknown "
                              f"card {ch!r} (cards are S L P D R)")
        if i <= last:
            raise EngineError(f"malformed position: {who}'s cards {text!r} are repeated or out "
                              f"of the order SLPDR")
        hand |= 1 << i
        last = i
    return hand


def _parse_shelf(text: str, who: str) -> tuple[int, int]:
    if text == "-":
        return 0, 0
    gold = steel = 0
    last = -1
    for ch in text:
        i = SHAPE_ORDER.find(ch.upper())
        if i < 0 or ch not in SHAPE_ORDER + SHAPE_ORDER.lower():
            raise EngineError(f"malformed position: {who}'s shapes {text!r} have an unknown "
                              f"shape {ch!r} (shapes are O T J L S Z I)")
        if i <= last:
            raise EngineError(f"malformed position: {who}'s shapes {text!r} are repeated or "
                              f"out of the order OTJLSZI")
        last = i
        if ch.isupper():
            gold |= 1 << i
        else:
            steel |= 1 << i
    return gold, steel


def _parse_lock(text: str, g: Geometry) -> int:
    if text == "-":
        return NO_LOCK
    if text in g.corridor_names:
        return g.corridor_names.index(text)
    raise EngineError(f"malformed position: locked corridor {text!r} is not a row or column "
                      f"of a {g.n}×{g.n} bay")


def _parse_number(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise EngineError(f"malformed position: {what} {text!r} is not a whole number")
    return int(text)


def start_position(n: int = 8, rules: str = CURRENT_RULES) -> Position:
    """The empty bay of a new shift."""
    if n not in SIZES:
        raise EngineError(f"bay size must be 5 to 8, not {n}")
    if rules not in RULES_VERSIONS:
        raise EngineError(f"unknown rules version {rules!r}")
    return Position(n, rules)


# --- turn tokens --------------------------------------------------------------------------

_CELL = r"[a-z][0-9]"
_TOKEN = re.compile(
    rf"(?P<phase1>[a-z]|S[<>]|[LP][a-z0-9]|D(?:{_CELL}){{1,2}}|R{_CELL}|-)"
    rf"(?:\+(?P<unload>(?:{_CELL}){{4}}))?$"
)


@dataclass(frozen=True)
class TurnToken:
    """A turn token read for its syntax only: the Phase 1 part and the unload cells."""

    phase1: str
    unload: tuple[str, ...] = ()


def parse_token(token: str) -> TurnToken:
    """Read a turn token's syntax (not its legality)."""
    m = _TOKEN.fullmatch(token)
    if not m:
        raise EngineError(f"unknown token {token!r}")
    unload = m.group("unload")
    cells = tuple(unload[i:i + 2] for i in range(0, len(unload), 2)) if unload else ()
    return TurnToken(m.group("phase1"), cells)


def _cell(name: str, g: Geometry, token: str) -> int:
    cell = g.cell_index.get(name)
    if cell is None:
        raise EngineError(f"{token!r}: there is no cell {name} on a {g.n}×{g.n} bay")
    return cell


def _corridor(name: str, g: Geometry, token: str) -> int:
    if name not in g.corridor_names:
        raise EngineError(f"{token!r}: there is no corridor {name} on a {g.n}×{g.n} bay")
    return g.corridor_names.index(name)


def interpret_phase1(text: str, p: Position, token: str | None = None) -> int:
    """The action a Phase 1 token names in this position (names only; not legality)."""
    token = token or text
    g = p.g
    head = text[0]
    if text == "-":
        return PASS
    if len(text) == 1:
        if head not in COLUMN_LETTERS[: p.n]:
            raise EngineError(f"{token!r}: there is no column {head} on a {p.n}×{p.n} bay")
        return COLUMN_LETTERS.index(head)
    if text == "S<":
        return ROTATE_LEFT
    if text == "S>":
        return ROTATE_RIGHT
    if head == "L":
        return LOCK + _corridor(text[1:], g, token)
    if head == "P":
        return PURGE + _corridor(text[1:], g, token)
    if head == "R":
        return REROUTE + _cell(text[1:], g, token)
    if head == "D":
        cells = sorted(_cell(text[i:i + 2], g, token) for i in range(1, len(text), 2))
        if len(cells) == 2 and cells[0] == cells[1]:
            raise EngineError(f"{token!r}: Cargo Damage names the same cell twice")
        if len(cells) == 1:
            return DAMAGE | cells[0] << 8 | NO_CELL
        return DAMAGE | cells[0] << 8 | cells[1]
    raise EngineError(f"unknown token {token!r}")


def action_token(action: int, p: Position) -> str:
    """The token of a Phase 1 action on this bay."""
    g = p.g
    if action < ROTATE_LEFT:
        return COLUMN_LETTERS[action]
    if action == ROTATE_LEFT:
        return "S<"
    if action == ROTATE_RIGHT:
        return "S>"
    if action == PASS:
        return "-"
    if action < PURGE:
        return "L" + g.corridor_names[action - LOCK]
    if action < REROUTE:
        return "P" + g.corridor_names[action - PURGE]
    if action < DAMAGE:
        return "R" + g.name(action - REROUTE)
    a, b = (action >> 8) & 0xFF, action & 0xFF
    return "D" + g.name(a) + ("" if b == NO_CELL else g.name(b))


def turn_token(action: int, unload: int, p: Position) -> str:
    """The whole turn token: Phase 1, then ``+`` and the unloaded cells if any."""
    token = action_token(action, p)
    return token + "+" + p.g.names(unload) if unload else token


def interpret_turn(token: str, p: Position) -> tuple[int, int]:
    """Read a turn token and check it is legal for the side to move in p.

    Returns (action, unload mask). The unload is checked against the position *after*
    the Phase 1 action, so this plays Phase 1 on a copy.
    """
    parsed = parse_token(token)
    action = interpret_phase1(parsed.phase1, p, token)
    if action not in p.actions():
        raise EngineError(f"illegal turn {token!r}: {_why_illegal(action, p)}")
    mask = 0
    if parsed.unload:
        cells = [_cell(c, p.g, token) for c in parsed.unload]
        if len(set(cells)) != 4:
            raise EngineError(f"illegal unload in {token!r}: the four cells must be distinct")
        mask = sum(1 << c for c in cells)
        after = p.copy()
        after.apply_action(action)
        if p.g.appcon_by_mask.get(mask) is None:
            raise EngineError(f"illegal unload in {token!r}: {p.g.names(mask)} is not an AppCon "
                              f"shape (O T J L S Z I)")
        if after.unload_shape(mask) is None:
            raise EngineError(f"illegal unload in {token!r}: {p.g.names(mask)} are not all "
                              f"cores of the side to move after Phase 1")
    return action, mask


def _why_illegal(action: int, p: Position) -> str:
    """A short reason an action named in a position is not legal there."""
    if p.is_over():
        return "the shift is over"
    side = "Blue" if p.side == BLUE else "Orange"
    if action == PASS:
        return f"{side} has a legal action, so may not pass"
    if action < ROTATE_LEFT:
        if p.heights[action] >= p.n:
            return "that column is full"
        return "that column is MagLocked, or the module would come to rest in the locked row"
    card = card_of(action)
    if not p.cards[p.side] & card:
        return f"{side} does not hold that card (it is spent or was never held)"
    if action >= DAMAGE:
        if p.rules == "0.88":
            return "old Cargo Damage takes one or two of the opponent's cores"
        return ("Cargo Damage takes two side-by-side occupied cells, neither in the locked "
                "corridor")
    if action >= REROUTE:
        return "Re-Routing Order takes one of the opponent's cores"
    if action >= PURGE:
        return "a MagLocked corridor cannot be purged"
    return "not a legal action here"


# --- records ---------------------------------------------------------------------------

_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "([^"]*)"\]\s*(?:#.*)?$')
GOALS = ("unload", "score", "appcons")


@dataclass(frozen=True)
class Goal:
    """A puzzle goal: ``unload:X``, ``score:K`` or ``appcons:K``."""

    kind: str
    shape: int = -1  # for unload: index in SHAPE_ORDER
    amount: int = 0  # for score and appcons

    def __str__(self) -> str:
        if self.kind == "unload":
            return f"unload:{SHAPE_ORDER[self.shape]}"
        return f"{self.kind}:{self.amount}"


def parse_goal(text: str) -> Goal:
    kind, sep, arg = text.partition(":")
    if not sep or kind not in GOALS:
        raise EngineError(f"unknown puzzle goal {text!r} (expected unload:X, score:K or "
                          f"appcons:K)")
    if kind == "unload":
        if len(arg) != 1 or arg not in SHAPE_ORDER:
            raise EngineError(f"puzzle goal {text!r}: {arg!r} is not a shape (O T J L S Z I)")
        return Goal("unload", shape=SHAPE_ORDER.index(arg))
    if not arg.isascii() or not arg.isdigit() or int(arg) < 1:
        raise EngineError(f"puzzle goal {text!r}: {arg!r} is not a whole number of at least 1")
    return Goal(kind, amount=int(arg))


@dataclass
class Record:
    """A game or puzzle record: its headers, start position and turn tokens."""

    headers: dict[str, str] = field(default_factory=dict)
    start: Position = field(default_factory=Position)
    tokens: list[str] = field(default_factory=list)
    goal: Goal | None = None
    limit: int | None = None

    @property
    def is_puzzle(self) -> bool:
        return self.goal is not None


def decode(data: bytes) -> str:
    """Input bytes as text: UTF-8, a leading byte-order mark ignored."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise EngineError(f"input is not UTF-8 text (bad byte at offset {e.start})") from None
    return text.removeprefix("\ufeff")


def parse_record(text: str) -> Record:
    """Read a game or puzzle record (headers, comments and turn tokens)."""
    text = text.removeprefix("\ufeff")
    headers: dict[str, str] = {}
    tokens: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            m = _HEADER.match(stripped)
            if not m:
                raise EngineError(f"malformed header line {stripped!r} (expected [Name \"value\"])")
            if tokens:
                raise EngineError(f"header {stripped!r} comes after the first turn")
            name, value = m.group(1), m.group(2)
            if name in headers:
                raise EngineError(f"header {name!r} is repeated")
            headers[name] = value
            continue
        tokens += line.split("#", 1)[0].split()
    return _record_from(headers, tokens)


def _record_from(headers: dict[str, str], tokens: list[str]) -> Record:
    size = None
    if "Size" in headers:
        value = headers["Size"]
        if not value.isascii() or not value.isdigit() or int(value) not in SIZES:
            raise EngineError(f"bad Size header {value!r}: a bay is 5 to 8 cells across")
        size = int(value)
    rules = None
    if "Rules" in headers:
        rules = headers["Rules"]
        if rules not in RULES_VERSIONS:
            raise EngineError(f"bad Rules header {rules!r} (expected one of "
                              f"{', '.join(RULES_VERSIONS)})")
    if "Start" in headers:
        try:
            start = parse_position(headers["Start"])
        except EngineError as e:
            raise EngineError(f"bad Start header: {e}") from None
        if size is not None and start.n != size:
            raise EngineError(f"Start is a {start.n}×{start.n} bay but Size says {size}")
        if rules is not None and start.rules != rules:
            raise EngineError(f"Start has rules {start.rules} but Rules says {rules}")
    else:
        start = Position(size or 8, rules or CURRENT_RULES)
    record = Record(headers, start, tokens)
    if ("Goal" in headers) != ("Turns" in headers):
        raise EngineError("a puzzle record needs both a Goal and a Turns header")
    if "Goal" in headers:
        record.goal = parse_goal(headers["Goal"])
        value = headers["Turns"]
        if not value.isascii() or not value.isdigit() or int(value) < 1:
            raise EngineError(f"bad Turns header {value!r}: a puzzle has a turn limit of at "
                              f"least 1")
        record.limit = int(value)
        check_puzzle_start(start, "Start" in headers)
    return record


def check_puzzle_start(start: Position, given: bool = True) -> None:
    """Rules.md 22 and notation.md: what a puzzle's Start must be."""
    if not given:
        raise EngineError("a puzzle record needs a Start position")
    if start.side != BLUE:
        raise EngineError("a puzzle Start must have Blue to move")
    if start.cards[ORANGE]:
        raise EngineError("in a puzzle Start Orange holds no cards")
    if start.gold[ORANGE] | start.steel[ORANGE]:
        raise EngineError("in a puzzle Start Orange has completed no shapes")
    if start.points[ORANGE]:
        raise EngineError("in a puzzle Start Orange has 0 points")


def format_record(headers: dict[str, str], tokens: list[str], per_line: int = 10) -> str:
    """A record as text: headers, then the turns, ``per_line`` to a line."""
    lines = [f'[{k} "{v}"]' for k, v in headers.items()]
    if lines:
        lines.append("")
    for i in range(0, len(tokens), per_line):
        lines.append(" ".join(tokens[i:i + per_line]))
    return "\n".join(lines) + "\n"


def cells_of(names: str, g: Geometry) -> list[int]:
    """Parse a cell list such as ``a1b1c1`` (any order) into cell indices."""
    if len(names) % 2:
        raise EngineError(f"malformed cell list {names!r}")
    return [_cell(names[i:i + 2], g, names) for i in range(0, len(names), 2)]

