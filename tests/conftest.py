"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Variables that choose the backing services; tests of the embedded default remove them.
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY",
                "DJANGO_ALLOWED_HOSTS", "EMAIL_HOST", "LIVE_FAST_PATH")


TEST_WEB = ROOT / "tests" / "platform" / "web"


def pytest_configure(config):
    """Each worker's test database from the kept copy of the migrated schema
    (tests/migrated_db.py)."""
    from tests import migrated_db

    migrated_db.install()
    close_connections_when_threads_end()


def close_connections_when_threads_end() -> None:
    """Every thread of the test process closes its database connections as it ends.

    On PostgreSQL the tests hold connections in a pool (tests/settings.py), and a pooled
    connection is given back only by closing it: one left in a thread that ended (a test's
    own thread, an executor a test shut down) was lost to the pool for the rest of the run,
    until requests waited 10 s for a connection and failed (session 35's first run with the
    pool: 13 tests near the end of a worker's run). The site's own threads close theirs
    (games/records/review.py, games/timing/timeouts.py); a test's need not."""
    import threading

    from django.db import connections

    run = threading.Thread.run
    if getattr(run, "closes_connections", False):
        return

    def run_then_close(self: threading.Thread) -> None:
        try:
            run(self)
        finally:
            connections.close_all()

    run_then_close.closes_connections = True  # type: ignore[attr-defined]
    threading.Thread.run = run_then_close  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def test_only_views():
    """The test-only kinds' views (tests/platform/web/: the Bid kind's templates and ES
    modules) are found by the test run alone: its static files and templates are added to
    the settings' here, for the whole run, and never ship (production's STATICFILES_DIRS
    and template DIRS name static/ and templates/ only)."""
    from django.conf import settings
    from django.test.utils import override_settings

    engine = settings.TEMPLATES[0]
    templates = [{**engine, "DIRS": [*engine["DIRS"], TEST_WEB / "templates"]},
                 *settings.TEMPLATES[1:]]
    with override_settings(STATICFILES_DIRS=[*settings.STATICFILES_DIRS, TEST_WEB / "static"],
                           TEMPLATES=templates):
        yield


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Passwords hashed with MD5 in the test run (Django's advice for tests): the default
    PBKDF2's million iterations cost about 0.4 s a user on this 2-core machine, and nearly
    every test makes members. PBKDF2 stays second, so a hash made by a subprocess or a
    seed with the production settings still checks. Production's hashers are untouched
    (cargosite/settings.py); tests/test_settings.py checks them."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=[
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        yield


# What Django's post_migrate signal writes after a flush (content types and permissions, its
# only receivers here): kept by the quick flush below, so the signal need not run.
KEPT_BY_FLUSH = frozenset({"django_content_type", "auth_permission"})


def quick_flush(self) -> None:
    """A transactional test's tear-down (`TransactionTestCase._fixture_teardown`): every
    table emptied with `DELETE` in one transaction (the foreign keys are deferred, so the
    order does not matter) except the content types and permissions, which stay as the
    migrations' post_migrate signal made them, so the signal is not sent again.

    Django's own flush `TRUNCATE`s every table and then re-creates those rows: 300–740 ms
    a test on PostgreSQL here (2026-12-06; `DELETE` with the signal 140–170 ms, without it
    20–25 ms), and a browser or socket test ends with one. A truncated table is a new file
    on disk; a `DELETE` of a test's few rows is not. The rows a test leaves are gone either
    way; the content types keep their ids instead of taking new ones."""
    from django.db import connections, transaction

    from games.sockets import runtime

    # A socket's game end writes its stats and achievements after the socket's call
    # returned (the finish seam's AFTER_FRAMES stage, `runtime.follow`): let them end first.
    if not runtime.settle_follow_ups(timeout=10.0):
        raise AssertionError("a follow-up call still running 10 s after the test")
    for alias in self._databases_names(include_mirrors=False):
        connection = connections[alias]
        tables = [table for table in connection.introspection.django_table_names(
            only_existing=True, include_views=False) if table not in KEPT_BY_FLUSH]
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            for table in tables:
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")


@pytest.fixture(scope="session", autouse=True)
def quick_transactional_teardown():
    """Transactional tests end with `quick_flush` instead of Django's flush command."""
    from unittest import mock

    from django.test import TransactionTestCase

    with mock.patch.object(TransactionTestCase, "_fixture_teardown", quick_flush):
        yield


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """`commit(fn, *args)`: call `fn` and run the after-commit callbacks it registered, as
    a real commit would (frames, CargoBot's task), in a test whose transaction never
    commits."""

    def call(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return call


@pytest.fixture
def run_python():
    """Run `python -c code` in a fresh process with the settings module and the given env."""

    def run(code: str, **env: str) -> subprocess.CompletedProcess:
        base = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
        base["DJANGO_SETTINGS_MODULE"] = "cargosite.settings"
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )

    return run


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return [
        f"cargo: database {db['ENGINE']} ({db.get('HOST') or db['NAME']}), channel layer {layer}",
        f"cargo: live fast path {'on' if settings.LIVE_FAST_PATH else 'off (LIVE_FAST_PATH=0)'}",
        f"cargo: celery eager={settings.CELERY_TASK_ALWAYS_EAGER}, "
        f"browser required={os.environ.get('REQUIRE_BROWSER', '0')}",
    ]


# The modules (or `module::test`) left out of `make test-quick`, marked `slow`
# (docs/testing.md, "The quick tier"): each took 15 s or more of a worker in a parallel run
# (2026-12-06), or 8 s for one test, because it plays whole games, searches with the bots,
# runs the permission matrices' every cell, starts processes or a browser. `make test` runs
# them all; the quick tier keeps every other module of the engines, units and platform.
SLOW_MODULES = frozenset({
    # whole games and the bots' searches
    "tests/express/test_bots.py", "tests/express/test_yardstick.py",
    "tests/express/test_hard_search.py", "tests/express/test_examples.py",
    "tests/express/test_properties.py", "tests/engine/test_describe_options.py",
    "tests/engine/test_reference_differential.py", "tests/engine/test_properties.py",
    "tests/engine/test_cli_examples.py", "tests/engine/test_bot_determinism.py",
    "tests/games/test_express_against_bots.py", "tests/games/test_bot_games.py",
    "tests/games/test_bot_worker.py", "tests/platform/test_express_wire.py",
    "tests/platform/test_express_kind.py", "tests/platform/test_express_leaver_socket.py",
    "tests/platform/test_express_tables.py", "tests/chat/test_chat_wire.py",
    "tests/platform/test_frame_diffs.py", "tests/tournaments/test_arena_live_socket.py",
    # reviews at the review's budget
    "tests/review/test_golden_games.py", "tests/review/test_same_review_twice.py",
    "tests/review/test_review_64_turns.py",
    # profiles and results built from many or whole games
    "tests/profile/test_profile_queries.py", "tests/profile/test_express_results.py",
    "tests/profile/test_express_results_casual_and_leaver.py",
    "tests/profile/test_achievements.py",
    # the permission matrices: every role at every page and socket
    "tests/permissions/test_views.py", "tests/permissions/test_admin.py",
    "tests/permissions/test_sockets.py", "tests/permissions/test_api.py",
    # the API: a whole Cargo Express table played to its end; the reference client's whole
    # games through the API of a served site
    "tests/api/test_hidden.py::test_a_finished_table_is_whole_for_everyone",
    "tests/client/test_whole_games.py",
    # fresh processes, and a browser outside tests/browser/
    "tests/test_settings.py", "tests/rankings/test_ratings_browser.py",
    "tests/daily/test_daily_browser.py", "tests/daily/test_pages.py",
    # single tests of 8 s or more in the quick tier's own run (`path::name`)
    "tests/engine/test_solver_examples.py", "tests/daily/test_board_speed.py",
    "tests/engine/test_solver_property.py::test_it_agrees_with_breadth_first_search",
    "tests/test_embedded_beat.py::test_the_default_is_on_exactly_without_redis",
    "tests/test_password_flows.py::test_mail_goes_to_the_console_only_in_development",
})


def pytest_collection_modifyitems(config, items):
    """The modules of SLOW_MODULES are marked `slow` (left out of `make test-quick`). With
    LIVE_FAST_PATH=0, the tests of the fast path's own pieces (marked `fast_path`) are
    skipped: what they test is turned off (games/fast/)."""
    from django.conf import settings

    slow = pytest.mark.slow
    for item in items:
        module = Path(item.path).relative_to(ROOT).as_posix()
        if module in SLOW_MODULES or f"{module}::{item.originalname}" in SLOW_MODULES:
            item.add_marker(slow)
    if settings.LIVE_FAST_PATH:
        return
    skip = pytest.mark.skip(reason="tests a piece of the live fast path (games/fast/), which "
                            "LIVE_FAST_PATH=0 turns off")
    for item in items:
        if "fast_path" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def fresh_live_limits():
    """Each test starts with empty per-process budgets, socket counts, frame cache, warm
    games and presence (games/sockets/limits.py, games/records/history.py, games/fast/warm.py,
    games/frames/presence.py), and no channel-layer outage under way (games/frames/broadcast.py: an
    outage is logged when it starts, so one another test left open hid this test's), as a
    fresh server process would."""
    from games.fast import warm
    from games.frames import broadcast, presence
    from games.records import history
    from games.sockets import limits

    limits.reset()
    history.recent.clear()
    warm.clear()
    presence.reset()
    with broadcast.health.lock:
        broadcast.health.failing_since = None
    yield


@pytest.fixture(autouse=True)
def fresh_bot_accounts():
    """Each test starts with the BOT accounts' display map unread (accounts.bots: held in
    this process and the cache, it would outlive the test that made a BOT account, whose
    rows roll back), as a fresh server process would."""
    from accounts import bots

    bots.forget()
    yield
    bots.forget()


@pytest.fixture(autouse=True)
def fresh_signup_budget():
    """Each test starts with allauth's sign-up budget of the test client's address (20 a
    minute, in the cache) unspent. With Redis the cache outlives a test, and a test's one
    sign-up was refused (429) after the earlier tests of its worker had spent the minute's
    twenty (a local .ci/run, seed 1594761432). Nothing is cleared if the cache does not
    answer (the fault tests stop Redis)."""
    from allauth.core import ratelimit
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    request = RequestFactory().post("/accounts/signup/")  # REMOTE_ADDR 127.0.0.1
    request.user = AnonymousUser()
    try:
        ratelimit.clear(request, action="signup")
    except Exception:  # the cache is down: this test has nothing to clear there
        pass
    yield


@pytest.fixture(autouse=True)
def celery_join_flag_clear():
    """Each test starts with Celery's "a join would block" flag clear. An eager
    `apply_async` sets it for the task's run and puts back what it found, but the flag is
    one per process, not per thread: two eager tasks overlapping in a live server's threads
    (two seats' plans, each waking a bot) can put it back the wrong way round and leave it
    set, and a later test's `result.get()` then fails with "Never call result.get() within
    a task!" (CI, stop 36; tests/games/test_eager_flag.py). The site never joins a result."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
