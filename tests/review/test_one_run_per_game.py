"""One review run at a time per game, cached once done, re-run when CargoBot's review
version changes; progress goes to the game's group as `review` frames."""

import pytest

from games.models import GameReview
from games.records import review

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch):
    tasks = []
    monkeypatch.setattr(review, "enqueue_review", lambda game_id: tasks.append(game_id))
    return tasks


def test_a_second_request_while_queued_sends_nothing(finished, sent):
    review.request_review(finished.id)
    review.request_review(finished.id)
    assert sent == [finished.id]
    assert GameReview.objects.get(pk=finished.id).status == "queued"


def test_a_done_review_is_cached(finished, sent, monkeypatch):
    frames = []
    monkeypatch.setattr(review, "send_to_group", lambda group, frame: frames.append((group, frame)))
    review.request_review(finished.id)
    assert review.run_review(finished.id) == "done"
    assert review.run_review(finished.id) == "cached"
    review.request_review(finished.id)
    assert sent == [finished.id]
    row = GameReview.objects.get(pk=finished.id)
    assert row.status == "done" and row.cpu_seconds is not None
    groups = {g for g, _ in frames}
    assert groups == {f"game.{finished.id}"}
    dones = [f["done"] for _, f in frames]
    assert dones == sorted(dones) and dones[-1] == finished.ply
    assert frames[-1][1]["status"] == "done"


def test_a_running_review_is_not_run_twice(finished, sent):
    review.request_review(finished.id)
    GameReview.objects.filter(pk=finished.id).update(status="running")
    assert review.run_review(finished.id) == "busy"


def test_a_new_review_version_makes_the_old_review_stale(finished, sent, monkeypatch):
    review.request_review(finished.id)
    review.run_review(finished.id)
    monkeypatch.setattr(type(finished.kind), "review_version", "another")
    game = review.get_game(finished.id)
    assert review.review_status(game)["status"] == "stale"
    review.request_review(finished.id)
    assert sent == [finished.id, finished.id]
