"""The Daily Challenge tab of /rankings/ (issue #27, item 9): its stylesheet is loaded (a
tab names the stylesheets its panel needs), the difficulties are a row of links with the
selected one marked, the board is the rating boards' table (ranks, names that link to
profiles, the signed-in member's row marked)."""

import pytest

from rankings import daily_boards
from tests.daily.test_board_order import member, result

pytestmark = pytest.mark.django_db


def test_the_daily_tab_is_styled_and_links_its_players(client):
    day = daily_boards._this_month()  # the Pacific month's first day: on this month's board
    a, b = member("ana"), member("ben")
    result(a, 40, 5, day=day)
    result(b, 30, -2, day=day)
    client.force_login(b)
    html = client.get("/rankings/?tab=daily&level=easy").content.decode()
    assert 'href="/static/css/daily.css"' in html
    assert 'href="/static/css/profile.css"' in html
    assert '<a href="?tab=daily&month=' in html and 'aria-current="page">Easy</a>' in html
    assert 'class="board daily-board"' in html
    assert '<a href="/@/ana">ana</a>' in html and '<a href="/@/ben">ben</a>' in html
    ben_row = html[html.rindex("<tr", 0, html.index('href="/@/ben"')):html.index('href="/@/ben"')]
    assert 'class="is-you"' in ben_row
    assert "30 (\u22122)" in html
    elo = client.get("/rankings/?tab=elo").content.decode()
    assert "css/daily.css" not in elo  # only the tab that needs it
