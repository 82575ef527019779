"""The database not answering (PostgreSQL restarting): a page gets a 503 that says so with
Retry-After, a JSON client the live protocol's `unavailable` error, a socket one
`unavailable` frame and a close with 1013 (a socket that opens meanwhile is refused with
1013 too); one log line each, no traceback. scripts/faults.py restarts a real PostgreSQL."""

import logging

import psycopg
import pytest
from django.db import OperationalError
from django.test import Client

import cargosite.asgi  # noqa: F401  (the served app: installs cargosite.logs' filters)
from games import services
from games.fast import loopdb
from games.models import Turn
from tests.games.support import scripted_tokens

REFUSED = "connection failed: connection to server at \"127.0.0.1\", port 5432 failed: " \
          "Connection refused\n\tIs the server running on that host?"


def down(*args, **kwargs):
    raise OperationalError(REFUSED)


async def loop_connection_down(sql, params):
    """The event loop's write (games.fast.loopdb) meets the same outage as the threads."""
    raise psycopg.OperationalError(REFUSED)


@pytest.fixture
def fresh_log_limit():
    """The request log's database filter lets one line through every 10 s: start afresh."""
    from cargosite.logs import DatabaseDown

    for found in logging.getLogger("django.request").filters:
        if isinstance(found, DatabaseDown):
            found.last = float("-inf")


@pytest.mark.django_db
def test_a_page_answers_503_saying_the_database_is_not_answering(game, monkeypatch, caplog,
                                                                  fresh_log_limit):
    monkeypatch.setattr(services, "get_game", down)
    with caplog.at_level(logging.WARNING):
        response = Client(raise_request_exception=False).get(f"/g/{game.id}")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "The database is not answering; nothing was changed." in response.content.decode()
    lines = [r for r in caplog.records if r.name == "django.request"]
    assert len(lines) == 1 and not lines[0].exc_info
    assert "OperationalError" in lines[0].getMessage()


@pytest.mark.django_db
def test_a_json_client_gets_the_unavailable_error(game, users, monkeypatch):
    client = Client(raise_request_exception=False)
    client.force_login(users["alice"])
    monkeypatch.setattr(services, "apply_turn", down)
    response = client.post(f"/g/{game.id}/turn", {"ply": "0", "token": scripted_tokens(5)[0]},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response.json()["type"] == "error" and response.json()["code"] == "unavailable"
    assert not Turn.objects.filter(game_id=game.id).exists()


@pytest.mark.django_db
def test_any_other_failure_is_still_a_500(game, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(services, "get_game", broken)
    response = Client(raise_request_exception=False).get(f"/g/{game.id}")
    assert response.status_code == 500


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_gets_unavailable_then_a_close_to_come_back_later(
        game, connect, monkeypatch, caplog):
    alice = await connect(game.id, "alice")
    monkeypatch.setattr(services, "apply_turn", down)
    monkeypatch.setattr(loopdb, "execute", loop_connection_down)
    with caplog.at_level(logging.WARNING):
        await alice.send_json_to({"type": "turn", "ply": 0, "token": scripted_tokens(5)[0]})
        frame = await alice.receive_json_from(timeout=5)
        assert (frame["type"], frame["code"]) == ("error", "unavailable")
        closed = await alice.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 1013}
    lines = [r for r in caplog.records if r.name == "games.sockets.runtime"]
    assert len(lines) == 1 and not lines[0].exc_info and "1013" in lines[0].getMessage()


async def open_socket(game_id, cookie):
    """(accepted, close code): a refused socket is accepted, then closed with its code."""
    from channels.testing import WebsocketCommunicator

    from cargosite.asgi import application
    from tests.games.support import ORIGIN

    comm = WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=[
        (b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookie)])
    accepted, code = await comm.connect(timeout=5)
    if accepted:
        message = await comm.receive_output(timeout=5)
        code = message.get("code") if message["type"] == "websocket.close" else None
    return accepted, code


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_opened_while_the_database_is_down_is_refused_with_1013(
        game, session_cookie, monkeypatch):
    monkeypatch.setattr(services, "get_game", down)
    assert await open_socket(game.id, session_cookie("carol")) == (True, 1013)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_handshake_that_cannot_read_the_session_is_refused_with_1013(
        game, session_cookie, monkeypatch, caplog):
    import channels.auth

    cookie = session_cookie("carol")
    monkeypatch.setattr(channels.auth, "get_user", down)  # the session's user, read at handshake
    with caplog.at_level(logging.WARNING):
        assert await open_socket(game.id, cookie) == (True, 1013)
    lines = [r for r in caplog.records if r.name == "cargosite.unavailable"]
    assert len(lines) == 1 and not lines[0].exc_info
