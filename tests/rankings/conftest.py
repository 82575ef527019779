"""Rankings tests: members, and the test-only Bid kind (tests/platform/bid_kind.py) rated
by OpenSkill, registered for one test; the browser tests' server and Chromium
(tests/browser/conftest.py) for the pages' screenshots."""

import pytest
from django.contrib.auth import get_user_model

from games.actors import Actor
from games.kinds import get_kind
from tests.browser.conftest import asgi_server, chromium_path, live_url  # noqa: F401
from tests.platform.bid_kind import Bid
from tests.platform.conftest import registered

NAMES = ("alice", "bob", "carol", "dave")


class RatedBid(Bid):
    """Bid, 2-4 seats, its rated online games rated by OpenSkill's Plackett-Luce."""

    rating_method = "openskill"


@pytest.fixture
def users(db):
    User = get_user_model()
    return {n: User.objects.create_user(n, f"{n}@example.com", "a-long-cargo-pass")
            for n in NAMES}


@pytest.fixture
def rated_bid():
    yield from registered(RatedBid())


def play_bids(services, users, bids, rated=True):
    """A one-round Bid game between these members (name -> bid digit), played to its end
    through the services; the finished game. Equal bids score nothing, so equal digits
    make shared places."""
    names = list(bids)
    game = services.create_game(game_type="bid", options={"rounds": 1}, rated=rated,
                                seats=[Actor.member(users[n]) for n in names])
    assert get_kind("bid").rating_method == "openskill"
    for name in names:
        services.apply_turn(game.id, actor=Actor.member(users[name]), ply=0,
                            token=f"b{bids[name]}")
    return services.get_game(game.id)
