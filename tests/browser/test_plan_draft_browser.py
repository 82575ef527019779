"""A half-built plan survives a reload, for its own seat only (issue #42, point 13): alice
chooses two of her nine cards, reloads, and finds them chosen in the same order; nothing of
the draft went to the server (no frame her socket sent carries it); bob, signed in in the
same tab, and a visitor watching there see no draft; a draft that no longer fits (another
round) is dropped; committing ends the draft. 390 px light and 1366 px dark, axe clean;
screenshots `plan-draft-*`."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.turns.store import live
from tests.browser.axe import assert_accessible
from tests.browser.devices import PASSWORD, sign_in
from tests.browser.screens import browser, new_page, shoot

NAMES = ("alice", "bob", "carol")
KIND = get_kind("cargo-express")


@pytest.fixture
def planning(django_user_model, live_url):
    """Three members at a table, the characters picked: everyone plans."""
    users = {name: django_user_model.objects.create_user(name, f"{name}@example.com",
                                                         PASSWORD) for name in NAMES}
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(users[name]) for name in NAMES])
    while services.state_of(services.get_game(game.id))["phase"] == "pick":
        lg = live(services.get_game(game.id))
        seat = lg.acting()[0]
        services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]),
                            ply=lg.sequence(seat),
                            token=KIND.bot_decision(lg.redacted(seat), seat, "easy", 3))
    return game.id


def open_game(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("[data-connection]")).to_have_text("Live")


def sign_out(page: Page) -> None:
    page.get_by_role("navigation", name="Main").get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("navigation", name="Main").get_by_role(
        "link", name="Sign in")).to_be_visible()


def stack_line(page: Page):
    return page.locator("[data-controls] [data-stack]")


@pytest.mark.parametrize(("size", "scheme"), [(390, "light"), (1366, "dark")])
def test_a_half_built_plan_survives_a_reload_for_its_own_seat_only(planning, chromium_path,
                                                                   live_url, size, scheme):
    url = f"{live_url}/g/{planning}"
    with browser(chromium_path) as opened:
        page = new_page(opened, size, scheme)
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(
            payload if isinstance(payload, str) else payload.decode())))
        sign_in(page, live_url, "alice@example.com", name="alice")
        open_game(page, url)
        cards = page.locator("[data-controls] .xp-card")
        expect(cards).to_have_count(9)
        first, second = cards.nth(1).get_attribute("data-card"), cards.nth(0).get_attribute(
            "data-card")
        cards.nth(1).click()
        cards.nth(0).click()
        expect(stack_line(page)).to_have_attribute("data-stack", f"{first}{second}")

        page.reload()
        expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(stack_line(page)).to_have_attribute("data-stack", f"{first}{second}")
        expect(stack_line(page)).to_have_text(f"Stack, top first: {first}, {second} (1 more)")
        expect(page.locator(f"[data-card={first}]")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("[data-controls] h2")).to_have_text("Build your stack")
        shoot(page, f"plan-draft-reloaded-{size}-{scheme}")
        assert_accessible(page, f"plan draft reloaded {size} {scheme}")
        # The draft stayed in the browser: no frame carried it to the server.
        frames = [json.loads(text) for text in sent]
        assert not [f for f in frames if f.get("type") not in ("sync", "ping", "spectators",
                                                                "chat_sync", "chat")], frames

        # Another seat in the same tab: bob sees his own empty stack, not alice's draft.
        sign_out(page)
        open_game(page, url)  # a visitor watching: no controls, no draft
        expect(page.locator("[data-controls]")).to_be_hidden()
        expect(page.locator("[data-stack]")).to_have_count(0)
        sign_in(page, live_url, "bob@example.com", name="bob")
        open_game(page, url)
        expect(stack_line(page)).to_have_text("Stack: empty")
        expect(page.locator("[data-controls] .xp-card[aria-pressed=true]")).to_have_count(0)
        sign_out(page)

        # alice again: her draft is there; one that no longer fits (another round) is not.
        sign_in(page, live_url, "alice@example.com", name="alice")
        open_game(page, url)
        expect(stack_line(page)).to_have_attribute("data-stack", f"{first}{second}")
        key = page.evaluate("Object.keys(sessionStorage).find((k) => k.includes('plan-draft'))")
        assert key and key.endswith(":0"), key  # the seat's own key (alice is seat 1, index 0)
        page.evaluate("""(key) => {
          const draft = JSON.parse(sessionStorage.getItem(key));
          sessionStorage.setItem(key, JSON.stringify({...draft, round: draft.round - 1}));
        }""", key)
        page.reload()
        expect(page.locator("[data-connection]")).to_have_text("Live")
        expect(stack_line(page)).to_have_text("Stack: empty")
        assert page.evaluate("(key) => sessionStorage.getItem(key)", key) is None

        # Committing ends the draft: the committed stack is the server's, kept as before.
        for i in (2, 0, 1):
            cards.nth(i).click()
        page.locator("[data-commit]").click()
        expect(page.locator("[data-controls] h2")).to_have_text("Your stack is committed")
        assert page.evaluate("(key) => sessionStorage.getItem(key)", key) is None
        assert page.errors == []  # type: ignore[attr-defined]
