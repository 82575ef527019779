"""An arena page's shared render, coalesced (tournaments/live.py, `shared_or_later`,
`shared_soon`; docs/tournaments-arena.md, "The CPU profile", "Session 31"): with a worker,
at most one render of the shared sections per arena per window (`SHARED_WINDOW_MS`); a
change later in the window gets one render for the window's end, which reads the arena as
it is then (the latest state, nothing lost); every member's own sections are sent at once
whatever the shared render does. A game's end leaves the render to the process's render
thread (games.sockets.renders), or to the worker where there is none."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tests.tournaments.test_arena_site import active, arena, entered, resign
from tests.tournaments.test_swiss_services import members
from tournaments import arenas, live, tasks

pytestmark = pytest.mark.django_db


def paired_arena(monkeypatch) -> tuple[Any, Any, Any, list[tuple[str, dict[str, Any]]],
                                       list[tuple[str, tuple, dict]]]:
    """An arena of four members in two games, with tasks sent to a worker (not run here):
    the arena, its two pairings, the frames sent and the tasks sent, recorded."""
    t = arena()
    entered(t, members(4))
    arenas.pair(t.id)
    first, second = active(t)
    frames: list[tuple[str, dict[str, Any]]] = []
    sent: list[tuple[str, tuple, dict]] = []
    monkeypatch.setattr(live.broadcast, "send_frames", frames.extend)
    monkeypatch.setattr(live, "eager", lambda: False)  # as with a worker
    monkeypatch.setattr(live, "enqueue",
                        lambda name, *args, **options: sent.append((name, args, options)))
    return t, first, second, frames, sent


class RenderThread:
    """`games.sockets.renders.run_soon` as in an ASGI process: the renders asked for, run
    when the test says."""

    def __init__(self) -> None:
        self.due: list[tuple[Any, float]] = []

    def run_soon(self, render: Any, delay: float = 0.0) -> bool:
        self.due.append((render, delay))
        return True

    def run(self, frames: list[tuple[str, dict[str, Any]]]) -> None:
        (render, _delay), *self.due = self.due
        frames.extend(render())


def test_one_shared_render_a_window_and_the_late_one_shows_the_latest_state(
        monkeypatch, django_capture_on_commit_callbacks):
    """In an ASGI process: a game's end asks the render thread for the shared sections
    (not the live-db thread that ended it, not the worker)."""
    t, first, second, frames, sent = paired_arena(monkeypatch)
    thread = RenderThread()
    monkeypatch.setattr(live.renders, "run_soon", thread.run_soon)
    window = live.SHARED_WINDOW_MS
    clock = [1_000_000 * window + 10]  # 10 ms into a window
    monkeypatch.setattr(live, "now_ms", lambda: clock[0])
    cache.clear()
    page = live.group(t.id)

    def shared() -> list[str]:
        return [f["sections"]["arena"] for g, f in frames if g == page]

    def own(user_id: int) -> list[dict[str, Any]]:
        return [f for g, f in frames if g == live.member_group(t.id, user_id)]

    resign(first, 0, django_capture_on_commit_callbacks)  # orange wins
    # The first change of the window: its render asked for at once; the players' own
    # sections sent by the ending call itself.
    assert [delay for _, delay in thread.due] == [0.0] and sent == []
    assert own(first.orange.user_id) and own(first.blue.user_id) and shared() == []
    thread.run(frames)
    assert len(shared()) == 1
    frames.clear()
    clock[0] += 40  # 50 ms into the window
    resign(second, 1, django_capture_on_commit_callbacks)  # blue wins, within the window
    assert shared() == [] and [d for _, d in thread.due] == [(window - 50) / 1000]
    # The players' own sections are not held back: "Your entry" shows the result now.
    assert 'data-games="1"' in own(second.blue.user_id)[-1]["sections"]["entry"]
    live.send_sections(t.id, ("arena",))  # another change in the same window
    assert shared() == [] and len(thread.due) == 1  # one late render is already due
    clock[0] += window - 50  # the window's end: the render thread runs the late render
    thread.run(frames)
    (html,) = shared()
    winner = second.blue.user.username
    assert f'data-user="{winner}"' in html and '<td class="points">2</td>' in html
    assert html.count('<td class="points">2</td>') == 2  # both results in it
    assert {g for g, _ in frames} >= {page, live.LIST_GROUP}
    # The late render took its window: a change now waits for that window's end.
    live.send_sections(t.id, ("arena",))
    assert len(shared()) == 1 and len(thread.due) == 1 and sent == []


def test_without_a_render_thread_the_worker_renders_the_window_taken_for_it(
        monkeypatch, django_capture_on_commit_callbacks):
    """Where no event loop runs (a game ended by the worker's clock task): the window is
    taken by the game's end and its render sent to the worker, which renders it although
    the window is taken."""
    t, first, second, frames, sent = paired_arena(monkeypatch)
    monkeypatch.setattr(live.renders, "run_soon", lambda render, delay=0.0: False)
    window = live.SHARED_WINDOW_MS
    clock = [3_000_000 * window + 10]
    monkeypatch.setattr(live, "now_ms", lambda: clock[0])
    cache.clear()
    resign(first, 0, django_capture_on_commit_callbacks)
    assert sent == [("tournaments.arena_sections", (t.id, 3_000_000), {})]
    frames.clear()
    tasks.arena_sections(*sent[0][1])
    assert [g for g, _ in frames] == [live.group(t.id), live.LIST_GROUP]
    clock[0] += 20
    resign(second, 1, django_capture_on_commit_callbacks)  # the window is taken: late
    assert sent[1] == ("tournaments.arena_sections", (t.id,),
                       {"countdown": (window - 30) / 1000})


def test_a_late_render_is_dropped_when_a_render_began_after_its_change(monkeypatch):
    """The window's late render runs after a change of the next window was rendered at
    once: that render read the arena after the late one's change, so nothing is sent
    twice."""
    t = arena()
    entered(t, members(4))
    frames: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(live.broadcast, "send_frames", frames.extend)
    monkeypatch.setattr(live, "eager", lambda: False)
    monkeypatch.setattr(live, "enqueue", lambda name, *args, **options: None)
    window = live.SHARED_WINDOW_MS
    clock = [2_000_000 * window]
    monkeypatch.setattr(live, "now_ms", lambda: clock[0])
    cache.clear()
    assert live.shared_or_later(t.id)  # the window's first change: at once
    assert not live.shared_or_later(t.id)  # a second: a late render for the window's end
    clock[0] += window + 5  # the next window: a change renders at once ...
    assert live.shared_or_later(t.id)
    live.send_shared(t.id)  # ... and the late render, run behind it, sends nothing
    assert frames == []
    clock[0] += window  # a window nobody took: the late render sends
    live.send_shared(t.id)
    assert [g for g, _ in frames] == [live.group(t.id), live.LIST_GROUP]


@pytest.mark.django_db(transaction=True)  # the pass commits: its frames are sent on commit
def test_a_pass_in_the_worker_sends_its_frames_in_one_event_loop(monkeypatch):
    """The pass's task (no event loop in a worker): the games' frames and the pages'
    sections go out together, one `async_to_sync` (one Redis connection), in order."""
    t = arena()
    entered(t, members(4))
    loops: list[object] = []
    real = live.broadcast.async_to_sync

    def counted(func):
        loops.append(func)
        return real(func)

    monkeypatch.setattr(live.broadcast, "async_to_sync", counted)
    sent: list[str] = []
    asend = live.broadcast.asend_message

    async def kept(group: str, message: dict) -> bool:
        sent.append(group)
        return await asend(group, message)

    monkeypatch.setattr(live.broadcast, "asend_message", kept)
    assert "2 game(s) started" in tasks.arena_pass(t.id)
    assert len(active(t)) == 2 and len(loops) == 1
    page = live.group(t.id)
    players = [live.member_group(t.id, p.blue.user_id) for p in active(t)]
    assert page in sent and set(players) <= set(sent)
    assert max(sent.index(g) for g in players) < sent.index(page)  # own sections first
