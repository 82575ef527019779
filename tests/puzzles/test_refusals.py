"""Refused requests change nothing: a turn after the puzzle is over, an illegal turn, bad
tokens, a future day (its position is never served), and a resign."""

from puzzles.models import Progress

from .conftest import SOLVE, post, url


def test_a_turn_after_the_puzzle_is_solved_is_refused(client, live_week):
    r = post(client, url(0, "turn"), {"tokens": [SOLVE], "token": "b"})
    assert r.status_code == 409
    assert r.json()["code"] == "over"


def test_a_turn_after_out_of_turns_is_refused(client, live_week):
    r = post(client, url(0, "turn"), {"tokens": ["b"], "token": "a"})
    assert r.status_code == 409 and "out of turns" in r.json()["error"]


def test_an_illegal_turn_is_refused_by_the_engine(client, live_week, member):
    client.force_login(member)
    r = post(client, url(0, "turn"), {"tokens": [], "token": "a+b1b2b3b4"})
    assert r.status_code == 400 and r.json()["code"] == "illegal"
    assert not Progress.objects.filter(user=member).exists()


def test_bad_attempt_tokens_are_refused_with_their_index(client, live_week):
    r = post(client, url(3, "turn"), {"tokens": ["zz"], "token": "a"})
    assert r.status_code == 400 and r.json()["at"] == 0
    assert post(client, url(0, "turn"), {"tokens": "a", "token": "a"}).status_code == 400
    assert post(client, url(0, "turn"), {"tokens": [], "token": "resign"}).status_code == 400
    r = client.post(url(0, "turn"), "not json", content_type="application/json")
    assert r.status_code == 400


def test_a_future_day_is_refused_and_never_served(client, live_week):
    # Today is Thursday: Friday, Saturday and Sunday are closed.
    friday = live_week.puzzles.get(day=4)
    page = client.get(url(4))
    assert page.status_code == 404
    assert friday.start.encode() not in page.content
    for what in ("state", "turn", "solution", "figures"):
        assert post(client, url(4, what), {"tokens": [], "token": "a"}).status_code == 404
    week = client.get("/puzzles/")
    assert friday.start.encode() not in week.content
    assert b"Opens Friday" in week.content


def test_a_day_opens_on_its_day(client, live_week, today):
    import datetime as dt

    from .conftest import MONDAY

    today(MONDAY + dt.timedelta(days=4))
    assert client.get(url(4)).status_code == 200


def test_get_is_not_a_turn(client, live_week):
    assert client.get(url(0, "turn")).status_code == 405
