"""The finish seam: every ending records the result, then runs the handlers the apps
registered, in a stated order (in the transaction, then after commit); void_game stops a
game so it counts nowhere and restores what it changed."""

import logging

import pytest
from django.db import connection

from accounts.models import Player
from engine.bot import BOT_VERSION
from games import results, services
from games.actors import Actor
from games.models import Game, Turn
from rankings.models import BotRatingChange, RatingChange
from tests.games.support import new_bot_game, new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def calls():
    """Handlers around the apps' own: they record the order and whether a transaction is
    open when they run."""
    seen = []

    def record(tag):
        return lambda ending: seen.append(
            (tag, ending.game.status, ending.voided, connection.in_atomic_block))

    results.on_game_end("test.first", results.Stage.IN_TRANSACTION, order=1)(record("first"))
    results.on_game_end("test.last", results.Stage.IN_TRANSACTION, order=99)(record("last"))
    results.on_game_end("test.after", results.Stage.AFTER_COMMIT, order=1)(record("after"))
    yield seen
    for name in ("test.first", "test.last", "test.after"):
        results.unregister(name)


def test_handlers_run_in_order_inside_then_after_the_commit(users, calls,
                                                             django_capture_on_commit_callbacks):
    game = new_game(users["alice"], users["bob"])
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.id, actor=Actor.member(users["bob"]))
    assert [c[0] for c in calls] == ["first", "last", "after"]
    assert all(c[1] == "finished" and not c[2] for c in calls)
    names = [r.name for r in results.handlers(results.Stage.IN_TRANSACTION)]
    assert names.index("rankings.elo") < names.index("rankings.bot_rating") < names.index(
        "test.last")


def test_after_frames_handlers_wait_for_the_endings_frames_in_a_sockets_call(
        users, django_capture_on_commit_callbacks):
    """`Stage.AFTER_FRAMES` (stats, achievements): outside a socket's call right after the
    after-commit handlers; inside one (its sends collected, `broadcast.collected`) they
    run only once the call's frames are sent, after the `resigned` frame is in the outbox
    and the other stages have run."""
    from accounts.models import GameStats
    from games.frames import broadcast

    seen: list[str] = []
    results.on_game_end("test.frames", results.Stage.AFTER_FRAMES, order=99)(
        lambda ending: seen.append("frames"))
    results.on_game_end("test.after", results.Stage.AFTER_COMMIT, order=1)(
        lambda ending: seen.append("after"))
    try:
        game = new_game(users["alice"], users["bob"])
        with django_capture_on_commit_callbacks(execute=True):
            services.resign(game.id, actor=Actor.member(users["bob"]))
        assert seen == ["after", "frames"] and GameStats.objects.filter(game=game).exists()
        seen.clear()

        later = new_game(users["alice"], users["bob"])

        def resign() -> None:  # as a socket's call: the commit inside the collected call
            with django_capture_on_commit_callbacks(execute=True):
                services.resign(later.id, actor=Actor.member(users["alice"]))

        _, outbox, error = broadcast.collected(resign)()
        assert error is None and seen == ["after"]
        texts = [message["text"] for _, message, _ in outbox.messages]
        assert any('"type":"resigned"' in t for t in texts)
        assert not GameStats.objects.filter(game=later).exists()  # not yet: no one waits
        for callback in outbox.after:  # what the socket's runtime runs once it has sent
            callback()
        assert seen == ["after", "frames"]
        assert GameStats.objects.filter(game=later).count() == 2
    finally:
        results.unregister("test.frames")
        results.unregister("test.after")


def test_a_failing_in_transaction_handler_records_nothing(users):
    game = new_game(users["alice"], users["bob"], size=5)
    tokens = ["a", "a", "a", "a", "a", "a"]  # any turns; the failure comes at the end

    @results.on_game_end("test.boom", results.Stage.IN_TRANSACTION, order=1)
    def boom(ending):
        raise RuntimeError("the board is down")

    try:
        for ply, token in enumerate(tokens[:2]):
            side = users["alice"] if ply % 2 == 0 else users["bob"]
            services.apply_turn(game.id, actor=Actor.member(side), ply=ply, token=token)
        with pytest.raises(RuntimeError):
            services.resign(game.id, actor=Actor.member(users["alice"]))
    finally:
        results.unregister("test.boom")
    row = Game.objects.get(id=game.id)
    assert (row.status, row.ply) == ("active", 2)
    assert not RatingChange.objects.exists()


def test_a_failing_after_commit_handler_is_logged_and_the_rest_run(
        users, calls, caplog, django_capture_on_commit_callbacks):
    results.on_game_end("test.broken", results.Stage.AFTER_COMMIT, order=0)(
        lambda ending: 1 / 0)
    try:
        game = new_game(users["alice"], users["bob"])
        with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
            services.resign(game.id, actor=Actor.member(users["bob"]))
    finally:
        results.unregister("test.broken")
    assert "test.broken failed" in caplog.text
    assert [c[0] for c in calls][-1] == "after"
    assert Game.objects.get(id=game.id).status == "finished"


def test_voiding_a_rated_game_restores_both_ratings(users, calls,
                                                    django_capture_on_commit_callbacks):
    alice, bob = users["alice"], users["bob"]
    game = new_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(game.id, actor=Actor.member(bob))
    assert Player.objects.get(user=alice).rating == 1220
    later = new_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.resign(later.id, actor=Actor.member(alice))  # a later game stands
    after_later = {u: Player.objects.get(user=users[u]).rating for u in ("alice", "bob")}

    with django_capture_on_commit_callbacks(execute=True):
        frame = services.void_game(game.id, "the rules changed")
    assert frame["type"] == "voided" and frame["state"]["voided"] == "the rules changed"
    assert frame["state"]["status"] == "voided"
    alice_p, bob_p = Player.objects.get(user=alice), Player.objects.get(user=bob)
    assert (alice_p.rating, bob_p.rating) == (after_later["alice"] - 20,
                                              after_later["bob"] + 20)
    assert (alice_p.rated_games, bob_p.rated_games) == (1, 1)
    assert not RatingChange.objects.filter(game=game).exists()
    row = services.get_game(game.id)
    assert (row.status, row.termination, row.void_reason) == (
        "voided", "voided", "the rules changed")
    assert [s.outcome for s in row.seat_list] == ["", ""]
    assert [c[0] for c in calls if c[2]][-3:] == ["first", "last", "after"]
    profile = __import__("accounts.profile", fromlist=["profile"]).profile(alice)
    online = profile["modes"][0]
    assert (online["played"], online["won"], online["lost"]) == (1, 0, 1)


def test_voiding_an_active_game_stops_it(users):
    game = new_game(users["alice"], users["bob"])
    services.void_game(game.id, "a cheater")
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=Actor.member(users["alice"]), ply=0, token="a")
    assert refused.value.code == "game_over"
    assert not Turn.objects.exists()
    with pytest.raises(services.GameError) as again:
        services.void_game(game.id, "twice")
    assert again.value.code == "gone"
    with pytest.raises(services.GameError) as blank:
        services.void_game(new_game(users["alice"], users["bob"]).id, "  ")
    assert blank.value.code == "bad_request"


def test_voiding_a_game_against_cargobot_restores_the_vs_cargobot_rating(users, lost_tasks):
    game = new_bot_game(user=users["alice"], level="easy", size=5, color="blue")
    assert game.bot_version == BOT_VERSION
    services.resign(game.id, actor=Actor.member(users["alice"]))
    assert Player.objects.get(user=users["alice"]).bot_rating < 1200
    services.void_game(game.id, "CargoBot changed")
    player = Player.objects.get(user=users["alice"])
    assert (player.bot_rating, player.bot_games) == (1200, 0)
    assert not BotRatingChange.objects.exists()


@pytest.fixture
def lost_tasks(monkeypatch):
    from games.botplay import bots

    monkeypatch.setattr(bots, "enqueue_bot_turn", lambda *a, **k: None)
