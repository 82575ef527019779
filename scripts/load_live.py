"""Drive many concurrent live games over real WebSockets and measure them.

    .venv/bin/python scripts/load_live.py --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 \\
        --games 200 --think 1.0 --duration 60

Setup: `manage.py load_setup` (run by this script with the same environment, so point
DATABASE_URL at the server's database) makes a pair of signed-in players and one game per
pair. Each player opens `/ws/game/<id>/` with its session cookie, and one --think seconds
after it sees it is its turn sends a random legal turn (taking an unload when one is
offered). `--route game` (the default) sends both sockets of a game to one --url server,
games round-robin, as nginx's `hash $request_uri` does in the production topology
(docs/production.md); `--route socket` spreads the sockets themselves round-robin, so a
game's two players sit on different processes. Measured:

- turns/s: turns acknowledged per second over the run;
- ack latency: turn sent -> the `turn` frame for that ply back on the sender's socket;
- delivery latency: turn sent -> that `turn` frame on the opponent's socket;
- server CPU per turn: the CPU seconds (from /proc) of the --server-pid processes plus every
  PostgreSQL and Redis process on this machine over the measured window (every socket open,
  after the ramp; before the drain), over the turns acknowledged in that window: the
  steady cost of a turn, without the sockets' connects.

At the end (no new turns after --duration; outstanding acks are awaited) it checks every
game's stored turns (`/g/<id>/events?after=0`) against what the clients played and that
every turn frame reached both players. Exit status 1 if anything was lost.

`--game cargo-express` plays Cargo Express instead: `--games` tables of `--seats` (default 4)
scripted people (scripts/express_client.py), each deciding from its own frames' `legal` one
--think seconds after a decision is its own (a pick, a plan, each step of a turn, a swap). A
"turn" in the figures is then one decision acknowledged. At the end it reads the game's
`Turn` rows (DATABASE_URL) and checks that every decision acknowledged is stored as sent at
its ply, that every stored row was acknowledged to its seat, that every seat's socket got
every row's turn frame, and that no frame a seat got carried another seat's secret.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from express_client import ExpressSeat, ExpressStats, Table
from live_client import GameRun, Player, Stats, stored_turns

ROOT = Path(__file__).resolve().parent.parent
# The games by their keys, as an outside program names them (scripts/load_bots.py too).
CONNECT, EXPRESS = "cargo-connect", "cargo-express"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


SERVICE_NAMES = ("postgres", "redis-server")


def proc_stats() -> Iterator[tuple[int, str, list[str]]]:
    """Each running process's pid, name and the fields of /proc/<pid>/stat after its name
    (fields[1] the parent's pid, [11] and [12] its user and system ticks, [13] and [14]
    its reaped children's)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        yield (int(entry.name), stat[stat.index("(") + 1:stat.rindex(")")],
               stat[stat.rindex(")") + 2:].split())


def descendants(pids: list[int]) -> list[int]:
    """`pids` and every process below them (topology.sh's pid file names the shell that
    keeps `python -m cargosite.serve` running, not the server itself)."""
    children: dict[int, list[int]] = {}
    for pid, _name, fields in proc_stats():
        children.setdefault(int(fields[1]), []).append(pid)
    found, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.append(pid)
            todo.extend(children.get(pid, []))
    return sorted(found)


def cpu_seconds(pids: list[int]) -> dict[tuple[str, int], float]:
    """CPU seconds so far, by (role, pid), of the ASGI processes `pids` and of every
    PostgreSQL and Redis process. A service process's count includes its children that
    have exited (cutime, cstime): PostgreSQL's autovacuum workers and any backend that
    closed run and exit inside the window, and their CPU reaches only the postmaster's
    count once it has reaped them."""
    ticks = os.sysconf("SC_CLK_TCK")
    out: dict[tuple[str, int], float] = {}
    for pid, name, fields in proc_stats():
        role = "asgi" if pid in pids else name if name in SERVICE_NAMES else None
        if role is not None:
            reaped = int(fields[13]) + int(fields[14]) if role != "asgi" else 0
            out[role, pid] = (int(fields[11]) + int(fields[12]) + reaped) / ticks
    return out


def machine_cpu() -> float:
    """CPU seconds every process of the machine has used so far (/proc/stat: user, nice,
    system, irq, softirq; not idle, iowait or steal)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq = map(int, fields[:7])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def cpu_used(before: dict[tuple[str, int], float], after: dict[tuple[str, int], float]
             ) -> dict[str, float]:
    """CPU seconds used between two readings, by role: a process that started meanwhile
    counts from zero; one that exited meanwhile (a PostgreSQL backend of a connection
    that closed) loses its share, which is small with kept connections."""
    used = {"asgi": 0.0, "postgres": 0.0, "redis-server": 0.0}
    for key, seconds in after.items():
        used[key[0]] += seconds - before.get(key, 0.0)
    return used


def setup(games: int, size: int, game: str = CONNECT, seats: int = 2) -> list[dict]:
    cmd = [sys.executable, "manage.py", "load_setup", "--games", str(games), "--size",
           str(size), "--game", game, "--seats", str(seats), "--force"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", action="append", help="server base URL (repeat for several)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--duration", type=float, default=60.0,
                    help="seconds of play before no new turns are sent")
    ap.add_argument("--ramp", type=float, default=5.0, help="seconds to open all sockets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--route", choices=("game", "socket"), default="game",
                    help="one server per game (nginx's hash routing) or per socket")
    ap.add_argument("--server-pid", type=int, action="append", default=[],
                    help="an ASGI server process to count the CPU of (repeat)")
    ap.add_argument("--game", choices=(CONNECT, EXPRESS), default=CONNECT)
    ap.add_argument("--seats", type=int, default=4, help="Cargo Express's seats per table")
    args = ap.parse_args()
    urls = args.url or ["http://127.0.0.1:8000"]
    if args.game == EXPRESS:
        return await run_express(args, urls)

    t0 = time.perf_counter()
    games = setup(args.games, args.size)
    print(f"setup: {len(games)} games in {time.perf_counter() - t0:.1f} s "
          f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'SQLite')})", flush=True)

    stats, stop = Stats(), asyncio.Event()
    runs = [GameRun(g["id"]) for g in games]
    rng = random.Random(args.seed)
    tasks = []
    players: dict[str, list[Player]] = {}
    for i, (g, run) in enumerate(zip(games, runs, strict=True)):
        for j, side in enumerate(("blue", "orange")):
            server = urls[(i if args.route == "game" else 2 * i + j) % len(urls)]
            player = Player(run, side, g[side], server, think=args.think,
                            stats=stats, stop=stop, rng=random.Random(rng.random()))
            players.setdefault(run.id, []).append(player)
            tasks.append(asyncio.create_task(player.play()))
        await asyncio.sleep(args.ramp / len(games))
    started = time.perf_counter()
    cpu_before, turns_before = cpu_seconds(args.server_pid), stats.turns
    client_before = time.process_time()
    await asyncio.sleep(args.duration)
    cpu_after, turns_after = cpu_seconds(args.server_pid), stats.turns
    client_cpu = time.process_time() - client_before
    stop.set()
    elapsed = time.perf_counter() - started
    turns_in_window = stats.turns
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    failures = [r for r in results if isinstance(r, BaseException)]
    cpu = cpu_used(cpu_before, cpu_after)
    window_turns = turns_after - turns_before

    lost = mismatched = unseen = 0
    missing_detail = []
    for run in runs:
        stored = stored_turns(urls[0], run.id)
        acked: dict[int, str] = {}
        for player in players[run.id]:
            acked.update(player.acked)
        if sorted(acked) != list(range(len(stored))) or any(
                stored[p] != token for p, token in acked.items()):
            mismatched += 1
        for player in players[run.id]:
            side = player.side
            missing = set(range(len(stored))) - player.frames
            if missing:
                unseen += 1
                lost += len(missing)
                missing_detail.append({"game": run.id, "side": side, "plies": sorted(missing),
                                       "stored": len(stored), "over": run.over})

    ms = 1000
    print(json.dumps({
        "games": len(runs), "servers": urls, "route": args.route, "think_s": args.think,
        "size": args.size,
        "window_s": round(elapsed, 1), "turns": turns_in_window,
        "turns_per_s": round(turns_in_window / elapsed, 1),
        "ack_ms": {"p50": round(percentile(stats.acks, 50) * ms, 1),
                   "p95": round(percentile(stats.acks, 95) * ms, 1),
                   "p99": round(percentile(stats.acks, 99) * ms, 1),
                   "max": round(max(stats.acks, default=0) * ms, 1)},
        "delivery_ms": {"p50": round(percentile(stats.deliveries, 50) * ms, 1),
                        "p95": round(percentile(stats.deliveries, 95) * ms, 1),
                        "p99": round(percentile(stats.deliveries, 99) * ms, 1),
                        "max": round(max(stats.deliveries, default=0) * ms, 1)},
        "mean_ack_ms": round(statistics.fmean(stats.acks) * ms, 1) if stats.acks else None,
        "gc_pauses": gc_pauses(urls),
        "server_cpu_ms_per_turn": {
            "turns_counted": window_turns,
            **{name: round(ms * seconds / max(window_turns, 1), 3)
               for name, seconds in cpu.items()},
            "total": round(ms * sum(cpu.values()) / max(window_turns, 1), 3),
            "load_client": round(ms * client_cpu / max(window_turns, 1), 3),
        } if args.server_pid else None,
        "finished_games": sum(r.over for r in runs),
        "errors": stats.errors, "syncs": stats.syncs,
        "client_failures": [repr(f) for f in failures[:5]], "client_failure_count": len(failures),
        "games_with_stored_turns_differing": mismatched,
        "turn_frames_not_received": lost, "players_missing_frames": unseen,
        "missing": missing_detail[:10],
    }, indent=2))
    return 1 if (mismatched or lost or failures) else 0


def stored_rows(game_ids: list[str]) -> dict[str, list[tuple[int, int, str]]]:
    """Each game's `Turn` rows, (ply, seat, token) in ply order, read from DATABASE_URL."""
    import psycopg

    rows: dict[str, list[tuple[int, int, str]]] = {g: [] for g in game_ids}
    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        for game_id, ply, seat, token in conn.execute(
                "SELECT game_id, ply, seat, token FROM games_turn WHERE game_id = ANY(%s) "
                "ORDER BY game_id, ply", [game_ids]):
            rows[game_id].append((ply, seat, token))
    return rows


def turns_by_path(urls: list[str]) -> dict[str, float] | None:
    """The servers' turns by the path that stored them (games/frames/metrics.py's
    `cargo_turns_applied_total`, summed over the processes; whole run), or None when
    /metrics is off (METRICS_ENABLED, which scripts/load_run.sh sets)."""
    import re

    paths: dict[str, float] = {}
    for text in _metrics(urls):
        for path, count in re.findall(r'^cargo_turns_applied_total\{path="(\w+)"\} (\S+)$',
                                      text, re.M):
            paths[path] = paths.get(path, 0) + float(count)
    return paths or None


def gc_pauses(urls: list[str]) -> dict[str, dict[str, float]] | None:
    """The servers' garbage collections (games/frames/metrics.py's `cargo_gc_pause_seconds`,
    whole run, summed over the processes) by generation: how many, their milliseconds in
    all, and how many took 50 ms or more."""
    import re

    count: dict[str, float] = {}
    seconds: dict[str, float] = {}
    quick: dict[str, float] = {}
    for text in _metrics(urls):
        for name, labels, value in re.findall(
                r'^cargo_gc_pause_seconds_(\w+)\{([^}]*)\} (\S+)$', text, re.M):
            fields = dict(re.findall(r'(\w+)="([^"]*)"', labels))
            gen = f"gen{fields.get('generation')}"
            if name == "count":
                count[gen] = count.get(gen, 0) + float(value)
            elif name == "sum":
                seconds[gen] = seconds.get(gen, 0) + float(value)
            elif name == "bucket" and fields.get("le") == "0.05":
                quick[gen] = quick.get(gen, 0) + float(value)
    return {gen: {"count": n, "ms": round(1000 * seconds.get(gen, 0), 1),
                  "50ms_or_more": n - quick.get(gen, 0)}
            for gen, n in sorted(count.items())} or None


def _metrics(urls: list[str]) -> list[str]:
    import urllib.request

    texts = []
    for url in urls:
        try:
            with urllib.request.urlopen(f"{url}/metrics", timeout=10) as reply:
                texts.append(reply.read().decode())
        except OSError:
            pass
    return texts


def latency(values: list[float]) -> dict[str, float]:
    ms = 1000
    return {"p50": round(percentile(values, 50) * ms, 1),
            "p95": round(percentile(values, 95) * ms, 1),
            "p99": round(percentile(values, 99) * ms, 1),
            "max": round(max(values, default=0) * ms, 1)}


async def run_express(args: argparse.Namespace, urls: list[str]) -> int:
    """The Cargo Express load (the module's doc): tables of scripted seats, then the checks
    against the stored rows."""
    t0 = time.perf_counter()
    games = setup(args.games, args.size, args.game, args.seats)
    print(f"setup: {len(games)} Cargo Express tables of {args.seats} in "
          f"{time.perf_counter() - t0:.1f} s "
          f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'SQLite')})", flush=True)
    stats, stop = ExpressStats(), asyncio.Event()
    rng = random.Random(args.seed)
    tables = [Table(g["id"]) for g in games]
    seats: dict[str, list[ExpressSeat]] = {}
    tasks = []
    for i, (g, table) in enumerate(zip(games, tables, strict=True)):
        for k, session in enumerate(g["seats"]):
            n = len(g["seats"])
            server = urls[(i if args.route == "game" else n * i + k) % len(urls)]
            seat = ExpressSeat(table, k, session, server, think=args.think, stats=stats,
                               stop=stop, rng=random.Random(rng.random()))
            seats.setdefault(table.id, []).append(seat)
            tasks.append(asyncio.create_task(seat.play()))
        await asyncio.sleep(args.ramp / len(games))
    started = time.perf_counter()
    cpu_before, turns_before = cpu_seconds(args.server_pid), stats.turns
    client_before, machine_before = time.process_time(), machine_cpu()
    await asyncio.sleep(args.duration)
    cpu_after, turns_after = cpu_seconds(args.server_pid), stats.turns
    client_cpu = time.process_time() - client_before
    machine = machine_cpu() - machine_before
    stop.set()
    elapsed = time.perf_counter() - started
    decisions_in_window = stats.turns
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 90)
    failures = [r for r in results if isinstance(r, BaseException)]
    cpu = cpu_used(cpu_before, cpu_after)
    window = turns_after - turns_before

    rows = stored_rows([t.id for t in tables])
    lost = unacknowledged = missing = seats_missing = stored_total = 0
    detail: list[dict] = []
    for table in tables:
        stored = rows[table.id]
        stored_total += len(stored)
        by_ply = {ply: (seat, token) for ply, seat, token in stored}
        acked_plies: set[int] = set()
        for seat in seats[table.id]:
            for seq, (ply, token) in seat.acked.items():
                acked_plies.add(ply)
                if by_ply.get(ply) != (seat.seat, token):
                    lost += 1
                    detail.append({"game": table.id, "seat": seat.seat, "seq": seq,
                                   "ply": ply, "token": token, "stored": by_ply.get(ply)})
            gone = set(by_ply) - seat.seen
            if gone:
                seats_missing += 1
                missing += len(gone)
                detail.append({"game": table.id, "seat": seat.seat, "frames_missing":
                               sorted(gone)[:20], "stored": len(stored)})
        unacknowledged += len(set(by_ply) - acked_plies)
    decisions = sum(stats.kinds.values())
    print(json.dumps({
        "game": EXPRESS, "tables": len(tables), "seats": args.seats,
        "servers": urls, "route": args.route, "think_s": args.think,
        "window_s": round(elapsed, 1), "turns": decisions_in_window,
        "decisions_per_s": round(decisions_in_window / elapsed, 1),
        "decisions_by_kind": dict(sorted(stats.kinds.items())),
        "ack_ms": latency(stats.acks), "delivery_ms": latency(stats.deliveries),
        "ack_ms_by_kind": {k: latency(v) for k, v in sorted(stats.acks_by_kind.items())},
        "turns_by_path": turns_by_path(urls),
        "gc_pauses": gc_pauses(urls),
        "mean_ack_ms": round(statistics.fmean(stats.acks) * 1000, 1) if stats.acks else None,
        "server_cpu_ms_per_turn": {
            "turns_counted": window,
            **{name: round(1000 * seconds / max(window, 1), 3)
               for name, seconds in cpu.items()},
            "total": round(1000 * sum(cpu.values()) / max(window, 1), 3),
            "load_client": round(1000 * client_cpu / max(window, 1), 3),
        } if args.server_pid else None,
        # the machine's CPU over the window, in cores: ours (servers, PostgreSQL, Redis, this
        # client) and every other process's (another helper's tests: a disturbed run)
        "machine_cores": {"all": round(machine / elapsed, 2),
                          "ours": round((sum(cpu.values()) + client_cpu) / elapsed, 2),
                          "others": round((machine - sum(cpu.values()) - client_cpu)
                                          / elapsed, 2)},
        "finished_games": sum(t.over for t in tables),
        "errors": stats.errors, "syncs": stats.syncs, "gaps": stats.gaps,
        "client_failures": [repr(f) for f in failures[:5]], "client_failure_count": len(failures),
        "decisions_acknowledged": decisions, "stored_rows": stored_total,
        "acknowledged_not_stored_as_sent": lost,
        "stored_not_acknowledged": unacknowledged,
        "turn_frames_not_received": missing, "seats_missing_frames": seats_missing,
        "secrets_seen_by_another_seat": stats.leak_count, "leaks": stats.leaks,
        "frames_showing_the_seat_its_own_hand": stats.own_secrets,
        "unacknowledged_at_end": sum(t.outstanding for t in tables),
        "detail": detail[:10],
    }, indent=2))
    return 1 if (lost or unacknowledged or missing or failures or stats.leak_count) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
