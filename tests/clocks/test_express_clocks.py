"""Cargo Express's clocks (issue #26, web.md 4), time frozen: Fischer clocks charged at each
decision point (a pick, a plan, a whole turn, a swap), the steps of a turn neither charged
nor given the increment; every uncommitted seat's clock running during planning; a seat
whose clock falls has its decision made by the Easy bot from its own view, counted as a
timeout; two in a row make it a leaver (a bot plays a seat of three on, last place; with two
seats the other wins)."""

import pytest

from games import services, tasks
from games.actors import Actor
from games.kinds import get_kind
from games.models import Game, Seat
from games.timing import clocks
from games.turns.store import live

pytestmark = pytest.mark.django_db
NAMES = ("alice", "bob", "carol")
LAG = clocks.LAG_ALLOWANCE_MS
KIND = get_kind("cargo-express")


def express_game(users, n=3, time_control="3+2", rated=False):
    return services.create_game(game_type="cargo-express", options={}, rated=rated,
                                time_control=time_control,
                                seats=[Actor.member(users[name]) for name in NAMES[:n]])


def decide(game_id, users, seat=None, token=None):
    lg = live(services.get_game(game_id))
    seat = lg.acting()[0] if seat is None else seat
    if token is None:
        token = lg.completion(seat) if lg.meta.steps else KIND.bot_decision(
            lg.redacted(seat), seat, "easy", 3)
    services.apply_turn(game_id, actor=Actor.member(users[NAMES[seat]]),
                        ply=lg.sequence(seat), token=token)
    return seat


def picks(game, users):
    for _ in range(len(game.seat_list)):
        decide(game.id, users)
    return services.get_game(game.id)


def left(game_id):
    return services.get_game(game_id).clock["left"]


def test_planning_runs_every_uncommitted_clock_and_a_fallen_seat_gets_a_plan(users, frozen):
    game = picks(express_game(users), users)
    assert services.state_of(game)["clock"]["running"] == [0, 1, 2]
    frozen.advance(20)
    decide(game.id, users, seat=0, token="A1A2A3")
    decide(game.id, users, seat=1, token="A2A1A3")
    state = services.state_of(services.get_game(game.id))
    assert state["clock"]["running"] == [2]  # carol alone is awaited
    assert left(game.id)[0] == 180_000 - (20_000 - LAG) + 2_000
    frozen.advance(180 - 20 + LAG / 1000 + 0.01)
    assert tasks.flag_clocks() == [game.id]
    row = services.get_game(game.id)
    lg = live(row)
    assert lg.p.phase == "a"  # carol's plan was made for her: planning closed
    assert [s.timeouts for s in row.seat_list] == [0, 0, 1]
    assert tasks.flag_clocks() == []  # once


def test_the_steps_of_a_turn_run_one_clock_charged_once_at_its_end(users, frozen):
    game = picks(express_game(users), users)
    for seat in range(3):
        decide(game.id, users, seat=seat, token="A1A2A3")
    lg = live(services.get_game(game.id))
    seat = lg.acting()[0]
    before = left(game.id)[seat]
    path = lg.view(seat)["legal"]["moves"][0]["path"]
    frozen.advance(10)
    decide(game.id, users, seat=seat, token=path)
    if live(services.get_game(game.id)).meta.steps:  # the turn goes on: nothing charged
        assert left(game.id)[seat] == before
        assert services.state_of(services.get_game(game.id))["clock"]["running"] == [seat]
        frozen.advance(5)
        decide(game.id, users, seat=seat, token="end")
        assert left(game.id)[seat] == before - (15_000 - LAG) + 2_000
    else:  # the turn ended with its path
        assert left(game.id)[seat] == before - (10_000 - LAG) + 2_000


@pytest.mark.parametrize("n", [2, 3])
def test_two_timeouts_in_a_row_make_a_leaver(users, frozen, n):
    game = picks(express_game(users, n=n, rated=True), users)
    last = n - 1
    for seat in range(last):
        decide(game.id, users, seat=seat, token="A1A2A3")
    frozen.advance(181 + LAG / 1000)
    assert tasks.flag_clocks() == [game.id]  # the first timeout: a plan made for the seat
    row = services.get_game(game.id)
    assert row.seat_list[last].timeouts == 1 and not row.is_over
    for _ in range(200):  # on to the seat's next decision point, the others deciding
        lg = live(services.get_game(game.id))
        if last in lg.acting():
            break
        decide(game.id, users)
    frozen.advance(200)
    tasks.flag_clocks()
    row = services.get_game(game.id)
    leaver = Seat.objects.get(game=row, index=last)
    if n == 2:
        assert row.status == Game.Status.FINISHED
        assert [s.place for s in row.seat_list] == [1, 2]
    else:
        assert leaver.stand_in == "medium" and leaver.resigned
        assert row.status == Game.Status.ACTIVE
