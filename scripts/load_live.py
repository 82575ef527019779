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
  PostgreSQL and Redis process on this machine, from just before the first socket opens to
  after the last closes, over every turn acknowledged in that time.

At the end (no new turns after --duration; outstanding acks are awaited) it checks every
game's stored turns (`/g/<id>/events?after=0`) against what the clients played and that
every turn frame reached both players. Exit status 1 if anything was lost.
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
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Stats:
    acks: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    turns: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    syncs: int = 0
    reconnects: int = 0


@dataclass
class GameRun:
    id: str
    played: list[str] = field(default_factory=list)  # tokens acknowledged, by ply
    sent_at: dict[int, float] = field(default_factory=dict)
    seen: dict[str, set[int]] = field(default_factory=lambda: {"blue": set(), "orange": set()})
    over: bool = False


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def choose(state: dict, rng: random.Random) -> str:
    token = rng.choice(state["legal"])
    option = state["options"].get(token)
    if option and option["unloads"] and rng.random() < 0.8:
        token += "+" + rng.choice(option["unloads"])[0]
    return token


async def player(run: GameRun, side: str, session: str, base: str, args, stats: Stats,
                 stop: asyncio.Event, rng: random.Random) -> None:
    ws_url = base.replace("http", "ws", 1) + f"/ws/game/{run.id}/"
    headers = {"Cookie": f"sessionid={session}"}
    ply = 0
    pending: int | None = None
    think: asyncio.Task | None = None
    async with connect(ws_url, origin=base, additional_headers=headers, compression=None,
                       max_size=2**22, open_timeout=60) as ws:

        async def take_turn(state: dict) -> None:
            nonlocal pending
            await asyncio.sleep(args.think)
            if stop.is_set() or state["ply"] != ply:
                return
            token = choose(state, rng)
            pending = state["ply"]
            run.sent_at[pending] = time.perf_counter()
            await ws.send(json.dumps({"type": "turn", "ply": pending, "token": token}))

        def consider(state: dict) -> None:
            nonlocal think
            if state["over"]:
                run.over = True
                return
            if state["to_move"] == side and pending is None and not stop.is_set():
                if think is None or think.done():
                    think = asyncio.create_task(take_turn(state))

        async def close_when_stopped() -> None:
            await stop.wait()
            # Let every sent turn of this game reach both players (at most 15 s).
            deadline = time.perf_counter() + 15
            while time.perf_counter() < deadline and (pending is not None or any(
                    set(run.sent_at) - run.seen[s] for s in ("blue", "orange"))):
                await asyncio.sleep(0.05)
            await ws.close()

        closer = asyncio.create_task(close_when_stopped())
        async for text in ws:
            now = time.perf_counter()
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "state":
                ply = max(ply, frame["state"]["ply"])
                consider(frame["state"])
            elif kind == "turn":
                p = frame["ply"]
                run.seen[side].add(p)
                if p > ply:  # a gap: ask for what we missed
                    stats.syncs += 1
                    await ws.send(json.dumps({"type": "sync", "after": ply}))
                    continue
                if p < ply:
                    continue
                ply = p + 1
                sent = run.sent_at.get(p)
                if frame["side"] == side:
                    if pending == p and sent is not None:
                        stats.acks.append(now - sent)
                        stats.turns += 1
                        while len(run.played) <= p:
                            run.played.append("")
                        run.played[p] = frame["token"]
                    pending = None
                elif sent is not None:
                    stats.deliveries.append(now - sent)
                consider(frame["state"])
            elif kind == "resigned":
                run.over = True
            elif kind == "error":
                code = frame.get("code", "?")
                stats.errors[code] = stats.errors.get(code, 0) + 1
                if code != "stale_ply":
                    pending = None
            if run.over:
                break
        closer.cancel()


SERVICE_NAMES = ("postgres", "redis-server")


def cpu_seconds(pids: list[int]) -> dict[str, float]:
    """CPU seconds so far of the ASGI processes `pids` and of PostgreSQL and Redis (every
    process of theirs: PostgreSQL's backends come and go with connections, so a backend
    that exits during the run loses its share, which is small with pooled connections)."""
    ticks = os.sysconf("SC_CLK_TCK")
    out = {"asgi": 0.0, "postgres": 0.0, "redis-server": 0.0}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        seconds = (int(fields[11]) + int(fields[12])) / ticks
        if int(entry.name) in pids:
            out["asgi"] += seconds
        elif name in SERVICE_NAMES:
            out[name] += seconds
    return out


def setup(games: int, size: int) -> list[dict]:
    cmd = [sys.executable, "manage.py", "load_setup", "--games", str(games), "--size",
           str(size), "--force"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def stored_tokens(base: str, game_id: str) -> list[str]:
    with urllib.request.urlopen(f"{base}/g/{game_id}/events?after=0", timeout=30) as r:
        return json.load(r)["state"]["turns"]


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
    args = ap.parse_args()
    urls = args.url or ["http://127.0.0.1:8000"]

    t0 = time.perf_counter()
    games = setup(args.games, args.size)
    print(f"setup: {len(games)} games in {time.perf_counter() - t0:.1f} s "
          f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'SQLite')})", flush=True)

    stats, stop = Stats(), asyncio.Event()
    runs = [GameRun(g["id"]) for g in games]
    rng = random.Random(args.seed)
    tasks = []
    cpu_before = cpu_seconds(args.server_pid)
    for i, (g, run) in enumerate(zip(games, runs, strict=True)):
        for j, side in enumerate(("blue", "orange")):
            base = urls[(i if args.route == "game" else 2 * i + j) % len(urls)]
            tasks.append(asyncio.create_task(player(
                run, side, g[side], base, args, stats, stop, random.Random(rng.random()))))
        await asyncio.sleep(args.ramp / len(games))
    started = time.perf_counter()
    await asyncio.sleep(args.duration)
    stop.set()
    elapsed = time.perf_counter() - started
    turns_in_window = stats.turns
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    failures = [r for r in results if isinstance(r, BaseException)]
    cpu_after = cpu_seconds(args.server_pid)
    cpu = {name: cpu_after[name] - cpu_before[name] for name in cpu_before}
    all_turns = stats.turns

    lost = mismatched = unseen = 0
    missing_detail = []
    for run in runs:
        stored = stored_tokens(urls[0], run.id)
        played = [t for t in run.played if t]
        if stored[:len(played)] != played or len(stored) != len(run.played):
            mismatched += 1
        for side in ("blue", "orange"):
            missing = set(range(len(stored))) - run.seen[side]
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
        "server_cpu_ms_per_turn": {
            "turns_counted": all_turns,
            **{name: round(ms * seconds / max(all_turns, 1), 3) for name, seconds in cpu.items()},
            "total": round(ms * sum(cpu.values()) / max(all_turns, 1), 3),
        } if args.server_pid else None,
        "finished_games": sum(r.over for r in runs),
        "errors": stats.errors, "syncs": stats.syncs,
        "client_failures": [repr(f) for f in failures[:5]], "client_failure_count": len(failures),
        "games_with_stored_turns_differing": mismatched,
        "turn_frames_not_received": lost, "players_missing_frames": unseen,
        "missing": missing_detail[:10],
    }, indent=2))
    return 1 if (mismatched or lost or failures) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
