"""The theme: with no choice the page follows the system (no data-theme); a choice is the
`theme` cookie, which the server reads, so the page arrives in that theme; the header's
switch posts the other theme (for browsers without the script)."""

import pytest


@pytest.mark.django_db
def test_without_a_choice_the_page_follows_the_system(client):
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert '<meta name="color-scheme" content="dark light">' in html
    assert 'href="/static/css/theme.css"' in html


@pytest.mark.django_db
@pytest.mark.parametrize("theme, other", [("light", "dark"), ("dark", "light")])
def test_the_cookie_sets_the_theme_server_side(client, theme, other):
    client.cookies["theme"] = theme
    for url in ("/", "/play/", "/how-to-play", "/no-such-page"):
        html = client.get(url).content.decode()
        assert f'<html lang="en" data-theme="{theme}">' in html, url
        assert f'name="theme" value="{other}"' in html  # the switch offers the other


@pytest.mark.django_db
def test_a_cookie_with_another_value_is_ignored(client):
    client.cookies["theme"] = "sepia"
    assert '<html lang="en">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_switch_without_script_sets_the_cookie_and_goes_back(client):
    response = client.post("/theme", {"theme": "light", "next": "/play/"})
    assert response.status_code == 302 and response["Location"] == "/play/"
    cookie = response.cookies["theme"]
    assert cookie.value == "light" and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 30 * 24 * 3600
    assert 'data-theme="light"' in client.get("/play/").content.decode()


@pytest.mark.django_db
def test_the_switch_refuses_other_values_and_foreign_redirects(client):
    response = client.post("/theme", {"theme": "purple"})
    assert response.status_code == 400 and "theme" not in response.cookies
    response = client.post("/theme", {"theme": "dark", "next": "https://evil.example/"})
    assert response["Location"] == "/"
    assert client.get("/theme").status_code == 405
