"""The Daily Challenge page: today's size, the three difficulties with the player's state in
each, the countdown, today's number of players; the archive's days and a past day's
practice beside the player's ranked game; the spoiler-free share text."""

import datetime as dt
import re

import pytest

from games import services
from games.actors import Actor
from puzzles.daily import services as daily
from tests.daily.conftest import pacific, play_out, play_turns

pytestmark = pytest.mark.django_db(transaction=True)


def states(html):
    return dict(re.findall(r'data-difficulty="(\w+)" data-state="(\w+)"', html))


def test_today_shows_each_difficultys_state(frozen, users, eager, client):
    alice = Actor.member(users["alice"])
    running = daily.start(alice, "medium")
    play_turns(running.id, alice, 1)
    done = daily.start(alice, "hard")
    play_out(done.id, alice)
    daily.start(Actor.guest("someone"), "easy")
    client.force_login(users["alice"])
    html = client.get("/puzzles/daily/").content.decode()
    assert states(html) == {"easy": "not_started", "medium": "in_progress", "hard": "finished"}
    assert "5×5" in html and "Monday, March 9, 2026" in html
    assert "2 players have played today." in html
    assert f'href="/g/{running.id}"' in html  # continue
    assert f"/puzzles/daily/resign/{running.id}" in html
    assert "14 h 0 min left" in html  # 10:00 Pacific
    hard = services.get_game(done.id).seat_list
    assert "Finished (ranked)" in html and f"{hard[0].score} to CargoBot's {hard[1].score}" in html


def test_the_share_text_is_spoiler_free(frozen, users, eager, client):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_out(game.id, alice)
    client.force_login(users["alice"])
    html = client.get("/puzzles/daily/").content.decode()
    share = re.search(r"<textarea[^>]*data-share>(.*?)</textarea>", html, re.S).group(1)
    lines = share.split("\n")
    assert lines[0] == "Cargo Connect Daily Challenge 2026-03-09 · Easy · 5×5"
    # The result in words, then as the boards show it (issue #27, item 12).
    assert re.fullmatch(r"(Beat|Lost to|Drew with) CargoBot -?\d+ to -?\d+: "
                        r"-?\d+ \((\+|\u2212|\u00b1)\d+\)", lines[1].replace("&#x27;", ""))
    assert re.fullmatch(r"Unloaded: ([OTJLSZI]( [OTJLSZI])*|none)", lines[2])
    assert lines[3] == "http://testserver/puzzles/daily/2026-03-09/"  # a link back
    tokens = services.get_game(game.id).tokens
    assert not any(token in share for token in tokens if len(token) > 1)  # no columns/cards
    assert not re.search(r"\b[a-h][1-8]\b", share)


def test_a_guest_sees_practice(frozen, client):
    html = client.get("/puzzles/daily/").content.decode()
    assert "Sign in</a> to play ranked" in html
    assert html.count(">\n          Practice\n") + html.count("Practice\n        </button>") >= 0
    assert "0 players have played today." in html
    response = client.post("/puzzles/daily/start", {"difficulty": "easy"})
    assert response.status_code == 302
    assert "1 player has played today." in client.get("/puzzles/daily/").content.decode()


def test_the_archive_and_a_past_day(frozen, users, eager, client):
    alice = Actor.member(users["alice"])
    frozen.set(pacific(2026, 3, 7, 12, 0))  # Saturday 8×8
    ranked = daily.start(alice, "easy")
    play_out(ranked.id, alice)
    frozen.set(pacific(2026, 3, 9, 10, 0))
    client.force_login(users["alice"])
    archive = client.get("/puzzles/daily/archive/").content.decode()
    assert 'href="/puzzles/daily/2026-03-08/"' in archive
    assert 'href="/puzzles/daily/2026-03-09/"' not in archive  # today is not in the archive
    day = client.get("/puzzles/daily/2026-03-07/").content.decode()
    assert "8×8" in day and "practice only" in day
    assert states(day)["easy"] == "finished" and "Your ranked game" in day
    assert f"/g/{ranked.id}/replay" in day
    response = client.post("/puzzles/daily/start", {"difficulty": "easy", "day": "2026-03-07"})
    practice = services.get_game(response["Location"].rsplit("/", 1)[1])
    assert practice.id != ranked.id and practice.start == ranked.start
    assert practice.bot_seed == services.get_game(ranked.id).bot_seed
    assert practice.daily.ranked is False and practice.daily.day == dt.date(2026, 3, 7)
    assert client.get("/puzzles/daily/2026-03-10/").status_code == 404
    assert client.get("/puzzles/daily/2026-02-30/").status_code == 404
    assert client.get("/puzzles/daily/2026-03-09/").status_code == 302


def test_resume_from_a_second_device(frozen, users, eager, client):
    from django.test import Client

    alice = Actor.member(users["alice"])
    phone, laptop = client, Client()
    phone.force_login(users["alice"])
    laptop.force_login(users["alice"])
    start = phone.post("/puzzles/daily/start", {"difficulty": "hard"})
    game_id = start["Location"].rsplit("/", 1)[1]
    play_turns(game_id, alice, 1)
    again = laptop.post("/puzzles/daily/start", {"difficulty": "hard"})
    assert again["Location"] == start["Location"]
    state = laptop.get(f"/g/{game_id}/events?after=0").json()["state"]
    assert state["ply"] == 2 and state["you"] == "blue"
    token = state["legal"][0]
    assert laptop.post(f"/g/{game_id}/turn", {"ply": 2, "token": token}).status_code == 200
    assert services.get_game(game_id).ply >= 3


def test_a_daily_game_says_what_it_is(frozen, users, eager, client):
    """Issue #27, item 12: the header said only "Shift <id>" and the player card showed an
    Elo rating the Daily Challenge never touches."""
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    client.force_login(users["alice"])
    html = client.get(f"/g/{game.id}").content.decode()
    assert "<h1>Daily Challenge, Monday 9 March 2026</h1>" in html
    facts = re.search(r'<p class="game-facts" data-game-facts>(.*?)</p>', html, re.S).group(1)
    assert "Easy" in facts and "Ranked" in facts and "5×5" in facts
    assert 'href="/puzzles/daily/2026-03-09/"' in facts
    state = services.state_of(services.get_game(game.id), viewer=0)
    me = state["players"][state["you"]]
    assert me["rating"] is None and me["rating_kind"] is None
    bot = state["players"]["orange" if state["you"] == "blue" else "blue"]
    assert bot["rating"] is None  # no rating counts a Daily Challenge game
    play_out(game.id, alice)
    state = services.state_of(services.get_game(game.id), viewer=0)
    assert state["players"][state["you"]]["rating"] is None
