"""What the whole-game tests of the reference client share: the site served over real
HTTP by uvicorn on the test's own event loop (so the sockets' communicators, the server and
the channel layer share one loop, and the client, a blocking program, runs in a thread
beside it), and people who play their seats on sockets with a simple legal choice.

On SQLite the test database is in memory, shared between connections, where a write that
meets another connection's is refused at once ("database table is locked") instead of
waiting. The sockets therefore run every database call on Channels' one thread there
(`games.sockets.runtime.db`); Django's ASGI handler gives each HTTP request a thread of its
own (`ThreadSensitiveContext`), so the API's decisions, sent while people play on sockets,
would meet the sockets' writes. Served here on SQLite, requests share that one thread too,
as the sockets do; on PostgreSQL nothing is changed."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, nullcontext
from typing import Any
from unittest import mock

import uvicorn
from django.db import connection

from tests.games.bot_support import human_token

FRAME_WAIT = 60  # seconds a person waits for the next frame before the test fails


@asynccontextmanager
async def served_site() -> AsyncIterator[str]:
    """The site's ASGI application served on a free loopback port; its address."""
    from cargosite.asgi import application

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(application, lifespan="off", log_level="warning",
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    one_thread = mock.patch("django.core.handlers.asgi.ThreadSensitiveContext",
                            nullcontext) if connection.vendor == "sqlite" else nullcontext()
    with one_thread:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            server.should_exit = True
            await task
            sock.close()


def over(state: dict[str, Any]) -> bool:
    return state.get("status", "active") != "active" or bool(state.get("over"))


def express_choice(state: dict[str, Any]) -> str:
    """A person's Cargo Express decision from their own state: the first character left,
    the usable cards first, a turn a step at a time (end as soon as it may), the first swap."""
    legal, phase = state["legal"], state["phase"]
    if phase == "pick":
        return str(legal["picks"][0])
    if phase == "plan":
        usable = list(legal["usable"])
        return "".join((usable + [c for c in legal["hand"] if c not in usable])[:3])
    if phase == "swap":
        return str(legal["swaps"][0]["token"])
    if legal.get("sign"):
        return str(legal["sign"][0])
    return "end" if legal.get("end") else str(legal["steps"][0])


def connect_choice(state: dict[str, Any]) -> str:
    return human_token(state)


async def person_plays(comm: Any, seat: int, choose: Callable[[dict[str, Any]], str]) -> int:
    """The seat's person plays on their socket until the game is over: whenever their state
    says they are acting with a decision number not yet sent, they send `choose(state)`.
    The decisions they sent."""
    state = comm.first["state"]
    sent = -1
    count = 0
    while not over(state):
        seqs = state.get("seqs")
        number = seqs[seat] if seqs else state["ply"]
        if seat in state["acting"] and number > sent:
            await comm.send_json_to({"type": "turn", "ply": number, "token": choose(state)})
            sent, count = number, count + 1
        frame = json.loads(await comm.receive_from(timeout=FRAME_WAIT))
        assert frame["type"] not in ("error", "turn_error"), frame
        if isinstance(frame.get("state"), dict):
            state = frame["state"]
    return count
