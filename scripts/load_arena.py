"""An arena under load (issue #46's acceptance; docs/tournaments-arena.md, "Load"): scripted
players over real WebSockets, each on the arena's page and in the games it is paired in.

    .venv/bin/python scripts/load_arena.py --url http://127.0.0.1:8301 \\
        --url http://127.0.0.1:8302 --players 200 --duration 600 --think 1.0

scripts/load_arena.sh runs it in the production setup (a fresh PostgreSQL database, DEBUG
off, two ASGI processes, Redis, a Celery worker and beat). Setup: `manage.py
arena_load_setup` (run by this script with the same environment, so point DATABASE_URL at
the servers' database) makes the members, their sessions and the arena, every member
joined; once every player's page socket is open, `arena_load_setup --start` moves the
arena's start so that it ends --duration seconds from then and sends the passes.

Each player (`ArenaPlayer`) holds the tournament page's socket (`/ws/tournament/<id>/`,
its session cookie) and learns each of its games from its own `play` section (the "Play
now" link's `data-game`), then opens that game's socket and plays it as
scripts/live_client.py's `Player` does (a random legal turn --think seconds after it is its
turn; its side from the first state's `you`); after the game's end it waits for the next.
The arena's end ends the run: the players finish their games and stop once the page says
the arena is finished (or after --drain seconds). The sockets go where production's nginx
sends them (docs/production.md): a game's by its path (both players on one process), the
pages' round-robin. Measured and printed (JSON):

- **end -> next pairing**: a game's end (the frame whose state is over, on the game's
  socket) -> the `play` section that names the player's next game, per player and game
  (a game named before the end's frame counts 0 s; `told_during_game` counts those). An
  end at least `UNPAIRED_MARGIN` s before the arena's end that never got a next game
  counts its wait until the arena's end (a lower bound), and `unpaired` says how many;
- **standings after a result**: a game's end -> the first `sections` frame on that
  player's page socket whose "Your entry" section (`entry`: their place, points and the
  games those count, sent to that player's sockets alone) shows as many games as the
  player has finished games that count (played out or on time: a forfeit, resignation or
  abort counts for no sheet), per player and game (0 s if such a frame came first);
- **the shared table after a result**: for the shared `arena` section that every viewer
  gets alike (coalesced: one render per `SHARED_WINDOW_MS`), per scored game: its end in
  the database (`finished_at`, the servers' clock, which is this machine's) -> the first
  shared section on each of its two players' page sockets that counts it: the section
  says how many games its standings have scored (`data-played`), and the game's place
  among the scored games in the order of their ends is the count that holds it (two games
  ending within the same few milliseconds may be counted in the other order). The
  scored games are those whose end frame said played out or on time;
  `shared_table_after_the_end_frame_ms` is the same wait from the player's end frame's
  arrival (when the player sees the result) instead of the database's end;
  `shared_table_read_after_the_end_frame_ms` is a looser bound beside it: the end's frame ->
  the first shared section whose reads began (`at`) after that frame arrived;
  `shared_frame_age_ms`: each shared section's reads began -> its arrival (the render,
  the send and the delivery). Also, as a
  check of what the table shows, `top_lines_after_result_ms`: the end -> the player's own
  line of the top ten showing exactly that many games, for the results whose player is there (the
  others, and those whose line was next seen with more games, are
  `results_not_seen_in_the_top_lines`; a player can also climb into the top ten without a
  result of theirs, when one level on points above them loses and its performance drops,
  which this check then counts late);
- **nobody in two games**, from the database: no member with two games of the arena that
  overlap (a game made before the member's previous one ended); and during the run the
  players told of a game while their current one's end had not reached them;
- **no game lost**: every pairing's game told to both its players, finished (not still
  active, aborted or forfeited), every turn acknowledged stored at its ply by its seat with
  its token, and every stored turn acknowledged;
- games played, turns/s over the arena's time, ack latency, and with --server-pid /
  --worker-pid the CPU seconds of the ASGI processes, the Celery worker and beat (and their
  children), PostgreSQL and Redis over that time.

Frames that carry an `at` older than the section shown are dropped, as the page drops them
(static/js/tournaments-live.js). Exit status 1 if anyone was in two games, a game or a turn
was lost, or a client failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from arena_checks import lost_games, overlaps, server_waits, shared_table, stored
from live_client import GameRun, Player, Stats, insecure_context
from load_live import cpu_seconds, cpu_used, latency, machine_cpu, proc_stats
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parent.parent
UNPAIRED_MARGIN = 3.0  # s: an end this long before the arena's end must be paired again
COUNTED = ("played_out", "timed_out")  # endings a sheet counts (the others: no points)
GAME_LINK = re.compile(r'data-game="([0-9A-Za-z]{10})"')
ENTRY_PLACE = re.compile(r'data-entry-place data-points="(-?\d+)" data-games="(\d+)"')
PLAYED = re.compile(r'data-played="(\d+)"')  # the shared section's scored games
# A line of the standings (templates/tournaments/_arena_lines.html): the player, the games
LINE = re.compile(r'<tr data-user="([^"]+)"[^>]*>.*?<td class="points">-?\d+</td>\s*'
                  r'<td>(\d+)</td>', re.S)


@dataclass
class Measures:
    """What every player adds to: the latencies (seconds) and the events counted."""

    pairing: list[float] = field(default_factory=list)
    unpaired: list[dict[str, Any]] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    standings_first: int = 0  # the standings showed the result before the end's frame
    table: list[float] = field(default_factory=list)  # end -> a shared frame read after it
    lines: list[float] = field(default_factory=list)  # end -> the shared table's line shows it
    shared_age: list[float] = field(default_factory=list)  # a shared frame's reads -> arrival
    table_first: int = 0  # the shared table showed the result before the end's frame
    table_unseen: int = 0  # results the line was never seen with (out of the top lines)
    told_during_game: list[dict[str, Any]] = field(default_factory=list)
    told_first: int = 0  # the next game named before the end's frame (counted 0 s)
    failures: list[str] = field(default_factory=list)
    ends: int = 0
    page_frames: int = 0     # frames on the page sockets, all players together
    page_bytes: int = 0
    page_largest: int = 0


@dataclass
class Shared:
    """The run's shared parts: the games' runs (both seats share one), the stop signals."""

    ends_at: float = float("inf")  # the arena's end (epoch seconds)
    finished: asyncio.Event = field(default_factory=asyncio.Event)  # the page says so
    abort: asyncio.Event = field(default_factory=asyncio.Event)     # the drain ran out
    runs: dict[str, GameRun] = field(default_factory=dict)
    seats: dict[str, list[ArenaSeat]] = field(default_factory=dict)

    def run(self, game_id: str) -> GameRun:
        return self.runs.setdefault(game_id, GameRun(game_id))


class ArenaSeat(Player):
    """One game of an arena player: live_client's `Player`, its side read from the first
    state's `you`, the moment its end's frame arrived and how the game ended kept."""

    def __init__(self, run: GameRun, session: str, base: str, *, think: float,
                 stats: Stats, stop: asyncio.Event, rng: random.Random) -> None:
        super().__init__(run, "", session, base, think=think, stats=stats, stop=stop, rng=rng)
        self.ended_at: float | None = None
        self.termination: str | None = None
        self.status: str | None = None

    async def _handle(self, frame: dict[str, Any], now: float) -> None:
        state = frame.get("state")
        if not self.side and frame["type"] == "state" and isinstance(state, dict):
            self.side = state.get("you") or ""
        await super()._handle(frame, now)
        if self.over and self.ended_at is None:
            self.ended_at = time.time()
            if isinstance(state, dict):
                self.status = state.get("status")
                self.termination = (state.get("ending") or {}).get("termination")

    @property
    def counted(self) -> bool:
        """Does the arena's sheet count this game (a result, not a forfeit)?"""
        return self.status == "finished" and self.termination in COUNTED


def server_for(urls: list[str], path: str) -> str:
    """The server a game's socket goes to: by its path, as production's nginx routes
    `/ws/game/` (`hash $request_uri consistent`: a game's players on one process)."""
    return urls[zlib.crc32(path.encode()) % len(urls)]


class ArenaPlayer:
    """One member: the arena page's socket (`watch`) and its games one after the other
    (`play_games`)."""

    def __init__(self, name: str, session: str, tournament: str, urls: list[str], *,
                 think: float, stats: Stats, measures: Measures, shared: Shared,
                 rng: random.Random, page_url: str = "") -> None:
        self.name, self.session, self.tournament, self.urls = name, session, tournament, urls
        self.page_url = page_url or urls[0]  # production's nginx: the rest round-robin
        self.think, self.stats, self.measures, self.shared = think, stats, measures, shared
        self.rng = rng
        self.opened = asyncio.Event()          # the page's first sections arrived
        self.games: asyncio.Queue[str] = asyncio.Queue()
        self.known: set[str] = set()           # every game named to this player
        self.current: ArenaSeat | None = None  # the game being played
        self.last_end: float | None = None     # the last game's end, awaiting a next game
        self.shown: dict[str, int] = {}        # each section's newest `at`
        self.entry_games = 0                   # games "Your entry" counts, newest shown
        self.entry_points = 0                  # points "Your entry" shows, newest shown
        self.reached: dict[int, float] = {}    # when "Your entry" first showed k games
        self.due: dict[int, float] = {}        # the k-th counted end, awaiting its entry
        self.counted = 0                       # this player's ended games that count
        self.line_shown: dict[int, float] = {}  # when the shared table's line first showed k games
        self.line_due: dict[int, float] = {}    # the k-th counted end, awaiting the line
        self.table_due: list[float] = []        # counted ends awaiting a shared frame read after
        self.played: list[tuple[int, float]] = []  # the shared table's scored count, first seen
        self.end_frames: dict[str, float] = {}  # each game's end frame's arrival

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"sessionid={self.session}"}

    async def watch(self) -> None:
        """The arena page's socket until the arena is finished or the run is aborted."""
        path = f"/ws/tournament/{self.tournament}/"
        base = self.page_url
        async with connect(base.replace("http", "ws", 1) + path, origin=Origin(base),
                           additional_headers=self.headers, compression=None,
                           ssl=insecure_context() if base.startswith("https") else None,
                           max_size=2**24, open_timeout=60) as ws:
            pinger = asyncio.create_task(self._ping(ws))
            stopper = asyncio.create_task(self._close_when_done(ws))
            try:
                async for text in ws:
                    now = time.time()
                    self.measures.page_frames += 1
                    self.measures.page_bytes += len(text)
                    self.measures.page_largest = max(self.measures.page_largest, len(text))
                    self.read(orjson.loads(text), now)
            finally:
                pinger.cancel()
                stopper.cancel()

    async def _ping(self, ws: Any) -> None:
        while True:  # as the page does (static/js/tournaments-live.js)
            await asyncio.sleep(25)
            await ws.send(json.dumps({"type": "ping"}))

    async def _close_when_done(self, ws: Any) -> None:
        finished = asyncio.create_task(self.shared.finished.wait())
        aborted = asyncio.create_task(self.shared.abort.wait())
        await asyncio.wait((finished, aborted), return_when=asyncio.FIRST_COMPLETED)
        finished.cancel()
        aborted.cancel()
        await ws.close()

    def read(self, frame: dict[str, Any], now: float) -> None:
        if frame.get("type") != "sections":
            return
        self.opened.set()
        for name, html in frame["sections"].items():
            if self.shown.get(name, -1) > frame["at"]:
                continue  # older than what is shown: the page drops it too
            self.shown[name] = frame["at"]
            if name == "play":
                self._play_section(html, now)
            elif name == "entry":
                self._entry_section(html, now)
            elif name == "arena":
                self._arena_section(html, frame["at"] / 1000, now)
            elif name == "facts" and ('status-finished"' in html or 'status-cancelled"' in html):
                self.shared.finished.set()

    def _play_section(self, html: str, now: float) -> None:
        found = GAME_LINK.search(html)
        if found is None or found[1] in self.known:
            return
        game_id = found[1]
        self.known.add(game_id)
        seat = self.current
        if seat is not None and seat.ended_at is None:
            self.measures.told_during_game.append(
                {"player": self.name, "playing": seat.run.id, "told": game_id})
        if self.last_end is not None:
            self.measures.pairing.append(max(0.0, now - self.last_end))
            self.last_end = None
        self.games.put_nowait(game_id)

    def _arena_section(self, html: str, read_at: float, now: float) -> None:
        """The shared table: a frame read after a result's end frame arrived holds it; and
        the top lines: when this player's first shows k games. A result the line skipped
        (seen next with more games) was not visible there: unseen."""
        self.measures.shared_age.append(now - read_at)
        while self.table_due and self.table_due[0] <= read_at:
            self.measures.table.append(now - self.table_due.pop(0))
        played = PLAYED.search(html)
        if played is not None and (not self.played or int(played[1]) > self.played[-1][0]):
            self.played.append((int(played[1]), now))
        games = next((int(g) for name, g in LINE.findall(html) if name == self.name), None)
        if games is None:
            return
        self.line_shown.setdefault(games, now)
        for k in [k for k in self.line_due if k <= games]:
            ended = self.line_due.pop(k)
            if k == games:
                self.measures.lines.append(now - ended)
            else:
                self.measures.table_unseen += 1

    def _entry_section(self, html: str, now: float) -> None:
        """The player's own place: the games (and points) their result counts so far."""
        found = ENTRY_PLACE.search(html)
        if found is None:
            return
        points, games = int(found[1]), int(found[2])
        for k in range(self.entry_games + 1, games + 1):
            self.reached.setdefault(k, now)
        if games >= self.entry_games:
            self.entry_games, self.entry_points = games, points
        for k in [k for k in self.due if k in self.reached]:
            self.measures.standings.append(self.reached[k] - self.due.pop(k))

    async def play_games(self) -> None:
        """Each game named to this player, in turn, until the arena is finished."""
        while True:
            game_id = await self._next_game()
            if game_id is None:
                return
            path = f"/ws/game/{game_id}/"
            seat = ArenaSeat(self.shared.run(game_id), self.session,
                             server_for(self.urls, path), think=self.think, stats=self.stats,
                             stop=self.shared.abort, rng=random.Random(self.rng.random()))
            self.shared.seats.setdefault(game_id, []).append(seat)
            self.current = seat
            try:
                await seat.play()
            except (ConnectionClosed, ConnectionError, OSError, TimeoutError) as error:
                self.measures.failures.append(f"{self.name} in {game_id}: {error!r}")
            self._ended(seat)

    async def _next_game(self) -> str | None:
        if not self.games.empty():
            return self.games.get_nowait()
        waits = [asyncio.create_task(e.wait()) for e in (self.shared.finished, self.shared.abort)]
        getting = asyncio.create_task(self.games.get())
        done, _ = await asyncio.wait([getting, *waits], return_when=asyncio.FIRST_COMPLETED)
        for task in waits:
            task.cancel()
        if getting in done:
            return getting.result()
        getting.cancel()
        return None

    def _ended(self, seat: ArenaSeat) -> None:
        """The game's end reached this player: the waits it starts."""
        ended = seat.ended_at
        if ended is None:
            return
        self.measures.ends += 1
        self.end_frames[seat.run.id] = ended
        if not self.games.empty():  # the next game was named before this end's frame
            self.measures.told_first += 1
            self.measures.pairing.append(0.0)
        else:
            self.last_end = ended
        if seat.counted:
            self.counted += 1
            self.table_due.append(ended)
            if self.counted in self.line_shown:
                self.measures.table_first += 1
                self.measures.lines.append(max(0.0, self.line_shown[self.counted] - ended))
            else:
                self.line_due[self.counted] = ended
            if self.counted in self.reached:
                self.measures.standings_first += 1
                self.measures.standings.append(max(0.0, self.reached[self.counted] - ended))
            else:
                self.due[self.counted] = ended

    def unpaired(self) -> dict[str, Any] | None:
        """At the end: this player's last end, if it came early enough to be paired again
        and never was."""
        if self.last_end is None or self.last_end > self.shared.ends_at - UNPAIRED_MARGIN:
            return None
        return {"player": self.name, "waited_s": round(self.shared.ends_at - self.last_end, 1)}


# --- setup, CPU, the database's checks ----------------------------------------------------


def manage(*args: str) -> dict[str, Any]:
    """`manage.py arena_load_setup ARGS --force` with this environment; its JSON."""
    cmd = [sys.executable, "manage.py", "arena_load_setup", *args, "--force"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds so far of `pids` and their children (a Celery worker's pool)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid, _name, fields in proc_stats():
        if pid in pids or int(fields[1]) in pids:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def backends_cpu(database: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving `database` (its process title
    names it): the share of a PostgreSQL that other sessions use too."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if title.startswith("postgres: ") and f" {database} " in title:
            fields = stat[stat.rindex(")") + 2:].split()
            out[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    return out


# --- the run ------------------------------------------------------------------------------


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", action="append", help="server base URL (repeat for several)")
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--duration", type=float, default=600.0,
                    help="seconds from the start to the arena's end (its games then finish)")
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--time-control", default="3+2")
    ap.add_argument("--size", type=int, default=6, help="the bay's size")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds to open the pages")
    ap.add_argument("--drain", type=float, default=300.0,
                    help="seconds after the arena's end for its last games to finish")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--server-pid", type=int, action="append", default=[],
                    help="an ASGI process to count the CPU of (repeat)")
    ap.add_argument("--worker-pid", type=int, action="append", default=[],
                    help="a Celery worker or beat process (with its children) (repeat)")
    return ap.parse_args()


async def main() -> int:
    args = arguments()
    urls = args.url or ["http://127.0.0.1:8000"]
    t0 = time.perf_counter()
    made = manage("--players", str(args.players), "--seconds", str(args.duration),
                  "--time-control", args.time_control, "--size", str(args.size))
    tournament = made["tournament"]
    print(f"setup: arena {tournament}, {len(made['players'])} players joined in "
          f"{time.perf_counter() - t0:.1f} s "
          f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'SQLite')})", flush=True)
    stats, measures, shared = Stats(), Measures(), Shared()
    rng = random.Random(args.seed)
    players = [ArenaPlayer(p["name"], p["session"], tournament, urls, think=args.think,
                           stats=stats, measures=measures, shared=shared,
                           rng=random.Random(rng.random()), page_url=urls[i % len(urls)])
               for i, p in enumerate(made["players"])]
    tasks = []
    for player in players:
        tasks.append(asyncio.create_task(player.watch()))
        tasks.append(asyncio.create_task(player.play_games()))
        await asyncio.sleep(args.ramp / len(players))
    await asyncio.wait_for(asyncio.gather(*(p.opened.wait() for p in players)), 120)

    started = manage("--start", tournament, "--seconds", str(args.duration))
    shared.ends_at = started["ends_at"]
    window_start = time.time()
    cpu_before, celery_before = cpu_seconds(args.server_pid), tree_cpu(args.worker_pid)
    database = os.environ.get("DATABASE_URL", "").rsplit("/", 1)[-1].split("?")[0]
    backends_before = backends_cpu(database)
    turns_before, client_before, machine_before = stats.turns, time.process_time(), machine_cpu()
    print(f"started: the arena ends in {shared.ends_at - window_start:.1f} s", flush=True)
    await asyncio.sleep(max(0.0, shared.ends_at - time.time()))
    cpu_after, celery_after = cpu_seconds(args.server_pid), tree_cpu(args.worker_pid)
    backends = sum(v - backends_before.get(pid, 0.0) for pid, v in backends_cpu(database).items())
    turns, client = stats.turns - turns_before, time.process_time() - client_before
    machine = machine_cpu() - machine_before
    window = time.time() - window_start
    try:
        await asyncio.wait_for(shared.finished.wait(), args.drain)
    except TimeoutError:
        measures.failures.append(f"the arena was not finished {args.drain} s after its end")
    shared.abort.set()
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    measures.failures += [repr(r) for r in results if isinstance(r, BaseException)]
    return report(args, urls, tournament, players, stats, measures, shared, {
        "window": window, "turns": turns, "client": client, "machine": machine,
        "cpu": cpu_used(cpu_before, cpu_after), "celery": celery_after - celery_before,
        "backends": backends})


def report(args: argparse.Namespace, urls: list[str], tournament: str,
           players: list[ArenaPlayer], stats: Stats, measures: Measures, shared: Shared,
           window: dict[str, Any]) -> int:
    """Print the figures and checks as JSON; the exit status."""
    games, turns = stored(tournament)
    unpaired = [u for p in players if (u := p.unpaired()) is not None]
    waits = measures.pairing + [u["waited_s"] for u in unpaired]
    two_games = overlaps(games)
    on_server, rematches = server_waits(games)
    lost = lost_games(games, turns, shared.seats)
    elapsed, count = window["window"], max(window["turns"], 1)
    # PostgreSQL: this database's backends (alive at both readings); `postgres_all` is every
    # PostgreSQL process of the machine, other sessions' databases included.
    used = window["cpu"]
    cpu = {"asgi": used["asgi"], "celery": window["celery"], "postgres": window["backends"],
           "redis-server": used["redis-server"]}
    ms = 1000
    print(json.dumps({
        "players": len(players), "tournament": tournament, "servers": urls,
        "think_s": args.think, "time_control": args.time_control, "size": args.size,
        "window_s": round(elapsed, 1), "turns": window["turns"],
        "turns_per_s": round(window["turns"] / elapsed, 1),
        "games_made": len(games), "games_finished": sum(g[3] == "finished" for g in games),
        "ends_seen": measures.ends,
        "end_to_next_pairing_ms": {**latency(waits), "count": len(waits)},
        "next_game_named_before_the_end_frame": measures.told_first,
        # the same waits as the database has them (end stored -> next game made), and
        # those of them that waited for a rematch (the last opponent is barred for 10 s)
        "end_to_next_game_made_ms": {**latency(on_server), "count": len(on_server)},
        "of_which_rematches_ms": {**latency(rematches), "count": len(rematches)},
        "unpaired": len(unpaired), "unpaired_detail": unpaired[:5],
        "standings_after_result_ms": {**latency(measures.standings),
                                      "count": len(measures.standings)},
        "standings_before_the_end_frame": measures.standings_first,
        "results_never_in_standings": sum(len(p.due) for p in players),
        **shared_table(games, players, shared.seats),
        "shared_frame_age_ms": {**latency(measures.shared_age),
                                "count": len(measures.shared_age)},
        "shared_table_read_after_the_end_frame_ms": {**latency(measures.table),
                                                     "count": len(measures.table)},
        "top_lines_after_result_ms": {**latency(measures.lines), "count": len(measures.lines)},
        "top_lines_before_the_end_frame": measures.table_first,
        "results_not_seen_in_the_top_lines": (measures.table_unseen
                                              + sum(len(p.line_due) for p in players)),
        "page_frames": {"count": measures.page_frames,
                        "mb": round(measures.page_bytes / 1e6, 1),
                        "largest_kb": round(measures.page_largest / 1e3, 1)},
        "ack_ms": latency(stats.acks), "errors": stats.errors, "syncs": stats.syncs,
        "players_in_two_games": len({o["player"] for o in two_games}),
        "two_games_detail": two_games[:5],
        "told_of_a_game_during_one": len(measures.told_during_game),
        "told_detail": measures.told_during_game[:5],
        **{k: v for k, v in lost.items() if k != "detail"}, "lost_detail": lost["detail"],
        "server_cpu_s": {k: round(v, 1) for k, v in cpu.items()}
        | {"postgres_all": round(used["postgres"], 1)},
        "server_cpu_ms_per_turn": {k: round(ms * v / count, 3) for k, v in cpu.items()}
        | {"total": round(ms * sum(cpu.values()) / count, 3),
           "load_client": round(ms * window["client"] / count, 3)},
        "machine_cores": {"all": round(window["machine"] / elapsed, 2),
                          "ours": round((sum(cpu.values()) + window["client"]) / elapsed, 2)},
        "client_failures": measures.failures[:5], "client_failure_count": len(measures.failures),
    }, indent=2, default=str))
    failed = (two_games or measures.failures or lost["games_not_told_to_both"]
              or lost["games_not_finished"] or lost["games_forfeited"]
              or lost["turns_acknowledged_not_stored"] or lost["turns_stored_not_acknowledged"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
