"""A seat that leaves on time, in a game of more than two seats whose kind hands a
leaver's seat to a bot: two timeouts in a row (the kind decided for it twice), or a clock
that ran out in a kind that decides nothing for it. The bot plays the seat on; its holder
no longer acts for it (web.md section 4, issue #25's leavers)."""

import pytest

from games import kinds, services, tasks
from games.botplay import bots
from games.models import Seat
from tests.clocks.test_timeout_decisions import JUST_OVER, NAMES, first_round, pick, picks_game
from tests.games.support import member
from tests.platform.bid_kind import Bid
from tests.platform.clock_kind import Picks

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    tasks_sent = []
    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda g, p, **o: tasks_sent.append((g, p, o)))
    return tasks_sent


def seat_rows(game_id):
    return list(Seat.objects.filter(game_id=game_id).order_by("index")
                .values_list("timeouts", "stand_in", "resigned"))


def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot(picks_kind, users, frozen, sent,
                                                      monkeypatch):
    monkeypatch.setattr(Picks, "leaver_stand_in", "easy")
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)  # carol keeps thinking
    frozen.advance(5 * 60 + 1 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]  # the site picks for carol: one timeout
    assert seat_rows(game.id)[2] == (1, None, False)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)  # carol has no time left: her clock falls at once
    frozen.advance(1 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]
    assert seat_rows(game.id)[2] == (2, "easy", True)  # two in a row: a bot plays on
    row = services.get_game(game.id)
    assert row.status == "active" and 2 in row.bot_seats
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=member(people[2]), ply=row.ply, token="2:3")
    assert refused.value.code == "not_a_player"


def test_two_timeouts_in_a_row_put_a_dormant_seat_out(picks_kind, users, frozen, sent):
    """A kind whose leavers go dormant (Picks): the seat is out after its second timeout
    in a row, and the other two play on."""
    people = [users[name] for name in NAMES]
    game = first_round(picks_game(people), people)
    pick(game.id, people[0], 0)
    pick(game.id, people[1], 1)
    frozen.advance(5 * 60 + 1 + JUST_OVER)
    assert tasks.flag_clocks() == [game.id]  # one timeout
    frozen.advance(1 + JUST_OVER)  # carol had nothing left: the next one falls at once
    assert tasks.flag_clocks() == [game.id]
    assert seat_rows(game.id)[2] == (2, None, True)
    row = services.get_game(game.id)
    assert row.status == "active" and row.clock["running"] == [0, 1]
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=member(people[2]), ply=row.ply, token="2:3")
    assert refused.value.code == "not_your_turn"


def test_an_exhausted_clock_hands_the_seat_to_a_bot(users, frozen, sent):
    kind = kinds.register(Bid())
    try:
        people = [users[name] for name in NAMES]
        game = services.create_game(game_type="bid", options={"rounds": 3},
                                    time_control="3+0", seats=[member(u) for u in people])
        for seat, user in enumerate(people):  # every seat has moved: the clocks run
            services.apply_turn(game.id, actor=member(user), ply=0, token=f"b{seat}")
        services.apply_turn(game.id, actor=member(people[0]), ply=1, token="b5")
        services.apply_turn(game.id, actor=member(people[1]), ply=1, token="b6")
        frozen.advance(3 * 60 + 1 + JUST_OVER)  # carol never bids: her clock runs out
        assert tasks.flag_clocks() == [game.id]
        assert seat_rows(game.id)[2] == (0, "easy", True)
        row = services.get_game(game.id)
        assert row.status == "active" and row.clock["left"][2] is None  # a bot: no clock
        assert row.bot_waiting_since is not None  # its bot's task is sent on commit
        assert bots.due_tasks(row) == [(1, 2)]  # seat 2's second bid, by its own task
    finally:
        kinds.unregister(kind.key)
