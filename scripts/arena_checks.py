"""The arena load's checks and figures read after the run (scripts/load_arena.py, its
docstring): the arena's games and turns from the database, the players in two games, the
waits for a next game on the server, the shared table's wait per scored game, the games
and turns lost. `players` are load_arena's `ArenaPlayer`s; `seats` its games' `ArenaSeat`s
by game (both players')."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from load_live import latency


def stored(tournament: str) -> tuple[list[tuple[Any, ...]], dict[str, dict[int, tuple[int, str]]]]:
    """The arena's games from DATABASE_URL: (game, blue's and orange's usernames, status,
    created, finished, forfeit) in the order made, and each game's turns by ply."""
    import psycopg

    with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
        games = conn.execute(
            "SELECT g.id, ub.username, uo.username, g.status, g.created_at, g.finished_at,"
            " p.forfeit FROM tournaments_pairing p JOIN games_game g ON g.id = p.game_id"
            " JOIN tournaments_entry eb ON eb.id = p.blue_id"
            " JOIN tournaments_entry eo ON eo.id = p.orange_id"
            " JOIN auth_user ub ON ub.id = eb.user_id JOIN auth_user uo ON uo.id = eo.user_id"
            " WHERE p.tournament_id = %s ORDER BY p.id", [tournament]).fetchall()
        turns: dict[str, dict[int, tuple[int, str]]] = {g[0]: {} for g in games}
        for game_id, ply, seat, token in conn.execute(
                "SELECT game_id, ply, seat, token FROM games_turn WHERE game_id = ANY(%s)",
                [list(turns)]):
            turns[game_id][ply] = (seat, token)
    return games, turns


def shared_table(games: list[tuple[Any, ...]], players: Sequence[Any],
                 seats: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """Each scored game's end (the database's) -> the first shared section on each of its
    players' page sockets whose scored count holds it (the module's docstring)."""
    scored = sorted((g for g in games if g[5] is not None and not g[6]
                     and any(s.counted for s in seats.get(g[0], []))),
                    key=lambda g: g[5])
    by_name = {p.name: p for p in players}
    waits, after_frame, never = [], [], 0
    for place, game in enumerate(scored, start=1):
        ended = game[5].timestamp()
        for name in game[1:3]:
            player = by_name.get(name)
            seen = player.played if player is not None else []
            when = next((at for count, at in seen if count >= place), None)
            if when is None:
                never += 1
                continue
            waits.append(max(0.0, when - ended))
            if player is not None and game[0] in player.end_frames:
                after_frame.append(max(0.0, when - player.end_frames[game[0]]))
    return {"shared_table_after_result_ms": {**latency(waits), "count": len(waits)},
            "shared_table_after_the_end_frame_ms": {**latency(after_frame),
                                                    "count": len(after_frame)},
            "results_never_in_a_shared_frame": never}


def overlaps(games: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Members with a game made before their previous one ended (or while it is active)."""
    by_player: dict[str, list[tuple[Any, ...]]] = {}
    for game in games:
        for name in game[1:3]:
            by_player.setdefault(name, []).append(game)
    found = []
    for name, played in by_player.items():
        played.sort(key=lambda g: g[4])
        for before, after in zip(played, played[1:], strict=False):
            if before[5] is None or before[5] > after[4]:
                found.append({"player": name, "games": [before[0], after[0]],
                              "ended": str(before[5]), "next_made": str(after[4])})
    return found


def server_waits(games: list[tuple[Any, ...]]) -> tuple[list[float], list[float]]:
    """From the database: each member's game's end (`finished_at`) -> their next game's
    making (`created_at`), in seconds, for every end that got a next game; and those of
    them whose next game was a rematch (the same opponent: the pairing waits for it)."""
    by_player: dict[str, list[tuple[Any, ...]]] = {}
    for game in games:
        for name in game[1:3]:
            by_player.setdefault(name, []).append(game)
    waits, rematches = [], []
    for played in by_player.values():
        played.sort(key=lambda g: g[4])
        for before, after in zip(played, played[1:], strict=False):
            if before[5] is None or before[5] > after[4]:
                continue  # an overlap: `overlaps` reports it
            wait = (after[4] - before[5]).total_seconds()
            waits.append(wait)
            if {before[1], before[2]} == {after[1], after[2]}:
                rematches.append(wait)
    return waits, rematches


def lost_games(games: list[tuple[Any, ...]], turns: dict[str, dict[int, tuple[int, str]]],
               seats_of: Mapping[str, Sequence[Any]]) -> dict[str, Any]:
    """Games not played to their end by both players, turns acknowledged but not stored as
    sent, stored turns nobody was acknowledged."""
    untold, unfinished, forfeited, lost_turns, unacknowledged = [], [], [], 0, 0
    for game_id, _blue, _orange, status, _made, _ended, forfeit in games:
        seats = seats_of.get(game_id, [])
        if len(seats) < 2:
            untold.append(game_id)
        if status != "finished":
            unfinished.append(f"{game_id}: {status}")
        if forfeit is not None:
            forfeited.append(game_id)
        rows = turns[game_id]
        acked: set[int] = set()
        for seat in seats:
            index = 0 if seat.side == "blue" else 1
            for ply, token in seat.acked.items():
                acked.add(ply)
                lost_turns += rows.get(ply) != (index, token)
        unacknowledged += len(set(rows) - acked)
    return {"games_not_told_to_both": len(untold), "games_not_finished": len(unfinished),
            "games_forfeited": len(forfeited), "turns_acknowledged_not_stored": lost_turns,
            "turns_stored_not_acknowledged": unacknowledged,
            "detail": (untold[:5], unfinished[:5], forfeited[:5])}
