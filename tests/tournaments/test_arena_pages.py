"""An arena's part of the tournament pages, with Django's client: the create form's system
choice (an arena made; a Swiss without rounds or an arena without minutes refused), the
arena's section (standings with the sheets and fire marks, "Play now", berserk, pause and
resume by POST, the podium once finished), and the list's length column."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from games import services as games
from games.actors import Actor
from games.models import Game
from tests.tournaments.test_arena_site import active, arena, entered
from tests.tournaments.test_pages import create_data, members, signed_in
from tournaments import arena_pages, arenas, services
from tournaments.live import sections
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def page(client, t: Tournament) -> str:
    response = client.get(f"/tournaments/{t.id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_create_form_makes_an_arena(client):
    member = members(1)[0]
    signed_in(client, member)
    response = client.post("/tournaments/create", create_data(
        name="Evening arena", system="arena", duration="90", rounds=""))
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.id}/"
    assert t.arena and t.duration == 90 and t.rounds == 0 and t.time_control == "5+3"
    html = client.get("/tournaments/").content.decode()
    assert "90 min" in html and 'name="system"' in html and 'name="duration"' in html


@pytest.mark.parametrize(("data", "words"), [
    ({"system": "arena", "duration": ""}, "An arena needs its duration."),
    ({"system": "swiss", "rounds": ""}, "A Swiss needs its number of rounds."),
    ({"system": "arena", "duration": "60", "time_control": "3d"}, "live time control"),
])
def test_the_create_form_refuses_what_a_system_lacks(client, data, words):
    signed_in(client, members(1)[0])
    response = client.post("/tournaments/create", create_data(**data))
    assert response.status_code == 400 and words in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_arena_section_shows_sheets_play_now_and_berserk(
        client, django_capture_on_commit_callbacks):
    t = arena()
    people = members(2)
    entered(t, people)
    arenas.pair(t.id)
    for _ in range(3):  # the same player wins three: 2, 2, 4 on fire
        (p,) = active(t)
        loser = p.orange.user if p.blue.user == people[0] else p.blue.user
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(p.game_id, actor=Actor.member(loser))
    (p,) = active(t)
    html = page(signed_in(client, people[0]), t)
    assert "Duration" in html and "60 minutes" in html
    assert "Play now: your game is on" in html and f"/g/{p.game_id}" in html
    assert "Berserk" in html and "Pause" in html
    assert '<span class="tag fire-mark">on fire</span>' in html
    assert html.count("sheet-game is-fire") == 1 and "4 points, on fire" in html
    assert "Latest games" in html and "1–0" in html or "0–1" in html
    response = client.post(f"/tournaments/{t.id}/berserk")
    assert response.status_code == 302 and response["Location"] == f"/g/{p.game_id}"
    seat = 0 if p.blue.user == people[0] else 1
    assert games.get_game(p.game_id).clock["left"][seat] == 150_000
    html = page(client, t)
    assert "Half your clock" not in html  # berserked: the button is gone
    response = client.post(f"/tournaments/{t.id}/berserk", follow=True)
    assert "You have berserked already." in response.content.decode()


def test_pause_and_resume_by_post(client):
    t = arena(starts_at=timezone.now() + dt.timedelta(hours=1))
    people = members(1)
    entered(t, people)
    signed_in(client, people[0])
    assert "The arena starts at its time" in page(client, t)
    client.post(f"/tournaments/{t.id}/pause")
    assert Entry.objects.get(tournament=t).paused
    html = page(client, t)
    assert "You are paused" in html and "Resume" in html
    client.post(f"/tournaments/{t.id}/resume")
    assert not Entry.objects.get(tournament=t).paused
    response = client.post(f"/tournaments/{t.id}/resume", follow=True)
    assert "You are not paused." in response.content.decode()


def test_a_guest_sees_the_standings_and_posts_nothing(client):
    t = arena()
    entered(t, members(2))
    arenas.pair(t.id)
    html = page(client, t)
    assert "Standings" in html and "p0" in html and "Your arena" not in html
    response = client.post(f"/tournaments/{t.id}/pause")
    assert response.status_code == 302 and "/accounts/login" in response["Location"]


def test_the_podium_once_finished(client, django_capture_on_commit_callbacks):
    t = arena()
    entered(t, members(4))
    arenas.pair(t.id)
    for p in active(t):
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(p.game_id, actor=Actor.member(p.orange.user))
    assert "Podium" not in page(client, t)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - dt.timedelta(hours=2))
    for p in active(t):
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(p.game_id, actor=Actor.member(p.orange.user))
    arenas.pair(t.id)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert not Game.objects.filter(status=Game.Status.ACTIVE).exists()
    html = page(client, t)
    assert "Podium" in html and html.count('<li class="podium-') == 3


def test_the_page_shows_the_top_of_the_standings_and_links_the_whole(
        client, django_capture_on_commit_callbacks):
    """With more entrants than `LINES_SHOWN`, the page (and its live section, rendered the
    same) shows the top lines and links the standings' own page, which has every line with
    its sheet, in the same order; a Swiss has no such page (its own shows them whole)."""
    t = arena()
    people = members(arena_pages.LINES_SHOWN + 2)
    entered(t, people)
    arenas.pair(t.id)
    for p in active(t):  # a result for everyone: the sheets differ
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(p.game_id, actor=Actor.member(p.orange.user))
    order = [line.username for line in arena_pages.arena_of(t, every_line=True).lines]
    assert len(order) == len(people)
    html = page(client, t)
    shown = re.findall(r'<tr data-user="([^"]+)"', html)
    assert shown == order[:arena_pages.LINES_SHOWN]
    assert f"all {len(people)} players" in html
    live = sections(t, ("arena",))["sections"]["arena"]
    assert re.findall(r'<tr data-user="([^"]+)"', live) == shown
    whole = client.get(f"/tournaments/{t.id}/standings/")
    assert whole.status_code == 200
    body = whole.content.decode()
    assert re.findall(r'<tr data-user="([^"]+)"', body) == order
    assert body.count('class="sheet-game') == len(people)  # one game each so far
    swiss = services.create_tournament(name="A Swiss", game_type="cargo-connect", rounds=3,
                                       starts_at=timezone.now() + dt.timedelta(hours=1))
    answer = client.get(f"/tournaments/{swiss.id}/standings/")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{swiss.id}/"
    assert client.get("/tournaments/NoSuchOne0/standings/").status_code == 404


def test_a_few_entrants_see_every_line_and_no_link(client):
    t = arena()
    entered(t, members(3))
    html = page(client, t)
    assert len(re.findall(r'<tr data-user="', html)) == 3
    assert "The whole standings" not in html
