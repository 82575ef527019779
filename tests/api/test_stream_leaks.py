"""The leak test of the API's streams (issue #47's acceptance): a whole Cargo Express game
of three seats, every line a seat's and a spectator's API stream carries read and checked
against what the sockets of the same viewers get, and against what each viewer may know
then (the engine's view and events for that viewer: nothing private before its time).
Seats 0 and 2 play on their sockets; seat 1 plays through the API (`board:play`: a person's
program at their side, whose socket is open beside it), from its own view only, as a bot
would. Helpers: the Express wire tests' (tests/platform/)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from api.scopes import Scope
from games import services
from games.actors import Actor
from games.kinds.cargo_express.view import ExpressView
from tests.api.streams import open_stream
from tests.api.support import bearer_client, token_for
from tests.platform.test_express_wire import KIND, decision_of, kind_part

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
NAMES = ("alice", "bob", "carol", "dave")  # dave watches
API_SEAT = 1


@pytest.fixture
def users(db):
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in NAMES}


@pytest.fixture
def no_budgets(settings, monkeypatch):
    settings.LIVE_ADDRESS_UNITS_PER_SECOND = 10 ** 6
    monkeypatch.setattr("games.sockets.runtime.FRAMES_PER_SECOND", 10 ** 6)


def api_decision(token: str, game_id: str, ply: int, step: str) -> dict:
    answer = bearer_client(token).post(f"/api/board/game/{game_id}/decision",
                                       data=json.dumps({"ply": ply, "token": step}),
                                       content_type="application/json")
    assert answer.status_code == 200, answer.content
    return answer.json()


async def until_turn(read, ply: int, seen: list[str]) -> dict:
    """Read a viewer's frames (socket or stream) up to the turn frame of `ply`; every text
    read is kept in `seen`, presence aside (its timing is each connection's own)."""
    while True:
        text = await read()
        frame = json.loads(text)
        if frame["type"] == "presence":
            continue
        seen.append(text)
        if frame["type"] == "turn" and frame["ply"] == ply:
            return frame
        assert frame["type"] in ("state", "rematch"), frame


@pytest.mark.asyncio
async def test_every_line_of_each_viewers_stream_is_its_sockets_and_its_own(
        users, connect, no_budgets):
    def made():
        game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                    seats=[Actor.member(users[n]) for n in NAMES[:3]])
        return game, {n: token_for(users[n], Scope.READ, Scope.BOARD_PLAY) for n in NAMES}

    game, tokens = await database_sync_to_async(made)()
    viewers = [0, 1, 2, None]
    names = dict(zip(viewers, NAMES, strict=True))
    socks = {v: await connect(game.id, names[v]) for v in viewers}
    streams = {v: await open_stream(f"/api/stream/game/{game.id}", tokens[names[v]])
               for v in viewers}
    lg = KIND.replay(game.start, [], [])
    for v in viewers:
        first = await streams[v].frame()
        assert first["type"] == "state"
        assert kind_part(first["state"]) == kind_part(socks[v].first["state"]) \
            == ExpressView(lg, v).build()
        assert first["state"]["seed"] is None
    by_socket = {v: [] for v in viewers}
    by_stream = {v: [] for v in viewers}
    ply = 0
    while not lg.over:
        seat, seq, token = decision_of(lg)
        lg.apply(seat, token)
        if seat == API_SEAT:  # from the seat's own view, as a bot: `decision_of` used
            answer = await database_sync_to_async(api_decision)(  # lg.redacted(seat)
                tokens[names[seat]], game.id, seq, token)
            assert answer["frame"]["state"]["viewer"] == seat
        else:
            await socks[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        for v in viewers:
            await until_turn(lambda v=v: socks[v].receive_from(timeout=5), ply, by_socket[v])

            async def stream_text(v=v) -> str:
                return (await streams[v].line()).decode() or json.dumps({"type": "presence"})

            await until_turn(stream_text, ply, by_stream[v])
        ply += 1
    for v in viewers:
        assert await streams[v].ended(), v  # the game is over: every stream closes
        await socks[v].disconnect()

    def expected():
        row = services.get_game(game.id)
        replay = KIND.replay(row.start, [], [])
        out = {v: [] for v in viewers}
        for turn in row.turns.order_by("ply"):
            events = replay.apply(turn.seat, turn.token)
            for v in viewers:
                out[v].append((replay.tokens_for(v)[turn.ply], replay.events_for(events, v),
                               ExpressView(replay, v).build()))
        return out

    want = await database_sync_to_async(expected)()
    for v in viewers:
        # The stream carried exactly the socket's frames, in the socket's order: whole,
        # where the socket sends a diff of the state its client holds (issue #45), which
        # the test's communicator rebuilds.
        assert [json.loads(t) for t in by_stream[v]] == \
            [json.loads(t) for t in by_socket[v]], v
        turns = [json.loads(t) for t in by_stream[v] if json.loads(t)["type"] == "turn"]
        assert len(turns) == ply
        for frame, (token, events, state) in zip(turns, want[v], strict=True):
            assert frame["token"] == token and frame["events"] == events, (v, frame["ply"])
            got = kind_part(frame["state"])
            assert got == state, (v, frame["ply"])
            if not state["over"]:  # nothing of another seat's before its time
                assert frame["state"]["seed"] is None
                for s, area in enumerate(got["areas"]):
                    if s != v:
                        assert area["plan"] is area["hand"] is area["open"] is None
        final = turns[-1]["state"]
        assert final["status"] == "finished" and final["seed"] is not None
    for v in viewers:
        await streams[v].close()
