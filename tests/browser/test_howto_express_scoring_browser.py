"""How to play Cargo Express's scoring example says what its tie-break column counts (issue
#42, point 16: the column read 11, 13, 19 beside "Cars" 7, 9, 16, while the text said "a tie
goes to more cars"): the tie-break cars are the scored cars and the cars still on the train
(rules.md 69), and both the page and the table say so. 390 and 1366 px, both themes, axe."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import assert_accessible
from tests.browser.screens import browser, new_page, shoot


@pytest.mark.parametrize("screen", [390, 1366])
def test_the_scoring_example_explains_its_tie_break_cars(chromium_path, live_url, screen):
    with browser(chromium_path) as opened:
        for scheme in ("light", "dark"):
            page = new_page(opened, screen, scheme)
            page.goto(f"{live_url}/how-to-play/cargo-express#end")
            end = page.locator("#end")
            expect(end).to_contain_text("the cars still on the train count too")
            scores = end.locator("[data-howto-scores]")
            expect(scores).to_contain_text("counting those still on its train too")
            expect(scores).to_contain_text("Tie-break cars")
            if screen == 1366:  # the table (a phone has a card per seat, the same items)
                table = scores.locator(".xp-scores")
                heads = [h.inner_text() for h in table.locator("thead th").all()][1:]
                assert "Tie-break cars" in heads
                # Each seat's tie-break cars are at least its scored cars (the train adds).
                for row in table.locator("tbody tr").all():
                    cells = [c.inner_text() for c in row.locator("td").all()]
                    values = dict(zip(heads, cells, strict=True))
                    assert int(values["Tie-break cars"]) >= int(values["Cars"]), values
            expect(end).not_to_contain_text(re.compile(r"more cars wins(?!, and here)"))
            end.scroll_into_view_if_needed()
            shoot(page, f"express-howto-scoring-{screen}-{scheme}")
            assert_accessible(page, f"howto scoring {screen} {scheme}")
            assert page.errors == []  # type: ignore[attr-defined]
