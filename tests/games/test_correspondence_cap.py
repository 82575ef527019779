"""The cap on correspondence games (games.timing.correspondence, issue #29): a member may have at
most CAP correspondence games in progress and open correspondence tables, NEW_MEMBER_CAP
until they have finished NEW_MEMBER_GAMES games; making or joining a table past it is
refused in words and nothing is made; a guest may not sit at a correspondence table."""

import pytest

from games import services
from games.actors import Actor
from games.models import Challenge, Game, TableSeat
from games.timing import correspondence
from tests.games.support import new_game

pytestmark = pytest.mark.django_db


def seek(user, time_control="3d", **kwargs):
    options = {} if kwargs.get("game_type") == "cargo-express" else {"size": 5}
    return services.create_challenge(user, options=options, time_control=time_control,
                                     **kwargs)


def test_a_new_member_may_have_ten_and_is_told_why_not_more(users):
    alice, bob = users["alice"], users["bob"]
    for _ in range(5):
        new_game(alice, bob, time_control="7d")  # five games in progress
    for _ in range(5):
        seek(alice, "1d")  # and five open tables: ten
    with pytest.raises(services.GameError) as refused:
        seek(alice, "14d", game_type="cargo-express", seats=3)
    assert refused.value.code == "bad_request"
    assert refused.value.message == (
        "you already have 10 correspondence games in progress, the most you may have (new "
        "players may have 10 until they have finished 5 games): finish one before "
        "starting another")
    assert Challenge.objects.filter(creator=alice).count() == 5  # nothing made
    seek(alice, "10+5")  # live and untimed tables are not capped
    seek(alice, "")
    finished = Game.objects.filter(time_control="7d").first()
    services.resign(finished.id, actor=Actor.member(alice))  # one game fewer in progress
    seek(alice, "2d")


def test_joining_past_the_cap_is_refused_and_the_table_unchanged(users, monkeypatch):
    monkeypatch.setattr(correspondence, "NEW_MEMBER_GAMES", 0)  # bob is no longer new
    monkeypatch.setattr(correspondence, "CAP", 2)
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    new_game(bob, carol, time_control="5d")
    seek(bob, "5d")
    table = seek(alice, "3d", game_type="cargo-express", seats=3)
    with pytest.raises(services.GameError) as refused:
        services.join_table(Actor.member(bob), table.id)
    assert "you already have 2 correspondence games in progress, the most you may have:" \
        in refused.value.message
    assert TableSeat.objects.filter(challenge=table).count() == 1
    services.join_table(Actor.member(carol), table.id)  # carol has one: she may
    assert TableSeat.objects.filter(challenge=table).count() == 2


def test_a_guest_may_not_sit_at_a_correspondence_table(users):
    table = seek(users["alice"], "3d", game_type="cargo-express", seats=3, rated=False)
    with pytest.raises(services.GameError) as refused:
        services.join_table(Actor.guest("some-session"), table.id)
    assert refused.value.message == ("a correspondence table takes members only: sign in "
                                     "to play over days")
    assert TableSeat.objects.filter(challenge=table).count() == 1


def test_the_lobby_form_says_so(users, client, monkeypatch):
    monkeypatch.setattr(correspondence, "NEW_MEMBER_CAP", 1)
    client.force_login(users["alice"])
    client.post("/play/seek", {"size": 5, "time_control": "2d"})
    response = client.post("/play/seek", {"size": 5, "time_control": "5d"}, follow=True)
    assert "you already have 1 correspondence game in progress" in \
        response.content.decode()
    assert list(Challenge.objects.values_list("time_control", flat=True)) == ["2d"]


def test_a_rematch_past_the_cap_is_refused(users, monkeypatch):
    monkeypatch.setattr(correspondence, "NEW_MEMBER_CAP", 1)
    alice, bob = users["alice"], users["bob"]
    game = new_game(alice, bob, time_control="3d")
    services.resign(game.id, actor=Actor.member(bob))
    services.offer_rematch(game.id, actor=Actor.member(alice))  # alice has none going
    new_game(bob, users["carol"], time_control="1d")  # bob now has one
    with pytest.raises(services.GameError) as refused:
        services.offer_rematch(game.id, actor=Actor.member(bob))  # accepting
    assert "you already have 1 correspondence game in progress" in refused.value.message
    assert services.get_game(game.id).rematch_id is None
