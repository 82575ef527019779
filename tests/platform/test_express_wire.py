"""Cargo Express through the site: sockets, catch-up, the HTTP fallback, replays, records,
races, bots, timeouts and leavers (issue #26).

The leak tests play whole games of 2, 3 and 4 seats through each seat's own socket, a
spectator watching, and compare every frame each connection received with the state the
kind builds for that viewer at that decision (tests/platform/test_express_kind.py proves
that state indistinguishable from one with every hidden part drawn anew): so no connection
got anything its viewer may not see, and none missed a frame."""

import asyncio
import os
import threading

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from prometheus_client import REGISTRY

from games import services
from games.actors import Actor
from games.fast import loopdb
from games.kinds import EVERYTHING, get_kind
from games.kinds.cargo_express.view import ExpressView
from games.models import Game
from games.turns.store import live
from tests.games.bot_support import eager  # noqa: F401  (fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_budgets")]
NAMES = ("alice", "bob", "carol", "dave")
KIND = get_kind("cargo-express")



@pytest.fixture
def users(db):
    """Four members (the platform's fixture has three)."""
    User = get_user_model()
    return {name: User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in NAMES}


def loop_decisions():
    return REGISTRY.get_sample_value("cargo_turns_applied_total", {"path": "loop"}) or 0.0


def people(users, n):
    return [users[name] for name in NAMES[:n]]


def make_game(users, n, **kwargs):
    return services.create_game(game_type="cargo-express", options={},
                                seats=[Actor.member(u) for u in people(users, n)], **kwargs)


def next_decision(game_id):
    """(seat, sequence, token): a decision of an acting seat, as its Easy bot would make
    it from its own view, a turn's first step alone (a person sends steps one by one)."""
    return decision_of(live(services.get_game(game_id)))


def decision_of(lg):
    """`next_decision` from the test's own copy of the game (the engine is deterministic:
    the copy applies what the seats sent and stays the stored game)."""
    seat = lg.acting()[0]
    token = KIND.bot_decision(lg.redacted(seat), seat, "easy", 7)
    if lg.p.phase == "a" and ":" in token:
        first = token.partition(":")[2].split(".")[0]
        token = first if first != "~" else token
    return seat, lg.sequence(seat), token


def kind_part(state):
    """The kind's keys of a state (the platform adds holders, clocks and the like)."""
    return {k: state[k] for k in ExpressView(KIND.resume(KIND.new({}, 2, "x0.2"), [], []),
                                             None).build()}


@pytest.mark.asyncio
@pytest.mark.parametrize("n", [2, 3, 4])
async def test_every_frame_of_a_whole_game_is_each_viewers_own(users, connect, n):
    game = await database_sync_to_async(make_game)(users, n, rated=False)
    socks = [await connect(game.id, NAMES[s]) for s in range(n)]
    watcher = await connect(game.id, None)
    on_the_loop = loop_decisions()
    viewers = [*range(n), None]
    comms = [*socks, watcher]
    received = {v: [] for v in viewers}
    assert watcher.first["state"]["areas"][0]["plan"] is None
    assert len(watcher.first["state"]["seed_hash"]) == 64 and watcher.first["state"]["seed"] is None
    ply = 0
    lg = KIND.replay(game.start, [], [])
    while not lg.over:
        seat, seq, token = decision_of(lg)
        lg.apply(seat, token)
        await socks[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        for viewer, comm in zip(viewers, comms, strict=True):
            while True:
                frame = await comm.receive_json_from(timeout=5)
                if frame["type"] == "turn" and frame["ply"] == ply:
                    received[viewer].append(frame)
                    break
                assert frame["type"] in ("presence", "watchers", "rematch", "state"), frame
        ply += 1
    for comm in comms:
        await comm.disconnect()
    if loopdb.enabled():  # PostgreSQL with the fast path: the loop builds every audience's
        assert loop_decisions() - on_the_loop > ply // 2  # frame (games.fast.turns)

    def expected():
        row = services.get_game(game.id)
        rows = list(row.turns.order_by("ply"))
        lg = KIND.replay(row.start, [], [])
        out = {v: [] for v in viewers}
        for turn in rows:
            events = lg.apply(turn.seat, turn.token)
            for v in viewers:
                out[v].append((lg.tokens_for(v)[turn.ply], lg.events_for(events, v),
                               ExpressView(lg, v).build()))
        return out

    want = await database_sync_to_async(expected)()
    for v in viewers:
        assert len(received[v]) == ply  # none missing
        for frame, (token, events, state) in zip(received[v], want[v], strict=True):
            assert frame["token"] == token and frame["events"] == events
            got = kind_part(frame["state"])
            assert got == state, (v, frame["ply"])
            if not state["over"]:
                for s, area in enumerate(got["areas"]):
                    if s != v:
                        assert area["plan"] is area["hand"] is area["open"] is None
    final = received[None][-1]["state"]
    assert final["status"] == "finished" and final["seed"] is not None
    assert final["result"]["places"]


@pytest.mark.asyncio
async def test_planning_commits_at_once_a_reload_shows_your_own_stack_only(users, connect):
    game = await database_sync_to_async(make_game)(users, 3, rated=False)
    socks = [await connect(game.id, NAMES[s]) for s in range(3)]
    for _ in range(3):  # the picks
        seat, seq, token = await database_sync_to_async(next_decision)(game.id)
        await socks[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        for comm in socks:
            await comm.receive_json_from(timeout=5)
    # two seats commit at the same moment: both kept, no stale refusal between seats
    await asyncio.gather(
        socks[0].send_json_to({"type": "turn", "ply": 1, "token": "B4C5D"}),
        socks[1].send_json_to({"type": "turn", "ply": 1, "token": "A3A2A1"}))
    frames = {s: [await socks[s].receive_json_from(timeout=5) for _ in range(2)]
              for s in range(3)}
    assert all(f["type"] == "turn" for fs in frames.values() for f in fs)
    seen_by_carol = " ".join(str(f) for f in frames[2])
    assert "B4C5D" not in seen_by_carol and "A3A2A1" not in seen_by_carol
    assert "B4" not in str(frames[2][-1]["state"]["areas"][:2])
    # alice replaces her stack; bob's reload sees his own stack and nobody else's
    await socks[0].send_json_to({"type": "turn", "ply": 2, "token": "A1A2A3"})
    for comm in socks:
        assert (await comm.receive_json_from(timeout=5))["type"] == "turn"
    reload = await connect(game.id, "bob")
    areas = reload.first["state"]["areas"]
    assert areas[1]["plan"] == ["A3", "A2", "A1"] and areas[0]["plan"] is None
    assert areas[0]["committed"] and areas[0]["stack"] == 3 and areas[2]["committed"] is False
    assert reload.first["state"]["acting"] == [2]
    # catch-up after a gap is built for the asker
    await socks[2].send_json_to({"type": "sync", "after": 0})
    caught = await socks[2].receive_json_from(timeout=5)
    assert "B4C5D" not in str(caught) and "A1A2A3" not in str(caught)
    # a resend gets the same answer; a stale step is refused with the asker's state
    await socks[1].send_json_to({"type": "turn", "ply": 1, "token": "A3A2A1"})
    again = await socks[1].receive_json_from(timeout=5)
    assert again["type"] == "turn" and again["token"] == "A3A2A1"
    await socks[1].send_json_to({"type": "turn", "ply": 1, "token": "A1A2A3"})
    stale = await socks[1].receive_json_from(timeout=5)
    assert stale["type"] == "error" and stale["code"] == "stale_ply"
    for comm in (*socks, reload):
        await comm.disconnect()


def _told(events):
    """Events as the log of the round keeps them (without `only` and `ply`)."""
    return [{k: v for k, v in e.items() if k not in ("only", "ply")} for e in events]


@pytest.mark.asyncio
async def test_a_reconnecting_seat_gets_the_log_of_the_round_it_had_seen(users, connect):
    """The log of the round comes in the snapshot: a seat that reconnects (a reload) gets
    the log its frames told it, no more (another seat's stack, a spectator's none of it),
    and right after a round's end the round just ended. The frames' states repeat neither
    the log nor the tokens so far (`history_in_frames`): the page keeps its log from the
    frames' events, by the rule this test applies (static/js/cargo-express/view.js)."""
    game = await database_sync_to_async(make_game)(users, 3, rated=False)
    socks = [await connect(game.id, NAMES[s]) for s in range(3)]
    watcher = await connect(game.id, None)
    viewers, comms = [0, 1, 2, None], [*socks, watcher]
    heard = {v: [] for v in viewers}  # (round, event) of every event each one was sent
    rounds = {v: 1 for v in viewers}
    last = {}
    checked = set()
    logs = {}  # the log each one was told, as the reload's snapshot gives it
    for _ in range(400):
        seat, seq, token = await database_sync_to_async(next_decision)(game.id)
        await socks[seat].send_json_to({"type": "turn", "ply": seq, "token": token})
        for v, comm in zip(viewers, comms, strict=True):
            while True:
                frame = await comm.receive_json_from(timeout=5)
                if frame["type"] == "turn":
                    break
            for event in frame["events"]:
                if event["kind"] == "phase":
                    rounds[v] = event["round"]
                heard[v].append((rounds[v], event))
            assert "log" not in frame["state"] and "turns" not in frame["state"]
            last[v] = frame["state"]
        state = last[1]
        moment = ("planning" if state["phase"] == "plan" and not state["areas"][1]["committed"]
                  and state["areas"][0]["committed"] else
                  "just after a round" if state["phase"] == "pick" and state["round"] == 2
                  else None)
        if moment is None or moment in checked:
            continue
        checked.add(moment)
        for v, name in ((1, "bob"), (None, None)):
            now = last[v]
            told = (now["round"] - 1, now["round"]) if now["phase"] == "pick" \
                else (now["round"],)
            want = _told([e for at, e in heard[v] if at in told])
            reload = await connect(game.id, name)
            assert reload.first["state"]["log"] == want, (moment, v)
            logs[v] = want
            await reload.disconnect()
        told = (state["round"] - 1, state["round"]) if state["phase"] == "pick" \
            else (state["round"],)
        logs[0] = _told([e for at, e in heard[0] if at in told])
        assert any(e["kind"] == "plan-chosen" for e in logs[0]) or \
            moment != "planning"  # alice's own stack is in her log...
        assert not any(e["kind"] == "plan-chosen" for e in logs[1] + logs[None]
                       if e["seat"] == 0)  # ...and in nobody else's
        if moment == "just after a round":
            assert any(e["kind"] == "round-ended" for e in logs[None])
        if len(checked) == 2:
            break
    assert checked == {"planning", "just after a round"}
    for comm in comms:
        await comm.disconnect()


def test_pages_json_and_records_show_a_viewer_only_what_they_may_see(users):
    game = make_game(users, 3, rated=False)
    for _ in range(3):
        seat, seq, token = next_decision(game.id)
        services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]), ply=seq,
                            token=token)
    services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=1, token="C6B4D")
    secret = b"C6B4D"
    web = {name: Client() for name in NAMES[:3]}
    for name, client in web.items():
        client.force_login(users[name])
    anonymous = Client()
    for client in (web["bob"], anonymous):
        for url in (f"/g/{game.id}/replay.json", f"/g/{game.id}/events?after=0",
                    f"/g/{game.id}.ccn", f"/g/{game.id}/replay.json?as=0"):
            response = client.get(url)
            assert response.status_code == 200, url
            assert secret not in response.content, url
    mine = web["alice"].get(f"/g/{game.id}/events?after=0").json()
    assert mine["state"]["areas"][0]["plan"] == ["C6", "B4", "D"]
    record = anonymous.get(f"/g/{game.id}.ccn").content.decode()
    seed = KIND.facts(game.id, game.start, True)["seed"]
    assert "[SeedHash" in record and seed not in record and "[Seed " not in record


def test_a_whole_game_against_bots_then_the_full_record_replays_from_its_seed(
        users, eager):  # noqa: F811
    game = services.create_game(
        game_type="cargo-express", options={}, rated=False,
        seats=[Actor.member(users["alice"]), Actor.bot("easy"), Actor.bot("medium")])
    while True:
        row = services.get_game(game.id)
        if row.is_over:
            break
        lg = live(row)
        assert lg.acting() == [0] or lg.p.phase == "p"
        token = lg.completion(0) if lg.meta.steps else KIND.bot_decision(
            lg.redacted(0), 0, "easy", 1)
        services.apply_turn(game.id, actor=Actor.member(users["alice"]),
                            ply=lg.sequence(0), token=token)
    row = services.get_game(game.id)
    assert row.status == Game.Status.FINISHED
    assert sorted(s.place for s in row.seat_list) in ([1, 2, 3], [1, 1, 3], [1, 2, 2],
                                                      [1, 1, 1])
    record = Client().get(f"/g/{game.id}.ccn").content.decode()
    from express import Game as EngineGame

    assert EngineGame.from_record(record).position == live(row).p
    everything = Client().get(f"/g/{game.id}/replay.json").json()
    assert everything["everything"] and everything["states"][-1]["seed"]
    assert KIND.replay(row.start, [t.token for t in row.turns.order_by("ply")],
                       [t.seat for t in row.turns.order_by("ply")]).position() == row.position
    assert EVERYTHING  # the replay above is everyone's once over


def test_a_leaver_of_three_seats_is_played_on_by_a_bot_and_takes_last_place(
        users, eager):  # noqa: F811
    game = make_game(users, 3, rated=False)
    frame = services.resign(game.id, actor=Actor.member(users["carol"]))
    assert frame["state"]["status"] == "active"
    row = services.get_game(game.id)
    assert row.seat_list[2].stand_in == "medium"
    while not row.is_over:
        seat, seq, token = next_decision(game.id)
        assert seat in (0, 1)  # the stand-in decides at once by itself
        services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]), ply=seq,
                            token=token)
        row = services.get_game(game.id)
    assert row.seat_list[2].place == 3


def test_a_two_seat_leaver_loses_at_once(users):
    game = make_game(users, 2, rated=False)
    services.resign(game.id, actor=Actor.member(users["bob"]))
    row = services.get_game(game.id)
    assert row.status == Game.Status.FINISHED
    assert [s.place for s in row.seat_list] == [1, 2]


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="real concurrent transactions need PostgreSQL (SQLite serializes)")
def test_every_seat_committing_at_once_on_its_own_connection_is_kept(users):
    game = make_game(users, 4, rated=False)
    for _ in range(4):
        seat, seq, token = next_decision(game.id)
        services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]), ply=seq,
                            token=token)
    barrier = threading.Barrier(4)
    outcomes = []

    def commit(seat):
        try:
            barrier.wait()
            services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]), ply=1,
                                token="A1A2A3")
            outcomes.append(seat)
        finally:
            connection.close()

    threads = [threading.Thread(target=commit, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [0, 1, 2, 3]
    row = services.get_game(game.id)
    assert live(row).p.phase == "a" and row.ply == 8


@pytest.mark.parametrize("rated", [False, True])
def test_when_every_person_has_left_a_casual_game_is_aborted_a_rated_one_ends(users, rated):
    game = make_game(users, 3, rated=rated)
    for name in NAMES[:3]:
        services.resign(game.id, actor=Actor.member(users[name]))
        row = services.get_game(game.id)
        if name != "carol":
            assert row.status == Game.Status.ACTIVE
    if not rated:
        assert (row.status, row.termination) == ("aborted", "aborted")
        assert all(s.place is None for s in row.seat_list)
    else:
        assert (row.status, row.termination) == ("finished", "abandoned")
        # Every one a leaver: the later one left, the better. Alice left first.
        assert [s.place for s in row.seat_list] == [3, 2, 1]


COMMIT_IN_A_PROCESS = """
import os, sys, threading, time
import django
django.setup()
from django.db import connection
from games import services
from games.actors import Actor
from django.contrib.auth import get_user_model

game_id, at, names = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
done = []

def commit(name):
    try:
        services.apply_turn(game_id, actor=Actor.member(users[name]), ply=1, token="A1A2A3")
        done.append(name)
    finally:
        connection.close()

time.sleep(max(0.0, at - time.time()))
threads = [threading.Thread(target=commit, args=(name,)) for name in names]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(" ".join(sorted(done)))
"""


@pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                    reason="two processes on one test database need PostgreSQL")
def test_every_seat_committing_at_once_from_two_processes_is_kept(users):
    """Two server processes (as behind nginx), each committing two seats' plans on its own
    connections at the same moment: all four kept, planning closed once."""
    import subprocess
    import sys
    import time

    game = make_game(users, 4, rated=False)
    for _ in range(4):
        seat, seq, token = next_decision(game.id)
        services.apply_turn(game.id, actor=Actor.member(users[NAMES[seat]]), ply=seq,
                            token=token)
    db = connection.settings_dict
    url = (f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
           f"{db['NAME']}")
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "cargosite.settings"}
    at = str(time.time() + 8)  # both started and set up by then
    procs = [subprocess.Popen([sys.executable, "-c", COMMIT_IN_A_PROCESS, game.id, at, *pair],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
             for pair in (NAMES[:2], NAMES[2:])]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [out.split() for out, _ in outputs] == [list(NAMES[:2]), list(NAMES[2:])], outputs
    row = services.get_game(game.id)
    lg = live(row)
    assert lg.p.phase == "a" and row.ply == 8
    assert sorted(row.turns.filter(token="A1A2A3").values_list("seat", flat=True)) == \
        [0, 1, 2, 3]
