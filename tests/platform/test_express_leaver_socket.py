"""A leaver's open socket hears nothing of the seat a bot now plays (issue #42, point 2).

A Cargo Express table of three: carol's seat changes hands (a Medium bot plays it on) in
each of the four ways a seat can (she resigns on her socket, her clock falls twice in a
row, her clock runs out with no decision the site can make for her, a present player
hands her seat over after her presence lapsed) while her socket stays open. The others
play the game to its end, the bot deciding for her seat (plans, signs and all), and every
frame her socket reads from the change on is checked: none shows the seat's plan, hand,
open contracts, drawn contracts, choices or private events, and the socket is told a
spectator's state at once."""

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model

from games import services, tasks
from games.actors import Actor
from games.kinds import get_kind
from games.kinds.cargo_express import ExpressGame
from games.models import Seat, Turn
from games.timing import clocks
from games.turns.store import live
from tests.games.bot_support import eager  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_budgets", "empty_watcher")]
NAMES = ("alice", "bob", "carol")
KIND = get_kind("cargo-express")
LEAVER = 2  # carol's seat
PRIVATE_EVENTS = ("plan-chosen", "contracts-offered", "contracts-drawn")





def actor(users, seat):
    return Actor.member(users[NAMES[seat]])


def decide(game_id, users, seats=(0, 1), n=0):
    """One decision of an acting person's seat among `seats` (the Easy bot's, from its own
    view); the game's ply after it (bots that act next have played by then: eager)."""
    lg = live(services.get_game(game_id))
    seat = next(s for s in lg.acting() if s in seats)
    token = KIND.bot_decision(lg.redacted(seat), seat, "easy", 11 + n)
    services.apply_turn(game_id, actor=actor(users, seat), ply=lg.sequence(seat),
                        token=token)
    return services.get_game(game_id).ply


def only_carol_acts(game_id):
    return live(services.get_game(game_id)).acting() == [LEAVER]


async def read_until(comm, ply, frames):
    """Read carol's frames until one whose state is at `ply` or later."""
    if frames and (frames[-1].get("state") or {}).get("ply", -1) >= ply:
        return
    while True:
        frame = await comm.receive_json_from(timeout=10)
        frames.append(frame)
        if (frame.get("state") or {}).get("ply", -1) >= ply:
            return


def secrets_in(frame):
    """What a frame shows of carol's former seat that a spectator may not see."""
    found = []
    state = frame.get("state") or {}
    if state.get("viewer") == LEAVER or state.get("you") is not None:
        found.append("viewer")
    if "areas" in state and not state.get("over"):
        area = state["areas"][LEAVER]
        found += [key for key in ("plan", "hand", "open") if area[key] is not None]
        if state.get("drawn") is not None:
            found.append("drawn")
        if state.get("legal"):
            found.append("legal")
        if state.get("queued"):
            found.append("queued")
    for event in frame.get("events") or []:
        if event.get("kind") in PRIVATE_EVENTS or event.get("only") is not None:
            found.append(event.get("kind"))
    if frame.get("type") == "queued":
        found.append("queued")
    return found


def away_long_enough(game_id, frozen):
    """Carol's presence lapsed a minute ago (as when her tab's count was lost with its
    process): the others may hand her seat over."""
    frozen.advance(61)
    Seat.objects.filter(game_id=game_id, index=LEAVER).update(
        sockets=0, left_at=frozen.now - dt.timedelta(seconds=61))


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["resign", "two_timeouts", "exhausted_clock", "hand_over"])
async def test_a_leavers_open_socket_hears_nothing_of_the_seat_a_bot_plays(
        connect, frozen, eager, monkeypatch, how):  # noqa: F811
    User = get_user_model()

    def setup():
        users = {name: User.objects.get(username=name) for name in NAMES}
        game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                    time_control="3+2",
                                    seats=[Actor.member(users[n]) for n in NAMES])
        for n in range(3):  # the picks, carol's among them: every seat has moved
            decide(game.id, users, seats=(0, 1, 2), n=n)
        return users, game

    users, game = await database_sync_to_async(setup)()
    carol = await connect(game.id, "carol")
    assert carol.first["state"]["viewer"] == LEAVER
    frames: list[dict] = []  # before the change: carol's own, not checked
    count = iter(range(10 ** 6))

    async def others_decide_until_only_carol_acts():
        for _ in range(100):
            if await database_sync_to_async(only_carol_acts)(game.id):
                return
            ply = await database_sync_to_async(decide)(game.id, users, n=next(count))
            await read_until(carol, ply, frames)
        raise AssertionError("carol never acted alone")

    async def flag(seconds):
        frozen.advance(seconds)
        assert await database_sync_to_async(tasks.flag_clocks)() == [game.id]

    def hand_over():
        away_long_enough(game.id, frozen)
        services.claim_seat(game.id, actor=actor(users, 0), seat=LEAVER)

    fall = 181 + clocks.LAG_ALLOWANCE_MS / 1000  # a fresh 3+2 clock runs out
    if how == "resign":
        await carol.send_json_to({"type": "resign"})
    elif how == "two_timeouts":
        await others_decide_until_only_carol_acts()
        await flag(fall)  # her first timeout: a plan made for her
        row = await database_sync_to_async(services.get_game)(game.id)
        assert row.seat_list[LEAVER].timeouts == 1 and not row.seat_list[LEAVER].stand_in
        await read_until(carol, row.ply, frames)
        await others_decide_until_only_carol_acts()
        await flag(200)  # the second in a row: she leaves
    elif how == "exhausted_clock":  # the site has no decision to make for her: a leaver
        monkeypatch.setattr(ExpressGame, "timeout_decision", lambda self, seat: None)
        await others_decide_until_only_carol_acts()
        await flag(fall)
    else:
        await database_sync_to_async(hand_over)()
    while not frames or frames[-1]["type"] != "resigned" or frames[-1]["seat"] != LEAVER:
        frames.append(await carol.receive_json_from(timeout=10))
    after = frames[-1:]  # from the change on
    row = await database_sync_to_async(services.get_game)(game.id)
    assert row.seat_list[LEAVER].stand_in == "medium"
    changed_at = row.ply
    await read_until(carol, changed_at, after)

    def play_on(n):
        row = services.get_game(game.id)
        return None if row.is_over else decide(game.id, users, n=n)

    for n in range(400):
        ply = await database_sync_to_async(play_on)(n)
        if ply is None:
            break
        await read_until(carol, ply, after)
    assert await carol.receive_nothing(timeout=0.2)
    await carol.disconnect()

    leaks = [(f["type"], f.get("ply"), secrets_in(f)) for f in after if secrets_in(f)]
    assert not leaks, leaks[:5]
    moved = [f for f in after if f["type"] == "state"]
    assert moved and moved[0]["state"]["viewer"] is None  # a spectator's state at once

    def bot_decided():
        turns = Turn.objects.filter(game_id=game.id, seat=LEAVER, ply__gte=changed_at)
        return [e["kind"] for t in turns for e in t.events if e.get("seat") == LEAVER]

    kinds = await database_sync_to_async(bot_decided)()
    assert "plan-chosen" in kinds  # the bot planned for the seat: there was a secret to keep


@pytest.mark.asyncio
async def test_a_socket_opening_as_its_seat_changes_hands_joins_the_spectators(
        connect, eager, monkeypatch):  # noqa: F811
    """Carol's socket reads her seat's state, then the seat is handed to a bot (she resigned
    on another page) before the socket joins the seat's group: the `seat.changed` went
    before it was there. The socket looks again once joined and opens as a spectator."""
    from games.sockets.game import GameConsumer

    User = get_user_model()

    def setup():
        users = {name: User.objects.get(username=name) for name in NAMES}
        game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                    seats=[Actor.member(users[n]) for n in NAMES])
        return users, game

    users, game = await database_sync_to_async(setup)()
    loaded = GameConsumer.load_state
    resigned = []

    def load_then_resign(self):
        state = loaded(self)
        if not resigned:  # her other page resigns now: sent before this socket joins
            resigned.append(services.resign(game.id, actor=actor(users, LEAVER)))
        return state

    monkeypatch.setattr(GameConsumer, "load_state", load_then_resign)
    carol = await connect(game.id, "carol")
    assert resigned and carol.first["state"]["viewer"] is None
    after = [carol.first]
    for n in range(60):
        ply = await database_sync_to_async(decide)(game.id, users, (0, 1), n)
        await read_until(carol, ply, after)
    await carol.disconnect()
    leaks = [(f["type"], f.get("ply"), secrets_in(f)) for f in after if secrets_in(f)]
    assert not leaks, leaks[:5]


@pytest.mark.asyncio
@pytest.mark.parametrize("asks", ["sync", "ping"])
async def test_a_socket_that_missed_its_seat_change_catches_up_as_a_spectator(
        connect, eager, monkeypatch, asks):  # noqa: F811
    """The layer is down for carol's socket from her resignation on (Redis restarting): it
    gets neither the `seat.changed` nor the frames after it, and is still in the seat's
    group when it next catches up, by `sync` or on a `ping` (the row is ahead). It moves
    then: the catch-up is a spectator's, never the seat's state the bot now plays."""
    from games.sockets.game import GameConsumer

    User = get_user_model()
    down: list[bool] = []
    frame_send, seat_changed = GameConsumer.frame_send, GameConsumer.seat_changed
    layer = get_channel_layer()
    group_send = layer.group_send

    async def marked_send(group, message):
        """What is sent while the layer is down is marked when sent, not when the socket
        reads it: the socket may read a message after the layer is back."""
        await group_send(group, {**message, "lost": True} if down else message)

    async def lost_frame(self, message):
        if not message.get("lost"):
            await frame_send(self, message)

    async def lost_change(self, message):
        if not message.get("lost"):
            await seat_changed(self, message)

    monkeypatch.setattr(layer, "group_send", marked_send)
    monkeypatch.setattr(GameConsumer, "frame_send", lost_frame)
    monkeypatch.setattr(GameConsumer, "seat_changed", lost_change)

    def setup():
        users = {name: User.objects.get(username=name) for name in NAMES}
        game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                    seats=[Actor.member(users[n]) for n in NAMES])
        return users, game

    users, game = await database_sync_to_async(setup)()
    carol = await connect(game.id, "carol")
    down.append(True)  # the layer brings her nothing from now on
    await database_sync_to_async(services.resign)(game.id, actor=actor(users, LEAVER))
    for n in range(3):  # the game goes on meanwhile
        await database_sync_to_async(decide)(game.id, users, (0, 1), n)
    down.clear()  # it answers again; her page catches up
    await carol.send_json_to({"type": "sync", "after": 0} if asks == "sync"
                             else {"type": "ping"})
    after = [await carol.receive_json_from(timeout=10)]
    assert after[0]["type"] == "state" and after[0]["state"]["viewer"] is None, after[0]
    for n in range(3, 30):
        ply = await database_sync_to_async(decide)(game.id, users, (0, 1), n)
        await read_until(carol, ply, after)
    await carol.disconnect()
    leaks = [(f["type"], f.get("ply"), secrets_in(f)) for f in after if secrets_in(f)]
    assert not leaks, leaks[:5]
