"""The axe helper (tests/browser/axe.py) finds violations of every impact and names them,
and passes a page that has none."""

import pytest

from tests.browser.axe import assert_accessible, violations

ACCESSIBLE = """<!doctype html><html lang="en"><head><title>Fine</title></head>
<body><main><h1>Fine</h1><p>Nothing wrong here.</p></main></body></html>"""

# An image without alt text (critical) and a region-less paragraph (moderate, best practice).
BROKEN = """<!doctype html><html lang="en"><head><title>Broken</title></head>
<body><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p>Outside any landmark</p>
</body></html>"""


def test_a_page_without_violations_passes(page):
    page.set_content(ACCESSIBLE)
    assert violations(page) == []
    assert_accessible(page, "a clean page")


def test_violations_of_any_impact_fail_and_are_described(page):
    page.set_content(BROKEN)
    found = {violation["id"]: violation["impact"] for violation in violations(page)}
    assert found["image-alt"] == "critical"
    assert found["region"] == "moderate"
    with pytest.raises(AssertionError) as failure:
        assert_accessible(page, "the broken page")
    message = str(failure.value)
    assert "on the broken page" in message
    assert "[critical] image-alt" in message
    assert "[moderate] region" in message
    assert "<img" in message


def test_axe_runs_under_the_sites_content_security_policy(page, live_url):
    page.goto(f"{live_url}/")
    assert isinstance(violations(page), list)
