"""The tournament socket, `/ws/tournament/<id>/` (docs/tournaments.md, "Live"): what an
entrant, another entrant, a member watching and a signed-out visitor each get when a round
starts and when a game of it ends; an entrant's own "Play now" reaches that entrant's
sockets only; every frame is rendered for nobody in particular but the one sent on
connect; refusals and the client frames."""

from __future__ import annotations

import datetime as dt
import json

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
from tests.games.support import side_by_side
from tournaments import services
from tournaments.models import Sitting, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]
NAMES = ("alice", "bob", "carol", "dave", "eve")  # four entrants; eve watches


@pytest.fixture
def users(db):
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in NAMES}


@pytest.fixture
def swiss(users) -> Tournament:
    """A Cargo Connect Swiss due now, alice, bob, carol and dave in it; no pause between
    rounds (the pause's frames: test_round_pause.py)."""
    t = services.create_tournament(name="Live Swiss", game_type="cargo-connect", rounds=2,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1),
                                   options={"size": 5}, round_pause=0)
    for name in NAMES[:4]:
        services.join(t, users[name])
    return t


async def frames(comm) -> list[dict]:
    """Every frame the socket got until it goes quiet, notifications aside (the bell's)."""
    got = []
    while not await comm.receive_nothing(timeout=0.5):
        message = await comm.receive_output(timeout=2)
        assert message["type"] == "websocket.send", message
        frame = json.loads(message["text"])
        if frame["type"] != "notification":
            got.append(frame)
    return got


async def frames_of_all(viewers: dict) -> dict:
    """`frames` of every viewer's socket, side by side (six viewers one after another
    waited 3 s a step)."""
    return await side_by_side(frames, viewers)


def game_of(t: Tournament, user) -> str:
    return Sitting.objects.get(round__tournament=t, entry__user=user).table.game_id


def opponent_of(t: Tournament, user):
    game_id = game_of(t, user)
    return next(s.entry.user for s in Sitting.objects.filter(table__game_id=game_id)
                .select_related("entry__user") if s.entry.user != user)


@pytest.mark.asyncio
async def test_a_round_start_and_a_game_end_reach_each_viewer_as_theirs(swiss, users,
                                                                        connect):  # noqa: F811
    path = f"/ws/tournament/{swiss.id}/"
    viewers = {name: await connect(path, name, expect_state=False)
               for name in (*NAMES, None)}
    for comm in viewers.values():  # on connect: every section, as this viewer sees it
        assert comm.first["type"] == "sections"
        assert set(comm.first["sections"]) == {"facts", "play", "entry", "standings", "rounds"}
        assert comm.first["sections"]["play"] == ""
        assert "4 players so far" in comm.first["sections"]["standings"]
        assert "Scheduled" in comm.first["sections"]["facts"]

    assert await database_sync_to_async(services.tick)() == [f"{swiss.id}: round 1 started"]
    got = await frames_of_all(viewers)
    boards = {name: await database_sync_to_async(game_of)(swiss, users[name])
              for name in NAMES[:4]}
    alice_game = boards["alice"]
    other = next(n for n in NAMES[1:4] if boards[n] != alice_game)  # on the other board
    carol_game = boards[other]

    shared = [f for f in got[None] if set(f["sections"]) == {"facts", "standings", "rounds"}]
    assert len(shared) == 1 and got[None] == shared  # a visitor gets the page's sections only
    html = shared[0]["sections"]
    assert "Running" in html["facts"] and "Round 1" in html["rounds"]
    assert alice_game in html["rounds"] and carol_game in html["rounds"]
    assert "is-you" not in html["standings"] and ">Play<" not in html["rounds"]
    assert got["eve"] == shared  # a member who is not in it: the same, nothing of their own
    for name, game in boards.items():
        assert shared[0] in got[name]
        own = [f for f in got[name] if set(f["sections"]) == {"play", "entry"}]
        assert len(own) == 1, got[name]  # their own "Play now", to them alone
        assert f'href="/g/{game}"' in own[0]["sections"]["play"]
        assert "Play now" in own[0]["sections"]["play"]
        assert "Round 1, board" in own[0]["sections"]["entry"]  # "Your entry": the pairing
        assert "(in progress)" in own[0]["sections"]["entry"]
        assert len(got[name]) == 2
    assert all("entry" not in f["sections"] for f in got["eve"] + got[None])
    assert all(alice_game not in json.dumps(f["sections"].get("play", ""))
               for f in got[other] + got["eve"] + got[None])

    # alice's opponent resigns: her game's result to everyone, her "Play now" gone.
    opponent = await database_sync_to_async(opponent_of)(swiss, users["alice"])
    await database_sync_to_async(games.resign)(alice_game, actor=Actor.member(opponent))
    got = await frames_of_all(viewers)
    result = [f for f in got[None] if set(f["sections"]) == {"rounds"}]
    assert len(result) == 1 and got[None] == result and got["eve"] == result
    assert result[0]["sections"]["rounds"].count("in progress") == 2  # the round, one board
    for name in NAMES[:4]:
        own = [f for f in got[name] if set(f["sections"]) == {"play", "entry"}]
        if boards[name] == alice_game:  # alice and her opponent: "Play now" gone
            assert len(own) == 1 and own[0]["sections"]["play"] == ""
            assert "(played)" in own[0]["sections"]["entry"]
        else:  # the other board's game goes on: nothing of their own
            assert got[name] == result
    for comm in viewers.values():
        await comm.disconnect()


@pytest.mark.asyncio
async def test_a_round_finished_sends_the_standings(swiss, users, connect):  # noqa: F811
    await database_sync_to_async(services.tick)()
    comm = await connect(f"/ws/tournament/{swiss.id}/", None, expect_state=False)
    assert "No round has finished yet" in comm.first["sections"]["standings"]

    def end_round() -> None:
        for game in {game_of(swiss, users[name]) for name in NAMES[:4]}:
            first = Sitting.objects.get(table__game_id=game, seat=0).entry.user
            games.resign(game, actor=Actor.member(first))

    await database_sync_to_async(end_round)()
    got = await frames(comm)
    standings = [f["sections"]["standings"] for f in got if "standings" in f["sections"]]
    assert standings and "After 1 finished round" in standings[-1]
    assert "Round 2" in got[-1]["sections"]["rounds"]  # and round 2 started at once
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_frame_older_than_the_connect_is_marked_so(swiss, connect):  # noqa: F811
    """Every frame says when its reads began (`at`): the page drops an older one."""
    comm = await connect(f"/ws/tournament/{swiss.id}/", "alice", expect_state=False)
    await database_sync_to_async(services.tick)()
    later = await frames(comm)
    assert later and all(f["at"] >= comm.first["at"] for f in later)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_joining_and_withdrawing_update_the_players(swiss, users, connect):  # noqa: F811
    comm = await connect(f"/ws/tournament/{swiss.id}/", None, expect_state=False)
    await database_sync_to_async(services.join)(swiss, users["eve"])
    got = await frames(comm)
    assert [set(f["sections"]) for f in got] == [{"standings"}]
    assert "5 players so far" in got[0]["sections"]["standings"]
    await database_sync_to_async(services.withdraw)(swiss, users["bob"])
    got = await frames(comm)
    assert "4 players so far" in got[0]["sections"]["standings"]
    assert ">bob<" not in got[0]["sections"]["standings"]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_client_frames_and_refusals(swiss, connect):  # noqa: F811
    comm = await connect(f"/ws/tournament/{swiss.id}/", "alice", expect_state=False)
    await comm.send_json_to({"type": "ping"})
    assert (await comm.receive_json_from())["type"] == "pong"
    await comm.send_json_to({"type": "sync"})
    again = await comm.receive_json_from()
    assert again["type"] == "sections" and again["sections"] == comm.first["sections"]
    assert 'data-user="alice"' in again["sections"]["standings"] or \
        "4 players so far" in again["sections"]["standings"]
    await comm.send_json_to({"type": "turn", "ply": 0, "token": "a"})
    error = await comm.receive_json_from()
    assert error["type"] == "error" and error["code"] == "bad_frame"
    await comm.disconnect()
    missing = await connect("/ws/tournament/AAAAAAAAAA/", "alice", expect_state=False)
    assert missing.close_code == 4404


@pytest.mark.asyncio
async def test_the_list_socket_sends_the_rows_and_each_change(swiss, users,
                                                               connect):  # noqa: F811
    comm = await connect("/ws/tournaments/", None, expect_state=False)
    listed = comm.first
    assert listed["type"] == "list" and listed["game"] == ""
    assert set(listed["rows"]) == {"upcoming", "running", "finished"}
    assert len(listed["rows"]["upcoming"]) == 1 and swiss.id in listed["rows"]["upcoming"][0]

    await database_sync_to_async(services.join)(swiss, users["eve"])
    got = await frames(comm)
    assert [f["type"] for f in got] == ["row"]
    row = got[0]
    assert (row["tournament"], row["group"], row["game"]) == (swiss.id, "upcoming",
                                                              "cargo-connect")
    assert row["starts"] == int(swiss.starts_at.timestamp()) and row["at"] >= listed["at"]
    assert 'data-label="Players">5<' in row["html"]

    await database_sync_to_async(services.tick)()  # round 1: the row moves to running
    got = [f for f in await frames(comm) if f["type"] == "row"]
    assert got and got[-1]["group"] == "running" and "Running" in got[-1]["html"]

    other = await database_sync_to_async(services.create_tournament)(
        name="Another", game_type="cargo-express", rounds=2,
        starts_at=timezone.now() + dt.timedelta(hours=2))
    got = await frames(comm)
    assert [(f["type"], f["tournament"], f["group"]) for f in got] == [
        ("row", other.id, "upcoming")]
    await comm.disconnect()

    one_game = await connect("/ws/tournaments/?game=cargo-express", None,
                             expect_state=False)
    assert one_game.first["game"] == "cargo-express"
    assert [other.id in r for r in one_game.first["rows"]["upcoming"]] == [True]
    assert one_game.first["rows"]["running"] == []
    await one_game.disconnect()


@pytest.mark.asyncio
async def test_a_game_ended_over_its_socket_reaches_the_page_after_its_frames(
        swiss, users, connect):  # noqa: F811
    """A resignation sent on the game's socket: the player's `resigned` frame comes
    first; the tournament's rounds follow (`after_game_frames`), the result in them."""
    await database_sync_to_async(services.tick)()
    page = await connect(f"/ws/tournament/{swiss.id}/", None, expect_state=False)
    game_id = await database_sync_to_async(game_of)(swiss, users["alice"])
    player = await connect(game_id, "alice")
    await player.send_json_to({"type": "resign", "ply": 0})
    answer = await player.receive_json_from(timeout=5)
    assert answer["type"] == "resigned"
    got = await frames(page)
    rounds_frames = [f for f in got if set(f["sections"]) == {"rounds"}]
    assert len(rounds_frames) == 1
    assert rounds_frames[0]["sections"]["rounds"].count("in progress") == 2
    await player.disconnect()
    await page.disconnect()


@pytest.mark.asyncio
async def test_a_private_tournaments_socket_is_open_as_its_page_is(connect, client):  # noqa: F811
    """A private tournament's page is shown to anyone (its password is asked to join):
    its socket too, with the same sections."""
    private = await database_sync_to_async(services.create_tournament)(
        name="Club Swiss", game_type="cargo-connect", rounds=2, options={"size": 5},
        starts_at=timezone.now() + dt.timedelta(hours=1), password="club-secret")
    page = await database_sync_to_async(client.get)(f"/tournaments/{private.id}/")
    assert page.status_code == 200
    comm = await connect(f"/ws/tournament/{private.id}/", None, expect_state=False)
    assert comm.first["type"] == "sections"
    assert "Private: a password is needed" in comm.first["sections"]["facts"]
    assert "club-secret" not in json.dumps(comm.first)
    await comm.disconnect()
