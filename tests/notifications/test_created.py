"""Notifications are made at each point of the platform once: "your turn" in
correspondence games only, one unread per member and game (not one per move); a challenge
accepted, a table joined, a rematch offered, a correspondence game ended; never for bots or
guests; and only the kinds a member keeps."""

import pytest

from games import services
from games.actors import Actor
from notifications import choices, notify
from notifications.models import Kind, Notification
from tests.games.support import new_game
from tests.notifications.support import correspondence_game, play, told

pytestmark = pytest.mark.django_db


def test_it_tells_the_member_to_move_once_per_turn_handed_over(users):
    alice, bob = users["alice"], users["bob"]
    game = correspondence_game(alice, bob)
    assert told(alice, Kind.YOUR_TURN, unread=True) == ["Your turn in Cargo Connect with bob"]
    assert told(bob) == []
    play(game.id, alice)
    assert told(alice, Kind.YOUR_TURN, unread=True) == []  # read: she moved
    assert told(bob, Kind.YOUR_TURN, unread=True) == ["Your turn in Cargo Connect with alice"]
    play(game.id, bob)
    play(game.id, alice)
    assert len(told(bob, Kind.YOUR_TURN)) == 2
    assert len(told(bob, Kind.YOUR_TURN, unread=True)) == 1


def test_it_makes_one_unread_per_member_and_game_however_often_it_is_called(users):
    game = correspondence_game(users["alice"], users["bob"])
    lg = services.live(services.get_game(game.id))
    for _ in range(3):
        notify.your_turn(services.get_game(game.id), lg)
    assert len(told(users["alice"], Kind.YOUR_TURN)) == 1


@pytest.mark.parametrize("time_control", ["", "5+3"])
def test_live_and_untimed_games_tell_nobody_whose_turn_it_is(users, time_control):
    game = new_game(users["alice"], users["bob"], time_control=time_control)
    play(game.id, users["alice"])
    assert not Notification.objects.exists()


def test_bots_and_guests_are_never_told(users):
    guest = Actor.guest("g" * 32)
    game = services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[guest, Actor.member(users["bob"])],
                                time_control="1d", rated=False)
    assert not Notification.objects.exists()  # the guest is to move
    token = services.state_of(services.get_game(game.id), viewer=None)["legal"][0]
    services.apply_turn(game.id, actor=guest, ply=0, token=token)
    assert told(users["bob"], Kind.YOUR_TURN) == ["Your turn in Cargo Connect with Guest"]
    assert Notification.objects.count() == 1
    services.create_game(game_type="cargo-connect", options={"size": 5}, rated=False,
                         seats=[Actor.bot("easy"), Actor.member(users["carol"])],
                         time_control="1d")
    assert Notification.objects.count() == 1  # CargoBot is to move: nobody is told


def test_a_challenge_accepted_tells_its_maker(users):
    challenge = services.create_challenge(users["alice"], options={"size": 5},
                                          time_control="3d")
    game = services.accept_challenge(users["bob"], challenge.id)
    assert told(users["alice"], Kind.CHALLENGE) == [
        "Your challenge was accepted: Cargo Connect with bob has begun"]
    assert told(users["bob"], Kind.CHALLENGE) == []
    assert Notification.objects.get(user=users["alice"], kind=Kind.CHALLENGE).url == \
        f"/g/{game.id}"


def test_a_table_tells_its_host_who_joined_then_everyone_but_the_last_when_it_starts(users):
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    table = services.create_challenge(alice, options={}, game_type="cargo-express", seats=3,
                                      time_control="10+5")
    services.join_table(Actor.member(bob), table.id)
    assert told(alice, Kind.TABLE_INVITE) == ["bob joined your Cargo Express table"]
    game = services.join_table(Actor.member(carol), table.id)
    assert game is not None
    assert told(alice, Kind.CHALLENGE) == [
        "Your challenge was accepted: Cargo Express with " + _others(game, alice) + " has begun"]
    assert told(bob, Kind.CHALLENGE) == [
        f"Your table is full: Cargo Express with {_others(game, bob)} has begun"]
    assert told(carol) == []


def _others(game, user):
    return ", ".join(s.user.username for s in game.seat_list if s.user_id != user.pk)


def test_a_rematch_offer_tells_the_other_players_once(users):
    game = new_game(users["alice"], users["bob"], time_control="5+3")
    services.resign(game.id, actor=Actor.member(users["alice"]))
    services.offer_rematch(game.id, actor=Actor.member(users["alice"]))
    services.offer_rematch(game.id, actor=Actor.member(users["alice"]))
    assert told(users["bob"], Kind.REMATCH_OFFERED) == [
        "alice offers a rematch of your Cargo Connect game"]
    assert told(users["alice"], Kind.REMATCH_OFFERED) == []


def test_a_correspondence_game_ending_tells_its_players_and_reads_their_turn(
        users, django_capture_on_commit_callbacks):
    alice, bob = users["alice"], users["bob"]
    game = correspondence_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.id, actor=Actor.member(bob))
    assert told(alice, Kind.GAME_ENDED) == ["Cargo Connect with bob is over: you won"]
    assert told(bob, Kind.GAME_ENDED) == ["Cargo Connect with alice is over: you lost"]
    assert told(alice, Kind.YOUR_TURN, unread=True) == []
    live = new_game(alice, bob, time_control="5+3")
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(live.id, actor=Actor.member(bob))
    assert Notification.objects.filter(game=live).count() == 0


def test_a_kind_the_member_turned_off_is_not_kept(users):
    choices.save(users["alice"], in_site=[], by_email=[], digest=False, alarm=False)
    correspondence_game(users["alice"], users["bob"])
    assert told(users["alice"]) == []
    choices.save(users["alice"], in_site=[], by_email=["your_turn"], digest=True, alarm=False)
    correspondence_game(users["alice"], users["bob"])
    row = Notification.objects.get(user=users["alice"])
    assert row.in_site is False  # kept for the digest, not shown in the site
