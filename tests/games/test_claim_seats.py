"""Claims with more than two seats (docs/clocks.md, "Claims"): a present player hands the seat
of a player who has been away for 60 s to the kind's stand-in (a bot, or dormant) and the
game goes on for the others; nobody claims the whole game. The three-seat Bid kind
(tests/platform/bid_kind.py): North alice, East bob, South carol."""

import pytest

from games import services
from games.botplay import bots
from games.models import Seat, Turn
from tests.clocks.support import pass_time
from tests.games.support import member, receive_type
from tests.platform.bid_kind import Bid
from tests.platform.conftest import registered

NORTH, EAST, SOUTH = 0, 1, 2
NAMES = ("alice", "bob", "carol")


@pytest.fixture
def bid_kind():
    yield from registered(Bid())


@pytest.fixture
def sent(monkeypatch):
    tasks = []
    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda g, p, **o: tasks.append((g, p)))
    return tasks


def bid(game_id, user, seat, digit=0):
    number = Turn.objects.filter(game_id=game_id, seat=seat).count()
    return services.apply_turn(game_id, actor=member(user), ply=number,
                               token=f"b{(seat + digit) % 10}")


def live_bids(users):
    """A live three-seat Bid game in which every seat has bid once and every page is open;
    then carol's page closes."""
    people = [users[name] for name in NAMES]
    game = services.create_game(game_type="bid", options={"rounds": 5}, time_control="5+0",
                                seats=[member(user) for user in people])
    for seat, user in enumerate(people):
        bid(game.id, user, seat)
    game = services.get_game(game.id)
    for seat in range(3):
        services.player_arrived(game, seat)
    services.player_went_away(game.id, SOUTH)
    return services.get_game(game.id)


def claim_seat(game, user, seat):
    return services.claim_seat(game.id, actor=member(user), seat=seat)


def seat_rows(game_id):
    return list(Seat.objects.filter(game_id=game_id).order_by("index")
                .values_list("stand_in", "resigned"))


@pytest.mark.django_db
def test_a_seat_away_60_s_is_handed_to_a_bot_and_the_game_goes_on(bid_kind, users, sent):
    game = live_bids(users)
    abandon = services.state_of(game, viewer=NORTH)["abandon"]
    assert abandon["hand_over"] == "bot" and abandon["claim_after_ms"] == 60_000
    assert abandon["away"][NORTH] is None and abandon["away"][SOUTH] >= 0
    pass_time(game.id, 50)
    with pytest.raises(services.GameError) as early:
        claim_seat(game, users["alice"], SOUTH)
    assert early.value.code == "bad_request" and "wait 10 s more" in early.value.message
    assert early.value.message.startswith("South left less than 60 s ago")
    pass_time(game.id, 11)
    with pytest.raises(services.GameError) as here:  # bob is here
        claim_seat(game, users["alice"], EAST)
    assert here.value.message == "East is still here"
    with pytest.raises(services.GameError) as own:
        claim_seat(game, users["alice"], NORTH)
    assert "your own seat" in own.value.message
    with pytest.raises(services.GameError) as left:  # the one who left claims nothing
        claim_seat(game, users["carol"], NORTH)
    assert left.value.message == "North is still here"
    with pytest.raises(services.GameError) as whole:  # nobody claims the whole game
        services.claim_game(game.id, actor=member(users["alice"]), result="win")
    assert "more than two seats" in whole.value.message

    frame = claim_seat(game, users["alice"], SOUTH)
    assert frame["type"] == "resigned" and frame["seat"] == SOUTH
    assert frame["events"] == [{"type": "left", "seat": SOUTH, "stand_in": "easy",
                                "ply": game.ply}]
    assert frame["state"]["viewer"] == NORTH  # built for the claimant, not the leaver
    assert seat_rows(game.id) == [(None, False), (None, False), ("easy", True)]
    row = services.get_game(game.id)
    assert row.status == "active" and SOUTH in row.bot_seats
    assert services.state_of(row, viewer=NORTH)["abandon"]["away"][SOUTH] is None
    with pytest.raises(services.GameError) as again:
        claim_seat(row, users["bob"], SOUTH)
    assert again.value.message == "South is no longer played by a person"


@pytest.mark.django_db
def test_a_dormant_seat_and_the_last_player_in_ends_it(bid_kind, users, monkeypatch):
    monkeypatch.setattr(Bid, "leaver_stand_in", "")  # a leaver's seat goes dormant
    game = live_bids(users)
    assert services.state_of(game, viewer=NORTH)["abandon"]["hand_over"] == "dormant"
    pass_time(game.id, 61)
    frame = claim_seat(game, users["alice"], SOUTH)
    assert frame["type"] == "resigned" and frame["seat"] == SOUTH
    assert seat_rows(game.id) == [(None, False), (None, False), (None, True)]
    assert services.get_game(game.id).status == "active"  # North and East play on

    services.player_went_away(game.id, EAST)
    pass_time(game.id, 61)
    frame = claim_seat(game, users["alice"], EAST)  # alice is the last one in
    assert frame["state"]["over"]
    assert frame["state"]["ending"]["by"] == "north"
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "abandoned")
    assert [s.outcome for s in row.seat_list][NORTH] == "win"


@pytest.mark.django_db
def test_two_seats_claim_only_the_game(users):
    from tests.clocks.support import start, timed_game

    game = start(timed_game(users["alice"], users["bob"]), users)
    with pytest.raises(services.GameError) as refused:
        claim_seat(game, users["alice"], 1)
    assert "with two seats, claim the win" in refused.value.message
    state = services.state_of(services.get_game(game.id), viewer=0)
    assert "hand_over" not in state["abandon"]  # the two-seat part is as before


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_claiming_a_seat_over_the_socket(bid_kind, users, connect, sent):
    from channels.db import database_sync_to_async as sync

    game = await sync(live_bids)(users)
    await sync(pass_time)(game.id, 61)
    alice = await connect(game.id, "alice")
    await alice.send_json_to({"type": "claim", "seat": "south"})
    refused = await receive_type(alice, "error")
    assert refused["code"] == "bad_frame" and '"seat": int' in refused["message"]
    await alice.send_json_to({"type": "claim", "seat": SOUTH})
    frame = await receive_type(alice, "resigned")
    assert frame["seat"] == SOUTH and frame["events"][0]["stand_in"] == "easy"
    assert await sync(seat_rows)(game.id) == [(None, False), (None, False), ("easy", True)]
    await alice.disconnect()


@pytest.mark.django_db
def test_claiming_a_seat_over_http(bid_kind, users, sent, client):
    """The page's fallback when its socket is down: `POST /g/<id>/claim` with `seat`."""
    game = live_bids(users)
    client.force_login(users["alice"])
    url = f"/g/{game.id}/claim"
    bad = client.post(url, {"seat": "south"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_frame"
    early = client.post(url, {"seat": str(SOUTH)})
    assert early.status_code == 400 and "less than 60 s ago" in early.json()["message"]
    assert seat_rows(game.id) == [(None, False)] * 3  # nothing changed
    pass_time(game.id, 61)
    answer = client.post(url, {"seat": str(SOUTH)})
    assert answer.status_code == 200
    body = answer.json()
    assert body["type"] == "resigned" and body["seat"] == SOUTH
    assert body["state"]["viewer"] == NORTH
    assert seat_rows(game.id) == [(None, False), (None, False), ("easy", True)]
