"""The matrix's socket messages: every frame type the game and lobby sockets accept has rows
in `matrix.SOCKETS`, each role's socket answers each message as its cell says, and no frame
to anyone carries a scenario's secrets (bot seeds, a guest's session key)."""

from __future__ import annotations

import importlib
import inspect
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.sockets.game import GameConsumer
from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.permissions import matrix
from tests.permissions.world import make_people

GAME_SCENARIOS = sorted({r.scenario for r in matrix.SOCKETS if r.socket == "game"})


def handled_types(consumer: str) -> set[str]:
    """The frame types a consumer's `receive_json` branches on (read from its source, so a
    new type fails the coverage test until the matrix has its rows)."""
    module = {"GameConsumer": "games.sockets.game", "LobbyConsumer": "games.sockets.lobby",
              "TournamentConsumer": "tournaments.socket",
              "TournamentListConsumer": "tournaments.socket"}[consumer]
    # The `receive_json` the consumer runs, its own or the one it inherits.
    body = inspect.getsource(getattr(importlib.import_module(module), consumer).receive_json)
    types = set(re.findall(r'== "(\w+)"', body))
    if consumer == "GameConsumer":  # and the parts the routed socket adds: the chat's
        from cargosite.routing import TableSocket
        from chat.socket import CHAT_FRAMES, ChatSocket

        assert issubclass(TableSocket, ChatSocket) and issubclass(TableSocket, GameConsumer)
        types |= set(CHAT_FRAMES)
    return types


def test_every_socket_message_has_rows():
    for socket, consumer in (("game", "GameConsumer"), ("lobby", "LobbyConsumer"),
                             ("tournament", "TournamentConsumer"),
                             ("tournaments", "TournamentListConsumer")):
        rows = {r.message for r in matrix.SOCKETS if r.socket == socket}
        assert handled_types(consumer) | {"connect", "unknown"} == rows, socket
    for scenario in GAME_SCENARIOS:
        assert {r.message for r in matrix.SOCKETS if r.scenario == scenario} == \
            set(matrix.GAME_MESSAGES)


@pytest.fixture
def live_people(transactional_db, quick_hasher, eager):  # noqa: F811
    return make_people()


class Probe:
    """A socket opened by one role in one scene; every frame it got is kept."""

    def __init__(self, comm: WebsocketCommunicator) -> None:
        self.comm = comm
        self.frames: list[str] = []
        self.closed: int | None = None

    async def next(self) -> dict:
        message = await self.comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            self.closed = message.get("code")
            return {"type": "close", "code": self.closed}
        self.frames.append(message["text"])
        return json.loads(message["text"])

    async def answer(self, frame: dict) -> str:
        """Send a frame; the outcome its answer gives (an error's code; `sync` answers
        with turn frames and then the state)."""
        await self.comm.send_json_to(frame)
        while True:
            got = await self.next()
            if got["type"] == "close":
                return f"close {got['code']}"
            if got["type"] in ("error", "chat_error"):
                return f"{got['type']} {got['code']}"
            if frame["type"] == "sync" and got["type"] == "turn":
                continue
            return got["type"]


async def open_socket(people, role, scene, path) -> tuple[Probe | None, str]:
    from cargosite.asgi import application

    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    cookie = await database_sync_to_async(people.session_cookie)(role, scene)
    if cookie:
        headers.append((b"cookie", cookie))
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    if not connected:
        return None, f"close {code}"
    probe = Probe(comm)
    first = await probe.next()
    if first["type"] == "close":  # refused: accepted, then closed with its code
        return None, f"close {first['code']}"
    return probe, first["type"]


def expected(socket: str, scenario: str, role: str) -> dict[str, str]:
    return {r.message: r.outcome(role) for r in matrix.SOCKETS
            if r.socket == socket and r.scenario == scenario}


async def run_game_cells(people, scenario: str, role: str) -> tuple[dict[str, str], list]:
    from tests.permissions.world import build

    outcomes: dict[str, str] = {}
    leaks = []

    async def session(messages, make_frame):
        scene = await database_sync_to_async(build)(scenario, people)
        probe, opened = await open_socket(people, role, scene, f"/ws/game/{scene.game_id}/")
        if "connect" in messages:
            outcomes["connect"] = opened
        for message in messages:
            if message == "connect":
                continue
            if probe is None:
                outcomes[message] = opened
                continue
            frame = await database_sync_to_async(make_frame)(message, scene)
            outcomes[message] = await probe.answer(frame)
        if probe is not None:
            await probe.comm.disconnect()
            leaks.extend(s for s in scene.secrets for f in probe.frames if s in f)

    def frame_for(message, scene):
        if message == "ping":
            return {"type": "ping"}
        if message == "sync":
            return {"type": "sync", "after": 0}
        if message == "turn":
            return {"type": "turn", "ply": scene.ply(), "token": scene.player_token()}
        if message == "queue":
            return {"type": "queue", "key": "1.3", "steps": [">"]}
        if message == "resign":
            return {"type": "resign", "ply": scene.ply()}
        if message == "spectators":
            return {"type": "spectators"}
        if message == "abort":
            return {"type": "abort"}
        if message == "claim":
            return {"type": "claim", "result": "win"}
        if message == "chat":
            return {"type": "chat", "text": "good game"}
        if message == "chat_sync":
            return {"type": "chat_sync", "after": {}}
        if message == "chat_mute":
            return {"type": "chat_mute", "name": "max", "mute": True}
        if message == "chat_report":
            return {"type": "chat_report", "room": "players", "seq": 99}
        return {"type": "no-such-frame"}

    await session(["connect", "ping", "sync", "queue", "spectators", "chat", "chat_sync",
                   "chat_mute", "chat_report", "unknown"], frame_for)
    await session(["abort"], frame_for)
    await session(["claim"], frame_for)
    await session(["turn"], frame_for)  # each write in a scene of its own
    await session(["resign"], frame_for)
    return outcomes, leaks


CELLS = [(s, role) for s in GAME_SCENARIOS for role in matrix.ROLES
         if not (role == "opponent" and s in matrix.NO_OPPONENT)]


@pytest.mark.asyncio
@pytest.mark.parametrize("scenario,role", CELLS, ids=[f"{s} {r}" for s, r in CELLS])
async def test_each_role_gets_its_answer(scenario, role, live_people):
    outcomes, leaks = await run_game_cells(live_people, scenario, role)
    assert outcomes == expected("game", scenario, role)
    assert leaks == [], "secrets in frames"


@pytest.mark.asyncio
@pytest.mark.parametrize("role", matrix.ROLES)
async def test_the_lobby_socket(role, live_people):
    from tests.permissions.world import Scene

    scene = Scene("site")
    outcomes = {}
    probe, outcomes["connect"] = await open_socket(live_people, role, scene, "/ws/lobby/")
    assert probe is not None
    outcomes["ping"] = await probe.answer({"type": "ping"})
    outcomes["unknown"] = await probe.answer({"type": "turn", "ply": 0, "token": "a"})
    await probe.comm.disconnect()
    assert outcomes == expected("lobby", "site", role)


@pytest.mark.asyncio
@pytest.mark.parametrize("role", [r for r in matrix.ROLES if r != "opponent"])
async def test_the_tournament_socket(role, live_people):  # no opponent: matrix.NO_OPPONENT
    from tests.permissions.world import build

    scene = await database_sync_to_async(build)("tournament", live_people)
    path = f"/ws/tournament/{scene.kwargs['tournament_id']}/"
    outcomes = {}
    probe, outcomes["connect"] = await open_socket(live_people, role, scene, path)
    assert probe is not None
    outcomes["ping"] = await probe.answer({"type": "ping"})
    outcomes["sync"] = await probe.answer({"type": "sync"})
    outcomes["unknown"] = await probe.answer({"type": "turn", "ply": 0, "token": "a"})
    await probe.comm.disconnect()
    assert outcomes == expected("tournament", "tournament", role)
    assert [s for s in scene.secrets for f in probe.frames if s in f] == []


@pytest.mark.asyncio
@pytest.mark.parametrize("role", matrix.ROLES)
async def test_the_tournaments_list_socket(role, live_people):
    from tests.permissions.world import Scene

    scene = Scene("site")
    outcomes = {}
    probe, outcomes["connect"] = await open_socket(live_people, role, scene, "/ws/tournaments/")
    assert probe is not None
    outcomes["ping"] = await probe.answer({"type": "ping"})
    outcomes["sync"] = await probe.answer({"type": "sync"})
    outcomes["unknown"] = await probe.answer({"type": "turn", "ply": 0, "token": "a"})
    await probe.comm.disconnect()
    assert outcomes == expected("tournaments", "site", role)
