"""Tasks sent by the tournaments (`tournaments.advance` after a round's last game ends) run
in-process in these tests, as in the embedded default, whatever REDIS_URL says: with Redis
they would wait in the broker for a worker that the tests do not run."""

import pytest

from tests.games.bot_support import eager  # noqa: F401  (fixture)


@pytest.fixture(autouse=True)
def tasks_in_process(eager):  # noqa: F811
    return eager
