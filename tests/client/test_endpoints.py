"""The client's requests against a site served over HTTP: a game read for its asker, a
decision, a queue and a resignation each sent where the API expects them with the body it
reads, both doors, and a refusal raised as an `ApiError` with the site's status and code,
nothing changed."""

from __future__ import annotations

import asyncio

import pytest
from cargo_client.api import ApiError, Client
from channels.db import database_sync_to_async

from api.scopes import Scope
from games import services
from tests.api.support import token_for
from tests.client.support import served_site
from tests.games.support import new_game

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_the_clients_requests_reach_their_endpoints(users, bot_account):
    robot, token = await database_sync_to_async(bot_account)("robo")
    game = await database_sync_to_async(new_game)(robot, users["alice"], size=5)
    board = await database_sync_to_async(token_for)(users["alice"], Scope.READ,
                                                    Scope.BOARD_PLAY)
    async with served_site() as url:
        bot, person = Client(url, token), Client(url, board, door="board")

        def requests() -> tuple:
            asked = bot.account_game(game.id)
            first, other = asked["state"]["legal"][:2]
            played = bot.decision(game.id, 0, first)  # Blue, through the bot door
            with pytest.raises(ApiError) as stale:
                bot.decision(game.id, 0, other)  # a used number, another token
            answer = person.account_game(game.id)["state"]
            replied = person.decision(game.id, 1, answer["legal"][0])  # Orange, board door
            with pytest.raises(ApiError) as queued:
                bot.queue(game.id, "1.3", ["<<"])
            resigned = bot.resign(game.id)
            return asked, played, stale.value, replied, queued.value, resigned

        asked, played, stale, replied, queued, resigned = await asyncio.to_thread(requests)
    assert asked["seat"] == 0 and asked["state"]["ply"] == 0
    assert played["ok"] and played["frame"]["ply"] == 0
    assert (stale.status, stale.code) == (409, "stale_ply") and stale.body["state"]["ply"] == 1
    assert replied["ok"] and replied["frame"]["ply"] == 1
    assert (queued.status, queued.code) == (400, "bad_request")  # Cargo Connect: no pre-turns
    assert resigned["ok"]
    row = await database_sync_to_async(services.get_game)(game.id)
    assert row.status == "finished" and row.ply == 2 and row.termination == "resigned"

def test_the_client_refuses_an_address_or_a_door_it_does_not_know():
    with pytest.raises(ValueError, match="the site's address"):
        Client("cargo.example", "t")
    with pytest.raises(ValueError, match="door 'side'"):
        Client("http://cargo.example", "t", door="side")
