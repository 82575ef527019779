"""A plan committed at the deadline is acknowledged exactly once (issue #42, point 3).

Planning in a timed Cargo Express game of three: every seat's clock runs from the same
moment. A seat commits just after its flag fell and before any check made it fall: the
commit makes the flag fall first (`games.timing.timeouts.flag_when_fallen`), and the site's
decision for the seat (the Easy bot's plan from its own view) is the very plan the seat
sent. The seat's socket must get that turn's frame once: the flag's frame went to the
seat's group with the request's other frames, so the retry that then finds the decision
made must not answer it a second time. When the flag fell on another process first, the
commit (a resend of the decision the site made) is answered, not refused as if the game
were over.

Time is frozen (`timezone.now` patched): the race is driven in the order that doubled the
frame, not timed."""


import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model

from games import services, tasks
from games.actors import Actor
from games.kinds import get_kind
from games.models import Game, Turn
from games.timing import clocks
from games.turns.store import live

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("no_budgets", "empty_watcher")]
NAMES = ("alice", "bob", "carol")
KIND = get_kind("cargo-express")
FALLS = 181 + clocks.LAG_ALLOWANCE_MS / 1000  # a fresh 3+2 clock has run out





def planning_game():
    """Three members past the picks: planning, every seat's clock running."""
    User = get_user_model()
    users = [User.objects.get(username=name) for name in NAMES]
    game = services.create_game(game_type="cargo-express", options={}, rated=False,
                                time_control="3+2", seats=[Actor.member(u) for u in users])
    for n in range(3):
        lg = live(services.get_game(game.id))
        seat = lg.acting()[0]
        services.apply_turn(game.id, actor=Actor.member(users[seat]), ply=lg.sequence(seat),
                            token=KIND.bot_decision(lg.redacted(seat), seat, "easy", n))
    row = services.get_game(game.id)
    clock = dict(row.clock, left=[left - (1000 if seat == 1 else 0)
                                  for seat, left in enumerate(row.clock["left"])])
    Game.objects.filter(id=game.id).update(clock=clock)  # Bob's flag falls a second first
    lg = live(services.get_game(game.id))
    assert lg.p.phase == "p" and lg.acting() == [0, 1, 2]
    # Alice's plan is the one the site makes for her when her clock falls.
    return game, lg.sequence(0), lg.timeout_decision(0)


async def frames_until_quiet(comm):
    frames = []
    while not await comm.receive_nothing(timeout=0.5):
        frames.append(await comm.receive_json_from())
    return frames


def own_turns(frames, seq):
    return [f for f in frames if f["type"] == "turn" and f["seat"] == 0 and f["seq"] == seq]


@pytest.mark.asyncio
async def test_a_commit_that_makes_its_own_flag_fall_is_acknowledged_once(connect, frozen):
    game, seq, plan = await database_sync_to_async(planning_game)()
    alice = await connect(game.id, "alice")
    frozen.advance(FALLS)  # no check has run: the commit finds the flag due
    await alice.send_json_to({"type": "turn", "ply": seq, "token": plan})
    frames = await frames_until_quiet(alice)
    mine = own_turns(frames, seq)
    assert len(mine) == 1 and mine[0]["token"] == plan, [
        (f["type"], f.get("seat"), f.get("seq"), f.get("ply")) for f in frames]
    assert not [f for f in frames if f["type"] == "error"]
    plies = [f["ply"] for f in frames if f["type"] == "turn"]
    assert plies == sorted(plies) and mine[0]["ply"] > plies[0]  # in order, Bob's first
    turns = await database_sync_to_async(
        lambda: list(Turn.objects.filter(game_id=game.id, seat=0).values_list("token")))()
    assert turns.count((plan,)) == 1  # stored once


@pytest.mark.asyncio
async def test_a_commit_on_a_process_whose_warm_copy_missed_the_flag_is_answered(
        connect, frozen):
    """The flag fell on another process (its worker): this process's warm copy of the game
    is still from before it, its flag due. The commit must not be refused as if the game
    were over ("time is up": the copy's flag due at every try); it is the resend of the
    decision the site made, and answered as one."""
    from games.fast import warm

    game, seq, plan = await database_sync_to_async(planning_game)()
    alice = await connect(game.id, "alice")
    frozen.advance(FALLS)
    before = warm.get(game.id)

    def flag_elsewhere():
        assert tasks.flag_clocks() == [game.id]
        if before is not None:  # as if another process had flagged: this copy stays old
            warm.forget(game.id)
            warm._entries[game.id] = before

    await database_sync_to_async(flag_elsewhere)()
    frames = await frames_until_quiet(alice)
    await alice.send_json_to({"type": "turn", "ply": seq, "token": plan})
    frames += await frames_until_quiet(alice)
    assert not [f for f in frames if f["type"] == "error"], frames[-1]
    answer = frames[-1]  # after the flag's own frame: the resend's answer, the same turn
    assert own_turns(frames, seq)[-1] is answer and answer["token"] == plan
