"""Trials 2 and 3: the stores restarted mid-game. Redis (its data gone): play resumes and
CargoBot's turns as soon as the broker answers; PostgreSQL: pages answer 503, sockets
`unavailable`, /healthz names the database, and the same processes recover."""

from __future__ import annotations

import asyncio
import functools
import re
import time

from .harness import Table, Trial, bot_task_received, check_play, first_frame_after
from .rows import bot_game, people_games
from .servers import OwnPostgres, OwnRedis, Topology, wait_for


async def trial_restart_redis(top: Topology, redis: OwnRedis) -> Trial:
    trial = Trial("Redis restarted mid-game (no persistence)")
    table = Table(top, seed=2)
    table.seat_people(await asyncio.to_thread(people_games, 4))
    bots = [await asyncio.to_thread(bot_game, f"redis-bot-{i}", "easy") for i in range(2)]
    worker_log = len(top.log("worker"))
    bot_players = [table.seat(game_id, "blue", session) for game_id, session in bots]
    await table.opened()
    await asyncio.sleep(4)
    before = table.acked()
    # Stop Redis just as the worker takes a CargoBot task, so that the task's
    # acknowledgement is due while the broker is gone (the worker's hardest case).
    await asyncio.to_thread(wait_for, "a CargoBot task",
                            functools.partial(bot_task_received, top, len(top.log("worker"))),
                            10, 0.005)
    down_at = time.perf_counter()
    await asyncio.to_thread(redis.stop)
    await asyncio.sleep(1)
    status, body, _ = await asyncio.to_thread(top.get, "/healthz")
    trial.figures["healthz_while_down"] = f"{status} {body.strip()}"
    trial.check(status == 503 and "channel_layer" in body,
                "/healthz did not name the channel layer while Redis was down")
    await asyncio.sleep(2)
    trial.figures["turns_acknowledged_while_down"] = table.acked() - before
    plies = [p.ply for p in bot_players]
    await asyncio.to_thread(redis.start)
    up_at = time.perf_counter()
    trial.figures["redis_down_s"] = round(up_at - down_at, 1)
    # Each game against CargoBot must go on soon after Redis is back: two more turns (one of
    # them CargoBot's) reach its player.
    waits = await asyncio.gather(*(first_frame_after(p, ply + 1, up_at, 25)
                                   for p, ply in zip(bot_players, plies, strict=True)))
    trial.figures["cargobot_turn_after_redis_back_s"] = waits
    trial.check(all(w is not None and w < 10 for w in waits),
                f"CargoBot's turns did not resume within 10 s of Redis returning: {waits}")
    healthy = await asyncio.to_thread(wait_for, "healthz",
                                      lambda: top.get("/healthz")[0] == 200, 30)
    trial.figures["healthz_ok_after_s"] = round(healthy, 2)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=False)
    trial.check(trial.figures["turns_acknowledged_while_down"] > 0,
                "no turn was acknowledged while Redis was down")
    log = top.log("worker")[worker_log:]
    trial.figures["worker_exits_restarted_by_supervisor"] = log.count("[topology] worker exited")
    trial.figures["worker_unrecoverable_errors"] = log.count("Unrecoverable error")
    trial.figures["worker_lost_connection_not_closed_cleanly"] = log.count(
        "could not be closed cleanly")
    trial.figures["worker_acks_over_the_lost_connection"] = log.count("Couldn't ack")
    return trial


async def trial_restart_postgres(top: Topology, pg: OwnPostgres) -> Trial:
    trial = Trial("PostgreSQL restarted mid-game")
    table = Table(top, seed=3)
    games = await asyncio.to_thread(people_games, 4)
    table.seat_people(games)
    pids = {piece: top.pid(piece) for piece in ("asgi-1", "asgi-2", "worker")}
    await table.opened()
    await asyncio.sleep(4)
    down_at = time.perf_counter()
    await asyncio.to_thread(pg.stop)
    await asyncio.sleep(1)
    game_page = f"/g/{games[0]['id']}"
    page = await asyncio.to_thread(top.get, game_page)
    text = re.sub(r"(<[^>]+>|\s)+", " ", page[1]).strip()
    trial.figures["game_page_while_down"] = f"{page[0]} {text[:200]}"
    trial.check(page[0] == 503 and "database" in page[1].lower(),
                f"GET {game_page} while PostgreSQL was down answered {page[0]}")
    events = await asyncio.to_thread(top.get_json, f"{game_page}/events?after=0")
    trial.figures["events_json_while_down"] = f"{events[0]} {events[1].strip()[:200]}"
    trial.check(events[0] == 503 and '"unavailable"' in events[1],
                "the JSON fallback did not answer 503 unavailable")
    trial.check(page[2].get("Retry-After") is not None, "no Retry-After on the 503")
    health = await asyncio.to_thread(top.get, "/healthz")
    trial.figures["healthz_while_down"] = f"{health[0]} {health[1].strip()[:200]}"
    trial.check(health[0] == 503 and '"database"' in health[1].split('"failed"')[-1],
                "/healthz did not name the database")
    await asyncio.sleep(2)
    await asyncio.to_thread(pg.start)
    up_at = time.perf_counter()
    trial.figures["postgres_down_s"] = round(up_at - down_at, 1)
    recovered = await asyncio.to_thread(wait_for, "the game page",
                                        lambda: top.get(game_page)[0] == 200, 30)
    trial.figures["pages_ok_after_s"] = round(recovered, 2)
    before = table.acked()
    resumed = await asyncio.to_thread(wait_for, "a turn", lambda: table.acked() > before, 30)
    trial.figures["first_turn_after_s"] = round(resumed, 2)
    await asyncio.sleep(3)
    result = await table.finish()
    trial.figures.update(result)
    check_play(trial, result, people_only=True)
    trial.check(pids == {piece: top.pid(piece) for piece in pids},
                "a process was restarted (the site must recover by itself)")
    trial.figures["unavailable_errors_to_sockets"] = result["errors"].get("unavailable", 0)
    return trial
