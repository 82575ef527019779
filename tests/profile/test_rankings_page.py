"""/rankings/: the Elo board (at least 5 rated games and one in the last 30 days), the vs
CargoBot board, tabs that other apps extend, your own rank, and a deactivated account
gone at once."""

import datetime as dt

import pytest
from django.utils import timezone

from rankings import tabs
from tests.profile.conftest import at

pytestmark = pytest.mark.django_db


def board_names(client, tab="elo"):
    response = client.get(f"/rankings/?tab={tab}")
    assert response.status_code == 200
    return [row["username"] for row in response.context["board"].rows]


def test_five_rated_games_make_a_player_eligible(users, play, client):
    alice, bob = users["alice"], users["bob"]
    for _ in range(4):
        play.resign(alice, bob)
    play.resign(alice, bob, rated=False)  # an unrated game is not a rated one
    assert board_names(client) == []
    play.resign(alice, bob)
    assert board_names(client) == ["alice", "bob"]
    html = client.get("/rankings/").content.decode()
    assert 'href="/@/alice"' in html and 'href="/@/bob"' in html


def test_a_player_needs_a_rated_game_in_the_last_30_days(users, play, client):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    long_ago = timezone.now() - dt.timedelta(days=31)
    with at(long_ago):
        for _ in range(5):
            play.resign(alice, bob)
    assert board_names(client) == []
    play.resign(alice, carol)  # alice has played lately; bob has not
    assert board_names(client) == ["alice"]


def test_a_deactivated_account_disappears_at_once(users, play, client):
    alice, bob = users["alice"], users["bob"]
    for _ in range(5):
        play.resign(alice, bob)
    assert board_names(client) == ["alice", "bob"]
    alice.is_active = False
    alice.save()
    assert board_names(client) == ["bob"]


def test_a_signed_in_player_sees_their_rank_or_what_they_need(users, play, client):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    for _ in range(5):
        play.resign(alice, bob)
    client.force_login(bob)
    you = client.get("/rankings/").context["board"].you
    assert (you["rank"], you["rating"]) == (2, bob.player.rating)
    assert "You are <strong>#2</strong>" in client.get("/rankings/").content.decode()
    client.force_login(carol)
    you = client.get("/rankings/").context["board"].you
    assert you["rank"] is None and "5 more rated online games" in you["why"]


def test_the_vs_cargobot_board(users, play, client):
    alice = users["alice"]
    for _ in range(4):
        play.bot(alice, resign=True)
    assert board_names(client, "bot") == []
    play.bot(alice, resign=True)
    assert board_names(client, "bot") == ["alice"]
    assert board_names(client, "elo") == []


def test_ranks_are_shared_by_equal_ratings(users, play, client):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    for _ in range(5):
        play.bot(alice, resign=True)
        play.bot(bob, resign=True)
    play.bot(carol, resign=True)
    rows = client.get("/rankings/?tab=bot").context["board"].rows
    assert [(r["rank"], r["username"]) for r in rows] == [(1, "alice"), (1, "bob")]


def test_the_tabs_are_a_list_other_apps_extend(client):
    tabs.register_tab(tabs.Tab("test", "Test board", 40, "rankings/_board.html",
                               lambda request: {"board": None}))
    try:
        context = client.get("/rankings/").context
        assert [t["key"] for t in context["tabs"]] == ["elo", "bot", "daily", "test"]
        assert [t["selected"] for t in context["tabs"]] == [True, False, False, False]
        assert client.get("/rankings/?tab=test").status_code == 200
    finally:
        tabs.unregister_tab("test")
    assert client.get("/rankings/?tab=test").status_code == 404
