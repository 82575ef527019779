"""The review page: the Review button starts a review (in-process in the embedded
default), the page then lists the marked turns with their reasons and boards, the graph and
the accuracy, all in the HTML (readable without JavaScript), at a shareable URL."""

import pytest
from django.test import Client

from games.models import GameReview
from games.records import review as reviews

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_game_offers_the_review_button(finished):
    page = Client().get(f"/g/{finished.id}/review")
    assert page.status_code == 200
    assert b"data-start-review" in page.content


def test_the_button_runs_the_review_and_the_page_shows_it(finished):
    client = Client()
    response = client.post(f"/g/{finished.id}/review")
    assert response.status_code == 302
    assert response["Location"] == f"/g/{finished.id}/review"
    reviews.wait_for_background(finished.id)  # the embedded default reviews on a thread
    review = GameReview.objects.get(game_id=finished.id)
    assert review.status == "done"
    assert review.done == review.total == finished.ply
    page = Client().get(f"/g/{finished.id}/review")  # another viewer: shareable
    html = page.content.decode()
    assert "data-start-review" not in html
    assert '<svg class="review-graph"' in html
    assert "<polyline" in html
    assert 'data-accuracy="blue"' in html and 'data-accuracy="orange"' in html
    marked = [t for t in review.data["turns"] if t["grade"]]
    for t in marked:
        assert f'id="turn-{t["ply"]}"' in html
        assert t["reason"].replace("'", "&#x27;") in html
    if not marked:
        assert "data-no-marks" in html


def test_the_game_and_replay_pages_link_to_the_review(finished):
    client = Client()
    assert f'href="/g/{finished.id}/review"' in client.get(f"/g/{finished.id}").content.decode()
    replay = client.get(f"/g/{finished.id}/replay").content.decode()
    assert f'href="/g/{finished.id}/review"' in replay


def test_the_button_answers_at_once_and_the_review_runs_behind_it(finished, monkeypatch):
    """Issue #27, item 7: in the embedded default the review ran inside the button's
    request (4-17 s of an unchanged page). The request now answers while the review runs,
    and the page it lands on shows the progress."""
    import threading

    from games.kinds import cargo_connect

    release, entered = threading.Event(), threading.Event()
    real = cargo_connect.review_game

    def held(*args, **kwargs):
        entered.set()
        assert release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(cargo_connect, "review_game", held)
    response = Client().post(f"/g/{finished.id}/review")
    assert response.status_code == 302  # answered while the review is held
    # The review's thread has written "running" and committed before it reviews: read
    # after that. (SQLite's shared-cache test database refuses a read of a table another
    # connection is writing, "database table is locked", at once: a random-order run of
    # session 32 read while the thread marked the row running.)
    assert entered.wait(60)
    assert GameReview.objects.get(game_id=finished.id).status in ("queued", "running")
    page = Client().get(f"/g/{finished.id}/review").content.decode()
    assert "data-review-progress" in page
    assert Client().get(f"/g/{finished.id}/review.json").json()["status"] in (
        "queued", "running")
    release.set()
    reviews.wait_for_background(finished.id)
    assert GameReview.objects.get(game_id=finished.id).status == "done"
