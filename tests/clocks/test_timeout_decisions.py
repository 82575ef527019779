"""A seat whose clock falls, in a kind that says what a timed-out decision becomes (the
test-only Picks kind: the site picks 1 for it): the kind's decision is played for the
seat through the apply path, once, however the flag is noticed (the beat, the watcher's
task, opening the game, the next message), and counted on the seat as a timeout in a row
until the seat decides itself. A kind with no timeout decision loses the seat on time, as
Cargo Connect does (tests/clocks/test_flag_by_*.py)."""

import datetime as dt

import pytest

from games import services, tasks
from games.fast import warm
from games.models import Game, Seat, Turn
from games.timing import clocks, timeouts
from tests.games.support import member

pytestmark = pytest.mark.django_db
FIVE = 300_000
LAG = clocks.LAG_ALLOWANCE_MS
NAMES = ("alice", "bob", "carol")
JUST_OVER = 0.001  # a millisecond past the fall


def ms(n: int) -> dt.timedelta:
    return dt.timedelta(milliseconds=n)


def picks_game(people, time_control="5+0", **options):
    return services.create_game(game_type="picks", options={"rounds": 6, **options},
                                time_control=time_control,
                                seats=[member(user) for user in people])


def pick(game_id, user, seat, number=2):
    ply = services.get_game(game_id).ply
    return services.apply_turn(game_id, actor=member(user), ply=ply, token=f"{seat}:{number}")


def first_round(game, people):
    for seat, user in enumerate(people):
        pick(game.id, user, seat)
    return services.get_game(game.id)


def timeouts_of(game_id):
    return list(Seat.objects.filter(game_id=game_id).order_by("index")
                .values_list("timeouts", flat=True))


def test_the_beat_plays_the_kinds_decision_once_and_counts_a_timeout(picks_kind, users,
                                                                      frozen):
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)  # carol keeps thinking
    frozen.advance(5 * 60 + 1)  # five minutes and the lag allowance: not yet
    assert tasks.flag_clocks() == []
    frozen.advance(JUST_OVER)
    assert tasks.flag_clocks() == [game.id]

    row = services.get_game(game.id)
    assert (row.status, row.ply, row.tokens[-1]) == ("active", 6, "2:1")
    turn = Turn.objects.get(game=row, ply=5)
    assert (turn.seat, turn.token, turn.events[-1]["type"]) == (2, "2:1", "revealed")
    assert timeouts_of(game.id) == [0, 0, 1]
    # the site's pick revealed the round: all three decide again, carol with nothing left
    assert (row.clock["left"], row.clock["running"]) == ([FIVE, FIVE, 0], [0, 1, 2])
    assert row.flag_at == frozen.now + ms(LAG)

    # once: the next beat, the watcher's late task, the check on opening the game
    assert tasks.flag_clocks() == []
    assert tasks.flag_clock(game.id) is False
    assert timeouts.flag(game.id) is None
    assert services.flag_if_due(services.get_game(game.id)) is False
    assert services.get_game(game.id).ply == 6 and timeouts_of(game.id) == [0, 0, 1]


def test_the_check_on_opening_plays_it_once(picks_kind, users, frozen, client):
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[2], 2)  # bob keeps thinking
    frozen.advance(5 * 60 + 1 + JUST_OVER)
    assert services.flag_if_due(services.get_game(game.id)) is True  # a page or socket
    assert services.flag_if_due(services.get_game(game.id)) is False  # opened again
    assert tasks.flag_clocks() == []
    row = services.get_game(game.id)
    assert (row.ply, row.tokens[-1], timeouts_of(game.id)) == (6, "1:1", [0, 1, 0])


def test_a_decision_after_another_seats_flag_is_taken_after_the_kinds_decision(
        picks_kind, users, frozen):
    """Alice's pick arrives after carol's clock fell: the flag falls first (the site picks
    for carol), then alice's pick is taken again, not refused as if the game were over."""
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)
    frozen.advance(200)
    pick(game.id, people[2], 2)  # 200 s: carol has 101 s left for the next round
    frozen.advance(101 + 1 + JUST_OVER)  # carol's clock falls; alice's has 3:18 left
    ply = services.get_game(game.id).ply
    try:
        services.apply_turn(game.id, actor=member(people[0]), ply=ply, token="0:3")
    except services.GameError as refused:
        # the site's pick for carol took that ply (seat-keyed decisions will accept it)
        assert refused.code == "stale_ply"
        pick(game.id, people[0], 0, 3)
    row = services.get_game(game.id)
    assert row.status == "active" and row.tokens[-2:] == ["2:1", "0:3"]
    assert timeouts_of(game.id) == [0, 0, 1]
    assert row.clock["running"] == [1] and row.clock["left"][0] == FIVE - (102_001 - LAG)


@pytest.mark.django_db(transaction=True)
@pytest.mark.fast_path  # the seat's own decision from the warm copy (games.fast.warm)
def test_timeouts_in_a_row_until_the_seat_decides_itself(picks_kind, users, frozen,
                                                          monkeypatch):
    """A timeout counts 1 on the seat (two in a row make it a leaver: test_leavers.py);
    the seat's own next decision, even from the process's warm copy of the game, sets it
    back to 0."""
    monkeypatch.setattr(timeouts.watcher, "add", lambda game_id, when, revision=0: None)  # we check
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)
    frozen.advance(5 * 60 + 1 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]  # round 2: the site picks for carol
    assert timeouts_of(game.id) == [0, 0, 1]

    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)  # round 3: alice and bob from the warm copy
    assert warm.get(game.id) is not None
    assert warm.get(game.id).game.seat_list[2].timeouts == 1
    pick(game.id, people[2], 2, 3)  # in time (within the lag allowance)
    row = services.get_game(game.id)
    assert row.tokens[-1] == "2:3" and timeouts_of(game.id) == [0, 0, 0]
    assert [s.timeouts for s in row.seat_list] == [0, 0, 0]


def test_without_a_timeout_decision_the_seat_loses_on_time_and_the_others_run_on(
        picks_kind, users, frozen):
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people, timeout="lose"), people)
    start = frozen.now
    pick(game.id, people[0], 0)
    frozen.advance(100)
    pick(game.id, people[1], 1, 0)  # 100 s: bob thinks again (201 s left, from now)
    frozen.advance(201 + JUST_OVER)  # 301 s: carol's clock falls, bob's not yet
    assert tasks.flag_clocks() == [game.id]
    row = services.get_game(game.id)
    assert row.status == "active" and [s.resigned for s in row.seat_list] == [
        False, False, True]
    assert timeouts_of(game.id) == [0, 0, 0]  # no decision was made for her
    assert (row.clock["left"], row.clock["running"]) == ([FIVE, FIVE - 99_000, 0], [1])
    assert (row.clock_since, row.flag_at) == (start + ms(100_000),
                                              start + ms(100_000 + FIVE - 99_000 + LAG))
    assert tasks.flag_clocks() == []
    frozen.advance(0.9)
    pick(game.id, people[1], 1)  # just in time: charged from his own start
    row = services.get_game(game.id)
    assert row.clock["left"][1] == FIVE - 99_000 - (201_901 - LAG)
    assert row.clock["running"] == [0, 1]  # the round is revealed without carol


def test_two_seats_without_a_timeout_decision_end_on_time(picks_kind, users, frozen):
    people = [users["alice"], users["bob"]]
    game = first_round(picks_game(people, timeout="lose"), people)
    pick(game.id, people[1], 1)
    frozen.advance(5 * 60 + 1 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]
    row = services.get_game(game.id)
    assert (row.status, row.termination) == (Game.Status.FINISHED, "timed_out")
    assert [s.outcome for s in row.seat_list] == ["loss", "win"]
    assert row.clock["left"] == [0, FIVE]
