"""Ranked and practice: a member's first game of the day at a difficulty is ranked (three
a day at most), continued while in progress, later games practice; guests practice only;
the database holds one ranked game per member, day and difficulty."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from games.actors import Actor
from puzzles.daily import services as daily
from puzzles.daily.models import DailyGame
from tests.daily.conftest import pacific, play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_first_game_ranked_then_continued_then_practice(frozen, users, eager):
    alice = Actor.member(users["alice"])
    first = daily.start(alice, "easy")
    assert DailyGame.objects.get(game=first).ranked
    assert daily.start(alice, "easy").id == first.id  # in progress: continued
    play_out(first.id, alice)
    later = daily.start(alice, "easy")
    assert later.id != first.id
    row = DailyGame.objects.get(game=later)
    assert not row.ranked and row.day == dt.date(2026, 3, 9)
    assert later.start == first.start and later.bot_seed == first.bot_seed  # same start


def test_three_ranked_games_a_day_one_per_difficulty(frozen, users):
    alice = Actor.member(users["alice"])
    for level in ("easy", "medium", "hard"):
        daily.start(alice, level)
    assert DailyGame.objects.filter(user=users["alice"], ranked=True).count() == 3
    frozen.set(pacific(2026, 3, 10, 9, 0))  # the next day: three more
    daily.start(alice, "easy")
    assert DailyGame.objects.filter(user=users["alice"], ranked=True).count() == 4


def test_guests_play_practice_only(frozen):
    guest = Actor.guest("guest-session")
    one, two = daily.start(guest, "easy"), daily.start(guest, "easy")
    assert one.id != two.id
    assert not DailyGame.objects.filter(ranked=True).exists()
    assert DailyGame.objects.filter(guest_key="guest-session").count() == 2


def test_the_database_refuses_a_second_ranked_game(frozen, users):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    other = daily.start(Actor.member(users["bob"]), "easy")
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyGame.objects.create(game=other, day=dt.date(2026, 3, 9), difficulty="easy",
                                 user=users["alice"], ranked=True)
    assert DailyGame.objects.get(game=game).ranked


def test_a_guest_can_never_hold_a_ranked_row(frozen, users):
    game = daily.start(Actor.member(users["bob"]), "hard")
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyGame.objects.filter(game=game).update(user=None, guest_key="g", ranked=True)


def test_a_past_day_is_practice_and_a_future_day_refused(frozen, users):
    alice = Actor.member(users["alice"])
    past = daily.start(alice, "easy", dt.date(2026, 3, 1))
    row = DailyGame.objects.get(game=past)
    assert not row.ranked and past.size == 8  # 1 March 2026 was a Sunday
    with pytest.raises(daily.DailyError):
        daily.start(alice, "easy", dt.date(2026, 3, 10))
    with pytest.raises(daily.DailyError):
        daily.start(alice, "impossible")


def test_the_start_form(client, frozen, users):
    client.force_login(users["alice"])
    response = client.post("/puzzles/daily/start", {"difficulty": "medium"})
    game = DailyGame.objects.get(user=users["alice"])
    assert response.status_code == 302 and response["Location"] == f"/g/{game.game_id}"
    assert game.ranked and game.difficulty == "medium"
    bad = client.post("/puzzles/daily/start", {"difficulty": "extreme"}, follow=True)
    assert "difficulty must be" in bad.content.decode()
    assert DailyGame.objects.count() == 1
