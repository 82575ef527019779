"""The review page in Chromium: the marked turns with their boards, the graph, jumping to a
marked turn on the replay board, and the analysis board answering a trial turn. Screenshots
at 390 and 1366 px (tests/browser/screens.py)."""

import functools

import pytest
from playwright.sync_api import expect

from engine import review as engine_review
from games.kinds import cargo_connect
from games.records import review
from tests.browser.screens import shoot
from tests.games.bot_support import eager
from tests.games.support import new_game, scripted_tokens
from tests.review.support import play_out

__all__ = ["eager"]


@pytest.fixture
def reviewed(live_url, django_user_model, eager, monkeypatch):  # noqa: F811
    monkeypatch.setattr(cargo_connect, "review_game",
                        functools.partial(engine_review.review_game, depth=4, budget=4000))
    monkeypatch.setattr(cargo_connect, "analyse",
                        functools.partial(engine_review.analyse, depth=3, budget=3000))
    alice = django_user_model.objects.create_user("alice", "a@example.com", "a-long-cargo-pass")
    bob = django_user_model.objects.create_user("bob", "b@example.com", "a-long-cargo-pass")
    game = play_out(new_game(alice, bob, size=5), scripted_tokens(5), alice, bob)
    review.request_review(game.id)
    review.wait_for_background(game.id)  # the embedded default reviews on a thread
    return game


def test_the_review_page_lists_marks_and_answers_trial_turns(reviewed, page, live_url):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_url}/g/{reviewed.id}/review")
    expect(page.locator(".review-graph polyline")).to_have_count(1)
    marked = page.locator("[data-marked]")
    assert marked.count() > 0
    first = marked.first
    expect(first.locator("[data-reason]")).not_to_be_empty()
    expect(first.locator(".mini-bay")).to_have_count(3)
    page.wait_for_timeout(500)
    assert errors == []
    ply = int(first.get_attribute("data-marked"))
    first.get_by_role("button", name="Show on the board").click()
    counter = page.locator(".replay-controls [data-ply]")
    expect(counter).to_have_text(f"Turn {ply} of {reviewed.ply}")
    shoot(page, "review-1366")
    page.get_by_role("button", name="Try your own turns from this position").click()
    board = page.locator("[data-analysis]")
    expect(board.locator("[data-analysis-suggestion]")).to_contain_text("CargoBot suggests")
    board.locator(".target.column:not([disabled])").first.click()
    expect(board.locator("[data-analysis-verdict]")).to_contain_text("CargoBot", timeout=15_000)
    expect(board.locator("[data-analysis-line]")).to_contain_text(f"From turn {ply}:")
    shoot(page, "review-analysis-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/g/{reviewed.id}/review")
    expect(page.locator("[data-marked]").first).to_be_visible()
    shoot(page, "review-390")
    assert errors == []
