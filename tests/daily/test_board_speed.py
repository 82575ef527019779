"""A board page at 10,000 entries stays fast: one indexed query for the page's rows, one
count, and two for the member's rank and the rows around it. Prints the CPU time of
rendering the page (time.process_time, the test process only: the database's own time is
in another process)."""

import datetime as dt
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from rankings.models import DailyBoardEntry

pytestmark = pytest.mark.django_db

N = 10_000


@pytest.fixture
def big_board():
    User = get_user_model()
    User.objects.bulk_create([User(username=f"m{i:05}", email=f"m{i}@example.com")
                              for i in range(N)], batch_size=2000)
    users = list(User.objects.order_by("id").values_list("id", flat=True))
    Game.objects.bulk_create([Game(id=f"b{i:09}", mode="daily", rules="x", start="-",
                                   position="-", options={"size": 8}) for i in range(N)],
                             batch_size=2000)
    t0 = dt.datetime(2026, 3, 9, 12, 0, tzinfo=dt.UTC)
    DailyBoardEntry.objects.bulk_create([
        DailyBoardEntry(game_id=f"b{i:09}", user_id=users[i], month=dt.date(2026, 3, 1),
                        day=dt.date(2026, 3, 9), difficulty="easy", size=8, score=i % 97,
                        margin=i % 23 - 11, scaled_score=float(i % 97),
                        scaled_margin=float(i % 23 - 11),
                        finished_at=t0 + dt.timedelta(seconds=i), best=True)
        for i in range(N)], batch_size=2000)
    return User.objects.get(username="m05000")


def test_a_board_page_at_10000_entries(client, big_board):
    client.force_login(big_board)
    url = "/rankings/?tab=daily&month=2026-03&level=easy&page=3"
    client.get(url)  # warm
    with CaptureQueriesContext(connection) as queries:
        start = time.process_time()
        response = client.get(url)
        cpu = time.process_time() - start
    html = response.content.decode()
    assert response.status_code == 200
    assert "Page 3 of 200" in html and "Your rank on Easy" in html
    board = [q["sql"] for q in queries.captured_queries if "rankings_dailyboardentry" in q["sql"]]
    assert len(board) <= 5, board
    print(f"\nboard page at {N} entries: {len(queries)} queries "
          f"({len(board)} on the board), {cpu * 1000:.1f} ms CPU in the test process")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE rankings_dailyboardentry")
            cursor.execute("EXPLAIN ANALYZE " + _page_sql())
            plan = "\n".join(row[0] for row in cursor.fetchall())
        print(plan)
        assert "rankings_daily_board" in plan


def _page_sql() -> str:
    from rankings import monthly as boards

    qs = boards._board(dt.date(2026, 3, 1), "easy").select_related("user") \
        .order_by(*boards.ORDER)[100:150]
    sql, params = qs.query.sql_with_params()
    with connection.cursor() as cursor:
        text = cursor.mogrify(sql, params)  # psycopg 3: str
    return text.decode() if isinstance(text, bytes) else text
