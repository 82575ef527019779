"""Both games stand side by side (issue #42, point 11): the landing page's hero and the
member's Play box offer Cargo Connect and Cargo Express; every page title names the right
game ("… · Cargo Express" on Express's pages, "… · Cargo" on the site's own); the README's
title and first paragraph and the project's description name both."""

import re
import tomllib
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.actors import Actor
from games.models import Game
from tests.games.support import member

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-cargo-pass"


def title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found
    return found.group(1).strip()


def section(html: str, heading_id: str) -> str:
    """The <article> or <section> labelled by the heading `heading_id`."""
    found = re.search(rf'<(article|section)[^>]*aria-labelledby="{heading_id}".*?</\1>', html,
                      re.S)
    assert found, heading_id
    return found.group(0)


@pytest.fixture
def people(db):
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in ("marta", "kofi", "lena")}


@pytest.mark.django_db
def test_the_landing_page_offers_both_games_side_by_side(client):
    html = client.get("/").content.decode()
    assert title(html) == "Cargo Connect and Cargo Express · Cargo"
    connect, express = section(html, "hero-connect"), section(html, "hero-express")
    assert "Cargo Connect" in connect and 'href="/how-to-play"' in connect
    assert 'href="/play/"' in connect  # Play CargoBot now
    assert "Cargo Express" in express and 'href="/how-to-play/cargo-express"' in express
    assert 'href="/play/?game=cargo-express"' in express  # Play ExpressBots now
    assert "2 to 4 players" in express
    # the site's name covers both games
    assert '<span class="brand-name">Cargo</span>' in html
    assert "Cargo: Cargo Connect and Cargo Express" in html


@pytest.mark.django_db
def test_the_members_play_box_offers_both_games_and_starts_an_express_game(people, client):
    client.force_login(people["marta"])
    html = client.get("/").content.decode()
    connect, express = section(html, "play-connect-title"), section(html, "play-express-title")
    # both inside the Play box, side by side (before the games in progress)
    assert html.index('id="play-title"') < html.index(connect) < html.index(express) \
        < html.index('id="games-title"')
    assert 'class="home-play-games"' in html
    assert 'action="/play/quick"' in connect and 'action="/play/bot"' in connect
    assert 'action="/play/bots"' in express
    for level in ("easy", "medium", "hard"):
        assert f'data-express-level="{level}"' in express
    assert 'href="/play/?game=cargo-express"' in express
    # the "Medium" button's form: a table of three, two ExpressBots Medium
    form = re.search(r'<form method="post" action="/play/bots">(.*?)</form>',
                     express.split('data-express-level="easy"')[1], re.S)
    assert form
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1)))
    fields.pop("csrfmiddlewaretoken", None)
    answer = client.post("/play/bots", fields)
    assert answer.status_code == 302 and answer["Location"].startswith("/g/")
    game = Game.objects.get(id=answer["Location"].removeprefix("/g/"))
    assert game.game_type == "cargo-express" and len(game.seat_list) == 3


@pytest.mark.django_db
def test_every_page_title_names_its_game(people, client):
    client.force_login(people["marta"])
    express = services.create_game(game_type="cargo-express", options={}, rated=False,
                                   seats=[Actor.member(people[n]) for n in ("marta", "kofi")])
    connect = services.create_game(game_type="cargo-connect", options={"size": 6},
                                   seats=[member(people["marta"]), member(people["kofi"])])
    expected = {
        f"/g/{express.id}": "marta vs kofi · Cargo Express",
        f"/g/{express.id}/replay": f"Replay {express.id} · Cargo Express",
        f"/g/{connect.id}": "marta vs kofi · Cargo Connect",
        f"/g/{connect.id}/replay": f"Replay {connect.id} · Cargo Connect",
        "/how-to-play/cargo-express": "How to play · Cargo Express",
        "/how-to-play": "How to play · Cargo Connect",
        "/play/": "Play · Cargo",
        "/": "Cargo Connect and Cargo Express · Cargo",
        "/rankings/": "Rankings · Cargo",
    }
    for url, words in expected.items():
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert title(answer.content.decode()) == words, url
    assert "Cargo Connect" not in title(client.get(f"/g/{express.id}").content.decode())


def test_the_readme_and_the_project_name_both_games():
    readme = (ROOT / "README.md").read_text()
    heading, rest = readme.split("\n", 1)
    first_paragraphs = rest.split("## ", 1)[0]
    for name in ("Cargo Connect", "Cargo Express"):
        assert name in heading and name in first_paragraphs
    description = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    assert "Cargo Connect" in description and "Cargo Express" in description
