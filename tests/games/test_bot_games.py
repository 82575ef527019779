"""Games against CargoBot with the bot's turns run in-process (CELERY_TASK_ALWAYS_EAGER, the
embedded default): whole games at every level, the task's guards (a duplicate, a stale ply,
a resign, not the bot's turn), the sweep, and colours. With a real worker:
test_bot_worker.py."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.kinds import get_kind
from games.models import Game, Turn
from rankings.models import BotRatingChange
from tests.games.bot_support import bot_turns, eager, human_token, lost_tasks, play_as_human
from tests.games.support import (
    SIDES,
    Actor,
    bot_of,
    bot_side,
    new_bot_game,
    new_game,
    rebuilt,
    winner_of,
)

BOT_RATINGS = get_kind("cargo-connect").bot_ratings  # CargoBot levels' fixed ratings

__all__ = ["eager", "lost_tasks"]  # fixtures

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_it_plays_a_whole_game_against_each_level(eager, users, level):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level=level, size=5,
                                    color="blue")
    assert (game.user_at(0), game.user_at(1), bot_side(game), game.mode) == (
        alice, None, "orange", "bot")
    assert game.bot_seed is not None and game.bot_waiting_since is None
    state = services.state_of(services.get_game(game.id), viewer=0)
    assert state["players"]["orange"] == {"name": f"CargoBot {level.title()}", "title": None,
                                          "rating": BOT_RATINGS[level], "bot": level,
                                          "rating_kind": "bot_level", "rating_change": None,
                                          "rating_provisional": False, "left": None}
    for _ in range(200):
        if state["over"]:
            break
        state = play_as_human(game.id, alice)
        # The bot answered within the human's turn (eager): the human is to move again.
        assert state["over"] or state["to_move"] == "blue"
    game = Game.objects.get(id=game.id)
    assert game.status == "finished" and game.bot_waiting_since is None
    turns = list(game.turns.order_by("ply"))
    assert [t.ply for t in turns] == list(range(game.ply))
    assert [SIDES[t.seat] for t in turns] == ["blue", "orange"] * (game.ply // 2) + ["blue"] * (
        game.ply % 2)
    assert BotRatingChange.objects.filter(game=game, user=alice, level=level).count() == 1


def test_cargobot_moves_first_when_it_plays_blue(eager, users):
    game = new_bot_game(user=users["alice"], guest_key=None, level="medium",
                                    size=6, color="orange")
    game.refresh_from_db()
    assert bot_side(game) == "blue" and game.ply == 1
    assert [SIDES[t.seat] for t in game.turns.all()] == ["blue"]
    assert game.bot_waiting_since is None


def test_the_bot_turn_is_the_engines_choice_with_the_games_seed(eager, users):
    from engine import Game as EngineGame
    from engine.bot import choose_turn

    game = new_bot_game(user=users["alice"], guest_key=None, level="hard", size=6,
                                    color="orange")
    game.refresh_from_db()
    start = EngineGame.from_position(game.start).position
    assert game.tokens == [choose_turn(start, "hard", game.bot_seed)]


def test_a_duplicated_task_plays_once(users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    assert lost_tasks == [(game.id, 1)]  # sent once, after the human's turn committed
    assert Game.objects.get(id=game.id).bot_waiting_since is not None

    assert tasks.bot_turn.apply(args=(game.id, 1)).get() == "played"
    assert tasks.bot_turn.apply(args=(game.id, 1)).get() == "stale_ply"
    assert tasks.bot_turn(game.id, 1) == "stale_ply"
    game.refresh_from_db()
    assert game.ply == 2 and len(bot_turns(game)) == 1 and game.bot_waiting_since is None

    # Two copies that both chose before either applied: the row lock and the Turn's
    # (game, ply) uniqueness let one play; the other gets the same turn back, unbroadcast.
    play_as_human(game.id, alice)
    game.refresh_from_db()
    state = services.state_of(game)
    from engine.bot import choose_turn

    token = choose_turn(services.live(game).game.position, "easy", game.bot_seed)
    first = services.apply_turn(game.id, actor=bot_of(game), ply=3, token=token)
    second = services.apply_turn(game.id, actor=bot_of(game), ply=3, token=token)
    assert not first.duplicate and second.duplicate and second.frame == rebuilt(first.frame)
    assert Turn.objects.filter(game=game, ply=3).count() == 1
    assert state["ply"] == 3


def test_a_task_after_the_player_resigned_does_nothing(users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="medium", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    services.resign(game.id, actor=Actor.of_user(alice), ply=1)
    assert tasks.bot_turn(game.id, 1) == "game_over"
    game.refresh_from_db()
    assert game.ply == 1 and winner_of(game) == "orange" and game.bot_waiting_since is None
    assert bot_turns(game) == []


def test_a_task_for_another_ply_or_the_humans_turn_does_nothing(users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    assert tasks.bot_turn(game.id, 0) == "not_your_turn"  # the human's turn
    play_as_human(game.id, alice)
    assert tasks.bot_turn(game.id, 0) == "stale_ply"
    assert tasks.bot_turn(game.id, 2) == "stale_ply"
    assert tasks.bot_turn("nosuchgame", 1) == "not_found"
    human = new_game(alice, users["bob"], size=5)
    assert tasks.bot_turn(human.id, 0) == "not_a_bot_game"
    assert Turn.objects.filter(game=game).count() == 1


def test_the_bot_plays_only_through_apply_turn_for_its_own_side(users, lost_tasks):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=bot_of(game), ply=0, token="a")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(services.GameError) as refused:
        services.apply_turn(game.id, actor=Actor.bot("hard"), ply=0, token="a")  # no such bot
    assert refused.value.code == "not_a_player"


def test_the_sweep_picks_up_a_game_whose_task_was_lost(eager, users, lost_tasks,
                                                       monkeypatch):
    alice = users["alice"]
    lost = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    play_as_human(lost.id, alice)
    fresh = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                     color="blue")
    play_as_human(fresh.id, alice)
    assert len(lost_tasks) == 2  # both tasks "lost"
    Game.objects.filter(id=lost.id).update(
        bot_waiting_since=timezone.now() - services.BOT_SWEEP_AFTER - timedelta(seconds=1))
    monkeypatch.undo()  # the broker works again

    assert services.stalled_bot_games() == [(lost.id, 1)]
    assert tasks.sweep_bot_games.apply().get() == [lost.id]
    lost.refresh_from_db()
    assert lost.ply == 2 and len(bot_turns(lost)) == 1 and lost.bot_waiting_since is None
    assert Game.objects.get(id=fresh.id).ply == 1  # not waiting long enough yet
    assert tasks.sweep_bot_games.apply().get() == []


def test_opening_a_stalled_game_sends_the_bot_task_again(eager, users, lost_tasks, client,
                                                         monkeypatch):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    play_as_human(game.id, alice)
    Game.objects.filter(id=game.id).update(bot_waiting_since=timezone.now() - timedelta(hours=1))
    monkeypatch.undo()
    client.force_login(alice)
    response = client.get(f"/g/{game.id}")
    assert response.status_code == 200
    assert response.context["state"]["ply"] == 2  # the bot played before the page drew


def test_colour_random_and_bad_requests(users, lost_tasks, monkeypatch):
    draws: list[int] = []

    class Drawn:
        """The system's random source, recording what it was asked and answering in turn
        (twelve true draws agree one time in 2,048: CI once saw it)."""

        def randrange(self, stop: int) -> int:
            draws.append(stop)
            return len(draws) % 2

    monkeypatch.setattr("games.botplay.bot_games.random.SystemRandom", Drawn)
    sides = [bot_side(new_bot_game(user=users["alice"], guest_key=None, level="easy",
                                   size=5)) for _ in range(2)]
    assert draws == [2, 2] and sorted(sides) == ["blue", "orange"]
    for kwargs, code in [({"level": "expert"}, "bad_request"), ({"size": 9}, "bad_request"),
                         ({"color": "green"}, "bad_request")]:
        args = {"user": users["alice"], "guest_key": None, "level": "easy", "size": 5, **kwargs}
        with pytest.raises(services.GameError) as refused:
            new_bot_game(**args)
        assert refused.value.code == code
    with pytest.raises(services.GameError):
        new_bot_game(user=None, guest_key=None, level="easy", size=5)


def test_a_rematch_against_cargobot_starts_at_once_with_colours_swapped(eager, users):
    alice = users["alice"]
    game = new_bot_game(user=alice, guest_key=None, level="easy", size=5,
                                    color="blue")
    services.resign(game.id, actor=Actor.of_user(alice))
    frame = services.offer_rematch(game.id, actor=Actor.of_user(alice))
    new = Game.objects.get(id=frame["rematch"]["game"])
    assert (new.mode, new.bot_level, new.size, new.user_at(1), bot_side(new)) == (
        "bot", "easy", 5, alice, "blue")
    assert new.ply == 1  # CargoBot, now Blue, has already moved
    assert human_token(services.state_of(new, viewer=1))
