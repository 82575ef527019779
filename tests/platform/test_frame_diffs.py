"""Frames that carry what changed (issue #45, games.frames.diffs): on the wire, every frame
each seat and a spectator get in a whole game, with its diff applied to the state that
connection holds, rebuilds the full state its viewer has at that revision, for both games;
no catalogue rides in a turn frame after the first state; the bytes of a whole 4-seat
Cargo Express game are measured (docs/live-protocol.md, "Frames that carry what changed").

`python -m pytest tests/platform/test_frame_diffs.py -q -n 0 -p no:randomly -s -k bytes`
prints the figures recorded in docs/live-protocol.md."""

import json

import orjson
import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import services
from games.actors import Actor
from games.frames import diffs
from games.kinds import get_kind
from games.turns.store import live
from tests.games.support import receive_type, scripted_tokens

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_budgets")]
NAMES = ("alice", "bob", "carol", "dave")
EXPRESS = get_kind("cargo-express")
CATALOGUES = ("contracts", "cards", "colours", "seed_hash", "card_names", "size", "rules",
              "game_type", "id", "v")


@pytest.fixture
def users(db):
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in NAMES}


def expected_state(game_id, viewer):
    """The viewer's full state now (`state_of`), as its frames carry it: a kind whose
    frames repeat no history leaves out `turns` and `log`, a spectator's frame its
    `you` and `viewer` (games.frames.states.frame_state)."""
    return expected_states(game_id, [viewer])[viewer]


def expected_states(game_id, viewers):
    """`expected_state` of each of `viewers`, from one read of the game (a whole game
    checks every viewer at every decision: one read a decision, not one a viewer)."""
    game = services.get_game(game_id)
    return {viewer: frame_state(game, viewer) for viewer in viewers}


def frame_state(game, viewer):
    state = services.state_of(game, viewer=viewer)
    if not game.kind.history_in_frames:
        state.pop("turns", None)
        state.pop("log", None)
    if viewer is None or not game.kind.hidden_information:
        del state["you"], state["viewer"]
    return json.loads(orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS))


def express_decision(lg):
    """A decision of an acting seat as its Easy bot would make it, a turn's first step
    alone (as tests/platform/test_express_wire.py plays)."""
    seat = lg.acting()[0]
    token = EXPRESS.bot_decision(lg.redacted(seat), seat, "easy", 7)
    if lg.p.phase == "a" and ":" in token:
        first = token.partition(":")[2].split(".")[0]
        token = first if first != "~" else token
    return seat, lg.sequence(seat), token


def check_frame(raw, rebuilt, want, viewer):
    """A group frame after the first state: a diff, never the whole state or a catalogue,
    and the state it rebuilds is the viewer's full state at that revision."""
    assert "state" not in raw and isinstance(raw["diff"], list), raw.keys()
    touched = {op[0][0] for op in raw["diff"] if op[0]}
    assert not touched & set(CATALOGUES), (viewer, touched)
    assert rebuilt == want, (viewer, sorted(k for k in want if rebuilt.get(k) != want[k]))


def whole_bytes(comm):
    """What a connection's frames would have weighed with their whole state in each, as
    before issue #45: each diff applied, the frame encoded with the state rebuilt."""
    held, total = None, 0
    for text in comm.wire:
        frame = json.loads(text)
        if "diff" in frame:
            held = diffs.apply(held, frame.pop("diff"))
            del frame["base"]
            frame["state"] = held
        elif isinstance(frame.get("state"), dict):
            held = frame["state"]
        total += len(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS))
    return total


async def play_express(users, connect, n):
    game = await database_sync_to_async(services.create_game)(
        game_type="cargo-express", options={}, rated=False,
        seats=[Actor.member(users[name]) for name in NAMES[:n]])
    socks = [await connect(game.id, NAMES[s]) for s in range(n)]
    watcher = await connect(game.id, None)
    viewers, comms = [*range(n), None], [*socks, watcher]
    for comm in comms:  # the first state: whole, with its catalogues, once
        assert comm.first["state"]["contracts"] and comm.first["state"]["rev"] == 0
    lg = EXPRESS.replay(game.start, [], [])
    ply = 0
    while not lg.over:
        seat, seq, token = express_decision(lg)
        lg.apply(seat, token)
        await socks[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        got = {}
        for viewer, comm in zip(viewers, comms, strict=True):
            while True:
                frame = await comm.receive_json_from(timeout=5)
                if frame["type"] == "turn" and frame["ply"] == ply:
                    got[viewer] = (json.loads(comm.wire[-1]), frame)
                    break
                assert frame["type"] in ("presence", "state"), frame
        wants = await database_sync_to_async(expected_states)(game.id, viewers)
        for viewer in viewers:
            raw, frame = got[viewer]
            check_frame(raw, frame["state"], wants[viewer], viewer)
        ply += 1
    return game, comms, ply


@pytest.mark.asyncio
@pytest.mark.parametrize("n", [2, 3])  # and 4 seats: the bytes test below
async def test_express_diffs_rebuild_each_viewers_state_at_every_revision(users, connect, n):
    game, comms, ply = await play_express(users, connect, n)
    assert comms[-1].held["over"] and comms[-1].held["seed"] is not None
    for comm in comms:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_bytes_of_a_whole_four_seat_express_game(users, connect):
    """The figures of docs/live-protocol.md: bytes a decision per socket and in all, as
    sent (diffs) and as a whole state in every frame would have been (before). The game
    is checked frame by frame as the test above checks its own (`play_express`)."""
    game, comms, decisions = await play_express(users, connect, 4)
    after = [sum(len(t.encode()) for t in c.wire) for c in comms]
    before = [whole_bytes(comm) for comm in comms]
    per_socket_after = sum(after) / len(comms) / decisions
    per_socket_before = sum(before) / len(comms) / decisions
    print(f"\n4-seat Cargo Express, {decisions} decisions, 5 sockets (4 seats, 1 spectator):"
          f"\n  before: {per_socket_before:.0f} B a decision per socket, "
          f"{sum(before) / 1e6:.2f} MB in all"
          f"\n  after:  {per_socket_after:.0f} B a decision per socket, "
          f"{sum(after) / 1e6:.2f} MB in all"
          f"\n  per socket after (seats 1-4, spectator): "
          f"{[round(b / decisions) for b in after]}")
    assert per_socket_after <= 500
    assert sum(after) <= 3_000_000
    for comm in comms:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_cargo_connect_diffs_rebuild_each_viewers_state_at_every_revision(game, connect):
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    carol = await connect(game.id, "carol")
    comms, viewers = (alice, bob, carol), (0, 1, None)
    for ply, token in enumerate(scripted_tokens(5)):
        await (alice if ply % 2 == 0 else bob).send_json_to(
            {"type": "turn", "ply": ply, "token": token})
        for viewer, comm in zip(viewers, comms, strict=True):
            frame = await receive_type(comm, "turn")
            raw = json.loads(comm.wire[-1])
            # One audience: every connection gets the spectator's frame (no `you`).
            want = await database_sync_to_async(expected_state)(game.id, None)
            assert "state" not in raw and raw["diff"]
            touched = {op[0][0] for op in raw["diff"] if op[0]}
            assert not touched & set(CATALOGUES) - {"size"}, touched
            # The connection's own seat stays as its first state said it (shell.js).
            assert comm.first["state"]["viewer"] == viewer
            assert frame["state"] == want, (viewer, ply)
    assert carol.held["over"]
    plies = len(scripted_tokens(5))
    after = [sum(len(t.encode()) for t in c.wire) for c in comms]
    print(f"\nCargo Connect 5x5, {plies} turns, 3 sockets: before "
          f"{sum(map(whole_bytes, comms)) / len(comms) / plies:.0f} B a turn per socket, "
          f"after {sum(after) / len(comms) / plies:.0f}")
    for comm in comms:
        await comm.disconnect()


@pytest.mark.asyncio
async def test_with_diffs_off_every_frame_carries_its_whole_state(game, connect, settings):
    settings.LIVE_FRAME_DIFFS = False
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    for ply, token in enumerate(scripted_tokens(5)[:4]):
        await (alice if ply % 2 == 0 else bob).send_json_to(
            {"type": "turn", "ply": ply, "token": token})
        for comm in (alice, bob):
            frame = await receive_type(comm, "turn")
            raw = json.loads(comm.wire[-1])
            assert "diff" not in raw and raw["state"] == frame["state"]
            assert frame["state"] == await database_sync_to_async(expected_state)(game.id, None)
    for comm in (alice, bob):
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_reconnected_socket_starts_from_a_whole_state_again(users, connect):
    game = await database_sync_to_async(services.create_game)(
        game_type="cargo-express", options={}, rated=False,
        seats=[Actor.member(users[name]) for name in NAMES[:2]])
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    lg = EXPRESS.replay(game.start, [], [])
    for _ in range(3):
        seat, seq, token = express_decision(lg)
        lg.apply(seat, token)
        await (alice, bob)[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        await receive_type(alice, "turn")
        await receive_type(bob, "turn")
    await bob.disconnect()
    bob = await connect(game.id, "bob")
    assert bob.first["type"] == "state" and bob.first["state"]["rev"] == lg.ply

    def snapshot():
        row = services.get_game(game.id)
        return json.loads(orjson.dumps(services.with_queue(
            services.state_of(row, viewer=1), row, 1)))

    assert bob.first["state"] == await database_sync_to_async(snapshot)()
    seat, seq, token = express_decision(lg)
    lg.apply(seat, token)
    await (alice, bob)[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
    frame = await receive_type(bob, "turn")
    raw = json.loads(bob.wire[-1])
    assert raw["base"] == lg.ply - 1 and "state" not in raw
    # From the snapshot: the history it alone carries is taken out of the frame's state.
    assert {("log",), ("turns",), ("queued",)} <= {tuple(op[0]) for op in raw["diff"]
                                                  if len(op) == 1}
    assert frame["state"] == await database_sync_to_async(expected_state)(game.id, 1)
    # A sync answers the turn frames and a whole state, which the next diff starts from.
    await bob.send_json_to({"type": "sync", "after": lg.ply - 1})
    state = await receive_type(bob, "state")
    assert state["state"]["rev"] == lg.ply
    for comm in (alice, bob):
        await comm.disconnect()


def test_a_live_game_keeps_its_revision_in_the_state(users):
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(users[n]) for n in NAMES[:2]])
    row = services.get_game(game.id)
    assert services.state_of(row, live(row), viewer=0)["rev"] == row.revision
