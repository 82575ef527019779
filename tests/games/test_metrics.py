"""/metrics: the live path's counters in Prometheus's text format, behind a setting."""

import pytest
from django.test import Client
from prometheus_client import REGISTRY

from tests.games.bot_support import eager  # noqa: F401  (fixture)
from tests.games.support import Actor, receive_type, scripted_tokens

pytestmark = pytest.mark.django_db(transaction=True)


def value(name, **labels):
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_are_off_unless_enabled(client, settings):
    settings.METRICS_ENABLED = False
    assert client.get("/metrics").status_code == 404


def test_a_token_guards_them_when_set(client, settings):
    settings.METRICS_ENABLED, settings.METRICS_TOKEN = True, "s3cret"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    answer = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/plain")
    assert b"cargo_turns_applied_total" in answer.content


def test_turns_are_counted_by_the_path_that_stored_them(game, users, settings):
    from games import services

    settings.METRICS_ENABLED, settings.METRICS_TOKEN = True, ""
    warm, locked = (value("cargo_turns_applied_total", path=p) for p in ("warm", "locked"))
    tokens = scripted_tokens(5)
    for ply in range(3):
        name = ("alice", "bob")[ply % 2]
        services.apply_turn(game.id, actor=Actor.of_user(users[name]), ply=ply,
                            token=tokens[ply])
    if not settings.LIVE_FAST_PATH:  # no warm copies (games/fast/): every turn is locked
        assert value("cargo_turns_applied_total", path="locked") - locked == 3
        assert value("cargo_turns_applied_total", path="warm") - warm == 0
        return
    assert value("cargo_turns_applied_total", path="locked") - locked == 1  # then warm
    assert value("cargo_turns_applied_total", path="warm") - warm == 2
    text = Client().get("/metrics").content.decode()
    assert 'cargo_turns_applied_total{path="warm"}' in text


@pytest.mark.asyncio
async def test_refusals_by_code_and_open_sockets(game, connect, settings):
    settings.METRICS_ENABLED = True
    before_open = value("cargo_open_sockets", socket="game")
    before = value("cargo_refusals_total", code="not_your_turn")
    bob = await connect(game.id, "bob")
    assert value("cargo_open_sockets", socket="game") == before_open + 1
    await bob.send_json_to({"type": "turn", "ply": 0, "token": "a"})  # Blue is to move
    frame = await receive_type(bob, "error")
    assert frame["code"] == "not_your_turn"
    assert value("cargo_refusals_total", code="not_your_turn") == before + 1
    await bob.send_json_to({"type": "nonsense"})
    await receive_type(bob, "error")
    assert value("cargo_refusals_total", code="bad_frame") >= 1
    await bob.disconnect()
    assert value("cargo_open_sockets", socket="game") == before_open


def test_cargobots_latency_is_observed_when_it_plays(users, settings, eager):  # noqa: F811
    from games import services

    count = value("cargo_bot_turn_latency_seconds_count")
    game = services.create_bot_game(actor=Actor.of_user(users["alice"]), level="easy",
                                    options={"size": 5}, seat="orange")
    # Blue is CargoBot: its first turn was played by the (eager) task once committed.
    assert services.get_game(game.id).ply == 1
    assert value("cargo_bot_turn_latency_seconds_count") == count + 1


def test_a_fallen_flag_is_counted_once(users):
    from games import tasks
    from tests.clocks.support import pass_time, start, timed_game

    before = value("cargo_flags_fallen_total")
    game = start(timed_game(users["alice"], users["bob"], "3+2"), users)
    pass_time(game.id, 3 * 60 + 2)
    assert tasks.flag_clocks() == [game.id]
    assert tasks.flag_clocks() == []  # the next beat finds nothing
    assert value("cargo_flags_fallen_total") == before + 1
