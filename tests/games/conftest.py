"""Shared players and helpers for live-play tests: owner-style users (alice plays Blue, bob
plays Orange, carol watches), games made through the service, and WebSocket
communicators that sign in with a real session cookie, as a browser does."""

import importlib.util
import json
import sys
import types

import pytest

if importlib.util.find_spec("daphne") is None:
    # channels.testing/__init__ imports daphne for ChannelsLiveServerTestCase, which we do
    # not use (browser tests serve with uvicorn); WebsocketCommunicator itself needs only
    # asgiref. Stand in for the missing module rather than install Twisted.
    stub = types.ModuleType("daphne.testing")
    stub.DaphneProcess = object
    sys.modules.setdefault("daphne", types.ModuleType("daphne"))
    sys.modules.setdefault("daphne.testing", stub)

from channels.testing import WebsocketCommunicator  # noqa: E402
from django.contrib.auth import get_user_model
from django.test import Client

from games.frames import diffs
from games.sockets import runtime
from tests.games.support import ORIGIN, new_game


class StateCommunicator(WebsocketCommunicator):
    """A game socket read as the page's socket.js reads it (static/js/live/diff.js): a
    frame that carries a diff of the state (games.frames.diffs) gets its `state` rebuilt
    from the state this connection holds, checked to start from that state's `rev`; every
    other frame with a state sets the state held. The frames a test reads therefore have
    their whole state, as before issue #45; `wire` keeps each text as it came (its size is
    what the socket sent) and `held` the state the connection holds now."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.held = None
        self.wire = []

    async def receive_output(self, timeout=1):
        message = await super().receive_output(timeout)
        text = message.get("text") if message.get("type") == "websocket.send" else None
        if not isinstance(text, str):
            return message
        self.wire.append(text)
        frame = json.loads(text)
        if not isinstance(frame, dict):
            return message
        if "diff" in frame:
            assert self.held is not None and self.held.get("rev") == frame["base"], \
                ("a diff from another state", frame["base"], (self.held or {}).get("rev"))
            self.held = diffs.apply(self.held, frame.pop("diff"))
            del frame["base"]
            frame["state"] = self.held
            return {**message, "text": json.dumps(frame)}
        if isinstance(frame.get("state"), dict):
            self.held = frame["state"]
        return message


@pytest.fixture(scope="session", autouse=True)
def close_live_db_threads(django_db_setup):
    """After the last test, close the socket thread pool's connections (before the test
    database is dropped, hence the dependency on `django_db_setup`)."""
    yield
    runtime.close_db_threads()


@pytest.fixture
def users(db):
    User = get_user_model()
    return {
        name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
        for name in ("alice", "bob", "carol")
    }


@pytest.fixture
def game(users):
    """A 5×5 rated game: alice Blue, bob Orange."""
    return new_game(users["alice"], users["bob"], size=5)


@pytest.fixture
def session_cookie(users):
    """Session cookies of every test user, made before any async test body runs."""
    cookies = {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        cookies[name] = f"sessionid={client.cookies['sessionid'].value}".encode()
    return lambda name: cookies[name] if name else b""


@pytest.fixture
def connect(session_cookie):
    """`await connect(game_id, "alice")` -> a connected communicator, its first `state`
    frame already read. `origin=` overrides the Origin header."""
    from cargosite.asgi import application

    opened = []

    async def open_(path_or_id: str, name: str | None, *, origin: bytes = ORIGIN,
                    expect_state: bool = True):
        path = path_or_id if path_or_id.startswith("/") else f"/ws/game/{path_or_id}/"
        headers = [(b"origin", origin), (b"host", b"localhost")]
        cookie = session_cookie(name)
        if cookie:
            headers.append((b"cookie", cookie))
        comm = StateCommunicator(application, path, headers=headers)
        connected, code = await comm.connect()
        opened.append(comm)
        if not connected:  # refused at the handshake (the Origin check)
            comm.close_code = code
            return comm
        # A socket the consumer refuses is accepted and then closed with its code (so a
        # browser sees the code, not an HTTP 403): `connected` False, `close_code` set.
        message = await comm.receive_output(timeout=5)
        if message["type"] == "websocket.close":
            comm.close_code = message.get("code")
            return comm
        comm.connected = True
        frame = json.loads(message["text"])
        if expect_state:
            assert frame["type"] in ("state", "seeks"), frame
        comm.first = frame
        return comm

    yield open_


@pytest.fixture
def threaded_turns(monkeypatch):
    """The turns (their `ply`) that reach the threads' `apply_turn`, which the socket takes
    for whatever its event loop's path did not decide."""
    from games import services

    calls = []
    original = services.apply_turn

    def counted(*args, **kwargs):
        calls.append(kwargs["ply"])
        return original(*args, **kwargs)

    monkeypatch.setattr(services, "apply_turn", counted)
    return calls
