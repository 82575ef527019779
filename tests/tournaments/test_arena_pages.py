"""An arena's part of the tournament pages, with Django's client: the create form's system
choice (an arena made; a Swiss without rounds or an arena without minutes refused), the
arena's section (standings with the sheets and fire marks, "Play now", berserk, pause and
resume by POST, the podium once finished), and the list's length column."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games import services as games
from games.actors import Actor
from games.models import Game
from tests.tournaments.test_arena_site import active, arena, entered
from tests.tournaments.test_pages import create_data, members, signed_in
from tournaments import arenas
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
