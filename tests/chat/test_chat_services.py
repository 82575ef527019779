"""The chat's services on their own: who writes where, the length and rate limits,
silences, mutes, reports and the admin's hiding; every refusal changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from chat import services
from chat.models import Message, Mute, Report, Silence
from chat.rooms import PLAYERS, SPECTATORS, readable, writable
from chat.services import ChatError, Reader, clean
from games.actors import Actor

pytestmark = pytest.mark.django_db


def reader(user, player):
    return Reader(Actor.member(user), player)


def refused(code, call, *args):
    with pytest.raises(ChatError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value.message
    return caught.value


def test_it_numbers_each_rooms_messages_from_one(game, users):
    a = services.post(game.id, reader(users["alice"], True), "hello bob")
    b = services.post(game.id, reader(users["bob"], True), "hi")
    c = services.post(game.id, reader(users["carol"], False), "nice game")
    assert (a.seq, a.room.kind, b.seq, c.seq, c.room.kind) == (1, PLAYERS, 2, 1, SPECTATORS)


def test_it_keeps_the_players_apart_from_the_spectators_until_the_end():
    assert readable(player=True, over=False) == (PLAYERS,)
    assert readable(player=True, over=True) == (PLAYERS, SPECTATORS)
    assert readable(player=False, over=False) == (PLAYERS, SPECTATORS)
    assert writable(Actor.guest("k"), player=True) is None
    assert writable(None, player=False) is None


def test_guests_and_visitors_never_write(game):
    refused("sign_in", services.post, game.id, Reader(Actor.guest("abc"), False), "hi")
    refused("sign_in", services.post, game.id, Reader(None, False), "hi")
    assert not Message.objects.exists()


def test_the_length_limit_counts_characters_after_cleaning(game, users):
    alice = reader(users["alice"], True)
    error = refused("too_long", services.post, game.id, alice, "x" * 141)
    assert "141" in error.message and "140" in error.message
    refused("empty", services.post, game.id, alice, "  \n\t ")
    refused("bad_frame", services.post, game.id, alice, 12)
    assert not Message.objects.exists()
    assert services.post(game.id, alice, "é" * 140).text == "é" * 140


def test_clean_makes_one_line_of_plain_text():
    assert clean("a\n\nb\tc  ") == "a b c"
    assert clean("x\x00y\x07z") == "xyz"
    assert clean("abc\u202edef") == "abcdef"  # no direction override
    assert clean("<b>hi</b> https://x.y") == "<b>hi</b> https://x.y"  # kept as text


def test_the_rate_limit_is_five_messages_in_ten_seconds_across_games(game, users):
    from tests.games.support import new_game

    other = new_game(users["alice"], users["carol"])
    alice = reader(users["alice"], True)
    for n in range(3):
        services.post(game.id, alice, f"m{n}")
    for n in range(2):
        services.post(other.id, alice, f"o{n}")
    error = refused("rate_limited", services.post, game.id, alice, "one too many")
    assert "5 messages in 10 seconds" in error.message
    assert Message.objects.count() == 5
    Message.objects.update(created=timezone.now() - timedelta(seconds=11))
    services.post(game.id, alice, "later")


def test_a_silenced_member_writes_nowhere_until_the_end_date(game, users):
    services.silence([users["carol"].pk], hours=24, reason="spam")
    error = refused("silenced", services.post, game.id, reader(users["carol"], False), "hi")
    assert "until" in error.message
    state = services.chat_state(game.id, reader(users["carol"], False), {})
    assert state["write"] is None and "silenced" in state["reason"]
    Silence.objects.update(until=timezone.now() - timedelta(minutes=1))
    services.post(game.id, reader(users["carol"], False), "back")


def test_a_mute_is_kept_and_leaves_the_muted_out_of_catch_up(game, users):
    alice, bob = reader(users["alice"], True), reader(users["bob"], True)
    services.post(game.id, bob, "first")
    assert services.mute(alice, "bob", True)["names"] == ["bob"]
    services.post(game.id, bob, "second")
    services.post(game.id, alice, "mine")
    state = services.chat_state(game.id, alice, {})
    [players] = state["rooms"]
    assert [m["text"] for m in players["messages"]] == ["mine"]
    assert players["seq"] == 3 and state["muted"] == ["bob"]
    assert Mute.objects.filter(muter=users["alice"]).count() == 1
    services.mute(alice, "bob", True)  # twice: one row
    assert Mute.objects.count() == 1
    refused("bad_request", services.mute, alice, "alice", True)
    refused("not_found", services.mute, alice, "nobody", True)
    refused("sign_in", services.mute, Reader(Actor.guest("k"), False), "bob", True)
    services.mute(alice, "bob", False)
    assert [m["text"] for m in services.chat_state(game.id, alice, {})["rooms"][0]
            ["messages"]] == ["first", "second", "mine"]


def test_a_report_is_stored_once_per_member_and_message(game, users):
    services.post(game.id, reader(users["bob"], True), "rude words")
    carol = reader(users["carol"], False)
    assert services.report(game.id, carol, PLAYERS, 1) == {
        "type": "chat_reported", "room": PLAYERS, "seq": 1}
    services.report(game.id, carol, PLAYERS, 1)
    assert Report.objects.count() == 1
    refused("bad_request", services.report, game.id, reader(users["bob"], True), PLAYERS, 1)
    refused("not_found", services.report, game.id, carol, PLAYERS, 9)
    refused("bad_frame", services.report, game.id, carol, "lobby", 1)
    refused("sign_in", services.report, game.id, Reader(None, False), PLAYERS, 1)


def test_a_player_cannot_report_into_the_spectators_room_before_the_end(game, users):
    services.post(game.id, reader(users["carol"], False), "psst, play a1")
    refused("not_found", services.report, game.id, reader(users["alice"], True), SPECTATORS, 1)
    assert not Report.objects.exists()


def test_hidden_messages_leave_every_catch_up_and_are_named_to_pages_that_had_them(
        game, users):
    alice = reader(users["alice"], True)
    services.post(game.id, alice, "one")
    services.post(game.id, alice, "two")
    assert services.hide(Message.objects.filter(seq=1)) == 1
    assert services.hide(Message.objects.filter(seq=1)) == 0  # already hidden
    fresh = services.chat_state(game.id, reader(users["carol"], False), {})
    assert [m["text"] for m in fresh["rooms"][0]["messages"]] == ["two"]
    had_both = services.chat_state(game.id, alice, {"players": 2})
    assert had_both["rooms"][0]["hidden"] == [1] and had_both["rooms"][0]["messages"] == []
    assert had_both["rooms"][0]["version"] == 1


def test_a_hidden_message_shown_again_is_back_in_every_catch_up(game, users):
    alice = reader(users["alice"], True)
    services.post(game.id, alice, "one")
    services.post(game.id, alice, "two")
    assert services.show(Message.objects.filter(seq=1)) == 0  # never hidden: no change
    services.hide(Message.objects.filter(seq=1))
    assert services.show(Message.objects.filter(seq=1)) == 1
    assert services.show(Message.objects.filter(seq=1)) == 0  # shown already
    message = Message.objects.get(seq=1)
    assert not message.hidden and message.hidden_at is None
    fresh = services.chat_state(game.id, reader(users["carol"], False), {})["rooms"][0]
    assert [m["text"] for m in fresh["messages"]] == ["one", "two"]
    assert fresh["hidden"] == [] and fresh["version"] == 2  # hidden, then shown


def test_a_player_reads_the_spectators_room_once_the_game_is_over(game, users):
    from games import services as games

    services.post(game.id, reader(users["carol"], False), "spectating")
    alice = reader(users["alice"], True)
    assert [r["room"] for r in services.chat_state(game.id, alice, {})["rooms"]] == [PLAYERS]
    games.resign(game.id, actor=Actor.member(users["bob"]))
    rooms = services.chat_state(game.id, alice, {})["rooms"]
    assert [r["room"] for r in rooms] == [PLAYERS, SPECTATORS]
    assert rooms[1]["messages"][0]["text"] == "spectating"
