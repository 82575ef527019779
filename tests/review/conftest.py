"""Review tests share the live-play fixtures (users alice, bob, carol; sockets). Site-level
tests review with a small node budget (`quick_review`), so that they run in a moment; the
engine-level tests use the review's real budget."""

import functools

import pytest

from engine import review as engine_review
from games.kinds import cargo_connect
from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.games.conftest import (  # noqa: F401  (fixtures)
    close_live_db_threads,
    connect,
    session_cookie,
    users,
)
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out


@pytest.fixture
def quick_review(monkeypatch):
    """Review with depth 4 and 4000 nodes a turn in site-level tests."""
    monkeypatch.setattr(cargo_connect, "review_game",
                        functools.partial(engine_review.review_game, depth=4, budget=4000))
    monkeypatch.setattr(cargo_connect, "analyse",
                        functools.partial(engine_review.analyse, depth=3, budget=3000))


@pytest.fixture
def finished(users, quick_review, eager):  # noqa: F811
    """A finished 5×5 game, alice Blue and bob Orange, played out by the scripted tokens
    (tests that run the review's task commit: `django_db(transaction=True)`)."""
    game = new_game(users["alice"], users["bob"], size=5)
    return play_out(game, scripted_tokens(5), users["alice"], users["bob"])
