"""An arena page's shared render, coalesced (tournaments/live.py, `shared_or_later`;
docs/tournaments-arena.md, "The CPU profile"): with a worker, at most one render of the
shared sections per arena per second; a change within the second gets one render sent a
second later, which reads the arena as it is then (the latest state, nothing lost); every
member's own sections are sent at once whatever the shared render does."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tests.tournaments.test_arena_site import active, arena, entered, resign
from tests.tournaments.test_swiss_services import members
from tournaments import arenas, live, tasks

pytestmark = pytest.mark.django_db


def test_one_shared_render_a_second_and_the_late_one_shows_the_latest_state(
        monkeypatch, django_capture_on_commit_callbacks):
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
    cache.clear()
    page = live.group(t.id)

    def shared() -> list[str]:
        return [f["sections"]["arena"] for g, f in frames if g == page]

    def own(user_id: int) -> list[dict[str, Any]]:
        return [f for g, f in frames if g == live.member_group(t.id, user_id)]

    resign(first, 0, django_capture_on_commit_callbacks)  # orange wins
    assert len(shared()) == 1 and sent == []  # the first render of the second: at once
    assert own(first.orange.user_id) and own(first.blue.user_id)
    frames.clear()
    resign(second, 1, django_capture_on_commit_callbacks)  # blue wins, within the second
    assert shared() == [] and sent == [("tournaments.arena_sections", (t.id,),
                                        {"countdown": live.SHARED_EVERY})]
    # The players' own sections are not held back: "Your entry" shows the result now.
    assert 'data-games="1"' in own(second.blue.user_id)[-1]["sections"]["entry"]
    live.send_sections(t.id, ("arena",))  # another change in the same second
    assert shared() == [] and len(sent) == 1  # one late render is already on its way
    tasks.arena_sections(t.id)  # the worker runs it a second later
    (html,) = shared()
    winner = second.blue.user.username
    assert f'data-user="{winner}"' in html and '<td class="points">2</td>' in html
    assert html.count('<td class="points">2</td>') == 2  # both results in it
    assert {g for g, _ in frames} >= {page, live.LIST_GROUP}


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
