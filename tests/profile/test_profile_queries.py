"""A profile with 2,000 games renders in a bounded number of queries: the same number as a
profile with a handful (the page reads aggregates and a page of rows, never every game).

The 2,000 games' rows are the finish seam's own: a win and a loss resigned through the
services, then copied in bulk (`Plays.copies`: the game, its seats, stats and rating changes,
only the id changed). Resigning all 1,998 through the services took 250 s on a slow machine
and tested nothing the two resigned games do not (issue #43)."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import GameStats

pytestmark = pytest.mark.django_db

# A visitor: the member with their Player row, the two rating histories, the record by mode,
# the totals, the other game types' rows (Cargo Express's places and picks), the streaks'
# rows, the cabinet, the opponents, the recent games and their seats (docs/profiles.md). A
# signed-in member adds the session, their user, the head-to-head against them and the
# header bell's unread count (notifications.context).
VISITOR_QUERIES = 13  # 11, + the tournament results and their totals (two, whatever the history)
SIGNED_IN_QUERIES = 18  # + the header's "waiting" count and the bell's unread count (#29)


def queries_for(client, url):
    from accounts import bots

    bots.bot_accounts()  # the BOT accounts' map: read once per process, then held (cached)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


def test_a_profile_with_2000_games_renders_in_a_bounded_number_of_queries(users, play,
                                                                           client):
    alice, bob = users["alice"], users["bob"]
    play.game(alice, bob, seed=3)
    play.bot(alice)
    carol = users["carol"]
    signed_in = Client()
    signed_in.force_login(carol)
    play.game(alice, carol, seed=5)
    few, _ = queries_for(client, "/@/alice")
    few_signed_in, _ = queries_for(signed_in, "/@/alice")
    games, _ = queries_for(client, "/@/alice/games")

    wins = GameStats.objects.filter(user=alice, outcome="win").count()
    won = play.resign(alice, bob)
    lost = play.resign(bob, alice, loser_seat=0)
    play.copies(won, 998)
    play.copies(lost, 998)
    assert GameStats.objects.filter(user=alice).count() == 2001
    assert GameStats.objects.filter(user=alice, outcome="win").count() == wins + 999

    many, response = queries_for(client, "/@/alice")
    assert many == few == VISITOR_QUERIES
    assert "2001 shifts counted" in response.content.decode()
    many_signed_in, response = queries_for(signed_in, "/@/alice")
    assert many_signed_in == few_signed_in == SIGNED_IN_QUERIES
    assert "against alice" in response.content.decode()
    assert queries_for(client, "/@/alice/games?page=40")[0] == games
