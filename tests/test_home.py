"""The home page describes the game and links only to pages that exist."""

import re

import pytest
from django.contrib.auth import get_user_model

HREF = re.compile(r'<a [^>]*href="([^"]+)"')


@pytest.mark.django_db
def test_it_describes_the_games(client):
    html = client.get("/").content.decode()
    assert "<h1>Cargo Connect and Cargo Express</h1>" in html
    for words in ("5×5", "8×8", "gravity", "AppCon", "Shipping Protocols", "tetromino",
                  "loop of track", "in secret at the same time"):
        assert words in html


@pytest.mark.django_db
def test_it_offers_sign_in_and_sign_up_to_visitors(client):
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html
    assert 'href="/accounts/signup/"' in html
    assert "Sign out" not in html


@pytest.mark.django_db
def test_it_offers_sign_out_to_members(client):
    user = get_user_model().objects.create_user("carol", "carol@example.com", "pw-9f8e7d6c")
    client.force_login(user)
    html = client.get("/").content.decode()
    assert "carol" in html
    assert 'action="/accounts/logout/"' in html
    assert 'href="/accounts/login/"' not in html


@pytest.mark.django_db
def test_it_links_only_to_pages_that_exist(client):
    user = get_user_model().objects.create_user("dave", "dave@example.com", "pw-9f8e7d6c")
    for logged_in in (False, True):
        if logged_in:
            client.force_login(user)
        html = client.get("/").content.decode()
        links = [href for href in HREF.findall(html) if href.startswith("/")]
        assert links
        for href in links:
            assert client.get(href).status_code in (200, 302), href


@pytest.mark.django_db
def test_it_loads_its_css_and_es_module(client):
    html = client.get("/").content.decode()
    assert 'rel="stylesheet" href="/static/css/site.css"' in html
    assert '<script type="module" src="/static/js/site.js"></script>' in html
