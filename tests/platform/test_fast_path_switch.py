"""One setting, LIVE_FAST_PATH, turns every piece of the live fast path off (games/fast/,
docs/fast-path.md, "Where it lives and the switch"): each piece asked here with the setting
on and off, whichever way the suite runs. (The suite itself runs both ways in CI: .ci/run.)"""

import pytest
from channels.sessions import CookieMiddleware, SessionMiddleware

from cargosite import serve
from cargosite.socket_session import SocketSessionMiddleware, socket_auth_stack
from games import fast
from games.actors import SessionGuard
from games.fast import guard, loopdb, runtime, turns, warm
from tests.games.support import Actor, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[True, False], ids=["on", "off"])
def fast_path(request, settings):
    settings.LIVE_FAST_PATH = request.param
    return request.param


def test_enabled_is_the_setting(fast_path):
    assert fast.enabled() is fast_path


def test_off_no_game_is_kept_warm_and_nothing_follows(fast_path, django_user_model):
    alice = django_user_model.objects.create_user("alice", "a@example.com", "a-long-pass-1")
    bob = django_user_model.objects.create_user("bob", "b@example.com", "a-long-pass-2")
    game = new_game(alice, bob, size=5)
    from games.turns.store import get_game, live

    loaded = get_game(game.id)
    warm.keep(loaded, live(loaded))
    assert (warm.get(game.id) is not None) is fast_path
    if not fast_path:
        assert turns.apply_warm(game.id, Actor.of_user(alice), 0, "x", None) is None
        assert turns.follow(game.id, loaded.revision + 1, (0, 0, "x")) is None


def test_off_no_turn_is_written_from_the_loop(fast_path):
    if not fast_path:
        assert loopdb.enabled() is False


def test_off_the_session_is_never_checked_in_the_write(fast_path, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"

    class Session:
        session_key = "k" * 32

    checked = SessionGuard({"session": Session(), "user": None})
    assert guard.in_sql(checked) is fast_path


def test_off_sockets_get_channels_own_session_middleware(fast_path):
    stack = socket_auth_stack(object())
    assert isinstance(stack, CookieMiddleware)
    inner = stack.inner
    assert isinstance(inner, SocketSessionMiddleware if fast_path else SessionMiddleware)


def test_off_uvicorn_keeps_its_default_deflate(fast_path):
    assert serve.uvicorn_options()["ws_per_message_deflate"] is (not fast_path)


@pytest.fixture
def collector():
    """The collector's state as it was, put back after the test."""
    import gc

    threshold, callbacks = gc.get_threshold(), list(gc.callbacks)
    yield gc
    gc.unfreeze()
    gc.set_threshold(*threshold)
    gc.callbacks[:] = callbacks


def test_off_the_collector_keeps_python_s_defaults(fast_path, collector, settings):
    collector.set_threshold(700, 10, 10)
    settings.LIVE_GC_YOUNG = 50_000
    serve.tune_gc()
    assert collector.get_threshold() == ((50_000, 10, 10) if fast_path else (700, 10, 10))
    assert (collector.get_freeze_count() > 0) is fast_path


def test_a_young_generation_of_zero_leaves_the_collector_alone(collector, settings):
    collector.set_threshold(700, 10, 10)
    settings.LIVE_FAST_PATH, settings.LIVE_GC_YOUNG = True, 0
    serve.tune_gc()
    assert collector.get_threshold() == (700, 10, 10) and collector.get_freeze_count() == 0


def test_the_collector_s_pauses_are_timed(collector):
    from prometheus_client import REGISTRY

    from games.frames.metrics import watch_gc

    def full_collections():
        return REGISTRY.get_sample_value("cargo_gc_pause_seconds_count",
                                         {"generation": "2"}) or 0.0

    before = full_collections()
    watch_gc()
    collector.collect()
    assert full_collections() == before + 1


def test_off_service_calls_run_as_channels_runs_them(fast_path):
    from concurrent.futures import ThreadPoolExecutor

    from channels.db import DatabaseSyncToAsync

    with ThreadPoolExecutor(1) as pool:
        wrapped = runtime.on_pool(lambda: None, pool)
    assert isinstance(wrapped, DatabaseSyncToAsync) is (not fast_path)
