"""The arena load (scripts/load_arena.py, docs/tournaments-arena.md, "Load"): its setup
command makes signed-in members joined to an arena and starts it to end when asked; the
script's players read their game and their line from the sections the site really
renders; its checks from the database find a member in two games, a lost game and a lost
turn."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import services as games
from games.actors import Actor
from tournaments import arena_pages, live
from tournaments.models import Entry, Pairing, Tournament

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import arena_checks  # noqa: E402  (the scripts' folder is not a package)
import load_arena  # noqa: E402

pytestmark = pytest.mark.django_db


def command(*args: str) -> dict:
    out = io.StringIO()
    call_command("arena_load_setup", *args, "--force", stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def made(players: int = 4) -> tuple[Tournament, list[dict]]:
    setup = command("--players", str(players), "--seconds", "90", "--size", "5")
    return Tournament.objects.get(pk=setup["tournament"]), setup["players"]


def test_it_makes_signed_in_members_joined_to_a_scheduled_arena():
    arena, players = made()
    assert (arena.system, arena.status, arena.duration) == ("arena", "scheduled", 10)
    assert arena.rated and arena.time_control == "3+2" and arena.options == {"size": 5}
    assert arena.starts_at > timezone.now() + dt.timedelta(minutes=50)  # no beat starts it
    names = [p["name"] for p in players]
    assert names == [f"arena-load-{i}" for i in range(4)]
    for entry, player in zip(Entry.objects.filter(tournament=arena).select_related("user"),
                             players, strict=True):
        assert entry.user.username == player["name"]
        session = Session.objects.get(session_key=player["session"]).get_decoded()
        assert session["_auth_user_id"] == str(entry.user_id)


def test_the_start_ends_the_arena_when_asked_and_pairs_everyone():
    arena, _ = made()
    started = command("--start", arena.pk, "--seconds", "90")  # tasks run in-process here
    arena.refresh_from_db()
    assert arena.ends_at is not None
    assert abs(arena.ends_at.timestamp() - started["ends_at"]) < 1e-3
    assert 85 < started["ends_at"] - timezone.now().timestamp() <= 90
    assert arena.status == "running" and Pairing.objects.filter(tournament=arena).count() == 2
    with pytest.raises(CommandError, match="no scheduled arena"):
        command("--start", arena.pk, "--seconds", "90")


def player(name: str, arena: Tournament) -> load_arena.ArenaPlayer:
    return load_arena.ArenaPlayer(name, "", arena.pk, ["http://x"], think=1.0,
                                  stats=load_arena.Stats(), measures=load_arena.Measures(),
                                  shared=load_arena.Shared(), rng=random.Random(1))


def test_the_players_read_their_game_and_result_from_their_own_sections(
        django_capture_on_commit_callbacks, monkeypatch):
    arena, _ = made(2)
    command("--start", arena.pk, "--seconds", "90")
    pairing = Pairing.objects.select_related("blue__user", "orange__user").get(tournament=arena)
    blue = pairing.blue.user

    seen = player(blue.username, arena)
    seen.read(live.viewer_sections(arena.pk, blue), 1.0)  # as on connect
    assert seen.games.get_nowait() == pairing.game_id and seen.entry_games == 0
    # The shared section shows only the top of the standings: the loser's line is not
    # there, their own "Your entry" is.
    monkeypatch.setattr(arena_pages, "LINES_SHOWN", 1)
    frames: list[tuple[str, dict]] = []
    monkeypatch.setattr(live.broadcast, "send_frames", frames.extend)
    with django_capture_on_commit_callbacks(execute=True):
        games.resign(pairing.game_id, actor=Actor.member(blue))  # orange wins: 2 points
    assert Entry.objects.get(pk=pairing.orange_id).points == "2"
    assert Entry.objects.get(pk=pairing.blue_id).points == "0"
    shared = [f for g, f in frames if g == live.group(arena.pk) and "arena" in f["sections"]]
    assert shared and f'data-user="{blue.username}"' not in shared[-1]["sections"]["arena"]
    own = [f for g, f in frames if g == live.member_group(arena.pk, blue.pk)]
    assert own and "entry" in own[-1]["sections"]
    seen.due[1] = 1.5  # its first counted game ended then
    seen.line_due[1] = 1.5  # and awaits the shared table's line, which is not there
    read_at = shared[-1]["at"] / 1000 + 1000  # the frames' reads, as read() is given them
    seen.table_due = [read_at - 0.5, read_at + 5]  # a result before those reads, one after
    winner = player(pairing.orange.user.username, arena)
    winner.line_due[1] = 1.25  # the winner's line (the top one) shows the result
    for frame in shared + own:
        seen.read({**frame, "at": frame["at"] + 10**6}, 2.0)  # newer than the connect's
        winner.read({**frame, "at": frame["at"] + 10**6}, 2.0)
    assert (seen.entry_games, seen.entry_points) == (1, 0)
    assert seen.measures.standings == [0.5] and not seen.due
    assert seen.measures.lines == [] and seen.line_due == {1: 1.5}  # not in the top lines
    # Any shared frame read after a result holds it, the player's line shown or not.
    assert seen.measures.table == [2.0 - (read_at - 0.5)] and seen.table_due == [read_at + 5]
    assert winner.measures.lines == [0.75] and not winner.line_due
    # The shared section says how many games it has scored: one, seen at 2.0.
    assert seen.played[-1] == (1, 2.0) and winner.played[-1] == (1, 2.0)
    # A line seen next with more games than a result awaited: that result was not seen.
    winner.line_due[0] = 1.0
    winner.read({**shared[-1], "at": shared[-1]["at"] + 2 * 10**6}, 2.5)
    assert winner.measures.table_unseen == 1 and not winner.line_due
    # An older frame (its `at` before what is shown) is dropped, as the page drops it.
    seen.read(live.viewer_sections(arena.pk, blue) | {"at": 0}, 3.0)
    assert seen.entry_games == 1


def test_the_checks_find_two_games_at_once_and_lost_games_and_turns():
    at = dt.datetime(2026, 12, 6, tzinfo=dt.UTC)

    def t(s: int) -> dt.datetime:
        return at + dt.timedelta(seconds=s)

    rows = [("g1", "a", "b", "finished", t(0), t(10), None),
            ("g2", "a", "c", "finished", t(11), t(20), None),   # a waited 1 s
            ("g3", "b", "c", "finished", t(12), t(30), None),   # c: g3 made before g2 ended
            ("g4", "a", "d", "active", t(22), None, 1)]         # not finished, forfeited
    assert [o["player"] for o in arena_checks.overlaps(rows)] == ["c"]
    assert arena_checks.server_waits(rows) == ([1.0, 2.0, 2.0], [])
    shared = load_arena.Shared()
    turns = {"g1": {0: (0, "a"), 1: (1, "b")}, "g2": {}, "g3": {}, "g4": {}}

    class Seat:
        def __init__(self, side: str, acked: dict[int, str]) -> None:
            self.side, self.acked = side, acked

    shared.seats = {"g1": [Seat("blue", {0: "a"}), Seat("orange", {1: "c"})],
                    "g2": [Seat("blue", {}), Seat("orange", {})],
                    "g3": [Seat("blue", {}), Seat("orange", {})], "g4": [Seat("blue", {})]}
    lost = arena_checks.lost_games(rows, turns, shared.seats)
    assert (lost["games_not_told_to_both"], lost["games_not_finished"],
            lost["games_forfeited"], lost["turns_acknowledged_not_stored"],
            lost["turns_stored_not_acknowledged"]) == (1, 1, 1, 1, 0)


def test_the_shared_table_figure_takes_each_scored_game_from_its_end_in_the_database():
    """A game's place among the scored games (by their ends) is the count that holds it;
    each of its two players' sockets gives a wait; a forfeit and a game no seat saw
    scored are left out."""
    import datetime as dt

    at = dt.datetime(2026, 12, 7, tzinfo=dt.UTC)
    ended = at.timestamp()

    def game(gid: str, blue: str, orange: str, seconds: float, forfeit: bool = False):
        return (gid, blue, orange, "finished", at, at + dt.timedelta(seconds=seconds), forfeit)

    class Seat:
        def __init__(self, counted: bool) -> None:
            self.counted = counted

    shared = load_arena.Shared()
    shared.seats = {"g1": [Seat(True)], "g2": [Seat(True)], "g3": [Seat(True)],
                    "g4": [Seat(False)]}
    games = [game("g2", "a", "b", 2.0), game("g1", "c", "d", 1.0),
             game("g3", "a", "c", 3.0, forfeit=True), game("g4", "b", "d", 4.0)]
    players = {n: player(n, Tournament(pk="x")) for n in "abcd"}
    players["a"].played = [(0, ended), (2, ended + 2.5)]
    players["b"].played = [(1, ended + 1.5), (2, ended + 2.25)]
    players["c"].played = [(1, ended + 1.125)]
    players["d"].played = []
    players["a"].end_frames = {"g2": ended + 2.25}  # a saw g2 end 0.25 s before its table
    players["c"].end_frames = {"g1": ended + 1.5}   # c's table held g1 before its end frame
    figures = arena_checks.shared_table(games, list(players.values()), shared.seats)
    # g1 (1st): c 0.125 s, d never; g2 (2nd): a 0.5 s, b 0.25 s
    assert figures["shared_table_after_result_ms"]["count"] == 3
    assert figures["shared_table_after_result_ms"]["max"] == 500.0
    assert figures["results_never_in_a_shared_frame"] == 1
    after = figures["shared_table_after_the_end_frame_ms"]
    assert after["count"] == 2 and after["max"] == 250.0 and after["p50"] == 0.0
