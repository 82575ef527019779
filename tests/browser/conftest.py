"""Browser tests: the site served by uvicorn in a thread, driven by Playwright in Chromium.

`live_url` serves the real ASGI application (HTTP and WebSockets, as in production) from a
uvicorn server running in a background thread of the test process, against the test
database; tests that use it get `transactional_db`, so rows they create are committed and
visible to the server. pytest-django's `live_server` is WSGI-only, hence this.

`page` opens a fresh context (its own cookies, storage and cache) in the test process's
Chromium (tests/browser/shared.py: one driver and one Chromium a process, lent to each
test in turn; Debian's headless shell, /usr/bin/chromium-headless-shell, or else Debian's
/usr/bin/chromium; Playwright cannot download browsers here). Without Chromium the
browser tests are skipped with a reason, unless REQUIRE_BROWSER=1 (CI), which makes that a
failure.

Playwright's sync API keeps an event loop registered on the main thread while a browser is
lent, so Django refuses ORM calls from the test body then (SynchronousOnlyOperation):
create data in a fixture that `page`-using tests request before `page`, not in the test
body (or through `dbwork.in_thread`).
"""

import os
import shutil
import socket
import threading
import time

import pytest
import uvicorn

# Playwright's `expect` waits 5 s by default: on this 2-core machine, with the suite's other
# worker, a live server and Chromium sharing it, a page can take longer to answer. What a
# test waits for it still gets; only a failing test takes longer to say so.
EXPECT_TIMEOUT_MS = 15_000


def pytest_configure(config):
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    """CHROMIUM_PATH if set; else Debian's headless shell (`apt-get install
    chromium-headless-shell`: the same Chromium build without the full browser's UI, what
    Playwright itself runs for headless tests, and about 40% cheaper a test here,
    docs/testing.md); else Debian's Chromium."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium-headless-shell",
                      "/usr/bin/chromium"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


def browser_required() -> bool:
    return os.environ.get("REQUIRE_BROWSER", "").lower() in ("1", "true", "yes")


class ThreadedUvicorn:
    """uvicorn serving an ASGI app on a free loopback port, in a daemon thread."""

    def __init__(self, app):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, lifespan="off", log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn test server did not start")
            time.sleep(0.05)

    def settle(self, timeout: float = 5.0) -> None:
        """Wait (at most `timeout`) until the server runs no request and no socket: the
        browser's contexts are closed at a test's end, and a socket's disconnect may still
        be writing when the test's tear-down empties the tables (on SQLite that flush then
        fails, "database table is locked"). A stream that outlives the wait is left."""
        deadline = time.monotonic() + timeout
        while self.server.server_state.tasks and time.monotonic() < deadline:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker):
    from cargosite.asgi import application

    server = ThreadedUvicorn(application)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def live_url(asgi_server, transactional_db):
    yield asgi_server.url
    asgi_server.settle()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        message = (
            "no Chromium at /usr/bin/chromium or on PATH (install it: apt-get install -y "
            "chromium; set CHROMIUM_PATH to use another)"
        )
        if browser_required():
            pytest.fail(f"REQUIRE_BROWSER=1 but {message}")
        pytest.skip(f"browser tests skipped: {message}")
    return path


@pytest.fixture
def page(chromium_path, live_url):
    # Depends on live_url so the test database is set up before the browser is lent and
    # flushed after the lease ends (see the module docstring).
    from tests.browser import shared

    with shared.lease(chromium_path) as browser:
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        yield page


def pytest_sessionfinish(session, exitstatus):
    from tests.browser import shared

    shared.stop()
