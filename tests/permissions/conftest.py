"""Fixtures of the permission matrix: a quick password hasher (the matrix signs in hundreds
of times; the hasher is not what it tests) and the people of tests/permissions/world.py."""

import pytest

from tests.games.conftest import close_live_db_threads  # noqa: F401  (fixture)


@pytest.fixture(autouse=True)
def quick_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def people(db):
    from tests.permissions.world import make_people

    return make_people()


@pytest.fixture(autouse=True)
def lobby_pile():
    """The test-only three-seat Pile, offered in the lobby: the `table` scenario's game."""
    from games import kinds
    from tests.platform.pile_kind import LobbyPile

    kind = kinds.register(LobbyPile())
    yield kind
    kinds.unregister(kind.key)
