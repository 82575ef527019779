"""A kind with hidden, simultaneous decisions (the test-only Bid, bid_kind.py) through the
same services, sockets, catch-up, replay and record as Cargo Connect: each seat and each
spectator gets frames built for them (games.frames.audiences), and no frame, page, catch-up,
replay or record any connection gets holds another seat's bid before its reveal.

Every bid carries a private note (`b5:alpha`) that nobody but its seat may see before the
round's reveal: the tests look for the note in the raw text of everything each connection
received."""

import asyncio
import json
import os
import threading

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client

from games import services
from games.actors import Actor
from games.botplay import bots
from games.models import Game, Turn
from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.games.support import drain, drain_all
from tests.platform.bid_kind import SEEN, Bid
from tests.platform.conftest import registered

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("alice", "bob", "carol")


@pytest.fixture
def bid_kind():
    yield from registered(Bid())


def make_bids(users, rounds=2, names=NAMES):
    return services.create_game(game_type="bid", options={"rounds": rounds},
                                seats=[Actor.member(users[n]) for n in names])


def texts(frames):
    return [json.dumps(f) for f in frames]


def leaks(frames, note):
    return [t for t in texts(frames) if note in t]


@pytest.mark.asyncio
async def test_each_seat_and_a_spectator_see_only_their_own_bid_until_the_reveal(
        bid_kind, users, connect):
    game = await database_sync_to_async(make_bids)(users)
    socks = {name: await connect(game.id, name) for name in NAMES}
    watcher = await connect(game.id, None)
    assert watcher.first["state"]["bids"] == [None, None, None]
    assert "you" not in watcher.first["state"] or watcher.first["state"]["you"] is None
    assert socks["bob"].first["state"]["seqs"] == [0, 0, 0]

    # alice and bob commit at the same moment, each with its own sequence (0): both kept
    await asyncio.gather(
        socks["alice"].send_json_to({"type": "turn", "ply": 0, "token": "b5:alpha"}),
        socks["bob"].send_json_to({"type": "turn", "ply": 0, "token": "b3:bravo"}),
    )
    got = await drain_all({**socks, "watcher": watcher})
    for name, frames in got.items():
        assert [f["type"] for f in frames] == ["turn", "turn"], (name, frames)
        assert {f["seat"] for f in frames} == {0, 1}
        assert all(f["state"]["ready"] == [True, True, False] for f in frames[1:])
    # a seat sees its own bid and nobody else's; carol and the spectator see neither
    assert leaks(got["alice"], "bravo") == [] and leaks(got["bob"], "alpha") == []
    assert leaks(got["carol"], "alpha") == leaks(got["carol"], "bravo") == []
    assert leaks(got["watcher"], "alpha") == leaks(got["watcher"], "bravo") == []
    own = next(f for f in got["alice"] if f["seat"] == 0)
    assert own["token"] == "b5:alpha" and own["events"][0]["type"] == "bid"
    assert own["state"]["bids"][0] == "b5:alpha" and own["state"]["seqs"][0] == 1
    theirs = next(f for f in got["carol"] if f["seat"] == 0)
    assert theirs["token"] == "?" and [e["type"] for e in theirs["events"]] == ["ready"]
    rows = await database_sync_to_async(lambda: sorted(
        Turn.objects.filter(game_id=game.id).values_list("seat", "token")))()
    assert rows == [(0, "b5:alpha"), (1, "b3:bravo")]

    # a resend gets the same answer; another bid with a used number is stale
    await socks["alice"].send_json_to({"type": "turn", "ply": 0, "token": "b5:alpha"})
    again = await drain(socks["alice"])
    assert [f["type"] for f in again] == ["turn"] and again[0]["token"] == "b5:alpha"
    assert again[0]["seat"] == 0 and again[0]["seq"] == 0
    await socks["alice"].send_json_to({"type": "turn", "ply": 0, "token": "b9:other"})
    stale = await drain(socks["alice"])
    assert [f["type"] for f in stale] == ["error", "state"]
    assert stale[0]["code"] == "stale_ply" and stale[1]["state"]["bids"][1] == "?"
    # a second bid in the same round is not alice's to make
    await socks["alice"].send_json_to({"type": "turn", "ply": 1, "token": "b1"})
    assert [f["code"] for f in await drain(socks["alice"])] == ["not_your_turn"]

    # catch-up after a gap: built for the asker
    await socks["carol"].send_json_to({"type": "sync", "after": 0})
    caught = await drain(socks["carol"])
    assert leaks(caught, "alpha") == leaks(caught, "bravo") == []
    await watcher.send_json_to({"type": "sync", "after": 0})
    assert leaks(await drain(watcher), "alpha") == []

    # carol's bid closes the round: the reveal reaches everyone
    await socks["carol"].send_json_to({"type": "turn", "ply": 0, "token": "b5:charlie"})
    for frames in (await drain_all({**socks, "watcher": watcher})).values():
        reveal = frames[-1]["events"][-1]
        assert reveal["type"] == "reveal"
        assert reveal["bids"] == ["b5:alpha", "b3:bravo", "b5:charlie"]
        assert reveal["scores"] == [0, 3, 0]  # alice and carol both bid 5
    for comm in (*socks.values(), watcher):
        await comm.disconnect()


def test_pages_replays_and_records_show_a_viewer_only_what_they_may_see(bid_kind, users):
    game = make_bids(users, rounds=1)
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="b4:alpha")
    web = {name: Client() for name in NAMES}
    for name, client in web.items():
        client.force_login(users[name])
    anonymous = Client()

    for client in (web["bob"], anonymous):
        for url in (f"/g/{game.id}", f"/g/{game.id}/replay", f"/g/{game.id}/replay.json",
                    f"/g/{game.id}/events?after=0", f"/g/{game.id}.ccn",
                    f"/g/{game.id}/replay.json?as=0"):
            response = client.get(url)
            assert response.status_code == 200, url
            assert b"alpha" not in response.content, url
    # alice's own page and replay show her bid
    assert b"alpha" in web["alice"].get(f"/g/{game.id}").content
    mine = web["alice"].get(f"/g/{game.id}/replay.json").json()
    assert mine["viewer"] == 0 and mine["turns"][0]["token"] == "b4:alpha"

    services.apply_turn(game.id, actor=Actor.member(users["bob"]), ply=0, token="b2:bravo")
    services.apply_turn(game.id, actor=Actor.member(users["carol"]), ply=0, token="b2:ch")
    assert services.get_game(game.id).status == Game.Status.FINISHED
    # after the game everything is public: the replay shows everything or one seat's view
    everything = anonymous.get(f"/g/{game.id}/replay.json").json()
    assert everything["everything"] and [t["token"] for t in everything["turns"]] == [
        "b4:alpha", "b2:bravo", "b2:ch"]
    assert [e["type"] for e in everything["turns"][0]["events"]] == ["bid", "ready"]
    as_bob = anonymous.get(f"/g/{game.id}/replay.json?as=1").json()
    assert as_bob["viewer"] == 1 and not as_bob["everything"]
    assert as_bob["states"][1]["bids"] == ["?", None, None]  # as bob saw it then
    assert as_bob["states"][2]["bids"] == ["?", "b2:bravo", None]
    record = anonymous.get(f"/g/{game.id}.ccn").content.decode()
    assert record == "b4:alpha b2:bravo b2:ch"


@pytest.mark.parametrize("names", [("alice", "bob"), ("alice", "bob", "carol")])
def test_a_resigning_seat_closes_the_round_for_the_others(bid_kind, users, names,
                                                         monkeypatch):
    monkeypatch.setattr(Bid, "leaver_stand_in", "")  # the seat goes dormant
    game = make_bids(users, rounds=2, names=names)
    for name in names[:-1]:
        services.apply_turn(game.id, actor=Actor.member(users[name]), ply=0, token="b1")
    frame = services.resign(game.id, actor=Actor.member(users[names[-1]]))
    row = services.get_game(game.id)
    if len(names) == 2:
        assert row.status == Game.Status.FINISHED
    else:  # the others play on: the round was revealed, the next one is open
        assert row.status == Game.Status.ACTIVE
        assert frame["events"][-1]["type"] == "reveal"
        state = services.state_of(row, viewer=0)
        assert (state["round"], state["acting"], state["seqs"]) == (2, [0, 1], [1, 1, 0])


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
def test_every_seat_committing_at_once_on_its_own_connection_is_kept(bid_kind, users):
    """Three threads, each with its own PostgreSQL connection, commit the three seats' bids
    at the same moment, each with its seat's sequence 0: all three are applied."""
    game = make_bids(users, rounds=1)
    barrier = threading.Barrier(3)
    outcomes = []

    def commit(name, token):
        try:
            barrier.wait()
            services.apply_turn(game.id, actor=Actor.member(users[name]), ply=0, token=token)
            outcomes.append(name)
        finally:
            connection.close()

    threads = [threading.Thread(target=commit, args=(n, f"b{i}")) for i, n in enumerate(NAMES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == sorted(NAMES)
    row = services.get_game(game.id)
    assert row.status == Game.Status.FINISHED and row.ply == 3


def test_each_bot_seat_decides_in_a_task_of_its_own_from_its_own_view(bid_kind, users,
                                                                     monkeypatch):
    sent = []
    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda g, p, **o: sent.append((g, p, o)))
    game = services.create_game(game_type="bid", options={"rounds": 1}, rated=False,
                                seats=[Actor.member(users["alice"]), Actor.bot("easy"),
                                       Actor.bot("easy")])
    assert [(p, o["seat"]) for _, p, o in sent] == [(0, 1), (0, 2)]  # one task per bot seat
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="b7:alpha")
    SEEN.clear()
    assert services.play_bot_turn(game.id, 0, seat=2) == "played"
    assert services.play_bot_turn(game.id, 0, seat=2) == "stale_ply"  # its seat moved on
    assert services.play_bot_turn(game.id, 0, seat=0) == "not_a_bot_seat"
    seat, tokens, seen_bids = SEEN[0]
    assert seat == 2 and "alpha" not in repr(SEEN)  # alice's bid stayed hidden from it
    assert seen_bids == ["?", None, None] and tokens == ["?"]
    assert services.play_bot_turn(game.id, 0, seat=1) == "played"
    row = services.get_game(game.id)
    assert (row.status, row.ply) == (Game.Status.FINISHED, 3)
    assert [t.seat for t in row.turns.order_by("ply")] == [0, 2, 1]  # each bot its own seat


def test_bots_in_every_other_seat_play_a_whole_game_at_once(bid_kind, users, eager):  # noqa: F811
    game = services.create_game(game_type="bid", options={"rounds": 2}, rated=False,
                                seats=[Actor.member(users["alice"]), Actor.bot("easy"),
                                       Actor.bot("easy"), Actor.bot("easy")])
    row = services.get_game(game.id)
    assert (row.ply, services.state_of(row, viewer=0)["acting"]) == (3, [0])  # bots bid
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="b9")
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=1, token="b8")
    row = services.get_game(game.id)
    assert row.status == Game.Status.FINISHED and row.ply == 8


def test_a_leaver_of_three_seats_is_played_on_by_a_bot_and_takes_last_place(
        bid_kind, users, eager):  # noqa: F811
    game = make_bids(users, rounds=2)
    services.apply_turn(game.id, actor=Actor.member(users["carol"]), ply=0, token="b9")
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="b1")
    frame = services.resign(game.id, actor=Actor.member(users["carol"]))
    assert frame["events"] == [{"type": "left", "seat": 2, "stand_in": "easy", "ply": 2}]
    assert frame["state"]["status"] == "active"
    with pytest.raises(services.GameError) as refused:  # carol no longer acts for it
        services.apply_turn(game.id, actor=Actor.member(users["carol"]), ply=1, token="b9")
    assert refused.value.code == "not_a_player"
    services.apply_turn(game.id, actor=Actor.member(users["bob"]), ply=0, token="b2")
    # round 2: the stand-in bid for carol's seat at once; alice and bob bid
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=1, token="b3")
    services.apply_turn(game.id, actor=Actor.member(users["bob"]), ply=1, token="b4")
    row = services.get_game(game.id)
    assert row.status == Game.Status.FINISHED
    by_seat = {s.index: s for s in row.seat_list}
    assert by_seat[2].stand_in == "easy" and by_seat[2].resigned
    assert by_seat[2].score >= 9  # the best score, but she left: last place
    assert [by_seat[i].place for i in range(3)] == [2, 1, 3]
    assert [by_seat[i].outcome for i in range(3)] == ["loss", "win", "loss"]
