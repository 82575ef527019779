"""The replay and review pages are drawn by the game kind's view, like the live page: the
page is a shell that includes the kind's part (`replay_template`, `review_template`) and
loads the kind's module (`replay_module` through static/js/live/replay.js; `review_module`).
A kind without a replay view or a review has no such page: a 404 that says so, and no link
to it."""

import pytest
from django.test import Client

from games import services
from games.actors import Actor
from tests.games.support import new_game, scripted_tokens
from tests.platform.bid_kind import Bid
from tests.platform.conftest import pile_kind, registered  # noqa: F401  (fixture)
from tests.review.support import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def bid_kind():
    yield from registered(Bid())


def test_cargo_connects_replay_page_loads_its_replay_module_through_the_shell(users):
    game = play_out(new_game(users["alice"], users["bob"], size=5), scripted_tokens(5),
                    users["alice"], users["bob"])
    html = Client().get(f"/g/{game.id}/replay").content.decode()
    assert 'data-replay-module="/static/js/cargo-connect/replay.js"' in html
    assert "/static/js/live/replay.js" in html
    assert f"Replay of shift <code>{game.id}</code>" in html  # Cargo Connect's own part
    assert 'id="replay-data"' in html
    assert f'href="/g/{game.id}/review"' in html  # it reviews: the link is there


def test_cargo_connects_review_page_is_its_own_template_and_module(users):
    game = play_out(new_game(users["alice"], users["bob"], size=5), scripted_tokens(5),
                    users["alice"], users["bob"])
    html = Client().get(f"/g/{game.id}/review").content.decode()
    assert f"Review of shift <code>{game.id}</code>" in html
    assert 'src="/static/js/cargo-connect/review.js"' in html


def test_a_kind_without_a_review_has_no_review_page_and_no_link(bid_kind, users):
    game = services.create_game(game_type="bid", options={"rounds": 1},
                                seats=[Actor.member(users[n]) for n in ("alice", "bob")])
    for name in ("alice", "bob"):
        services.apply_turn(game.id, actor=Actor.member(users[name]), ply=0, token="b1")
    client = Client()
    for method in ("get", "post"):
        response = getattr(client, method)(f"/g/{game.id}/review")
        assert response.status_code == 404
        assert "Bid games have no review." in response.content.decode()
    replay = client.get(f"/g/{game.id}/replay").content.decode()
    assert "/review" not in replay
    assert 'data-replay-module="/static/js/bid/replay.js"' in replay  # its own, test-only
    assert "/review" not in client.get(f"/g/{game.id}").content.decode()


def test_a_kind_without_a_replay_view_says_so(pile_kind, users):  # noqa: F811
    game = services.create_game(game_type="pile", options={"counters": 11},
                                seats=[Actor.member(users[n]) for n in ("alice", "bob", "carol")])
    response = Client().get(f"/g/{game.id}/replay")
    assert response.status_code == 404
    assert "Pile games have no replay page" in response.content.decode()
    assert Client().get(f"/g/{game.id}/replay.json").status_code == 200  # the data still answers


def test_the_test_only_views_never_ship(run_python):
    """The Bid kind's view is found by the test run only: production's settings (a fresh
    process) find neither its module nor its template, so collectstatic never copies them."""
    found = run_python(
        "import django; django.setup()\n"
        "from django.contrib.staticfiles import finders\n"
        "from django.template import TemplateDoesNotExist, loader\n"
        "print(finders.find('js/bid/view.js'), finders.find('js/bid/replay.js'))\n"
        "try:\n"
        "    loader.get_template('games/bid/view.html'); print('template found')\n"
        "except TemplateDoesNotExist:\n"
        "    print('no template')\n")
    assert found.returncode == 0, found.stderr
    assert found.stdout.split("\n")[:2] == ["None None", "no template"]
    from django.contrib.staticfiles import finders

    assert finders.find("js/bid/view.js")  # while the test run finds it
