"""Correspondence deadlines, time frozen (issue #29): each decision is due the control's days
after it became the seat's (no bank); the state and the page say when; a decision in time is
taken, a missed deadline is the game's timeout (Cargo Connect: lost on time; Cargo Express:
the decision made for the seat, two in a row a leaver), applied once by the beat task or
by the game being opened (page, JSON), whichever comes first; the idle sweep leaves a game
within its deadlines alone."""

import datetime as dt

import pytest

from games import services, tasks
from games.models import Game
from games.timing import abandonment, timeouts
from games.turns.store import live
from rankings.models import RatingChange
from tests.clocks.support import legal, play, start, timed_game
from tests.clocks.test_express_clocks import decide, express_game, picks
from tests.games.support import member

pytestmark = pytest.mark.django_db
DAY = 86_400
JUST_OVER = 1.001  # the lag allowance and a millisecond


def iso(moment):
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def test_a_decision_in_time_is_taken_and_the_next_deadline_starts_from_it(users, frozen):
    game = start(timed_game(users["alice"], users["bob"], "3d"), users)
    clock = services.state_of(game, viewer=0)["clock"]
    assert clock["control"]["label"] == "3 days per turn"
    assert clock["deadlines"] == [iso(frozen.now + dt.timedelta(days=3)), None]
    frozen.advance(3 * DAY - 60)  # a minute before Blue's deadline
    assert tasks.flag_clocks() == []
    play(game.id, users["alice"])
    game = services.get_game(game.id)
    assert game.status == "active" and game.clock["left"] == [3 * DAY * 1000] * 2  # no bank
    assert services.state_of(game)["clock"]["deadlines"] == [
        None, iso(frozen.now + dt.timedelta(days=3))]  # Orange's, from Blue's decision


def test_a_late_decision_is_refused_and_the_game_lost_on_time_once(users, frozen):
    game = start(timed_game(users["alice"], users["bob"], "1d"), users)
    token = next(t for t in legal(game.id) if len(t) == 1)
    frozen.advance(DAY + JUST_OVER)
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=member(users["alice"]), ply=2, token=token)
    assert refused.value.code == "game_over" and "Blue's time ran out" in refused.value.message
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "timed_out")
    assert RatingChange.objects.filter(game=row).count() == 2
    assert tasks.flag_clocks() == [] and timeouts.flag(game.id) is None  # once


def test_the_beat_task_applies_a_missed_deadline_once(users, frozen, client):
    game = start(timed_game(users["alice"], users["bob"], "2d"), users)
    frozen.advance(2 * DAY)  # the deadline itself: still in time (the lag allowance)
    assert tasks.flag_clocks() == []
    frozen.advance(JUST_OVER)
    assert tasks.flag_clocks() == [game.id]
    assert tasks.flag_clocks() == []  # the next beat finds nothing
    client.force_login(users["bob"])
    page = client.get(f"/g/{game.id}")  # the page then opens on the ended game
    assert page.status_code == 200 and "ran out of time" in page.content.decode()
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "timed_out")
    assert [s.outcome for s in row.seat_list] == ["loss", "win"]
    assert RatingChange.objects.filter(game=row).count() == 2


@pytest.mark.parametrize("opened_by", ["page", "json"])
def test_opening_the_game_applies_a_missed_deadline_once(users, frozen, client, opened_by):
    """No beat runs (the embedded default): the page, or its HTTP fallback's JSON, makes
    the due timeout happen, once."""
    game = start(timed_game(users["alice"], users["bob"], "5d"), users)
    frozen.advance(5 * DAY + JUST_OVER)
    client.force_login(users["bob"])
    url = f"/g/{game.id}" if opened_by == "page" else f"/g/{game.id}/events?after=0"
    assert client.get(url).status_code == 200
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "timed_out")
    revision = row.revision
    assert client.get(url).status_code == 200  # again: nothing more happens
    assert tasks.flag_clocks() == []  # nor for the beat
    assert services.get_game(game.id).revision == revision
    assert RatingChange.objects.filter(game=row).count() == 2


def test_express_planning_runs_every_seats_deadline_at_once(users, frozen):
    """Cargo Express, 1 day a decision: during planning each seat that has not committed
    has its own deadline; a missed one is a timeout (the site plans for the seat), and
    the second in a row makes it a leaver (two seats: the other wins)."""
    game = picks(express_game(users, n=2, time_control="1d"), users)
    state = services.state_of(game, viewer=0)
    assert state["clock"]["running"] == [0, 1]
    first = iso(frozen.now + dt.timedelta(days=1))
    assert state["clock"]["deadlines"] == [first, first]
    frozen.advance(3600)
    decide(game.id, users, seat=0, token="A1A2A3")  # alice commits within the hour
    state = services.state_of(services.get_game(game.id), viewer=1)
    assert state["clock"]["deadlines"] == [None, first]  # bob's runs on from its own start
    frozen.advance(DAY - 3600 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]  # bob's plan is made for him: one timeout
    row = services.get_game(game.id)
    assert [s.timeouts for s in row.seat_list] == [0, 1] and row.status == "active"
    assert live(row).p.phase == "a"
    # every decision of bob's from now on is missed: his next timeout makes him a leaver
    for _ in range(12):
        row = services.get_game(game.id)
        if row.is_over:
            break
        lg = live(row)
        if 0 in lg.acting():
            decide(game.id, users, seat=0)
        else:
            frozen.advance(DAY + JUST_OVER)
            tasks.flag_clocks()
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "timed_out")
    assert [s.outcome for s in row.seat_list] == ["win", "loss"]


def test_the_idle_sweep_leaves_a_correspondence_game_within_its_deadlines(users, frozen):
    started = start(timed_game(users["alice"], users["bob"], "14d"), users)
    unstarted = timed_game(users["alice"], users["bob"], "7d")
    play(unstarted.id, users["alice"])  # bob never makes his first decision
    frozen.advance(6 * DAY)  # far past the untimed games' three days
    assert abandonment.sweep_idle_games() == []
    assert tasks.flag_clocks() == []
    frozen.advance(DAY + 2)  # the unstarted game's seven days have gone by
    assert abandonment.sweep_idle_games() == [unstarted.id]
    assert services.get_game(unstarted.id).status == Game.Status.ABORTED
    frozen.advance(6 * DAY)  # 13 days: the started game is still within Blue's deadline
    assert abandonment.sweep_idle_games() == [] and tasks.flag_clocks() == []
    assert services.get_game(started.id).status == Game.Status.ACTIVE
    frozen.advance(DAY)  # 14 days: its clock, not the sweep, ends it
    assert abandonment.sweep_idle_games() == []
    assert tasks.flag_clocks() == [started.id]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_opening_the_socket_applies_a_missed_deadline_once(users, connect):
    from channels.db import database_sync_to_async as sync

    from tests.clocks.support import pass_time

    game = await sync(timed_game)(users["alice"], users["bob"], "1d")
    await sync(start)(game, users)
    alice = await connect(game.id, "alice")  # in time: the state says when Blue's is due
    clock = alice.first["state"]["clock"]
    assert clock["running"] == [0] and clock["deadlines"][0].endswith("Z")
    assert clock["deadlines"][1] is None
    await alice.disconnect()
    await sync(pass_time)(game.id, DAY + 2)
    bob = await connect(game.id, "bob")  # connecting is the next message
    assert bob.first["state"]["ending"]["termination"] == "timed_out"
    again = await connect(game.id, "alice")
    assert again.first["state"]["status"] == "finished"
    assert await sync(tasks.flag_clocks)() == []
    assert await sync(RatingChange.objects.filter(game_id=game.id).count)() == 2
    for comm in (bob, again):
        await comm.disconnect()
