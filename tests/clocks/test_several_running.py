"""Clocks for several running seats, through the real services with time frozen: in the
test-only Picks kind (tests/platform/clock_kind.py) every seat still in picks at the same
time, in any order, so several clocks run at once. Each seat is charged exactly its own
time (from the moment it was put to decide to its decision, less the lag allowance); a
seat that decides stops its clock, the others run on; `flag_at` is the earliest fall."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.timing import clocks
from tests.clocks.support import left_ms
from tests.games.support import member

pytestmark = pytest.mark.django_db
FIVE = 300_000  # 5+0: five minutes each, no increment
LAG = clocks.LAG_ALLOWANCE_MS
NAMES = ("alice", "bob", "carol")


def ms(n: int) -> dt.timedelta:
    return dt.timedelta(milliseconds=n)


def picks_game(people, time_control="5+0", **options):
    return services.create_game(game_type="picks", options=options, time_control=time_control,
                                seats=[member(user) for user in people])


def pick(game_id, user, seat, number=2):
    """`user`, in `seat`, picks `number` at the game's current ply."""
    ply = services.get_game(game_id).ply
    return services.apply_turn(game_id, actor=member(user), ply=ply, token=f"{seat}:{number}")


def first_round(game, people):
    """Every seat's first decision (free): from then on every seat's clock runs."""
    for seat, user in enumerate(people):
        pick(game.id, user, seat)
    return services.get_game(game.id)


def remaining(game_id):
    return services.state_of(services.get_game(game_id))["clock"]["remaining"]


def test_three_seats_on_5_0_are_each_charged_their_own_time(picks_kind, users, frozen):
    """The measured bug: the second seat moving at 60 s was charged 29 s, and the third
    still showed 4:30 at 90 s (every decision restarted every running clock)."""
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    start = frozen.now
    assert (game.clock["left"], game.clock["running"]) == ([FIVE] * 3, [0, 1, 2])
    assert (game.clock_since, game.flag_at) == (start, start + ms(FIVE + LAG))
    assert "started_ms" not in game.clock  # started together: the row as it always was

    frozen.advance(30)
    pick(game.id, people[0], 0)
    frozen.advance(30)  # 60 s
    pick(game.id, people[1], 1)
    assert left_ms(game.id) == [FIVE - (30_000 - LAG), FIVE - (60_000 - LAG), FIVE]
    assert remaining(game.id) == [FIVE - 29_000, FIVE - 59_000, FIVE - 60_000]  # 4:00
    row = services.get_game(game.id)
    assert row.clock["running"] == [2]
    assert (row.clock_since, row.flag_at) == (start, start + ms(FIVE + LAG))  # its start

    frozen.advance(30)  # 90 s
    assert remaining(game.id)[2] == FIVE - 90_000  # 3:30, not 4:30
    pick(game.id, people[2], 2)
    row = services.get_game(game.id)  # the round is revealed: all three decide again
    assert row.clock["left"] == [FIVE - 29_000, FIVE - 59_000, FIVE - 89_000]
    assert row.clock["running"] == [0, 1, 2] and row.clock_since == frozen.now
    assert row.flag_at == frozen.now + ms(FIVE - 89_000 + LAG)  # the third falls first


def test_seats_started_at_different_moments_keep_their_own_starts(picks_kind, users,
                                                                   frozen):
    """Four seats on 3+2. A seat that decides and must decide again ("think again") starts
    its clock anew while the others run on from their start; a seat that resigns stops
    its own clock without restarting the others'. Each is charged from its own start."""
    dave = get_user_model().objects.create_user("dave", "dave@example.com", "a-long-pass-1")
    people = [*(users[name] for name in NAMES), dave]
    game = first_round(picks_game(people, "3+2"), people)
    start, three, inc = frozen.now, 180_000, 2_000
    frozen.advance(10)
    pick(game.id, dave, 3, 0)  # 10 s: dave thinks again, his clock starts anew
    row = services.get_game(game.id)
    dave_left = three - 9_000 + inc
    assert row.clock == {"left": [three] * 3 + [dave_left], "moved": [0, 1, 2, 3],
                         "running": [0, 1, 2, 3], "started_ms": [0, 0, 0, 10_000]}
    assert (row.clock_since, row.flag_at) == (start, start + ms(three + LAG))
    frozen.advance(5)
    assert remaining(game.id) == [three - 15_000] * 3 + [dave_left - 5_000]

    frozen.advance(5)
    pick(game.id, people[1], 1)  # 20 s
    frozen.advance(5)
    services.resign(game.id, actor=member(people[0]))  # 25 s: alice leaves; the others run on
    row = services.get_game(game.id)
    assert row.clock["left"] == [three - 24_000, three - 19_000 + inc, three, dave_left]
    assert row.clock["running"] == [2, 3]
    assert row.clock["started_ms"] == [None, None, 0, 10_000] and row.clock_since == start

    frozen.advance(5)
    pick(game.id, dave, 3)  # 30 s: charged from his own start, 10 s
    assert left_ms(game.id)[3] == dave_left - 19_000 + inc
    row = services.get_game(game.id)
    assert row.clock["running"] == [2] and "started_ms" not in row.clock
    assert row.flag_at == start + ms(three + LAG)
    frozen.advance(10)
    pick(game.id, people[2], 2)  # 40 s: the round is revealed, the three still in go on
    row = services.get_game(game.id)
    assert row.clock["left"][2] == three - 39_000 + inc
    assert row.clock["running"] == [1, 2, 3] and row.clock_since == frozen.now
