"""Voiding: a daily game whose rules or CargoBot changed can't continue. The site voids it
on the next access, the admin's action voids the selected in-progress ranked ones; each
void is logged with who and why, the game leaves the board, and a new ranked game may
start that day at that difficulty."""

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.actors import Actor
from games.kinds import get_kind
from games.models import Game
from puzzles.daily import services as daily
from puzzles.daily.models import DailyGame, DailyVoid
from rankings.models import DailyBoardEntry
from tests.daily.conftest import play_out, play_turns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def new_cargobot(monkeypatch):
    kind = get_kind("cargo-connect")

    def update():
        monkeypatch.setattr(type(kind), "bot_version", kind.bot_version + "-next")

    return update


def test_a_cargobot_update_is_detected_on_the_next_access(frozen, users, eager, client,
                                                         new_cargobot):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "hard")
    play_turns(game.id, alice, 1)
    new_cargobot()
    client.force_login(users["alice"])
    client.get(f"/g/{game.id}")
    voided = services.get_game(game.id)
    assert voided.status == Game.Status.VOIDED
    log = DailyVoid.objects.get(daily__game_id=game.id)
    assert log.source == "detected" and log.by is None and "CargoBot changed" in log.reason
    assert DailyGame.objects.get(game=game).voided
    # a new ranked game that day at that difficulty, with the new CargoBot
    again = daily.start(alice, "hard")
    assert again.id != game.id
    assert DailyGame.objects.get(game=again).ranked
    assert services.get_game(again.id).bot_version.endswith("-next")


def test_starting_again_detects_the_update_too(frozen, users, new_cargobot):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    new_cargobot()
    again = daily.start(alice, "easy")
    assert again.id != game.id and DailyGame.objects.get(game=again).ranked
    assert DailyGame.objects.filter(user=users["alice"], ranked=True).count() == 2
    assert DailyGame.objects.filter(user=users["alice"], ranked=True, voided=False).count() == 1


def test_a_rules_update_is_detected(frozen, users, monkeypatch):
    game = daily.start(Actor.member(users["alice"]), "easy")
    Game.objects.filter(id=game.id).update(rules="0.1")  # as if started under older rules
    assert daily.refresh(services.get_game(game.id)) is True
    assert "the rules changed" in DailyVoid.objects.get().reason


def test_the_admin_action_voids_in_progress_ranked_games(frozen, users, eager, client,
                                                        new_cargobot):
    admin = get_user_model().objects.create_superuser("boss", "b@example.com", "pw-long-boss")
    alice, bob = Actor.member(users["alice"]), Actor.member(users["bob"])
    running = daily.start(alice, "easy")
    done = daily.start(bob, "easy")
    play_out(done.id, bob)
    new_cargobot()
    client.force_login(admin)
    response = client.post("/admin/daily/dailygame/", {
        "action": "void_outdated",
        "_selected_action": [str(d.pk) for d in DailyGame.objects.all()],
    }, follow=True)
    assert ("Voided 1 of the 2 selected game(s); their players may start a new ranked game "
            "today. Not voided: 1 no longer in progress (finished or aborted: their results "
            "stand).") in response.content.decode()
    assert services.get_game(running.id).status == Game.Status.VOIDED
    assert services.get_game(done.id).status == Game.Status.FINISHED  # finished ones stand
    log = DailyVoid.objects.get()
    assert log.by == admin and log.source == "admin"
    assert "(admin action)" in log.reason


def test_the_admin_action_says_why_it_voided_nothing(frozen, users, eager, client):
    """Issue #42, point 18: "Voided 0 game(s)" said nothing of why; each game left alone
    is counted under its reason (already voided, practice, over, nothing changed)."""
    admin = get_user_model().objects.create_superuser("boss", "b@example.com", "pw-long-boss")
    alice, bob = Actor.member(users["alice"]), Actor.member(users["bob"])
    current = daily.start(alice, "easy")  # today's rules and CargoBot: nothing to void
    done = daily.start(bob, "easy")
    play_out(done.id, bob)
    gone = daily.start(bob, "hard")
    services.void_game(gone.id, "cheating")
    practice = daily.start(bob, "hard")  # after a void: ranked again, so made practice here
    DailyGame.objects.filter(game_id=practice.id).update(ranked=False)
    client.force_login(admin)
    response = client.post("/admin/daily/dailygame/", {
        "action": "void_outdated",
        "_selected_action": [str(d.pk) for d in DailyGame.objects.all()],
    }, follow=True)
    page = response.content.decode()
    assert ("Voided 0 of the 4 selected game(s). Not voided: 1 already voided; 1 practice "
            "(not ranked: nothing to void); 1 no longer in progress (finished or aborted: "
            "their results stand); 1 still on today&#x27;s rules and CargoBot (nothing "
            "changed: they may go on).") in page
    assert 'class="warning"' in page
    assert services.get_game(current.id).status == Game.Status.ACTIVE
    assert DailyVoid.objects.filter(source="admin").count() == 0


def test_a_voided_finished_game_leaves_the_board(frozen, users, eager):
    alice = Actor.member(users["alice"])
    game = daily.start(alice, "easy")
    play_out(game.id, alice)
    assert DailyBoardEntry.objects.filter(game_id=game.id, best=True).exists()
    services.void_game(game.id, "cheating")  # the games admin's action
    assert not DailyBoardEntry.objects.exists()
    log = DailyVoid.objects.get()
    assert log.source == "site" and log.reason == "cheating"
    assert DailyGame.objects.get(game=game).voided
    assert DailyGame.objects.get(game=daily.start(alice, "easy")).ranked
