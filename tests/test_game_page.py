"""The game, replay and How to play templates render without JavaScript (no browser)."""

import json
import re
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.test import RequestFactory

from engine import Game
from engine.describe import describe


def site_state(game: Game, you="blue"):
    state = describe(game)
    state.update(id="k3J9xQ2mVa", v=1, status="finished" if game.over else "active",
                 players={"blue": {"name": "alice", "rating": 1216, "bot": None},
                          "orange": {"name": "bob", "rating": 1190, "bot": None}},
                 you=you, turns=list(game.tokens), resigned=None, rematch=None)
    return state


def render_game(state, **extra):
    request = RequestFactory().get("/g/k3J9xQ2mVa")
    request.user = SimpleNamespace(is_authenticated=False)
    context = {
        "game": SimpleNamespace(id="k3J9xQ2mVa"),
        "state": state,
        "state_json": json.dumps(state),
        "ws_path": "/ws/game/k3J9xQ2mVa/",
        "turn_url": "/g/k3J9xQ2mVa/turn",
        "resign_url": "/g/k3J9xQ2mVa/resign",
        "events_url": "/g/k3J9xQ2mVa/events",
        "record_url": "/g/k3J9xQ2mVa.ccn",
        "rematch_url": "/g/k3J9xQ2mVa/rematch",
        "csrf_token": "tok3n",
        "view_template": "games/cargo-connect/view.html",
        "view_module": "js/cargo-connect/view.js",
        **extra,
    }
    return render_to_string("games/game.html", context, request=request)


def embedded(html, element_id):
    pattern = rf'<script id="{element_id}" type="application/json">(.*?)</script>'
    match = re.search(pattern, html, re.S)
    assert match, f"no json_script #{element_id}"
    return json.loads(match.group(1))


def test_it_embeds_the_state_and_the_transport_urls():
    game = Game.new(6)
    for token in "a b a b a b".split():
        game.play(token)
    html = render_game(site_state(game))
    state = embedded(html, "game-state")
    assert state["ply"] == 6 and state["you"] == "blue"
    assert state["options"]["a"]["unloads"] == [["a1a2a3a4", "I", 6]]
    assert 'data-ws-path="/ws/game/k3J9xQ2mVa/"' in html
    assert 'data-turn-url="/g/k3J9xQ2mVa/turn"' in html
    assert 'data-events-url="/g/k3J9xQ2mVa/events"' in html
    assert 'data-csrf="tok3n"' in html
    assert 'href="/g/k3J9xQ2mVa.ccn"' in html
    assert 'href="/how-to-play"' in html
    assert "js/live/game.js" in html and "css/game.css" in html
    assert 'data-view-module="/static/js/cargo-connect/view.js"' in html


def test_it_accepts_a_pre_encoded_state_json_string():
    game = Game.new(5)
    html = render_game(None, state_json=json.dumps(site_state(game, you=None)))
    # json_script of a JSON string: the page decodes it twice (panels.js readJson).
    assert json.loads(embedded(html, "game-state"))["size"] == 5


def test_it_escapes_names_in_the_embedded_state():
    game = Game.new(5)
    state = site_state(game)
    state["players"]["blue"]["name"] = "</script><b>x"
    html = render_game(state)
    assert "</script><b>x" not in html
    assert embedded(html, "game-state")["players"]["blue"]["name"] == "</script><b>x"


def test_it_renders_the_replay_page():
    game = Game.new(5)
    states = [site_state(game, you=None)]
    turns = []
    for ply, token in enumerate(["a", "b"]):
        events = game.play(token)
        states.append(site_state(game, you=None))
        turns.append({"ply": ply, "token": token, "side": events[0]["side"], "events": events})
    data = {"states": states, "turns": turns}
    request = RequestFactory().get("/g/k3J9xQ2mVa/replay")
    request.user = SimpleNamespace(is_authenticated=False)
    html = render_to_string("games/replay.html", {
        "game": SimpleNamespace(id="k3J9xQ2mVa"), "replay_json": json.dumps(data),
        "record_url": "/g/k3J9xQ2mVa.ccn",
        # the kind's replay view (games/views/pages.py passes Cargo Connect's)
        "replay_template": "games/cargo-connect/replay.html",
        "replay_module": "js/cargo-connect/replay.js"}, request=request)
    assert len(json.loads(embedded(html, "replay-data"))["states"]) == 3
    assert "js/cargo-connect/replay.js" in html


def test_the_how_to_play_page_shows_engine_boards(client):
    response = client.get("/how-to-play")
    assert response.status_code == 200
    html = response.content.decode()
    for title in ("Station Rotation 90°", "Corridor Lockdown", "Corridor Purge", "Cargo Damage",
                  "Re-Routing Order", "Final Audit", "J and L differ"):
        assert title in html
    # 7 shapes + 5 cards before/after + the unload before/after.
    assert html.count('class="mini-bay"') == 7 + 2 * 5 + 2
    # The rulebook's Final Audit example: Blue 21 − 2 (L) = 19, Orange 19.
    assert '<th scope="row">Blue</th><td>21</td><td>1 (L)</td><td>−2</td><td>19</td>' in html


def test_the_home_page_links_to_how_to_play(client):
    assert 'href="/how-to-play"' in client.get("/").content.decode()
