"""A member's own sections carry when their reads began (tournaments/live.py, `own_frames`):
the page keeps, per section, the frame whose `at` is newest (static/js/tournaments-live.js),
so a frame rendered from rows read before a pairing committed must not outrank the frame
that pairing sent. Seen in the 200-player arena (docs/tournaments-arena.md, "Session 31"):
a game's end read its players' rows (no game), a pass paired one of them meanwhile and sent
"Play now", and the game end's frame, stamped after its reads, outranked it: the player
never saw their game and lost it by forfeit a minute later."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.test_arena_site import active, arena, entered, resign
from tests.tournaments.test_swiss_services import members
from tournaments import arena_standings, arenas, live

pytestmark = pytest.mark.django_db


def shown(frames: list[dict[str, Any]], name: str) -> str:
    """What a page shows of section `name` after `frames`, in any order of arrival: the
    newest by `at` (the page's rule)."""
    return max((f for f in frames if name in f["sections"]), key=lambda f: f["at"])[
        "sections"][name]


def test_a_pairing_made_while_a_game_end_reads_its_players_rows_is_what_the_page_shows(
        monkeypatch, django_capture_on_commit_callbacks):
    t = arena()
    people = members(4)
    entered(t, people)
    arenas.pair(t.id)
    ending, other = active(t)
    resign(other, 0, django_capture_on_commit_callbacks)  # two players free, waiting
    player = ending.blue.user
    frames: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(live.broadcast, "send_frames", frames.extend)
    clock = [10_000]

    def tick() -> int:
        clock[0] += 1
        return clock[0]

    monkeypatch.setattr(live, "now_ms", tick)
    read = arena_standings.members
    paired: list[str] = []

    def members_then_a_pass(tournament, user_ids):
        rows = read(tournament, user_ids)  # the game end's read: no game in progress
        if not paired:  # meanwhile a pass pairs the player and sends their "Play now"
            paired.append("")
            with django_capture_on_commit_callbacks(execute=True):
                paired[0] = arenas.pair(t.id)
        return rows

    monkeypatch.setattr(arena_standings, "members", members_then_a_pass)
    monkeypatch.setattr(arenas, "send_passes", lambda tournament_id: None)  # that pass only
    resign(ending, 1, django_capture_on_commit_callbacks)  # the game end's own frames
    assert "game(s) started" in paired[0]
    game = next(p.game_id for p in active(t) if player.pk in (p.blue.user_id,
                                                             p.orange.user_id))
    mine = [f for g, f in frames if g == live.member_group(t.id, player.pk)]
    # The first two: the pass's (sent when it committed, inside the game end's read) and
    # the game end's; what follows (the shared render, the pass's follow-up) aside.
    passed, ended = mine[:2]
    assert f'data-game="{game}"' in passed["sections"]["play"]
    assert f'data-game="{game}"' not in ended["sections"]["play"]  # read before the pairing
    assert f'data-game="{game}"' in shown([passed, ended], "play")
