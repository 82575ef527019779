"""An arena's page, live over `/ws/tournament/<id>/` (docs/tournaments-arena.md, "Live"):
its own section (`arena`: the standings with the sheets, the latest games, the podium) is
sent to every viewer alike when a pass pairs, when a game of the arena ends, when a
player berserks or pauses and when the arena ends; each paired player's own part ("Play
now", berserk, pause) reaches that player's sockets alone, the moment they are paired."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as games
from games.actors import Actor
from tests.games.conftest import (  # noqa: F401  (fixtures; the first closes the sockets' threads)
    close_live_db_threads,
    connect,
    session_cookie,
)
from tests.tournaments.test_live_socket import NAMES, frames, frames_of_all, users  # noqa: F401  (a fixture)
from tournaments import arenas, live, services
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def arena(users) -> Tournament:  # noqa: F811
    """A Cargo Connect arena of an hour that began a minute ago, four entrants in it."""
    t = services.create_tournament(name="Live Arena", game_type="cargo-connect", rounds=0,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1),
                                   options={"size": 5}, time_control="5+3", system="arena",
                                   duration=60)
    for name in NAMES[:4]:
        services.join(t, users[name])
    return t


def pairings(t: Tournament) -> dict[str, str]:
    """Each entrant's game in progress, by name."""
    out = {}
    for p in Pairing.objects.filter(tournament=t, game__status="active").select_related(
            "blue__user", "orange__user"):
        out[p.blue.user.username] = out[p.orange.user.username] = p.game_id
    return out


def resign_game(game_id: str, name: str) -> None:
    games.resign(game_id, actor=Actor.member(get_user_model().objects.get(username=name)))


def own(got: list[dict]) -> list[str]:
    return [f["sections"]["play"] for f in got if set(f["sections"]) == {"play", "entry"}]


def shared(got: list[dict]) -> list[dict]:
    return [f["sections"] for f in got if "arena" in f["sections"]]


@pytest.mark.asyncio
async def test_pairings_results_and_the_end_reach_each_viewer_as_theirs(
        arena, users, connect):  # noqa: F811
    path = f"/ws/tournament/{arena.id}/"
    viewers = {name: await connect(path, name, expect_state=False)
               for name in (*NAMES, None)}
    for name, comm in viewers.items():  # on connect: the arena's sections, as theirs
        assert set(comm.first["sections"]) == {"facts", "play", "entry", "arena"}
        assert "p0" not in comm.first["sections"]["arena"]
        assert ">alice<" in comm.first["sections"]["arena"]
        play = comm.first["sections"]["play"]
        if name in NAMES[:4]:
            assert "Your arena" in play and "Pause" in play
            assert 'name="csrfmiddlewaretoken" value=""' in play  # the page's token goes in
        else:
            assert play == ""

    assert "2 game(s) started" in await database_sync_to_async(arenas.pair)(arena.id)
    got = await frames_of_all(viewers)
    boards = await database_sync_to_async(pairings)(arena)
    assert set(boards) == set(NAMES[:4])
    everyone = shared(got[None])
    assert len(everyone) == 1 and set(everyone[0]) == {"facts", "arena"}
    assert "Running" in everyone[0]["facts"]
    html = everyone[0]["arena"]
    assert html.count("in progress") == 2 and "is-you" not in html and ">Play<" not in html
    for game in set(boards.values()):
        assert f'data-game="{game}"' in html
    assert got["eve"] == got[None]  # a member watching: the shared frame alone
    for name in NAMES[:4]:
        assert shared(got[name]) == everyone
        (mine,) = own(got[name])  # their own "Play now", to them alone
        assert "Play now: your game is on" in mine and f'href="/g/{boards[name]}"' in mine
        assert "Berserk" in mine
        others = {g for n, g in boards.items() if g != boards[name]}
        assert not any(g in mine for g in others)

    # alice berserks: the tag to everyone, her button gone (her frame alone).
    await database_sync_to_async(services.berserk)(arena, users["alice"])
    got = await frames_of_all(viewers)
    assert "berserk</span>" in shared(got[None])[0]["arena"] and own(got[None]) == []
    (mine,) = own(got["alice"])
    assert "Play now" in mine and "Berserk</button>" not in mine
    assert all(own(got[n]) == [] for n in NAMES[1:])

    # alice's opponent resigns: the result and alice's sheet to all, the two freed.
    game = boards["alice"]
    opponent = next(n for n in NAMES[1:4] if boards[n] == game)
    await database_sync_to_async(resign_game)(game, opponent)
    got = await frames_of_all(viewers)
    after = shared(got[None])[-1]["arena"]
    assert after.count("in progress") == 1 and ("1–0" in after or "0–1" in after)
    assert "2 points" in after  # a berserk win of no moves earns no bonus (14 plies)
    for name in ("alice", opponent):
        mine = own(got[name])[-1]
        assert "Play now" not in mine and "Waiting for an opponent" in mine
    # Their "Your entry": alice first with her 2 points, her opponent's 0; to them alone.
    entry = {n: [f["sections"]["entry"] for f in got[n] if "entry" in f["sections"]][-1]
             for n in ("alice", opponent)}
    assert "Place <strong>1</strong> of 4, <strong>2</strong> points" in entry["alice"]
    assert "<strong>0</strong> points" in entry[opponent]
    assert all("entry" not in f["sections"] for f in got["eve"] + got[None])
    assert all(own(got[n]) == [] for n in NAMES[:4] if n not in ("alice", opponent))

    # The time is up; the last game ends; its pass finishes the arena: the podium.
    await database_sync_to_async(Tournament.objects.filter(pk=arena.pk).update)(
        starts_at=timezone.now() - dt.timedelta(hours=2))
    last = next(g for g in boards.values() if g != game)
    loser = next(n for n, g in boards.items() if g == last)
    await database_sync_to_async(resign_game)(last, loser)
    got = await frames_of_all(viewers)
    final = [f for f in shared(got[None]) if "facts" in f]
    assert len(final) == 1 and "Finished" in final[0]["facts"]
    assert "Podium" in final[0]["arena"] and final[0]["arena"].count('<li class="podium-') == 3
    for name in NAMES[:4]:  # every entrant's own part: no game, no pause
        mine = own(got[name])[-1]
        assert "Play now" not in mine and "Pause" not in mine
    for comm in viewers.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_pause_and_a_join_reach_the_arena_section(arena, users, connect):  # noqa: F811
    comm = await connect(f"/ws/tournament/{arena.id}/", None, expect_state=False)
    alice = await connect(f"/ws/tournament/{arena.id}/", "alice", expect_state=False)
    await database_sync_to_async(services.pause)(arena, users["alice"])
    got = await frames(comm)
    assert [set(f["sections"]) for f in got] == [{"arena"}]
    assert "paused</span>" in got[0]["sections"]["arena"]
    mine = own(await frames(alice))
    assert len(mine) == 1 and "Resume" in mine[0] and "You are paused" in mine[0]
    await database_sync_to_async(services.join)(arena, users["eve"])
    got = await frames(comm)
    assert ">eve<" in shared(got)[0]["arena"]
    await comm.disconnect()
    await alice.disconnect()


@pytest.mark.asyncio
async def test_a_players_own_place_does_not_wait_for_the_shared_render(
        arena, users, connect, monkeypatch):  # noqa: F811
    """A resignation sent on the game's socket: the player's own sections ("Your entry"
    with the result counted, "Play now" gone) are rendered in the game's ending call and
    sent right behind its last frame; only the shared `arena` section waits until those
    frames are sent (`live.after_game_frames`: the 200-player arena measured the players'
    place waiting behind it, docs/tournaments-arena.md, "Session 29"). Here what follows
    the sends is held back, and the player's place arrives all the same."""
    held: list = []
    monkeypatch.setattr(live.broadcast, "after_sends", held.append)
    path = f"/ws/tournament/{arena.id}/"
    await database_sync_to_async(arenas.pair)(arena.id)
    boards = await database_sync_to_async(pairings)(arena)
    game = boards["alice"]
    opponent = next(n for n in NAMES[1:4] if boards[n] == game)
    page = await connect(path, opponent, expect_state=False)
    player = await connect(game, opponent)
    await frames(page)
    await player.send_json_to({"type": "resign", "ply": 0})
    assert (await player.receive_json_from(timeout=5))["type"] == "resigned"
    got = await frames(page)
    assert [set(f["sections"]) for f in got] == [{"play", "entry"}]
    entry = got[0]["sections"]["entry"]
    assert 'data-games="1"' in entry and "<strong>0</strong> points" in entry
    assert "Play now" not in got[0]["sections"]["play"]
    assert len(held) == 2  # the shared render and the stats, once the frames are sent
    for callback in held:
        await database_sync_to_async(callback)()
    got = await frames(page)
    assert [set(f["sections"]) for f in got] == [{"arena"}]
    assert "1–0" in got[0]["sections"]["arena"] or "0–1" in got[0]["sections"]["arena"]
    await player.disconnect()
    await page.disconnect()
