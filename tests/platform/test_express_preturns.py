"""Cargo Express pre-turns (web.md 3.3, games.turns.preturns): a waiting seat queues its next
turn over its socket, the server plays it at the reveal through the same store as any
decision, drops what became illegal, and no other connection ever learns of it.

Every frame each connection receives is read and compared with the kind's own frames for
that viewer (as tests/platform/test_express_wire.py does for whole games): a queue that
leaked would show up as a frame, or a difference, on another seat's or the spectator's
socket. Run with the fast path on and off (LIVE_FAST_PATH=0), on SQLite and PostgreSQL."""

import pytest
from channels.db import database_sync_to_async

from games import services
from games.actors import Actor
from games.frames.protocol import GameError
from games.kinds import KindError
from games.kinds.cargo_express.view import ExpressView
from games.models import PreTurn, Turn
from games.turns.store import live
from tests.games.support import side_by_side
from tests.platform import test_express_wire as wire
from tests.platform.test_express_wire import KIND, NAMES, decision_of, kind_part, make_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_budgets")]
users = wire.users  # four members


def whole_turn(choices, *, sign=False):
    """A queueable whole turn of the next card (no `^`, whose refill would stop the
    queue), with `end`; or, with `sign`, one that ends at a sign's `s`."""
    for turn in choices["turns"]:
        steps = turn.split(".")
        if steps[0] == "^" or len(steps) < 2:  # a path and an action at least
            continue
        if sign == (steps[-1] == "s"):
            return steps if sign else [*steps, "end"]
    return None


def to_a_waiting_seat(game_id, *, sign=False):
    """Play the Easy bots' decisions through the service until a turn has just begun and
    the seat after it waits with a queueable turn: (mover, waiting seat, its choices, the
    steps it will queue)."""
    game = services.get_game(game_id)
    lg = live(game)
    while True:
        begun = lg.turn_key()
        if begun is not None:
            mover = begun[0]
            waiting = (mover + 1) % lg.n
            choices = lg.next_turn(waiting)
            steps = whole_turn(choices, sign=sign) if choices else None
            if steps:
                return mover, waiting, choices, steps
        seat, seq, token = decision_of(lg)
        services.apply_turn(game_id, actor=Actor.member(game.seat_list[seat].user),
                            ply=seq, token=token)
        lg.apply(seat, token)


async def drain(comm):
    """Every frame the connection has been sent so far."""
    frames = []
    while not await comm.receive_nothing(timeout=0.3):
        frames.append(await comm.receive_json_from(timeout=5))
    return frames


async def drain_all(comms: dict) -> dict:
    """`drain` of every connection, side by side (tests/games/support.py)."""
    return await side_by_side(drain, comms)


def expected_turns(game_id, viewers, since):
    """Each viewer's turn frames from ply `since` on, as the kind builds them."""
    row = services.get_game(game_id)
    lg = KIND.replay(row.start, [], [])
    out = {v: [] for v in viewers}
    for turn in row.turns.order_by("ply"):
        events = lg.apply(turn.seat, turn.token)
        if turn.ply >= since:
            for v in viewers:
                out[v].append((turn.ply, lg.tokens_for(v)[turn.ply], lg.events_for(events, v),
                               ExpressView(lg, v).build()))
    return out


def assert_each_viewers_own(received, want):
    for viewer, frames in received.items():
        turns = [f for f in frames if f["type"] == "turn"]
        assert len(turns) == len(want[viewer]), viewer  # none missing, none extra
        for frame, (ply, token, events, state) in zip(turns, want[viewer], strict=True):
            assert (frame["ply"], frame["token"], frame["events"]) == (ply, token, events)
            assert kind_part(frame["state"]) == state, (viewer, ply)
        others = {f["type"] for f in frames} - {"turn", "presence", "watchers"}
        assert others <= ({"queued"} if viewer is not None and viewer == WAITING[0]
                          else set()), (viewer, others)


WAITING = [None]  # the waiting seat of the test running (for `assert_each_viewers_own`)


async def play_the_movers_turn(socks, comms, game_id, mover):
    """The mover's turn, a step at a time from its socket; every frame each connection
    gets, by viewer."""
    received = {v: [] for v in comms}
    while True:
        lg = await database_sync_to_async(lambda: live(services.get_game(game_id)))()
        if lg.over or lg.acting() != [mover] or lg.p.phase != "a":
            break
        seat, seq, token = decision_of(lg)
        await socks[mover].send_json_to({"type": "turn", "ply": seq, "token": token})
        for viewer, frames in (await drain_all(comms)).items():
            received[viewer] += frames
    return received


@pytest.mark.asyncio
async def test_a_queued_turn_is_played_at_the_reveal_and_seen_by_no_one_else(
        users, connect):
    game = await database_sync_to_async(make_game)(users, 3, rated=False)
    mover, waiting, choices, steps = await database_sync_to_async(to_a_waiting_seat)(game.id)
    WAITING[0] = waiting
    socks = [await connect(game.id, NAMES[s]) for s in range(3)]
    watcher = await connect(game.id, None)
    comms = {**dict(enumerate(socks)), None: watcher}
    first = socks[waiting].first["state"]
    assert first["legal"]["next"] == choices and first["queued"] is None
    assert "next" not in str(watcher.first["state"]["legal"]) and "queued" not in \
        watcher.first["state"]
    for s in range(3):
        if s != waiting:
            assert first["legal"]["next"]["card"] not in str(socks[s].first["state"]["areas"]
                                                             [waiting])
    since = first["ply"]

    await socks[waiting].send_json_to({"type": "queue", "key": choices["key"],
                                       "steps": steps})
    confirmed = await socks[waiting].receive_json_from(timeout=5)
    assert confirmed == {"type": "queued", "key": choices["key"], "steps": steps}
    others = {viewer: comm for viewer, comm in comms.items() if viewer != waiting}
    quiet = await side_by_side(lambda comm: comm.receive_nothing(timeout=0.3), others)
    assert all(quiet.values()), quiet  # not a byte elsewhere
    reload = await connect(game.id, NAMES[waiting])  # a reload shows the queue
    assert reload.first["state"]["queued"] == {"key": choices["key"], "steps": steps}
    await reload.disconnect()
    await drain_all(comms)  # the reload's presence frames

    received = await play_the_movers_turn(socks, comms, game.id, mover)
    rows = await database_sync_to_async(lambda: list(
        Turn.objects.filter(game_id=game.id, seat=waiting).order_by("ply")))()
    told = [f for f in received[waiting] if f["type"] == "queued"]
    assert len(told) == 1 and told[0]["dropped"] == []
    played = told[0]["played"]
    assert played in (steps, steps[:-1])  # `end` not needed when the turn ended itself
    assert [t.token for t in rows if t.ply >= since][-len(played):] == played
    assert not await database_sync_to_async(PreTurn.objects.filter(game_id=game.id).exists)()
    want = await database_sync_to_async(expected_turns)(game.id, list(comms), since)
    assert_each_viewers_own(received, want)
    for comm in comms.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_queued_step_made_illegal_is_dropped_and_the_seat_decides_by_hand(
        users, connect):
    game = await database_sync_to_async(make_game)(users, 3, rated=False)
    mover, waiting, choices, steps = await database_sync_to_async(to_a_waiting_seat)(game.id)
    WAITING[0] = waiting
    socks = [await connect(game.id, NAMES[s]) for s in range(3)]
    watcher = await connect(game.id, None)
    comms = {**dict(enumerate(socks)), None: watcher}
    since = socks[0].first["state"]["ply"]
    await socks[waiting].send_json_to({"type": "queue", "key": choices["key"],
                                       "steps": steps})
    await socks[waiting].receive_json_from(timeout=5)

    # What an earlier seat's turn can do to a queued step (a complex emptied, the Driver
    # used, a space taken): here the stored queue's second step is one that will not be
    # legal at the reveal.
    def spoil():
        PreTurn.objects.filter(game_id=game.id).update(steps=[steps[0], "x9", "end"])
    await database_sync_to_async(spoil)()

    received = await play_the_movers_turn(socks, comms, game.id, mover)
    told = [f for f in received[waiting] if f["type"] == "queued"][-1]
    lg = await database_sync_to_async(lambda: live(services.get_game(game.id)))()
    # the path kept, the rest dropped: the seat decides by hand, its clock running
    assert told["played"] == [steps[0]] and told["dropped"] == ["x9", "end"]
    assert "no longer legal" in told["reason"]
    assert lg.in_turn(waiting, choices["key"]) and lg.acting() == [waiting]
    assert lg.mid_decision(waiting)
    last = [f for f in received[waiting] if f["type"] == "turn"][-1]
    assert last["token"] == steps[0] and last["state"]["legal"]["steps"]  # as any turn's
    want = await database_sync_to_async(expected_turns)(game.id, list(comms), since)
    assert_each_viewers_own(received, want)
    for comm in comms.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_bad_queues_are_refused_and_change_nothing(users, connect):
    game = await database_sync_to_async(make_game)(users, 3, rated=False)
    mover, waiting, choices, steps = await database_sync_to_async(to_a_waiting_seat)(game.id)
    sock = await connect(game.id, NAMES[waiting])
    movers = await connect(game.id, NAMES[mover])
    watcher = await connect(game.id, None)
    key = choices["key"]
    for frame, code in [
        ({"type": "queue", "key": key}, "bad_frame"),
        ({"type": "queue", "key": key, "steps": "a12"}, "bad_frame"),
        ({"type": "queue", "key": key, "steps": [1]}, "bad_frame"),
        ({"type": "queue", "key": key, "steps": ["end"] * 13}, "bad_frame"),
        ({"type": "queue", "key": key, "steps": ["zz"]}, "illegal"),
        ({"type": "queue", "key": key, "steps": ["end", steps[0]]}, "illegal"),
        ({"type": "queue", "key": key, "steps": [*steps[:-1], "end", "end"]}, "illegal"),
        ({"type": "queue", "key": "9.9", "steps": steps}, "stale_ply"),
    ]:
        await sock.send_json_to(frame)
        answer = await sock.receive_json_from(timeout=5)
        assert answer["type"] == "error" and answer["code"] == code, (frame, answer)
        if code == "stale_ply":
            assert (await sock.receive_json_from(timeout=5))["type"] == "state"
    # the seat whose turn it is, and a spectator, may not queue
    await movers.send_json_to({"type": "queue", "key": key, "steps": steps})
    assert (await movers.receive_json_from(timeout=5))["code"] == "stale_ply"
    await watcher.send_json_to({"type": "queue", "key": key, "steps": steps})
    assert (await watcher.receive_json_from(timeout=5))["code"] == "not_a_player"
    assert not await database_sync_to_async(PreTurn.objects.filter(game_id=game.id).exists)()
    # a queue, then its cancel
    await sock.send_json_to({"type": "queue", "key": key, "steps": steps})
    assert (await sock.receive_json_from(timeout=5))["steps"] == steps
    await sock.send_json_to({"type": "queue", "key": key, "steps": steps})  # a resend
    assert (await sock.receive_json_from(timeout=5))["steps"] == steps
    await sock.send_json_to({"type": "queue", "key": key, "steps": []})
    assert (await sock.receive_json_from(timeout=5)) == {"type": "queued", "key": key,
                                                         "steps": []}
    assert not await database_sync_to_async(PreTurn.objects.filter(game_id=game.id).exists)()
    assert await watcher.receive_nothing(timeout=0.3)
    for comm in (sock, movers, watcher):
        await comm.disconnect()


def test_a_sign_ends_what_may_be_queued_and_a_bot_seat_queues_nothing(users):
    game = make_game(users, 3, rated=False)
    mover, waiting, choices, _ = to_a_waiting_seat(game.id, sign=True)
    lg = live(services.get_game(game.id))
    signs = [t.split(".") for t in choices["turns"] if t.endswith("s")]
    assert signs
    for sign in signs:  # the choice after `s` needs the cards drawn: never queued
        lg.check_queue(waiting, sign)
        with pytest.raises(KindError):
            lg.check_queue(waiting, [*sign, "s1"])
        with pytest.raises(KindError):
            lg.check_queue(waiting, [*sign, "end"])
    assert lg.redacted(waiting).next_turn(mover) is None  # not its own turn's seat
    with pytest.raises(GameError) as refused:
        services.queue_turn(game.id, actor=Actor.bot("easy", waiting), key=choices["key"],
                            steps=choices["turns"][0].split("."))
    assert refused.value.code == "not_a_player"
