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


def pytest_collection_modifyitems(config, items):
    """With LIVE_FAST_PATH=0, the tests of the fast path's own pieces (marked `fast_path`)
    are skipped: what they test is turned off (games/fast/)."""
    from django.conf import settings

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
    games and presence (games/limits.py, games/history.py, games/fast/warm.py,
    games/presence.py), as a fresh server process would."""
    from games import history, limits, presence
    from games.fast import warm

    limits.reset()
    history.recent.clear()
    warm.clear()
    presence.reset()
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
