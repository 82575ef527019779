"""A member's home page: Play buttons by bay size, CargoBot, their games in progress with
whose turn, today's Daily Challenge, this week's puzzles and who is online; no "Live play
opens soon"."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.frames import presence
from puzzles import schedule
from puzzles.models import Week
from tests.games.support import member, new_game
from tests.puzzles.conftest import MONDAY, make_puzzle, record

PASSWORD = "a-long-cargo-pass"


@pytest.fixture
def people(db):
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", PASSWORD)
            for name in ("marta", "kofi", "lena")}


@pytest.fixture
def week(db, monkeypatch):
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    week = Week.objects.create(monday=MONDAY, status=Week.Status.PUBLISHED)
    make_puzzle(record(), week, 0, prove=False)
    return week


@pytest.mark.django_db
def test_the_play_buttons_pair_by_size_and_offer_cargobot(people, client, week):
    client.force_login(people["marta"])
    html = client.get("/").content.decode()
    assert "Live play opens soon" not in html
    assert 'action="/play/quick"' in html
    for n in (5, 6, 7, 8):
        assert f'name="size" value="{n}"' in html
    assert 'action="/play/bot"' in html and 'name="level" value="easy"' in html


@pytest.mark.django_db
def test_it_lists_games_in_progress_with_whose_turn(people, client, week):
    mine_to_move = new_game(people["marta"], people["kofi"])  # Blue (marta) moves first
    theirs = new_game(people["lena"], people["marta"])  # lena is Blue, to move
    finished = new_game(people["marta"], people["lena"])
    services.resign(finished.id, actor=member(people["marta"]))
    client.force_login(people["marta"])
    html = client.get("/").content.decode()
    assert f'href="/g/{mine_to_move.id}">5×5 vs kofi</a>' in html
    assert f'href="/g/{theirs.id}">5×5 vs lena</a>' in html
    assert f'/g/{finished.id}"' not in html
    assert html.index(mine_to_move.id) < html.index(theirs.id)  # your turn first
    assert '<span class="turn-chip is-yours">Your turn</span>' in html
    assert '<span class="turn-chip">lena to move</span>' in html


@pytest.mark.django_db
def test_it_shows_the_daily_challenge_and_this_weeks_puzzles(people, client, week):
    client.force_login(people["marta"])
    html = client.get("/").content.decode()
    assert "Today's Daily Challenge" in html and 'href="/puzzles/daily/"' in html
    assert "This week's puzzles" in html
    assert f'href="/puzzles/{MONDAY.isoformat()}/"' in html  # Monday's puzzle is open
    assert html.count("opens on its day") == 5  # Wednesday to Sunday
    assert html.count("not published") == 1  # Tuesday, open, but this week has no puzzle


@pytest.mark.django_db
def test_it_shows_who_is_online(people, client, week):
    presence.seen(people["kofi"].pk)
    client.force_login(people["marta"])
    html = client.get("/").content.decode()  # marta's own page load marks her seen
    assert 'href="/@/kofi">kofi</a>' in html
    html = client.get("/").content.decode()
    assert 'href="/@/marta">marta</a>' in html and "lena" not in html


@pytest.mark.django_db
def test_a_fresh_install_shows_the_same_week_as_the_puzzles_page(people, client, monkeypatch):
    """No week was ever published (a fresh install, no worker): the home page's strip
    shows the week the Puzzles page serves, open days linked, none "not published", whether
    the home page or the Puzzles page is opened first (issue #27, item 11)."""
    monkeypatch.setattr(schedule, "today", lambda: MONDAY + dt.timedelta(days=1))
    client.force_login(people["marta"])
    html = client.get("/").content.decode()
    assert "not published" not in html
    assert f'href="/puzzles/{MONDAY.isoformat()}/"' in html
    assert f'href="/puzzles/{(MONDAY + dt.timedelta(days=1)).isoformat()}/"' in html
    assert html.count("opens on its day") == 5
    week = Week.objects.get(monday=MONDAY)
    assert week.published and week.automatic
    puzzles_page = client.get("/puzzles/").content.decode()
    for puzzle in week.puzzles.filter(day__lte=1):
        assert f'data-puzzle="{puzzle.pk}"' in puzzles_page
    assert Week.objects.count() == 1  # the same week, not a second one
