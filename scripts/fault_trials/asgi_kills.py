"""Trials 1 and 6: ASGI processes killed with `kill -9` mid-game. One process (the busier)
killed once: its players reconnect to the other, nothing lost or doubled; then each
process in turn, twice: every dropped player back within 5 s, fresh sockets open and nginx
refuses none (issue #28, point 1)."""

from __future__ import annotations

import asyncio
import time

from .harness import Table, Trial, check_play, fresh_sockets
from .rows import people_games
from .servers import Topology


async def trial_kill_asgi(top: Topology) -> Trial:
    trial = Trial("kill -9 one ASGI process mid-game")
    table = Table(top, seed=1)
    table.seat_people(await asyncio.to_thread(people_games, 6))
    trial.figures["sockets_open_s"] = await table.opened()
    await asyncio.sleep(4)
    before = table.acked()
    killed = trial.figures["killed"] = top.busiest_asgi()
    top.kill9(killed)
    await asyncio.sleep(6)
    after = table.acked()
    trial.figures["turns_acknowledged_in_6s_after_the_kill"] = after - before
    restart = time.perf_counter()
    await asyncio.to_thread(top.run, "start", killed)
    trial.figures["asgi_restart_s"] = round(time.perf_counter() - restart, 1)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    trial.figures["killed_after_play_s"] = 4
    check_play(trial, result, people_only=True)
    trial.check(result["players_dropped"] > 0, "no player was on the killed process")
    trial.check(after > before, "no turn was acknowledged after the kill")
    return trial


async def trial_double_failover(top: Topology) -> Trial:
    """Issue #28, point 1: each ASGI process killed in turn, twice. nginx's game-socket
    upstream used to mark a process down for 5 s per failure, and a WebSocket 'finishes'
    only when it closes: after the second failure every game socket was refused (502,
    "no live upstreams") although both processes were up."""
    trial = Trial("each ASGI process killed in turn, twice (failover that stays up)")
    table = Table(top, seed=6)
    games = await asyncio.to_thread(people_games, 6)
    table.seat_people(games)
    trial.figures["sockets_open_s"] = await table.opened()
    players = [p for ps in table.players.values() for p in ps]
    error_log = len(top.log("nginx-error"))
    await asyncio.sleep(3)
    rounds = []
    for piece in ("asgi-1", "asgi-2", "asgi-1", "asgi-2"):
        seen = {id(p): len(p.drops) for p in players}
        top.kill9(piece)
        await asyncio.sleep(5)
        dropped = [p for p in players if len(p.drops) > seen[id(p)]]
        gaps = [round(p.reopens[seen[id(p)]] - p.drops[seen[id(p)]], 2)
                if len(p.reopens) > seen[id(p)] else None for p in dropped]
        restart = time.perf_counter()
        await asyncio.to_thread(top.run, "start", piece)
        restarted_s = round(time.perf_counter() - restart, 1)
        await asyncio.sleep(1)
        rounds.append({"killed": piece, "dropped": len(dropped),
                       "back_before_restart": sum(g is not None for g in gaps),
                       "back_s_max": max((g for g in gaps if g is not None), default=0),
                       "restart_s": restarted_s})
        trial.check(all(g is not None and g <= 5 for g in gaps),
                    f"after killing {piece}: players back {gaps} (each must be back ≤ 5 s)")
    trial.figures["rounds"] = rounds
    trial.figures["players_dropped_in_all"] = sum(r["dropped"] for r in rounds)
    trial.check(trial.figures["players_dropped_in_all"] > 0, "no player was on a killed process")
    await asyncio.sleep(2)  # both processes healthy (start waits for /healthz)
    opened = await fresh_sockets(top, games, 20)
    trial.figures["fresh_sockets_opened_of_20"] = opened
    trial.check(opened == 20, f"only {opened} of 20 fresh game sockets opened")
    refused = top.log("nginx-error")[error_log:].count("no live upstreams")
    trial.figures["nginx_no_live_upstreams"] = refused
    trial.check(refused == 0, f"nginx refused {refused} sockets with no live upstreams")
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=True)
    return trial
