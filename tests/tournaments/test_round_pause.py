"""A Swiss's pause between rounds (docs/tournaments.md, "The pause between rounds"): the
option and its defaults, the round after a pause started exactly once when due and never
early (frozen time, the beat's tick and `advance` as the finish seam sends it), the admin's
"start now" cutting it short, and the page between rounds: the standings after the round,
a countdown from the server's time, each entrant's own place, live over the socket."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games import services as games
from games.actors import Actor
from tests.clocks.support import frozen_time
from tests.games.bot_support import eager  # noqa: F401  (a fixture)
from tests.games.conftest import (  # noqa: F401  (fixtures; the first closes the sockets' threads)
    close_live_db_threads,
    connect,
    session_cookie,
)
from tests.tournaments.test_live_socket import NAMES, frames, frames_of_all, users  # noqa: F401  (a fixture)
from tests.tournaments.test_pages import create_data
from tests.tournaments.test_swiss_services import current, members, round_games
from tournaments import rounds, services
from tournaments.models import Round, Tournament


def swiss(start: dt.datetime, pause: int | None = None, **kw) -> Tournament:
    return services.create_tournament(
        name="Paused Swiss", game_type="cargo-connect", rounds=kw.pop("rounds", 3),
        starts_at=start, options={"size": 5}, time_control=kw.pop("time_control", "5+3"),
        round_pause=pause, **kw)


def end_round(rnd: Round, on_commit=None) -> None:
    """Every game of the round ends: its second seat resigns (the finish seam sends
    `tournaments.advance` after commit, run in-process under `eager`; in a test's
    transaction the commit's callbacks are run by `on_commit`,
    django_capture_on_commit_callbacks)."""
    for game in round_games(rnd):
        if on_commit is None:
            games.resign(game.id, actor=Actor.member(game.seat_list[1].user))
            continue
        with on_commit(execute=True):
            games.resign(game.id, actor=Actor.member(game.seat_list[1].user))


@pytest.mark.django_db
def test_the_pause_is_an_option_with_a_default_by_time_control():
    soon = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    assert swiss(soon).round_pause == 60  # live
    assert swiss(soon, time_control="").round_pause == 60  # untimed: people wait too
    assert swiss(soon, time_control="3d").round_pause == 0  # correspondence: no pause
    assert swiss(soon, 300).round_pause == 300
    assert swiss(soon, 0).round_pause == 0
    before = Tournament.objects.count()
    for bad in (-1, 601, "60"):
        with pytest.raises(services.TournamentError, match="0 to 600 seconds"):
            swiss(soon, bad)  # type: ignore[arg-type]
    assert Tournament.objects.count() == before  # refused: nothing made
    arena = services.create_tournament(
        name="Arena", game_type="cargo-connect", rounds=0, starts_at=soon, system="arena",
        duration=60, time_control="5+3", options={"size": 5}, round_pause=120)
    assert arena.round_pause == 0  # an arena has no rounds


@pytest.mark.django_db
def test_the_create_form_offers_the_pause(client):
    (alice,) = members(1, "alice")
    client.force_login(alice)
    page = client.get(reverse("tournaments:index")).content.decode()
    assert "Pause between rounds" in page and "Default (1 minute)" in page
    client.post(reverse("tournaments:create"), create_data(round_pause="120"))
    client.post(reverse("tournaments:create"), create_data(name="Default pause"))
    assert sorted(Tournament.objects.values_list("round_pause", flat=True)) == [60, 120]
    refused = client.post(reverse("tournaments:create"), create_data(round_pause="45"))
    assert refused.status_code == 400 and Tournament.objects.count() == 2


@pytest.mark.django_db
def test_the_next_round_starts_once_when_the_pause_is_over_never_early(
        eager, django_capture_on_commit_callbacks):  # noqa: F811
    with frozen_time() as clock:
        t = swiss(clock.now - dt.timedelta(minutes=1), 60)
        for member in members(4):
            services.join(t, member)
        assert services.tick() == [f"{t.id}: round 1 started"]
        clock.advance(30)
        # The seam's advance finishes round 1 and starts nothing.
        end_round(current(t), django_capture_on_commit_callbacks)
        finished = current(t)
        assert finished.number == 1 and finished.finished_at == clock.now
        assert t.round_set.count() == 1
        due = finished.finished_at + dt.timedelta(seconds=60)
        t.refresh_from_db()
        assert t.next_round_at(finished) == due
        clock.advance(59)
        assert services.tick() == [] and rounds.advance(t.id) == ""  # a second early
        assert t.round_set.count() == 1
        clock.advance(1)
        assert services.tick() == [f"{t.id}: round 2 started"]
        assert rounds.advance(t.id) == "" and services.tick() == []  # once
        assert [r.number for r in t.round_set.order_by("number")] == [1, 2]
        assert current(t).started_at == due


@pytest.mark.django_db
def test_a_round_ending_into_a_pause_says_when_the_next_is_due():
    with frozen_time() as clock:
        t = swiss(clock.now - dt.timedelta(minutes=1), 90)
        for member in members(2):
            services.join(t, member)
        rounds.advance(t.id)
        (game,) = round_games(current(t))
        games.resign(game.id, actor=Actor.member(game.seat_list[1].user))
        due = (clock.now + dt.timedelta(seconds=90)).isoformat()
        assert rounds.advance(t.id) == f"round 1 finished; round 2 at {due}"
        assert rounds.advance(t.id) == ""  # said once; nothing more until it is due


@pytest.mark.django_db
def test_without_a_pause_the_next_round_starts_at_once(
        eager, django_capture_on_commit_callbacks):  # noqa: F811
    t = swiss(dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1), 0)
    for member in members(4):
        services.join(t, member)
    services.tick()
    end_round(current(t), django_capture_on_commit_callbacks)
    assert current(t).number == 2 and current(t).finished_at is None


@pytest.mark.django_db
def test_the_admins_start_now_ends_the_pause_and_never_interrupts_a_round(
        eager, django_capture_on_commit_callbacks):  # noqa: F811
    with frozen_time() as clock:
        t = swiss(clock.now - dt.timedelta(minutes=1), 300)
        for member in members(4):
            services.join(t, member)
        services.tick()
        assert not services.start_now(t)  # round 1 is being played: unchanged
        assert t.round_set.count() == 1
        end_round(current(t), django_capture_on_commit_callbacks)
        assert t.round_set.count() == 1  # paused
        assert services.start_now(t)
        assert current(t).number == 2 and current(t).started_at == clock.now
        assert not services.start_now(t)


@pytest.mark.django_db
def test_the_page_between_rounds_shows_the_standings_and_the_countdown(
        eager, django_capture_on_commit_callbacks):  # noqa: F811
    with frozen_time() as clock:
        t = swiss(clock.now - dt.timedelta(minutes=1), 60)
        people = members(4)
        for member in people:
            services.join(t, member)
        services.tick()
        end_round(current(t), django_capture_on_commit_callbacks)
        clock.advance(15)
        client = Client()
        client.force_login(people[0])
        page = client.get(reverse("tournaments:detail", kwargs={"tournament_id": t.id}))
        html = page.content.decode()
        assert "Round 2 starts in" in html and 'data-countdown-ms="45000"' in html
        assert ">0:45<" in html  # the server's time left, counted on by the browser
        assert "After 1 finished round" in html
        assert "Between rounds" in html and "1 minute" in html
        assert "Place <strong>" in html  # the entrant's own place after round 1
        clock.advance(45)
        services.tick()
        html = client.get(reverse("tournaments:detail",
                                  kwargs={"tournament_id": t.id})).content.decode()
        assert "starts in" not in html and "Round 2, board" in html


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_pause_reaches_the_page_and_each_entrant_their_place(
        users, connect, eager):  # noqa: F811
    t = await database_sync_to_async(swiss)(
        dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1), 60, rounds=2)
    for name in NAMES[:4]:
        await database_sync_to_async(services.join)(t, users[name])
    await database_sync_to_async(services.tick)()
    path = f"/ws/tournament/{t.id}/"
    viewers = {name: await connect(path, name, expect_state=False)
               for name in ("alice", "eve", None)}
    await database_sync_to_async(lambda: end_round(current(t)))()
    got = await frames_of_all(viewers)
    shared = [f["sections"] for f in got[None] if "facts" in f["sections"]]
    assert len(shared) == 1 and "Round 2 starts in" in shared[0]["facts"]
    assert "After 1 finished round" in shared[0]["standings"]
    assert "Round 2" not in shared[0]["rounds"]  # not started yet
    # Her game's end (her pairing played), then the round's (her place and points).
    mine = [f["sections"]["entry"] for f in got["alice"] if "entry" in f["sections"]]
    assert "Place" not in mine[0] and "(played)" in mine[0]
    assert "Place <strong>" in mine[-1] and "Round 1, board" in mine[-1]
    assert all("entry" not in f["sections"] for f in got["eve"] + got[None])
    for comm in viewers.values():
        await comm.disconnect()
