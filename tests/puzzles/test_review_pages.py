"""Reviewing a puzzle attempt on the site: only once the attempt is over; the review page
(the same presentation as a game's review: the marked turn with its reason and boards, the
replay viewer); a failed attempt's review counts as showing the solution; a shared review
asks first whoever has not solved the puzzle; the same attempt is reviewed once."""

from django.contrib.auth import get_user_model
from django.test import Client

from puzzles.models import AttemptReview, Progress

from .conftest import SOLVE, post, url

LOST = "Dropping in a would have completed your I (a1 a2 a3 a4) and met the goal"


def review(client, tokens, day=0):
    return post(client, url(day, "review"), {"tokens": tokens})


def test_an_attempt_in_progress_is_not_reviewed(client, live_week, member):
    client.force_login(member)
    line = live_week.puzzles.get(day=3).solution.split()  # a puzzle of several turns
    for tokens in ([], line[:1]):
        r = review(client, tokens, day=3)
        assert r.status_code == 409 and r.json()["code"] == "not_over"
    assert review(client, ["zz"]).status_code == 400
    assert not AttemptReview.objects.exists()
    assert not Progress.objects.filter(user=member, shown_at__isnull=False).exists()


def test_the_review_of_a_failed_attempt_marks_the_losing_turn(client, live_week, member):
    client.force_login(member)
    post(client, url(0, "turn"), {"tokens": [], "token": "b"})  # out of turns
    r = review(client, ["b"])
    assert r.status_code == 200
    body = r.json()
    assert body["shown"] is True and body["progress"]["shown"] is True
    page = client.get(body["url"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Out of turns: the goal was not met." in html
    assert "Turn 1 lost the puzzle" in html
    # the shared presentation: the marked turn, its reason, its three boards, the replay
    assert 'class="marked-list"' in html and 'data-marked="0"' in html
    assert LOST in html
    assert html.count('class="mini-bay-figure') == 3
    assert html.count("is-marked") == 3 * 4  # a1 a2 a3 a4 ringed on each board
    assert 'id="review-replay"' in html and 'id="replay-data"' in html
    assert "js/puzzles/review.js" in html
    entry = page.context["marked"][0]
    assert entry["suggested"] == "the solver's turn" and entry["best"] == SOLVE


def test_reviewing_ones_failed_attempt_counts_as_showing_the_solution(client, live_week,
                                                                        member):
    client.force_login(member)
    review(client, ["b"])
    post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    p = Progress.objects.get(user=member)
    assert p.solved and p.shown_at is not None and not p.unaided


def test_the_review_of_a_solved_attempt_shows_nothing_new(client, live_week, member):
    client.force_login(member)
    post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    body = review(client, [SOLVE]).json()
    assert body["shown"] is False
    html = client.get(body["url"]).content.decode()
    assert "Solved in 1 turn, within the limit of 1." in html
    assert "Every turn kept the goal within reach" in html
    assert "data-no-marks" in html
    p = Progress.objects.get(user=member)
    assert p.unaided and p.shown_at is None


def test_the_same_attempt_is_reviewed_once(client, live_week, member):
    client.force_login(member)
    first = review(client, ["b"]).json()["url"]
    assert review(Client(), ["b"]).json()["url"] == first
    assert AttemptReview.objects.count() == 1


def test_a_shared_review_asks_before_showing_a_solution(client, live_week, member):
    client.force_login(member)
    link = review(client, ["b"]).json()["url"]
    bob = get_user_model().objects.create_user("bob", "bob@example.com", "a-long-cargo-pass")
    other = Client()
    other.force_login(bob)
    asked = other.get(link)
    assert asked.status_code == 200 and asked.context["ask"]
    html = asked.content.decode()
    assert "This review shows a solution" in html and LOST not in html
    assert "replay-data" not in html
    assert not Progress.objects.filter(user=bob).exists()
    assert other.post(link).status_code == 302  # open it anyway
    assert Progress.objects.get(user=bob).shown_at is not None
    assert LOST in other.get(link).content.decode()


def test_a_solver_sees_a_shared_review_at_once(client, live_week, member):
    link = review(Client(), ["b"]).json()["url"]  # a guest's failed attempt
    client.force_login(member)
    post(client, url(0, "turn"), {"tokens": [], "token": SOLVE})
    page = client.get(link)
    assert not page.context.get("ask") and LOST in page.content.decode()
    assert Progress.objects.get(user=member).unaided


def test_a_guest_sees_their_own_review_and_a_stranger_is_asked(live_week):
    guest = Client()
    body = review(guest, ["b"]).json()
    assert body["shown"] is True and "progress" not in body
    mine = guest.get(body["url"])
    assert LOST in mine.content.decode() and "data-guest-saw" in mine.content.decode()
    assert Client().get(body["url"]).context["ask"]


def test_an_unknown_review_is_not_found(client, live_week):
    assert client.get("/puzzles/review/nosuchreview").status_code == 404
