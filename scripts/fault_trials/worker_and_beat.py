"""Trials 4 and 5: the Celery side. The worker killed (`kill -9`) while it plays CargoBot's
turn: the turn played exactly once after it is started again; a second beat: the
end-of-day resign of a Daily Challenge game and the sweep of a game whose CargoBot task was
lost each happen once."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import re
import time
from typing import Any

from .harness import Table, Trial, bot_task_received, check_play, first_frame_after
from .rows import bot_game, fresh, game_row, member, turn_rows
from .servers import Topology, wait_for


async def trial_kill_worker(top: Topology) -> Trial:
    trial = Trial("the worker killed (kill -9) mid CargoBot turn")
    table = Table(top, seed=4)
    game_id, session = await asyncio.to_thread(bot_game, "worker-kill", "hard")
    player = table.seat(game_id, "blue", session)
    attempts = 0
    killed_ply = None
    log_seen = len(top.log("worker"))
    while attempts < 6 and killed_ply is None:
        attempts += 1
        # Wait for CargoBot's task to be received, then kill the worker at once.
        await asyncio.to_thread(wait_for, "the bot task",
                                functools.partial(bot_task_received, top, log_seen), 30, 0.005)
        top.kill9("worker")
        log_seen = len(top.log("worker"))
        row = await asyncio.to_thread(game_row, game_id)
        bot_to_move = row.bot_waiting_since is not None
        if bot_to_move:
            killed_ply = row.ply
        await asyncio.to_thread(top.run, "start", "worker")
        ready_at = time.perf_counter()
        if killed_ply is not None:
            wait = await first_frame_after(player, killed_ply, ready_at, 20)
            trial.figures["cargobot_turn_after_worker_ready_s"] = wait
            trial.check(wait is not None and wait < 5,
                        f"CargoBot's turn came {wait} s after the worker was back")
        log_seen = len(top.log("worker"))
        await asyncio.sleep(0.5)
    trial.figures["attempts_to_kill_mid_turn"] = attempts
    trial.check(killed_ply is not None, "the worker was never killed mid-turn")
    await asyncio.sleep(2)
    result = await table.finish()
    if killed_ply is not None:
        trial.figures["turn_rows_at_killed_ply"] = await asyncio.to_thread(
            turn_rows, game_id, killed_ply)
        trial.check(trial.figures["turn_rows_at_killed_ply"] == 1, "the turn was not stored once")
        row = await asyncio.to_thread(game_row, game_id)
        seats = [s.bot_level is not None for s in row.seat_list]
        trial.check(row.ply > killed_ply and seats[killed_ply % 2],
                    "the killed ply was not CargoBot's or was not played")
    trial.figures.update(result)
    check_play(trial, result, people_only=False)
    return trial


@fresh
def stale_daily_and_stalled_bot_game() -> tuple[str, str]:
    """A ranked Daily Challenge game started yesterday and still running, and a game against
    CargoBot whose task was lost (never sent) a minute ago: their ids."""
    from games import services
    from games.botplay import bot_games, bots
    from games.models import Game
    from puzzles.daily import clock
    from puzzles.daily import services as daily
    from puzzles.daily.models import DailyGame

    user, _ = member("beat-daily")
    game = daily.start(services.Actor.member(user), "easy")
    DailyGame.objects.filter(game_id=game.id).update(day=clock.today() - dt.timedelta(days=1))
    bot_user, _ = member("beat-sweep")
    original, bots.send_task_on_commit = bots.send_task_on_commit, lambda game: None
    try:
        stalled = bot_games.create_bot_game(actor=services.Actor.member(bot_user), level="easy",
                                       options={"size": 6}, seat="orange")
    finally:
        bots.send_task_on_commit = original
    Game.objects.filter(id=stalled.id).update(
        bot_waiting_since=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    return game.id, stalled.id


@fresh
def beat_outcome(daily_id: str, stalled_id: str) -> dict[str, Any]:
    from rankings.models import DailyBoardEntry

    daily_row, stalled_row = game_row(daily_id), game_row(stalled_id)
    return {"daily_termination": daily_row.termination,
            "daily_board_rows": DailyBoardEntry.objects.filter(game_id=daily_id).count(),
            "swept_game_ply": stalled_row.ply,
            "swept_turn_rows_at_ply_0": turn_rows(stalled_id, 0)}


async def trial_second_beat(top: Topology) -> Trial:
    trial = Trial("a second beat doubles no scheduled job")
    worker_log = len(top.log("worker"))
    await asyncio.to_thread(top.run, "start", "beat-2")
    beat_logs = [len(top.log("beat")), len(top.log("beat-2"))]
    daily_id, stalled_id = await asyncio.to_thread(stale_daily_and_stalled_bot_game)
    # Both beats send the minute's end-of-day task (the worker runs the two at once), and
    # each sends the 30 s sweep: wait for both (at most 100 s), then for the worker.
    def both_beats_sent() -> bool:
        logs = [top.log("beat")[beat_logs[0]:], top.log("beat-2")[beat_logs[1]:]]
        return all("daily-end-of-day" in b and "sweep-bot-games" in b for b in logs)

    await asyncio.to_thread(wait_for, "both beats' end-of-day and sweep", both_beats_sent, 100,
                            0.5)
    await asyncio.sleep(5)
    outcome = await asyncio.to_thread(beat_outcome, daily_id, stalled_id)
    trial.figures.update(outcome)
    trial.check(outcome["daily_termination"] == "day_ended", "the daily game was not resigned")
    trial.check(outcome["daily_board_rows"] == 1, "not one board row for the daily game")
    trial.check(outcome["swept_game_ply"] == 1 and outcome["swept_turn_rows_at_ply_0"] == 1,
                "the stalled game's CargoBot turn was not played exactly once")
    worker = top.log("worker")
    beats = [top.log("beat")[beat_logs[0]:], top.log("beat-2")[beat_logs[1]:]]
    trial.figures["end_of_day_sends_per_beat"] = [b.count("daily-end-of-day") for b in beats]
    trial.figures["sweep_sends_per_beat"] = [b.count("sweep-bot-games") for b in beats]
    trial.check(all(n > 0 for n in trial.figures["end_of_day_sends_per_beat"]),
                "a beat did not send the end-of-day task")
    trial.figures["end_of_day_task_results"] = re.findall(
        r"Task daily\.resign_expired\[[^]]+\] succeeded in [0-9.]+s: (\[[^]]*\])",
        worker[worker_log:])
    trial.figures["daily_resign_log_lines"] = worker.count(f"resigned daily game {daily_id}")
    trial.check(trial.figures["daily_resign_log_lines"] == 1, "the daily game resigned twice")
    trial.figures["sweep_resends_logged"] = worker.count(f"game(s): {stalled_id}")
    await asyncio.to_thread(top.run, "stop", "beat-2")
    return trial
