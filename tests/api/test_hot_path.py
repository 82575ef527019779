"""The decision's hot path kept every check while it got cheaper (docs/api.md, "The bot
games' figures"): a decision reads the game's kind and mode in one query and leaves the
game itself to the turn, so a due flag still falls (and the decision is refused
`game_over`, nothing stored) and the mode's open checks still run once; the API's limits
count in one round trip and Redis's clients are the process's, not a request's."""

from __future__ import annotations

import datetime as dt
import json
import os

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts import bots as accounts_bots
from api import limits
from api.scopes import Scope
from cargosite.cache import FallbackRedisCache
from games import access, services
from games.actors import Actor
from games.models import Game, Turn
from tests.api.support import bearer_client, token_for
from tests.clocks.support import legal, start, timed_game

REDIS = os.environ.get("REDIS_URL")


def decide(token: str, game_id: str, ply: int, move: str):
    return bearer_client(token).post(f"/api/board/game/{game_id}/decision",
                                     data=json.dumps({"ply": ply, "token": move}),
                                     content_type="application/json")


def flag_due(game_id: str) -> None:
    """Blue's clock ran out a second ago."""
    game = services.get_game(game_id)
    since = timezone.now() - dt.timedelta(minutes=1)
    left = 59_000
    Game.objects.filter(id=game_id).update(
        clock={**game.clock, "left": [left, game.clock["left"][1]]}, clock_since=since,
        flag_at=since + dt.timedelta(milliseconds=left))


@pytest.mark.django_db
def test_a_decision_after_the_flag_is_due_ends_the_game_on_time_and_is_refused(people):
    users = {"alice": people["marta"], "bob": people["kofi"]}
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    move = next(t for t in legal(game.id) if len(t) == 1)
    flag_due(game.id)
    answer = decide(token_for(users["alice"], Scope.BOARD_PLAY), game.id, 2, move)
    assert answer.status_code == 409 and answer.json()["code"] == "game_over", answer.content
    assert "time ran out" in answer.json()["error"]
    ended = Game.objects.get(pk=game.id)
    assert ended.status == Game.Status.FINISHED and ended.ply == 2
    assert Turn.objects.filter(game_id=game.id, ply=2, token=move).count() == 0


@pytest.mark.django_db
def test_a_decision_runs_its_modes_open_checks_once(people):
    game = services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[Actor.member(people["marta"]),
                                       Actor.member(people["kofi"])])
    seen: list[str] = []

    def check(opened: Game) -> bool:
        seen.append(opened.id)
        return False  # it changed nothing

    access.on_open("hot-path-test", mode=game.mode)(check)
    try:
        move = next(t for t in services.state_of(services.get_game(game.id), viewer=0)
                    ["legal"] if len(t) == 1)
        answer = decide(token_for(people["marta"], Scope.BOARD_PLAY), game.id, 0, move)
        assert answer.status_code == 200, answer.content
        assert seen == [game.id]
    finally:
        access._OPEN.pop("hot-path-test")


@pytest.mark.django_db
def test_a_decision_for_no_game_or_an_overlong_token_is_refused(people):
    token = token_for(people["marta"], Scope.BOARD_PLAY)
    assert decide(token, "nosuchgame", 0, "a").json()["code"] == "not_found"
    assert decide(token, "no-such", 0, "a").json()["code"] == "not_found"
    game = services.create_game(game_type="cargo-connect", options={"size": 5},
                                seats=[Actor.member(people["marta"]),
                                       Actor.member(people["kofi"])])
    long = decide(token, game.id, 0, "a" * 200)
    assert (long.status_code, long.json()["code"]) == (400, "bad_request")
    assert Game.objects.get(pk=game.id).ply == 0


def test_every_cache_object_of_a_process_shares_one_redis_client():
    """Django makes a cache object per request under ASGI; they share the client and its
    pool (a new one per request opened a connection to Redis per request)."""
    params = {"OPTIONS": {"socket_connect_timeout": 0.2}}
    one, two = (FallbackRedisCache("redis://127.0.0.1:1/5", params) for _ in range(2))
    other = FallbackRedisCache("redis://127.0.0.1:1/6", params)
    assert one is not two and one._cache is two._cache
    assert one._cache._get_connection_pool(True) is two._cache._get_connection_pool(True)
    assert other._cache is not one._cache


def test_the_count_goes_on_in_memory_while_redis_does_not_answer():
    down = FallbackRedisCache("redis://127.0.0.1:1/0", {
        "KEY_PREFIX": "hot", "OPTIONS": {"socket_connect_timeout": 0.2}})
    assert [down.count("api:rl:test:a", 5) for _ in range(3)] == [1, 2, 3]
    assert down.count("api:rl:test:b", 5) == 1


@pytest.mark.skipif(not REDIS, reason="Redis: REDIS_URL")
def test_the_count_is_one_atomic_counter_in_redis_that_expires():
    cache = FallbackRedisCache(str(REDIS), {"KEY_PREFIX": "hot-path-test"})
    key = "api:rl:test:expiring"
    cache.delete(key)
    assert [cache.count(key, 7) for _ in range(3)] == [1, 2, 3]
    assert cache.get(key) == 3
    client = cache._cache.get_client(None, write=True)
    assert 0 < client.ttl(cache.make_and_validate_key(key)) <= 7
    cache.delete(key)


@pytest.mark.django_db
def test_the_limit_refuses_the_request_past_its_count(people):
    token = token_for(people["marta"], Scope.READ)
    with override_settings(API_LIMIT_PER_TOKEN=(2, 60)):
        answers = [bearer_client(token).get("/api/user/marta").status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    limits.clear(limits.per_address(), "127.0.0.1")


@pytest.mark.django_db
def test_the_doors_read_the_bot_flag_with_each_requests_token(people):
    """The BOT check reads the player row loaded with the token, afresh each request."""
    marta = people["marta"]
    board, bot = token_for(marta, Scope.BOARD_PLAY), token_for(marta, Scope.BOT_PLAY)
    url = "/api/{door}/game/nosuchgame/decision"
    body = {"data": json.dumps({"ply": 0, "token": "a"}), "content_type": "application/json"}

    def code(token: str, door: str) -> str:
        return bearer_client(token).post(url.format(door=door), **body).json()["code"]

    assert (code(board, "board"), code(bot, "bot")) == ("not_found", "not_a_bot")
    accounts_bots.mark(marta)
    assert (code(board, "board"), code(bot, "bot")) == ("bot_account", "not_found")
