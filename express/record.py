"""Game records (notation.md "Game record"): reading headers and tokens, writing records.

Reading is in two steps: :func:`parse_record` checks the text (encoding, headers, the
setup) and splits the rounds into tokens; :meth:`express.game.Game.from_record` then
walks the tokens against the game, since whether a ``|`` or ``N.`` may stand somewhere
depends on the position reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from express.errors import ExpressError
from express.notation import format_position, parse_position
from express.position import Position, start_position
from express.rules import RULES_VERSIONS

_HEADER = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) "([^"]*)"\]\s*(?:#.*)?')
_TOKEN = re.compile(r"\||[^\s|]+")
ROUND = re.compile(r"([1-9][0-9]*)\.")
_DECIMAL = re.compile(r"[0-9]+")

KNOWN_HEADERS = frozenset({
    "Game", "Rules", "Players", "Seed", "Start", "Seat1", "Seat2", "Seat3", "Seat4",
    "SeedHash", "Date", "Scores", "Winner", "Resigned",
})
GAME_NAME = "cargo-express"


@dataclass
class Record:
    """A record read from text: its headers, start position and round tokens."""

    headers: dict[str, str] = field(default_factory=dict)
    start: Position | None = None
    tokens: list[str] = field(default_factory=list)


def decode(data: bytes) -> str:
    """Input bytes as text: UTF-8, a leading byte-order mark ignored."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ExpressError(f"input is not UTF-8 text (bad byte at offset {e.start})") from None
    return text.removeprefix("\ufeff")


def parse_seed(text: str) -> int:
    if not _DECIMAL.fullmatch(text) or int(text) >= 1 << 64:
        raise ExpressError(f"bad seed {text!r}: a seed is a decimal number 0 ≤ S < 2^64")
    return int(text)


def parse_players(text: str) -> int:
    if not _DECIMAL.fullmatch(text) or not 2 <= int(text) <= 4:
        raise ExpressError(f"bad player count {text!r}: Cargo Express has 2 to 4 players")
    return int(text)


def parse_record(text: str) -> Record:
    """Read the headers and split the rounds into tokens (``N.``, ``|`` and decisions)."""
    text = text.removeprefix("\ufeff")
    headers: dict[str, str] = {}
    tokens: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            m = _HEADER.fullmatch(stripped)
            if not m:
                raise ExpressError(f"malformed header line {stripped!r} (expected "
                                   f'[Name "value"])')
            if tokens:
                raise ExpressError(f"header {stripped!r} comes after the first round")
            name, value = m.group(1), m.group(2)
            if name not in KNOWN_HEADERS:
                raise ExpressError(f"unknown header {name!r}")
            if name in headers:
                raise ExpressError(f"header {name!r} is given twice")
            headers[name] = value
            continue
        tokens += _TOKEN.findall(line.split("#", 1)[0])
    if headers.get("Game") != GAME_NAME:
        raise ExpressError(f'the record needs [Game "{GAME_NAME}"]'
                           + (f", not {headers['Game']!r}" if "Game" in headers else ""))
    if "Rules" not in headers:
        raise ExpressError('the record needs a Rules header ([Rules "x0.2"] or [Rules "x0.1"])')
    rules = headers["Rules"]
    if rules not in RULES_VERSIONS:
        raise ExpressError(f"unknown rules version {rules!r} in the Rules header (x0.2 or "
                           f"x0.1)")
    if "Players" not in headers:
        raise ExpressError("the record needs a Players header")
    players = parse_players(headers["Players"])
    record = Record(headers, None, tokens)
    seed = parse_seed(headers["Seed"]) if "Seed" in headers else None
    if "Start" in headers:
        try:
            start = parse_position(headers["Start"])
        except ExpressError as e:
            raise ExpressError(f"bad Start header: {e}") from None
        if start.hidden is not None:
            raise ExpressError("bad Start header: a Start is a full position, not a public "
                               "one (it has ? counts)")
        if start.rules != rules:
            raise ExpressError(f"the Start position is in rules {start.rules} but the Rules "
                               f"header says {rules}")
        if start.n != players:
            raise ExpressError(f"the Start position has {start.n} seats but Players says "
                               f"{players}")
        record.start = start
    elif seed is not None:
        record.start = start_position(players, seed, rules)
    return record


@dataclass(frozen=True)
class Entry:
    """One decision as played: its round, the field it belongs in, its token and seat."""

    round: int
    field: str  # "picks", "plans", "turns" or "swap"
    token: str
    seat: int = 0


def format_record(headers: dict[str, str], start: Position, entries: list[Entry],
                  orders: dict[int, list[int]], start_given: bool) -> str:
    """A record as text: headers (``Start`` when ``start_given``), then a line per round.

    ``orders`` gives each round's turn order, which places the PLANS entries.
    """
    heads = dict(headers)
    if start_given:
        heads["Start"] = format_position(start)
    lines = [f'[{k} "{v}"]' for k, v in heads.items()]
    rounds: dict[int, list[Entry]] = {}
    for e in entries:
        rounds.setdefault(e.round, []).append(e)
    fields = ("picks", "plans", "turns", "swap")
    for r in sorted(rounds):
        es = rounds[r]
        parts: dict[str, list[str]] = {f: [] for f in fields}
        plans: dict[int, str] = {}
        plan_resigns: list[str] = []
        for e in es:
            if e.field == "plans":
                if e.token.startswith("resign"):
                    plan_resigns.append(e.token)
                else:
                    plans[e.seat] = e.token
            else:
                parts[e.field].append(e.token)
        if plans or plan_resigns:
            slots = [plans.get(s, "-") for s in orders[r]]
            while slots and slots[-1] == "-":
                slots.pop()
            parts["plans"] = slots + plan_resigns
        used = [f for f in fields if parts[f]]
        last = fields.index(used[-1]) if used else 0
        text = f"{r}. " + " | ".join(" ".join(parts[f]) for f in fields[:last + 1])
        lines.append(re.sub(r" +", " ", text).rstrip())
    return "\n".join(lines) + "\n"

