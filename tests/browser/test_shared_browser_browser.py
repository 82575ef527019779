"""The test process's shared Playwright driver and Chromium (tests/browser/shared.py): a
lease marks Playwright's loop as running on the test's thread only while it lasts, closes
the contexts opened in it, and a Chromium that went away is started again."""

import asyncio
import gc

import greenlet
import pytest

from tests.browser import shared


def running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def test_a_loop_is_marked_only_during_a_lease_and_its_contexts_close(chromium_path):
    with shared.lease(chromium_path) as browser:
        context = browser.new_context()
        context.new_page().goto("data:text/html,<p id=x>cargo</p>")
        assert running_loop() is not None
        with shared.lease(chromium_path) as same:  # leases nest
            assert same is browser
            inner = same.new_context()
        assert inner not in browser.contexts and context in browser.contexts
        assert running_loop() is not None
    assert running_loop() is None
    assert context not in browser.contexts
    asyncio.run(asyncio.sleep(0))  # a test after a browser test may start its own loop


@pytest.mark.django_db
def test_the_database_answers_between_leases(chromium_path, django_user_model):
    with shared.lease(chromium_path) as browser:
        browser.new_context().new_page().goto("data:text/html,<p>cargo</p>")
    django_user_model.objects.create_user("between", "between@example.com", "a-long-pass")
    assert django_user_model.objects.filter(username="between").exists()


def test_a_chromium_that_went_away_is_started_again(chromium_path):
    with shared.lease(chromium_path) as browser:
        browser.close()
    with shared.lease(chromium_path) as again:
        assert again is not browser and again.is_connected()
        page = again.new_context().new_page()
        page.goto("data:text/html,<p id=x>cargo</p>")
        assert page.text_content("#x") == "cargo"


def test_a_suspended_greenlet_freed_later_leaves_no_loop_marked(chromium_path):
    """What a Playwright handler's greenlet does when the collector frees it suspended in a
    call: its `finally` marks the loop (playwright/_impl/_greenlets.py, wait_for_future)."""
    with shared.lease(chromium_path):
        loop = asyncio.get_running_loop()
    home = greenlet.getcurrent()

    def handler():
        try:
            home.switch()  # suspended, as in a call its context's close cut short
        finally:
            asyncio._set_running_loop(loop)

    suspended = greenlet.greenlet(handler)
    suspended.switch()
    assert running_loop() is None
    del suspended
    gc.collect()
    assert running_loop() is None
