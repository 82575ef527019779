"""Scaled scores and margins: score × 64 ÷ size², rounded half away from zero, shown as
`42 (+7)` and `31 (−4)`; they come only from the server's replay."""

import pytest

from games import services
from games.actors import Actor
from puzzles.daily import services as daily
from rankings import monthly as boards
from rankings.models import DailyBoardEntry
from tests.daily.conftest import pacific, play_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("points,size,expected", [
    (42, 8, 42.0), (20, 5, 51.2), (9, 6, 16.0), (49, 7, 64.0), (-3, 6, -5.333333333333333),
])
def test_scaled_to_an_8x8_bay(points, size, expected):
    assert boards.scaled(points, size) == pytest.approx(expected)


def test_equal_fractions_tie_exactly():
    assert boards.scaled(25, 5) == boards.scaled(64, 8) == boards.scaled(49, 7)
    assert boards.scaled(9, 6) == boards.scaled(16, 8)


@pytest.mark.parametrize("score,margin,text", [
    (42, 7, "42 (+7)"), (31, -4, "31 (\u22124)"), (41.5, 6.5, "42 (+7)"),
    (30.5, -3.5, "31 (\u22124)"), (51.2, 0, "51 (\u00b10)"), (16.4, -1.28, "16 (\u22121)"),
])
def test_shown_rounded(score, margin, text):
    assert boards.shown(score, margin) == text


def test_a_ranked_result_is_scaled_from_the_servers_scores(frozen, users, eager, client):
    frozen.set(pacific(2026, 3, 10, 8, 0))  # Tuesday: 6×6
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "medium")
    play_out(game.id, alice)
    me, bot = services.get_game(game.id).seat_list
    entry = DailyBoardEntry.objects.get(game_id=game.id)
    assert (entry.size, entry.score, entry.margin) == (6, me.score, me.score - bot.score)
    assert entry.scaled_score == me.score * 64 / 36
    client.force_login(users["alice"])
    page = client.get("/puzzles/daily/").content.decode()
    assert boards.shown(entry.scaled_score, entry.scaled_margin) in page
