"""The tournament pages (docs/tournaments.md, "Pages"): the list per status and per game,
the create form (a tournament made; bad input shown on the form, nothing made), a
tournament's page with its standings and pairings once a round has started, joining and
withdrawing by POST (a private one's password), what a guest sees, and "Play now" for an
entrant whose game of the tournament is in progress."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db
INDEX = "/tournaments/"


def members(n: int, prefix: str = "p") -> list:
    User = get_user_model()
    return [User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", "a-long-pass")
            for i in range(n)]


def swiss(name: str = "Test Swiss", game_type: str = "cargo-connect", *,
          starts_at: dt.datetime | None = None, **kw) -> Tournament:
    kw.setdefault("options", {"size": 5} if game_type == "cargo-connect" else {})
    kw.setdefault("round_pause", 0)  # the pause's page: test_round_pause.py
    return services.create_tournament(
        name=name, game_type=game_type, rounds=kw.pop("rounds", 3),
        starts_at=starts_at or timezone.now() + dt.timedelta(hours=1), **kw)


def signed_in(client, user):
    client.force_login(user)
    return client


def running(n: int = 5, **kw) -> tuple[Tournament, list]:
    """A tournament of `n` members whose round 1 has started (as the tick starts it)."""
    t = swiss(starts_at=timezone.now() - dt.timedelta(minutes=1), **kw)
    people = members(n)
    for member in people:
        services.join(t, member)
    services.tick()
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    return t, people


def section(html: str, group: str) -> str:
    start = html.index(f'data-group="{group}"')
    end = html.find("data-group=", start + 1)
    return html[start:end if end > 0 else len(html)]


def create_data(**kw) -> dict:
    start = (timezone.now() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    return {"name": "Friday Swiss", "game": "cargo-connect", "rounds": "5",
            "time_control": "5+3", "rated": "on", "password": "", "starts_at": start,
            "tz_offset": "0", **kw}


# --- the list -----------------------------------------------------------------------------


def test_the_index_lists_tournaments_by_status(client):
    upcoming = swiss("Upcoming Cup")
    t, _ = running(3)
    Tournament.objects.filter(pk=t.pk).update(name="Running Cup")
    done = swiss("Finished Cup")
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    html = client.get(INDEX).content.decode()
    assert "Upcoming Cup" in section(html, "upcoming")
    assert "Running Cup" in section(html, "running")
    assert "Finished Cup" in section(html, "finished")
    assert "Running Cup" not in section(html, "upcoming")
    assert reverse("tournaments:detail", args=[upcoming.id]) in html
    assert "Swiss" in html and "5+3" not in section(html, "upcoming")  # untimed here


def test_the_index_filters_per_game_and_refuses_an_unknown_one(client):
    swiss("Connect Cup")
    swiss("Express Cup", game_type="cargo-express")
    html = client.get(INDEX, {"game": "cargo-express"}).content.decode()
    assert "Express Cup" in html and "Connect Cup" not in html
    html = client.get(INDEX, {"game": "cargo-connect"}).content.decode()
    assert "Connect Cup" in html and "Express Cup" not in html
    response = client.get(INDEX, {"game": "chess"})
    assert response.status_code == 404
    assert "chess" in response.content.decode()


def test_a_guest_gets_a_sign_in_link_and_no_form(client):
    html = client.get(INDEX).content.decode()
    assert "Sign in</a> to create a tournament" in html
    assert 'action="/tournaments/create"' not in html


def test_the_nav_links_to_the_tournaments(client):
    assert f'href="{INDEX}"' in client.get("/").content.decode()


# --- creating -----------------------------------------------------------------------------


def test_the_create_form_makes_a_tournament(client):
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    assert 'action="/tournaments/create"' in client.get(INDEX).content.decode()
    response = client.post(reverse("tournaments:create"), create_data(password="secret"))
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.id}/"
    assert (t.name, t.game_type, t.rounds, t.time_control, t.rated, t.created_by) == (
        "Friday Swiss", "cargo-connect", 5, "5+3", True, alice)
    assert t.private and t.status == Tournament.Status.SCHEDULED


def test_the_start_is_read_in_the_browsers_time_zone(client):
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    local = (timezone.now() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
    # a browser at UTC+2 writes 14:00 for 12:00 UTC; getTimezoneOffset() is then -120
    written = (local + dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    client.post(reverse("tournaments:create"), create_data(starts_at=written, tz_offset="-120"))
    assert Tournament.objects.get().starts_at == local


@pytest.mark.parametrize("bad, words", [
    ({"name": ""}, "This field is required"),
    ({"rounds": "40"}, "less than or equal to 15"),
    ({"time_control": "9+9"}, "9+9 is not a time control here"),
    ({"game": "chess"}, "chess is not one of the available choices"),
    ({"starts_at": "2001-01-01T10:00"}, "The start must be in the future"),
])
def test_bad_input_is_shown_on_the_form_and_makes_nothing(client, bad, words):
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    response = client.post(reverse("tournaments:create"), create_data(**bad))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_services_refusal_is_shown_on_the_form(client):
    (alice,) = members(1, "alice")
    swiss("One", created_by=alice)
    swiss("Two", created_by=alice)
    signed_in(client, alice)
    response = client.post(reverse("tournaments:create"), create_data(name="Three"))
    assert response.status_code == 400
    assert "You may have 2 tournaments scheduled or running at once." in \
        response.content.decode()
    assert Tournament.objects.count() == 2
    assert 'value="Three"' in response.content.decode()  # what was written stays


def test_a_guest_cannot_create(client):
    response = client.post(reverse("tournaments:create"), create_data())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Tournament.objects.exists()


# --- one tournament ---------------------------------------------------------------------


def test_the_detail_shows_standings_and_pairings_of_a_started_round(client):
    t, people = running(5)
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    rnd = Round.objects.get(tournament=t)
    tables = list(rnd.tables.order_by("number"))
    assert "Standings" in html and "Buchholz" in html and "Sonneborn–Berger" in html
    for member in people:
        assert f'href="/@/{member.username}"' in html
    games = [table for table in tables if table.game_id]
    assert len(games) == 2
    for table in games:
        assert f'href="/g/{table.game_id}"' in html
    (bye,) = [table for table in tables if table.bye]
    assert "Bye: " in html and bye.sittings.get().entry.user.username in html.split("Bye: ")[1]
    assert "Round 1" in html and "in progress" in html


def test_a_withdrawn_entrant_is_marked_in_the_standings(client):
    t, people = running(4)
    services.withdraw(t, people[0])
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    line = html.split(f'href="/@/{people[0].username}">')[1].split("</th>")[0]
    assert "withdrawn" in line


def test_join_and_withdraw_by_post(client):
    t = swiss()
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    url = reverse("tournaments:detail", args=[t.id])
    assert "Join</button>" in client.get(url).content.decode()
    response = client.post(reverse("tournaments:join", args=[t.id]), follow=True)
    assert Entry.objects.filter(tournament=t, user=alice).exists()
    html = response.content.decode()
    assert "You have joined Test Swiss." in html and "Withdraw</button>" in html
    response = client.post(reverse("tournaments:withdraw", args=[t.id]), follow=True)
    assert not Entry.objects.filter(tournament=t).exists()  # before round 1: removed
    assert "You have withdrawn from Test Swiss." in response.content.decode()


def test_join_needs_a_post(client):
    t = swiss()
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    assert client.get(reverse("tournaments:join", args=[t.id])).status_code == 405
    assert not Entry.objects.exists()


def test_a_wrong_password_is_refused(client):
    t = swiss(password="open-sesame")
    (alice,) = members(1, "alice")
    signed_in(client, alice)
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    assert 'name="password"' in html and 'for="join-password"' in html
    response = client.post(reverse("tournaments:join", args=[t.id]), {"password": "nope"},
                           follow=True)
    assert "Wrong password." in response.content.decode()
    assert not Entry.objects.exists()
    client.post(reverse("tournaments:join", args=[t.id]), {"password": "open-sesame"})
    assert Entry.objects.filter(user=alice).exists()


def test_a_guest_gets_no_join_button(client):
    t = swiss()
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    assert "Join</button>" not in html and "Sign in</a> to join" in html
    response = client.post(reverse("tournaments:join", args=[t.id]))
    assert response["Location"].startswith("/accounts/login/")
    assert not Entry.objects.exists()


def test_play_now_for_an_entrant_with_a_game_in_progress(client):
    t, people = running(4)
    rnd = Round.objects.get(tournament=t)
    table = rnd.tables.exclude(game=None).first()
    player = table.sittings.first().entry.user
    signed_in(client, player)
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    assert f'class="button play-now-link" href="/g/{table.game_id}"' in html
    client.force_login(members(1, "watcher")[0])
    html = client.get(reverse("tournaments:detail", args=[t.id])).content.decode()
    assert "play-now-link" not in html


def test_an_unknown_tournament_is_404(client):
    assert client.get("/tournaments/nosuchone/").status_code == 404
