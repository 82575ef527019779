"""Clocks: time controls and the arithmetic of a game's clocks. Pure: no database, no
time of its own (every function is given the moment `at`); the services that keep clocks on
the game row and make flags fall are `games.timing.timeouts` and `games.timing.abandonment`
(docs/clocks.md).

A time control is one of
- untimed (`""`);
- live, `"M+I"`: M minutes for each player, I seconds added after each of their turns;
- correspondence, `"Nd"`: N days for each turn (the time left is N days again after every
  turn; it does not add up).

The server owns the clocks. A seat is charged the time between the frame that put it to
move (its clock's start: when that change was made) and its decision's arrival, less
`LAG_ALLOWANCE_MS` (never below nothing); its flag falls when that charge exceeds its time
left, i.e. at `start + left + LAG_ALLOWANCE_MS`. Several seats may run at once (decisions
made at the same time), each from its own start; `flag_at` is the earliest fall. No clock
runs until every seat has made its first decision: before then either player may abort
(games.timing.abandonment). Seats without a clock (CargoBot's) are never charged.

The clock's row data (`Game.clock`, with `Game.clock_since`):
`{"left": [ms or None per seat], "moved": [seats], "running": [seats],
"started_ms": [ms after clock_since or None per seat]}`: each seat's time left as of its
clock's start (running) or its stop, the seats that have moved (kept until all have), the
running seats; `clock_since` is when the earliest running clock started, and
`"started_ms"`, present only when the running clocks started at different moments, when
each started. A row without it (every row before several clocks could run) means every
running clock started at `clock_since`. `"no_increment": [seats]`, present only when not
empty: seats that gain no increment (an arena's berserk, docs/tournaments-arena.md).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

LAG_ALLOWANCE_MS = 1_000  # per turn: the network both ways and the page drawing the turn
LIVE, CORRESPONDENCE = "live", "correspondence"
UNTIMED = ""
LIVE_PRESETS = ("3+2", "5+3", "10+5", "15+10")
CORRESPONDENCE_PRESETS = ("1d", "2d", "3d", "5d", "7d", "14d")  # lichess's days, every kind
PRESETS = (*LIVE_PRESETS, *CORRESPONDENCE_PRESETS)
MAX_LIVE_MINUTES, MAX_INCREMENT_SECONDS, MAX_DAYS = 180, 60, 14

_LIVE = re.compile(r"(\d{1,3})\+(\d{1,2})")
_DAYS = re.compile(r"(\d{1,2})d")
MINUTE, DAY = 60_000, 86_400_000


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control: live (`base_ms` each, `increment_ms` per turn) or
    correspondence (`base_ms` for each turn)."""

    code: str
    kind: str
    base_ms: int
    increment_ms: int = 0

    @property
    def live(self) -> bool:
        return self.kind == LIVE

    @property
    def label(self) -> str:
        """For people: "5+3", "3 days per turn"."""
        if self.live:
            return self.code
        days = self.base_ms // DAY
        return f"{days} day{'s' if days != 1 else ''} per turn"

    @property
    def description(self) -> str:
        """Longer words for choices: "5 min + 3 s per turn"."""
        if self.live:
            return f"{self.base_ms // MINUTE} min + {self.increment_ms // 1000} s per turn"
        return self.label

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "kind": self.kind, "label": self.label,
                "base_ms": self.base_ms, "increment_ms": self.increment_ms}


def parse(code: str | None) -> TimeControl | None:
    """The time control a code names; None for untimed. ValueError (with words a person
    can act on) for anything else."""
    code = (code or "").strip()
    if code == UNTIMED:
        return None
    if match := _LIVE.fullmatch(code):
        minutes, increment = int(match[1]), int(match[2])
        if not 1 <= minutes <= MAX_LIVE_MINUTES or increment > MAX_INCREMENT_SECONDS:
            raise ValueError(f"a live time control is 1 to {MAX_LIVE_MINUTES} minutes plus 0 "
                             f"to {MAX_INCREMENT_SECONDS} seconds a turn, not {code!r}")
        return TimeControl(f"{minutes}+{increment}", LIVE, minutes * MINUTE, increment * 1000)
    if match := _DAYS.fullmatch(code):
        days = int(match[1])
        if not 1 <= days <= MAX_DAYS:
            raise ValueError(f"a correspondence game gives 1 to {MAX_DAYS} days a turn, "
                             f"not {code!r}")
        return TimeControl(f"{days}d", CORRESPONDENCE, days * DAY)
    raise ValueError(f"unknown time control {code[:16]!r}: untimed, minutes+seconds "
                     f"({', '.join(LIVE_PRESETS)}) or days per turn "
                     f"({', '.join(CORRESPONDENCE_PRESETS)})")


def label(code: str) -> str:
    """A stored code in words ("Untimed" for "")."""
    control = parse(code)
    return control.label if control else "Untimed"


# --- one game's clocks ----------------------------------------------------------------------


_ONE_MS = dt.timedelta(milliseconds=1)


def _ms(delta: dt.timedelta) -> int:
    """Whole milliseconds, in integers (a float's `1.001 * 1000` is 1000.99…)."""
    return delta // _ONE_MS


@dataclass
class Clocks:
    """A game's clocks between loading and saving its row: each seat's time left (None: no
    clock) as of the moment its clock started if it runs, else as of now; the seats that
    have moved (until all have); and when each running seat's clock started (`starts`).
    Any number of seats may run at once (simultaneous decisions), each charged from its own
    start: a seat that decides stops its clock, a seat that becomes acting starts its own,
    the others run on."""

    control: TimeControl
    left: list[int | None]
    moved: list[int]
    starts: dict[int, dt.datetime] = field(default_factory=dict)
    no_increment: list[int] = field(default_factory=list)  # seats that gain none (berserk)

    @classmethod
    def new(cls, control: TimeControl, clocked: Sequence[bool]) -> Clocks:
        return cls(control, [control.base_ms if c else None for c in clocked], [], {})

    @classmethod
    def load(cls, control: TimeControl, data: dict[str, Any], since: dt.datetime | None
             ) -> Clocks:
        """From the row: `data` is `Game.clock`, `since` its `clock_since` (when the
        earliest running clock started). Without `"started_ms"` (every row written before
        several clocks could run at once, and any row whose running clocks started
        together) every running clock started at `since`."""
        starts: dict[int, dt.datetime] = {}
        if since is not None:
            offsets = data.get("started_ms") or []
            for seat in data.get("running", []):
                offset = offsets[seat] if seat < len(offsets) else None
                starts[seat] = since + dt.timedelta(milliseconds=offset or 0)
        return cls(control, list(data["left"]), list(data.get("moved", [])), starts,
                   list(data.get("no_increment", [])))

    def dump(self) -> dict[str, Any]:
        """The row's `Game.clock` (with `since` as `clock_since`). `"started_ms"` (ms after
        `since`, per seat; None: not running) only when the running clocks started at
        different moments, so a row with one running clock is as it always was."""
        data: dict[str, Any] = {"left": self.left, "moved": self.moved,
                                "running": self.running}
        since = self.since
        if since is not None and any(start != since for start in self.starts.values()):
            data["started_ms"] = [_ms(self.starts[s] - since) if s in self.starts else None
                                  for s in range(len(self.left))]
        if self.no_increment:
            data["no_increment"] = sorted(self.no_increment)
        return data

    @property
    def running(self) -> list[int]:
        """The seats whose clock runs, in seat order."""
        return sorted(self.starts)

    @property
    def since(self) -> dt.datetime | None:
        """When the earliest running clock started (the row's `clock_since`; None: none
        runs)."""
        return min(self.starts.values(), default=None)

    @property
    def started(self) -> bool:
        """Has every seat made its first decision? (Clocks run only from then on.)"""
        return len(set(self.moved)) >= len(self.left)

    def _used(self, seat: int, at: dt.datetime) -> int:
        """What `seat`'s running clock is charged at `at`: the time since it started, less
        the lag allowance, never below nothing."""
        return max(0, _ms(at - self.starts[seat]) - LAG_ALLOWANCE_MS)

    def _stop_one(self, seat: int, at: dt.datetime) -> None:
        """`seat`'s clock stops at `at`, keeping the time it used (no increment)."""
        left = self.left[seat]
        assert left is not None
        self.left[seat] = max(0, left - self._used(seat, at))
        del self.starts[seat]

    def start(self, acting: Iterable[int], at: dt.datetime) -> None:
        """From `at`, the clocks of the acting seats run (if the clocks have started): a
        clock already running keeps running from its own start, the others start at `at`;
        a running clock whose seat no longer acts stops, keeping the time it used."""
        clocked = [s for s in acting if self.left[s] is not None] if self.started else []
        for seat in [s for s in self.starts if s not in clocked]:
            self._stop_one(seat, at)
        for seat in clocked:
            self.starts.setdefault(seat, at)

    def after_turn(self, seat: int, at: dt.datetime, acting: Sequence[int],
                   over: bool, continuing: bool = False) -> None:
        """The bookkeeping of one decision at `at`: charge `seat` the time since its own
        clock started (less the lag allowance) and add the increment (live) or give it a
        new turn's time (correspondence); note that it moved; then the clocks of the seats
        acting next run (`start`: the seats still deciding keep theirs running; none once
        over). A timed-out decision the site made for a seat is one too: its charge is all
        it had left. `continuing`: the decision was a step of a larger one (a turn sent a
        step at a time): the seat's clock runs on from where it started, uncharged."""
        left = self.left[seat]
        if continuing and seat in self.starts and not over:
            self.start(acting, at)
            return
        if left is not None and seat in self.starts:
            if self.control.live:
                increment = 0 if seat in self.no_increment else self.control.increment_ms
                self.left[seat] = max(0, left - self._used(seat, at)) + increment
            else:
                self.left[seat] = self.control.base_ms
            del self.starts[seat]
        if not self.started and seat not in self.moved:
            self.moved = sorted([*self.moved, seat])
        self.start([] if over else acting, at)

    def ran_out(self, seat: int) -> None:
        """`seat`'s clock fell and the seat is out (no decision made for it): it shows 0
        and stops. The others run on (the caller then `start`s the seats acting)."""
        self.starts.pop(seat, None)
        if self.left[seat] is not None:
            self.left[seat] = 0

    def stop(self, at: dt.datetime) -> None:
        """The game ended at `at`: the running clocks keep the time they used (no
        increment), and none runs any more."""
        for seat in list(self.starts):
            self._stop_one(seat, at)

    def _falls_at(self, seat: int) -> dt.datetime:
        return self.starts[seat] + dt.timedelta(
            milliseconds=(self.left[seat] or 0) + LAG_ALLOWANCE_MS)

    @property
    def flag_at(self) -> dt.datetime | None:
        """When the first running clock falls, each from its own start (None: none
        runs)."""
        return min((self._falls_at(s) for s in self.starts), default=None)

    def fallen_seats(self, at: dt.datetime) -> list[int]:
        """The running seats whose time has run out by `at` (after their own fall, `start
        + left + LAG_ALLOWANCE_MS`: the moment `flag_at` names for the first), the first to
        fall first."""
        fallen = [s for s in self.running if at > self._falls_at(s)]
        return sorted(fallen, key=lambda s: (self._falls_at(s), s))

    def remaining(self, at: dt.datetime) -> list[int | None]:
        """Each seat's time left at `at`, as the page shows it (without the lag
        allowance: a clock shown at 0 may still have it)."""
        now = list(self.left)
        for seat, start in self.starts.items():
            left = now[seat]
            assert left is not None
            now[seat] = max(0, left - max(0, _ms(at - start)))
        return now

    def deadlines(self) -> list[dt.datetime | None]:
        """Per seat, when its running clock reaches 0 (a correspondence decision's
        deadline: when it became the seat's decision plus the days); None: not running.
        The flag falls `LAG_ALLOWANCE_MS` later (`flag_at`)."""
        return [self.starts[s] + dt.timedelta(milliseconds=self.left[s] or 0)
                if s in self.starts else None for s in range(len(self.left))]

    def state(self, at: dt.datetime) -> dict[str, Any]:
        """The clocks as frames carry them (docs/live-protocol.md); a correspondence
        game's also say each running seat's `deadlines` (ISO 8601, UTC), and a game with
        seats that gain no increment (an arena's berserk) says which (`no_increment`), so
        the page does not promise them the control's "+3"."""
        state = {"control": self.control.as_dict(), "remaining": self.remaining(at),
                 "running": list(self.running), "started": self.started,
                 "lag_ms": LAG_ALLOWANCE_MS}
        if self.no_increment:
            state["no_increment"] = sorted(self.no_increment)
        if not self.control.live:
            state["deadlines"] = [
                d.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if d else None
                for d in self.deadlines()]
        return state


# --- on the game row (no queries: the callers load and save the row) ---------------------

FIELDS = ["clock", "clock_since", "flag_at"]


def control_of(game: Any) -> TimeControl | None:
    """The game's time control (None: untimed or no seat has a clock)."""
    return parse(game.time_control) if game.time_control and game.clock else None


def of_game(game: Any) -> Clocks | None:
    control = control_of(game)
    return None if control is None else Clocks.load(control, game.clock, game.clock_since)


def put(game: Any, clocks: Clocks) -> list[str]:
    """Write `clocks` back on the row object; the fields to save."""
    game.clock = clocks.dump()
    game.clock_since = clocks.since
    game.flag_at = clocks.flag_at
    return FIELDS


def new_game_clock(code: str, clocked: Sequence[bool]) -> dict[str, Any] | None:
    """A new game's `Game.clock` (None: untimed, or no seat has a clock)."""
    control = parse(code)
    if control is None or not any(clocked):
        return None
    return Clocks.new(control, clocked).dump()


def stop_game(game: Any, at: dt.datetime) -> list[str]:
    """The game ends at `at`: its clocks stop (the running ones keep what they used)."""
    clocks = of_game(game)
    if clocks is None:
        return []
    clocks.stop(at)
    return put(game, clocks)
