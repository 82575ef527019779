"""The monthly boards: each member's single best ranked game of the Pacific month, higher
scaled score first, then the larger scaled margin, then the earlier finish; losses ranked
too; past months kept; a member's rank and the rows around it; a deactivated member gone at
once."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Game
from rankings import monthly as boards
from rankings.models import DailyBoardEntry

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 3, 9, 20, 0, tzinfo=dt.UTC)
MARCH = dt.date(2026, 3, 1)


def member(name):
    return get_user_model().objects.create_user(name, f"{name}@example.com", "pw-long-cargo")


def result(user, score, margin, *, size=8, day=dt.date(2026, 3, 9), minutes=0,
           difficulty="easy"):
    game = Game.objects.create(mode="daily", rules="x", start="-", position="-",
                               options={"size": size})
    with transaction.atomic():  # as the finish seam records it (live-server tests have none)
        return boards.record(game_id=game.id, user_id=user.pk, day=day,
                             difficulty=difficulty, size=size, score=score, margin=margin,
                             finished_at=T0 + dt.timedelta(minutes=minutes))


def names(rows):
    return [r.username for r in rows]


def test_order_with_ties_on_score_and_margin():
    a, b, c, d, e = (member(n) for n in "abcde")
    result(a, 40, 5, minutes=3)
    result(b, 40, 5, minutes=1)  # same score and margin, earlier finish
    result(c, 40, 9, minutes=9)  # same score, larger margin
    result(d, 25, 2, size=5, minutes=0)  # 25 on 5×5 scales to 64: first
    result(e, 12, -20, minutes=0)  # a loss is ranked too
    rows = boards.page(MARCH, "easy")
    assert names(rows) == ["d", "c", "b", "a", "e"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert rows[0].shown == "64 (+5)" and rows[-1].shown == "12 (\u221220)"


def test_a_members_single_best_game_of_the_month():
    a, b = member("a"), member("b")
    result(a, 20, -3, day=dt.date(2026, 3, 2))
    best = result(a, 30, 1, day=dt.date(2026, 3, 5))
    result(a, 30, 0, day=dt.date(2026, 3, 6))
    result(b, 25, 0)
    assert names(boards.page(MARCH, "easy")) == ["a", "b"]
    assert DailyBoardEntry.objects.get(user=a, best=True).id == best.id
    boards.remove(best.game_id)  # voided: the next best takes its place
    assert [r.shown for r in boards.page(MARCH, "easy") if r.username == "a"] == ["30 (\u00b10)"]


def test_months_and_difficulties_are_separate_boards():
    a = member("a")
    result(a, 10, 0, day=dt.date(2026, 2, 28))
    result(a, 20, 0, day=dt.date(2026, 3, 1), difficulty="hard")
    assert names(boards.page(dt.date(2026, 2, 1), "easy")) == ["a"]
    assert names(boards.page(MARCH, "easy")) == []
    assert names(boards.page(MARCH, "hard")) == ["a"]


def test_my_rank_and_the_rows_around_it():
    people = [member(f"p{i:02}") for i in range(20)]
    for i, user in enumerate(people):
        result(user, 100 - i, 0)
    rank, near = boards.around(people[12].pk, MARCH, "easy")
    assert rank == 13
    assert [r.rank for r in near] == [11, 12, 13, 14, 15]
    assert [r.mine for r in near] == [False, False, True, False, False]
    assert boards.rank_of(member("nobody").pk, MARCH, "easy") is None


def test_a_deactivated_member_disappears_at_once(client):
    a, b = member("a"), member("b")
    result(a, 50, 0)
    result(b, 40, 0)
    assert "a" in names(boards.page(MARCH, "easy"))
    a.is_active = False
    a.save()
    assert names(boards.page(MARCH, "easy")) == ["b"]
    assert boards.rank_of(b.pk, MARCH, "easy") == 1
    page = client.get("/rankings/?tab=daily&month=2026-03&level=easy").content.decode()
    assert '<a href="/@/b">b</a>' in page and '<a href="/@/a">a</a>' not in page


def test_the_rankings_page_shows_a_month(client):
    a = member("alice2")
    result(a, 42, 7)
    page = client.get("/rankings/?tab=daily&month=2026-03&level=easy").content.decode()
    assert "Daily Challenge · March 2026" in page and "42 (+7)" in page
    assert client.get("/rankings/?tab=daily&month=2026-13").status_code == 404
    assert client.get("/rankings/?tab=daily&level=impossible").status_code == 404
    client.force_login(a)
    page = client.get("/rankings/?tab=daily&month=2026-03&level=easy").content.decode()
    assert "Your rank on Easy: <strong>1</strong> of 1" in page
