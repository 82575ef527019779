"""Streaks: win streaks (a loss or a draw ends one) and the days-played streak in Pacific
days, across a Pacific midnight and a daylight-saving change, from online and casual
games only."""

import datetime as dt

import pytest

from accounts.streaks import day_streaks, streaks_of, win_streaks
from games import services
from games.actors import Actor
from games.models import Game
from tests.profile.conftest import at

pytestmark = pytest.mark.django_db
UTC = dt.UTC


def test_win_streaks_current_and_best(users, play):
    alice, bob = users["alice"], users["bob"]
    for alice_wins in (True, True, True, False, True, True):
        if alice_wins:
            play.resign(alice, bob)
        else:
            play.resign(bob, alice, loser_seat=0)
    s = streaks_of(alice)
    assert (s.win_current, s.win_best) == (2, 3)
    assert (streaks_of(bob).win_current, streaks_of(bob).win_best) == (0, 1)


def test_days_are_pacific_days_across_midnight_and_daylight_saving(users, play):
    """2026-03-08 is the spring-forward day in Los Angeles. In UTC these four games fall
    on two dates; in Pacific time on three days in a row (a fixed −8 h would put the last
    one on the 8th too)."""
    alice, bob = users["alice"], users["bob"]
    moments = [
        dt.datetime(2026, 3, 8, 7, 30, tzinfo=UTC),   # Sat 7 Mar 23:30 PST
        dt.datetime(2026, 3, 8, 8, 30, tzinfo=UTC),   # Sun 8 Mar 00:30 PST
        dt.datetime(2026, 3, 9, 6, 30, tzinfo=UTC),   # Sun 8 Mar 23:30 PDT
        dt.datetime(2026, 3, 9, 7, 10, tzinfo=UTC),   # Mon 9 Mar 00:10 PDT
    ]
    for moment in moments:
        with at(moment):
            play.resign(alice, bob)
    next_day = dt.datetime(2026, 3, 10, 19, 0, tzinfo=UTC)  # Tue 10 Mar, noon PDT
    s = streaks_of(alice, now=next_day)
    assert (s.days_current, s.days_best, s.last_day) == (3, 3, dt.date(2026, 3, 9))
    two_days_later = dt.datetime(2026, 3, 11, 19, 0, tzinfo=UTC)
    assert (streaks_of(alice, now=two_days_later).days_current,
            streaks_of(alice, now=two_days_later).days_best) == (0, 3)


def test_the_seven_day_achievement_counts_pacific_days(users, play):
    alice, bob = users["alice"], users["bob"]
    start = dt.datetime(2026, 10, 28, 6, 0, tzinfo=UTC)  # 27 Oct 23:00 PDT
    for day in range(7):  # crosses the fall-back change of 1 Nov 2026
        with at(start + dt.timedelta(days=day)):
            play.resign(bob, alice, loser_seat=0)
    from accounts.models import EarnedAchievement

    assert EarnedAchievement.objects.filter(user=alice, key="days_7").exists()


def test_daily_challenge_games_do_not_count(users, play):
    alice = users["alice"]
    daily = play.commit(services.create_game, game_type="cargo-connect",
                        options={"size": 5}, mode=Game.Mode.DAILY, rated=False,
                        seats=[Actor.member(alice), Actor.bot("easy")])
    play.commit(services.resign, daily.id, actor=Actor.member(alice))
    s = streaks_of(alice)
    assert (s.win_best, s.days_best, s.last_day) == (0, 0, None)


def test_the_pure_counts():
    assert win_streaks(["win", "draw", "win", "win"]) == (2, 2)
    days = [dt.date(2026, 1, d) for d in (1, 2, 3, 5, 6)]
    assert day_streaks(days, dt.date(2026, 1, 7)) == (2, 3)
    assert day_streaks(days, dt.date(2026, 1, 8)) == (0, 3)
    assert day_streaks([], dt.date(2026, 1, 8)) == (0, 0)


def test_the_profile_shows_them(users, play, client):
    play.resign(users["alice"], users["bob"])
    html = client.get("/@/alice").content.decode()
    assert '<span class="win-current">1</span>' in html
    assert '<span class="days-current">1</span>' in html
