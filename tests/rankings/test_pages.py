"""The rankings board per game type (`?type=`, Cargo Connect by default, so /rankings/ and
its tabs are as they were) and the profile's card per rating a member has."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import kinds, services
from rankings import boards
from tests.rankings.conftest import play_bids

pytestmark = pytest.mark.django_db


def five_bid_games(users):
    for i in range(5):
        play_bids(services, users, {"alice": 9, "bob": 5, "carol": (3 + i) % 10})


def test_the_board_of_a_game_type_rated_by_openskill(users, rated_bid, client):
    five_bid_games(users)
    response = client.get("/rankings/?tab=elo&type=bid")
    assert response.status_code == 200
    board = response.context["board"]
    assert board.title == "Bid: Rating"
    assert [r["username"] for r in board.rows] == ["alice", "carol", "bob"]
    assert all(r["games"] == 5 for r in board.rows)
    html = response.content.decode()
    assert 'data-type="bid"' in html and 'data-type="cargo-connect"' in html
    assert 'class="provisional"' in html  # five games: still uncertain

    # Cargo Connect's boards, the default, have nobody; a type the site lacks is a 404
    assert client.get("/rankings/").context["board"].rows == []
    assert client.get("/rankings/?tab=bot&type=bid").context["board"].rows == []
    assert client.get("/rankings/?tab=elo&type=chess").status_code == 404


def test_with_one_game_type_there_is_no_switch(users, client):
    # the site has two (Cargo Connect and Cargo Express): the switch names both
    html = client.get("/rankings/").content.decode()
    assert 'aria-label="Game type"' in html and "Cargo Express" in html
    express = kinds.get_kind("cargo-express")
    kinds.unregister("cargo-express")
    try:
        html = client.get("/rankings/").content.decode()
    finally:
        kinds.register(express)
    assert 'aria-label="Game type"' not in html


def test_the_profile_shows_each_types_ratings_a_member_has(users, rated_bid, client):
    play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5})
    page = client.get("/@/alice")
    cards = {c["key"]: c for c in page.context["ratings"]}
    assert list(cards) == ["elo", "bot", "bid-openskill"]
    bid = cards["bid-openskill"]
    assert bid["label"] == "Bid: Rating" and bid["games"] == 1 and bid["provisional"]
    assert bid["rating"] > 1200 and bid["chart"] is not None
    assert (cards["elo"]["rating"], cards["elo"]["games"]) == (1200, 0)
    assert 'data-rating="bid-openskill"' in page.content.decode()
    dave = {c["key"] for c in client.get("/@/dave").context["ratings"]}
    assert dave == {"elo", "bot"}  # Cargo Connect's always; no other type without a game


def test_the_board_reads_one_type_by_its_index(users, rated_bid):
    five_bid_games(users)
    eligible = boards._eligible(boards.ELO, "bid", timezone.now())
    plan = eligible.select_related("user").order_by("-value", "user__username")[:50].explain()
    assert "rankings_rating_board" in plan, plan  # SQLite here; docs/ratings.md: PostgreSQL
    with CaptureQueriesContext(connection) as queries:
        boards.elo_board(game_type="bid")
    assert len(queries.captured_queries) == 1
