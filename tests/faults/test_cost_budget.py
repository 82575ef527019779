"""Work is limited, not only frames: a `sync` costs by what it sends back, sockets from one
address share a budget, anonymous spectators are capped per address and per game, and
catch-up is served from the cache of recent frames instead of a replay per request."""

import asyncio
import itertools

import pytest
from channels.db import database_sync_to_async

from games import services
from games.records import history
from games.sockets import limits
from tests.games.support import drain, member, scripted_tokens

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def play_plies(game, users, n):
    actors = [member(users["alice"]), member(users["bob"])]
    for ply, token in enumerate(scripted_tokens(5)[:n]):
        seat = services.live(services.get_game(game.id)).acting()[0]
        services.apply_turn(game.id, actor=actors[seat], ply=ply, token=token)


async def test_a_spectators_full_syncs_are_throttled_by_their_cost(game, users, connect,
                                                                  monkeypatch):
    await play_plies(game, users, 16)
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)  # all in one second
    watcher = await connect(game.id, None)  # anonymous
    for _ in range(19):  # under the 20 frames a second that pings may send
        await watcher.send_json_to({"type": "sync", "after": 0})
    frames = await drain(watcher)
    answered = sum(1 for f in frames if f["type"] == "state")
    errors = [f["code"] for f in frames if f["type"] == "error"]
    assert 1 <= answered < 19 / 2, answered
    assert errors == ["throttled"]
    await watcher.disconnect()


async def test_pings_are_not_throttled_like_syncs(game, connect):
    alice = await connect(game.id, "alice")
    for _ in range(19):
        await alice.send_json_to({"type": "ping"})
    frames = await drain(alice)
    assert frames.count({"type": "pong"}) == 19
    await alice.disconnect()


async def test_sockets_from_one_address_share_its_budget(game, connect, settings,
                                                        monkeypatch):
    settings.LIVE_ADDRESS_UNITS_PER_SECOND = 30
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)  # all in one second
    sockets = [await connect(game.id, name) for name in ("alice", "bob", "carol")]
    for _ in range(15):  # 15 a second each: under a socket's 20, 45 together
        for comm in sockets:
            await comm.send_json_to({"type": "ping"})
    pongs, throttled = 0, 0
    for comm in sockets:
        frames = await drain(comm)
        pongs += frames.count({"type": "pong"})
        throttled += sum(1 for f in frames if f.get("code") == "throttled")
    assert pongs == 30
    assert throttled >= 1
    for comm in sockets:
        await comm.disconnect()


async def test_anonymous_spectators_are_capped_per_address_and_per_game(game, users, connect,
                                                                        settings):
    settings.LIVE_ANONYMOUS_PER_ADDRESS = 3
    settings.LIVE_ANONYMOUS_PER_GAME = 100
    watchers = [await connect(game.id, None) for _ in range(3)]
    assert all(w.connected for w in watchers)
    refused = await connect(game.id, None)
    assert not getattr(refused, "connected", False)
    assert refused.close_code == 4430  # accepted, then closed, so a browser sees the code
    member_socket = await connect(game.id, "carol")  # members are not anonymous
    assert member_socket.connected
    await watchers[0].disconnect()
    again = await connect(game.id, None)  # a place was given back
    assert again.connected

    settings.LIVE_ANONYMOUS_PER_ADDRESS = 100
    settings.LIVE_ANONYMOUS_PER_GAME = 3
    assert not getattr(await connect(game.id, None), "connected", False)
    other = await database_sync_to_async(lambda: services.create_game(
        game_type="cargo-connect", options={"size": 5},
        seats=[member(users["alice"]), member(users["bob"])]))()
    assert (await connect(other.id, None)).connected  # the cap is per game
    for comm in [*watchers[1:], member_socket, again]:
        await comm.disconnect()


async def test_catch_up_is_served_from_the_cache(game, users, connect, monkeypatch):
    await play_plies(game, users, 10)
    replays = []
    real = history.replayed
    monkeypatch.setattr(history, "replayed", lambda *a, **k: replays.append(a) or real(*a, **k))
    # Each sync in a window of its own: three quick full catch-ups of ten states each would
    # overspend one window (the budget's own tests are above); the cache is what is tested.
    seconds = itertools.count(0, 100)
    monkeypatch.setattr(limits, "clock", lambda: float(next(seconds)))
    watcher = await connect(game.id, "carol")
    for _ in range(3):
        await watcher.send_json_to({"type": "sync", "after": 0})
        frames = []
        while not frames or frames[-1]["type"] != "state":
            frames.append(await watcher.receive_json_from(timeout=5))
        assert [f["ply"] for f in frames[:-1]] == list(range(10))
        await asyncio.sleep(0)
    assert len(replays) == 1  # the first sync replayed; the others read the cache
    await watcher.disconnect()

