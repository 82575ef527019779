"""Fixtures of the reference client's tests: the BOT account an API client plays with (one
place), the members on sockets (tests/games/), fresh API limits, socket budgets lifted."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.bots import bot_since
from api.scopes import Scope
from tests.api.support import fresh_limits, member, token_for
from tests.games.conftest import (  # noqa: F401  (fixtures: people on sockets)
    close_live_db_threads,
    connect,
    session_cookie,
    users,
)


@pytest.fixture
def bot_account(db) -> Callable[[str], tuple[Any, str]]:
    """`bot_account(username)` -> (user, token): a BOT account an API bot plays with and its
    token with the `read` (streams) and `bot:play` (decisions) scopes: a new member
    upgraded through the API (`POST /api/bot/account/upgrade`) with that token, as a bot's
    author does it (docs/api.md, "BOT accounts")."""

    def made(username: str) -> tuple[Any, str]:
        user = member(username)
        token = token_for(user, Scope.READ, Scope.BOT_PLAY)
        answer = Client().post("/api/bot/account/upgrade",
                               HTTP_AUTHORIZATION=f"Bearer {token}")
        assert answer.status_code == 200, answer.content
        assert bot_since(user) is not None
        return user, token

    return made


@pytest.fixture(autouse=True)
def api_limits_fresh():
    """This minute's API counts of the loopback address forgotten (they outlive a test on
    Redis)."""
    fresh_limits()
    yield


@pytest.fixture
def no_budgets(settings, monkeypatch):
    """The people's sockets may send a Cargo Express turn a step at a time, quickly."""
    settings.LIVE_ADDRESS_UNITS_PER_SECOND = 10 ** 6
    monkeypatch.setattr("games.sockets.runtime.FRAMES_PER_SECOND", 10 ** 6)





@pytest.fixture(autouse=True)
def connections_closed_again():
    """channels.testing turns `channels.db.close_old_connections` into a no-op while a
    communicator sends or waits, with a `mock.patch` per call; two people's communicators
    waiting at once unwind those patches out of order and leave the no-op in place, so no
    later `database_sync_to_async` call would close its connection, and PostgreSQL would
    refuse to drop the test database at the end of the run. Put back after each test."""
    import channels.db

    original = channels.db.close_old_connections
    yield
    channels.db.close_old_connections = original
