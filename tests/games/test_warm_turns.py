"""Turns from a process's warm copy (games.fast.warm): one conditional write, no row lock, and
the locked path whenever the copy is not the stored game."""

import copy

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.fast import warm
from games.models import Game, Turn
from tests.games.support import Actor, alternate_turn, scripted_tokens

# The locked path warms a game once its transaction commits: real commits.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fast_path]

TOKENS = scripted_tokens(5)


def play(game, users, ply, token=None):
    return alternate_turn(game, users, ply, token or TOKENS[ply])


def other_than(token):
    """A legal first-row drop that is not `token` (a different decision for that ply)."""
    return "b" if token[0] != "b" else "c"


def test_after_the_first_turn_a_turn_is_one_write_without_a_lock(game, users):
    play(game, users, 0)  # the locked path, which warms the game after its commit
    assert warm.get(game.id) is not None
    with CaptureQueriesContext(connection) as queries:
        result = play(game, users, 1)
    sql = [q["sql"] for q in queries.captured_queries]
    assert not any("FOR UPDATE" in s for s in sql)
    assert not any(s.lstrip().upper().startswith("SELECT") for s in sql)
    if connection.vendor == "postgresql":
        assert len(sql) == 1  # UPDATE … RETURNING feeding the INSERT
    assert result.frame["ply"] == 1 and result.frame["state"]["ply"] == 2
    stored = Game.objects.get(id=game.id)
    assert (stored.ply, stored.tokens, stored.revision) == (2, TOKENS[:2], 2)
    assert list(Turn.objects.filter(game=game).values_list("ply", "token")) == \
        [(0, TOKENS[0]), (1, TOKENS[1])]


def test_the_warm_frame_is_the_frame_the_locked_path_sends(game, users):
    play(game, users, 0)
    warm_frame = play(game, users, 1).frame
    warm.clear()
    again = services.turn_frames(services.get_game(game.id), 1, before=2)[0]
    assert warm_frame["events"] == again["events"]
    for key in ("position", "rows", "ply", "to_move", "legal", "options", "points"):
        assert warm_frame["state"][key] == again["state"][key]


def test_a_copy_behind_the_stored_game_takes_the_locked_path(game, users):
    """Another process played ply 1: this process's copy still says ply 1 is to play."""
    play(game, users, 0)
    entry = warm.get(game.id)
    stale = warm.Warm(copy.deepcopy(entry.game), copy.deepcopy(entry.lg))
    play(game, users, 1)
    warm._entries[game.id] = stale
    with pytest.raises(services.GameError) as refused:
        play(game, users, 1, other_than(TOKENS[1]))  # a client as far behind as the copy
    assert refused.value.code == "stale_ply"
    assert refused.value.state["ply"] == 2
    warm._entries[game.id] = stale
    assert play(game, users, 2).frame["ply"] == 2  # the client that is current plays
    assert Game.objects.get(id=game.id).tokens == TOKENS[:3]
    assert warm.get(game.id).game.ply == 3  # warmed again, from the stored game


def test_a_game_changed_behind_the_copy_is_not_overwritten(game, users):
    """A resign (or the admin) changed the row: the copy's write refuses, nothing is lost."""
    play(game, users, 0)
    services.resign(game.id, actor=Actor.of_user(users["alice"]))
    with pytest.raises(services.GameError) as refused:
        play(game, users, 1)
    assert refused.value.code == "game_over"
    stored = Game.objects.get(id=game.id)
    assert (stored.status, stored.ply) == ("finished", 1)
    assert Turn.objects.filter(game=game).count() == 1


def test_a_row_changed_without_a_new_revision_still_refuses(game, users):
    """An update that does not go through `Game.save` (a queryset update) is caught by the
    write's other conditions: the stored ply and status."""
    play(game, users, 0)
    Game.objects.filter(id=game.id).update(status=Game.Status.VOIDED)
    with pytest.raises(services.GameError) as refused:
        play(game, users, 1)
    assert refused.value.code == "game_over"
    assert Turn.objects.filter(game=game).count() == 1


def test_an_illegal_turn_from_the_copy_is_refused_and_changes_nothing(game, users):
    play(game, users, 0)
    with pytest.raises(services.GameError) as refused:
        play(game, users, 1, "z")
    assert refused.value.code == "illegal"
    assert play(game, users, 1).frame["ply"] == 1  # the game goes on from the stored row
    assert Game.objects.get(id=game.id).tokens == TOKENS[:2]


def test_the_turn_that_ends_the_game_goes_through_the_finish_seam(game, users):
    for ply in range(len(TOKENS)):
        result = play(game, users, ply)
    stored = Game.objects.get(id=game.id)
    assert stored.status == "finished" and stored.termination == "played_out"
    assert result.frame["state"]["status"] == "finished"
    assert warm.get(game.id) is None  # nothing more is played in it


def test_a_newer_revision_heard_from_the_group_drops_the_copy(game, users):
    """Another process's turn reached this process's sockets: its copy is dropped at
    once, so the next turn here takes the locked path without a refused write first."""
    play(game, users, 0)
    revision = warm.get(game.id).game.revision
    assert warm.take_older(game.id, revision) is None  # this process's own turn, heard back
    assert warm.get(game.id) is not None
    assert warm.take_older(game.id, revision + 1) is not None
    assert warm.get(game.id) is None
    assert play(game, users, 1).frame["ply"] == 1


def test_sends_from_a_socket_call_are_collected_and_keep_their_order(game, users):
    from games.frames import broadcast

    run = broadcast.collected(lambda: [play(game, users, 0), play(game, users, 1)])
    results, outbox, error = run()
    assert error is None and len(results) == 2
    assert [m["ply"] for _, m, _ in outbox.messages] == [1, 2]
    assert [m["revision"] for _, m, _ in outbox.messages] == [1, 2]
    assert all(d is not None and d.sent is None for _, _, d in outbox.messages)



def test_cargobot_s_task_is_sent_after_the_turn_s_frame(users, monkeypatch):
    """A quick worker broadcasts the bot's reply within milliseconds: from a socket, the
    bot's task waits in the outbox until the human's turn frame has been sent (CI once saw
    the reply arrive first)."""
    from asgiref.sync import async_to_sync

    from games.botplay import bots
    from games.frames import broadcast
    from games.sockets import runtime
    from tests.games.support import new_bot_game

    happened = []
    monkeypatch.setattr(bots, "enqueue_bot_turn",
                        lambda game_id, ply, **options: happened.append(("task", ply)))

    async def group_send(group, message):
        happened.append(("frame", message["ply"]))
        return True

    monkeypatch.setattr(broadcast, "asend_message", group_send)
    game = new_bot_game(users["alice"], color="blue")
    alice = Actor.of_user(users["alice"])
    happened.clear()  # the game's start told its member (the API's `gameStart`)

    run = broadcast.collected(lambda: services.apply_turn(game.id, actor=alice, ply=0,
                                                          token=TOKENS[0]))
    _, outbox, error = run()
    assert error is None and happened == []  # collected: neither the frame nor the task
    assert [m["ply"] for _, m, _ in outbox.messages] == [1] and len(outbox.after) == 1

    another = new_bot_game(users["alice"], color="blue")
    happened.clear()

    async def turn_then_what_follows():
        """The socket's call, then what it started after the frames (`runtime.follow`: the
        socket does not wait for it)."""
        await runtime.service(services.apply_turn)(another.id, actor=alice, ply=0,
                                                   token=TOKENS[0])
        await runtime.followed()

    async_to_sync(turn_then_what_follows)()
    assert happened == [("frame", 1), ("task", 1)]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL prepares statements")
def test_the_warm_write_is_prepared_once_per_connection(game, users):
    """Django turns psycopg's preparing off (`prepare_threshold=None`): the write must
    still be prepared, or PostgreSQL parses, rewrites and plans it at every turn."""
    for ply in range(4):  # the first warms; the next three write from the copy
        play(game, users, ply)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements "
                       "WHERE statement LIKE 'WITH moved AS (UPDATE %%'")
        assert cursor.fetchone()[0] == 1
