"""Renders that follow a commit on an ASGI process's render thread (games/sockets/renders.py):
run from any thread, on the one render thread, after their delay, their frames sent from the
event loop in order; nothing without a running loop (the caller sends a task then); a render
that fails is logged and the next one still runs."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from games.sockets import renders


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, str, float]]:
    """What reaches the channel layer: (group, the frame's text, when)."""
    got: list[tuple[str, str, float]] = []

    async def send(group: str, message: dict[str, Any]) -> bool:
        got.append((group, message["text"], time.monotonic()))
        return True

    monkeypatch.setattr(renders.broadcast, "asend_message", send)
    yield got
    renders.close()
    monkeypatch.setattr(renders, "_loop", None)


def frames(*names: str) -> renders.Render:
    def render() -> list[tuple[str, dict[str, Any]]]:
        threads.append(threading.current_thread().name)
        return [(f"page.{n}", {"type": "sections", "n": n}) for n in names]
    threads: list[str] = []
    render.threads = threads  # type: ignore[attr-defined]
    return render


@pytest.mark.asyncio
async def test_a_render_from_another_thread_runs_on_the_render_thread_and_is_sent(sent):
    renders.loop_is(asyncio.get_running_loop())
    render = frames("a", "b")
    started = time.monotonic()
    assert await asyncio.to_thread(renders.run_soon, render)  # a live-db thread's call
    later = frames("c")
    assert await asyncio.to_thread(renders.run_soon, later, 0.2)
    await asyncio.sleep(0.05)
    await renders.settled()
    assert [(g, t) for g, t, _ in sent] == [("page.a", '{"type":"sections","n":"a"}'),
                                            ("page.b", '{"type":"sections","n":"b"}')]
    await asyncio.sleep(0.25)
    await renders.settled()
    assert [g for g, _, _ in sent] == ["page.a", "page.b", "page.c"]
    assert sent[2][2] - started >= 0.2  # not before its delay
    assert render.threads == later.threads == ["renders_0"]  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_a_failing_render_is_logged_and_the_next_one_runs(sent, caplog):
    renders.loop_is(asyncio.get_running_loop())

    def broken() -> list[tuple[str, dict[str, Any]]]:
        raise ValueError("no such arena")

    assert renders.run_soon(broken)
    assert renders.run_soon(frames("d"))
    await asyncio.sleep(0.05)
    await renders.settled()
    assert [g for g, _, _ in sent] == ["page.d"]
    assert "a render after a commit failed" in caplog.text


def test_without_a_running_loop_nothing_is_done(sent, monkeypatch):
    """A Celery worker, a management command: no socket's call recorded a loop, or the
    loop it recorded has stopped. The caller sends a task instead."""
    monkeypatch.setattr(renders, "_loop", None)
    assert not renders.run_soon(frames("e"))
    loop = asyncio.new_event_loop()
    renders.loop_is(loop)
    assert not renders.run_soon(frames("f"))  # recorded, not running
    loop.close()
    assert not renders.run_soon(frames("g"))
    assert sent == []
