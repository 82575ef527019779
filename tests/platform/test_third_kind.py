"""A third game needs no line changed outside its own files (issue #44, point 3): a
test-only kind, registered here (Bid, three seats, hidden simultaneous bids, rated by
OpenSkill, with a How to play page), gets the lobby's seek form, a table that fills and
starts its game, the game played to its end, its ratings board on the rankings page, a
card on each member's profile, its How to play page, and its Play section on a member's
home and its card on the landing page, all from the registry and the kind's attributes."""

import re
from typing import Any

import pytest
from django.test import Client

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.models import Game
from tests.platform.bid_kind import Bid
from tests.platform.conftest import registered
from tests.rankings.conftest import NAMES

pytestmark = pytest.mark.django_db


class ThirdGame(Bid):
    """Bid as a game the site would host: offered in the lobby, rated by OpenSkill, with
    How to play and a part of the home page (tests/platform/web/templates/games/bid/:
    howto.html, home_play.html, home_hero.html)."""

    in_lobby = True
    rating_method = "openskill"
    howto_template = "games/bid/howto.html"
    home_play_template = "games/bid/home_play.html"
    home_hero_template = "games/bid/home_hero.html"

    def howto(self) -> dict[str, Any]:
        return {"rule": "Bid a digit in secret; the highest different bid scores it.",
                "digits": list(range(10))}


@pytest.fixture
def third():
    yield from registered(ThirdGame())


@pytest.fixture
def members(django_user_model):
    return {n: django_user_model.objects.create_user(n, f"{n}@example.com", "a-long-cargo-pass")
            for n in NAMES[:3]}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def part(html: str, heading_id: str) -> str:
    """The home page's <section> or <article> labelled by the heading `heading_id`."""
    found = re.search(rf'<(article|section)[^>]*aria-labelledby="{heading_id}".*?</\1>', html,
                      re.S)
    assert found, heading_id
    return found.group(0)


def test_a_registered_game_gets_every_page_of_the_site(third, members):
    alice, bob, carol = members["alice"], members["bob"], members["carol"]

    # The lobby offers its seek form, with its seat counts and options from the kind.
    lobby = signed_in(alice).get("/play/?game=bid")
    assert lobby.status_code == 200
    assert lobby.context["kind"] is get_kind("bid")
    assert "bid" in [k["key"] for k in lobby.context["kinds"]]

    # A table of three, rated, fills and starts its game.
    table = services.create_challenge(alice, options={"rounds": 1}, game_type="bid",
                                      seats=3, time_control="10+5")
    assert services.join_table(Actor.member(bob), table.id) is None
    game = services.join_table(Actor.member(carol), table.id)
    assert game is not None and game.game_type == "bid" and game.rated

    # The game page draws the kind's view, and the game is played to its end.
    page = signed_in(alice).get(f"/g/{game.id}")
    assert page.status_code == 200
    assert "games/bid/view.html" in [t.name for t in page.templates]
    bids = {"alice": 9, "bob": 5, "carol": 2}
    for seat in Game.objects.get(id=game.id).seat_list:
        name = seat.user.username
        services.apply_turn(game.id, actor=Actor.member(seat.user), ply=0,
                            token=f"b{bids[name]}")
    assert services.get_game(game.id).status == Game.Status.FINISHED

    # Its ratings board, on the rankings page's switch between games.
    rankings = Client().get("/rankings/?tab=elo&game=bid")
    assert rankings.status_code == 200
    assert rankings.context["board"].title == "Bid: Rating"
    assert "bid" in [t["key"] for t in rankings.context["game_types"]]

    # A card on the profile of each member who played it.
    cards = {c["key"]: c for c in Client().get("/@/alice").context["ratings"]}
    assert cards["bid-openskill"]["games"] == 1
    assert cards["bid-openskill"]["label"] == "Bid: Rating"

    # Its How to play page, drawn from the kind's template and examples.
    howto = Client().get("/how-to-play/bid")
    assert howto.status_code == 200
    html = howto.content.decode()
    assert "How to play Bid" in html and "the highest different bid scores it" in html
    assert html.count("<li>") >= 10


@pytest.fixture
def plain_bid():
    yield from registered(Bid())  # no howto_template


def test_a_game_without_a_how_to_play_page_says_so(plain_bid):
    response = Client().get("/how-to-play/bid")
    assert response.status_code == 404
    assert "Bid has no How to play page" in response.content.decode()
    assert Client().get("/how-to-play/no-such-game").status_code == 404


def test_a_registered_game_gets_its_part_of_the_home_page(third, members):
    # A member's Play box: its section, from its template, after the default game's.
    html = signed_in(members["alice"]).get("/").content.decode()
    bid = part(html, "play-bid-title")
    assert re.search(r'<h2 id="play-bid-title"[^>]*>Bid <span class="muted">· 2 to 4 '
                     r'players</span></h2>', bid)
    assert '<a class="button button-small" href="/play/?game=bid">Open a table of Bid</a>' \
        in bid
    assert "<li>Bot Easy</li>" in bid  # its bots, named by the kind
    # in the Play box (before the games in progress), the default game first, then by name
    assert html.index('id="play-title"') < html.index('id="play-connect-title"') \
        < html.index('id="play-bid-title"') < html.index('id="play-express-title"') \
        < html.index('id="games-title"')

    # The visitor's landing page: its card in the hero, beside the others.
    landing = Client().get("/").content.decode()
    card = part(landing, "hero-bid")
    assert '<h2 id="hero-bid">Bid</h2>' in card
    assert 'href="/play/?game=bid">Play Bid now</a>' in card
    assert landing.index('id="hero-connect"') < landing.index('id="hero-bid"')


def test_a_game_without_home_templates_has_no_part_of_the_home_page(plain_bid, members):
    html = signed_in(members["alice"]).get("/").content.decode()
    assert 'id="play-connect-title"' in html and 'id="play-express-title"' in html
    assert "play-bid" not in html and "?game=bid" not in html
    landing = Client().get("/").content.decode()
    assert 'id="hero-connect"' in landing and 'id="hero-express"' in landing
    assert "hero-bid" not in landing and "?game=bid" not in landing
