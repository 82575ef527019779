"""Clocks: time controls and the arithmetic of a game's clocks. Pure: no database, no
time of its own (every function is given the moment `at`); the services that keep clocks on
the game row and make flags fall are `games.timeouts` and `games.abandonment`
(docs/clocks.md).

A time control is one of
- untimed (`""`);
- live, `"M+I"`: M minutes for each player, I seconds added after each of their turns;
- correspondence, `"Nd"`: N days for each turn (the time left is N days again after every
  turn; it does not add up).

The server owns the clocks. A seat is charged the time between the frame that put it to
move (`since`: when that change was made) and its turn's arrival, less `LAG_ALLOWANCE_MS`
(never below nothing); its flag falls when that charge exceeds its time left, i.e. at
`since + left + LAG_ALLOWANCE_MS` (`flag_at`). No clock runs until every seat has made its
first decision: before then either player may abort (games.abandonment). Seats without a
clock (CargoBot's) are never charged.

The clock's row data (`Game.clock`): `{"left": [ms or None per seat], "moved": [seats]}`:
each seat's time left as of `since`, and the seats that have moved (kept until all have).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

LAG_ALLOWANCE_MS = 1_000  # per turn: the network both ways and the page drawing the turn
LIVE, CORRESPONDENCE = "live", "correspondence"
UNTIMED = ""
LIVE_PRESETS = ("3+2", "5+3", "10+5", "15+10")
CORRESPONDENCE_PRESETS = ("1d", "3d", "7d")
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


def _ms(delta: dt.timedelta) -> int:
    return int(delta.total_seconds() * 1000)


@dataclass
class Clocks:
    """A game's clocks between loading and saving its row: each seat's time left as of
    `since` (None: no clock), the seats that have moved (until all have), the seats whose
    clock runs and since when (`since` None: none runs)."""

    control: TimeControl
    left: list[int | None]
    moved: list[int]
    running: list[int]
    since: dt.datetime | None

    @classmethod
    def new(cls, control: TimeControl, clocked: Sequence[bool]) -> Clocks:
        return cls(control, [control.base_ms if c else None for c in clocked], [], [], None)

    @classmethod
    def load(cls, control: TimeControl, data: dict[str, Any], since: dt.datetime | None
             ) -> Clocks:
        running = list(data.get("running", [])) if since is not None else []
        return cls(control, list(data["left"]), list(data.get("moved", [])), running, since)

    def dump(self) -> dict[str, Any]:
        return {"left": self.left, "moved": self.moved, "running": self.running}

    @property
    def started(self) -> bool:
        """Has every seat made its first decision? (Clocks run only from then on.)"""
        return len(set(self.moved)) >= len(self.left)

    def _used(self, at: dt.datetime) -> int:
        """What a running clock is charged at `at`: the time since `since`, less the lag
        allowance, never below nothing."""
        assert self.since is not None
        return max(0, _ms(at - self.since) - LAG_ALLOWANCE_MS)

    def start(self, acting: Iterable[int], at: dt.datetime) -> None:
        """From `at`, the clocks of the acting seats run (if the clocks have started)."""
        self.running = [s for s in acting if self.left[s] is not None] if self.started else []
        self.since = at if self.running else None

    def after_turn(self, seat: int, at: dt.datetime, acting: Sequence[int],
                   over: bool) -> None:
        """The bookkeeping of one decision at `at`: charge `seat` (less the lag allowance)
        and add the increment (live) or give it a new turn's time (correspondence); note
        that it moved; start the clocks of the seats acting next (none once over)."""
        left = self.left[seat]
        if left is not None and self.since is not None and seat in self.running:
            if self.control.live:
                self.left[seat] = max(0, left - self._used(at)) + self.control.increment_ms
            else:
                self.left[seat] = self.control.base_ms
        if not self.started and seat not in self.moved:
            self.moved = sorted([*self.moved, seat])
        self.start([] if over else acting, at)

    def stop(self, at: dt.datetime) -> None:
        """The game ended at `at`: the running clocks keep the time they used (no
        increment), and none runs any more."""
        if self.since is not None:
            used = self._used(at)
            for seat in self.running:
                left = self.left[seat]
                assert left is not None
                self.left[seat] = max(0, left - used)
        self.running, self.since = [], None

    @property
    def flag_at(self) -> dt.datetime | None:
        """When the first running clock falls (None: none runs)."""
        if self.since is None or not self.running:
            return None
        shortest = min(self.left[s] or 0 for s in self.running)
        return self.since + dt.timedelta(milliseconds=shortest + LAG_ALLOWANCE_MS)

    def fallen_seats(self, at: dt.datetime) -> list[int]:
        """The running seats whose time has run out by `at` (after `flag_at`)."""
        if self.since is None:
            return []
        used = _ms(at - self.since) - LAG_ALLOWANCE_MS
        return [s for s in self.running if (self.left[s] or 0) < used]

    def remaining(self, at: dt.datetime) -> list[int | None]:
        """Each seat's time left at `at`, as the page shows it (without the lag
        allowance: a clock shown at 0 may still have it)."""
        now = list(self.left)
        if self.since is not None:
            used = max(0, _ms(at - self.since))
            for seat in self.running:
                left = now[seat]
                assert left is not None
                now[seat] = max(0, left - used)
        return now

    def state(self, at: dt.datetime) -> dict[str, Any]:
        """The clocks as frames carry them (docs/live-protocol.md)."""
        return {"control": self.control.as_dict(), "remaining": self.remaining(at),
                "running": list(self.running), "started": self.started,
                "lag_ms": LAG_ALLOWANCE_MS}


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
