"""A player whose opponent has left a live game (socket closed, no turn) for 60 s may claim
the win or call it a draw; before 60 s, while the opponent is here, or in a game that is not
live, the claim is refused and nothing changes."""

import pytest

from accounts.models import Player
from games import services
from games.models import Seat
from tests.clocks.support import BLUE, ORANGE, pass_time, start, timed_game
from tests.games.support import member

pytestmark = pytest.mark.django_db


def arrive_and_leave(game, users):
    """Both open the game; then Orange's page closes."""
    game = services.get_game(game.id)
    services.player_arrived(game, BLUE)
    services.player_arrived(game, ORANGE)
    services.player_went_away(game.id, ORANGE)


def claim(game, user, result="win"):
    return services.claim_game(game.id, actor=member(user), result=result)


def test_a_claim_is_refused_before_60_s_and_allowed_after(users):
    game = start(timed_game(users["alice"], users["bob"], "5+3"), users)
    arrive_and_leave(game, users)
    state = services.state_of(services.get_game(game.id), viewer=BLUE)
    assert state["abandon"]["away"][BLUE] is None and state["abandon"]["away"][ORANGE] >= 0
    assert state["abandon"]["claim_after_ms"] == 60_000
    pass_time(game.id, 50)
    with pytest.raises(services.GameError) as early:
        claim(game, users["alice"])
    assert early.value.code == "bad_request" and "wait 10 s more" in early.value.message
    assert services.get_game(game.id).status == "active"
    with pytest.raises(services.GameError):  # the one who left cannot claim either
        claim(game, users["bob"])

    pass_time(game.id, 11)
    frame = claim(game, users["alice"])
    assert frame["type"] == "ended"
    assert frame["state"]["ending"]["text"] == ("Orange (bob) left the game: Blue (alice) "
                                                "claimed the win")
    game = services.get_game(game.id)
    assert (game.termination, [s.outcome for s in game.seat_list]) == (
        "abandoned", ["win", "loss"])
    assert Player.objects.get(user=users["alice"]).rating == 1220  # a decided result


def test_calling_it_a_draw(users, client):
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    arrive_and_leave(game, users)
    pass_time(game.id, 61)
    client.force_login(users["alice"])
    answer = client.post(f"/g/{game.id}/claim", {"result": "draw"}).json()
    assert answer["state"]["over"] and answer["state"]["acting"] == []
    game = services.get_game(game.id)
    assert [s.outcome for s in game.seat_list] == ["draw", "draw"]
    assert game.termination == "abandoned" and game.flag_at is None
    assert Player.objects.get(user=users["alice"]).rated_games == 1
    assert "called it a draw" in answer["state"]["ending"]["text"]


def test_no_claim_while_the_opponent_is_here_or_came_back(users):
    game = start(timed_game(users["alice"], users["bob"]), users)
    arrive_and_leave(game, users)
    pass_time(game.id, 61)
    services.player_arrived(services.get_game(game.id), ORANGE)  # back
    with pytest.raises(services.GameError) as refused:
        claim(game, users["alice"])
    assert refused.value.message == "your opponent is still here"
    assert Seat.objects.get(game=game, index=ORANGE).sockets == 1


def test_no_claim_in_correspondence_or_untimed_games(users):
    for control in ("3d", ""):
        game = start(timed_game(users["alice"], users["bob"], control), users)
        pass_time(game.id, 3600)
        with pytest.raises(services.GameError) as refused:
            claim(game, users["alice"])
        assert "only a live online game" in refused.value.message


def test_before_both_moved_it_is_an_abort_not_a_claim(users):
    game = timed_game(users["alice"], users["bob"])
    pass_time(game.id, 120)  # Orange never opened the game
    with pytest.raises(services.GameError) as refused:
        claim(game, users["alice"])
    assert "abort the game instead" in refused.value.message


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_closing_the_page_is_leaving_and_the_other_player_hears_it(users, connect):
    from channels.db import database_sync_to_async as sync

    from tests.games.support import receive_type

    game = await sync(timed_game)(users["alice"], users["bob"], "3+2")
    await sync(start)(game, users)
    alice = await connect(game.id, "alice")
    bob = await connect(game.id, "bob")
    here = await receive_type(alice, "presence")
    assert here["away"][ORANGE] is None  # bob's page opened
    await bob.disconnect(timeout=10)  # the consumer's close writes the seat: let it finish
    gone = await receive_type(alice, "presence", timeout=10)
    assert 0 <= gone["away"][ORANGE] < 5_000 and gone["away"][BLUE] is None
    seat = await sync(Seat.objects.get)(game=game, index=ORANGE)
    assert seat.sockets == 0 and seat.left_at is not None
    await sync(pass_time)(game.id, 61)
    await alice.send_json_to({"type": "claim", "result": "win"})
    ended = await receive_type(alice, "ended")
    assert ended["termination"] == "abandoned" and ended["state"]["ending"]["by"] == "blue"
    await alice.disconnect()
