"""The "Your turn" list (games.tables.waiting, issue #29): a member's games in progress, the ones
waiting for them first, the earliest deadline first; its page (members; a visitor is told to
sign in), the home page's section, and the header's "N waiting" on every page, counted in
one query however many games there are."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.tables.waiting import WaitingGame, waiting_count, waiting_games
from tests.clocks.support import play, start
from tests.games.support import member, new_game

pytestmark = pytest.mark.django_db


def corr(blue, orange, days):
    return new_game(blue, orange, time_control=f"{days}d")


def scene(users):
    """alice's games: three waiting for her (a 7-day and a 2-day deadline, one untimed),
    one waiting for bob, one finished."""
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    later = start(corr(alice, bob, 7), users)  # Blue (alice) to move, 7 days
    sooner = start(corr(alice, bob, 2), users)  # Blue (alice) to move, 2 days
    untimed = new_game(alice, carol)  # Blue (alice) to move, no deadline
    theirs = start(corr(bob, alice, 3), {"alice": bob, "bob": alice})  # bob is Blue, to move
    over = new_game(alice, carol)
    services.resign(over.id, actor=member(alice))
    return later, sooner, untimed, theirs, over


def test_it_lists_the_games_waiting_for_the_member_first_by_deadline(users):
    later, sooner, untimed, theirs, over = scene(users)
    items = waiting_games(users["alice"])
    assert [i.game.id for i in items] == [sooner.id, later.id, untimed.id, theirs.id]
    assert [i.waiting_for_you for i in items] == [True, True, True, False]
    first = items[0]
    assert isinstance(first, WaitingGame)
    with pytest.raises(AttributeError):
        first.waiting_for_you = False  # frozen
    game = services.get_game(sooner.id)
    assert first.deadline == game.clock_since + dt.timedelta(days=2)
    assert items[2].deadline is None  # untimed
    assert items[3].deadline is None and items[3].to_move == "bob to move"
    assert (first.opponents, first.to_move, first.url, first.kind_name, first.time_control) \
        == ("bob", "Your turn", f"/g/{sooner.id}", "Cargo Connect", "2 days per turn")
    # bob's: the one waiting for him, then the others, the newest first
    assert [i.game.id for i in waiting_games(users["bob"])] == [theirs.id, sooner.id,
                                                                later.id]
    play(sooner.id, users["alice"])  # alice decides: that game now waits for bob
    assert [i.game.id for i in waiting_games(users["alice"]) if i.waiting_for_you] == [
        later.id, untimed.id]


def test_the_count_is_one_query_however_many_games(users, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert waiting_count(users["alice"].pk) == 0
    scene(users)
    for _ in range(4):
        new_game(users["alice"], users["carol"])
    with django_assert_num_queries(1):
        assert waiting_count(users["alice"].pk) == 7
    with django_assert_num_queries(1):
        assert waiting_count(users["bob"].pk) == 1


def test_the_header_says_how_many_wait_on_every_page(users, client):
    client.force_login(users["alice"])
    html = client.get("/rankings/").content.decode()
    assert '<a class="nav-waiting" href="/games/waiting"><span class="nav-waiting-count">0' \
        '</span> waiting<span class="visually-hidden"> for you</span></a>' in html
    scene(users)
    html = client.get("/rankings/").content.decode()
    assert 'class="nav-waiting has-waiting" href="/games/waiting"><span ' \
           'class="nav-waiting-count">3</span> waiting' in html
    with CaptureQueriesContext(connection) as three:
        client.get("/rankings/")
    for _ in range(5):
        new_game(users["alice"], users["carol"])
    with CaptureQueriesContext(connection) as eight:
        html = client.get("/rankings/").content.decode()
    assert '<span class="nav-waiting-count">8</span>' in html
    assert len(eight.captured_queries) == len(three.captured_queries)  # not one per game
    client.logout()
    assert "nav-waiting" not in client.get("/rankings/").content.decode()


def test_the_page_lists_them_with_deadlines_and_asks_a_visitor_to_sign_in(users, client):
    later, sooner, untimed, theirs, over = scene(users)
    visitor = client.get("/games/waiting")
    assert visitor.status_code == 200
    assert "Sign in</a> to see yours" in visitor.content.decode()
    client.force_login(users["alice"])
    html = client.get("/games/waiting").content.decode()
    assert "3 of your 4 games in progress wait for you" in html
    assert html.index(sooner.id) < html.index(later.id) < html.index(untimed.id) \
        < html.index(theirs.id)
    assert f"/g/{over.id}" not in html
    due = services.get_game(sooner.id).clock_since + dt.timedelta(days=2)
    assert f'<time data-deadline datetime="{due.isoformat()}">' in html
    assert "Cargo Connect · 2 days per turn · due" in html


def test_the_home_page_shows_the_list_and_links_to_the_page(users, client):
    later, sooner, *_ = scene(users)
    client.force_login(users["alice"])
    html = client.get("/").content.decode()
    section = html[html.index('id="games-title"'):html.index('id="daily-title"')]
    assert section.index(sooner.id) < section.index(later.id)
    assert "<time data-deadline" in section and 'href="/games/waiting"' in section
