"""A second game kind with three seats (the test-only Pile) plays through the same
services, seats, finish seam and WebSocket path as Cargo Connect."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.actors import Actor
from games.models import Game, Seat, Turn
from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.games.support import receive_type

pytestmark = pytest.mark.django_db(transaction=True)


def make_pile(users, counters=5, third=None):
    seats = [Actor.member(users["alice"]), Actor.member(users["bob"]),
             third or Actor.member(users["carol"])]
    return services.create_game(game_type="pile", seats=seats, options={"counters": counters})


@pytest.mark.asyncio
async def test_three_players_play_it_over_their_sockets(pile_kind, users, connect):
    game = await database_sync_to_async(make_pile)(users)
    socks = {name: await connect(game.id, name) for name in ("alice", "bob", "carol")}
    first = socks["alice"].first["state"]
    assert (first["game_type"], first["you"], first["viewer"], first["acting"]) == (
        "pile", "red", 0, [0])
    assert [s["name"] for s in first["seats"]] == ["alice", "bob", "carol"]
    assert socks["carol"].first["state"]["you"] == "yellow"

    await socks["bob"].send_json_to({"type": "turn", "ply": 0, "token": "1"})
    assert (await socks["bob"].receive_json_from(timeout=5))["code"] == "not_your_turn"
    await socks["alice"].send_json_to({"type": "turn", "ply": 0, "token": "4"})
    assert (await socks["alice"].receive_json_from(timeout=5))["code"] == "illegal"

    # alice 2, bob 1, carol 2: carol takes the last counter
    for ply, (name, token) in enumerate([("alice", "2"), ("bob", "1"), ("carol", "2")]):
        await socks[name].send_json_to({"type": "turn", "ply": ply, "token": token})
        for comm in socks.values():
            frame = await receive_type(comm, "turn")
            assert (frame["ply"], frame["seat"], frame["token"]) == (ply, ply, token)
    assert frame["state"]["over"] and frame["state"]["status"] == "finished"
    assert frame["events"][-1]["type"] == "over"

    seats = await database_sync_to_async(
        lambda: list(Seat.objects.filter(game_id=game.id).values_list(
            "index", "score", "place", "outcome")))()
    assert seats == [(0, 0, 2, "loss"), (1, 0, 2, "loss"), (2, 1, 1, "win")]
    row = await database_sync_to_async(Game.objects.get)(id=game.id)
    assert (row.status, row.termination, row.ply, row.tokens) == (
        "finished", "played_out", 3, ["2", "1", "2"])
    for comm in socks.values():
        await comm.disconnect()


def test_a_seat_resigns_and_the_other_two_play_on(pile_kind, users):
    game = make_pile(users, counters=9)
    frame = services.resign(game.id, actor=Actor.member(users["bob"]))
    assert frame["seat"] == 1 and frame["state"]["status"] == "active"
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="3")
    # bob resigned, so carol moves next
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=Actor.member(users["bob"]), ply=1, token="1")
    assert refused.value.code == "not_your_turn"
    services.apply_turn(game.id, actor=Actor.member(users["carol"]), ply=1, token="3")
    frame = services.resign(game.id, actor=Actor.member(users["alice"]))
    row = services.get_game(game.id)
    assert (row.status, row.termination) == ("finished", "resigned")
    assert [(s.place, s.resigned) for s in row.seat_list] == [(2, True), (2, True), (1, False)]
    assert frame["state"]["resigned"] == "red"


def test_a_bot_seat_plays_through_the_same_task(pile_kind, users, eager):  # noqa: F811
    game = make_pile(users, counters=6, third=Actor.bot("easy"))
    assert game.bot_version == "pile-1" and game.bot_seed is not None
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="1")
    services.apply_turn(game.id, actor=Actor.member(users["bob"]), ply=1, token="1")
    row = services.get_game(game.id)  # the bot's task ran at once (eager): it took 1
    assert (row.ply, row.tokens) == (3, ["1", "1", "1"])
    assert list(Turn.objects.filter(game=row).values_list("seat", flat=True)) == [0, 1, 2]


def test_the_rematch_turns_the_seats_by_one(pile_kind, users):
    game = make_pile(users, counters=1)
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="1")
    services.offer_rematch(game.id, actor=Actor.member(users["alice"]))
    frame = services.offer_rematch(game.id, actor=Actor.member(users["carol"]))
    new = services.get_game(frame["rematch"]["game"])
    assert [new.user_at(i).username for i in range(3)] == ["carol", "alice", "bob"]
    assert new.game_type == "pile" and new.options == {"counters": 1}


def test_bad_options_and_seat_counts_change_nothing(pile_kind, users):
    with pytest.raises(services.GameError) as refused:
        services.create_game(game_type="pile", seats=[Actor.member(users["alice"])] * 2,
                             options={})
    assert refused.value.code == "bad_request" and "3" in refused.value.message
    with pytest.raises(services.GameError) as refused:
        make_pile(users, counters=0)
    assert refused.value.code == "bad_request"
    with pytest.raises(services.GameError):
        services.create_game(game_type="chess", seats=[None, None], options={})
    assert Game.objects.count() == 0
