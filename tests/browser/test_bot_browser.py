"""A guest plays CargoBot Easy on a 5×5 bay: from the Play page to the game page, a few
drops, "CargoBot is thinking…" while its task runs, its replies animated like a person's,
then a resign and the Final Audit. The bot's task runs in-process (eager, the embedded
default); it waits for the test to see the thinking line before it answers."""

import re
import threading

import pytest
from playwright.sync_api import expect

from games.kinds import cargo_connect
from tests.games.bot_support import eager

__all__ = ["eager"]


@pytest.fixture
def held_bot(monkeypatch):
    """CargoBot's turn waits until the test lets it go (once it has seen the thinking
    line): the line is there for as long as the test looks, however loaded the machine."""
    real = cargo_connect.choose_turn
    gate = threading.Semaphore(0)

    def choose_when_let(*args):
        gate.acquire(timeout=60)  # a failed test lets the bot go after a minute
        return real(*args)

    monkeypatch.setattr(cargo_connect, "choose_turn", choose_when_let)
    return gate


def test_a_guest_plays_cargobot_easy_and_sees_its_replies(eager, held_bot, page, live_url):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_url + "/play/")
    form = page.get_by_role("form", name="Play CargoBot")
    form.get_by_role("radio", name="CargoBot Easy").check()
    form.get_by_role("radio", name="5×5").check()
    form.get_by_role("radio", name="Blue").check()
    form.get_by_role("button", name="Play CargoBot").click()
    expect(page).to_have_url(re.compile(r"/g/\w{10}$"))
    expect(page.locator("[data-connection]")).to_have_text("Live")
    expect(page.locator(".player.orange .player-name")).to_contain_text("CargoBot Easy")
    expect(page.locator(".player.blue .player-name")).to_contain_text("Guest")
    status = page.locator("[data-status-line]")
    expect(status).to_have_text("Your turn")

    for turn, column in enumerate(["a", "c", "e"], start=1):
        page.locator(f'.target.column[data-column="{column}"]').click()
        expect(status).to_have_text("CargoBot Easy is thinking…")
        held_bot.release()
        expect(page.locator(".turn-list .tok")).to_have_count(2 * turn, timeout=15_000)
        expect(status).to_have_text("Your turn")
        expect(page.locator(".gbay-modules .module.blue")).to_have_count(turn)
        assert page.locator(".gbay-modules .module.orange").count() >= 1

    page.locator("[data-action=resign]").click()
    page.locator("dialog").get_by_role("button", name="Resign").click()
    audit = page.locator("[data-audit]")
    expect(audit).to_contain_text("Final Audit")
    expect(audit).to_contain_text("CargoBot Easy (Orange) wins")
    assert errors == []
