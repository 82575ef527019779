"""A reload keeps the clock: the page's state says how much time each player has left now
and whose clock runs, from the game row, however often it is loaded."""

import json
import re

import pytest

from tests.clocks.support import pass_time, play, start, timed_game

pytestmark = pytest.mark.django_db


def page_state(client, game_id):
    html = client.get(f"/g/{game_id}").content.decode()
    found = re.search(r'<script id="game-state" type="application/json">(.*?)</script>', html,
                      re.S)
    assert found
    return json.loads(found[1])


def test_reloading_the_page_shows_the_running_clock_where_it_is(users, client):
    game = start(timed_game(users["alice"], users["bob"], "10+5"), users)
    play(game.id, users["alice"])  # Blue 10:05 after the increment; Orange's clock runs
    pass_time(game.id, 42)
    client.force_login(users["bob"])
    first = page_state(client, game.id)["clock"]
    assert first["running"] == [1] and first["control"]["code"] == "10+5"
    assert 600_000 - 43_000 <= first["remaining"][1] <= 600_000 - 42_000
    assert 604_000 <= first["remaining"][0] <= 605_000
    pass_time(game.id, 5)
    again = page_state(client, game.id)["clock"]
    assert again["remaining"][1] <= first["remaining"][1] - 5_000
    assert again["remaining"][0] == first["remaining"][0]  # Blue's clock stands still
    assert 'data-clocks' in client.get(f"/g/{game.id}").content.decode()
