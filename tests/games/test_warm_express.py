"""Cargo Express's decisions from a process's warm copy (games.fast.turns): seats that decide
at the same time number their decisions themselves (`GameKind.seat_sequences`), so the copy
checks the seat's own count and lets a committed seat replace its plan; each decision is one
conditional write, its frames built for each viewer as the locked path builds them."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from prometheus_client import REGISTRY

from games import services
from games.actors import Actor
from games.fast import warm
from games.kinds import get_kind
from games.models import Game, Turn
from games.records.history import recent
from games.turns.store import live
from tests.games.support import rebuilt

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fast_path]
KIND = get_kind("cargo-express")
NAMES = ("alice", "bob", "carol")


@pytest.fixture
def members(db):
    User = get_user_model()
    return [User.objects.create_user(name, f"{name}@example.com", "a-long-cargo-pass")
            for name in NAMES]


@pytest.fixture
def game(members):
    return services.create_game(game_type="cargo-express", options={}, rated=False,
                                seats=[Actor.member(u) for u in members])


def prepared(game_id, seat, token=None):
    """`seat`'s own count and its next decision (its Easy bot's, a turn's first step
    alone, unless `token` is given)."""
    lg = live(services.get_game(game_id))
    if token is None:
        token = KIND.bot_decision(lg.redacted(seat), seat, "easy", 7)
        if lg.p.phase == "a" and ":" in token:
            first = token.partition(":")[2].split(".")[0]
            token = first if first != "~" else token
    return lg.sequence(seat), token


def send(game_id, members, seat, sequence, token):
    return services.apply_turn(game_id, actor=Actor.member(members[seat]), ply=sequence,
                               token=token)


def decide(game_id, members, seat, token=None):
    return send(game_id, members, seat, *prepared(game_id, seat, token))


def to_planning(game, members):
    """Every seat picks its character (the first through the locked path, which warms the
    game); planning is then open for all three."""
    while live(services.get_game(game.id)).p.phase != "p":
        decide(game.id, members, live(services.get_game(game.id)).acting()[0])


def applied(path):
    return REGISTRY.get_sample_value("cargo_turns_applied_total", {"path": path}) or 0.0


PLANS = ("A1A2A3", "A3A1A2", "A2A3A1")


def plan_of(game_id, seat, which=0):
    """A form-valid plan (three different cards of the seat's own nine); the kind checks
    only the form while planning (web.md 3)."""
    return PLANS[which]


def test_a_pick_after_the_first_is_one_write_without_a_lock(game, members):
    decide(game.id, members, live(game).acting()[0])  # locked: warms the game after commit
    assert warm.get(game.id) is not None
    seat = live(services.get_game(game.id)).acting()[0]
    sequence, token = prepared(game.id, seat)
    with CaptureQueriesContext(connection) as queries:
        send(game.id, members, seat, sequence, token)
    sql = [q["sql"] for q in queries.captured_queries]
    assert not any("FOR UPDATE" in s for s in sql)
    assert not any(s.lstrip().upper().startswith("SELECT") for s in sql)
    if connection.vendor == "postgresql":
        assert len(sql) == 1
    stored = Game.objects.get(id=game.id)
    assert stored.ply == 2
    assert list(stored.turns.order_by("ply").values_list("ply", "seat"))[1] == (1, seat)


def test_plans_committed_and_replaced_from_the_copy_are_all_stored(game, members):
    to_planning(game, members)
    assert warm.get(game.id) is not None
    ply = services.get_game(game.id).ply
    sequence = {seat: prepared(game.id, seat)[0] for seat in (0, 1)}
    warm_before, locked_before = applied("warm"), applied("locked")
    with CaptureQueriesContext(connection) as queries:
        send(game.id, members, 0, sequence[0], PLANS[0])
        send(game.id, members, 0, sequence[0] + 1, PLANS[1])  # replaced: 0 is deciding
        send(game.id, members, 1, sequence[1], PLANS[0])
    assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    assert (applied("warm") - warm_before, applied("locked") - locked_before) == (3, 0)
    stored = services.get_game(game.id)
    turns = list(Turn.objects.filter(game=game, ply__gte=ply).order_by("ply")
                 .values_list("ply", "seat"))
    assert turns == [(ply, 0), (ply + 1, 0), (ply + 2, 1)]
    lg = live(stored)
    assert lg.sequence(0) == 3 and lg.sequence(1) == 2  # a pick and two plans; a pick and one
    assert lg.acting() == [2]  # planning waits on seat 3 alone
    assert warm.get(game.id).game.revision == stored.revision


def test_a_resent_decision_gets_its_frame_and_a_stale_one_the_state(game, members):
    to_planning(game, members)
    lg = live(services.get_game(game.id))
    plan = plan_of(game.id, 2)
    sequence = lg.sequence(2)
    sent = services.apply_turn(game.id, actor=Actor.member(members[2]), ply=sequence,
                               token=plan)
    again = services.apply_turn(game.id, actor=Actor.member(members[2]), ply=sequence,
                                token=plan)
    assert again.duplicate
    # The frame again, as history rebuilds it: all but the round's log, which only the
    # current state carries (a catch-up's last state has it; docs/live-protocol.md), and
    # its revision (`rev`, a current state's only).
    assert {**again.frame, "state": None} == {**sent.frame, "state": None}
    assert {k: v for k, v in again.frame["state"].items() if k != "log"} == \
        {k: v for k, v in rebuilt(sent.frame)["state"].items() if k != "log"}
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=Actor.member(members[2]), ply=sequence + 2,
                            token=plan_of(game.id, 2, 1))
    assert refused.value.code == "stale_ply"
    assert refused.value.state["areas"][2]["plan"] is not None  # its own stack, its view
    assert refused.value.state["areas"][0]["plan"] is None


def test_warm_frames_are_each_viewers_frames_as_the_locked_path_builds_them(game, members):
    to_planning(game, members)
    frames = []
    for seat in range(3):
        frames.append(decide(game.id, members, seat, plan_of(game.id, seat)).frame)
    while services.get_game(game.id).ply < 12 and not services.get_game(game.id).is_over:
        lg = live(services.get_game(game.id))
        frames.append(decide(game.id, members, lg.acting()[0]).frame)
    recent.clear()
    warm.clear()
    row = services.get_game(game.id)
    first = row.ply - len(frames)
    for offset, frame in enumerate(frames):
        ply = first + offset
        seat = Turn.objects.get(game=game, ply=ply).seat
        again = services.turn_frames(row, ply, before=ply + 1, viewer=seat)[0]
        assert frame["events"] == again["events"]
        assert frame["token"] == again["token"]
        assert frame["state"]["areas"] == again["state"]["areas"]
        assert frame["state"]["legal"] == again["state"]["legal"]


def test_the_copy_is_not_warm_while_a_decisions_frames_are_built(game, members, monkeypatch):
    """Seats decide at the same time: while one decision's frames are built from the copy,
    another seat's decision must not change it (it takes the locked path meanwhile)."""
    from games.fast import turns

    to_planning(game, members)
    seen = []
    real = turns.sent

    def watching(g, turn, lg):
        seen.append(warm.get(g.id))
        return real(g, turn, lg)

    monkeypatch.setattr(turns, "sent", watching)
    sequence, _ = prepared(game.id, 0)
    send(game.id, members, 0, sequence, PLANS[0])
    assert seen == [None]  # built and sent with no warm copy to take
    assert warm.get(game.id) is not None  # warm again after


def test_an_older_copy_never_replaces_a_newer_one(game, members):
    decide(game.id, members, live(game).acting()[0])
    entry = warm.get(game.id)
    older = services.get_game(game.id)
    older.revision = entry.game.revision - 1
    warm.keep(older, live(older))
    assert warm.get(game.id) is entry
