"""A process's warm copy follows the turns it hears from the game's group
(`games.fast.turns.follow`): a copy one revision behind a turn of a game whose turns change
nothing else becomes the stored row by applying that turn; anything else is dropped, and
the locked path decides the next turn as before."""

import copy

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

import games.turns.play
from games import services
from games.fast import turns as play
from games.fast import warm
from games.frames import broadcast
from games.models import Game
from tests.games.support import Actor, alternate_turn, new_game, receive_type, scripted_tokens

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fast_path]

TOKENS = scripted_tokens(5)


def turn(game, users, ply, token=None):
    return alternate_turn(game, users, ply, token or TOKENS[ply])


def elsewhere(game, users, ply):
    """`ply` played by another process: this process's copy stays as it was, and the
    group message the other process sends is returned instead of sent."""
    entry = warm.get(game.id)
    kept = warm.Warm(copy.deepcopy(entry.game), copy.deepcopy(entry.lg))
    _, outbox, error = broadcast.collected(lambda: turn(game, users, ply))()
    assert error is None
    warm._entries[game.id] = kept
    # The game's own group message; an ending also tells each seat's account (the API's
    # event stream, `gameFinish`), which is not the game's.
    [message] = [m for group, m, _ in outbox.messages if group == broadcast.game_group(game.id)]
    return kept, message


def the_row(game_id):
    stored = Game.objects.get(id=game_id)
    return {f.attname: getattr(stored, f.attname) for f in Game._meta.concrete_fields}


def the_copy(game_id):
    entry = warm.get(game_id)
    return {f.attname: getattr(entry.game, f.attname) for f in Game._meta.concrete_fields}


def test_a_turn_made_elsewhere_brings_the_copy_to_the_stored_row(game, users):
    turn(game, users, 0)  # warms the game
    kept, message = elsewhere(game, users, 1)
    assert message["turn"] == [1, 1, TOKENS[1]] and message["revision"] == 2
    assert kept.game.revision == 1
    play.follow(game.id, message["revision"], message["turn"])
    assert the_copy(game.id) == the_row(game.id)  # every column, revision included
    assert warm.get(game.id).lg.position() == Game.objects.get(id=game.id).position
    with CaptureQueriesContext(connection) as queries:  # the next turn: from the copy
        assert turn(game, users, 2).frame["ply"] == 2
    assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    assert Game.objects.get(id=game.id).tokens == TOKENS[:3]


def test_this_process_s_own_turn_heard_back_leaves_the_copy(game, users):
    turn(game, users, 0)
    entry = warm.get(game.id)
    play.follow(game.id, entry.game.revision, [0, 0, TOKENS[0]])
    assert warm.get(game.id) is entry and entry.game.ply == 1


def test_a_copy_two_turns_behind_is_dropped(game, users):
    turn(game, users, 0)
    entry = warm.get(game.id)
    kept = warm.Warm(copy.deepcopy(entry.game), copy.deepcopy(entry.lg))  # revision 1
    turn(game, users, 1)
    _, message = elsewhere(game, users, 2)
    warm._entries[game.id] = kept
    play.follow(game.id, message["revision"], message["turn"])  # revision 3
    assert warm.get(game.id) is None
    assert turn(game, users, 3).frame["ply"] == 3  # the locked path, from the row
    assert Game.objects.get(id=game.id).tokens == TOKENS[:4]


def test_a_frame_without_its_turn_drops_the_copy(game, users):
    """A resign or a finish carries no turn: a copy behind it is dropped."""
    turn(game, users, 0)
    _, message = elsewhere(game, users, 1)
    play.follow(game.id, message["revision"], None)
    assert warm.get(game.id) is None


def test_a_turn_the_copy_cannot_apply_drops_it(game, users):
    turn(game, users, 0)
    kept, message = elsewhere(game, users, 1)
    play.follow(game.id, message["revision"], [1, 1, "z"])
    assert warm.get(game.id) is None
    assert kept.game.revision == 1  # nothing advanced
    assert turn(game, users, 2).frame["ply"] == 2


def test_a_copy_a_thread_is_using_is_dropped_not_advanced(game, users):
    turn(game, users, 0)
    kept, message = elsewhere(game, users, 1)
    with kept.lock:
        play.follow(game.id, message["revision"], message["turn"])
    assert warm.get(game.id) is None and kept.game.revision == 1 and kept.game.ply == 1


def test_the_turn_that_ends_the_game_is_not_followed(game, users):
    for ply in range(len(TOKENS) - 1):
        turn(game, users, ply)
    _, message = elsewhere(game, users, len(TOKENS) - 1)
    assert Game.objects.get(id=game.id).status == "finished"
    play.follow(game.id, message["revision"], message["turn"])
    assert warm.get(game.id) is None


def test_a_timed_game_s_copy_is_dropped(users):
    """Its turns charge the clocks at the moment of the write: not the turn alone."""
    timed = new_game(users["alice"], users["bob"], time_control="5+3")
    turn(timed, users, 0)
    kept, message = elsewhere(timed, users, 1)
    play.follow(timed.id, message["revision"], message["turn"])
    assert warm.get(timed.id) is None and kept.game.ply == 1


@pytest.mark.asyncio
async def test_a_socket_hearing_another_process_s_turn_keeps_its_game_warm(game, users,
                                                                           connect,
                                                                           monkeypatch):
    """Both sockets are on this process, but Bob's turn is written by another one (its
    frame arrives through the group): Alice's next turn is still written from the warm
    copy."""
    alice, bob = await connect(game.id, "alice"), await connect(game.id, "bob")
    await alice.send_json_to({"type": "turn", "ply": 0, "token": TOKENS[0]})
    for comm in (alice, bob):
        await receive_type(comm, "turn")

    message = (await sync_to_async(elsewhere)(game, users, 1))[1]
    assert await broadcast.asend_message(broadcast.game_group(game.id), message)
    for comm in (alice, bob):
        assert (await receive_type(comm, "turn"))["ply"] == 1
    assert warm.get(game.id).game.revision == 2  # followed

    locked = []
    original = games.turns.play._apply_locked
    monkeypatch.setattr(games.turns.play, "_apply_locked",
                        lambda *args: locked.append(args) or original(*args))
    await alice.send_json_to({"type": "turn", "ply": 2, "token": TOKENS[2]})
    assert (await receive_type(bob, "turn"))["ply"] == 2
    assert locked == []
    row = await sync_to_async(lambda: Game.objects.get(id=game.id))()
    assert (row.ply, row.tokens) == (3, TOKENS[:3])
    for comm in (alice, bob):
        await comm.disconnect()


def test_cargobot_s_turn_from_a_worker_keeps_the_person_s_copy_warm(users, monkeypatch):
    """CargoBot's turn is written by a Celery worker: it clears `bot_waiting_since`, which
    the person's process works out the same, so the person's next turn is one write."""
    from games.botplay import bots
    from tests.games.bot_support import human_token
    from tests.games.support import member, new_bot_game

    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda game_id, ply, **options: None)
    game = new_bot_game(users["alice"], color="blue")  # alice (Blue) moves first
    alice, level = member(users["alice"]), game.seat_list[1].bot_level

    def move(actor, ply):
        token = human_token(services.state_of(services.get_game(game.id), viewer=0))
        return services.apply_turn(game.id, actor=actor, ply=ply, token=token)

    move(alice, 0)
    assert warm.get(game.id).game.bot_waiting_since is not None
    kept = warm.Warm(copy.deepcopy(warm.get(game.id).game), copy.deepcopy(warm.get(game.id).lg))
    _, outbox, error = broadcast.collected(lambda: move(Actor.bot(level), 1))()
    assert error is None
    warm._entries[game.id] = kept  # the worker's process wrote it, not this one
    [(_, message, _)] = outbox.messages
    play.follow(game.id, message["revision"], message["turn"])
    assert the_copy(game.id) == the_row(game.id)
    assert warm.get(game.id).game.bot_waiting_since is None
    with CaptureQueriesContext(connection) as queries:
        move(alice, 2)
    assert not any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)


def test_a_bot_waiting_since_the_write_is_not_the_turn_s_alone(game):
    """A bot to move next waits since the moment its turn was written: a copy elsewhere
    cannot know that moment, so it is not advanced."""
    from django.utils import timezone

    fields = [*play.TURN_FIELDS, "bot_waiting_since"]
    game.bot_waiting_since = timezone.now()
    assert not play._decided_by_the_turn(game, fields)
    game.bot_waiting_since = None
    assert play._decided_by_the_turn(game, fields)
    assert play._decided_by_the_turn(game, play.TURN_FIELDS)
    assert not play._decided_by_the_turn(game, [*play.TURN_FIELDS, "clock"])
