"""The lobby lists each table with its host's online rating of the table's game type
(issue #25, ratings per game type): a Bid table shows the host's Bid rating, a Cargo
Connect table their Cargo Connect Elo; the list reads the ratings in one query per game
type, not one per table."""

import pytest

from games import services
from games.tables import lobby
from tests.rankings.support import set_rating

pytestmark = pytest.mark.django_db


def test_a_table_shows_its_hosts_rating_of_its_game_type(users, rated_bid,
                                                         django_assert_num_queries):
    alice, bob = users["alice"], users["bob"]
    set_rating(alice, "elo", 1300, 12)
    set_rating(alice, "openskill", 1351, 4, game_type="bid", mu=29.1, sigma=6.0)
    set_rating(bob, "elo", 1111, 3)
    bid = services.create_challenge(alice, game_type="bid", options={"rounds": 1},
                                    time_control="", seats=3)
    cc = services.create_challenge(alice, options={"size": 6})
    cc_bob = services.create_challenge(bob, options={"size": 6})
    carol = services.create_challenge(users["carol"], game_type="bid",
                                      options={"rounds": 1}, time_control="", seats=3)
    assert lobby.seek_info(bid)["rating"] == 1351
    assert lobby.seek_info(cc)["rating"] == 1300
    assert lobby.seek_info(carol)["rating"] == 1200  # no Bid rating yet: the start
    tables = [bid, cc, cc_bob, carol]
    with django_assert_num_queries(2):  # one per game type
        ratings = lobby.creator_ratings(tables)
    assert [lobby.seek_info(t, ratings)["rating"] for t in tables] == [1351, 1300, 1111, 1200]
