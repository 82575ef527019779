"""The arena on the site, through its services and the database (docs/tournaments-arena.md,
"On the site"): creating one, the pass at the start and from the finish seam, never the
last opponent again while another is free, points kept as games end against the standings
recomputed from scratch (fire, berserk), berserk on the clock, pause and withdraw, forfeits,
the end (a game still running counts), the podium, the tick and the schedules."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import services as games
from games.actors import Actor
from games.models import Game
from games.timing import clocks
from tests.games.bot_support import human_token
from tests.tournaments.test_swiss_services import members
from tournaments import arenas, schedules, services, tasks
from tournaments.models import Entry, Pairing, Schedule, Tournament

pytestmark = pytest.mark.django_db
START = timezone.now() - dt.timedelta(minutes=1)


def arena(duration: int = 60, **kw) -> Tournament:
    kw.setdefault("options", {"size": 5})
    kw.setdefault("time_control", "5+3")
    return services.create_tournament(name="Test Arena", game_type="cargo-connect", rounds=0,
                                      starts_at=kw.pop("starts_at", START), system="arena",
                                      duration=duration, **kw)


def entered(t: Tournament, people) -> dict[int, Entry]:
    for member in people:
        services.join(t, member)
    return {e.user_id: e for e in Entry.objects.filter(tournament=t)}


def active(t: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=t, game__status=Game.Status.ACTIVE)
                .select_related("blue__user", "orange__user").order_by("id"))


def in_two_games(t: Tournament) -> list[int]:
    seen: list[int] = []
    for p in active(t):
        seen += p.entry_ids()
    return [e for e in set(seen) if seen.count(e) > 1]


def resign(p: Pairing, seat: int, capture) -> None:
    """Seat `seat` of the pairing's game resigns; the finish seam runs (eager tasks)."""
    member = (p.blue if seat == 0 else p.orange).user
    with capture(execute=True):
        games.resign(p.game_id, actor=Actor.member(member))


def play_plies(p: Pairing, n: int) -> None:
    """`n` turns of the pairing's game, each by the seat to act, through the services."""
    users = [p.blue.user, p.orange.user]
    for _ in range(n):
        game = games.get_game(p.game_id)
        seat = games.live(game).acting()[0]
        state = games.state_of(game, viewer=seat)
        games.apply_turn(p.game_id, actor=Actor.member(users[seat]), ply=state["ply"],
                         token=human_token(state))


def kept(t: Tournament) -> dict[int, int]:
    return {e.id: int(e.points) for e in Entry.objects.filter(tournament=t)}


def recomputed(t: Tournament) -> dict[int, int]:
    return {s.id: s.total for s in arenas.standings(t)}


def kept_places(t: Tournament) -> list[tuple]:
    """The places from the entries' kept sheets (what the pass and the pages read)."""
    return [(p.rank, p.id, p.total, p.performance, p.games) for p in arenas.ranking(t)]


def recomputed_places(t: Tournament) -> list[tuple]:
    """The same from scratch: the stored games read again and scored."""
    return [(s.rank, s.id, s.total, s.performance, s.games) for s in arenas.standings(t)]


def test_an_arena_is_checked_like_any_tournament():
    t = arena()
    assert t.arena and t.rounds == 0 and t.duration == 60 and t.table_size == 2
    assert t.ends_at == t.starts_at + dt.timedelta(minutes=60)
    for kw, words in [({"time_control": ""}, "live time control"),
                      ({"time_control": "3d"}, "live time control"),
                      ({"duration": 5}, "lasts"), ({"duration": None}, "lasts")]:
        with pytest.raises(services.TournamentError, match=words):
            arena(**kw)
    with pytest.raises(services.TournamentError, match="two players"):
        services.create_tournament(name="X", game_type="cargo-express", rounds=0,
                                   starts_at=START, system="arena", duration=60,
                                   time_control="5+3")
    assert Tournament.objects.count() == 1


def test_the_start_pairs_everyone_free_and_nobody_twice():
    t = arena()
    entered(t, members(5))
    assert arenas.pair(t.id) == "started, 2 game(s) started"
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    pairs = active(t)
    assert len(pairs) == 2 and not in_two_games(t)
    for p in pairs:  # Blue in seat 0, a rated online game of the arena's clock
        game = games.get_game(p.game_id)
        assert [s.user_id for s in game.seat_list] == [p.blue.user_id, p.orange.user_id]
        assert game.time_control == "5+3" and game.rated and game.mode == Game.Mode.ONLINE
        assert all(s.user_id and not s.bot_level for s in game.seat_list)  # no bot
    assert arenas.pair(t.id, timezone.now() + dt.timedelta(seconds=5)) == ""  # one free


def test_rounds_and_the_swiss_tick_leave_an_arena_alone():
    t = arena()
    entered(t, members(2))
    assert services.tick() == []
    with pytest.raises(services.TournamentError, match="no rounds"):
        services.start_round(t)
    assert tasks.tick() == [f"{t.id}: started, 1 game(s) started"]


def test_a_game_s_end_pairs_its_players_again_at_once(django_capture_on_commit_callbacks):
    """Two players, nobody else playing: the finish seam's pass pairs them again at once
    (a rematch is allowed when nobody else is in the arena), Orange now Blue."""
    t = arena()
    entered(t, members(2))
    arenas.pair(t.id)
    (first,) = active(t)
    resign(first, 1, django_capture_on_commit_callbacks)
    (second,) = active(t)
    assert second.id != first.id
    assert (second.blue_id, second.orange_id) == (first.orange_id, first.blue_id)


def test_never_the_last_opponent_while_another_is_free(django_capture_on_commit_callbacks):
    t = arena()
    entered(t, members(4))
    arenas.pair(t.id)
    a, b = active(t)
    resign(a, 1, django_capture_on_commit_callbacks)
    assert active(t) == [b]  # two just free, two playing: the wait rule holds them a second
    later = timezone.now() + dt.timedelta(seconds=2)
    assert arenas.pair(t.id, later) == ""  # the two free just met: no rematch yet
    resign(b, 0, django_capture_on_commit_callbacks)
    arenas.pair(t.id, timezone.now() + dt.timedelta(seconds=2))
    again = active(t)
    assert len(again) == 2 and not in_two_games(t)
    met = {frozenset(p.entry_ids()) for p in (a, b)}
    assert not {frozenset(p.entry_ids()) for p in again} & met


def test_points_kept_as_games_end_equal_the_standings_from_scratch(
        django_capture_on_commit_callbacks):
    """Blue wins three in a row against the same opponent (the only one): 2, 2, then 4 on
    fire; a loss ends the fire. Kept points and the recomputation agree at every step."""
    t = arena()
    people = entered(t, members(2))
    arenas.pair(t.id)
    winner = None
    for game_number in range(4):
        (p,) = active(t)
        if winner is None:
            winner = p.blue_id
        loser_seat = 1 if p.blue_id == winner else 0
        if game_number == 3:
            loser_seat = 1 - loser_seat  # the streak's end
        resign(p, loser_seat, django_capture_on_commit_callbacks)
        assert kept(t) == recomputed(t)
    other = next(e.id for e in people.values() if e.id != winner)
    assert kept(t) == {winner: 2 + 2 + 4 + 0, other: 2}
    line = {s.id: s for s in arenas.standings(t)}
    assert line[winner].sheet.summary() == "2240" and line[winner].rank == 1
    assert [s.fire for s in line[winner].sheet.scores] == [False, False, True, True]
    assert Entry.objects.get(pk=winner).streak == 0


def test_berserk_halves_the_clock_before_the_first_move_once(
        django_capture_on_commit_callbacks):
    t = arena()
    entered(t, members(2))
    arenas.pair(t.id)
    (p,) = active(t)
    services.berserk(t, p.orange.user)
    game = games.get_game(p.game_id)
    assert game.clock["left"] == [5 * clocks.MINUTE, 150_000]
    assert game.clock["no_increment"] == [1]
    with pytest.raises(services.TournamentError, match="berserked already"):
        services.berserk(t, p.orange.user)
    play_plies(p, 1)  # Blue moves: too late for Blue now
    with pytest.raises(services.TournamentError, match="before your first move"):
        services.berserk(t, p.blue.user)
    p.refresh_from_db()
    assert (p.blue_berserk, p.orange_berserk) == (False, True)
    play_plies(p, 15)  # Orange gains no increment, Blue does
    game = games.get_game(p.game_id)
    control = clocks.of_game(game)
    assert control is not None and control.no_increment == [1]
    resign(p, 0, django_capture_on_commit_callbacks)  # Orange wins a long game: 2 + 1
    assert kept(t)[p.orange_id] == 3 == recomputed(t)[p.orange_id]


def test_berserk_is_refused_without_a_game_or_when_the_arena_forbids_it():
    t = arena(berserk=False)
    people = members(3)
    entered(t, people[:2])
    with pytest.raises(services.TournamentError, match="no game"):
        services.berserk(t, people[0])
    arenas.pair(t.id)
    (p,) = active(t)
    with pytest.raises(services.TournamentError, match="does not allow"):
        services.berserk(t, p.blue.user)
    assert games.get_game(p.game_id).clock["left"] == [5 * clocks.MINUTE] * 2


def test_a_paused_player_is_not_paired_until_resumed_and_a_withdrawn_one_never(
        django_capture_on_commit_callbacks):
    t = arena()
    people = members(4)
    entered(t, people)
    services.pause(t, people[0])
    services.withdraw(t, people[1])  # before the start: the entry goes
    assert not Entry.objects.filter(tournament=t, user=people[1]).exists()
    arenas.pair(t.id)
    (p,) = active(t)
    assert {p.blue.user, p.orange.user} == {people[2], people[3]}
    with django_capture_on_commit_callbacks(execute=True):
        services.resume(t, people[0])
    services.withdraw(t, people[2])  # running: kept, with the game going on
    assert Entry.objects.get(tournament=t, user=people[2]).withdrawn
    resign(p, 0, django_capture_on_commit_callbacks)
    arenas.pair(t.id, timezone.now() + dt.timedelta(seconds=15))
    (q,) = active(t)
    assert {q.blue.user, q.orange.user} == {people[0], people[3]}
    with pytest.raises(services.TournamentError, match="not playing"):
        services.pause(t, people[2])


def test_an_absent_player_forfeits_is_paused_and_the_game_counts_for_nobody():
    t = arena()
    entered(t, members(2))
    arenas.pair(t.id)
    (p,) = active(t)
    soon = timezone.now() + arenas.ABSENT_AFTER / 2
    assert "forfeit" not in arenas.pair(t.id, soon)
    assert arenas.pair(t.id, timezone.now() + arenas.ABSENT_AFTER * 2) == "1 forfeit(s)"
    p.refresh_from_db()
    assert p.forfeit == 0 and games.get_game(p.game_id).status == Game.Status.FINISHED
    assert Entry.objects.get(pk=p.blue_id).paused
    assert kept(t) == recomputed(t) == {p.blue_id: 0, p.orange_id: 0}
    assert kept_places(t) == recomputed_places(t)
    assert [place[4] for place in kept_places(t)] == [0, 0]


def test_the_end_makes_no_pairing_a_running_game_counts_then_the_podium(
        django_capture_on_commit_callbacks):
    t = arena(duration=30)
    people = members(5)
    entered(t, people)
    arenas.pair(t.id)
    a, b = active(t)
    play_plies(b, 2)  # both have moved: no forfeit
    Tournament.objects.filter(pk=t.pk).update(  # the arena's time is up
        starts_at=timezone.now() - dt.timedelta(minutes=31))
    resign(a, 1, django_capture_on_commit_callbacks)  # its pass pairs nobody: the end
    assert active(t) == [b]
    assert arenas.pair(t.id) == ""  # b still on
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and arenas.podium(t) == ()
    resign(b, 0, django_capture_on_commit_callbacks)  # ends after the end: it counts
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and not active(t)
    assert kept(t) == recomputed(t)
    top = arenas.podium(t)
    assert [s.id for s in top] == [s.id for s in arenas.standings(t) if s.games][:3]
    assert {s.id for s in top} >= {a.blue_id, b.orange_id}
    assert all(s.total == 2 for s in top[:2])


def test_an_arena_nobody_played_is_cancelled_at_its_end():
    t = arena(duration=30, starts_at=timezone.now() - dt.timedelta(minutes=29))
    entered(t, members(1))
    assert arenas.pair(t.id) == "started"
    assert arenas.pair(t.id, timezone.now() + dt.timedelta(minutes=2)) == "cancelled"
    over = arena(duration=30, starts_at=timezone.now() - dt.timedelta(minutes=31))
    with pytest.raises(services.TournamentError, match="ended"):
        services.join(over, members(1, "late")[0])


def test_a_voided_game_is_taken_off_both_sheets(django_capture_on_commit_callbacks):
    t = arena()
    entered(t, members(2))
    arenas.pair(t.id)
    (p,) = active(t)
    resign(p, 1, django_capture_on_commit_callbacks)
    assert kept(t)[p.blue_id] == 2
    with django_capture_on_commit_callbacks(execute=True):
        games.void_game(p.game_id, "test")
    assert kept(t) == recomputed(t) == {p.blue_id: 0, p.orange_id: 0}
    assert kept_places(t) == recomputed_places(t)
    assert [place[4] for place in kept_places(t)] == [0, 0]


def test_a_schedule_announces_arenas():
    at = timezone.now() - dt.timedelta(minutes=1)
    schedule = Schedule.objects.create(name="Hourly arena {time}", game_type="cargo-connect",
                                       system="arena", rounds=0, duration=60,
                                       time_control="3+2", options={"size": 5},
                                       every_hours=1, lead_minutes=10, next_at=at)
    fields = schedules.check_schedule(name=schedule.name, game_type="cargo-connect",
                                      system="arena", rounds=0, duration=60,
                                      time_control="3+2", every_hours=1, lead_minutes=10)
    assert fields["system"] == "arena" and fields["duration"] == 60
    made = schedules.create_next(schedule.pk)
    assert made is not None and made.arena and made.duration == 60 and made.rounds == 0
    with pytest.raises(services.TournamentError, match="live time control"):
        schedules.check_schedule(name="x", game_type="cargo-connect", system="arena",
                                 rounds=0, duration=60, time_control="")


def test_a_pairing_tells_both_players_after_commit(django_capture_on_commit_callbacks):
    from django.urls import reverse

    from notifications.models import Kind, Notification

    t = arena()
    people = members(2)
    entered(t, people)
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    (p,) = active(t)
    rows = list(Notification.objects.filter(kind=Kind.TOURNAMENT_ROUND).order_by("user_id"))
    assert [r.user_id for r in rows] == sorted(m.pk for m in people)
    for row in rows:
        assert row.text == "Your game in Test Arena has started: play now"
        assert row.game_id == p.game_id
        assert row.url == reverse("games:game", kwargs={"game_id": p.game_id})


def test_a_simulated_arena_keeps_its_rules_at_every_step(django_capture_on_commit_callbacks):
    """Seven players, games ended at random (either seat resigns), passes as time goes by:
    nobody is ever in two games, and the points kept equal the standings from scratch at
    every step."""
    import random

    rng = random.Random(46)
    t = arena()
    entered(t, members(7))
    for i, entry in enumerate(Entry.objects.filter(tournament=t).order_by("id")):
        Entry.objects.filter(pk=entry.pk).update(rating=1400 + 37 * i)  # performances differ
    clock = timezone.now()
    arenas.pair(t.id, clock)
    for _ in range(30):
        playing = active(t)
        assert playing and not in_two_games(t)
        resign(rng.choice(playing), rng.randrange(2), django_capture_on_commit_callbacks)
        clock += dt.timedelta(seconds=2)
        arenas.pair(t.id, clock)
        assert not in_two_games(t)
        assert kept(t) == recomputed(t)
        # The standings the pass and the pages read (the kept sheets) are those a
        # recomputation from the stored games gives: places, totals, performances, games.
        assert kept_places(t) == recomputed_places(t)
    assert Pairing.objects.filter(tournament=t).count() >= 30
    assert any(place[4] >= 3 for place in kept_places(t))  # performances, not ratings


def test_the_admin_form_saves_an_hourly_arena():
    from tournaments.admin import ScheduleForm

    data = {"name": "Hourly Arena {time}", "game_type": "cargo-connect", "system": "arena",
            "rounds": 5, "duration": 50, "time_control": "3+2", "options": '{"size": 5}',
            "rated": "on", "table_size": "", "max_players": 64, "every_hours": 1,
            "lead_minutes": 10, "next_at": "2026-12-07 18:00:00", "active": "on"}
    form = ScheduleForm(data=data)
    assert form.is_valid(), form.errors
    saved = form.save()
    assert (saved.system, saved.duration, saved.rounds, saved.table_size) == ("arena", 50, 0, 2)
    form = ScheduleForm(data={**data, "time_control": ""})
    assert not form.is_valid() and "live time control" in str(form.errors)


def test_a_pass_that_leaves_two_waiting_sends_one_follow_up(monkeypatch,
                                                             django_capture_on_commit_callbacks):
    """With a worker (tasks not run in-process), a pass that leaves two or more free
    players unpaired sends one more pass a second later, once per interval however many
    passes run meanwhile; a pass that leaves fewer than two sends none."""
    sent: list[tuple[str, tuple, dict]] = []
    monkeypatch.setattr(arenas, "eager", lambda: False)
    monkeypatch.setattr(arenas, "enqueue",
                        lambda name, *args, **options: sent.append((name, args, options)))
    cache.clear()
    t = arena()
    entered(t, members(4))
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    assert len(active(t)) == 2  # everyone paired: nobody left waiting, no follow-up
    assert [name for name, _, _ in sent] == ["tournaments.arena_pass"]  # the end's pass
    sent.clear()
    a, _b = active(t)
    with django_capture_on_commit_callbacks(execute=True):
        games.resign(a.game_id, actor=Actor.member(a.orange.user))
    sent.clear()  # the finish seam's own two passes
    for _ in range(3):  # the two just free met last: the rematch bar holds them
        with django_capture_on_commit_callbacks(execute=True):
            arenas.pair(t.id)
    assert sent == [("tournaments.arena_pass", (t.id,),
                     {"countdown": arenas.FOLLOW_UP_SECONDS})]
    cache.clear()  # the interval over
    services.withdraw(t, a.blue.user)
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    assert len(sent) == 1  # one free player left: no follow-up


def test_the_migration_fills_the_kept_games_and_performances_from_the_stored_games(
        django_capture_on_commit_callbacks):
    """An arena running when migration 0006 is applied: its entries' games and performance
    steps are made from its stored games, so its places stay those from scratch."""
    import importlib

    from django.apps import apps

    t = arena()
    entered(t, members(4))
    clock = timezone.now()
    arenas.pair(t.id, clock)
    for _ in range(8):
        resign(active(t)[0], 0, django_capture_on_commit_callbacks)
        clock += dt.timedelta(seconds=2)
        arenas.pair(t.id, clock)
    expected = recomputed_places(t)
    Entry.objects.filter(tournament=t).update(games=0, performance_sum=0)  # before 0006
    importlib.import_module("tournaments.migrations.0006_entry_kept_sheet").backfill(apps, None)
    assert kept_places(t) == expected and any(place[4] >= 3 for place in expected)


def test_the_end_time_is_told_to_the_pages_once_while_games_are_still_on(
        monkeypatch, django_capture_on_commit_callbacks):
    """With a worker: the start sends a pass for the end time; that pass, with a game still
    being played, tells every page the time is up (the facts lose their time left) and
    each free player their own part, once; the players in a game hear it at its end."""
    from tournaments import live

    sent: list[tuple[str, tuple, dict]] = []
    frames: list[tuple[str, dict]] = []
    monkeypatch.setattr(arenas, "eager", lambda: False)
    monkeypatch.setattr(live, "eager", lambda: False)
    monkeypatch.setattr(arenas, "enqueue",
                        lambda name, *args, **options: sent.append((name, args, options)))
    monkeypatch.setattr(live, "enqueue", lambda name, *args, **options: None)
    monkeypatch.setattr(live.broadcast, "send_frames", frames.extend)
    cache.clear()
    t = arena(duration=30)
    entered(t, members(4))
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    (name, args, options), = sent
    t.refresh_from_db()
    left = (t.ends_at - timezone.now()).total_seconds()
    assert (name, args) == ("tournaments.arena_pass", (t.id,))
    assert left < options["countdown"] <= left + 2  # sent a moment before `left` was read
    page = live.group(t.id)
    facts = [f["sections"]["facts"] for g, f in frames if g == page]
    assert facts and "data-time-left" in facts[-1] and 'data-countdown-ms="' in facts[-1]
    a, b = active(t)
    play_plies(b, 2)
    Tournament.objects.filter(pk=t.pk).update(  # the arena's time is up
        starts_at=timezone.now() - dt.timedelta(minutes=31))
    resign(a, 1, django_capture_on_commit_callbacks)
    frames.clear()
    cache.clear()  # a new window of the shared render (the resign's took its window)
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)  # the end's pass: b still on
    told = dict(frames)
    assert "data-time-left" not in told[page]["sections"]["facts"]
    assert "still being played count when they end" in told[page]["sections"]["arena"]
    for user in (a.blue.user, a.orange.user):  # free: their own part says so
        own = told[live.member_group(t.id, user.pk)]["sections"]["play"]
        assert "time is up" in own
    for user in (b.blue.user, b.orange.user):  # in a game: told at its end
        assert live.member_group(t.id, user.pk) not in told
    frames.clear()
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    assert frames == []  # once
