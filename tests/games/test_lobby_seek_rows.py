"""The lobby's seek rows, from the viewer's side: the player and their rating, the size,
and which side the viewer would play ("You play Orange" when the creator chose Blue); a
member's own seek shows waiting, with Cancel, and no native selects on the page."""

import pytest

from games import services


@pytest.mark.django_db
def test_each_row_says_who_plays_what_from_the_viewers_side(users, client):
    blue = services.create_challenge(users["alice"], options={"size": 7}, color="blue")
    anyway = services.create_challenge(users["alice"], options={"size": 5})
    client.force_login(users["bob"])
    html = client.get("/play/").content.decode()
    row = html[html.index(f'data-id="{blue.id}"'):]
    row = row[:row.index("</li>")]
    assert '<span class="seek-player">alice<span class="rating">1200</span></span>' in row
    assert '<span class="seek-size">Cargo Connect · 7×7</span>' in row
    assert "You play Orange" in row and f'action="/challenge/{blue.id}/accept"' in row
    row = html[html.index(f'data-id="{anyway.id}"'):]
    assert "You play random" in row[:row.index("</li>")]
    assert "<select" not in html


@pytest.mark.django_db
def test_your_own_seek_waits_first_with_cancel(users, client):
    other = services.create_challenge(users["bob"], options={"size": 6})
    mine = services.create_challenge(users["alice"], options={"size": 6}, color="blue")
    client.force_login(users["alice"])
    html = client.get("/play/").content.decode()
    assert html.index(f'data-id="{mine.id}"') < html.index(f'data-id="{other.id}"')
    row = html[html.index(f'data-id="{mine.id}"'):]
    row = row[:row.index("</li>")]
    assert 'class="seek is-mine"' in html
    assert "You play Blue" in row and "Waiting for an opponent" in row
    assert 'class="waiting-dots" aria-hidden="true"' in row
    assert f'action="/challenge/{mine.id}/cancel"' in row and "/accept" not in row


@pytest.mark.django_db
def test_the_seek_json_carries_both_sides_words(users, client):
    services.create_challenge(users["alice"], options={"size": 6}, color="orange")
    seek = client.get("/play/seeks.json").json()["seeks"][0]
    assert (seek["creator_plays"], seek["taker_plays"]) == ("Orange", "Blue")
    assert seek["cancel_url"] == f"/challenge/{seek['id']}/cancel"


@pytest.mark.django_db
def test_the_empty_list_speaks_to_a_guest_and_a_member(users, client):
    """A guest has no Play buttons on the home page (issue #27, item 14): the empty list
    offers signing in, or CargoBot on this page; a member is sent to the Play buttons."""
    html = client.get("/play/").content.decode()
    assert "press a Play button" not in html
    assert 'Sign in</a> to create one, or play CargoBot now.' in html
    client.force_login(users["bob"])
    html = client.get("/play/").content.decode()
    assert "No open seeks. Create one, or press a Play button on the home page." in html
